// `abikit elf` (text) and `abikit link-check`: the view of an object for people, laid out like
// readelf, with the target abikit decodes from the header. Relocation and symbol rows are
// formatted without printf so that a million of them print in a fraction of a second.
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "elf_format.h"

#include <cstdio>

namespace abikit {

using detail::FastOut;

namespace {

std::string hexStr(uint64_t v, int width = 0) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", width, static_cast<unsigned long long>(v));
  return buf;
}

std::string typeText(uint16_t t) {
  std::string_view n = elfTypeName(t);
  static const char* const kMeaning[] = {"no file type", "relocatable file", "executable file",
                                         "shared object", "core file"};
  if (n.empty()) return "unknown (" + std::to_string(t) + ")";
  return std::string(n) + " (" + kMeaning[t] + ")";
}

std::string sectionTypeText(uint32_t type, uint16_t machine) {
  std::string_view n = elfSectionTypeName(type, machine);
  if (!n.empty()) return std::string(n);
  if (type >= 0x70000000u && type <= 0x7fffffffu) return "LOPROC+" + hexStr(type - 0x70000000u);
  if (type >= 0x60000000u && type <= 0x6fffffffu) return "LOOS+" + hexStr(type - 0x60000000u);
  if (type >= 0x80000000u) return "LOUSER+" + hexStr(type - 0x80000000u);
  return hexStr(type);
}

std::string indexText(uint32_t shndx, uint16_t machine) {
  std::string_view n = elfSpecialSectionIndexName(shndx, machine);
  if (!n.empty()) return std::string(n);
  return std::to_string(shndx);
}

void header(const ElfFile& f, std::string& out) {
  const ElfHeader& h = f.header();
  auto line = [&](const char* key, const std::string& value) {
    out += "  ";
    out += key;
    out.append(12 - std::string_view(key).size(), ' ');
    out += value;
    out += '\n';
  };
  out += "ELF header:\n";
  line("Class:", std::string(h.is64() ? "ELF64" : "ELF32") + ", " +
                     (h.bigEndian() ? "big-endian" : "little-endian"));
  line("Type:", typeText(h.type));
  const ElfMachineInfo* m = f.machine();
  std::string_view machine = elfMachineName(h.machine);
  line("Machine:", (!machine.empty() ? std::string(machine) + " (" + std::to_string(h.machine) + ")"
                                     : "unknown e_machine " + std::to_string(h.machine)));
  std::string_view osabi = elfOsabiName(h.osabi, h.machine);
  line("OS/ABI:", (osabi.empty() ? std::to_string(h.osabi)
                                 : std::string(osabi) + " (" + std::to_string(h.osabi) + ")") +
                      ", ABI version " + std::to_string(h.abi_version));
  line("Entry:", hexStr(h.entry));
  line("Flags:", hexStr(h.flags, 8));
  const ElfFlagsInfo& fi = f.flagsInfo();
  for (const std::string& n : fi.flag_names) out += "                " + n + "\n";
  if (!m) {
    line("Target:",
         "unknown (abikit has no tables for " +
             (machine.empty() ? "e_machine " + std::to_string(h.machine) : std::string(machine)) +
             ")");
  } else {
    line("Target:", fi.target.empty() ? std::string("(not decoded)") : fi.target);
    line("Processor:", fi.processor.empty() ? std::string("(not in e_flags)") : fi.processor);
    std::string props;
    for (const auto& [k, v] : fi.properties) props += (props.empty() ? "" : ", ") + k + "=" + v;
    if (!props.empty()) line("Properties:", props);
  }
  for (const std::string& p : fi.problems) line("Problem:", p);
  for (const std::string& p : f.problems()) line("Problem:", p);
}

void sections(const ElfFile& f, OutputSink& sink) {
  std::string& out = sink.buffer();
  const ElfHeader& h = f.header();
  if (f.sections().empty()) {
    out += "\nThere are no sections in this file.\n";
  } else {
    out += "\nSections (" + std::to_string(f.sections().size()) + ", headers at " +
           hexStr(h.shoff) + "):\n";
    const int aw = h.is64() ? 16 : 8;
    char buf[512];
    std::snprintf(buf, sizeof buf, "  [Nr] %-20s %-16s %-*s %-8s %-8s %-4s %-5s %4s %4s %5s\n",
                  "Name", "Type", aw, "Address", "Offset", "Size", "ES", "Flags", "Link", "Info",
                  "Align");
    out += buf;
    for (const ElfSection& s : f.sections()) {
      std::string name(s.name);
      std::snprintf(
          buf, sizeof buf, "  [%2u] %-20s %-16s %0*llx %08llx %08llx %-4llx %-5s %4u %4u %5llu\n",
          s.index, name.c_str(), sectionTypeText(s.type, h.machine).c_str(), aw,
          static_cast<unsigned long long>(s.addr), static_cast<unsigned long long>(s.offset),
          static_cast<unsigned long long>(s.size), static_cast<unsigned long long>(s.entsize),
          elfSectionFlagLetters(s.flags).c_str(), s.link, s.info,
          static_cast<unsigned long long>(s.addralign));
      // A long name would be cut by the buffer; print it whole.
      if (name.size() > 200) {
        out += "  [" + std::to_string(s.index) + "] " + name + "\n";
      } else {
        out += buf;
      }
      sink.drain();
    }
  }
  if (!f.segments().empty()) {
    out += "\nProgram headers (" + std::to_string(f.segments().size()) + "):\n";
    out += "  Type             Offset             VirtAddr           PhysAddr           FileSiz  "
           "          MemSiz             Flg Align\n";
    char buf[256];
    for (const ElfSegment& g : f.segments()) {
      std::string_view n = elfSegmentTypeName(g.type);
      std::string type = n.empty() ? hexStr(g.type) : std::string(n);
      std::string flg = std::string(g.flags & 4 ? "R" : " ") + (g.flags & 2 ? "W" : " ") +
                        (g.flags & 1 ? "E" : " ");
      std::snprintf(
          buf, sizeof buf, "  %-16s 0x%016llx 0x%016llx 0x%016llx 0x%016llx 0x%016llx %s %s\n",
          type.c_str(), static_cast<unsigned long long>(g.offset),
          static_cast<unsigned long long>(g.vaddr), static_cast<unsigned long long>(g.paddr),
          static_cast<unsigned long long>(g.filesz), static_cast<unsigned long long>(g.memsz),
          flg.c_str(), hexStr(g.align).c_str());
      out += buf;
      sink.drain();
    }
  }
}

void attributes(const ElfFile& f, OutputSink& sink) {
  std::string& out = sink.buffer();
  for (const ElfSection& s : f.sections()) {
    if (s.type != kShtRiscvAttributes || f.header().machine != kEmRiscv) continue;
    BuildAttributes attrs = parseRiscvAttributes(f, s);
    out += "\nAttributes in section '" + std::string(s.name) + "' (section " +
           std::to_string(s.index) + ", format version " + hexStr(attrs.format_version) + "):\n";
    for (const BuildAttributesSubsection& sub : attrs.subsections) {
      out += "  Vendor: " + std::string(sub.vendor);
      if (sub.scope_tag == 2 || sub.scope_tag == 3) {
        out += sub.scope_tag == 2 ? ", sections" : ", symbols";
        for (uint64_t i : sub.scope) out += " " + std::to_string(i);
      }
      out += '\n';
      for (const BuildAttribute& a : sub.attributes) {
        out += "    ";
        out += a.tag_name.empty() ? "Tag_" + std::to_string(a.tag) : std::string(a.tag_name);
        out += ": ";
        if (a.is_string)
          out += std::string(a.string_value);
        else
          out += std::to_string(a.int_value);
        if (!a.description.empty()) out += " (" + a.description + ")";
        out += '\n';
        sink.drain();
      }
    }
    for (const std::string& p : attrs.problems) out += "  Problem: " + p + "\n";
  }
}

void symbols(const ElfFile& f, OutputSink& sink) {
  std::string& out = sink.buffer();
  const ElfHeader& h = f.header();
  const bool is64 = h.is64();
  const int vw = is64 ? 16 : 8;
  std::vector<ElfSymbolTable> tables = f.symbolTables();
  if (tables.empty()) out += "\nThere are no symbol tables in this file.\n";
  FastOut o(out);
  for (const ElfSymbolTable& t : tables) {
    out += "\nSymbol table '" + std::string(t.section().name) + "' (section " +
           std::to_string(t.section().index) + ") contains " + std::to_string(t.size()) +
           " entries:\n";
    out += is64 ? "   Num:    Value          Size Type    Bind   Vis       Ndx Name\n"
                : "   Num:    Value  Size Type    Bind   Vis       Ndx Name\n";
    for (size_t i = 0; i < t.size(); ++i) {
      ElfSymbol s = t[i];
      std::string_view type = elfSymbolTypeName(s.type(), h.machine, h.osabi);
      std::string_view bind = elfSymbolBindingName(s.binding());
      std::string tstr = type.empty() ? std::to_string(s.type()) : std::string(type);
      std::string bstr = bind.empty() ? std::to_string(s.binding()) : std::string(bind);
      std::string ndx = indexText(s.shndx, h.machine);
      char* p = o.room(128 + tstr.size() + bstr.size() + ndx.size() + s.name.size());
      p = detail::putDecRight(p, i, 6);
      *p++ = ':';
      *p++ = ' ';
      p = detail::putHex(p, s.value, vw);
      *p++ = ' ';
      p = detail::putDecRight(p, s.size, 5);
      *p++ = ' ';
      p = detail::putPadded(p, tstr, 7);
      *p++ = ' ';
      p = detail::putPadded(p, bstr, 6);
      *p++ = ' ';
      p = detail::putPadded(p, elfVisibilityName(s.visibility()), 9);
      if (s.other & ~3u) {
        p = detail::putStr(p, "[other 0x");
        p = detail::putHexMin(p, s.other);
        p = detail::putStr(p, "] ");
      }
      for (size_t k = ndx.size(); k < 4; ++k) *p++ = ' ';
      p = detail::putStr(p, ndx);
      *p++ = ' ';
      p = detail::putStr(p, s.type() == kSttSection && s.name.empty()
                                ? detail::relocationSymbolName(f, s)
                                : s.name);
      *p++ = '\n';
      o.commit(p);
      if (auto kd = amdgpuKernelDescriptorFor(f, s)) {
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "        kernel descriptor: group_segment_fixed_size %u, "
                      "private_segment_fixed_size %u, kernarg_size %u, "
                      "kernel_code_entry_byte_offset %lld, compute_pgm_rsrc1 0x%08x, "
                      "compute_pgm_rsrc2 0x%08x, compute_pgm_rsrc3 0x%08x, "
                      "kernel_code_properties 0x%04x, kernarg_preload 0x%04x\n",
                      kd->group_segment_fixed_size, kd->private_segment_fixed_size,
                      kd->kernarg_size, static_cast<long long>(kd->kernel_code_entry_byte_offset),
                      kd->compute_pgm_rsrc1, kd->compute_pgm_rsrc2, kd->compute_pgm_rsrc3,
                      kd->kernel_code_properties, kd->kernarg_preload);
        out += buf;
        if (!kd->properties.empty()) {
          out += "          properties:";
          for (const std::string& n : kd->properties) out += " " + n;
          out += '\n';
        }
        for (const std::string& pr : kd->problems) out += "          problem: " + pr + "\n";
      }
      sink.drain();
    }
  }
}

