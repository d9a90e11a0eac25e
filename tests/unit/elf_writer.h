// Test-side ELF writer: builds small ELF32/ELF64, little- or big-endian relocatable objects with
// sections, a symbol table, REL/RELA relocations, notes and program headers, so that tests can
// make objects for targets without an installable compiler (DPU, IPU), round-trip them through
// the reader, and corrupt chosen fields to check the reader's hostile-input handling.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace abikit::test {

class ElfWriter {
public:
  ElfWriter(uint8_t elf_class, uint8_t data, uint16_t machine, uint32_t flags = 0,
            uint8_t osabi = 0, uint8_t abi_version = 0)
      : cls_(elf_class), data_(data), machine_(machine), flags_(flags), osabi_(osabi),
        abi_version_(abi_version) {
    sections_.push_back({}); // SHT_NULL
  }

  uint16_t e_type = 1; // ET_REL
  uint64_t entry = 0;
  /// Put the section header table right after the ELF header (before the data) instead of at
  /// the end.
  bool headers_first = false;

  bool is64() const { return cls_ == 2; }
  uint64_t ehsize() const { return is64() ? 64 : 52; }
  uint64_t shentsize() const { return is64() ? 64 : 40; }
  uint64_t symentsize() const { return is64() ? 24 : 16; }

  /// Adds a section; returns its index.
  uint32_t addSection(const std::string& name, uint32_t type, uint64_t flags,
                      std::vector<uint8_t> bytes, uint32_t link = 0, uint32_t info = 0,
                      uint64_t align = 1, uint64_t entsize = 0, uint64_t addr = 0) {
    Section s;
    s.name = name;
    s.type = type;
    s.flags = flags;
    s.bytes = std::move(bytes);
    s.link = link;
    s.info = info;
    s.align = align;
    s.entsize = entsize;
    s.addr = addr;
    sections_.push_back(std::move(s));
    return uint32_t(sections_.size() - 1);
  }
  /// A SHT_NOBITS section of `size` bytes.
  uint32_t addNobits(const std::string& name, uint64_t size, uint64_t flags = 3) {
    uint32_t i = addSection(name, 8, flags, {});
    sections_[i].nobits_size = size;
    return i;
  }

  /// Adds a symbol to .symtab (created at build time); returns its index (0 is the null symbol).
  uint32_t addSymbol(const std::string& name, uint64_t value, uint64_t size, uint8_t type,
                     uint8_t bind, uint16_t shndx, uint8_t other = 0) {
    symbols_.push_back({name, value, size, uint8_t((bind << 4) | (type & 15)), other, shndx});
    return uint32_t(symbols_.size());
  }

  /// Adds a relocation against section `target`, emitted in ".rela<name>" (or ".rel<name>").
  void addRelocation(uint32_t target, uint64_t offset, uint32_t type, uint32_t symbol,
                     int64_t addend, bool rela = true) {
    relocs_.push_back({target, offset, type, symbol, addend, rela});
  }

  /// Appends one note record to the SHT_NOTE section `section` (created on first use).
  void addNote(const std::string& section, const std::string& owner, uint32_t type,
               const std::vector<uint8_t>& desc, uint64_t align = 4) {
    uint32_t idx = 0;
    for (uint32_t i = 1; i < sections_.size(); ++i)
      if (sections_[i].name == section && sections_[i].type == 7) idx = i;
    if (!idx) idx = addSection(section, 7, 2, {}, 0, 0, align);
    std::vector<uint8_t>& b = sections_[idx].bytes;
    uint32_t namesz = owner.empty() ? 0 : uint32_t(owner.size() + 1);
    put32(b, namesz);
    put32(b, uint32_t(desc.size()));
    put32(b, type);
    b.insert(b.end(), owner.begin(), owner.end());
    if (namesz) b.push_back(0);
    pad(b, align);
    b.insert(b.end(), desc.begin(), desc.end());
    pad(b, align);
  }

