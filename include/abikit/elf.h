// abikit — reading ELF objects of the five target families.
//
// A small checked reader over a read-only mapping of the file: ELFCLASS32/64, little and big
// endian. Every offset, size and count read from the file is checked (overflow-safe) before it
// is used; a malformed or hostile file is reported as an abikit::Error with the byte offset of
// the offending field (Error::atOffset), never a crash, hang or out-of-bounds read.
//
// Headers, section headers and program headers are validated when the file is opened; symbol
// and relocation tables are views whose entries are decoded (and checked) on access, so that a
// table of a million relocations costs nothing until it is read. What the e_machine value means
// (relocation names, e_flags) comes from the family tables behind elf_target.h. Notes are decoded
// by owner: AMDGPU code-object metadata (V2 NT_AMD_HSA_* records, V3+ MessagePack in
// NT_AMDGPU_METADATA), GNU notes; `.riscv.attributes` is parsed. See docs/elf.md.
#pragma once

#include "abikit/elf_constants.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit {

namespace dwarf {
struct DebugSections;
}

// The ELF constants (kSht*, kShf*, kShn*, kEm*, ...) are in elf_constants.h.

// ----- what the reader returns -----------------------------------------------------------------

/// The ELF header, with the extended numbering (SHN_XINDEX / PN_XNUM escapes through section 0)
/// already resolved.
struct ElfHeader {
  uint8_t elf_class = 0;     // kElfClass32 / kElfClass64
  uint8_t data = 0;          // kElfData2Lsb / kElfData2Msb
  uint8_t ident_version = 0; // e_ident[EI_VERSION]
  uint8_t osabi = 0;
  uint8_t abi_version = 0;
  uint16_t type = 0; // e_type
  uint16_t machine = 0;
  uint32_t version = 0;
  uint64_t entry = 0;
  uint64_t phoff = 0;
  uint64_t shoff = 0;
  uint32_t flags = 0;
  uint16_t ehsize = 0;
  uint16_t phentsize = 0;
  uint16_t shentsize = 0;
  uint32_t phnum = 0;    // resolved
  uint32_t shnum = 0;    // resolved
  uint32_t shstrndx = 0; // resolved

  bool is64() const { return elf_class == kElfClass64; }
  bool bigEndian() const { return data == kElfData2Msb; }
  ElfHeaderFacts facts() const { return {elf_class, data, osabi, abi_version, machine, flags}; }
};

struct ElfSection {
  uint32_t index = 0;
  std::string_view name; // "" when the file has no section-name table
  uint32_t name_offset = 0;
  uint32_t type = 0;
  uint64_t flags = 0;
  uint64_t addr = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t link = 0;
  uint32_t info = 0;
  uint64_t addralign = 0;
  uint64_t entsize = 0;
  uint64_t header_offset = 0; // file offset of this section's header

  /// Has bytes in the file (not SHT_NULL / SHT_NOBITS).
  bool hasContents() const { return type != kShtNull && type != kShtNobits; }
};

struct ElfSegment {
  uint32_t index = 0;
  uint32_t type = 0;
  uint32_t flags = 0;
  uint64_t offset = 0;
  uint64_t vaddr = 0;
  uint64_t paddr = 0;
  uint64_t filesz = 0;
  uint64_t memsz = 0;
  uint64_t align = 0;
  uint64_t header_offset = 0;
};

struct ElfSymbol {
  uint32_t index = 0;
  std::string_view name;
  uint64_t value = 0;
  uint64_t size = 0;
  uint8_t info = 0;
  uint8_t other = 0;
  uint32_t shndx = 0;  // st_shndx, or the SHT_SYMTAB_SHNDX entry when st_shndx is SHN_XINDEX
  uint64_t offset = 0; // file offset of the entry

  uint8_t type() const { return info & 0xf; }
  uint8_t binding() const { return info >> 4; }
  uint8_t visibility() const { return other & 0x3; }
};

struct ElfRelocation {
  uint64_t offset = 0; // r_offset
  uint64_t info = 0;   // r_info as stored
  uint32_t type = 0;
  uint32_t symbol = 0;       // index into the linked symbol table (checked)
  int64_t addend = 0;        // RELA: r_addend; REL: 0 (the addend is in the field)
  uint64_t entry_offset = 0; // file offset of the entry
};

