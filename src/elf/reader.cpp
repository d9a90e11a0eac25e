// The checked ELF reader: header, section and program header tables, symbol and relocation
// views, notes. Every value read from the file is checked before it is used as an offset, a size
// or a count; see docs/elf.md for the list of checks and why this is not libelf.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "bytes.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace abikit {

namespace {

using detail::EndianSlice;
using detail::fileBytes;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Offsets of the ELF header fields that errors point at.
struct HeaderLayout {
  uint64_t e_phoff, e_shoff, e_flags, e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum,
      e_shstrndx, size;
};
constexpr HeaderLayout kHeader32 = {28, 32, 36, 40, 42, 44, 46, 48, 50, 52};
constexpr HeaderLayout kHeader64 = {32, 40, 48, 52, 54, 56, 58, 60, 62, 64};

// Offsets of the section header fields, per class.
struct ShdrLayout {
  uint64_t name, type, flags, addr, offset, size, link, info, addralign, entsize, entry_size;
};
constexpr ShdrLayout kShdr32 = {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40};
constexpr ShdrLayout kShdr64 = {0, 4, 8, 16, 24, 32, 40, 44, 48, 56, 64};

bool isStandardSectionType(uint32_t type) {
  // gABI types below SHT_LOOS whose contents this reader or its users interpret.
  return type < kShtLoos;
}

/// [offset, offset + size) lies within [0, total).
inline bool inRange(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

/// The two ranges overlap (both non-empty).
inline bool overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) {
  return an && bn && a < b + bn && b < a + an;
}

} // namespace

// ----- construction ----------------------------------------------------------------------------

ElfFile::ElfFile(ElfFile&& o) noexcept = default;
ElfFile& ElfFile::operator=(ElfFile&& o) noexcept = default;
ElfFile::~ElfFile() = default;

namespace {

// A file mapped read-only, unmapped with the last ElfFile that reads it.
struct Mapping {
  void* base = nullptr;
  size_t size = 0;
  Mapping(void* b, size_t n) : base(b), size(n) {}
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  ~Mapping() { ::munmap(base, size); }
};

// The bytes of the regular file at `path`, mapped (empty for an empty file).
std::pair<std::span<const uint8_t>, std::shared_ptr<const void>> mapFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(ErrorKind::Elf, "cannot open '" + path + "': " + std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    throw Error(ErrorKind::Elf, "cannot read '" + path + "': " + std::strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw Error(ErrorKind::Elf, "cannot read '" + path + "': not a regular file");
  }
  if (st.st_size == 0) {
    ::close(fd);
    return {};
  }
  void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  ::close(fd);
  if (p == MAP_FAILED)
    throw Error(ErrorKind::Elf, "cannot map '" + path + "': " + std::strerror(e));
  auto owner = std::make_shared<const Mapping>(p, size_t(st.st_size));
  return {{static_cast<const uint8_t*>(p), size_t(st.st_size)}, owner};
}

} // namespace

ElfFile ElfFile::open(const std::string& path) {
  auto [bytes, owner] = mapFile(path);
  return fromMemory(path, bytes, std::move(owner));
}

std::vector<ElfFile> ElfFile::openAll(const std::string& path) {
  auto [bytes, owner] = mapFile(path);
  std::vector<ElfFile> out;
  if (!isArchive(bytes)) {
    out.push_back(fromMemory(path, bytes, std::move(owner)));
    return out;
  }
  std::vector<ArchiveMember> members = archiveMembers(bytes, path);
  out.reserve(members.size());
  for (const ArchiveMember& m : members)
    out.push_back(fromMemory(path + "(" + m.name + ")", m.bytes, owner));
  return out;
}

ElfFile ElfFile::fromMemory(std::string name, std::span<const uint8_t> bytes,
                            std::shared_ptr<const void> owner) {
  ElfFile f;
  f.name_ = std::move(name);
  f.data_ = bytes.data();
  f.size_ = bytes.size();
  f.owner_ = std::move(owner);
  f.parse();
  return f;
}

void ElfFile::fail(std::string message, uint64_t offset) const {
  throw Error::atOffset(std::move(message), name_, offset);
}

const uint8_t* ElfFile::at(uint64_t offset, uint64_t size, uint64_t field_offset,
                           const char* what) const {
  if (!inRange(offset, size, size_))
    fail(std::string(what) + " at offset " + hex(offset) + " (" + std::to_string(size) +
             " bytes) extends past the end of the file (" + std::to_string(size_) + " bytes)",
         field_offset);
  return data_ + offset;
}

