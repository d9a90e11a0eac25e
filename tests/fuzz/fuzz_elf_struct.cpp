// Structure-aware libFuzzer target for the ELF reader and writers: the input is not an object
// but a recipe for one. A header record picks the class (ELF32/64), the byte order, e_machine
// (RISC-V 243, AMDGPU 224, CUDA 190, DPU 245, Graphcore IPU 248, or any value), e_type and
// e_flags; then records add sections: string tables, symbol tables (with SHT_SYMTAB_SHNDX),
// REL/RELA sections whose entries name symbols and types of the machine's table, notes (AMDGPU,
// AMD, GNU, NVIDIA owners; MessagePack, V2 records, raw bytes), `.riscv.attributes`, raw
// sections with any header values, PT_NOTE/PT_LOAD segments, repeats of a section header
// (tens of thousands of sections, extended numbering, many tables over one range), and last,
// byte patches of the built image. Links and indices are mostly valid, so that the fuzzer gets
// past the header checks into the tables, notes and writers.
//
// Each object goes through what `abikit elf FILE --symbols --relocs --notes [--json]` runs:
// ElfFile::fromMemory, checkElfView, then the text and JSON writers into a sink that drains in
// 64 KB chunks (and drops them). The property checked besides ASan/UBSan: once checkElfView()
// accepted a file, the writers do not throw (the CLI streams them and could not take back what
// it wrote). link-check runs on the object twice. ABIKIT_FUZZ_DUMP=FILE saves the object built
// from an input, e.g. `ABIKIT_FUZZ_DUMP=x.o abikit_fuzz_elf_struct crash-...; abikit elf x.o`.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// Drops what it is handed: the writers' output is produced and thrown away chunk by chunk.
class DropSink : public abikit::OutputSink {
public:
  DropSink() : OutputSink({}, kChunk) {}
  void flush() override { buffer_.clear(); }
};

struct Section {
  uint32_t name = 0, type = 0;
  uint64_t flags = 0, addr = 0, size = 0;
  uint32_t link = 0, info = 0;
  uint64_t align = 1, entsize = 0;
  std::string bytes;
  int64_t shared = -1;     // shares the contents of this section (a repeat)
  bool raw_offset = false; // `offset` below is used as is
  uint64_t offset = 0;
};

struct Segment {
  uint32_t type = 0, flags = 0;
  int64_t section = -1; // covers this section's contents
  uint64_t offset = 0, size = 0, align = 4;
};

class Builder {
public:
  explicit Builder(FuzzedDataProvider& in) : in_(in) {
    const uint8_t mode = in_.ConsumeIntegral<uint8_t>();
    is64_ = !(mode & 1);
    big_ = mode & 2;
    static constexpr uint16_t kMachines[] = {abikit::kEmRiscv, abikit::kEmAmdgpu, abikit::kEmCuda,
                                             abikit::kEmDpu, abikit::kEmGraphcoreIpu};
    const uint8_t m = in_.ConsumeIntegral<uint8_t>();
    machine_ = m < 250 ? kMachines[m % 5] : in_.ConsumeIntegral<uint16_t>();
    type_ = uint16_t(1 + (mode >> 2) % 3); // REL, EXEC, DYN
    flags_ = in_.ConsumeIntegral<uint32_t>();
    osabi_ = in_.ConsumeIntegral<uint8_t>();
    abi_version_ = in_.ConsumeIntegral<uint8_t>();
    sections_.push_back({}); // SHT_NULL
  }

  std::vector<uint8_t> build() {
    while (in_.remaining_bytes() > 0 && sections_.size() < kMaxSections) record();
    return image();
  }

private:
  static constexpr size_t kMaxSections = 70000;     // past SHN_LORESERVE: extended numbering
  static constexpr uint64_t kMaxRepeated = 1 << 20; // bytes of tables repeats may describe