class ElfFile;

/// A symbol table (SHT_SYMTAB / SHT_DYNSYM) whose entries are decoded on access.
class ElfSymbolTable {
public:
  size_t size() const { return count_; }
  /// Decodes entry `i` (< size()). Throws abikit::Error for a name offset outside the string
  /// table or a section index that names no section.
  ElfSymbol operator[](size_t i) const;
  const ElfSection& section() const { return *section_; }
  const ElfSection& strings() const { return *strings_; }

private:
  friend class ElfFile;
  const ElfFile* file_ = nullptr;
  const ElfSection* section_ = nullptr;
  const ElfSection* strings_ = nullptr;
  const ElfSection* shndx_ = nullptr; // SHT_SYMTAB_SHNDX for this table, if any
  size_t count_ = 0;
};

/// A relocation section (SHT_REL / SHT_RELA) whose entries are decoded on access.
class ElfRelocationTable {
public:
  size_t size() const { return count_; }
  /// Decodes entry `i` (< size()). Throws abikit::Error when the symbol index is not an entry of
  /// the linked symbol table.
  ElfRelocation operator[](size_t i) const;
  bool rela() const { return rela_; }
  const ElfSection& section() const { return *section_; }
  /// The section the relocations apply to (sh_info), nullptr when sh_info is 0.
  const ElfSection* target() const { return target_; }
  /// The linked symbol table; size() == 0 when sh_link is 0.
  const ElfSymbolTable& symbols() const { return symbols_; }

private:
  friend class ElfFile;
  const ElfFile* file_ = nullptr;
  const ElfSection* section_ = nullptr;
  const ElfSection* target_ = nullptr;
  ElfSymbolTable symbols_;
  size_t count_ = 0;
  bool rela_ = false;
};

struct ElfNote {
  std::string_view name; // owner, without the terminating NUL
  uint32_t type = 0;
  std::span<const uint8_t> desc;
  uint64_t offset = 0;      // file offset of the note header
  uint64_t desc_offset = 0; // file offset of the descriptor
  /// Where the note lives: a SHT_NOTE section (section != nullptr) or a PT_NOTE segment.
  const ElfSection* section = nullptr;
  const ElfSegment* segment = nullptr;
};

/// One member of a Unix `ar` archive (`.a`).
struct ArchiveMember {
  std::string name;               // as the archive names it (GNU/BSD long names resolved)
  uint64_t offset = 0;            // of its bytes in the archive
  std::span<const uint8_t> bytes; // a view into the archive's bytes
};
/// Whether `bytes` start with an archive's magic (`!<arch>\n`, or `!<thin>\n`).
bool isArchive(std::span<const uint8_t> bytes);
/// The members of an archive in order, without its symbol tables and long-name table. Throws
/// Error::atOffset(message, name, offset) for a malformed or thin archive.
std::vector<ArchiveMember> archiveMembers(std::span<const uint8_t> bytes, const std::string& name);

/// One opened ELF file. Cheap to move; the views it hands out (sections, symbol and relocation
/// tables, notes) point into it and stay valid while it lives where it was when they were made.
class ElfFile {
public:
  /// Maps `path` read-only and validates it. Throws abikit::Error (with the byte offset) for
  /// anything malformed, or when the file cannot be read.
  static ElfFile open(const std::string& path);
  /// Reads bytes held by the caller (they must outlive the ElfFile, or `owner` keeps them);
  /// `name` is used in errors.
  static ElfFile fromMemory(std::string name, std::span<const uint8_t> bytes,
                            std::shared_ptr<const void> owner = {});
  /// Every ELF object of the file at `path`: the file itself, or, for an `ar` archive (`.a`),
  /// each member in order, named "PATH(MEMBER)", all sharing the archive's mapping. Throws
  /// abikit::Error for a malformed archive, or a member or file that is not a valid ELF object.
  static std::vector<ElfFile> openAll(const std::string& path);

  ElfFile(ElfFile&&) noexcept;
  ElfFile& operator=(ElfFile&&) noexcept;
  ~ElfFile();