std::string_view ElfFile::stringAt(const ElfSection& strtab, uint64_t offset,
                                   uint64_t field_offset) const {
  // String tables were checked at open: in the file and NUL-terminated (when used as such).
  if (offset >= strtab.size)
    fail("string offset " + std::to_string(offset) + " is outside string table [" +
             std::to_string(strtab.index) + "] '" + std::string(strtab.name) + "' (" +
             std::to_string(strtab.size) + " bytes)",
         field_offset);
  const char* s = reinterpret_cast<const char*>(data_ + strtab.offset + offset);
  size_t max = size_t(strtab.size - offset);
  const void* nul = std::memchr(s, 0, max);
  if (!nul)
    fail("string at offset " + std::to_string(offset) + " of string table [" +
             std::to_string(strtab.index) + "] is not NUL-terminated",
         field_offset);
  return std::string_view(s, size_t(static_cast<const char*>(nul) - s));
}

// ----- parsing ---------------------------------------------------------------------------------

void ElfFile::parse() {
  static constexpr uint8_t kMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (size_ < 4 || std::memcmp(data_, kMagic, 4) != 0)
    fail(size_ < 4 ? "not an ELF file (too short for the ELF magic number)"
                   : "not an ELF file (bad magic number)",
         0);
  if (size_ < 16)
    fail("truncated ELF identification: the file has " + std::to_string(size_) +
             " bytes, e_ident needs 16",
         size_);
  EndianSlice in(bytes(), false, name_);
  header_.elf_class = in.u8At(4);
  header_.data = in.u8At(5);
  header_.ident_version = in.u8At(6);
  header_.osabi = in.u8At(7);
  header_.abi_version = in.u8At(8);
  if (header_.elf_class != kElfClass32 && header_.elf_class != kElfClass64)
    fail("unknown ELF class " + std::to_string(header_.elf_class) +
             " (expected 1 = ELFCLASS32 or 2 = ELFCLASS64)",
         4);
  if (header_.data != kElfData2Lsb && header_.data != kElfData2Msb)
    fail("unknown ELF data encoding " + std::to_string(header_.data) +
             " (expected 1 = little-endian or 2 = big-endian)",
         5);
  const bool is64 = header_.is64();
  const HeaderLayout& L = is64 ? kHeader64 : kHeader32;
  if (size_ < L.size)
    fail("truncated ELF header: the file has " + std::to_string(size_) + " bytes, the " +
             (is64 ? "ELF64" : "ELF32") + " header needs " + std::to_string(L.size),
         size_);
  in = fileBytes(*this);
  header_.type = in.u16At(16);
  header_.machine = in.u16At(18);
  header_.version = in.u32At(20);
  header_.entry = in.wordAt(24, is64);
  header_.phoff = in.wordAt(L.e_phoff, is64);
  header_.shoff = in.wordAt(L.e_shoff, is64);
  header_.flags = in.u32At(L.e_flags);
  header_.ehsize = in.u16At(L.e_ehsize);
  header_.phentsize = in.u16At(L.e_phentsize);
  header_.phnum = in.u16At(L.e_phnum);
  header_.shentsize = in.u16At(L.e_shentsize);
  header_.shnum = in.u16At(L.e_shnum);
  header_.shstrndx = in.u16At(L.e_shstrndx);

  if (header_.ident_version != 1)
    problems_.push_back("e_ident[EI_VERSION] is " + std::to_string(header_.ident_version) +
                        " (expected 1)");
  if (header_.version != 1)
    problems_.push_back("e_version is " + std::to_string(header_.version) + " (expected 1)");
  if (header_.ehsize != L.size)
    problems_.push_back("e_ehsize is " + std::to_string(header_.ehsize) + " (expected " +
                        std::to_string(L.size) + ")");

  parseSectionHeaders();
  parseProgramHeaders();
  checkSections();

  machine_ = findElfMachine(header_.machine);
  if (machine_ && machine_->decodeFlags) {
    ElfHeaderFacts facts = header_.facts();
    facts.linux_os = header_.osabi == kOsabiGnu || findSection(".note.ABI-tag") != nullptr ||
                     std::any_of(segments_.begin(), segments_.end(),
                                 [](const ElfSegment& s) { return s.type == kPtInterp; });
    flags_info_ = machine_->decodeFlags(facts);
  }
}