  // Names in .shstrtab (offsets into kNames).
  static constexpr char kNames[] = "\0.text\0.data\0.bss\0.symtab\0.strtab\0.rel.text\0.rela.text"
                                   "\0.note\0.riscv.attributes\0.dynsym\0.symtab_shndx\0.shstrtab";
  static uint32_t nameOffset(std::string_view name) {
    std::string_view all(kNames, sizeof kNames);
    return uint32_t(all.find(std::string(1, '\0') + std::string(name) + '\0') + 1);
  }
  uint32_t nameFor(uint32_t type) {
    switch (type) {
    case 1:
      return nameOffset(".text");
    case 2:
      return nameOffset(".symtab");
    case 3:
      return nameOffset(".strtab");
    case 4:
      return nameOffset(".rela.text");
    case 7:
      return nameOffset(".note");
    case 8:
      return nameOffset(".bss");
    case 9:
      return nameOffset(".rel.text");
    case 11:
      return nameOffset(".dynsym");
    case 18:
      return nameOffset(".symtab_shndx");
    case 0x70000003:
      return nameOffset(".riscv.attributes");
    default:
      return in_.ConsumeIntegralInRange<uint32_t>(0, sizeof kNames - 1);
    }
  }

  void put(std::string& b, uint64_t v, int n) const {
    for (int i = 0; i < n; ++i) b += char(uint8_t(v >> (8 * (big_ ? n - 1 - i : i))));
  }
  void word(std::string& b, uint64_t v) const { put(b, v, is64_ ? 8 : 4); }

  // An index of an earlier section of `type` (the last one, or one picked), 0 when none.
  uint32_t pick(uint32_t type) {
    std::vector<uint32_t> of;
    for (size_t i = sections_.size(); i-- > 1 && of.size() < 8;)
      if (sections_[i].type == type) of.push_back(uint32_t(i));
    if (of.empty()) return 0;
    return of[in_.ConsumeIntegralInRange<size_t>(0, of.size() - 1)];
  }
  uint32_t anySection() {
    return in_.ConsumeIntegralInRange<uint32_t>(0, uint32_t(sections_.size() - 1));
  }
  uint32_t add(Section s) {
    if (!s.name) s.name = nameFor(s.type);
    sections_.push_back(std::move(s));
    return uint32_t(sections_.size() - 1);
  }