  /// Adds a program header (written after the ELF header).
  void addSegment(uint32_t type, uint32_t flags, uint64_t offset, uint64_t filesz,
                  uint64_t align = 4) {
    segments_.push_back({type, flags, offset, filesz, align});
  }
  /// Leaves the section header table out (e_shoff = 0, e_shnum = 0).
  bool no_sections = false;

  // ----- results of build() --------------------------------------------------------------------

  uint64_t shoff = 0;                    // section header table
  uint64_t phoff = 0;                    // program header table
  std::vector<uint64_t> section_offsets; // file offset of each section's data
  uint32_t symtab_index = 0, strtab_index = 0, shstrtab_index = 0;
  std::vector<uint32_t> reloc_sections; // indices of the relocation sections built

  /// File offset of field `field` (a byte offset inside the header) of section header `index`.
  uint64_t sectionHeaderField(uint32_t index, uint64_t field) const {
    return shoff + index * shentsize() + field;
  }
  // Field offsets inside a section header.
  uint64_t shName() const { return 0; }
  uint64_t shType() const { return 4; }
  uint64_t shOffset() const { return is64() ? 24 : 16; }
  uint64_t shSize() const { return is64() ? 32 : 20; }
  uint64_t shLink() const { return is64() ? 40 : 24; }
  uint64_t shInfo() const { return is64() ? 44 : 28; }
  uint64_t shAddralign() const { return is64() ? 48 : 32; }
  uint64_t shEntsize() const { return is64() ? 56 : 36; }
  // Field offsets inside the ELF header.
  uint64_t eShoff() const { return is64() ? 40 : 32; }
  uint64_t ePhoff() const { return is64() ? 32 : 28; }
  uint64_t ePhnum() const { return is64() ? 56 : 44; }
  uint64_t eShentsize() const { return is64() ? 58 : 46; }
  uint64_t eShnum() const { return is64() ? 60 : 48; }
  uint64_t eShstrndx() const { return is64() ? 62 : 50; }