void ElfFile::parseSectionHeaders() {
  const bool is64 = header_.is64();
  const EndianSlice in = fileBytes(*this);
  const HeaderLayout& L = is64 ? kHeader64 : kHeader32;
  const ShdrLayout& S = is64 ? kShdr64 : kShdr32;
  const uint64_t shoff = header_.shoff;
  uint64_t shnum = header_.shnum;

  if (shoff == 0) {
    if (shnum != 0) fail("e_shnum is " + std::to_string(shnum) + " but e_shoff is 0", L.e_shnum);
    if (header_.shstrndx != 0 && header_.shstrndx != kShnXindex)
      problems_.push_back("e_shstrndx is " + std::to_string(header_.shstrndx) +
                          " but the file has no section headers");
    header_.shstrndx = 0;
    return;
  }
  if (header_.shentsize != S.entry_size)
    fail("e_shentsize is " + std::to_string(header_.shentsize) + " (an " +
             (is64 ? "ELF64" : "ELF32") + " section header is " + std::to_string(S.entry_size) +
             " bytes)",
         L.e_shentsize);
  if (shoff < L.size)
    fail("the section header table (at " + hex(shoff) + ") overlaps the ELF header", L.e_shoff);
  // Section 0 holds the escapes of the extended numbering.
  at(shoff, S.entry_size, L.e_shoff, "the section header table");
  uint64_t s0_size = in.wordAt(shoff + S.size, is64);
  uint32_t s0_link = in.u32At(shoff + S.link);
  uint32_t s0_info = in.u32At(shoff + S.info);
  if (shnum == 0) {
    // SHN_LORESERVE or more sections: the count is in section 0's sh_size.
    shnum = s0_size;
    if (shnum == 0)
      fail("e_shoff is set but e_shnum and section 0's sh_size (the extended count) are 0",
           L.e_shnum);
  }
  const bool strndx_escaped = header_.shstrndx == kShnXindex;
  if (strndx_escaped) header_.shstrndx = s0_link;
  if (header_.phnum == kPnXnum) header_.phnum = s0_info;

  // The whole table must be in the file: shnum <= (size - shoff) / entsize (no overflow).
  uint64_t room = (size_ - shoff) / S.entry_size;
  if (shnum > room)
    fail("the section header table (" + std::to_string(shnum) + " entries of " +
             std::to_string(S.entry_size) + " bytes at " + hex(shoff) +
             ") extends past the end of the file (" + std::to_string(size_) + " bytes)",
         header_.shnum == 0 ? shoff + S.size : L.e_shoff);
  header_.shnum = uint32_t(shnum);
  if (header_.shstrndx >= header_.shnum)
    fail("section name table index " + std::to_string(header_.shstrndx) +
             " is not a section (the file has " + std::to_string(header_.shnum) + ")",
         strndx_escaped ? shoff + S.link : L.e_shstrndx);

  sections_.resize(header_.shnum);
  for (uint32_t i = 0; i < header_.shnum; ++i) {
    const uint64_t h = shoff + uint64_t(i) * S.entry_size;
    const EndianSlice q = in.sub(h, S.entry_size);
    ElfSection& s = sections_[i];
    s.index = i;
    s.header_offset = h;
    s.name_offset = q.u32At(S.name);
    s.type = q.u32At(S.type);
    s.flags = q.wordAt(S.flags, is64);
    s.addr = q.wordAt(S.addr, is64);
    s.offset = q.wordAt(S.offset, is64);
    s.size = q.wordAt(S.size, is64);
    s.addralign = q.wordAt(S.addralign, is64);
    s.entsize = q.wordAt(S.entsize, is64);
    s.link = q.u32At(S.link);
    s.info = q.u32At(S.info);
  }
}