  void record() {
    switch (in_.ConsumeIntegralInRange<int>(0, 11)) {
    case 0: { // string table
      Section s;
      s.type = 3;
      s.bytes = std::string(1, '\0') + in_.ConsumeRandomLengthString(256);
      if (in_.ConsumeBool()) s.bytes += '\0';
      add(std::move(s));
      break;
    }
    case 1:
    case 2: { // symbol table
      uint32_t strings = pick(3);
      if (!strings) strings = add({.type = 3, .bytes = std::string("\0a\0main\0x.kd\0", 13)});
      Section s;
      s.type = in_.ConsumeIntegralInRange<int>(0, 7) ? 2 : 11;
      s.link = strings;
      s.info = 1;
      s.align = is64_ ? 8 : 4;
      s.entsize = is64_ ? 24 : 16;
      const size_t n = in_.ConsumeIntegralInRange<size_t>(0, 64);
      s.bytes.assign(size_t(s.entsize), '\0');
      for (size_t i = 0; i < n; ++i) {
        uint32_t name = in_.ConsumeIntegralInRange<uint32_t>(0, 16);
        uint8_t info = in_.ConsumeIntegral<uint8_t>();
        uint8_t other = in_.ConsumeIntegral<uint8_t>();
        uint16_t shndx =
            in_.ConsumeBool()
                ? uint16_t(anySection())
                : in_.PickValueInArray<uint16_t>({0, 0xfff1, 0xfff2, 0xff00, 0xffff, 0xfff0});
        uint64_t value = in_.ConsumeIntegralInRange<uint64_t>(0, 256);
        uint64_t size = in_.ConsumeBool() ? 64 : in_.ConsumeIntegral<uint8_t>();
        put(s.bytes, name, 4);
        if (is64_) {
          s.bytes += char(info);
          s.bytes += char(other);
          put(s.bytes, shndx, 2);
          put(s.bytes, value, 8);
          put(s.bytes, size, 8);
        } else {
          put(s.bytes, value, 4);
          put(s.bytes, size, 4);
          s.bytes += char(info);
          s.bytes += char(other);
          put(s.bytes, shndx, 2);
        }
      }
      add(std::move(s));
      break;
    }
    case 3: { // SHT_SYMTAB_SHNDX for a symbol table
      uint32_t table = pick(2);
      if (!table) break;
      Section s;
      s.type = 18;
      s.link = table;
      s.align = 4;
      s.entsize = 4;
      const size_t n = in_.ConsumeIntegralInRange<size_t>(0, 64);
      for (size_t i = 0; i < n; ++i) put(s.bytes, anySection(), 4);
      add(std::move(s));
      break;
    }
    case 4:
    case 5: { // relocations
      const bool rela = in_.ConsumeBool();
      Section s;
      s.type = rela ? 4 : 9;
      s.flags = 0x40;
      s.link = in_.ConsumeIntegralInRange<int>(0, 7) ? pick(2) : 0;
      s.info = in_.ConsumeIntegralInRange<int>(0, 7) ? pick(1) : anySection();
      s.align = is64_ ? 8 : 4;
      s.entsize = rela ? (is64_ ? 24 : 12) : (is64_ ? 16 : 8);
      const size_t n = in_.ConsumeIntegralInRange<size_t>(0, 128);
      for (size_t i = 0; i < n; ++i) {
        uint64_t offset = in_.ConsumeIntegralInRange<uint64_t>(0, 80);
        uint32_t type = in_.ConsumeIntegral<uint8_t>(); // every table's types, DPU's 128+
        uint32_t symbol = in_.ConsumeIntegralInRange<uint32_t>(0, 70);
        word(s.bytes, offset);
        word(s.bytes, is64_ ? (uint64_t(symbol) << 32 | type) : (symbol << 8 | (type & 0xff)));
        if (rela) word(s.bytes, uint64_t(in_.ConsumeIntegralInRange<int64_t>(-64, 64)));
      }
      add(std::move(s));
      break;
    }
    case 6: { // notes
      Section s;
      s.type = 7;
      s.flags = 2;
      s.align = in_.ConsumeBool() ? 4 : 8;
      const size_t n = in_.ConsumeIntegralInRange<size_t>(1, 8);
      for (size_t i = 0; i < n; ++i) {
        std::string owner = in_.PickValueInArray<const char*>(
            {"AMDGPU", "AMD", "GNU", "NVIDIA Corp", "UPMEM", "", "X"});
        uint32_t type =
            in_.PickValueInArray<uint32_t>({1, 2, 3, 4, 5, 6, 10, 11, 12, 32, 33, 0x100});
        std::string desc = in_.ConsumeRandomLengthString(512);
        uint32_t namesz = owner.empty() ? 0 : uint32_t(owner.size() + 1);
        put(s.bytes, namesz, 4);
        put(s.bytes, desc.size(), 4);
        put(s.bytes, type, 4);
        s.bytes += owner;
        if (namesz) s.bytes += '\0';
        while (s.bytes.size() % s.align) s.bytes += '\0';
        s.bytes += desc;
        while (s.bytes.size() % s.align) s.bytes += '\0';
      }
      add(std::move(s));
      break;
    }
    case 7: { // .riscv.attributes: 'A', a subsection "riscv", a Tag_File of fuzz bytes
      Section s;
      s.type = 0x70000003;
      std::string tags = in_.ConsumeRandomLengthString(128);
      std::string file;
      file += char(1); // Tag_File
      put(file, uint32_t(5 + tags.size()), 4);
      file += tags;
      std::string sub = "riscv";
      sub += '\0';
      sub += file;
      s.bytes = "A";
      put(s.bytes, uint32_t(4 + sub.size()), 4);
      s.bytes += sub;
      add(std::move(s));
      break;
    }
    case 8: { // a section with any header values
      Section s;
      s.type = in_.ConsumeBool() ? in_.ConsumeIntegral<uint32_t>()
                                 : in_.PickValueInArray<uint32_t>({1, 8, 0x70000007, 0x6fffffff});
      s.flags = in_.ConsumeIntegral<uint8_t>();
      s.addr = in_.ConsumeIntegralInRange<uint64_t>(0, 4096);
      s.link = in_.ConsumeIntegralInRange<uint32_t>(0, uint32_t(sections_.size() + 2));
      s.info = in_.ConsumeIntegralInRange<uint32_t>(0, uint32_t(sections_.size() + 2));
      s.align = uint64_t(1) << in_.ConsumeIntegralInRange<int>(0, 4);
      s.entsize = in_.ConsumeIntegral<uint8_t>();
      s.bytes = in_.ConsumeRandomLengthString(256);
      if (in_.ConsumeBool()) {
        s.raw_offset = true;
        s.offset = in_.ConsumeIntegral<uint32_t>();
        s.size = in_.ConsumeIntegral<uint32_t>();
      }
      add(std::move(s));
      break;
    }
    case 9: { // repeats of the last section header over the same contents
      if (sections_.size() < 2) break;
      const uint32_t last = uint32_t(sections_.size() - 1);
      const Section& l = sections_[last];
      uint64_t bytes = l.bytes.size() ? l.bytes.size() : 1;
      size_t n = in_.ConsumeIntegralInRange<size_t>(1, in_.ConsumeIntegral<uint8_t>() ? 16 : 66000);
      n = std::min<size_t>(n, kMaxSections - sections_.size());
      n = std::min<size_t>(n, size_t((kMaxRepeated - repeated_) / bytes));
      repeated_ += n * bytes;
      Section r = l;
      r.bytes.clear();
      r.shared = l.shared >= 0 ? l.shared : last;
      for (size_t i = 0; i < n; ++i) sections_.push_back(r);
      break;
    }
    case 10: { // a segment over a section, or anywhere
      Segment g;
      g.type = in_.PickValueInArray<uint32_t>({1, 4, 4, 6, 0x6474e551});
      g.flags = in_.ConsumeIntegralInRange<uint32_t>(0, 7);
      g.align = in_.PickValueInArray<uint64_t>({0, 1, 4, 8, 16});
      if (in_.ConsumeBool())
        g.section = anySection();
      else {
        g.offset = in_.ConsumeIntegral<uint16_t>();
        g.size = in_.ConsumeIntegral<uint16_t>();
      }
      segments_.push_back(g);
      break;
    }
    case 11: { // a byte patch of the finished image
      uint32_t at = in_.ConsumeIntegral<uint32_t>();
      patches_.emplace_back(at, in_.ConsumeIntegral<uint8_t>());
      break;
    }
    }
  }

