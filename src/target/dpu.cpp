// UPMEM DPU (dpu-upmem-dpurte): data model, registers, stack, memory map, ELF identity and
// relocations. Sources: seeds/000 (DPU ABI) and reference/dpu.md (UPMEM LLVM fork, SDK
// 2023.2); see docs/targets/dpu.md for where the two differ and what abikit follows.
#include "family.h"

#include <cstdio>

namespace abikit::detail {
namespace {

// ----- registers ------------------------------------------------------------------------------

constexpr uint32_t kArg = kRoleArgument | kRoleCallerSaved;
constexpr uint32_t kArgRet = kRoleArgument | kRoleReturn | kRoleCallerSaved;

constexpr RegisterInfo kRegisters[] = {
    {"r0", "", "r", 32, 0, kArgRet, "",
     "argument 1; 32-bit return; bits 63..32 of a 64-bit return"},
    {"r1", "", "r", 32, 1, kArgRet, "", "argument 2; bits 31..0 of a 64-bit return"},
    {"r2", "", "r", 32, 2, kArg, "", "argument 3"},
    {"r3", "", "r", 32, 3, kArg, "", "argument 4"},
    {"r4", "", "r", 32, 4, kArg, "", "argument 5"},
    {"r5", "", "r", 32, 5, kArg, "", "argument 6"},
    {"r6", "", "r", 32, 6, kArg, "", "argument 7"},
    {"r7", "", "r", 32, 7, kArg, "", "argument 8"},
    {"r8", "", "r", 32, 8, kRoleCallerSaved, "", "scratch"},
    {"r9", "", "r", 32, 9, kRoleCallerSaved, "", "scratch"},
    {"r10", "", "r", 32, 10, kRoleCallerSaved, "", "scratch"},
    {"r11", "", "r", 32, 11, kRoleCallerSaved, "", "scratch"},
    {"r12", "", "r", 32, 12, kRoleCallerSaved, "", "scratch"},
    {"r13", "", "r", 32, 13, kRoleCallerSaved, "", "scratch"},
    {"r14", "", "r", 32, 14, kRoleCalleeSaved, "", "saved and restored with r15 as d14"},
    {"r15", "", "r", 32, 15, kRoleCalleeSaved, "", "saved and restored with r14 as d14"},
    {"r16", "", "r", 32, 16, kRoleCalleeSaved, "", "saved and restored with r17 as d16"},
    {"r17", "", "r", 32, 17, kRoleCalleeSaved, "", "saved and restored with r16 as d16"},
    {"r18", "", "r", 32, 18, kRoleCalleeSaved, "", "saved and restored with r19 as d18"},
    {"r19", "", "r", 32, 19, kRoleCalleeSaved, "", "saved and restored with r18 as d18"},
    {"r20", "", "r", 32, 20, kRoleCalleeSaved, "", "saved and restored with r21 as d20"},
    {"r21", "", "r", 32, 21, kRoleCalleeSaved, "", "saved and restored with r20 as d20"},
    {"r22", "", "r", 32, 22, kRoleStackPointer | kRoleReserved, "", "stack pointer"},
    {"r23", "", "r", 32, 23, kRoleReturnAddress | kRoleReserved, "", "return address"},
    // 64-bit pairs: the even register holds the most significant word.
    {"d0", "", "d", 64, -1, kArgRet, "r0 r1", "r0 = bits 63..32, r1 = bits 31..0; 64-bit return"},
    {"d2", "", "d", 64, -1, kArg, "r2 r3", "r2 = bits 63..32, r3 = bits 31..0"},
    {"d4", "", "d", 64, -1, kArg, "r4 r5", "r4 = bits 63..32, r5 = bits 31..0"},
    {"d6", "", "d", 64, -1, kArg, "r6 r7", "r6 = bits 63..32, r7 = bits 31..0"},
    {"d8", "", "d", 64, -1, kRoleCallerSaved, "r8 r9", "r8 = bits 63..32, r9 = bits 31..0"},
    {"d10", "", "d", 64, -1, kRoleCallerSaved, "r10 r11", "r10 = bits 63..32, r11 = bits 31..0"},
    {"d12", "", "d", 64, -1, kRoleCallerSaved, "r12 r13", "r12 = bits 63..32, r13 = bits 31..0"},
    {"d14", "", "d", 64, -1, kRoleCalleeSaved, "r14 r15", "callee-saved pair"},
    {"d16", "", "d", 64, -1, kRoleCalleeSaved, "r16 r17", "callee-saved pair"},
    {"d18", "", "d", 64, -1, kRoleCalleeSaved, "r18 r19", "callee-saved pair"},
    {"d20", "", "d", 64, -1, kRoleCalleeSaved, "r20 r21", "callee-saved pair"},
    {"d22", "", "d", 64, -1, kRoleReserved, "r22 r23",
     "stack pointer and return address; saved/restored together by the prologue/epilogue"},
    // Read-only constant registers (hardware encodings 24..31; no DWARF number).
    {"zero", "", "const", 32, -1, kRoleReadOnly | kRoleZero, "", "= 0"},
    {"one", "", "const", 32, -1, kRoleReadOnly, "", "= 1"},
    {"lneg", "", "const", 32, -1, kRoleReadOnly, "", "= 0xffffffff (-1)"},
    {"mneg", "", "const", 32, -1, kRoleReadOnly, "", "= 0x80000000"},
    {"id", "", "const", 32, -1, kRoleReadOnly | kRoleSpecialInput, "", "= thread id"},
    {"id2", "", "const", 32, -1, kRoleReadOnly | kRoleSpecialInput, "", "= 2 x thread id"},
    {"id4", "", "const", 32, -1, kRoleReadOnly | kRoleSpecialInput, "", "= 4 x thread id"},
    {"id8", "", "const", 32, -1, kRoleReadOnly | kRoleSpecialInput, "", "= 8 x thread id"},
};

// ----- DWARF ----------------------------------------------------------------------------------

// r0-r23 are DWARF 0-23 (DPURegisterInfo.td); the d pairs and the constant registers have no
// number. One flat 32-bit space: WRAM, MRAM, IRAM and the atomic bits are ranges of it (the
// link-time bases of Target::memory), not DWARF address spaces: the fork's clang gives no DWARF
// address space to its MRAM address space (255).
constexpr DwarfRegisterRange kDwarfRegisters[] = {
    {0, 24, 32, DwarfRegMode::Any, "r", 0, true, 0},
};
constexpr DwarfAddressSpace kDwarfSpaces[] = {
    {0, 1, "global", 32, DwarfSpaceScope::Process, false},
};

DwarfTargetInfo dpuDwarfInfo() {
  DwarfTargetInfo d;
  d.registers = kDwarfRegisters;
  d.spaces = kDwarfSpaces;
  d.lanes = 1; // a tasklet is a thread with its own registers
  d.address_bits = 32;
  // The CIE as the fork's LLVM 12 MC layer writes it (derived, not observed): the return-address
  // column is the DWARF number of the register createDPUMCRegisterInfo passes as the RA register,
  // r0 (the real return address is r23, saved at CFA-8); code alignment MinInstAlignment = 1;
  // data alignment -CalleeSaveStackSlotSize = -4 (DPUMCAsmInfo leaves StackGrowsUp false).
  d.return_address_column = 0;
  d.code_alignment = 1;
  d.data_alignment = -4;
  d.default_same_value = false;
  d.cie_augmentation = "";
  return d;
}

// ----- memory ---------------------------------------------------------------------------------

constexpr AddressSpaceInfo kAddressSpaces[] = {
    {0, "wram", "", 32, 0, true, 0, "working memory (default address space)"},
    {255, "mram", "__mram", 32, 0, true, 0,
     "main DRAM bank; __mram objects live at the MRAM virtual base"},
};

constexpr MemoryRegion kMemoryV1A[] = {
    {"WRAM", 0x00000000, 65536, "data, stack, heap"},
    {"IRAM", 0x80000000, 32768, "4096 instructions, 8 bytes each in the ELF view (6 in hardware)"},
    {"MRAM", 0x08000000, 0, "size not fixed by the processor description"},
    {"atomic", 0xF0000000, 256, "atomic bits (acquire/release locks)"},
};
constexpr MemoryRegion kMemoryV1B[] = {
    {"WRAM", 0x00000000, 63488, "data, stack, heap"},
    {"IRAM", 0x80000000, 31744, "3968 instructions, 8 bytes each in the ELF view (6 in hardware)"},
    {"MRAM", 0x08000000, 0, "size not fixed by the processor description"},
    {"atomic", 0xF0000000, 64, "atomic bits (acquire/release locks)"},
};

// ----- ELF ------------------------------------------------------------------------------------

constexpr uint32_t kEfDpuEabiSet = 0x00800000; // bit 23: bits 24..31 hold the ABI version
constexpr uint32_t kAbiVersion = 2;

// Instruction relocations patch the 64-bit little-endian instruction slot at r_offset. The
// bit moves are reference/dpu.md §5.2 (lld's DPU relocateOne).
using M = RelocBitMove;
constexpr M kPc[] = {{0, 0, 16}};
constexpr M kImm5[] = {{0, 20, 4}, {4, 28, 1}};
constexpr M kImm8Dma[] = {{0, 24, 8}};
constexpr M kImm24Pc[] = {{0, 20, 4}, {4, 16, 4}};
constexpr M kImm27Pc[] = {{0, 20, 4}, {4, 16, 4}, {8, 39, 3}};
constexpr M kImm28PcOpc8[] = {{0, 20, 4}, {4, 16, 4}, {8, 39, 3}, {11, 44, 1}};
constexpr M kImm8Str[] = {{0, 16, 4}, {4, 0, 4}};
constexpr M kImm12Str[] = {{0, 20, 4}, {4, 39, 3},  {7, 24, 1}, {8, 15, 1},
                           {9, 14, 1}, {10, 13, 1}, {11, 12, 1}};
constexpr M kImm16Str[] = {{0, 16, 4}, {4, 0, 12}};
constexpr M kImm16Atm[] = {{0, 20, 4}, {4, 16, 4}, {8, 26, 5}, {13, 39, 3}};
#define DPU_BASE24                                                                                 \
  {0, 20, 4}, {4, 16, 4}, {8, 15, 1}, {9, 14, 1}, {10, 13, 1}, {11, 12, 1}, {                      \
    12, 0, 12                                                                                      \
  }
constexpr M kImm24[] = {DPU_BASE24};
constexpr M kImm24Rb[] = {{0, 20, 4}, {4, 39, 3},  {7, 24, 1},  {8, 15, 1},
                          {9, 14, 1}, {10, 13, 1}, {11, 12, 1}, {12, 0, 12}};
constexpr M kImm27[] = {DPU_BASE24, {24, 39, 3}};
constexpr M kImm28[] = {DPU_BASE24, {24, 39, 3}, {27, 44, 1}};
constexpr M kImm32[] = {DPU_BASE24, {24, 24, 8}};
#undef DPU_BASE24
constexpr M kImm32ZeroRb[] = {{0, 20, 4},  {4, 34, 3},  {7, 39, 1},  {8, 15, 1}, {9, 14, 1},
                              {10, 13, 1}, {11, 12, 1}, {12, 0, 12}, {24, 24, 8}};
constexpr M kImm17_24[] = {{0, 20, 4},  {4, 16, 4}, {8, 15, 1},  {9, 14, 1}, {10, 13, 1},
                           {11, 12, 1}, {12, 0, 5}, {16, 5, 1},  {16, 6, 1}, {16, 7, 1},
                           {16, 8, 1},  {16, 9, 1}, {16, 10, 1}, {16, 11, 1}};
constexpr M kImm32DusRb[] = {{0, 20, 4},  {4, 34, 3},  {7, 44, 1},  {8, 15, 1}, {9, 14, 1},
                             {10, 13, 1}, {11, 12, 1}, {12, 0, 12}, {24, 24, 8}};

constexpr const char* kAbs = "S + A (IRAM/MRAM/atomic bases converted by the linker)";

constexpr RelocationType kRelocations[] = {
    {0, "R_DPU_NONE", 0, "", "no relocation"},
    {1, "R_DPU_32", 4, kAbs, "32-bit data"},
    {2, "R_DPU_8", 1, kAbs, "8-bit data"},
    {3, "R_DPU_16", 2, kAbs, "16-bit data"},
    {4, "R_DPU_64", 8, kAbs, "64-bit data"},
    {128, "R_DPU_PC", 8, kAbs, "16-bit PC value as an instruction offset (overwrites bits 0..15)",
     kPc, 16, true},
    {129, "R_DPU_IMM5", 8, kAbs, "5-bit shift/rotation immediate", kImm5, 5},
    {130, "R_DPU_IMM8_DMA", 8, kAbs, "8-bit DMA transfer length (overwrites bits 24..31)", kImm8Dma,
     8, true},
    {131, "R_DPU_IMM24_PC", 8, kAbs, "8-bit immediate when the instruction already has a PC",
     kImm24Pc, 8},
    {132, "R_DPU_IMM27_PC", 8, kAbs,
     "11-bit immediate when the OPCX instruction already has a PC and no destination", kImm27Pc,
     11},
    {133, "R_DPU_IMM28_PC_OPC8", 8, kAbs,
     "12-bit immediate when the OPC8 instruction already has a PC and no destination", kImm28PcOpc8,
     12},
    {134, "R_DPU_IMM8_STR", 8, kAbs, "8-bit immediate of Store Immediate Byte", kImm8Str, 8},
    {135, "R_DPU_IMM12_STR", 8, kAbs, "12-bit address offset of Store Immediate", kImm12Str, 12},
    {136, "R_DPU_IMM16_STR", 8, kAbs, "16-bit immediate of Store Immediate Half/Word/Double",
     kImm16Str, 16},
    {137, "R_DPU_IMM16_ATM", 8, kAbs, "16-bit lock offset of Acquire/Release", kImm16Atm, 16},
    {138, "R_DPU_IMM24", 8, kAbs, "24-bit immediate", kImm24, 24},
    {139, "R_DPU_IMM24_RB", 8, kAbs, "24-bit address offset of Store Register", kImm24Rb, 24},
    {140, "R_DPU_IMM27", 8, kAbs, "27-bit immediate of OPCX with a Set Boolean condition", kImm27,
     27},
    {141, "R_DPU_IMM28", 8, kAbs, "28-bit immediate of OPC8 with a Set Boolean condition", kImm28,
     28},
    {142, "R_DPU_IMM32", 8, kAbs, "32-bit immediate", kImm32, 32},
    {143, "R_DPU_IMM32_ZERO_RB", 8, kAbs, "32-bit immediate when there is no destination",
     kImm32ZeroRb, 32},
    {144, "R_DPU_IMM17_24", 8, kAbs, "17-bit immediate sign-extended to 24 bits (Safe Add/Sub)",
     kImm17_24, 17, false, true},
    {145, "R_DPU_IMM32_DUS_RB", 8, kAbs, "32-bit immediate of 64-bit extended instructions",
     kImm32DusRb, 32},
};

ElfFlagsInfo decodeDpuFlags(const ElfHeaderFacts& h) {
  ElfFlagsInfo info;
  info.target = "dpu-upmem-dpurte";
  if (h.flags & kEfDpuEabiSet) {
    unsigned version = h.flags >> 24;
    info.flag_names.push_back("EF_DPU_EABI_SET");
    info.flag_names.push_back("ABI version " + std::to_string(version));
    info.properties.emplace_back("abi_version", std::to_string(version));
    if (version != kAbiVersion)
      info.problems.push_back("ABI version " + std::to_string(version) +
                              " (the current DPU ABI version is 2)");
  } else {
    // The linker decodes a missing flag to the sentinel 0xFF7FFFFF, which never matches.
    info.properties.emplace_back("abi_version", "none");
    info.problems.push_back("no ABI version (bit 23 clear): cannot be linked with ABI-2 objects");
  }
  if (uint32_t unknown = h.flags & 0x007FFFFFu) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "unknown e_flags bits 0x%x", unknown);
    info.problems.push_back(buf);
  }
  if (!(h.flags & kEfDpuEabiSet) && (h.flags >> 24) != 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "ABI version bits 0x%x set without EF_DPU_EABI_SET (ignored)",
                  h.flags >> 24);
    info.problems.push_back(buf);
  }
  if (h.elf_class != kElfClass32) info.problems.push_back("DPU objects are ELFCLASS32");
  if (h.data != kElfData2Lsb)
    info.problems.push_back("DPU objects are little-endian (ELFDATA2LSB)");
  if (h.osabi != kOsabiNone)
    info.problems.push_back("EI_OSABI is " + std::to_string(h.osabi) +
                            "; DPU objects use ELFOSABI_NONE (0)");
  return info;
}