void ElfFile::parseProgramHeaders() {
  const bool is64 = header_.is64();
  const EndianSlice in = fileBytes(*this);
  const HeaderLayout& L = is64 ? kHeader64 : kHeader32;
  const uint64_t entry = is64 ? 56 : 32;
  const uint64_t phoff = header_.phoff;
  const uint64_t phnum = header_.phnum;
  if (phnum == 0) return;
  if (phoff == 0) fail("e_phnum is " + std::to_string(phnum) + " but e_phoff is 0", L.e_phnum);
  if (header_.phentsize != entry)
    fail("e_phentsize is " + std::to_string(header_.phentsize) + " (an " +
             (is64 ? "ELF64" : "ELF32") + " program header is " + std::to_string(entry) + " bytes)",
         L.e_phentsize);
  if (phoff < L.size)
    fail("the program header table (at " + hex(phoff) + ") overlaps the ELF header", L.e_phoff);
  if (phoff > size_ || phnum > (size_ - phoff) / entry)
    fail("the program header table (" + std::to_string(phnum) + " entries of " +
             std::to_string(entry) + " bytes at " + hex(phoff) +
             ") extends past the end of the file (" + std::to_string(size_) + " bytes)",
         L.e_phoff);
  if (header_.shnum &&
      overlaps(phoff, phnum * entry, header_.shoff, uint64_t(header_.shnum) * header_.shentsize))
    fail("the program header table overlaps the section header table", L.e_phoff);
  segments_.resize(size_t(phnum));
  for (uint32_t i = 0; i < phnum; ++i) {
    const uint64_t h = phoff + uint64_t(i) * entry;
    EndianSlice q = in.sub(h, entry);
    ElfSegment& g = segments_[i];
    g.index = i;
    g.header_offset = h;
    g.type = q.u32();
    if (is64) g.flags = q.u32();
    g.offset = q.word(is64);
    g.vaddr = q.word(is64);
    g.paddr = q.word(is64);
    g.filesz = q.word(is64);
    g.memsz = q.word(is64);
    if (!is64) g.flags = q.u32();
    g.align = q.word(is64);
    if (!inRange(g.offset, g.filesz, size_))
      fail("segment " + std::to_string(i) + " (offset " + hex(g.offset) + ", " +
               std::to_string(g.filesz) + " bytes) extends past the end of the file (" +
               std::to_string(size_) + " bytes)",
           h + (is64 ? 8 : 4));
  }
}