  std::vector<uint8_t> image() {
    Section names;
    names.type = 3;
    names.bytes.assign(kNames, sizeof kNames);
    names.name = nameOffset(".shstrtab");
    const uint32_t shstrndx = add(std::move(names));
    const uint64_t ehsize = is64_ ? 64 : 52, phentsize = is64_ ? 56 : 32,
                   shentsize = is64_ ? 64 : 40;
    std::string out(ehsize + segments_.size() * phentsize, '\0');
    std::vector<uint64_t> offsets(sections_.size(), 0);
    for (size_t i = 1; i < sections_.size(); ++i) {
      Section& s = sections_[i];
      if (s.raw_offset) {
        offsets[i] = s.offset;
        out += s.bytes;
        continue;
      }
      if (s.shared >= 0) {
        offsets[i] = offsets[size_t(s.shared)];
        s.size = sections_[size_t(s.shared)].size;
        continue;
      }
      uint64_t align = s.align ? s.align : 1;
      while (out.size() % align) out += '\0';
      offsets[i] = out.size();
      s.size = s.type == 8 ? in_.ConsumeIntegralInRange<uint64_t>(0, 4096) : s.bytes.size();
      out += s.bytes;
    }
    while (out.size() % 8) out += '\0';
    const uint64_t shoff = out.size();
    const size_t shnum = sections_.size();
    const bool extended = shnum >= 0xff00;
    for (size_t i = 0; i < shnum; ++i) {
      const Section& s = sections_[i];
      uint64_t size = i == 0 && extended ? shnum : s.size;
      uint32_t link = i == 0 && shstrndx >= 0xff00 ? shstrndx : s.link;
      put(out, s.name, 4);
      put(out, s.type, 4);
      word(out, s.flags);
      word(out, s.addr);
      word(out, offsets[i]);
      word(out, size);
      put(out, link, 4);
      put(out, s.info, 4);
      word(out, s.align);
      word(out, s.entsize);
    }
    std::string h;
    h += "\x7f"
         "ELF";
    h += char(is64_ ? 2 : 1);
    h += char(big_ ? 2 : 1);
    h += char(1);
    h += char(osabi_);
    h += char(abi_version_);
    h.append(7, '\0');
    put(h, type_, 2);
    put(h, machine_, 2);
    put(h, 1, 4);
    word(h, 0);                                        // e_entry
    word(h, segments_.empty() ? 0 : ehsize);           // e_phoff
    word(h, shoff);                                    // e_shoff
    put(h, flags_, 4);                                 // e_flags
    put(h, ehsize, 2);                                 // e_ehsize
    put(h, phentsize, 2);                              // e_phentsize
    put(h, segments_.size(), 2);                       // e_phnum
    put(h, shentsize, 2);                              // e_shentsize
    put(h, extended ? 0 : shnum, 2);                   // e_shnum
    put(h, shstrndx >= 0xff00 ? 0xffff : shstrndx, 2); // e_shstrndx
    out.replace(0, h.size(), h);
    for (size_t i = 0; i < segments_.size(); ++i) {
      const Segment& g = segments_[i];
      uint64_t offset = g.offset, size = g.size;
      if (g.section >= 0) {
        offset = offsets[size_t(g.section)];
        size = sections_[size_t(g.section)].size;
      }
      std::string p;
      put(p, g.type, 4);
      if (is64_) {
        put(p, g.flags, 4);
        put(p, offset, 8);
        put(p, 0, 8); // vaddr
        put(p, 0, 8); // paddr
        put(p, size, 8);
        put(p, size, 8);
        put(p, g.align, 8);
      } else {
        put(p, offset, 4);
        put(p, 0, 8);
        put(p, size, 4);
        put(p, size, 4);
        put(p, g.flags, 4);
        put(p, g.align, 4);
      }
      out.replace(ehsize + i * phentsize, p.size(), p);
    }
    for (auto [at, v] : patches_)
      if (!out.empty()) out[at % out.size()] = char(v);
    return std::vector<uint8_t>(out.begin(), out.end());
  }