  std::vector<uint8_t> build() {
    finishTables();
    std::vector<uint8_t> out(ehsize(), 0);
    // Program headers right after the ELF header.
    const uint64_t phentsize = is64() ? 56 : 32;
    if (!segments_.empty()) {
      phoff = out.size();
      out.resize(out.size() + segments_.size() * phentsize);
    }
    uint64_t shnum = no_sections ? 0 : sections_.size();
    if (headers_first && shnum) {
      shoff = out.size();
      out.resize(out.size() + shnum * shentsize());
    }
    section_offsets.assign(sections_.size(), 0);
    for (size_t i = 1; i < sections_.size(); ++i) {
      Section& s = sections_[i];
      uint64_t align = s.align ? s.align : 1;
      while (out.size() % align) out.push_back(0);
      section_offsets[i] = out.size();
      out.insert(out.end(), s.bytes.begin(), s.bytes.end());
    }
    if (!headers_first && shnum) {
      while (out.size() % 8) out.push_back(0);
      shoff = out.size();
      out.resize(out.size() + shnum * shentsize());
    }
    // ELF header.
    const uint8_t ident[16] = {0x7f, 'E', 'L', 'F', cls_, data_, 1, osabi_, abi_version_};
    std::memcpy(out.data(), ident, 16);
    set16(out, 16, e_type);
    set16(out, 18, machine_);
    set32(out, 20, 1);
    if (is64()) {
      set64(out, 24, entry);
      set64(out, 32, segments_.empty() ? 0 : phoff);
      set64(out, 40, shnum ? shoff : 0);
      set32(out, 48, flags_);
      set16(out, 52, 64);
      set16(out, 54, 56);
      set16(out, 56, uint16_t(segments_.size()));
      set16(out, 58, 64);
      set16(out, 60, uint16_t(shnum));
      set16(out, 62, uint16_t(shnum ? shstrtab_index : 0));
    } else {
      set32(out, 24, uint32_t(entry));
      set32(out, 28, uint32_t(segments_.empty() ? 0 : phoff));
      set32(out, 32, uint32_t(shnum ? shoff : 0));
      set32(out, 36, flags_);
      set16(out, 40, 52);
      set16(out, 42, 32);
      set16(out, 44, uint16_t(segments_.size()));
      set16(out, 46, 40);
      set16(out, 48, uint16_t(shnum));
      set16(out, 50, uint16_t(shnum ? shstrtab_index : 0));
    }
    for (size_t i = 0; i < segments_.size(); ++i) {
      const Segment& g = segments_[i];
      uint64_t h = phoff + i * phentsize;
      set32(out, h, g.type);
      if (is64()) {
        set32(out, h + 4, g.flags);
        set64(out, h + 8, g.offset);
        set64(out, h + 32, g.filesz);
        set64(out, h + 40, g.filesz);
        set64(out, h + 48, g.align);
      } else {
        set32(out, h + 4, uint32_t(g.offset));
        set32(out, h + 16, uint32_t(g.filesz));
        set32(out, h + 20, uint32_t(g.filesz));
        set32(out, h + 24, g.flags);
        set32(out, h + 28, uint32_t(g.align));
      }
    }
    for (size_t i = 1; i < sections_.size() && shnum; ++i) {
      const Section& s = sections_[i];
      uint64_t h = shoff + i * shentsize();
      uint64_t size = s.type == 8 ? s.nobits_size : s.bytes.size();
      set32(out, h, s.name_offset);
      set32(out, h + 4, s.type);
      if (is64()) {
        set64(out, h + 8, s.flags);
        set64(out, h + 16, s.addr);
        set64(out, h + 24, section_offsets[i]);
        set64(out, h + 32, size);
        set32(out, h + 40, s.link);
        set32(out, h + 44, s.info);
        set64(out, h + 48, s.align);
        set64(out, h + 56, s.entsize);
      } else {
        set32(out, h + 8, uint32_t(s.flags));
        set32(out, h + 12, uint32_t(s.addr));
        set32(out, h + 16, uint32_t(section_offsets[i]));
        set32(out, h + 20, uint32_t(size));
        set32(out, h + 24, s.link);
        set32(out, h + 28, s.info);
        set32(out, h + 32, uint32_t(s.align));
        set32(out, h + 36, uint32_t(s.entsize));
      }
    }
    return out;
  }

  // Endian-aware stores into a built image (for corrupting fields in tests).
  void set16(std::vector<uint8_t>& b, uint64_t at, uint16_t v) const { store(b, at, v, 2); }
  void set32(std::vector<uint8_t>& b, uint64_t at, uint32_t v) const { store(b, at, v, 4); }
  void set64(std::vector<uint8_t>& b, uint64_t at, uint64_t v) const { store(b, at, v, 8); }
  void setWord(std::vector<uint8_t>& b, uint64_t at, uint64_t v) const {
    store(b, at, v, is64() ? 8 : 4);
  }

  // Endian-aware appends for building section contents.
  void put16(std::vector<uint8_t>& b, uint16_t v) const { append(b, v, 2); }
  void put32(std::vector<uint8_t>& b, uint32_t v) const { append(b, v, 4); }
  void put64(std::vector<uint8_t>& b, uint64_t v) const { append(b, v, 8); }

private:
  struct Section {
    std::string name;
    uint32_t type = 0;
    uint64_t flags = 0;
    std::vector<uint8_t> bytes;
    uint32_t link = 0, info = 0;
    uint64_t align = 1, entsize = 0, addr = 0;
    uint64_t nobits_size = 0;
    uint32_t name_offset = 0;
  };
  struct Symbol {
    std::string name;
    uint64_t value, size;
    uint8_t info, other;
    uint16_t shndx;
  };
  struct Reloc {
    uint32_t target;
    uint64_t offset;
    uint32_t type, symbol;
    int64_t addend;
    bool rela;
  };
  struct Segment {
    uint32_t type, flags;
    uint64_t offset, filesz, align;
  };