void dpuLinkConflicts(const ElfFlagsInfo& a, const ElfFlagsInfo& b, std::vector<std::string>& out) {
  if (a.property("abi_version") != b.property("abi_version"))
    out.push_back("DPU ABI version " + std::string(a.property("abi_version")) + " vs " +
                  std::string(b.property("abi_version")));
}

// In DWARF sections: the data relocations R_DPU_8/16/32/64, V = S + A (dpu.md §5.2); debug
// sections are not SHF_ALLOC, so the linker's address-space conversion (§5.4) does not apply.
constexpr DebugRelocation kDebugRelocations[] = {{0, DebugRelocKind::Ignore},
                                                 {1, DebugRelocKind::Absolute},
                                                 {2, DebugRelocKind::Absolute},
                                                 {3, DebugRelocKind::Absolute},
                                                 {4, DebugRelocKind::Absolute}};

const ElfMachineInfo kElf = {kEmDpu,         kEmDpuName,       Family::DPU,      kRelocations,
                             decodeDpuFlags, dpuLinkConflicts, kDebugRelocations};

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "dpu" || t.arch == "dpuv1a" || t.arch == "dpuv1b";
}

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  rejectUnusedOption("DPU", "-march", o.march);
  rejectUnusedOption("DPU", "-mabi", o.mabi);
  rejectUnusedOption("DPU", "-mcmodel", o.mcmodel);
  if (o.code_object_version) targetError("-mcode-object-version is an AMDGPU option");
  if (o.wavefront_size) targetError("-m[no-]wavefrontsize64 is an AMDGPU option");
  if (o.msupervisor || o.mworker) targetError("-msupervisor/-mworker are IPU options");

  // The triple's arch may carry the version (the driver rewrites dpu to dpuv1a/dpuv1b).
  std::string cpu = o.mcpu;
  if (t.arch == "dpuv1a") cpu = cpu.empty() ? "v1A" : cpu;
  if (t.arch == "dpuv1b") cpu = cpu.empty() ? "v1B" : cpu;
  if (cpu.empty()) cpu = "v1A";
  DpuTarget dpu;
  if (cpu == "v1A" || cpu == "v1a") {
    dpu = {DpuVersion::V1A, 32768, 4096, 65536, 0, 256, 24, kAbiVersion};
    out.memory = kMemoryV1A;
    out.cpu = "v1A";
  } else if (cpu == "v1B" || cpu == "v1b") {
    dpu = {DpuVersion::V1B, 31744, 3968, 63488, 0, 64, 16, kAbiVersion};
    out.memory = kMemoryV1B;
    out.cpu = "v1B";
  } else {
    targetError("unknown DPU processor '" + cpu + "' (known: v1A, v1B)");
  }
  if (t.vendor != "upmem" || (t.os != "dpurte" && !t.os.empty()) || !t.env.empty())
    targetError("unknown DPU triple '" + t.text + "' (expected dpu-upmem-dpurte)");
  // A versioned triple and -mcpu must agree.
  if ((t.arch == "dpuv1a" && out.cpu != "v1A") || (t.arch == "dpuv1b" && out.cpu != "v1B"))
    targetError("triple '" + t.text + "' and -mcpu=" + o.mcpu + " name different DPU versions");

  out.triple = "dpu-upmem-dpurte";
  out.arch = "dpu";
  out.spelling = "dpu-upmem-dpurte -mcpu=" + out.cpu;
  if (o.abi_variant == AbiVariant::Documented) out.spelling += " --abi-variant=documented";

  DataModel& d = out.data;
  d.endian = Endian::Little;
  d.char_signed = true; // the driver's isSignedCharDefault has no DPU case
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  d.of(IntKind::Long) = d.of(IntKind::ULong) = {8, 8};
  d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
  // No __int128: clang enables it only for 64-bit pointers.
  d.of(FloatKind::Fp16) = {2, 2}; // __fp16 is a storage format on every clang target
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  d.of(FloatKind::Float) = {4, 4};
  d.of(FloatKind::Double) = {8, 8};
  d.of(FloatKind::LongDouble) = {8, 8};
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEDouble;
  d.pointer = {4, 4};
  d.function_pointer = {4, 4};
  d.size_type = IntKind::UInt;
  d.ptrdiff_type = IntKind::Int;
  d.intptr_type = IntKind::Long; // clang's default, not overridden by the DPU target (8 bytes)
  d.intmax_type = IntKind::LongLong;
  d.int64_type = IntKind::LongLong;
  d.wchar_type = IntKind::UChar; // 1-byte wchar_t
  d.wint_type = IntKind::UInt;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.va_list_kind = VaListKind::VoidPtr;
  d.va_list = {4, 4};
  d.max_vector_align = 0;
  d.biggest_alignment = 4; // SuitableAlign = 32
  d.default_aligned_attr = 16;
  d.max_align_t_align = 8; // max(long long, long double) alignment
  d.bitint_max_width = 0;  // the vendor compiler (clang 12) has no _BitInt
  d.bitint_max_align = 8;
  d.max_atomic_inline_bits = 0; // all atomics are library calls
  d.has_sync_cas = false;

  out.stack.grows_down = false;
  out.stack.alignment = 8;
  out.stack.stack_pointer = "r22";
  out.stack.return_address = "r23";
  out.stack.frame_pointer = "";
  out.stack.argument_area =
      "the stack grows upwards; an argument at offset N of size S occupies "
      "[SP-8-N-S, SP-8-N) where SP is r22 at the call: offset 0 lies just below the caller's "
      "8-byte saved-d22 slot and later offsets go to lower addresses";
  out.registers = kRegisters;
  out.dwarf = dpuDwarfInfo();
  out.address_spaces = kAddressSpaces;
  // reference/hosts.md, "Hazards": dpu_copy_to/from and dpu_push_xfer move MRAM data in
  // multiples of 8 bytes from 8-aligned addresses; mram_read/mram_write sizes are multiples of 8.
  out.shared_data = {8, "DPU MRAM transfers (dpu_copy_to/from, dpu_push_xfer, mram_read/write) "
                        "move multiples of 8 bytes"};

  out.elf = {kElfClass32, kElfData2Lsb, kOsabiNone, 0, kEmDpu, kEfDpuEabiSet | (kAbiVersion << 24),
             true,        kEmDpuName};

  out.macros = {{"__DPU__", "1"},
                {"__DPU", "1"},
                {"DPU", "1"},
                {"__ELF__", "1"},
                {"NR_THREADS", std::to_string(dpu.threads)}};
  out.detail = dpu;
}

void summaries(std::vector<TargetSummary>& out) {
  TargetSummary s;
  s.family = Family::DPU;
  s.name = "dpu-upmem-dpurte";
  s.description = "UPMEM DPU (processing-in-memory core), 32-bit, little-endian";
  s.cpus = {"v1A", "v1B"};
  out.push_back(std::move(s));
}

} // namespace

// UPMEM's clang is the only compiler for the DPU; --abi-variant=documented follows the ABI
// document instead where the two differ (docs/targets/dpu.md).
constexpr Compiler kDpuCompilers[] = {Compiler::UpmemClang};
const FamilyInfo kDpuFamily = {Family::DPU, "dpu",     "DPU", handles,
                               resolve,     summaries, &kElf, kDpuCompilers};

} // namespace abikit::detail