  FuzzedDataProvider& in_;
  bool is64_ = true, big_ = false;
  uint16_t machine_ = abikit::kEmRiscv, type_ = abikit::kEtRel;
  uint32_t flags_ = 0;
  uint8_t osabi_ = 0, abi_version_ = 0;
  std::vector<Section> sections_;
  std::vector<Segment> segments_;
  std::vector<std::pair<uint32_t, uint8_t>> patches_;
  uint64_t repeated_ = 0;
};

// What `abikit elf` does with one file and one view: check, then write (must not throw then).
void view(const abikit::ElfFile& f, const abikit::ElfViewOptions& options) {
  try {
    abikit::checkElfView(f, options);
  } catch (const abikit::Error&) {
    return;
  }
  DropSink sink;
  try {
    abikit::writeElfText(f, options, sink);
    abikit::writeElfJson(f, options, sink);
  } catch (const abikit::Error& e) {
    std::fprintf(stderr, "checkElfView() accepted the file, the writers threw: %s\n",
                 e.format().c_str());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::vector<uint8_t> bytes = Builder(in).build();
  // ABIKIT_FUZZ_DUMP=FILE writes the object built (to rerun a finding through `abikit elf`).
  if (const char* dump = std::getenv("ABIKIT_FUZZ_DUMP"))
    if (std::FILE* f = std::fopen(dump, "wb")) {
      std::fwrite(bytes.data(), 1, bytes.size(), f);
      std::fclose(f);
    }
  try {
    abikit::ElfFile f = abikit::ElfFile::fromMemory("fuzz.o", bytes);
    view(f, abikit::ElfViewOptions{true, true, true});
    const abikit::ElfFile* two[] = {&f, &f};
    try {
      abikit::linkConflicts(two);
    } catch (const abikit::Error&) {
    }
  } catch (const abikit::Error&) {
  }
  return 0;
}