void ElfFile::checkSections() {
  if (sections_.empty()) return;
  const bool is64 = header_.is64();
  const ShdrLayout& S = is64 ? kShdr64 : kShdr32;
  const uint64_t ehsize = is64 ? 64 : 52;
  const uint64_t sht_begin = header_.shoff;
  const uint64_t sht_size = uint64_t(header_.shnum) * S.entry_size;
  const uint64_t pht_size = uint64_t(header_.phnum) * header_.phentsize;
  const uint32_t n = header_.shnum;

  // Contents in the file.
  for (ElfSection& s : sections_) {
    if (s.index == 0 || !s.hasContents() || s.size == 0) continue;
    bool in_file = inRange(s.offset, s.size, size_);
    bool clash = in_file && (overlaps(s.offset, s.size, 0, ehsize) ||
                             overlaps(s.offset, s.size, sht_begin, sht_size) ||
                             (pht_size && overlaps(s.offset, s.size, header_.phoff, pht_size)));
    if (in_file && !clash) continue;
    if (!isStandardSectionType(s.type)) {
      // An OS/processor-specific type may be NOBITS-like (CUDA's .nv.global has a file offset
      // but no bytes): keep the header; contents() refuses a range outside the file.
      if (!in_file)
        problems_.push_back("section [" + std::to_string(s.index) + "] of type " + hex(s.type) +
                            " lies past the end of the file; its contents cannot be read");
      continue;
    }
    if (!in_file)
      fail("section [" + std::to_string(s.index) + "] (offset " + hex(s.offset) + ", " +
               std::to_string(s.size) + " bytes) extends past the end of the file (" +
               std::to_string(size_) + " bytes)",
           s.header_offset + S.offset);
    fail("section [" + std::to_string(s.index) + "] (offset " + hex(s.offset) + ", " +
             std::to_string(s.size) + " bytes) overlaps the ELF header or a header table",
         s.header_offset + S.offset);
  }

  // Section names.
  if (header_.shstrndx != 0) {
    const ElfSection& names = sections_[header_.shstrndx];
    if (names.type != kShtStrtab)
      fail("section name table [" + std::to_string(names.index) + "] is not SHT_STRTAB (type " +
               hex(names.type) + ")",
           names.header_offset + S.type);
    for (ElfSection& s : sections_)
      if (s.name_offset != 0 || names.size != 0)
        s.name = stringAt(names, s.name_offset, s.header_offset);
  }

  auto checkIndex = [&](const ElfSection& s, uint32_t index, uint64_t field, const char* what) {
    if (index >= n)
      fail("section [" + std::to_string(s.index) + "] '" + std::string(s.name) + "': " + what +
               " " + std::to_string(index) + " is not a section (the file has " +
               std::to_string(n) + ")",
           s.header_offset + field);
  };
  auto checkEntries = [&](const ElfSection& s, uint64_t entsize) {
    if (s.entsize != entsize)
      fail("section [" + std::to_string(s.index) + "] '" + std::string(s.name) +
               "': sh_entsize is " + std::to_string(s.entsize) + " (expected " +
               std::to_string(entsize) + ")",
           s.header_offset + S.entsize);
    if (s.size % entsize != 0)
      fail("section [" + std::to_string(s.index) + "] '" + std::string(s.name) + "': size " +
               std::to_string(s.size) + " is not a multiple of the entry size " +
               std::to_string(entsize),
           s.header_offset + S.size);
  };
  auto checkStrtab = [&](const ElfSection& s, uint32_t index, uint64_t field) {
    const ElfSection& t = sections_[index];
    if (t.type != kShtStrtab)
      fail("section [" + std::to_string(s.index) + "] '" + std::string(s.name) +
               "': linked section [" + std::to_string(index) + "] is not a string table",
           s.header_offset + field);
  };

  for (const ElfSection& s : sections_) {
    switch (s.type) {
    case kShtSymtab:
    case kShtDynsym:
      checkIndex(s, s.link, S.link, "sh_link");
      checkStrtab(s, s.link, S.link);
      checkEntries(s, is64 ? 24 : 16);
      break;
    case kShtRel:
    case kShtRela:
      checkEntries(s, s.type == kShtRela ? (is64 ? 24 : 12) : (is64 ? 16 : 8));
      checkIndex(s, s.link, S.link, "sh_link");
      if (s.link != 0 && sections_[s.link].type != kShtSymtab &&
          sections_[s.link].type != kShtDynsym)
        fail("relocation section [" + std::to_string(s.index) + "] '" + std::string(s.name) +
                 "': sh_link " + std::to_string(s.link) + " is not a symbol table",
             s.header_offset + S.link);
      if (s.info != 0 || (s.flags & kShfInfoLink)) checkIndex(s, s.info, S.info, "sh_info");
      break;
    case kShtSymtabShndx:
      checkIndex(s, s.link, S.link, "sh_link");
      if (sections_[s.link].type != kShtSymtab && sections_[s.link].type != kShtDynsym)
        fail("SHT_SYMTAB_SHNDX section [" + std::to_string(s.index) + "]: sh_link " +
                 std::to_string(s.link) + " is not a symbol table",
             s.header_offset + S.link);
      checkEntries(s, 4);
      // Indexed once by the table it extends (the first such section wins), so that finding a
      // table's extension costs nothing per table.
      if (symtab_shndx_.empty()) symtab_shndx_.assign(sections_.size(), 0);
      if (symtab_shndx_[s.link] == 0) symtab_shndx_[s.link] = s.index;
      break;
    case kShtStrtab:
      // Every string must end inside the table: the last byte is NUL.
      if (s.size != 0 && inRange(s.offset, s.size, size_) &&
          fileBytes(*this).u8At(s.offset + s.size - 1) != 0)
        fail("string table [" + std::to_string(s.index) + "] does not end with a NUL byte",
             s.offset + s.size - 1);
      break;
    default:
      break;
    }
  }

  // Section contents that overlap each other are legal but suspicious.
  std::vector<const ElfSection*> order;
  for (const ElfSection& s : sections_)
    if (s.hasContents() && s.size && inRange(s.offset, s.size, size_)) order.push_back(&s);
  std::sort(order.begin(), order.end(),
            [](const ElfSection* a, const ElfSection* b) { return a->offset < b->offset; });
  for (size_t i = 1; i < order.size(); ++i)
    if (order[i]->offset < order[i - 1]->offset + order[i - 1]->size)
      problems_.push_back("sections [" + std::to_string(order[i - 1]->index) + "] and [" +
                          std::to_string(order[i]->index) + "] overlap in the file");
}

// ----- accessors -------------------------------------------------------------------------------