void relocations(const ElfFile& f, OutputSink& sink) {
  std::string& out = sink.buffer();
  const ElfHeader& h = f.header();
  const bool is64 = h.is64();
  const int w = is64 ? 16 : 8;
  std::vector<ElfRelocationTable> tables = f.relocationTables();
  if (tables.empty()) out += "\nThere are no relocations in this file.\n";
  FastOut o(out);
  // Type names are looked up once per distinct type.
  struct CachedType {
    uint32_t type = ~0u;
    const RelocationType* rel = nullptr;
    std::string name;
  };
  CachedType cache[64];
  for (const ElfRelocationTable& t : tables) {
    out += "\nRelocation section '" + std::string(t.section().name) + "' (section " +
           std::to_string(t.section().index) + ", " + (t.rela() ? "RELA" : "REL") + ") applies to ";
    out += t.target() ? "'" + std::string(t.target()->name) + "'" : std::string("no section");
    if (t.symbols().size())
      out += ", symbols from '" + std::string(t.symbols().section().name) + "'";
    out += ", " + std::to_string(t.size()) + " entries:\n";
    out += is64 ? "    Offset             Info             Type                   Symbol's Value  "
                  "Symbol's Name + Addend\n"
                : " Offset     Info    Type                   Sym. Value  Symbol's Name + Addend\n";
    const size_t n = t.size();
    for (size_t i = 0; i < n; ++i) {
      ElfRelocation r = t[i];
      CachedType& c = cache[r.type & 63];
      if (c.type != r.type) {
        c.type = r.type;
        c.rel = elfRelocationType(f, r.type);
        c.name = c.rel ? std::string(c.rel->name) : "unknown (" + std::to_string(r.type) + ")";
      }
      uint64_t svalue = 0;
      std::string_view sname;
      if (r.symbol) {
        ElfSymbol s = t.symbols()[r.symbol];
        svalue = s.value;
        sname = detail::relocationSymbolName(f, s);
      }
      char* p = o.room(size_t(2 * w + 64) + c.name.size() + sname.size());
      p = detail::putHex(p, r.offset, w);
      *p++ = ' ';
      *p++ = ' ';
      p = detail::putHex(p, r.info, w);
      *p++ = ' ';
      p = detail::putPadded(p, c.name, 22);
      *p++ = ' ';
      p = detail::putHex(p, svalue, w);
      *p++ = ' ';
      if (!is64) {
        *p++ = ' ';
        *p++ = ' ';
      }
      p = detail::putStr(p, r.symbol ? sname : std::string_view("(no symbol)"));
      if (t.rela()) {
        bool neg = r.addend < 0;
        p = detail::putStr(p, neg ? " - 0x" : " + 0x");
        p = detail::putHexMin(p, neg ? uint64_t(0) - uint64_t(r.addend) : uint64_t(r.addend));
      }
      *p++ = '\n';
      o.commit(p);
      if (c.rel && !c.rel->moves.empty()) {
        if (auto patch = relocationPatch(f, t, r)) {
          char buf[160];
          std::snprintf(buf, sizeof buf, "    field: V = 0x%llx, word 0x%0*llx -> 0x%0*llx\n",
                        static_cast<unsigned long long>(patch->value), patch->size * 2,
                        static_cast<unsigned long long>(patch->before), patch->size * 2,
                        static_cast<unsigned long long>(patch->after));
          out += buf;
        }
      }
      sink.drain();
    }
  }
}

