// `abikit elf --json`: schema "abikit/1"; the keys are documented in docs/elf.md. Streamed
// (detail::JsonWriter into the OutputSink, no DOM) so that large symbol and relocation tables
// stay cheap.
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "elf_format.h"
#include "json_writer.h"

#include <algorithm>

namespace abikit {

namespace {

using Kind = MsgPackNode::Kind;

using Json = detail::JsonWriter<detail::kJsonCompact>;

// A value as a hex string of `digits` digits ("0x0000002a").
void hex(Json& j, std::string_view k, uint64_t v, int digits) {
  char buf[24];
  buf[0] = '0';
  buf[1] = 'x';
  j.key(k);
  j.value(std::string_view(buf, size_t(detail::putHex(buf + 2, v, digits) - buf)));
}

std::string hexString(std::span<const uint8_t> d) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  s.reserve(d.size() * 2);
  for (uint8_t b : d) {
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

void msgpackValue(Json& j, const MsgPackDocument& doc, size_t i) {
  const MsgPackNode& n = doc.nodes()[i];
  switch (n.kind) {
  case Kind::Nil:
    j.null();
    return;
  case Kind::Bool:
    j.value(n.b);
    return;
  case Kind::UInt:
    j.value(n.u);
    return;
  case Kind::Int:
    j.value(n.i);
    return;
  case Kind::Float:
    j.value(n.f);
    return;
  case Kind::String:
    j.value(n.str);
    return;
  case Kind::Binary:
    j.value(hexString({reinterpret_cast<const uint8_t*>(n.str.data()), n.str.size()}));
    return;
  case Kind::Array: {
    j.beginArray();
    size_t c = i + 1;
    for (uint32_t k = 0; k < n.count; ++k) {
      msgpackValue(j, doc, c);
      c += doc.nodes()[c].subtree;
    }
    j.endArray();
    return;
  }
  case Kind::Map: {
    j.beginObject();
    size_t c = i + 1;
    for (uint32_t k = 0; k < n.count; ++k) {
      const MsgPackNode& key = doc.nodes()[c];
      if (key.kind == Kind::String) {
        j.key(key.str);
      } else {
        // JSON keys are strings: other scalars are spelled out.
        std::string text;
        if (key.kind == Kind::UInt)
          text = std::to_string(key.u);
        else if (key.kind == Kind::Int)
          text = std::to_string(key.i);
        else if (key.kind == Kind::Bool)
          text = key.b ? "true" : "false";
        else if (key.kind == Kind::Float)
          text = std::to_string(key.f);
        else if (key.kind == Kind::Binary)
          text = hexString({reinterpret_cast<const uint8_t*>(key.str.data()), key.str.size()});
        j.key(text);
      }
      c += key.subtree;
      msgpackValue(j, doc, c);
      c += doc.nodes()[c].subtree;
    }
    j.endObject();
    return;
  }
  }
}

std::string sectionTypeName(uint32_t type, uint16_t machine) {
  std::string_view n = elfSectionTypeName(type, machine);
  return n.empty() ? std::string() : std::string(n);
}

void header(Json& j, const ElfFile& f) {
  const ElfHeader& h = f.header();
  j.key("header");
  j.beginObject();
  j.field("class", h.is64() ? "ELF64" : "ELF32");
  j.field("data", h.bigEndian() ? "big-endian" : "little-endian");
  j.field("type", uint32_t(h.type));
  j.field("type_name", elfTypeName(h.type));
  j.field("machine", uint32_t(h.machine));
  j.field("machine_name", elfMachineName(f.header().machine));
  j.field("osabi", uint32_t(h.osabi));
  j.field("osabi_name", elfOsabiName(h.osabi, h.machine));
  j.field("abi_version", uint32_t(h.abi_version));
  j.field("version", h.version);
  j.field("entry", h.entry);
  j.field("flags", h.flags);
  hex(j, "flags_hex", h.flags, 8);
  j.field("phoff", h.phoff);
  j.field("shoff", h.shoff);
  j.field("phnum", h.phnum);
  j.field("shnum", h.shnum);
  j.field("shstrndx", h.shstrndx);
  j.endObject();

  j.key("target");
  if (!f.machine()) {
    j.null();
  } else {
    const ElfFlagsInfo& fi = f.flagsInfo();
    j.beginObject();
    j.field("family", familyName(f.machine()->family));
    j.field("triple", fi.target);
    j.field("processor", fi.processor);
    j.field("flag_names", fi.flag_names);
    j.key("properties");
    j.beginObject();
    for (const auto& [k, v] : fi.properties) j.field(k, v);
    j.endObject();
    j.field("problems", fi.problems);
    j.endObject();
  }
  j.field("problems", f.problems());
}

void sections(Json& j, const ElfFile& f) {
  j.key("sections");
  j.beginArray();
  for (const ElfSection& s : f.sections()) {
    j.beginObject();
    j.field("index", s.index);
    j.field("name", s.name);
    j.field("type", s.type);
    j.field("type_name", sectionTypeName(s.type, f.header().machine));
    j.field("flags", s.flags);
    j.field("flag_letters", elfSectionFlagLetters(s.flags));
    j.field("address", s.addr);
    j.field("offset", s.offset);
    j.field("size", s.size);
    j.field("link", s.link);
    j.field("info", s.info);
    j.field("align", s.addralign);
    j.field("entsize", s.entsize);
    j.endObject();
    j.drain();
  }
  j.endArray();
  j.key("segments");
  j.beginArray();
  for (const ElfSegment& g : f.segments()) {
    j.beginObject();
    j.field("index", g.index);
    j.field("type", g.type);
    j.field("type_name", elfSegmentTypeName(g.type));
    j.field("flags", g.flags);
    j.field("offset", g.offset);
    j.field("vaddr", g.vaddr);
    j.field("paddr", g.paddr);
    j.field("filesz", g.filesz);
    j.field("memsz", g.memsz);
    j.field("align", g.align);
    j.endObject();
    j.drain();
  }
  j.endArray();
}

void attributes(Json& j, const ElfFile& f) {
  j.key("attributes");
  j.beginArray();
  for (const ElfSection& s : f.sections()) {
    if (s.type != kShtRiscvAttributes || f.header().machine != kEmRiscv) continue;
    BuildAttributes attrs = parseRiscvAttributes(f, s);
    j.beginObject();
    j.field("section", s.name);
    j.field("format_version", uint32_t(attrs.format_version));
    j.key("subsections");
    j.beginArray();
    for (const BuildAttributesSubsection& sub : attrs.subsections) {
      j.beginObject();
      j.field("vendor", sub.vendor);
      j.field("scope", sub.scope_tag == 1 ? "file" : sub.scope_tag == 2 ? "section" : "symbol");
      j.key("indices");
      j.beginArray();
      for (uint64_t i : sub.scope) j.value(i);
      j.endArray();
      j.key("attributes");
      j.beginArray();
      for (const BuildAttribute& a : sub.attributes) {
        j.beginObject();
        j.field("tag", a.tag);
        j.field("name", a.tag_name);
        if (a.is_string)
          j.field("value", a.string_value);
        else
          j.field("value", a.int_value);
        if (!a.description.empty()) j.field("description", a.description);
        j.endObject();
      }
      j.endArray();
      j.endObject();
    }
    j.endArray();
    j.field("problems", attrs.problems);
    j.endObject();
  }
  j.endArray();
}

void kernelDescriptor(Json& j, const AmdgpuKernelDescriptor& kd) {
  j.key("kernel_descriptor");
  j.beginObject();
  j.field("group_segment_fixed_size", kd.group_segment_fixed_size);
  j.field("private_segment_fixed_size", kd.private_segment_fixed_size);
  j.field("kernarg_size", kd.kernarg_size);
  j.field("kernel_code_entry_byte_offset", kd.kernel_code_entry_byte_offset);
  j.field("compute_pgm_rsrc1", kd.compute_pgm_rsrc1);
  j.field("compute_pgm_rsrc2", kd.compute_pgm_rsrc2);
  j.field("compute_pgm_rsrc3", kd.compute_pgm_rsrc3);
  j.field("kernel_code_properties", uint32_t(kd.kernel_code_properties));
  j.field("kernel_code_property_names", kd.properties);
  j.field("kernarg_preload", uint32_t(kd.kernarg_preload));
  j.field("problems", kd.problems);
  j.endObject();
}

void symbols(Json& j, const ElfFile& f) {
  const ElfHeader& h = f.header();
  j.key("symbols");
  j.beginArray();
  for (const ElfSymbolTable& t : f.symbolTables()) {
    j.beginObject();
    j.field("table", t.section().name);
    j.field("section_index", t.section().index);
    j.key("entries");
    j.beginArray();
    for (size_t i = 0; i < t.size(); ++i) {
      ElfSymbol s = t[i];
      j.beginObject();
      j.field("index", s.index);
      j.field("name", s.name);
      j.field("value", s.value);
      j.field("size", s.size);
      j.field("type", elfSymbolTypeName(s.type(), h.machine, h.osabi));
      j.field("type_value", uint32_t(s.type()));
      j.field("binding", elfSymbolBindingName(s.binding()));
      j.field("binding_value", uint32_t(s.binding()));
      j.field("visibility", elfVisibilityName(s.visibility()));
      j.field("other", uint32_t(s.other));
      j.field("shndx", s.shndx);
      std::string_view special = elfSpecialSectionIndexName(s.shndx, h.machine);
      if (!special.empty())
        j.field("section", special);
      else if (s.shndx < f.sections().size() && s.shndx < kShnLoReserve)
        j.field("section", f.sections()[s.shndx].name);
      else
        j.field("section", std::string_view());
      if (auto kd = amdgpuKernelDescriptorFor(f, s)) kernelDescriptor(j, *kd);
      j.endObject();
      j.drain();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
}

void relocations(Json& j, const ElfFile& f) {
  std::vector<const RelocationType*> used;
  j.key("relocations");
  j.beginArray();
  for (const ElfRelocationTable& t : f.relocationTables()) {
    j.beginObject();
    j.field("section", t.section().name);
    j.field("section_index", t.section().index);
    j.field("format", t.rela() ? "RELA" : "REL");
    j.field("target", t.target() ? t.target()->name : std::string_view());
    j.field("symbols", t.symbols().size() ? t.symbols().section().name : std::string_view());
    j.key("entries");
    j.beginArray();
    uint32_t last_type = ~0u;
    const RelocationType* rel = nullptr;
    for (size_t i = 0; i < t.size(); ++i) {
      ElfRelocation r = t[i];
      if (r.type != last_type) {
        last_type = r.type;
        rel = elfRelocationType(f, r.type);
        if (rel && std::find(used.begin(), used.end(), rel) == used.end()) used.push_back(rel);
      }
      j.beginObject();
      j.field("offset", r.offset);
      j.field("type", r.type);
      j.field("type_name", rel ? rel->name : std::string_view());
      j.field("symbol", r.symbol);
      if (r.symbol) {
        ElfSymbol s = t.symbols()[r.symbol];
        j.field("symbol_name", detail::relocationSymbolName(f, s));
        j.field("symbol_value", s.value);
      } else {
        j.field("symbol_name", std::string_view());
        j.field("symbol_value", uint64_t(0));
      }
      if (t.rela()) j.field("addend", r.addend);
      if (rel && !rel->moves.empty())
        if (auto p = relocationPatch(f, t, r)) {
          j.field("value", p->value);
          hex(j, "field_before", p->before, p->size * 2);
          hex(j, "field_after", p->after, p->size * 2);
        }
      j.endObject();
      j.drain();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
  // The table rows of the relocation types used, with how they patch their field.
  j.key("relocation_types");
  j.beginArray();
  std::sort(used.begin(), used.end(),
            [](const RelocationType* a, const RelocationType* b) { return a->type < b->type; });
  for (const RelocationType* r : used) {
    j.beginObject();
    j.field("type", r->type);
    j.field("name", r->name);
    j.field("size", uint32_t(r->size));
    j.field("value_bits", uint32_t(r->value_bits ? r->value_bits : r->size * 8));
    j.field("calculation", r->calculation);
    j.field("description", r->description);
    j.field("overwrite", r->overwrite);
    j.field("signed", r->sign_extend);
    j.key("moves");
    j.beginArray();
    for (const RelocBitMove& m : r->moves) {
      j.beginObject();
      j.field("from", uint32_t(m.from));
      j.field("to", uint32_t(m.to));
      j.field("count", uint32_t(m.count));
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
}

void notes(Json& j, const ElfFile& f) {
  j.key("notes");
  j.beginArray();
  for (const ElfNote& n : f.notes()) {
    DecodedNote d = decodeNote(f, n);
    j.beginObject();
    if (n.section)
      j.field("section", n.section->name);
    else
      j.field("segment", n.segment->index);
    j.field("owner", n.name);
    j.field("type", n.type);
    j.field("type_name", d.type_name);
    j.field("description", d.description);
    j.field("offset", n.offset);
    j.field("size", uint64_t(n.desc.size()));
    if (d.msgpack && !d.raw) {
      j.key("metadata");
      msgpackValue(j, *d.msgpack, 0);
    }
    if (!d.text.empty()) j.field("text", d.text);
    if (!d.fields.empty()) {
      j.key("fields");
      if (n.name == "AMD" && n.type == kNtAmdPalMetadata) {
        j.beginArray();
        for (const auto& [k, v] : d.fields) {
          j.beginArray();
          j.value(uint64_t(std::stoull(k)));
          j.value(uint64_t(std::stoull(v)));
          j.endArray();
        }
        j.endArray();
      } else {
        j.beginObject();
        for (const auto& [k, v] : d.fields) j.field(k, v);
        j.endObject();
      }
    }
    if (d.raw) j.field("data_hex", hexString(n.desc));
    j.field("problems", d.problems);
    j.endObject();
    j.drain();
  }
  j.endArray();
}

void fileObject(Json& j, const ElfFile& file, const ElfViewOptions& options) {
  j.beginObject();
  j.field("file", file.name());
  header(j, file);
  j.drain();
  sections(j, file);
  attributes(j, file);
  j.drain();
  if (options.symbols) symbols(j, file);
  if (options.relocs) relocations(j, file);
  if (options.notes) notes(j, file);
  j.endObject();
  j.drain();
}

} // namespace

void writeElfJson(const ElfFile& file, const ElfViewOptions& options, OutputSink& sink) {
  detail::TextBuffer out(sink);
  Json j(out);
  fileObject(j, file, options);
}

void writeElfJson(std::span<const ElfFile* const> files, const ElfViewOptions& options,
                  OutputSink& sink) {
  detail::TextBuffer out(sink);
  Json j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.key("files");
  j.beginArray();
  for (const ElfFile* f : files) fileObject(j, *f, options);
  j.endArray();
  j.endObject();
  out.put('\n');
}

void appendElfJson(const ElfFile& file, const ElfViewOptions& options, std::string& out) {
  OutputSink sink(std::move(out));
  try {
    writeElfJson(file, options, sink);
  } catch (...) {
    out = std::move(sink.buffer());
    throw;
  }
  out = std::move(sink.buffer());
}

std::string elfJson(std::span<const ElfFile* const> files, const ElfViewOptions& options) {
  OutputSink sink;
  writeElfJson(files, options, sink);
  return std::move(sink.buffer());
}

std::string linkCheckJson(std::span<const ElfFile* const> files,
                          std::span<const LinkConflict> conflicts) {
  detail::TextBuffer out(256);
  Json j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("compatible", conflicts.empty());
  j.key("files");
  j.beginArray();
  for (const ElfFile* f : files) j.value(std::string_view(f->name()));
  j.endArray();
  j.key("conflicts");
  j.beginArray();
  for (const LinkConflict& c : conflicts) {
    j.beginObject();
    j.field("files", c.files);
    j.field("reasons", c.reasons);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string elfText(std::span<const ElfFile* const> files, const ElfViewOptions& options) {
  std::string out;
  for (size_t i = 0; i < files.size(); ++i) {
    if (i) out += '\n';
    appendElfText(*files[i], options, out);
  }
  return out;
}

} // namespace abikit