  void store(std::vector<uint8_t>& b, uint64_t at, uint64_t v, int n) const {
    for (int i = 0; i < n; ++i) {
      int shift = data_ == 2 ? 8 * (n - 1 - i) : 8 * i;
      b[at + i] = uint8_t(v >> shift);
    }
  }
  void append(std::vector<uint8_t>& b, uint64_t v, int n) const {
    b.resize(b.size() + n);
    store(b, b.size() - n, v, n);
  }
  static void pad(std::vector<uint8_t>& b, uint64_t align) {
    while (b.size() % align) b.push_back(0);
  }

  void finishTables() {
    if (built_) return;
    built_ = true;
    if (!symbols_.empty() || !relocs_.empty()) {
      std::vector<uint8_t> strtab(1, 0), symtab(symentsize(), 0);
      for (const Symbol& s : symbols_) {
        uint32_t name = 0;
        if (!s.name.empty()) {
          name = uint32_t(strtab.size());
          strtab.insert(strtab.end(), s.name.begin(), s.name.end());
          strtab.push_back(0);
        }
        put32(symtab, name);
        if (is64()) {
          symtab.push_back(s.info);
          symtab.push_back(s.other);
          put16(symtab, s.shndx);
          put64(symtab, s.value);
          put64(symtab, s.size);
        } else {
          put32(symtab, uint32_t(s.value));
          put32(symtab, uint32_t(s.size));
          symtab.push_back(s.info);
          symtab.push_back(s.other);
          put16(symtab, s.shndx);
        }
      }
      strtab_index = addSection(".strtab", 3, 0, strtab);
      uint32_t locals = 1;
      for (size_t i = 0; i < symbols_.size() && (symbols_[i].info >> 4) == 0; ++i) locals++;
      symtab_index =
          addSection(".symtab", 2, 0, symtab, strtab_index, locals, is64() ? 8 : 4, symentsize());
    }
    // One relocation section per (target, format).
    for (int rela = 1; rela >= 0; --rela) {
      std::vector<uint32_t> targets;
      for (const Reloc& r : relocs_)
        if (r.rela == bool(rela) &&
            std::find(targets.begin(), targets.end(), r.target) == targets.end())
          targets.push_back(r.target);
      for (uint32_t t : targets) {
        std::vector<uint8_t> b;
        for (const Reloc& r : relocs_) {
          if (r.rela != bool(rela) || r.target != t) continue;
          if (is64()) {
            put64(b, r.offset);
            put64(b, (uint64_t(r.symbol) << 32) | r.type);
            if (rela) put64(b, uint64_t(r.addend));
          } else {
            put32(b, uint32_t(r.offset));
            put32(b, (r.symbol << 8) | (r.type & 0xff));
            if (rela) put32(b, uint32_t(r.addend));
          }
        }
        std::string name = (rela ? ".rela" : ".rel") + sections_[t].name;
        uint64_t ent = rela ? (is64() ? 24 : 12) : (is64() ? 16 : 8);
        reloc_sections.push_back(
            addSection(name, rela ? 4 : 9, 0x40, b, symtab_index, t, is64() ? 8 : 4, ent));
      }
    }
    // Section names last.
    std::vector<uint8_t> shstrtab(1, 0);
    shstrtab_index = uint32_t(sections_.size());
    sections_.push_back({});
    sections_.back().name = ".shstrtab";
    sections_.back().type = 3;
    for (size_t i = 1; i < sections_.size(); ++i) {
      sections_[i].name_offset = uint32_t(shstrtab.size());
      shstrtab.insert(shstrtab.end(), sections_[i].name.begin(), sections_[i].name.end());
      shstrtab.push_back(0);
    }
    sections_[shstrtab_index].bytes = shstrtab;
  }

  uint8_t cls_, data_;
  uint16_t machine_;
  uint32_t flags_;
  uint8_t osabi_, abi_version_;
  bool built_ = false;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::vector<Reloc> relocs_;
  std::vector<Segment> segments_;
};

} // namespace abikit::test
