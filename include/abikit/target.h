// abikit — the target model.
//
// A Target is a value describing one fully resolved toolchain target: which family and
// processor, its C data model, its registers and their roles, its stack rules, its address
// spaces and memory map, and the identity of the ELF objects it produces. It is built from
// clang-style options by resolveTarget(); every rule that differs between targets is data in
// here or in the family file under src/target/.
#pragma once

#include "abikit/targets/amdgpu.h"
#include "abikit/targets/dpu.h"
#include "abikit/targets/host.h"
#include "abikit/targets/ipu.h"
#include "abikit/targets/nvptx.h"
#include "abikit/targets/riscv.h"

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace abikit {

enum class Family : uint8_t {
#define ABIKIT_FAMILY(E, name, Prefix) E,
#include "abikit/families.def"
};
enum class Endian : uint8_t { Little, Big };

/// DPU/IPU: follow the vendor compiler (default) or the seed document's text where they differ.
enum class AbiVariant : uint8_t { Compiler, Documented };

/// The compilers whose behaviour abikit reproduces where compilers differ (`--compiler`).
enum class Compiler : uint8_t {
#define ABIKIT_COMPILER(E, spelling, kind, major, minor, patch) E,
#include "abikit/compilers.def"
};
/// Vendor: a target vendor's own clang fork (UPMEM's for DPU, Graphcore's popc for IPU).
enum class CompilerKind : uint8_t { Clang, Gcc, Vendor };

/// One compiler, and what its C front end does the same on every target (what differs per
/// target is data in the family's file).
struct CompilerInfo {
  Compiler id;
  std::string_view name; // "clang-22"
  CompilerKind kind;
  uint8_t major, minor, patch;
  /// An array whose element size is not a multiple of the element's alignment is an error
  /// (clang 19 and later: "size of array element ... isn't a multiple of its alignment"; GCC:
  /// "alignment of array elements is greater than element size").
  bool array_element_size_multiple_of_align;
  /// A flexible array member may be a union's member or a struct's only named member (a GNU
  /// extension clang 19 and later accept; clang-14 rejects both).
  bool flexible_array_anywhere;
  // Predefined macros that appeared or went away between clang versions.
  bool flt_eval_method_macro;    // __FLT_EVAL_METHOD__ (clang 14; later only inside <float.h>)
  bool norm_max_macros;          // __FLT_NORM_MAX__, __DBL_NORM_MAX__, ...
  bool fpclass_macros;           // __FPCLASS_SNAN ... __FPCLASS_POSINF
  uint8_t memory_scopes;         // __MEMORY_SCOPE_SYSTEM ... : how many are defined (0, 5, 6)
  bool embed_macros;             // __STDC_EMBED_NOT_FOUND__ / _FOUND__ / _EMPTY__
  bool int_c_macros;             // __INT8_C(c) ... __UINTMAX_C(c)
  bool bool_width_is_value_bits; // __BOOL_WIDTH__ is 1 (clang 14 and 19: the storage's 8)
  uint8_t interference_size;     // __GCC_CONSTRUCTIVE_SIZE/__GCC_DESTRUCTIVE_SIZE; 0: not defined
  /// __GCC_ATOMIC_*_LOCK_FREE is 2 only for a type aligned to its size (clang 14; later clangs
  /// look at the size alone: i386's 4-aligned long long).
  bool lock_free_needs_natural_align = false;
  /// `__attribute__((gcc_struct))` asks for the generic layout where `-mms-bitfields` is the
  /// default (clang 22; earlier clangs ignore the attribute as unknown).
  bool gcc_struct_attribute = false;
  /// CUDA and HIP are strict ISO C++ by default (clang 14: -std=c++14, HIP c++11): the device
  /// compilation defines __STRICT_ANSI__ and not the host's GNU-mode names (`linux`, `unix`).
  bool offload_strict_ansi = false;
  /// C++ (CUDA, HIP): `packed` on a record does not pack a member whose class is not POD (here:
  /// a record holding an _Atomic value) unless that class is packed itself (clang 16 and later,
  /// -fclang-abi-compat=15 and earlier pack it).
  bool non_pod_members_unpacked = false;
};

const CompilerInfo& compilerInfo(Compiler c);
std::span<const CompilerInfo> knownCompilers(); // newest clang first
/// The compiler `--compiler NAME` names, or nullptr.
const CompilerInfo* findCompiler(std::string_view name);

/// Source language of the declarations: it changes the data model (OpenCL C: `long` is 64-bit,
/// `long long` 128-bit, `half` is a type) and what a kernel is.
enum class Language : uint8_t { C, OpenCL, CUDA, HIP };
/// CUDA and HIP sources are C++ (abikit's dialect of them: docs/frontend.md).
constexpr bool isCxx(Language l) {
  return l == Language::CUDA || l == Language::HIP;
}

/// A source language with the standard its compiler option selects (-cl-std).
struct LanguageMode {
  Language lang = Language::C;
  /// OpenCL C's version as __OPENCL_C_VERSION__ spells it: 100, 110, 120, 200 or 300 (clang's
  /// default without -cl-std is 120). Read for OpenCL C only.
  uint16_t opencl_version = 120;
  LanguageMode() = default;
  LanguageMode(Language l) : lang(l) {} // NOLINT: a language in its default standard
  LanguageMode(Language l, uint16_t cl) : lang(l), opencl_version(cl) {}
};

/// OpenCL C's optional features (bits): what clang's `__opencl_c_*` feature macros announce and
/// its Sema then accepts. OpenCL C 2.0 has them all, 1.x only images; 3.0 what the target enables
/// (Target::opencl3_features).
enum OpenCLFeature : uint8_t {
  kClGenericAddressSpace = 1u << 0, // `generic`; a pointee without an address space is generic
  kClPipes = 1u << 1,               // `pipe T`, reserve_id_t
  kClDeviceEnqueue = 1u << 2,       // queue_t, clk_event_t
  kClImages = 1u << 3,              // image types
  kClReadWriteImages = 1u << 4,     // read_write images
  kClAllFeatures = (1u << 5) - 1,
};

/// The OpenCL C version -cl-std=VALUE selects (clang's spellings: CL1.0 ... CL3.0, also in
/// lower case; "CL" alone is 1.0). Throws an Input error naming the value for anything else,
/// C++ for OpenCL (clc++) included.
uint16_t parseOpenCLStandard(std::string_view value);

std::string_view familyName(Family f); // "riscv", "nvptx", "amdgpu", "dpu", "ipu"

/// The options a user gives, spelled like clang's (see cli-contract.md).
struct TargetOptions {
  std::string triple;          // --target
  std::string march;           // -march (RISC-V ISA string)
  std::string mabi;            // -mabi
  std::string mcpu;            // -mcpu (AMDGPU target-id features allowed: gfx90a:xnack+)
  std::string mcmodel;         // -mcmodel (RISC-V: medlow, medany, large)
  int code_object_version = 0; // -mcode-object-version (AMDGPU); 0 = default
  int wavefront_size = 0;   // -mwavefrontsize64 (64) / -mno-wavefrontsize64 (32), AMDGPU; 0 = the
                            // processor's default
  bool msupervisor = false; // IPU: -msupervisor
  bool mworker = false;     // IPU: -mworker (both flags: code runs in both modes)
  AbiVariant abi_variant = AbiVariant::Compiler;
  /// --compiler: whose behaviour to reproduce ("clang-22", "clang-14", ...); empty: the newest
  /// compiler abikit models for the target's family.
  std::string compiler;
  /// --host-target: the host of a CUDA/HIP device compilation (NVPTX, AMDGPU); empty: the
  /// device family's default (x86_64-linux-gnu; i386-linux-gnu for 32-bit NVPTX).
  std::string host_triple;
};

// ---------------------------------------------------------------------------------------------
// Data model

/// The C integer types with a target-dependent size. `_BitInt(N)` is handled separately.
enum class IntKind : uint8_t {
  Bool,
  Char,
  SChar,
  UChar,
  Short,
  UShort,
  Int,
  UInt,
  Long,
  ULong,
  LongLong,
  ULongLong,
  Int128,
  UInt128,
};
inline constexpr size_t kNumIntKinds = 14;

/// The C floating types. Fp16 is `__fp16` (and OpenCL `half`), Float128 is `__float128`.
enum class FloatKind : uint8_t { Fp16, Float16, BFloat16, Float, Double, LongDouble, Float128 };
inline constexpr size_t kNumFloatKinds = 7;

enum class FloatFormat : uint8_t { None, IEEEHalf, BFloat, IEEESingle, IEEEDouble, IEEEQuad, X87 };

/// Size and alignment in bytes. size == 0 means the type does not exist on this target.
struct SizeAlign {
  uint16_t size = 0;
  uint16_t align = 0;
  constexpr bool supported() const { return size != 0; }
};

/// Which record-layout algorithm the target's compiler uses for C records: the generic one
/// (clang's Itanium builder, which every non-Windows target and MinGW use) or Microsoft's (clang's
/// MicrosoftRecordLayoutBuilder: the *-windows-msvc targets). docs/layout.md gives both.
enum class RecordRules : uint8_t { Itanium, Microsoft };

/// What `__builtin_va_list` is: a pointer, or the psABI's record (x86-64: `struct __va_list_tag
/// [1]`, 24 bytes; AAPCS64: `struct __va_list`, 32 bytes).
enum class VaListKind : uint8_t { VoidPtr, CharPtr, X86_64Tag, Aapcs64 };
/// The C spelling `describe` shows for a va_list kind ("void *", "struct __va_list_tag[1]").
std::string_view vaListKindName(VaListKind k);

/// DataModel::max_atomic_promote_bits of a target whose _Atomic layout is not known.
inline constexpr uint16_t kAtomicLayoutUnknown = UINT16_MAX;

struct DataModel {
  Endian endian = Endian::Little;
  bool char_signed = true;
  std::array<SizeAlign, kNumIntKinds> ints{};     // indexed by IntKind
  std::array<SizeAlign, kNumFloatKinds> floats{}; // indexed by FloatKind; size 0 = unsupported
  std::array<FloatFormat, kNumFloatKinds> float_formats{};
  SizeAlign pointer;          // data pointer in the default address space
  SizeAlign function_pointer; // code pointer

  // The types behind the standard typedefs and clang's __*_TYPE__ macros.
  IntKind size_type = IntKind::ULong;
  IntKind ptrdiff_type = IntKind::Long;
  IntKind intptr_type = IntKind::Long;
  IntKind intmax_type = IntKind::LongLong;
  IntKind int64_type = IntKind::LongLong;
  IntKind wchar_type = IntKind::Int;
  IntKind wint_type = IntKind::UInt;
  IntKind char16_type = IntKind::UShort;
  IntKind char32_type = IntKind::UInt;
  IntKind sig_atomic_type = IntKind::Int;

  VaListKind va_list_kind = VaListKind::VoidPtr;
  SizeAlign va_list;

  uint16_t max_vector_align = 0;       // 0: a vector is aligned to its size; else capped here
  uint16_t biggest_alignment = 16;     // __BIGGEST_ALIGNMENT__
  uint16_t default_aligned_attr = 16;  // __attribute__((aligned)) with no argument
  uint16_t max_align_t_align = 16;     // _Alignof(max_align_t)
  uint32_t bitint_max_width = 128;     // largest N accepted in _BitInt(N)
  uint16_t bitint_max_align = 8;       // alignment cap for _BitInt(N) (clang-14: 8 everywhere)
  uint16_t max_atomic_inline_bits = 0; // widest lock-free atomic (MaxAtomicInlineWidth)
  /// _Atomic(T): a T of at most this many bits is rounded up to a power-of-two size and aligned
  /// to it (clang's MaxAtomicPromoteWidth; 0: never); kAtomicLayoutUnknown where no compiler of
  /// the target was measured, and _Atomic is refused.
  uint16_t max_atomic_promote_bits = kAtomicLayoutUnknown;
  bool has_sync_cas = false;       // defines __GCC_HAVE_SYNC_COMPARE_AND_SWAP_N
  uint8_t sync_cas_max_bytes = 16; // ... for N up to this (and max_atomic_inline_bits)
  uint8_t flt_eval_method = 0;     // FLT_EVAL_METHOD: 2 where float math is x87 (i386)

  // Record layout rules (clang TargetInfo knobs).
  bool bitfield_type_alignment = true;         // UseBitFieldTypeAlignment
  bool zero_length_bitfield_alignment = false; // UseZeroLengthBitfieldAlignment: unnamed and
                                               // zero-width bit-fields raise record alignment
  RecordRules record_rules = RecordRules::Itanium;
  /// Every record is laid out as `ms_struct` (MinGW: clang's -mms-bitfields, on by default there);
  /// elsewhere `#pragma ms_struct on` and `__attribute__((ms_struct))` ask for it per record.
  bool ms_bitfields = false;
  /// The Microsoft C dialect of the *-windows-msvc targets (clang's -fms-extensions and
  /// -fms-compatibility, which its driver turns on there): `__int64` and `__declspec` are
  /// keywords, and neither `__STDC__` nor the GNU macros (`__GNUC__`, `__GCC_ATOMIC_*`) are
  /// predefined.
  bool ms_extensions = false;
  /// The Microsoft ABI's enums (*-windows-msvc): an enum without a fixed type is an `int`, its
  /// values cut to 32 bits. A CUDA/HIP device of an MSVC host has the dialect, not these.
  bool ms_enums = false;

  const SizeAlign& of(IntKind k) const { return ints[static_cast<size_t>(k)]; }
  const SizeAlign& of(FloatKind k) const { return floats[static_cast<size_t>(k)]; }
  SizeAlign& of(IntKind k) { return ints[static_cast<size_t>(k)]; }
  SizeAlign& of(FloatKind k) { return floats[static_cast<size_t>(k)]; }
};

// ---------------------------------------------------------------------------------------------
// Registers, stack, memory

enum RegRole : uint32_t {
  kRoleArgument = 1u << 0,
  kRoleReturn = 1u << 1,
  kRoleCallerSaved = 1u << 2,
  kRoleCalleeSaved = 1u << 3,
  kRoleStackPointer = 1u << 4,
  kRoleReturnAddress = 1u << 5,
  kRoleFramePointer = 1u << 6,
  kRoleReserved = 1u << 7, // never allocated by the compiler
  kRoleReadOnly = 1u << 8, // reads a constant or hardware value; writes are ignored/invalid
  kRoleZero = 1u << 9,     // hard-wired zero
  kRoleGlobalPointer = 1u << 10,
  kRoleThreadPointer = 1u << 11,
  kRoleBasePointer = 1u << 12,
  kRoleSpecialInput = 1u << 13, // holds an input set up by hardware/runtime (ids, pointers)
};

std::string_view roleName(RegRole r); // "argument", "return", ...

struct RegisterInfo {
  std::string_view name;  // assembler name: "a0", "r3", "d2", "$m0", "$a0:1", "v7"
  std::string_view alias; // alternative name ("x10"), may be empty
  std::string_view file;  // register file: "gpr", "fpr", "vgpr", "sgpr", "mrf", "arf", ...
  uint16_t bits = 0;
  int32_t dwarf = -1;          // DWARF register number, -1 when it has none
  uint32_t roles = 0;          // RegRole bits
  std::string_view components; // tuples: component registers, space separated, lowest number
                               // first ("r0 r1"); empty for single registers
  std::string_view note;       // e.g. "r0 holds bits 63..32"
};

/// A run of DWARF register numbers and the names llvm-dwarfdump-22 prints for them (the display
/// form of DWARF expressions): numbers first..first+count-1 are `prefix` + (index0 + i) + `suffix`
/// ("SGPR64".."SGPR105", "F0_H"); a run with `numbered` false is one register named `prefix`.
struct DwarfRegisterName {
  uint32_t first = 0;
  uint32_t count = 1;
  std::string_view prefix;
  std::string_view suffix;
  uint32_t index0 = 0;
  bool numbered = true;
};

// ---------------------------------------------------------------------------------------------
// DWARF facts of a target (reference dwarf.md §3 and §4.1; docs/dwarf.md says where each
// family's numbers come from). The DWARF evaluator and CFI code read only these: no switch on the
// family in src/dwarf/.

/// Which code a DWARF register number is valid in (reference dwarf.md §3.1): vector registers have
/// one number range per wavefront size, the PC one per process address size.
enum class DwarfRegMode : uint8_t { Any, Wave32, Wave64, Proc32, Proc64 };

/// A run of DWARF register numbers first..first+count-1, register i named `prefix` + (index0 + i)
/// (or `prefix` alone when count is 1 and `numbered` is false), each `bits` wide. A vector
/// register of a SIMT target holds every lane: lane L's element is bits [L*lane_bits, ...).
/// bits == 0: the size is not fixed by the target (e.g. RISC-V vector registers: VLEN); the
/// machine state gives it.
struct DwarfRegisterRange {
  uint32_t first = 0;
  uint32_t count = 1;
  uint32_t bits = 0;
  DwarfRegMode mode = DwarfRegMode::Any;
  std::string_view prefix;
  uint32_t index0 = 0;
  bool numbered = true;
  uint16_t lane_bits = 0; // per-lane element of a vector register (0: not per lane)
};

/// Who an address space's storage belongs to: the whole process, the bound wave (thread), the
/// bound (focused) lane, or one fixed lane (AMDGPU private_lane<N>, Seed profile only).
enum class DwarfSpaceScope : uint8_t { Process, Wave, Lane, FixedLane };

/// DWARF address spaces (DW_ASPACE_*), ids first..first+count-1 (count > 1 only for a run of
/// fixed-lane spaces, lane = id - first, named `name` + lane).
struct DwarfAddressSpace {
  uint32_t first = 0;
  uint32_t count = 1;
  std::string_view name; // contract spelling without prefix: "global", "private_lane"
  uint8_t address_bits = 64;
  DwarfSpaceScope scope = DwarfSpaceScope::Process;
  bool seed_only = false; // valid in the Seed profile only (reference dwarf.md §7.6)
};

/// How a compiler marks a variable's address space in a location: `address, DW_OP_lit<marker>,
/// DW_OP_swap, DW_OP_xderef` means "in space `space` at that address" (docs/targets/amdgpu.md).
struct DwarfSpaceMarker {
  uint32_t marker = 0;
  uint32_t space = 0;
  std::string_view producers; // who writes it
};

/// Where one byte of an address space really lives: after the target's mapping (AMDGPU §3.3:
/// private_lane → private_wave swizzle, generic → local/private/global through the apertures).
struct DwarfPhysicalByte {
  uint32_t space = 0;
  uint64_t address = 0;
};
/// The base address of an aperture of a flat space (AMDGPU: "local", "private"), as the runtime
/// sets it; `space` is the space addresses inside the aperture map to.
struct DwarfAperture {
  uint32_t space = 0;
  uint64_t base = 0;
};
/// Maps byte `address` of `space` as seen by lane `lane` of a wave of `lanes` lanes. Returns
/// false when the address cannot be mapped (e.g. a generic address in an aperture whose base the
/// machine state does not give). Null in DwarfTargetInfo: every space is its own storage.
using DwarfMapFn = bool (*)(uint32_t space, uint64_t address, uint32_t lane, uint32_t lanes,
                            std::span<const DwarfAperture> apertures, DwarfPhysicalByte& out);

struct DwarfTargetInfo {
  std::span<const DwarfRegisterRange> registers;
  std::span<const DwarfAddressSpace> spaces; // the one with id 0 is the default
  uint32_t lanes = 1;                        // lanes per thread (AMDGPU: the wavefront size)
  uint8_t address_bits = 64;                 // of the default address space
  DwarfMapFn map = nullptr;
  // The default CIE (reference dwarf.md §4.1): what a CIE written by this target's compiler
  // says, and the rule of a column no instruction mentions.
  uint32_t return_address_column = 0;
  uint32_t code_alignment = 1;
  int32_t data_alignment = -4;
  bool default_same_value = false;   // true: unmentioned columns keep their value (AMDGPU)
  std::string_view cie_augmentation; // e.g. "[amd:v0.0]"; empty: none
  std::span<const DwarfSpaceMarker> xderef_markers; // address-space markers compilers write

  /// The register DWARF number `number` denotes in code of this target, or null: a reserved
  /// number, one the target does not know, or one valid only in another mode (a Wave32 range
  /// when `lanes` is 64, a Proc32 range when `address_bits` is 64, and so on).
  const DwarfRegisterRange* findRegister(uint64_t number) const;
  /// The address space with DWARF id `id`, or null (reserved or unknown). Seed-only spaces are
  /// found too; `seed_only` says which they are.
  const DwarfAddressSpace* findSpace(uint64_t id) const;
};

/// The name of register `number` of range `r` (which must hold it): prefix + index, "SGPR70".
std::string dwarfRegisterName(const DwarfRegisterRange& r, uint64_t number);
/// The register named `name` (case-insensitive: "SGPR5", "x10") in this target's mode; -1: none.
int64_t dwarfRegisterNumber(const DwarfTargetInfo& d, std::string_view name);
/// The space named `name` ("global", "private_lane3"; or a decimal number); -1: none.
int64_t dwarfSpaceNumber(const DwarfTargetInfo& d, std::string_view name);
/// The name of space `id` ("private_lane3"), or its number when it has none.
std::string dwarfSpaceName(const DwarfTargetInfo& d, uint32_t id);

struct StackInfo {
  bool grows_down = true;
  uint16_t alignment = 16;         // stack-pointer alignment at calls, bytes
  std::string_view stack_pointer;  // register name
  std::string_view return_address; // register name (empty: on the stack)
  std::string_view frame_pointer;  // register name, may be empty
  std::string_view argument_area;  // where offset 0 of the outgoing argument area lives and
                                   // how later offsets grow: what {"stack": N} means
};

struct AddressSpaceInfo {
  uint32_t number = 0;         // LLVM address-space number
  std::string_view name;       // "generic", "global", "local", "mram", ...
  std::string_view c_spelling; // qualifier accepted in C declarations ("__global"), or ""
  uint16_t pointer_bits = 0;   // sizeof(T __as *) * 8 as C sees it
  uint16_t address_bits = 0;   // hardware address size in bits (0 = same as pointer)
  bool null_known = true;
  uint64_t null_value = 0;
  std::string_view note;
};

struct MemoryRegion {
  std::string_view name; // "WRAM", "IRAM", "MRAM", "atomic", "TMEM region 0"
  uint64_t base = 0;     // virtual-address base (symbol values are offset by it)
  uint64_t size = 0;     // bytes, 0 = unknown / unbounded
  std::string_view note;
};

struct ElfIdentity {
  uint8_t elf_class = 1;         // 1 = ELFCLASS32, 2 = ELFCLASS64
  uint8_t data = 1;              // 1 = ELFDATA2LSB, 2 = ELFDATA2MSB
  uint8_t osabi = 0;             // e_ident[EI_OSABI]
  uint8_t abi_version = 0;       // e_ident[EI_ABIVERSION]
  uint16_t machine = 0;          // e_machine
  uint32_t flags = 0;            // e_flags this exact target produces
  bool rela = true;              // relocation sections are SHT_RELA
  std::string_view machine_name; // "EM_RISCV"
};

/// A header the target's toolchain provides (e.g. Graphcore's <ipudef.h>); #include <name>
/// finds it without any -I. The standard headers (<stdint.h>, <stddef.h>, ...) are generated
/// from the data model by the front-end and are not listed here.
struct BuiltinHeader {
  std::string_view name;
  std::string_view text;
};

/// A macro the target predefines for one source language only (e.g. `__CUDA_ARCH__` in CUDA
/// device compilation for NVPTX); predefinedMacros() adds it after Target::macros.
struct LanguageMacro {
  Language lang = Language::C;
  std::string name;
  std::string value;
};

/// A family-specific fact shown by `abikit describe` ("xlen" = 64, "extensions" = [...]).
struct TargetProperty {
  std::string key;
  std::string value;             // scalar value (when `list` is empty)
  std::vector<std::string> list; // list value
  bool is_number = false;        // `value` is a decimal number (JSON number, not string)
};

/// What a CUDA or HIP device compilation takes from its host's data model, as clang copies it
/// from the host's TargetInfo (NVPTXTargetInfo's constructor, AMDGPUTargetInfo::setAuxTarget).
/// Bits of Target::Offload::copies; the device family sets them per compiler (docs/offload.md).
enum OffloadCopy : uint32_t {
  kOffloadInts = 1u << 0,           // bool, int, long, long long, pointer, char's sign, and the
                                    // types behind size_t, wchar_t, intmax_t, ... (__*_TYPE__)
  kOffloadFloats = 1u << 1,         // float and double
  kOffloadBitFieldRules = 1u << 2,  // bitfield_type_alignment, zero_length_bitfield_alignment
  kOffloadAtomics = 1u << 3,        // max_atomic_inline_bits (__GCC_ATOMIC_*_LOCK_FREE)
  kOffloadDialect = 1u << 4,        // the Microsoft dialect of an MSVC host (ms_extensions)
  kOffloadAlignLimits = 1u << 5,    // biggest_alignment, max_vector_align
  kOffloadLongDoubleSize = 1u << 6, // long double's size and alignment (the device's format)
  kOffloadFloat128 = 1u << 7,       // __float128 as the host has it (or not)
  kOffloadAlignedAttr = 1u << 8,    // `aligned` without an argument (default_aligned_attr)
  // Types device code declares whatever the device has (clang lets CUDA parse host code):
  kOffloadFloat16 = 1u << 9,      // _Float16: 2 bytes, IEEE half
  kOffloadInt128 = 1u << 10,      // __int128: 16 bytes, 16-aligned (also on 32-bit devices)
  kOffloadAnyFloat128 = 1u << 11, // __float128: 16 bytes, 16-aligned, whatever the host has
  /// The record-layout algorithm of the host (record_rules: Microsoft's for an MSVC host); not
  /// MinGW's -mms-bitfields, nor the Microsoft enums.
  kOffloadRecordRules = 1u << 12,
};

// ---------------------------------------------------------------------------------------------
// The resolved target

class Target {
public:
  Family family = Family::RISCV;
  std::string triple;   // normalised: "riscv64-unknown-elf", "amdgcn-amd-amdhsa"
  std::string arch;     // "riscv32", "riscv64", "nvptx", "nvptx64", "amdgcn", "dpu", "colossus"
  std::string cpu;      // resolved processor ("gfx906", "sm_70", "v1A", "ipu2", "generic-rv64")
  std::string spelling; // canonical options, e.g. "riscv64-unknown-elf -march=rv64gc -mabi=lp64d"
  AbiVariant abi_variant = AbiVariant::Compiler;
  Compiler compiler = Compiler::Clang14; // whose behaviour the answers reproduce

  DataModel data;
  StackInfo stack;
  ElfIdentity elf;
  std::span<const RegisterInfo> registers;
  /// How llvm-dwarfdump-22 names this target's DWARF registers (empty: it prints numbers).
  std::span<const DwarfRegisterName> dwarf_register_names;
  /// The DWARF registers, address spaces and CIE defaults (evaluation and CFI).
  DwarfTargetInfo dwarf;
  std::span<const AddressSpaceInfo> address_spaces;
  std::span<const MemoryRegion> memory;
  /// Macros clang predefines for this target beyond the ones derived from the data model
  /// (those are produced by predefinedMacros()).
  std::vector<std::pair<std::string, std::string>> macros;
  /// Macros for one source language only, on top of `macros`.
  std::vector<LanguageMacro> language_macros;
  std::span<const BuiltinHeader> headers;
  /// OpenCL C 3.0: the optional features (OpenCLFeature bits) clang enables for this target, e.g.
  /// __opencl_c_generic_address_space, which makes a pointee written without an address space
  /// generic rather than private.
  uint8_t opencl3_features = 0;
  /// What a record shared with another target must satisfy beyond its layout (DPU: MRAM
  /// transfers move multiples of 8 bytes); `abikit compat` notes records that do not.
  struct SharedDataRule {
    uint16_t size_multiple = 0; // 0: no rule
    std::string_view why;
  } shared_data;
  /// Family-specific facts for `describe` (ISA extensions, processor features, sizes, ...).
  std::vector<TargetProperty> properties;
  /// A CUDA/HIP device's host: `.cu` and `.hip` sources are laid out with what the device
  /// compilation takes from it (dataModelFor, predefinedMacros).
  struct Offload {
    uint32_t copies = 0;                // OffloadCopy bits; 0: the family is not a CUDA/HIP device
    std::string_view default_host;      // the host when --host-target is not given
    std::shared_ptr<const Target> host; // set by resolveTarget when `copies` is not 0
  } offload;

  std::variant<RiscvTarget, NvptxTarget, AmdgpuTarget, DpuTarget, IpuTarget, HostTarget> detail;

  const RiscvTarget& riscv() const { return std::get<RiscvTarget>(detail); }
  const NvptxTarget& nvptx() const { return std::get<NvptxTarget>(detail); }
  const AmdgpuTarget& amdgpu() const { return std::get<AmdgpuTarget>(detail); }
  const DpuTarget& dpu() const { return std::get<DpuTarget>(detail); }
  const IpuTarget& ipu() const { return std::get<IpuTarget>(detail); }
  const HostTarget& host() const { return std::get<HostTarget>(detail); }

  const RegisterInfo* findRegister(std::string_view name) const;
  const AddressSpaceInfo* findAddressSpace(uint32_t number) const;
};

/// Builds a Target from options. Throws abikit::Error (ErrorKind::Target) with one clear message
/// for an unknown triple, CPU or ABI, a malformed -march, or an invalid combination.
Target resolveTarget(const TargetOptions& options);

/// The C spelling of an integer kind ("unsigned long", "__int128", "_Bool").
const char* intKindName(IntKind k);
/// The C spelling of a floating kind ("__fp16", "_Float16", "__bf16", "long double", ...).
const char* floatKindName(FloatKind k);
/// Whether an integer kind is signed in a data model (plain `char` follows `char_signed`).
bool intKindSigned(IntKind k, const DataModel& d);
/// The unsigned kind of the same width (`char` and `signed char` give `unsigned char`).
IntKind unsignedIntKind(IntKind k);
/// The suffix of an integer constant of kind `k` after promotion, as clang's __INTn_C_SUFFIX__
/// macros spell it ("U", "L", "UL", "LL", "ULL", or "").
const char* intConstantSuffix(IntKind k, const DataModel& d);
/// The printf length modifier of an integer kind ("hh", "h", "l", "ll", or "").
const char* intFormatModifier(IntKind k);

/// The data model as seen by a source language (OpenCL C changes `long`, `long long`, `half`;
/// CUDA and HIP take what Target::offload says from the host).
DataModel dataModelFor(const Target& target, Language lang);

/// OpenCL C: the optional features (OpenCLFeature bits) of this version on this target (2.0: all;
/// 1.x: images; 3.0: Target::opencl3_features); 0 for other languages.
uint8_t openclFeatures(const Target& target, LanguageMode mode);
/// OpenCL C: whether the generic address space exists. It decides a pointee written without an
/// address space: generic if so, else private (clang's deduction); false for other languages.
inline bool openclGenericAddressSpace(const Target& target, LanguageMode mode) {
  return openclFeatures(target, mode) & kClGenericAddressSpace;
}
/// The number of an OpenCL C address space spelled "__global", "__private", ... on this target:
/// the target's own, else 0 (clang's default address-space map for a space it does not name).
uint32_t openclAddressSpace(const Target& target, std::string_view spelling);

/// All macros clang predefines for this target and language: the family's own macros plus the
/// ones derived from the data model (__SIZEOF_INT__, __CHAR_UNSIGNED__, __INT_MAX__,
/// __SIZE_TYPE__, __BIGGEST_ALIGNMENT__, ...), in a deterministic order.
std::vector<std::pair<std::string, std::string>> predefinedMacros(const Target& target,
                                                                  LanguageMode lang);

/// One line of `abikit targets`.
struct TargetSummary {
  Family family;
  std::string name;        // triple or recognised target name
  std::string description; // one line
  std::vector<std::string> cpus;
  std::vector<std::string> abis;
};
std::vector<TargetSummary> knownTargets();

} // namespace abikit