void hexBytes(std::span<const uint8_t> d, std::string& out) {
  static const char kHex[] = "0123456789abcdef";
  for (size_t i = 0; i < d.size(); ++i) {
    out += ' ';
    out += kHex[d[i] >> 4];
    out += kHex[d[i] & 15];
  }
}

void notes(const ElfFile& f, OutputSink& sink) {
  std::string& out = sink.buffer();
  std::vector<ElfNote> all = f.notes();
  if (all.empty()) {
    out += "\nThere are no notes in this file.\n";
    return;
  }
  const void* where = nullptr;
  for (const ElfNote& n : all) {
    const void* here = n.section ? static_cast<const void*>(n.section) : n.segment;
    if (here != where) {
      where = here;
      if (n.section)
        out += "\nNotes in section '" + std::string(n.section->name) + "' (section " +
               std::to_string(n.section->index) + "):\n";
      else
        out += "\nNotes in segment " + std::to_string(n.segment->index) + ":\n";
      out += "  Owner                Data size \tDescription\n";
    }
    DecodedNote d = decodeNote(f, n);
    char buf[64];
    std::snprintf(buf, sizeof buf, "0x%08zx\t", n.desc.size());
    std::string owner(n.name);
    out += "  " + owner;
    out.append(owner.size() < 20 ? 21 - owner.size() : 1, ' ');
    out += buf;
    if (d.type_name.empty()) {
      std::snprintf(buf, sizeof buf, "Unknown note type: (0x%08x)", n.type);
      out += buf;
    } else {
      out += d.type_name + " (" + d.description + ")";
    }
    out += '\n';
    if (d.raw) {
      if (!n.desc.empty()) {
        out += "   description data:";
        hexBytes(n.desc, out);
        out += '\n';
      }
    } else if (d.body_indented) {
      out += "    " + d.description + ":\n        " + d.body + "\n";
    } else {
      out += "    " + d.body + "\n";
    }
    for (const std::string& p : d.problems) out += "    Problem: " + p + "\n";
    sink.drain();
  }
}

} // namespace

void writeElfText(const ElfFile& file, const ElfViewOptions& options, OutputSink& sink) {
  std::string& out = sink.buffer();
  out += "File: " + file.name() + "\n";
  header(file, out);
  sink.drain();
  sections(file, sink);
  attributes(file, sink);
  if (options.symbols) symbols(file, sink);
  if (options.relocs) relocations(file, sink);
  if (options.notes) notes(file, sink);
  sink.drain();
}

void appendElfText(const ElfFile& file, const ElfViewOptions& options, std::string& out) {
  OutputSink sink(std::move(out));
  try {
    writeElfText(file, options, sink);
  } catch (...) {
    out = std::move(sink.buffer());
    throw;
  }
  out = std::move(sink.buffer());
}

std::string linkCheckText(std::span<const LinkConflict> conflicts) {
  if (conflicts.empty()) return "compatible\n";
  std::string out;
  for (const LinkConflict& c : conflicts) out += c.line() + "\n";
  return out;
}

} // namespace abikit