const ElfSection* ElfFile::findSection(std::string_view name) const {
  for (const ElfSection& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

std::span<const uint8_t> ElfFile::contents(const ElfSection& s) const {
  if (!s.hasContents() || s.size == 0) return {};
  if (!inRange(s.offset, s.size, size_))
    fail("section [" + std::to_string(s.index) + "] '" + std::string(s.name) +
             "' has no contents in the file",
         s.header_offset);
  return {data_ + s.offset, size_t(s.size)};
}

ElfSymbolTable ElfFile::symbolTable(const ElfSection& s) const {
  if (s.type != kShtSymtab && s.type != kShtDynsym)
    fail("section [" + std::to_string(s.index) + "] is not a symbol table", s.header_offset);
  ElfSymbolTable t;
  t.file_ = this;
  t.section_ = &s;
  t.strings_ = &sections_[s.link];
  // checkSections() established entsize and size % entsize; the range is in the file.
  contents(s);
  t.count_ = size_t(s.size / s.entsize);
  contents(*t.strings_);
  if (!symtab_shndx_.empty() && symtab_shndx_[s.index] != 0) {
    t.shndx_ = &sections_[symtab_shndx_[s.index]];
    contents(*t.shndx_);
  }
  return t;
}

ElfRelocationTable ElfFile::relocationTable(const ElfSection& s) const {
  if (s.type != kShtRel && s.type != kShtRela)
    fail("section [" + std::to_string(s.index) + "] is not a relocation section", s.header_offset);
  ElfRelocationTable t;
  t.file_ = this;
  t.section_ = &s;
  t.rela_ = s.type == kShtRela;
  contents(s);
  t.count_ = size_t(s.size / s.entsize);
  t.target_ = (s.info != 0 && s.info < sections_.size()) ? &sections_[s.info] : nullptr;
  if (s.link != 0) t.symbols_ = symbolTable(sections_[s.link]);
  return t;
}

std::vector<ElfSymbolTable> ElfFile::symbolTables() const {
  std::vector<ElfSymbolTable> out;
  for (const ElfSection& s : sections_)
    if (s.type == kShtSymtab || s.type == kShtDynsym) out.push_back(symbolTable(s));
  return out;
}

std::vector<ElfRelocationTable> ElfFile::relocationTables() const {
  std::vector<ElfRelocationTable> out;
  for (const ElfSection& s : sections_)
    if (s.type == kShtRel || s.type == kShtRela) out.push_back(relocationTable(s));
  return out;
}

ElfSymbol ElfSymbolTable::operator[](size_t i) const {
  const bool is64 = file_->header().is64();
  const uint64_t entsize = is64 ? 24 : 16;
  ElfSymbol sym;
  sym.index = uint32_t(i);
  sym.offset = section_->offset + i * entsize;
  const EndianSlice in = fileBytes(*file_);
  EndianSlice p = in.sub(sym.offset, entsize);
  uint32_t name = p.u32();
  if (!is64) {
    sym.value = p.u32();
    sym.size = p.u32();
  }
  sym.info = p.u8();
  sym.other = p.u8();
  uint16_t shndx = p.u16();
  if (is64) {
    sym.value = p.u64();
    sym.size = p.u64();
  }
  if (name != 0) sym.name = file_->stringAt(*strings_, name, sym.offset);
  sym.shndx = shndx;
  if (shndx == kShnXindex) {
    if (!shndx_)
      file_->fail("symbol " + std::to_string(i) +
                      " has section index SHN_XINDEX but the table has no SHT_SYMTAB_SHNDX section",
                  sym.offset + (is64 ? 6 : 14));
    if (i >= shndx_->size / 4)
      file_->fail("symbol " + std::to_string(i) + " has no entry in SHT_SYMTAB_SHNDX section [" +
                      std::to_string(shndx_->index) + "]",
                  shndx_->header_offset);
    sym.shndx = in.u32At(shndx_->offset + i * 4);
    if (sym.shndx >= file_->header().shnum)
      file_->fail("symbol " + std::to_string(i) + ": extended section index " +
                      std::to_string(sym.shndx) + " is not a section",
                  shndx_->offset + i * 4);
  } else if (shndx < kShnLoReserve && shndx >= file_->header().shnum) {
    file_->fail("symbol " + std::to_string(i) + " '" + std::string(sym.name) + "': section index " +
                    std::to_string(shndx) + " is not a section (the file has " +
                    std::to_string(file_->header().shnum) + ")",
                sym.offset + (is64 ? 6 : 14));
  }
  return sym;
}

ElfRelocation ElfRelocationTable::operator[](size_t i) const {
  const bool is64 = file_->header().is64();
  const uint64_t entsize = section_->entsize;
  ElfRelocation r;
  r.entry_offset = section_->offset + i * entsize;
  EndianSlice p = fileBytes(*file_).sub(r.entry_offset, entsize);
  r.offset = p.word(is64);
  r.info = p.word(is64);
  r.type = is64 ? uint32_t(r.info) : uint32_t(r.info & 0xff);
  r.symbol = is64 ? uint32_t(r.info >> 32) : uint32_t(r.info >> 8);
  if (rela_) r.addend = is64 ? int64_t(p.u64()) : int64_t(int32_t(p.u32()));
  if (r.symbol != 0 && r.symbol >= symbols_.size())
    file_->fail("relocation " + std::to_string(i) + " of section [" +
                    std::to_string(section_->index) + "] '" + std::string(section_->name) +
                    "' names symbol " + std::to_string(r.symbol) + ", but the symbol table has " +
                    std::to_string(symbols_.size()) + " entries",
                r.entry_offset + (is64 ? 8 : 4));
  return r;
}

// ----- notes -----------------------------------------------------------------------------------

namespace {

void parseNotes(const ElfFile& f, uint64_t offset, uint64_t size, uint64_t align,
                uint64_t align_field, const ElfSection* sec, const ElfSegment* seg,
                std::vector<ElfNote>& out) {
  if (align != 0 && align != 1 && align != 4 && align != 8)
    f.fail("note alignment " + std::to_string(align) + " is not 4 or 8", align_field);
  align = align == 8 ? 8 : 4;
  const uint8_t* base = f.bytes().data();
  const EndianSlice in = fileBytes(f);
  uint64_t pos = 0;
  while (pos < size) {
    uint64_t h = offset + pos;
    uint64_t left = size - pos;
    if (left < 12)
      f.fail("truncated note header (" + std::to_string(left) + " bytes left in the " +
                 (sec ? "section" : "segment") + ")",
             h);
    EndianSlice header = in.sub(h, 12);
    uint32_t namesz = header.u32();
    uint32_t descsz = header.u32();
    uint32_t type = header.u32();
    if (namesz > left - 12)
      f.fail("note name (" + std::to_string(namesz) + " bytes) extends past the end of the " +
                 (sec ? "section" : "segment"),
             h);
    // The descriptor starts at the header plus name rounded up to the alignment (gABI; this is
    // also how 8-byte aligned notes such as NT_GNU_PROPERTY_TYPE_0 are laid out).
    uint64_t desc_at = (12 + uint64_t(namesz) + align - 1) & ~(align - 1);
    if (desc_at > left) {
      // The name's padding may be missing when nothing follows it.
      if (descsz != 0)
        f.fail("note descriptor (" + std::to_string(descsz) +
                   " bytes) extends past the end of the " + (sec ? "section" : "segment"),
               h + 4);
      desc_at = left;
    } else if (descsz > left - desc_at)
      f.fail("note descriptor (" + std::to_string(descsz) + " bytes) extends past the end of the " +
                 (sec ? "section" : "segment"),
             h + 4);
    ElfNote n;
    const char* name = reinterpret_cast<const char*>(base + h + 12);
    size_t nlen = namesz;
    if (nlen && name[nlen - 1] == 0) --nlen;
    n.name = std::string_view(name, nlen);
    n.type = type;
    n.offset = h;
    n.desc_offset = h + desc_at;
    n.desc = {base + h + desc_at, descsz};
    n.section = sec;
    n.segment = seg;
    out.push_back(n);
    uint64_t next = desc_at + ((uint64_t(descsz) + align - 1) & ~(align - 1));
    // The padding of the last note may be missing.
    pos = next >= left ? size : pos + next;
  }
}

} // namespace

std::vector<ElfNote> ElfFile::notes() const {
  std::vector<ElfNote> out;
  const ShdrLayout& S = header_.is64() ? kShdr64 : kShdr32;
  if (!sections_.empty()) {
    for (const ElfSection& s : sections_)
      if (s.type == kShtNote && s.size) {
        contents(s);
        parseNotes(*this, s.offset, s.size, s.addralign, s.header_offset + S.addralign, &s, nullptr,
                   out);
      }
    return out;
  }
  for (const ElfSegment& g : segments_)
    if (g.type == kPtNote && g.filesz)
      parseNotes(*this, g.offset, g.filesz, g.align, g.header_offset + (header_.is64() ? 48 : 28),
                 nullptr, &g, out);
  return out;
}

} // namespace abikit