  const std::string& name() const { return name_; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  const ElfHeader& header() const { return header_; }
  /// The family's knowledge of e_machine, nullptr when abikit does not know the machine.
  const ElfMachineInfo* machine() const { return machine_; }
  /// The family's decoding of e_flags; empty (target "") for an unknown machine.
  const ElfFlagsInfo& flagsInfo() const { return flags_info_; }

  std::span<const ElfSection> sections() const { return sections_; }
  std::span<const ElfSegment> segments() const { return segments_; }
  const ElfSection* findSection(std::string_view name) const;
  /// The bytes of a section (empty for SHT_NOBITS / SHT_NULL); the range was checked at open.
  std::span<const uint8_t> contents(const ElfSection& s) const;

  /// Views of every SHT_SYMTAB / SHT_DYNSYM and SHT_REL / SHT_RELA section, in section order.
  std::vector<ElfSymbolTable> symbolTables() const;
  std::vector<ElfRelocationTable> relocationTables() const;
  ElfSymbolTable symbolTable(const ElfSection& s) const;
  ElfRelocationTable relocationTable(const ElfSection& s) const;

  /// Every note of every SHT_NOTE section (or, in a file without sections, of every PT_NOTE
  /// segment). Checks name/descriptor sizes and the 4/8-byte alignment.
  std::vector<ElfNote> notes() const;

  /// Oddities that do not stop reading (overlapping sections, unusual e_ident values, ...).
  const std::vector<std::string>& problems() const { return problems_; }

  /// Throws Error::atOffset(message, name(), offset).
  [[noreturn]] void fail(std::string message, uint64_t offset) const;

  /// A NUL-terminated string at `offset` within string-table section `strtab`.
  std::string_view stringAt(const ElfSection& strtab, uint64_t offset, uint64_t field_offset) const;

private:
  ElfFile() = default;
  void parse();
  void parseSectionHeaders();
  void parseProgramHeaders();
  void checkSections();
  const uint8_t* at(uint64_t offset, uint64_t size, uint64_t field_offset, const char* what) const;

  std::string name_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> owner_; // what holds the bytes (a mapping of the file), if anyone
  ElfHeader header_;
  const ElfMachineInfo* machine_ = nullptr;
  ElfFlagsInfo flags_info_;
  std::vector<ElfSection> sections_;
  std::vector<ElfSegment> segments_;
  std::vector<std::string> problems_;
  /// For each section index, the SHT_SYMTAB_SHNDX section that extends it (0: none); empty
  /// when the file has no such section. Built at open, so that a table's lookup is O(1).
  std::vector<uint32_t> symtab_shndx_;
};

// ----- names for people ------------------------------------------------------------------------

std::string_view elfTypeName(uint16_t e_type);                        // "REL", "EXEC", ...
std::string_view elfMachineName(uint16_t e_machine);                  // "EM_X86_64", ""
std::string_view elfOsabiName(uint8_t osabi, uint16_t machine);       // "AMDGPU_HSA", "NONE", ...
std::string_view elfSectionTypeName(uint32_t type, uint16_t machine); // "PROGBITS", ...
std::string_view elfSegmentTypeName(uint32_t type);                   // "LOAD", "NOTE", ...
/// "NOTYPE", "FUNC", ..., "AMDGPU_HSA_KERNEL" (EM_AMDGPU), "GNU_IFUNC"; "" when unnamed.
std::string_view elfSymbolTypeName(uint8_t type, uint16_t machine, uint8_t osabi);
std::string_view elfSymbolBindingName(uint8_t binding); // "LOCAL", "GLOBAL", "WEAK", "GNU_UNIQUE"
std::string_view elfVisibilityName(uint8_t visibility); // "DEFAULT", ...
/// "UND", "ABS", "COMMON", "AMDGPU_LDS" (EM_AMDGPU 0xff00), or "" for an ordinary index.
std::string_view elfSpecialSectionIndexName(uint32_t shndx, uint16_t machine);
/// The section flag letters readelf uses ("WAX", ...).
std::string elfSectionFlagLetters(uint64_t flags);

/// The relocation type from the machine's table, nullptr when abikit does not know it.
const RelocationType* elfRelocationType(const ElfFile& file, uint32_t type);

/// What a DPU relocation does to its field. Every R_DPU_* type computes V = S + A (dpu.md §5.2),
/// with S the symbol's st_value as stored (a section offset in a relocatable object) and, in
/// linked files for SHF_ALLOC sections, the linker's address-space fixup (dpuLinkerValue); the
/// little-endian field at r_offset is shown before and after applyRelocation().
struct RelocationPatch {
  uint64_t value = 0;
  uint64_t before = 0;
  uint64_t after = 0;
  uint8_t size = 0;
};
/// std::nullopt for other machines (their calculations transform the value before it is placed),
/// types without bit moves, SHT_REL tables, or a field outside the relocated section's contents.
std::optional<RelocationPatch> relocationPatch(const ElfFile& file, const ElfRelocationTable& table,
                                               const ElfRelocation& relocation);

// ----- notes -----------------------------------------------------------------------------------

/// A MessagePack value decoded (by msgpack-cxx) into a flat tree in pre-order: node i's first
/// child is i + 1 and its next sibling is i + subtree; a map's children alternate key, value.
struct MsgPackNode {
  enum class Kind : uint8_t { Nil, Bool, UInt, Int, Float, String, Binary, Array, Map };
  Kind kind = Kind::Nil;
  bool b = false;
  uint64_t u = 0;       // UInt
  int64_t i = 0;        // Int (negative values only; non-negative ones are UInt)
  double f = 0;         // Float
  std::string_view str; // String / Binary, pointing into the file
  uint32_t count = 0;   // Array: elements; Map: key/value pairs
  uint32_t subtree = 1; // number of nodes in this subtree, itself included
};

class MsgPackDocument {
public:
  /// Decodes exactly one MessagePack value filling `bytes`. `file`/`base_offset` (the file offset
  /// of bytes[0]) make the errors: malformed or truncated data, trailing bytes, nesting deeper
  /// than 64, more than 4M values, non-scalar or duplicate map keys, extension types.
  static MsgPackDocument parse(std::span<const uint8_t> bytes, const std::string& file,
                               uint64_t base_offset);
  std::span<const MsgPackNode> nodes() const { return nodes_; }
  const MsgPackNode& root() const { return nodes_.front(); }
  /// The document as llvm-readelf prints it (LLVM's YAML writer for msgpack documents: map keys
  /// sorted, "---" ... "..."), see docs/elf.md for the rules.
  std::string toYaml() const;
  /// Index of the value stored under string key `key` in map node `map`, or 0 when absent.
  size_t find(size_t map, std::string_view key) const;

private:
  std::vector<MsgPackNode> nodes_;
};

/// A note decoded for display. `type_name` and `description` follow llvm-readelf
/// ("NT_AMDGPU_METADATA", "AMDGPU Metadata"); `body` is the text printed under the note as
/// llvm-readelf prints it (YAML for metadata, "[Major: 2, Minor: 1]" for versions, ...); when
/// `raw` the descriptor is shown as hex instead. `fields` is the structured form for JSON.
struct DecodedNote {
  std::string type_name;   // "" for an unknown type (printed "Unknown note type: (0x...)")
  std::string description; // "AMDGPU Metadata"
  std::string body;
  bool raw = true;           // show the descriptor bytes
  bool body_indented = true; // llvm-readelf prints "    <description>:\n        <body>"
  std::vector<std::pair<std::string, std::string>> fields;
  std::optional<MsgPackDocument> msgpack; // NT_AMDGPU_METADATA
  std::string text;                       // NT_AMD_HSA_METADATA: the YAML text from the file
  std::vector<std::string> problems;      // metadata that does not follow the schema, ...
};

/// Decodes a note by owner and type. Throws abikit::Error (at the descriptor's byte offset) for
/// a malformed descriptor of a known type.
DecodedNote decodeNote(const ElfFile& file, const ElfNote& note);

// ----- .riscv.attributes -----------------------------------------------------------------------

struct BuildAttribute {
  uint64_t tag = 0;
  std::string_view tag_name; // "Tag_RISCV_arch", "" when unknown
  bool is_string = false;
  uint64_t int_value = 0;
  std::string_view string_value;
  std::string description; // "Stack alignment is 16 bytes", "" when none
  uint64_t offset = 0;     // file offset of the tag
};

struct BuildAttributesSubsection {
  std::string_view vendor;     // "riscv"
  uint64_t scope_tag = 1;      // 1 Tag_File, 2 Tag_Section, 3 Tag_Symbol
  std::vector<uint64_t> scope; // section / symbol indices for scopes 2 and 3
  std::vector<BuildAttribute> attributes;
};

struct BuildAttributes {
  uint8_t format_version = 0; // 'A'
  std::vector<BuildAttributesSubsection> subsections;
  std::vector<std::string> problems; // unknown non-ignorable tags, unknown vendors
};

/// Parses a `.riscv.attributes` section (format 'A', vendor "riscv", psABI tags).
BuildAttributes parseRiscvAttributes(const ElfFile& file, const ElfSection& section);

// ----- per-target helpers ----------------------------------------------------------------------

/// DPU (reference dpu.md §5.4): the value the DPU linker writes for virtual address `va` in an
/// SHF_ALLOC section. V is cut to 32 bits; atomic (bits 31..28 set): minus 0xF0000000; IRAM
/// (bit 31): (t >> 3) + (t & 7) with t = V without bit 31 (byte address to instruction index);
/// MRAM (bit 27): minus 0x08000000; WRAM: unchanged.
uint32_t dpuLinkerValue(uint64_t va);

/// The AMDGPU kernel descriptor (code object V3+, 64 bytes; reference gpu.md §2.8).
struct AmdgpuKernelDescriptor {
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t kernarg_size = 0;
  int64_t kernel_code_entry_byte_offset = 0;
  uint32_t compute_pgm_rsrc3 = 0;
  uint32_t compute_pgm_rsrc1 = 0;
  uint32_t compute_pgm_rsrc2 = 0;
  uint16_t kernel_code_properties = 0;
  uint16_t kernarg_preload = 0;
  std::vector<std::string> properties; // names of the set kernel_code_properties bits
  std::vector<std::string> problems;   // nonzero reserved bytes/bits
};
AmdgpuKernelDescriptor decodeAmdgpuKernelDescriptor(std::span<const uint8_t, 64> bytes);

/// For a `.kd` symbol of an EM_AMDGPU file (an OBJECT of 64 bytes whose name ends in ".kd" and
/// whose section has contents), the descriptor; std::nullopt otherwise.
std::optional<AmdgpuKernelDescriptor> amdgpuKernelDescriptorFor(const ElfFile& file,
                                                                const ElfSymbol& symbol);

// ----- linking ----------------------------------------------------------------------------------

/// Why two objects (or one, that is no relocatable object) cannot be linked together.
struct LinkConflict {
  std::vector<std::string> files; // the pair, or the one object
  /// The root cause: different machines alone; else a different ELF class or byte order
  /// (the flags mean nothing across them); else each of the family's reasons.
  std::vector<std::string> reasons;
  /// "a.o vs b.o: reason; reason": `abikit link-check`'s line.
  std::string line() const;
};

/// Why the objects cannot be linked together, one entry per conflicting pair (empty:
/// compatible). Each file is compared with the first one: e_machine, then ELF class and byte
/// order, then the family's ElfMachineInfo::linkConflicts on the decoded flags. Throws
/// abikit::Error when a file's machine is unknown to abikit (nothing could be said about its
/// flags).
std::vector<LinkConflict> linkConflicts(std::span<const ElfFile* const> files);

// ----- debug information -----------------------------------------------------------------------

/// The DWARF sections of `file` for dwarf::DebugInfo. In a relocatable object, the relocations of
/// the debug sections it reads are applied to copies of them (DebugSections::owned), each type as
/// its family's ElfMachineInfo::debug_relocations says. Throws abikit::Error for a compressed debug
/// section, or for a relocation that is not one of those, patches bytes outside its section, or
/// whose value does not fit its field.
dwarf::DebugSections debugSections(const ElfFile& file);
/// The target an object was built for, as its header says (e_machine, e_flags: the triple, the
/// processor and the ABI; a RISC-V ISA string is not read from .riscv.attributes).
Target elfTarget(const ElfFile& file);
/// The format name llvm-dwarfdump prints ("elf64-littleriscv", "elf64-amdgpu", "elf32-unknown").
std::string llvmFileFormat(const ElfFile& file);

} // namespace abikit
