// RISC-V (riscv32-*, riscv64-*): triples, -march/-mabi/-mcpu/-mcmodel, data model, registers
// and their roles per ABI, stack, predefined macros, ELF identity, e_flags and relocations.
// Sources: reference/riscv.md (psABI riscv-cc.adoc / riscv-elf.adoc / riscv-dwarf.adoc, clang
// and LLVM sources), checked against clang-14, llc-14 and riscv64-unknown-elf-gcc 12; see
// docs/targets/riscv.md for every difference and decision.
#include "family.h"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

namespace abikit {

std::string_view riscvAbiName(RiscvAbi abi) {
  switch (abi) {
  case RiscvAbi::ILP32:
    return "ilp32";
  case RiscvAbi::ILP32F:
    return "ilp32f";
  case RiscvAbi::ILP32D:
    return "ilp32d";
  case RiscvAbi::ILP32E:
    return "ilp32e";
  case RiscvAbi::LP64:
    return "lp64";
  case RiscvAbi::LP64F:
    return "lp64f";
  case RiscvAbi::LP64D:
    return "lp64d";
  case RiscvAbi::LP64Q:
    return "lp64q";
  case RiscvAbi::LP64E:
    return "lp64e";
  }
  return "?";
}

std::string_view riscvCodeModelName(RiscvCodeModel cm) {
  switch (cm) {
  case RiscvCodeModel::Medlow:
    return "medlow";
  case RiscvCodeModel::Medany:
    return "medany";
  case RiscvCodeModel::Large:
    return "large";
  }
  return "?";
}

namespace detail {
namespace {

// ----- ABIs -----------------------------------------------------------------------------------

constexpr uint32_t kEfRvc = 0x0001;
constexpr uint32_t kEfFloatAbiMask = 0x0006;
constexpr uint32_t kEfRve = 0x0008;
constexpr uint32_t kEfTso = 0x0010;
constexpr uint32_t kEfRv64Ilp32 = 0x0020;
constexpr uint32_t kEfRvy = 0x0040;

struct AbiDef {
  RiscvAbi abi;
  std::string_view name;
  unsigned xlen;
  unsigned flen;       // ABI_FLEN
  bool e;              // a0-a5 only, reduced stack alignment
  uint32_t float_flag; // EF_RISCV_FLOAT_ABI_*
};

constexpr AbiDef kAbis[] = {
    {RiscvAbi::ILP32, "ilp32", 32, 0, false, 0x0},
    {RiscvAbi::ILP32F, "ilp32f", 32, 32, false, 0x2},
    {RiscvAbi::ILP32D, "ilp32d", 32, 64, false, 0x4},
    {RiscvAbi::ILP32E, "ilp32e", 32, 0, true, 0x0},
    {RiscvAbi::LP64, "lp64", 64, 0, false, 0x0},
    {RiscvAbi::LP64F, "lp64f", 64, 32, false, 0x2},
    {RiscvAbi::LP64D, "lp64d", 64, 64, false, 0x4},
    {RiscvAbi::LP64Q, "lp64q", 64, 128, false, 0x6},
    {RiscvAbi::LP64E, "lp64e", 64, 0, true, 0x0},
};

const AbiDef* findAbi(std::string_view name) {
  for (const AbiDef& a : kAbis)
    if (a.name == name) return &a;
  return nullptr;
}

std::string_view flenExtension(unsigned flen) {
  return flen == 128 ? "Q" : flen == 64 ? "D" : "F";
}

// ----- processors (clang-14's RISCVTargetParser.def; the default -march each implies) --------

struct CpuDef {
  std::string_view name;
  unsigned xlen;
  std::string_view march; // empty: the triple's default
};

constexpr CpuDef kCpus[] = {
    {"generic-rv32", 32, ""},        {"generic-rv64", 64, ""},
    {"rocket-rv32", 32, ""},         {"rocket-rv64", 64, ""},
    {"sifive-7-rv32", 32, ""},       {"sifive-7-rv64", 64, ""},
    {"sifive-e20", 32, "rv32imc"},   {"sifive-e21", 32, "rv32imac"},
    {"sifive-e24", 32, "rv32imafc"}, {"sifive-e31", 32, "rv32imac"},
    {"sifive-e34", 32, "rv32imafc"}, {"sifive-e76", 32, "rv32imafc"},
    {"sifive-s21", 64, "rv64imac"},  {"sifive-s51", 64, "rv64imac"},
    {"sifive-s54", 64, "rv64gc"},    {"sifive-s76", 64, "rv64gc"},
    {"sifive-u54", 64, "rv64gc"},    {"sifive-u74", 64, "rv64gc"},
};

// ----- registers ------------------------------------------------------------------------------

constexpr std::string_view kGprNames[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2",
                                            "s0",   "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
                                            "a6",   "a7", "s2",  "s3",  "s4", "s5", "s6", "s7",
                                            "s8",   "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr std::string_view kXNames[32] = {"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",
                                          "x8",  "x9",  "x10", "x11", "x12", "x13", "x14", "x15",
                                          "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
                                          "x24", "x25", "x26", "x27", "x28", "x29", "x30", "x31"};
constexpr std::string_view kFprNames[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4",  "ft5",  "ft6", "ft7", "fs0",  "fs1", "fa0",
    "fa1", "fa2", "fa3", "fa4", "fa5",  "fa6",  "fa7", "fs2", "fs3",  "fs4", "fs5",
    "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
constexpr std::string_view kFNames[32] = {"f0",  "f1",  "f2",  "f3",  "f4",  "f5",  "f6",  "f7",
                                          "f8",  "f9",  "f10", "f11", "f12", "f13", "f14", "f15",
                                          "f16", "f17", "f18", "f19", "f20", "f21", "f22", "f23",
                                          "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31"};
constexpr std::string_view kVNames[32] = {"v0",  "v1",  "v2",  "v3",  "v4",  "v5",  "v6",  "v7",
                                          "v8",  "v9",  "v10", "v11", "v12", "v13", "v14", "v15",
                                          "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
                                          "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31"};

constexpr std::string_view kArgNotes[8] = {"argument 1; return value (low part)",
                                           "argument 2; return value (high part)",
                                           "argument 3",
                                           "argument 4",
                                           "argument 5",
                                           "argument 6",
                                           "argument 7",
                                           "argument 8"};
constexpr std::string_view kFArgNotes[8] = {"FP argument 1; FP return value",
                                            "FP argument 2; second FP return value",
                                            "FP argument 3",
                                            "FP argument 4",
                                            "FP argument 5",
                                            "FP argument 6",
                                            "FP argument 7",
                                            "FP argument 8"};

std::string_view gprNote(unsigned n, bool e_abi) {
  switch (n) {
  case 0:
    return "hard-wired zero";
  case 1:
    return "return address";
  case 2:
    return "stack pointer";
  case 3:
    return "global pointer (linker relaxation); not allocated";
  case 4:
    return "thread pointer; not allocated";
  case 5:
    return "temporary; alternate link register";
  case 7:
    return "temporary; static chain of nested functions";
  case 8:
    return "callee-saved; frame pointer (fp) when one is kept";
  default:
    break;
  }
  if (n >= 10 && n < 18) {
    if (e_abi && n >= 16) return "temporary (not an argument register under the E ABIs)";
    return kArgNotes[n - 10];
  }
  return "";
}

uint32_t gprRoles(unsigned n, bool e_abi) {
  switch (n) {
  case 0:
    return kRoleZero | kRoleReadOnly | kRoleReserved;
  case 1:
    return kRoleReturnAddress | kRoleCallerSaved;
  case 2:
    return kRoleStackPointer | kRoleCalleeSaved | kRoleReserved;
  case 3:
    return kRoleGlobalPointer | kRoleReserved;
  case 4:
    return kRoleThreadPointer | kRoleReserved;
  case 8:
    return kRoleCalleeSaved | kRoleFramePointer;
  case 9:
    return kRoleCalleeSaved;
  default:
    break;
  }
  if (n >= 10 && n < 18) {
    unsigned last = e_abi ? 15 : 17;
    if (n > last) return kRoleCallerSaved;
    return kRoleArgument | kRoleCallerSaved | (n <= 11 ? uint32_t(kRoleReturn) : 0u);
  }
  if (n >= 18 && n <= 27) return kRoleCalleeSaved;
  return kRoleCallerSaved; // t0-t6
}

std::string_view fsNote(unsigned abi_flen, unsigned flen) {
  if (abi_flen == 0) return "temporary: the soft-float ABIs preserve no FP register";
  if (abi_flen == flen) return "callee-saved";
  if (abi_flen == 32) return "callee-saved: only the low 32 bits (ABI_FLEN 32)";
  return "callee-saved: only the low 64 bits (ABI_FLEN 64)";
}

struct RegKey {
  unsigned xlen, ngpr, flen, abi_flen, vlen;
  bool vector, e_abi;
  auto tie() const { return std::tie(xlen, ngpr, flen, abi_flen, vlen, vector, e_abi); }
  bool operator<(const RegKey& o) const { return tie() < o.tie(); }
};

// The register tables differ by XLEN, base (E: x0-x15), FLEN, ABI_FLEN and VLEN; each variant is
// built once and kept for the life of the program (Target::registers is a span).
std::span<const RegisterInfo> registersFor(const RegKey& key) {
  static std::mutex mutex;
  static std::map<RegKey, std::unique_ptr<std::vector<RegisterInfo>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[key];
  if (slot) return *slot;
  auto regs = std::make_unique<std::vector<RegisterInfo>>();
  for (unsigned n = 0; n < key.ngpr; ++n)
    regs->push_back({kGprNames[n], kXNames[n], "gpr", uint16_t(key.xlen), int32_t(n),
                     gprRoles(n, key.e_abi), "", gprNote(n, key.e_abi)});
  for (unsigned n = 0; key.flen && n < 32; ++n) {
    uint32_t roles = kRoleCallerSaved;
    std::string_view note = "temporary";
    bool saved = (n == 8 || n == 9 || (n >= 18 && n <= 27));
    if (key.abi_flen) {
      if (saved) roles = kRoleCalleeSaved;
      if (n >= 10 && n <= 17)
        roles = kRoleArgument | kRoleCallerSaved | (n <= 11 ? uint32_t(kRoleReturn) : 0u);
    }
    if (saved) note = fsNote(key.abi_flen, key.flen);
    if (n >= 10 && n <= 17)
      note = key.abi_flen ? kFArgNotes[n - 10]
                          : std::string_view("temporary: the soft-float ABIs pass no FP argument");
    regs->push_back(
        {kFprNames[n], kFNames[n], "fpr", uint16_t(key.flen), int32_t(32 + n), roles, "", note});
  }
  if (key.vector) {
    static const std::string_view kVNote = "caller-saved; VLEN is at least the zvl*b minimum";
    for (unsigned n = 0; n < 32; ++n)
      regs->push_back({kVNames[n], "", "vr", uint16_t(key.vlen <= 65535 ? key.vlen : 0),
                       int32_t(96 + n), kRoleCallerSaved, "",
                       n == 0 ? std::string_view("mask register (v0.t); caller-saved") : kVNote});
  }
  slot = std::move(regs);
  return *slot;
}

// How llvm-dwarfdump-22 names the DWARF registers of RISC-V (psABI riscv-dwarf.adoc numbers:
// x 0-31, f 32-63, v 96-127, CSRs at 4096 + CSR number), as it prints them for riscv32 and riscv64
// objects: the f registers by their half-precision names (LLVM's first register with that DWARF
// number), T0-T15 at 3072-3087 and of the CSRs only vlenb (4096 + 0xc22). Measured with
// llvm-dwarfdump-22 on DW_OP_regx 0..8300; the display form of DWARF expressions uses it.
constexpr DwarfRegisterName kDwarfNames[] = {
    {0, 32, "X", "", 0, true},    {32, 32, "F", "_H", 0, true},     {96, 32, "V", "", 0, true},
    {3072, 16, "T", "", 0, true}, {7202, 1, "VLENB", "", 0, false},
};

// ----- relocations (psABI riscv-elf.adoc) -----------------------------------------------------

// Instruction fields. The `value` placed by the moves is the result of `calculation`; the
// immediate bits of the instruction are cleared first (overwrite), the other bits are kept.
using M = RelocBitMove;
constexpr M kU[] = {{0, 12, 20}};                                    // U-type imm[31:12]
constexpr M kI[] = {{0, 20, 12}};                                    // I-type imm[11:0]
constexpr M kS[] = {{0, 7, 5}, {5, 25, 7}};                          // S-type imm[4:0], imm[11:5]
constexpr M kB[] = {{11, 7, 1}, {1, 8, 4}, {5, 25, 6}, {12, 31, 1}}; // B-type imm[12:1]
constexpr M kJ[] = {{12, 12, 8}, {11, 20, 1}, {1, 21, 10}, {20, 31, 1}}; // J-type imm[20:1]
constexpr M kCall[] = {{12, 12, 20}, {0, 52, 12}}; // AUIPC imm[31:12] + JALR imm[11:0]
constexpr M kCB[] = {{5, 2, 1}, {1, 3, 2}, {6, 5, 2}, {3, 10, 2}, {8, 12, 1}}; // c.beqz/c.bnez
constexpr M kCJ[] = {{5, 2, 1},  {1, 3, 3}, {7, 6, 1},  {6, 7, 1},
                     {10, 8, 1}, {8, 9, 2}, {4, 11, 1}, {11, 12, 1}}; // c.j/c.jal
constexpr M kCLui[] = {{0, 2, 5}, {5, 12, 1}}; // c.lui nzimm[17:12] (value = hi20)
constexpr M kSix[] = {{0, 0, 6}};              // low 6 bits of a byte

constexpr const char* kHi = "hi20(S + A) = (S + A + 0x800) >> 12";
constexpr const char* kLo = "lo12(S + A) = (S + A) & 0xfff";
constexpr const char* kPcHi = "hi20(S + A - P)";
constexpr const char* kPcLo = "lo12 of the R_RISCV_PCREL_HI20 (or GOT/TLS HI20) value at the "
                              "instruction labelled by S";
constexpr const char* kCallCalc =
    "V = S + A - P; (hi20(V) << 12) | lo12(V): hi20 into the AUIPC, lo12 into the JALR";

constexpr RelocationType kRelocations[] = {
    {0, "R_RISCV_NONE", 0, "", "no relocation"},
    {1, "R_RISCV_32", 4, "S + A", "32-bit absolute word"},
    {2, "R_RISCV_64", 8, "S + A", "64-bit absolute word"},
    {3, "R_RISCV_RELATIVE", 0, "B + A", "dynamic: XLEN-bit word adjusted by the load base"},
    {4, "R_RISCV_COPY", 0, "", "dynamic: copy the symbol's data into the executable"},
    {5, "R_RISCV_JUMP_SLOT", 0, "S", "dynamic: XLEN-bit PLT GOT entry"},
    {6, "R_RISCV_TLS_DTPMOD32", 4, "TLSMODULE", "dynamic: TLS module index"},
    {7, "R_RISCV_TLS_DTPMOD64", 8, "TLSMODULE", "dynamic: TLS module index"},
    {8, "R_RISCV_TLS_DTPREL32", 4, "S + A - TLS_DTV_OFFSET", "dynamic: TLS offset in the module"},
    {9, "R_RISCV_TLS_DTPREL64", 8, "S + A - TLS_DTV_OFFSET", "dynamic: TLS offset in the module"},
    {10, "R_RISCV_TLS_TPREL32", 4, "S + A + TLSOFFSET", "dynamic: offset from the thread pointer"},
    {11, "R_RISCV_TLS_TPREL64", 8, "S + A + TLSOFFSET", "dynamic: offset from the thread pointer"},
    {12, "R_RISCV_TLSDESC", 0, "", "dynamic: TLS descriptor (two XLEN-bit words)"},
    {16, "R_RISCV_BRANCH", 4, "S + A - P", "12-bit PC-relative branch (B-type)", kB, 13, true,
     true},
    {17, "R_RISCV_JAL", 4, "S + A - P", "20-bit PC-relative jump (J-type)", kJ, 21, true, true},
    {18, "R_RISCV_CALL", 8, kCallCalc, "AUIPC+JALR call pair (deprecated: use R_RISCV_CALL_PLT)",
     kCall, 32, true, true},
    {19, "R_RISCV_CALL_PLT", 8, kCallCalc, "AUIPC+JALR call pair, through the PLT if needed", kCall,
     32, true, true},
    {20, "R_RISCV_GOT_HI20", 4, "hi20(G + GOT + A - P)", "%got_pcrel_hi (U-type)", kU, 20, true,
     true},
    {21, "R_RISCV_TLS_GOT_HI20", 4, "hi20(GOT entry of the TLS offset + A - P)",
     "%tls_ie_pcrel_hi, la.tls.ie (U-type)", kU, 20, true, true},
    {22, "R_RISCV_TLS_GD_HI20", 4, "hi20(GOT entry of the TLS index + A - P)",
     "%tls_gd_pcrel_hi, la.tls.gd (U-type)", kU, 20, true, true},
    {23, "R_RISCV_PCREL_HI20", 4, kPcHi, "%pcrel_hi (U-type)", kU, 20, true, true},
    {24, "R_RISCV_PCREL_LO12_I", 4, kPcLo, "%pcrel_lo (I-type)", kI, 12, true},
    {25, "R_RISCV_PCREL_LO12_S", 4, kPcLo, "%pcrel_lo (S-type)", kS, 12, true},
    {26, "R_RISCV_HI20", 4, kHi, "%hi (U-type)", kU, 20, true, true},
    {27, "R_RISCV_LO12_I", 4, kLo, "%lo (I-type)", kI, 12, true},
    {28, "R_RISCV_LO12_S", 4, kLo, "%lo (S-type)", kS, 12, true},
    {29, "R_RISCV_TPREL_HI20", 4, "hi20(S + A - TP)", "%tprel_hi (U-type)", kU, 20, true, true},
    {30, "R_RISCV_TPREL_LO12_I", 4, "lo12(S + A - TP)", "%tprel_lo (I-type)", kI, 12, true},
    {31, "R_RISCV_TPREL_LO12_S", 4, "lo12(S + A - TP)", "%tprel_lo (S-type)", kS, 12, true},
    {32, "R_RISCV_TPREL_ADD", 0, "", "%tprel_add marker for relaxation"},
    {33, "R_RISCV_ADD8", 1, "V + S + A", "8-bit in-place addition"},
    {34, "R_RISCV_ADD16", 2, "V + S + A", "16-bit in-place addition"},
    {35, "R_RISCV_ADD32", 4, "V + S + A", "32-bit in-place addition"},
    {36, "R_RISCV_ADD64", 8, "V + S + A", "64-bit in-place addition"},
    {37, "R_RISCV_SUB8", 1, "V - S - A", "8-bit in-place subtraction"},
    {38, "R_RISCV_SUB16", 2, "V - S - A", "16-bit in-place subtraction"},
    {39, "R_RISCV_SUB32", 4, "V - S - A", "32-bit in-place subtraction"},
    {40, "R_RISCV_SUB64", 8, "V - S - A", "64-bit in-place subtraction"},
    {41, "R_RISCV_GOT32_PCREL", 4, "G + GOT + A - P", "32-bit PC-relative GOT entry offset"},
    {43, "R_RISCV_ALIGN", 0, "", "alignment: the addend is the number of padding bytes"},
    {44, "R_RISCV_RVC_BRANCH", 2, "S + A - P", "8-bit PC-relative compressed branch (CB-type)", kCB,
     9, true, true},
    {45, "R_RISCV_RVC_JUMP", 2, "S + A - P", "11-bit PC-relative compressed jump (CJ-type)", kCJ,
     12, true, true},
    {46, "R_RISCV_RVC_LUI", 2, kHi,
     "c.lui immediate (CI-type); removed from the psABI, still known to LLVM", kCLui, 6, true,
     true},
    {51, "R_RISCV_RELAX", 0, "", "the preceding relocation's instruction may be relaxed"},
    {52, "R_RISCV_SUB6", 1, "V - S - A", "6-bit in-place subtraction (low bits of the byte)", kSix,
     6, true},
    {53, "R_RISCV_SET6", 1, "S + A", "6-bit store (low bits of the byte)", kSix, 6, true},
    {54, "R_RISCV_SET8", 1, "S + A", "8-bit store"},
    {55, "R_RISCV_SET16", 2, "S + A", "16-bit store"},
    {56, "R_RISCV_SET32", 4, "S + A", "32-bit store"},
    {57, "R_RISCV_32_PCREL", 4, "S + A - P", "32-bit PC-relative word"},
    {58, "R_RISCV_IRELATIVE", 0, "ifunc_resolver(B + A)", "dynamic: XLEN-bit word set by an ifunc"},
    {59, "R_RISCV_PLT32", 4, "S + A - P", "32-bit PC-relative offset to a function or its PLT"},
    {60, "R_RISCV_SET_ULEB128", 0, "S + A",
     "ULEB128 set (paired with R_RISCV_SUB_ULEB128; patched in place at its encoded length)"},
    {61, "R_RISCV_SUB_ULEB128", 0, "V - S - A",
     "ULEB128 subtraction (paired with R_RISCV_SET_ULEB128)"},
    {62, "R_RISCV_TLSDESC_HI20", 4, "hi20(TLS descriptor + A - P)", "%tlsdesc_hi (U-type)", kU, 20,
     true},
    {63, "R_RISCV_TLSDESC_LOAD_LO12", 4, kPcLo, "%tlsdesc_load_lo (I-type)", kI, 12, true},
    {64, "R_RISCV_TLSDESC_ADD_LO12", 4, kPcLo, "%tlsdesc_add_lo (I-type)", kI, 12, true},
    {65, "R_RISCV_TLSDESC_CALL", 0, "", "%tlsdesc_call marker"},
    {191, "R_RISCV_VENDOR", 0, "",
     "names the vendor (symbol) of the nonstandard relocation (192-255) at the same offset"},
};

std::string hexString(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", v);
  return buf;
}

ElfFlagsInfo decodeRiscvFlags(const ElfHeaderFacts& h) {
  ElfFlagsInfo info;
  bool rv64ilp32 = (h.flags & kEfRv64Ilp32) != 0;
  bool is64 = h.elf_class == kElfClass64 || rv64ilp32;
  // A Linux object (the reader's linux_os) is labelled with abikit's Linux triple.
  info.target = std::string(is64 ? "riscv64" : "riscv32") +
                (h.linux_os ? "-unknown-linux-gnu" : "-unknown-elf");
  uint32_t fabi = h.flags & kEfFloatAbiMask;
  static constexpr std::string_view kFloatName[] = {"soft", "single", "double", "quad"};
  static constexpr std::string_view kFloatFlag[] = {
      "EF_RISCV_FLOAT_ABI_SOFT", "EF_RISCV_FLOAT_ABI_SINGLE", "EF_RISCV_FLOAT_ABI_DOUBLE",
      "EF_RISCV_FLOAT_ABI_QUAD"};
  static constexpr std::string_view kAbiSuffix[] = {"", "f", "d", "q"};
  bool rvc = h.flags & kEfRvc, rve = h.flags & kEfRve, tso = h.flags & kEfTso,
       rvy = h.flags & kEfRvy;
  if (rvc) info.flag_names.push_back("EF_RISCV_RVC");
  info.flag_names.emplace_back(kFloatFlag[fabi >> 1]);
  if (rve) info.flag_names.push_back("EF_RISCV_RVE");
  if (tso) info.flag_names.push_back("EF_RISCV_TSO");
  if (rv64ilp32) info.flag_names.push_back("EF_RISCV_RV64ILP32");
  if (rvy) info.flag_names.push_back("EF_RISCV_RVY");

  std::string abi = rv64ilp32 ? "rv64ilp32" : h.elf_class == kElfClass64 ? "lp64" : "ilp32";
  abi += rve ? "e" : std::string(kAbiSuffix[fabi >> 1]);
  info.properties.emplace_back("abi", abi);
  info.properties.emplace_back("float_abi", std::string(kFloatName[fabi >> 1]));
  info.properties.emplace_back("rve", rve ? "yes" : "no");
  info.properties.emplace_back("rvc", rvc ? "yes" : "no");
  info.properties.emplace_back("tso", tso ? "yes" : "no");
  info.properties.emplace_back("rv64ilp32", rv64ilp32 ? "yes" : "no");
  info.properties.emplace_back("rvy", rvy ? "yes" : "no");

  if (uint32_t reserved = h.flags & 0x00FFFF80u)
    info.problems.push_back("reserved e_flags bits " + hexString(reserved) + " are set");
  if (uint32_t vendor = h.flags & 0xFF000000u)
    info.problems.push_back("non-standard e_flags bits " + hexString(vendor) +
                            " (bits 24-31) are set; their meaning is not defined by the psABI");
  if (rve && fabi != 0)
    info.problems.push_back("EF_RISCV_RVE with a hard-float ABI (the E ABIs are soft-float)");
  if (h.elf_class != kElfClass32 && h.elf_class != kElfClass64)
    info.problems.push_back("EI_CLASS " + std::to_string(h.elf_class) + " is not ELFCLASS32/64");
  if (rv64ilp32 && h.elf_class != kElfClass32)
    info.problems.push_back("EF_RISCV_RV64ILP32 objects are ELFCLASS32");
  if (h.data != kElfData2Lsb)
    info.problems.push_back("RISC-V objects are little-endian (ELFDATA2LSB); big-endian RISC-V "
                            "has no ABI");
  return info;
}

void riscvLinkConflicts(const ElfFlagsInfo& a, const ElfFlagsInfo& b,
                        std::vector<std::string>& out) {
  if (a.property("float_abi") != b.property("float_abi"))
    out.push_back("float ABI " + std::string(a.property("float_abi")) + " vs " +
                  std::string(b.property("float_abi")) +
                  " (EF_RISCV_FLOAT_ABI differs; floating-point arguments are passed differently)");
  if (a.property("rve") != b.property("rve"))
    out.push_back(std::string("EF_RISCV_RVE differs: ") +
                  (a.property("rve") == "yes" ? "E ABI vs non-E ABI" : "non-E ABI vs E ABI"));
  if (a.property("rv64ilp32") != b.property("rv64ilp32"))
    out.push_back("EF_RISCV_RV64ILP32 differs (RV64ILP32 and standard ABIs cannot be mixed)");
}

// What may relocate the DWARF sections of an object (psABI "Relocations"; what LLVM's MC writes
// there: the addresses, the differences of labels as ADD/SUB or SET_ULEB128/SUB_ULEB128 pairs
// when linker relaxation is on, and the markers).
using K = DebugRelocKind;
constexpr DebugRelocation kDebugRelocations[] = {
    {0, K::Ignore},      {1, K::Absolute}, {2, K::Absolute},    {33, K::Add},
    {34, K::Add},        {35, K::Add},     {36, K::Add},        {37, K::Sub},
    {38, K::Sub},        {39, K::Sub},     {40, K::Sub},        {43, K::Ignore},
    {51, K::Ignore},     {52, K::Sub6},    {53, K::Set6},       {54, K::Set},
    {55, K::Set},        {56, K::Set},     {57, K::PcRelative}, {60, K::SetUleb128},
    {61, K::SubUleb128},
};

const ElfMachineInfo kElf = {kEmRiscv,          kEmRiscvName,     Family::RISCV,
                             kRelocations,      decodeRiscvFlags, riscvLinkConflicts,
                             kDebugRelocations, "littleriscv"};

// ----- triples --------------------------------------------------------------------------------

struct ParsedTriple {
  unsigned xlen = 0;
  bool linux_os = false;
  std::string normalized;
};

// Operating systems and environments LLVM knows that abikit has no RISC-V model for.
constexpr std::string_view kOtherOses[] = {
    "freebsd", "netbsd",   "openbsd", "dragonfly", "fuchsia",  "haiku",  "hurd",      "rtems",
    "windows", "darwin",   "macosx",  "ios",       "android",  "cuda",   "amdhsa",    "wasi",
    "solaris", "serenity", "liteos",  "uefi",      "managarm", "hermit", "emscripten"};

bool isOsOrEnvWord(std::string_view w) {
  return w == "linux" || w == "elf" || w == "none" || w == "unknown" || w == "gnu" || w == "musl" ||
         w.empty();
}

ParsedTriple parseRiscvTriple(const Triple& t) {
  ParsedTriple out;
  out.xlen = t.arch == "riscv32" ? 32 : 64;
  // Components after the arch, in order (parseTriple keeps further dashes in env).
  std::vector<std::string_view> comps;
  std::string_view rest = t.text;
  size_t dash = rest.find('-');
  rest = dash == std::string_view::npos ? std::string_view() : rest.substr(dash + 1);
  while (!rest.empty()) {
    size_t d = rest.find('-');
    comps.push_back(rest.substr(0, d));
    if (d == std::string_view::npos) break;
    rest = rest.substr(d + 1);
  }
  auto unsupported = [&](std::string_view why) {
    targetError("unsupported RISC-V triple '" + t.text + "': " + std::string(why) +
                " (abikit knows bare-metal riscv32/riscv64-unknown-elf and Linux "
                "riscv32/riscv64-unknown-linux-gnu or -linux-musl)");
  };
  for (std::string_view c : comps)
    for (std::string_view os : kOtherOses)
      if (c.substr(0, os.size()) == os)
        unsupported("no RISC-V model for operating system or environment '" + std::string(c) + "'");
  size_t i = 0;
  std::string vendor = "unknown";
  if (i < comps.size() && !isOsOrEnvWord(comps[i])) {
    for (char c : comps[i])
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
        unsupported("malformed vendor '" + std::string(comps[i]) + "'");
    vendor = std::string(comps[i++]);
  } else if (i < comps.size() && comps[i] == "unknown" && comps.size() > 1) {
    ++i; // the vendor "unknown"
  }
  std::string arch = "riscv" + std::to_string(out.xlen);
  if (i < comps.size() && comps[i] == "linux") {
    ++i;
    std::string env = "gnu";
    if (i < comps.size()) {
      if (comps[i] != "gnu" && comps[i] != "musl")
        unsupported("unknown Linux environment '" + std::string(comps[i]) + "'");
      env = std::string(comps[i++]);
    }
    if (i < comps.size()) unsupported("unexpected component '" + std::string(comps[i]) + "'");
    out.linux_os = true;
    out.normalized = arch + "-" + vendor + "-linux-" + env;
    return out;
  }
  // Bare metal: any of unknown / none / elf, in the order LLVM would accept them.
  size_t seen = 0;
  while (i < comps.size()) {
    std::string_view c = comps[i++];
    if (c == "unknown" || c == "none" || c == "elf" || c.empty()) {
      if (++seen > 3) unsupported("too many components");
      continue;
    }
    if (c == "gnu" || c == "musl") unsupported("'" + std::string(c) + "' without 'linux'");
    unsupported("unsupported operating system or environment '" + std::string(c) + "'");
  }
  out.normalized = arch + "-" + vendor + "-elf";
  return out;
}

// ----- data model -----------------------------------------------------------------------------

void fillDataModel(DataModel& d, unsigned xlen, bool atomics) {
  // clang-14 RISCVTargetInfo (verified with sizeof/_Alignof and -dM for every ABI).
  d.endian = Endian::Little;
  d.char_signed = false;
  d.of(IntKind::Bool) = {1, 1};
  d.of(IntKind::Char) = d.of(IntKind::SChar) = d.of(IntKind::UChar) = {1, 1};
  d.of(IntKind::Short) = d.of(IntKind::UShort) = {2, 2};
  d.of(IntKind::Int) = d.of(IntKind::UInt) = {4, 4};
  uint16_t xb = uint16_t(xlen / 8);
  d.of(IntKind::Long) = d.of(IntKind::ULong) = {xb, xb};
  d.of(IntKind::LongLong) = d.of(IntKind::ULongLong) = {8, 8};
  if (xlen == 64) d.of(IntKind::Int128) = d.of(IntKind::UInt128) = {16, 16};
  d.of(FloatKind::Fp16) = {2, 2};
  d.of(FloatKind::Float16) = {2, 2};  // clang-14 accepts _Float16 on RISC-V without Zfh
  d.of(FloatKind::BFloat16) = {0, 0}; // clang-14: "__bf16 is not supported on this target"
  d.of(FloatKind::Float) = {4, 4};
  d.of(FloatKind::Double) = {8, 8};
  d.of(FloatKind::LongDouble) = {16, 16};
  d.of(FloatKind::Float128) = {0, 0}; // clang-14: "__float128 is not supported on this target"
  d.float_formats = {};
  d.float_formats[size_t(FloatKind::Fp16)] = FloatFormat::IEEEHalf;
  d.float_formats[size_t(FloatKind::Float16)] = FloatFormat::IEEEHalf;
  d.float_formats[size_t(FloatKind::Float)] = FloatFormat::IEEESingle;
  d.float_formats[size_t(FloatKind::Double)] = FloatFormat::IEEEDouble;
  d.float_formats[size_t(FloatKind::LongDouble)] = FloatFormat::IEEEQuad;
  d.pointer = d.function_pointer = {xb, xb};
  bool rv32 = xlen == 32;
  d.size_type = rv32 ? IntKind::UInt : IntKind::ULong;
  d.ptrdiff_type = rv32 ? IntKind::Int : IntKind::Long;
  d.intptr_type = rv32 ? IntKind::Int : IntKind::Long;
  d.intmax_type = rv32 ? IntKind::LongLong : IntKind::Long;
  d.int64_type = rv32 ? IntKind::LongLong : IntKind::Long;
  d.wchar_type = IntKind::Int;
  d.wint_type = IntKind::UInt;
  d.char16_type = IntKind::UShort;
  d.char32_type = IntKind::UInt;
  d.sig_atomic_type = IntKind::Int;
  d.va_list_kind = VaListKind::VoidPtr;
  d.va_list = {xb, xb};
  d.max_vector_align = 0; // vector_size(N) types are N-aligned (clang-14: 1024 for 1024 bytes)
  d.biggest_alignment = 16;
  d.default_aligned_attr = 16;
  d.max_align_t_align = 16;
  d.bitint_max_width = 128;
  d.bitint_max_align = 8;
  d.max_atomic_inline_bits = atomics ? uint16_t(xlen) : 0;
  d.max_atomic_promote_bits = 128; // RV32 and RV64, with or without A
  d.has_sync_cas = atomics;
  d.bitfield_type_alignment = true;
  d.zero_length_bitfield_alignment = false;
}

// ----- stack ----------------------------------------------------------------------------------

constexpr std::string_view kArgArea32 =
    "offset N is N(sp) at the call (sp on entry to the callee): the first stack-passed argument "
    "is at 0(sp) and later ones at higher addresses; each slot is a multiple of 4 bytes (XLEN/8) "
    "and aligned to the argument's alignment, at most 16";
constexpr std::string_view kArgArea64 =
    "offset N is N(sp) at the call (sp on entry to the callee): the first stack-passed argument "
    "is at 0(sp) and later ones at higher addresses; each slot is a multiple of 8 bytes (XLEN/8) "
    "and aligned to the argument's alignment, at most 16";
constexpr std::string_view kArgAreaIlp32e =
    "offset N is N(sp) at the call (sp on entry to the callee): the first stack-passed argument "
    "is at 0(sp) and later ones at higher addresses; each slot is a multiple of 4 bytes and "
    "aligned to at most 4 bytes (ILP32E)";
constexpr std::string_view kArgAreaLp64e =
    "offset N is N(sp) at the call (sp on entry to the callee): the first stack-passed argument "
    "is at 0(sp) and later ones at higher addresses; each slot is a multiple of 8 bytes and "
    "aligned to the argument's alignment, at most 16 (LP64E keeps sp only 8-byte aligned)";

// ----- resolution -----------------------------------------------------------------------------

bool handles(const Triple& t) {
  return t.arch == "riscv32" || t.arch == "riscv64";
}

std::string extensionMacroValue(const RiscvExtension& e) {
  return std::to_string(e.major * 1000000u + e.minor * 1000u);
}

// ----- what differs between the compilers abikit models (docs/targets/riscv.md) --------------

struct RiscvCompilerFacts {
  Compiler compiler;
  RiscvCallRules call;
  uint8_t interference_size; // __GCC_CONSTRUCTIVE_SIZE when not the compiler's (clang-19: 32)
  bool misaligned_avoid;     // __riscv_misaligned_avoid (clang 19 and later)
  // __riscv_v_intrinsic: 0 = never; else its value, and whether it needs a vector extension
  uint32_t v_intrinsic;
  bool v_intrinsic_needs_v;
  bool linux_unwind_tables; // Linux: -fasynchronous-unwind-tables, __GCC_HAVE_DWARF2_CFI_ASM
  RiscvIsaRules isa;        // how its LLVM closes -march
};

// Read from each compiler's IR signatures (-S -emit-llvm) and -dM output; the lowering
// differential runs every one of them (tests/differential/diff_callconv_riscv.cpp).
constexpr RiscvCompilerFacts kRiscvCompilerFacts[] = {
    {.compiler = Compiler::Clang22,
     .call = {.half_in_fp_convention = true,
              .extend_on_stack = true,
              .bitint_extend_by_signedness = true,
              .ignore_only_zero_sized_empty = true},
     .interference_size = 0,
     .misaligned_avoid = true,
     .v_intrinsic = 1000000,
     .v_intrinsic_needs_v = false,
     .linux_unwind_tables = true,
     .isa = {.a_implies_zaamo_zalrsc = true, .c_implies_zca = true, .combine_b = true}},
    {.compiler = Compiler::Clang19,
     .call = {.half_in_fp_convention = true,
              .extend_on_stack = true,
              .bitint_extend_by_signedness = false,
              .ignore_only_zero_sized_empty = true},
     .interference_size = 32,
     .misaligned_avoid = true,
     .v_intrinsic = 12000,
     .v_intrinsic_needs_v = true,
     .linux_unwind_tables = true,
     .isa = {.a_implies_zaamo_zalrsc = false, .c_implies_zca = false, .combine_b = false}},
    // clang-14's closure differs more (older versions, no Zicsr, ...): abikit keeps the
    // LLVM 20 line for it, the differences listed in docs/targets/riscv.md.
    {.compiler = Compiler::Clang14,
     .call = {.half_in_fp_convention = false,
              .extend_on_stack = false,
              .bitint_extend_by_signedness = false,
              .ignore_only_zero_sized_empty = false},
     .interference_size = 0,
     .misaligned_avoid = false,
     .v_intrinsic = 0,
     .v_intrinsic_needs_v = false,
     .linux_unwind_tables = false,
     .isa = {}},
};
// The first is the default: the newest clang abikit models (docs/compilers.md).
constexpr Compiler kRiscvCompilers[] = {Compiler::Clang22, Compiler::Clang19, Compiler::Clang14};

const RiscvCompilerFacts& compilerFacts(Compiler c) {
  for (const RiscvCompilerFacts& f : kRiscvCompilerFacts)
    if (f.compiler == c) return f;
  return kRiscvCompilerFacts[0]; // unreachable: selectCompiler admits only kRiscvCompilers
}

void resolve(const TargetOptions& o, const Triple& t, Target& out) {
  if (o.code_object_version) targetError("-mcode-object-version is an AMDGPU option");
  if (o.wavefront_size) targetError("-m[no-]wavefrontsize64 is an AMDGPU option");
  if (o.msupervisor || o.mworker) targetError("-msupervisor/-mworker are IPU options");
  ParsedTriple pt = parseRiscvTriple(t);
  const unsigned xlen = pt.xlen;

  // -mcpu
  const CpuDef* cpu = nullptr;
  if (!o.mcpu.empty()) {
    for (const CpuDef& c : kCpus)
      if (c.name == o.mcpu) cpu = &c;
    if (!cpu) {
      std::string known;
      for (const CpuDef& c : kCpus)
        if (c.xlen == xlen) known += (known.empty() ? "" : ", ") + std::string(c.name);
      targetError("unknown RISC-V processor '" + o.mcpu + "' for " + pt.normalized +
                  " (known: " + known + ")");
    }
    if (cpu->xlen != xlen)
      targetError("processor '" + o.mcpu + "' is " + std::to_string(cpu->xlen) +
                  "-bit but the target '" + pt.normalized + "' is " + std::to_string(xlen) +
                  "-bit");
  }

  // -mabi given: it must exist and match the triple's XLEN before it can choose a -march.
  const AbiDef* abi = nullptr;
  if (!o.mabi.empty()) {
    abi = findAbi(o.mabi);
    if (!abi)
      targetError("unknown RISC-V ABI '" + o.mabi +
                  "' (known: ilp32, ilp32f, ilp32d, ilp32e, lp64, lp64f, lp64d, lp64q, lp64e)");
    if (abi->xlen != xlen)
      targetError("-mabi=" + o.mabi + " is a " + std::to_string(abi->xlen) +
                  "-bit ABI but the target '" + pt.normalized + "' is " + std::to_string(xlen) +
                  "-bit");
  }

  // -march: explicit, else the processor's, else from -mabi, else the triple's (clang's
  // riscv::getRISCVArch order).
  std::string march = o.march;
  if (march.empty() && cpu && !cpu->march.empty()) march = std::string(cpu->march);
  if (march.empty() && abi) {
    if (abi->e)
      march = xlen == 32 ? "rv32e" : "rv64e";
    else
      march = xlen == 32 ? "rv32imafdc" : "rv64imafdc";
  }
  if (march.empty())
    march = pt.linux_os ? (xlen == 32 ? "rv32imafdc" : "rv64imafdc")
                        : (xlen == 32 ? "rv32imac" : "rv64imac");
  const RiscvCompilerFacts& cc = compilerFacts(out.compiler);
  RiscvISAInfo isa = RiscvISAInfo::parse(march, cc.isa);
  if (isa.xlen() != xlen)
    targetError("-march=" + march + " is a " + std::to_string(isa.xlen()) +
                "-bit ISA but the target '" + pt.normalized + "' is " + std::to_string(xlen) +
                "-bit");

  if (!abi) abi = findAbi(isa.defaultAbi());

  // ABI / ISA compatibility (psABI "Named ABIs", LLVM RISCVABI::computeTargetABI).
  const std::string abi_s(abi->name);
  if (abi->e && !isa.isEBase())
    targetError("-mabi=" + abi_s + " requires the E base ISA (rv" + std::to_string(xlen) +
                "e...), but -march=" + march + " uses the I base");
  if (!abi->e && isa.isEBase())
    targetError("the E base ISA (-march=" + march + ") supports only -mabi=" +
                (xlen == 32 ? "ilp32e" : "lp64e") + ", not -mabi=" + abi_s);
  if (abi->abi == RiscvAbi::ILP32E && isa.has("d"))
    targetError("-mabi=ilp32e cannot be used with the D extension (-march=" + march + ")");
  if (abi->flen > isa.flen()) {
    std::string have = isa.flen()
                           ? "FLEN " + std::to_string(isa.flen()) + " (no " +
                                 std::string(flenExtension(abi->flen)) + " extension)"
                           : std::string(isa.has("zfinx") ? "no floating-point registers (Zfinx)"
                                                          : "no floating-point registers");
    targetError("-mabi=" + abi_s + " passes floating-point values in " + std::to_string(abi->flen) +
                "-bit FP registers and needs the " + std::string(flenExtension(abi->flen)) +
                " extension, but -march=" + march + " has " + have);
  }

  // -mcmodel (clang accepts GCC's medlow/medany and LLVM's small/medium).
  RiscvCodeModel cm = RiscvCodeModel::Medlow;
  if (o.mcmodel.empty() || o.mcmodel == "medlow" || o.mcmodel == "small")
    cm = RiscvCodeModel::Medlow;
  else if (o.mcmodel == "medany" || o.mcmodel == "medium")
    cm = RiscvCodeModel::Medany;
  else if (o.mcmodel == "large") {
    if (xlen != 64) targetError("-mcmodel=large is only supported for RV64");
    cm = RiscvCodeModel::Large;
  } else
    targetError("unknown RISC-V code model '-mcmodel=" + o.mcmodel +
                "' (known: medlow, medany, large; small and medium are aliases of medlow and "
                "medany)");

  RiscvTarget rv;
  rv.xlen = xlen;
  rv.abi = abi->abi;
  rv.abi_flen = abi->flen;
  rv.e_abi = abi->e;
  rv.linux_os = pt.linux_os;
  rv.code_model = cm;
  rv.call = cc.call;

  out.triple = pt.normalized;
  out.arch = "riscv" + std::to_string(xlen);
  out.cpu = cpu ? std::string(cpu->name) : (xlen == 32 ? "generic-rv32" : "generic-rv64");
  out.spelling = pt.normalized + " -march=" + march + " -mabi=" + abi_s;
  if (cpu) out.spelling += " -mcpu=" + std::string(cpu->name);
  if (cm != RiscvCodeModel::Medlow)
    out.spelling += " -mcmodel=" + std::string(riscvCodeModelName(cm));

  fillDataModel(out.data, xlen, isa.has("a"));

  // Stack (psABI: 16-byte aligned; ILP32E 4; LP64E 8 as GCC and LLVM implement it).
  out.stack.grows_down = true;
  out.stack.alignment = abi->abi == RiscvAbi::ILP32E ? 4 : abi->abi == RiscvAbi::LP64E ? 8 : 16;
  out.stack.stack_pointer = "sp";
  out.stack.return_address = "ra";
  out.stack.frame_pointer = "s0";
  out.stack.argument_area = abi->abi == RiscvAbi::ILP32E  ? kArgAreaIlp32e
                            : abi->abi == RiscvAbi::LP64E ? kArgAreaLp64e
                            : xlen == 32                  ? kArgArea32
                                                          : kArgArea64;

  RegKey key{xlen,          isa.isEBase() ? 16u : 32u, isa.flen(), abi->flen,
             isa.minVLen(), isa.has("zve32x"),         abi->e};
  out.registers = registersFor(key);
  out.dwarf_register_names = kDwarfNames;
  out.dwarf = riscvDwarfInfo(xlen, key.ngpr, key.flen, key.vector);
  out.address_spaces = {};
  out.memory = {};

  // ELF identity (psABI riscv-elf.adoc; LLVM RISCVELFStreamer sets RVC for C or Zca).
  uint32_t flags = abi->float_flag;
  if (isa.has("c") || isa.has("zca")) flags |= kEfRvc;
  if (abi->e) flags |= kEfRve;
  if (isa.has("ztso")) flags |= kEfTso;
  out.elf = {xlen == 64 ? kElfClass64 : kElfClass32,
             kElfData2Lsb,
             kOsabiNone,
             0,
             kEmRiscv,
             flags,
             true,
             kEmRiscvName};

  // Predefined macros (clang RISCVTargetInfo::getTargetDefines and the OS defines).
  auto& m = out.macros;
  m.clear();
  m.emplace_back("__riscv", "1");
  m.emplace_back("__riscv_xlen", std::to_string(xlen));
  m.emplace_back(cm == RiscvCodeModel::Medlow   ? "__riscv_cmodel_medlow"
                 : cm == RiscvCodeModel::Medany ? "__riscv_cmodel_medany"
                                                : "__riscv_cmodel_large",
                 "1");
  m.emplace_back(abi->flen == 0    ? "__riscv_float_abi_soft"
                 : abi->flen == 32 ? "__riscv_float_abi_single"
                 : abi->flen == 64 ? "__riscv_float_abi_double"
                                   : "__riscv_float_abi_quad",
                 "1");
  if (abi->e) m.emplace_back("__riscv_abi_rve", "1");
  m.emplace_back("__riscv_arch_test", "1");
  for (const RiscvExtension& e : isa.extensions())
    m.emplace_back("__riscv_" + e.name, extensionMacroValue(e));
  if (isa.has("zmmul")) m.emplace_back("__riscv_mul", "1");
  if (isa.has("m")) {
    m.emplace_back("__riscv_div", "1");
    m.emplace_back("__riscv_muldiv", "1");
  }
  if (isa.has("a")) m.emplace_back("__riscv_atomic", "1");
  if (isa.flen()) {
    m.emplace_back("__riscv_flen", std::to_string(isa.flen()));
    m.emplace_back("__riscv_fdiv", "1");
    m.emplace_back("__riscv_fsqrt", "1");
  }
  if (isa.minVLen()) {
    m.emplace_back("__riscv_v_min_vlen", std::to_string(isa.minVLen()));
    m.emplace_back("__riscv_v_elen", std::to_string(isa.maxELen()));
    m.emplace_back("__riscv_v_elen_fp", std::to_string(isa.maxELenFp()));
  }
  if (isa.has("c")) m.emplace_back("__riscv_compressed", "1");
  if (isa.has("zve32x")) m.emplace_back("__riscv_vector", "1");
  if (isa.isEBase()) m.emplace_back(xlen == 64 ? "__riscv_64e" : "__riscv_32e", "1");
  if (cc.misaligned_avoid) m.emplace_back("__riscv_misaligned_avoid", "1");
  if (cc.v_intrinsic && (!cc.v_intrinsic_needs_v || isa.has("zve32x")))
    m.emplace_back("__riscv_v_intrinsic", std::to_string(cc.v_intrinsic));
  if (cc.interference_size) {
    m.emplace_back("__GCC_CONSTRUCTIVE_SIZE", std::to_string(cc.interference_size));
    m.emplace_back("__GCC_DESTRUCTIVE_SIZE", std::to_string(cc.interference_size));
  }
  m.emplace_back("__ELF__", "1");
  if (pt.linux_os) {
    addLinuxOsMacros(m, cc.linux_unwind_tables);
    if (pt.normalized.size() > 5 && pt.normalized.substr(pt.normalized.size() - 5) == "-musl")
      m.emplace_back("__NO_MATH_ERRNO__", "1"); // the driver's -fno-math-errno default on musl
  }

  // Properties for `describe`.
  auto& p = out.properties;
  p.clear();
  auto num = [&](std::string key, unsigned v) {
    p.push_back({std::move(key), std::to_string(v), {}, true});
  };
  auto str = [&](std::string key, std::string v) {
    p.push_back({std::move(key), std::move(v), {}, false});
  };
  num("xlen", xlen);
  str("abi", abi_s);
  num("abi_flen", abi->flen);
  str("float_abi", abi->flen == 0    ? "soft"
                   : abi->flen == 32 ? "single"
                   : abi->flen == 64 ? "double"
                                     : "quad");
  str("e_abi", abi->e ? "yes" : "no");
  num("arg_gprs", rv.argGPRs());
  num("arg_fprs", rv.argFPRs());
  str("march", march);
  str("isa", isa.toString());
  num("flen", isa.flen());
  TargetProperty exts{"extensions", "", {}, false};
  for (const RiscvExtension& e : isa.extensions()) exts.list.push_back(e.name);
  p.push_back(std::move(exts));
  if (isa.minVLen()) {
    num("min_vlen", isa.minVLen());
    num("max_elen", isa.maxELen());
    num("max_elen_fp", isa.maxELenFp());
  }
  str("code_model", std::string(riscvCodeModelName(cm)));
  str("os", pt.linux_os ? "linux" : "none");

  rv.isa = std::move(isa);
  out.detail = std::move(rv);
}

void summaries(std::vector<TargetSummary>& out) {
  struct Row {
    const char* name;
    unsigned xlen;
    const char* description;
  };
  const Row rows[] = {
      {"riscv32-unknown-elf", 32,
       "RISC-V 32-bit, bare metal (default -march=rv32imac -mabi=ilp32)"},
      {"riscv64-unknown-elf", 64, "RISC-V 64-bit, bare metal (default -march=rv64imac -mabi=lp64)"},
      {"riscv32-unknown-linux-gnu", 32,
       "RISC-V 32-bit, Linux (default -march=rv32imafdc -mabi=ilp32d; also -linux-musl)"},
      {"riscv64-unknown-linux-gnu", 64,
       "RISC-V 64-bit, Linux (default -march=rv64imafdc -mabi=lp64d; also -linux-musl)"},
  };
  for (const Row& r : rows) {
    TargetSummary s;
    s.family = Family::RISCV;
    s.name = r.name;
    s.description = r.description;
    for (const CpuDef& c : kCpus)
      if (c.xlen == r.xlen) s.cpus.emplace_back(c.name);
    for (const AbiDef& a : kAbis)
      if (a.xlen == r.xlen) s.abis.emplace_back(a.name);
    out.push_back(std::move(s));
  }
}

} // namespace

const FamilyInfo kRiscvFamily = {Family::RISCV, "riscv",   "RISC-V", handles,
                                 resolve,       summaries, &kElf,    kRiscvCompilers};

} // namespace detail
} // namespace abikit
