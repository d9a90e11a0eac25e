// RISC-V target resolution: triples, defaults, -mabi / -march / -mcpu / -mcmodel checks and
// their messages, registers and roles per ABI, stack, e_flags, the EM_RISCV relocation table,
// decodeFlags / linkConflicts, macros, properties and the xDSL names (`abikit describe --json`
// is tests/cli/test_describe_cli.cpp).
#include "abikit/diag.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <array>
#include <gtest/gtest.h>
#include <set>
#include <string>

using namespace abikit;

namespace {

Target resolve(const std::string& triple, const std::string& march = "",
               const std::string& mabi = "", const std::string& mcpu = "",
               const std::string& mcmodel = "") {
  TargetOptions o;
  o.triple = triple;
  o.march = march;
  o.mabi = mabi;
  o.mcpu = mcpu;
  o.mcmodel = mcmodel;
  return resolveTarget(o);
}

std::string errorOf(const std::string& triple, const std::string& march = "",
                    const std::string& mabi = "", const std::string& mcpu = "",
                    const std::string& mcmodel = "") {
  try {
    Target t = resolve(triple, march, mabi, mcpu, mcmodel);
    return "no error: " + t.spelling;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Target);
    return e.message();
  }
}

std::string macro(const Target& t, const std::string& name) {
  for (const auto& [k, v] : predefinedMacros(t, Language::C))
    if (k == name) return v;
  return "<undefined>";
}

std::string property(const Target& t, const std::string& key) {
  for (const TargetProperty& p : t.properties) {
    if (p.key != key) continue;
    if (p.list.empty()) return p.value;
    std::string s;
    for (const std::string& v : p.list) s += (s.empty() ? "" : " ") + v;
    return s;
  }
  return "<none>";
}

// ----- triples and defaults -------------------------------------------------------------------

TEST(RiscvTarget, TriplesNormalise) {
  struct Row {
    const char* given;
    const char* triple;
    const char* march; // default -march
    const char* abi;   // default -mabi
  };
  const Row rows[] = {
      {"riscv32-unknown-elf", "riscv32-unknown-elf", "rv32imac", "ilp32"},
      {"riscv64-unknown-elf", "riscv64-unknown-elf", "rv64imac", "lp64"},
      {"riscv64", "riscv64-unknown-elf", "rv64imac", "lp64"},
      {"riscv32-none-elf", "riscv32-unknown-elf", "rv32imac", "ilp32"},
      {"riscv64-unknown-none-elf", "riscv64-unknown-elf", "rv64imac", "lp64"},
      {"riscv64-sifive-elf", "riscv64-sifive-elf", "rv64imac", "lp64"},
      {"riscv32-unknown-linux-gnu", "riscv32-unknown-linux-gnu", "rv32imafdc", "ilp32d"},
      {"riscv64-unknown-linux-gnu", "riscv64-unknown-linux-gnu", "rv64imafdc", "lp64d"},
      {"riscv64-linux-gnu", "riscv64-unknown-linux-gnu", "rv64imafdc", "lp64d"},
      {"riscv64-linux", "riscv64-unknown-linux-gnu", "rv64imafdc", "lp64d"},
      {"riscv64-unknown-linux-musl", "riscv64-unknown-linux-musl", "rv64imafdc", "lp64d"},
      {"riscv64-pc-linux-gnu", "riscv64-pc-linux-gnu", "rv64imafdc", "lp64d"},
  };
  for (const Row& r : rows) {
    Target t = resolve(r.given);
    EXPECT_EQ(t.family, Family::RISCV) << r.given;
    EXPECT_EQ(t.triple, r.triple) << r.given;
    EXPECT_EQ(property(t, "march"), r.march) << r.given;
    EXPECT_EQ(riscvAbiName(t.riscv().abi), r.abi) << r.given;
    EXPECT_EQ(t.spelling, std::string(r.triple) + " -march=" + r.march + " -mabi=" + r.abi)
        << r.given;
    EXPECT_EQ(t.arch, std::string("riscv") +
                          (std::string(r.given).find("64") != std::string::npos ? "64" : "32"));
  }
}

TEST(RiscvTarget, BadTriples) {
  const std::string known = " (abikit knows bare-metal riscv32/riscv64-unknown-elf and Linux "
                            "riscv32/riscv64-unknown-linux-gnu or -linux-musl)";
  EXPECT_EQ(errorOf("riscv64-unknown-freebsd"),
            "unsupported RISC-V triple 'riscv64-unknown-freebsd': no RISC-V model for operating "
            "system or environment 'freebsd'" +
                known);
  EXPECT_EQ(errorOf("riscv64-unknown-linux-android"),
            "unsupported RISC-V triple 'riscv64-unknown-linux-android': no RISC-V model for "
            "operating system or environment 'android'" +
                known);
  EXPECT_EQ(errorOf("riscv64-unknown-linux-gnux32"),
            "unsupported RISC-V triple 'riscv64-unknown-linux-gnux32': unknown Linux "
            "environment 'gnux32'" +
                known);
  EXPECT_EQ(errorOf("riscv64-unknown-lnux-gnu"),
            "unsupported RISC-V triple 'riscv64-unknown-lnux-gnu': unsupported operating system "
            "or environment 'lnux'" +
                known);
  EXPECT_EQ(errorOf("riscv64-unknown-gnu"),
            "unsupported RISC-V triple 'riscv64-unknown-gnu': 'gnu' without 'linux'" + known);
  EXPECT_EQ(errorOf("riscv64-unknown-elf-extra"),
            "unsupported RISC-V triple 'riscv64-unknown-elf-extra': unsupported operating system "
            "or environment 'extra'" +
                known);
  EXPECT_NE(errorOf("riscv128-unknown-elf").find("unknown target triple"), std::string::npos);
}

TEST(RiscvTarget, DefaultMarchFromAbiAndCpu) {
  // -mabi alone picks -march (clang getRISCVArch): E ABIs the E base, others IMAFDC.
  EXPECT_EQ(property(resolve("riscv32-unknown-elf", "", "ilp32"), "march"), "rv32imafdc");
  EXPECT_EQ(property(resolve("riscv64-unknown-elf", "", "lp64f"), "march"), "rv64imafdc");
  EXPECT_EQ(property(resolve("riscv32-unknown-elf", "", "ilp32e"), "march"), "rv32e");
  EXPECT_EQ(property(resolve("riscv64-unknown-linux-gnu", "", "lp64e"), "march"), "rv64e");
  // -mcpu picks -march (clang-14's processor table) and so the default ABI.
  Target e31 = resolve("riscv32-unknown-elf", "", "", "sifive-e31");
  EXPECT_EQ(property(e31, "march"), "rv32imac");
  EXPECT_EQ(e31.cpu, "sifive-e31");
  EXPECT_EQ(e31.spelling, "riscv32-unknown-elf -march=rv32imac -mabi=ilp32 -mcpu=sifive-e31");
  Target e24 = resolve("riscv32-unknown-elf", "", "", "sifive-e24");
  EXPECT_EQ(riscvAbiName(e24.riscv().abi), "ilp32f"); // clang-14 chose ilp32 (documented)
  Target u74 = resolve("riscv64-unknown-linux-gnu", "", "", "sifive-u74");
  EXPECT_EQ(property(u74, "march"), "rv64gc");
  EXPECT_EQ(riscvAbiName(u74.riscv().abi), "lp64d");
  // A CPU without a default ISA keeps the triple's.
  EXPECT_EQ(property(resolve("riscv64-unknown-elf", "", "", "rocket-rv64"), "march"), "rv64imac");
  EXPECT_EQ(resolve("riscv64-unknown-elf").cpu, "generic-rv64");
  EXPECT_EQ(resolve("riscv32-unknown-elf").cpu, "generic-rv32");
  // An explicit -march wins over the CPU's.
  EXPECT_EQ(property(resolve("riscv32-unknown-elf", "rv32i", "", "sifive-e31"), "march"), "rv32i");
  // The default ABI follows the -march (modern clang computeDefaultABI).
  EXPECT_EQ(riscvAbiName(resolve("riscv32-unknown-elf", "rv32imafc").riscv().abi), "ilp32f");
  EXPECT_EQ(riscvAbiName(resolve("riscv64-unknown-elf", "rv64gc").riscv().abi), "lp64d");
  EXPECT_EQ(riscvAbiName(resolve("riscv64-unknown-elf", "rv64e").riscv().abi), "lp64e");
}

TEST(RiscvTarget, AbiAndIsaMismatchMessages) {
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "", "foo"),
            "unknown RISC-V ABI 'foo' (known: ilp32, ilp32f, ilp32d, ilp32e, lp64, lp64f, lp64d, "
            "lp64q, lp64e)");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "", "lp64"),
            "-mabi=lp64 is a 64-bit ABI but the target 'riscv32-unknown-elf' is 32-bit");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv64gc", "ilp32d"),
            "-mabi=ilp32d is a 32-bit ABI but the target 'riscv64-unknown-elf' is 64-bit");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv32imac"),
            "-march=rv32imac is a 32-bit ISA but the target 'riscv64-unknown-elf' is 64-bit");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv64gc", "ilp32"),
            "-march=rv64gc is a 64-bit ISA but the target 'riscv32-unknown-elf' is 32-bit");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv32imf", "ilp32d"),
            "-mabi=ilp32d passes floating-point values in 64-bit FP registers and needs the D "
            "extension, but -march=rv32imf has FLEN 32 (no D extension)");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv64imac", "lp64d"),
            "-mabi=lp64d passes floating-point values in 64-bit FP registers and needs the D "
            "extension, but -march=rv64imac has no floating-point registers");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv64imac", "lp64f"),
            "-mabi=lp64f passes floating-point values in 32-bit FP registers and needs the F "
            "extension, but -march=rv64imac has no floating-point registers");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv32izfinx", "ilp32f"),
            "-mabi=ilp32f passes floating-point values in 32-bit FP registers and needs the F "
            "extension, but -march=rv32izfinx has no floating-point registers (Zfinx)");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv64gc", "lp64q"),
            "-mabi=lp64q passes floating-point values in 128-bit FP registers and needs the Q "
            "extension, but -march=rv64gc has FLEN 64 (no Q extension)");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "", "lp64q"),
            "-mabi=lp64q passes floating-point values in 128-bit FP registers and needs the Q "
            "extension, but -march=rv64imafdc has FLEN 64 (no Q extension)");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv32imac", "ilp32e"),
            "-mabi=ilp32e requires the E base ISA (rv32e...), but -march=rv32imac uses the I base");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv64gc", "lp64e"),
            "-mabi=lp64e requires the E base ISA (rv64e...), but -march=rv64gc uses the I base");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv32e", "ilp32"),
            "the E base ISA (-march=rv32e) supports only -mabi=ilp32e, not -mabi=ilp32");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "rv64ec", "lp64"),
            "the E base ISA (-march=rv64ec) supports only -mabi=lp64e, not -mabi=lp64");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv32ed", "ilp32e"),
            "-mabi=ilp32e cannot be used with the D extension (-march=rv32ed)");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "rv32ed"),
            "-mabi=ilp32e cannot be used with the D extension (-march=rv32ed)");
  // Accepted combinations: ABI_FLEN below FLEN, lp64e with D, lp64q with Q.
  EXPECT_EQ(resolve("riscv32-unknown-elf", "rv32imafdc", "ilp32f").riscv().abi_flen, 32u);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64gc", "lp64").riscv().abi_flen, 0u);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64ed", "lp64e").riscv().abi, RiscvAbi::LP64E);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64gqc", "lp64q").riscv().abi_flen, 128u);
  // A malformed -march keeps its position.
  try {
    resolve("riscv64-unknown-elf", "rv64gcx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.option(), "-march");
    EXPECT_EQ(e.optionIndex(), 6u);
  }
}

TEST(RiscvTarget, CpuMessages) {
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "", "", "sifive-e31"),
            "processor 'sifive-e31' is 32-bit but the target 'riscv64-unknown-elf' is 64-bit");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "", "", "generic-rv64"),
            "processor 'generic-rv64' is 64-bit but the target 'riscv32-unknown-elf' is 32-bit");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "", "", "generic"),
            "unknown RISC-V processor 'generic' for riscv64-unknown-elf (known: generic-rv64, "
            "rocket-rv64, sifive-7-rv64, sifive-s21, sifive-s51, sifive-s54, sifive-s76, "
            "sifive-u54, sifive-u74)");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "", "", "", ""), "no error: riscv64-unknown-elf "
                                                            "-march=rv64imac -mabi=lp64");
}

TEST(RiscvTarget, OptionsOfOtherFamiliesAreRejected) {
  TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  o.code_object_version = 5;
  EXPECT_THROW(resolveTarget(o), Error);
  o.code_object_version = 0;
  o.mworker = true;
  EXPECT_THROW(resolveTarget(o), Error);
}

TEST(RiscvTarget, CodeModels) {
  EXPECT_EQ(resolve("riscv64-unknown-elf").riscv().code_model, RiscvCodeModel::Medlow);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "", "", "", "medlow").riscv().code_model,
            RiscvCodeModel::Medlow);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "", "", "", "small").riscv().code_model,
            RiscvCodeModel::Medlow);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "", "", "", "medany").riscv().code_model,
            RiscvCodeModel::Medany);
  EXPECT_EQ(resolve("riscv32-unknown-elf", "", "", "", "medium").riscv().code_model,
            RiscvCodeModel::Medany);
  Target large = resolve("riscv64-unknown-elf", "", "", "", "large");
  EXPECT_EQ(large.riscv().code_model, RiscvCodeModel::Large);
  EXPECT_EQ(macro(large, "__riscv_cmodel_large"), "1");
  EXPECT_EQ(macro(large, "__riscv_cmodel_medlow"), "<undefined>");
  EXPECT_EQ(large.spelling, "riscv64-unknown-elf -march=rv64imac -mabi=lp64 -mcmodel=large");
  EXPECT_EQ(macro(resolve("riscv64-unknown-elf", "", "", "", "medium"), "__riscv_cmodel_medany"),
            "1");
  EXPECT_EQ(errorOf("riscv32-unknown-elf", "", "", "", "large"),
            "-mcmodel=large is only supported for RV64");
  EXPECT_EQ(errorOf("riscv64-unknown-elf", "", "", "", "tiny"),
            "unknown RISC-V code model '-mcmodel=tiny' (known: medlow, medany, large; small and "
            "medium are aliases of medlow and medany)");
}

// ----- data model -----------------------------------------------------------------------------

TEST(RiscvTarget, DataModel) {
  for (const char* abi : {"ilp32", "ilp32f", "ilp32d", "ilp32e"}) {
    Target t =
        resolve("riscv32-unknown-elf", std::string(abi) == "ilp32e" ? "rv32e" : "rv32gc", abi);
    const DataModel& d = t.data;
    EXPECT_FALSE(d.char_signed) << abi;
    EXPECT_EQ(d.of(IntKind::Long).size, 4) << abi;
    EXPECT_EQ(d.of(IntKind::LongLong).align, 8) << abi; // also under ILP32E (GCC 12)
    EXPECT_FALSE(d.of(IntKind::Int128).supported()) << abi;
    EXPECT_EQ(d.of(FloatKind::LongDouble).size, 16) << abi;
    EXPECT_EQ(d.of(FloatKind::LongDouble).align, 16) << abi;
    EXPECT_EQ(d.float_formats[size_t(FloatKind::LongDouble)], FloatFormat::IEEEQuad) << abi;
    EXPECT_EQ(d.pointer.size, 4) << abi;
    EXPECT_EQ(d.size_type, IntKind::UInt) << abi;
    EXPECT_EQ(d.intmax_type, IntKind::LongLong) << abi;
    EXPECT_EQ(d.int64_type, IntKind::LongLong) << abi;
    EXPECT_EQ(d.wchar_type, IntKind::Int) << abi;
    EXPECT_EQ(d.va_list.size, 4) << abi;
    EXPECT_EQ(d.biggest_alignment, 16) << abi;
  }
  for (const char* abi : {"lp64", "lp64f", "lp64d", "lp64q", "lp64e"}) {
    std::string a = abi;
    Target t = resolve("riscv64-unknown-elf",
                       a == "lp64e"   ? "rv64e"
                       : a == "lp64q" ? "rv64gqc"
                                      : "rv64gc",
                       abi);
    const DataModel& d = t.data;
    EXPECT_EQ(d.of(IntKind::Long).size, 8) << abi;
    EXPECT_EQ(d.of(IntKind::Int128).size, 16) << abi;
    EXPECT_EQ(d.of(IntKind::Int128).align, 16) << abi;
    EXPECT_EQ(d.intmax_type, IntKind::Long) << abi; // clang-14 -dM: long int
    EXPECT_EQ(d.int64_type, IntKind::Long) << abi;
    EXPECT_EQ(d.size_type, IntKind::ULong) << abi;
    EXPECT_EQ(d.va_list.size, 8) << abi;
    EXPECT_EQ(d.of(FloatKind::Float16).size, 2) << abi;
    EXPECT_FALSE(d.of(FloatKind::BFloat16).supported()) << abi;
    EXPECT_FALSE(d.of(FloatKind::Float128).supported()) << abi;
    EXPECT_EQ(d.bitint_max_width, 128) << abi;
    EXPECT_EQ(d.bitint_max_align, 8) << abi;
    EXPECT_EQ(d.max_vector_align, 0) << abi;
  }
  // Lock-free atomics need A.
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64imac").data.max_atomic_inline_bits, 64);
  EXPECT_EQ(resolve("riscv32-unknown-elf", "rv32imac").data.max_atomic_inline_bits, 32);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64imc").data.max_atomic_inline_bits, 0);
  EXPECT_FALSE(resolve("riscv64-unknown-elf", "rv64imc").data.has_sync_cas);
  Target t = resolve("riscv64-unknown-elf", "rv64imac");
  EXPECT_EQ(macro(t, "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_8"), "1");
  EXPECT_EQ(macro(t, "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16"), "<undefined>");
  EXPECT_EQ(macro(t, "__INTMAX_TYPE__"), "long int");
  EXPECT_EQ(macro(t, "__CHAR_UNSIGNED__"), "1");
  EXPECT_EQ(macro(resolve("riscv32-unknown-elf"), "__INTMAX_TYPE__"), "long long int");
}

// ----- registers and stack --------------------------------------------------------------------

uint32_t rolesOf(const Target& t, const char* name) {
  const RegisterInfo* r = t.findRegister(name);
  EXPECT_NE(r, nullptr) << name;
  return r ? r->roles : 0;
}

TEST(RiscvTarget, RegistersPerAbi) {
  Target d = resolve("riscv64-unknown-elf", "rv64gc", "lp64d");
  EXPECT_EQ(d.registers.size(), 64u);
  const RegisterInfo* a0 = d.findRegister("x10");
  ASSERT_NE(a0, nullptr);
  EXPECT_EQ(a0->name, "a0");
  EXPECT_EQ(a0->dwarf, 10);
  EXPECT_EQ(a0->bits, 64);
  EXPECT_EQ(a0->file, "gpr");
  EXPECT_EQ(a0->roles, uint32_t(kRoleArgument | kRoleReturn | kRoleCallerSaved));
  EXPECT_EQ(rolesOf(d, "zero"), uint32_t(kRoleZero | kRoleReadOnly | kRoleReserved));
  EXPECT_EQ(rolesOf(d, "ra"), uint32_t(kRoleReturnAddress | kRoleCallerSaved));
  EXPECT_EQ(rolesOf(d, "sp"), uint32_t(kRoleStackPointer | kRoleCalleeSaved | kRoleReserved));
  EXPECT_EQ(rolesOf(d, "gp"), uint32_t(kRoleGlobalPointer | kRoleReserved));
  EXPECT_EQ(rolesOf(d, "tp"), uint32_t(kRoleThreadPointer | kRoleReserved));
  EXPECT_EQ(rolesOf(d, "s0"), uint32_t(kRoleCalleeSaved | kRoleFramePointer));
  EXPECT_EQ(rolesOf(d, "a7"), uint32_t(kRoleArgument | kRoleCallerSaved));
  EXPECT_EQ(rolesOf(d, "s11"), uint32_t(kRoleCalleeSaved));
  EXPECT_EQ(rolesOf(d, "t6"), uint32_t(kRoleCallerSaved));
  EXPECT_EQ(d.findRegister("x31")->name, "t6");
  const RegisterInfo* fa0 = d.findRegister("f10");
  ASSERT_NE(fa0, nullptr);
  EXPECT_EQ(fa0->name, "fa0");
  EXPECT_EQ(fa0->dwarf, 42);
  EXPECT_EQ(fa0->bits, 64);
  EXPECT_EQ(fa0->roles, uint32_t(kRoleArgument | kRoleReturn | kRoleCallerSaved));
  EXPECT_EQ(rolesOf(d, "fs0"), uint32_t(kRoleCalleeSaved));
  EXPECT_EQ(rolesOf(d, "fs11"), uint32_t(kRoleCalleeSaved));
  EXPECT_EQ(rolesOf(d, "ft11"), uint32_t(kRoleCallerSaved));
  EXPECT_EQ(d.findRegister("fs11")->dwarf, 59);
  EXPECT_EQ(d.findRegister("v0"), nullptr);

  // Soft-float ABI on an F/D ISA: FPRs exist but none is saved or carries arguments.
  Target soft = resolve("riscv64-unknown-elf", "rv64gc", "lp64");
  EXPECT_EQ(soft.registers.size(), 64u);
  EXPECT_EQ(rolesOf(soft, "fa0"), uint32_t(kRoleCallerSaved));
  EXPECT_EQ(rolesOf(soft, "fs0"), uint32_t(kRoleCallerSaved));
  // ABI_FLEN below FLEN: fs* saved for the low 32 bits only.
  Target f = resolve("riscv32-unknown-elf", "rv32imafdc", "ilp32f");
  EXPECT_EQ(rolesOf(f, "fs0"), uint32_t(kRoleCalleeSaved));
  EXPECT_NE(f.findRegister("fs0")->note.find("low 32 bits"), std::string_view::npos);
  EXPECT_EQ(f.findRegister("fs0")->bits, 64);
  // No F: no FPRs. Zfinx: none either.
  EXPECT_EQ(resolve("riscv32-unknown-elf", "rv32imac").registers.size(), 32u);
  EXPECT_EQ(resolve("riscv32-unknown-elf", "rv32i_zfinx").findRegister("fa0"), nullptr);
  // Q: 128-bit FPRs.
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64gqc", "lp64q").findRegister("fa0")->bits, 128);
  // E base and ABI: x0-x15, a0-a5.
  Target e = resolve("riscv32-unknown-elf", "rv32ec");
  EXPECT_EQ(e.registers.size(), 16u);
  EXPECT_EQ(e.findRegister("a6"), nullptr);
  EXPECT_EQ(e.findRegister("x16"), nullptr);
  EXPECT_EQ(rolesOf(e, "a5"), uint32_t(kRoleArgument | kRoleCallerSaved));
  EXPECT_EQ(rolesOf(e, "s1"), uint32_t(kRoleCalleeSaved));
  Target e64f = resolve("riscv64-unknown-elf", "rv64ef", "lp64e");
  EXPECT_EQ(e64f.registers.size(), 16u + 32u);
  EXPECT_EQ(rolesOf(e64f, "fa0"), uint32_t(kRoleCallerSaved));
  // Vectors: v0-v31, DWARF 96+, caller-saved, bits = the zvl minimum.
  Target v = resolve("riscv64-unknown-linux-gnu", "rv64gcv_zvl512b", "lp64d");
  EXPECT_EQ(v.registers.size(), 96u);
  const RegisterInfo* v31 = v.findRegister("v31");
  ASSERT_NE(v31, nullptr);
  EXPECT_EQ(v31->dwarf, 127);
  EXPECT_EQ(v31->bits, 512);
  EXPECT_EQ(v31->roles, uint32_t(kRoleCallerSaved));
  EXPECT_EQ(resolve("riscv32-unknown-elf", "rv32i_zve32x").findRegister("v0")->bits, 32);
  // Every register has a distinct name and DWARF number.
  std::set<std::string_view> names;
  std::set<int32_t> dwarf;
  for (const RegisterInfo& r : v.registers) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_TRUE(dwarf.insert(r.dwarf).second) << r.name;
  }
}

TEST(RiscvTarget, RegisterTablesAreSharedAndStable) {
  Target a = resolve("riscv64-unknown-elf", "rv64gc", "lp64d");
  Target b = resolve("riscv64-unknown-linux-gnu", "rv64imafdc", "lp64d");
  EXPECT_EQ(a.registers.data(), b.registers.data());
  Target c = resolve("riscv64-unknown-elf", "rv64gc", "lp64");
  EXPECT_NE(a.registers.data(), c.registers.data());
  EXPECT_EQ(a.findRegister("fs0")->roles, uint32_t(kRoleCalleeSaved));
}

TEST(RiscvTarget, Stack) {
  Target std32 = resolve("riscv32-unknown-elf");
  EXPECT_TRUE(std32.stack.grows_down);
  EXPECT_EQ(std32.stack.alignment, 16);
  EXPECT_EQ(std32.stack.stack_pointer, "sp");
  EXPECT_EQ(std32.stack.return_address, "ra");
  EXPECT_EQ(std32.stack.frame_pointer, "s0");
  EXPECT_NE(std32.stack.argument_area.find("0(sp)"), std::string_view::npos);
  EXPECT_NE(std32.stack.argument_area.find("multiple of 4 bytes"), std::string_view::npos);
  EXPECT_NE(resolve("riscv64-unknown-elf").stack.argument_area.find("multiple of 8 bytes"),
            std::string_view::npos);
  EXPECT_EQ(resolve("riscv32-unknown-elf", "rv32e").stack.alignment, 4);
  EXPECT_EQ(resolve("riscv64-unknown-elf", "rv64e").stack.alignment, 8);
}

// ----- ELF ------------------------------------------------------------------------------------

TEST(RiscvTarget, ElfIdentityAndFlags) {
  struct Row {
    const char* triple;
    const char* march;
    const char* mabi;
    uint32_t flags;
  };
  // Values checked against llvm-mc-14 / clang-14 objects (reference §5.1 and
  // diff_riscv_datamodel) and GCC 12 for the E ABI.
  const Row rows[] = {
      {"riscv32-unknown-elf", "rv32i", "ilp32", 0x0},
      {"riscv32-unknown-elf", "rv32imac", "ilp32", 0x1},
      {"riscv32-unknown-elf", "rv32imafc", "ilp32f", 0x3},
      {"riscv32-unknown-elf", "rv32imaf", "ilp32f", 0x2},
      {"riscv32-unknown-elf", "rv32imafd", "ilp32d", 0x4},
      {"riscv32-unknown-elf", "rv32imafdc", "ilp32d", 0x5},
      {"riscv32-unknown-elf", "rv32e", "ilp32e", 0x8},
      {"riscv32-unknown-elf", "rv32ec", "ilp32e", 0x9},
      {"riscv32-unknown-elf", "rv32i_zca", "ilp32", 0x1},
      {"riscv32-unknown-elf", "rv32i_zce", "ilp32", 0x1},
      {"riscv64-unknown-elf", "rv64gc", "lp64d", 0x5},
      {"riscv64-unknown-elf", "rv64gc", "lp64f", 0x3},
      {"riscv64-unknown-elf", "rv64gc", "lp64", 0x1},
      {"riscv64-unknown-elf", "rv64gqc", "lp64q", 0x7},
      {"riscv64-unknown-elf", "rv64e", "lp64e", 0x8},
      {"riscv64-unknown-elf", "rv64imac_ztso", "lp64", 0x11},
      {"riscv64-unknown-elf", "rv64g_ztso", "lp64d", 0x14},
  };
  for (const Row& r : rows) {
    Target t = resolve(r.triple, r.march, r.mabi);
    EXPECT_EQ(t.elf.flags, r.flags) << r.march << " " << r.mabi;
    EXPECT_EQ(t.elf.machine, 243);
    EXPECT_EQ(t.elf.machine_name, "EM_RISCV");
    EXPECT_EQ(t.elf.elf_class, std::string(r.triple).find("64") != std::string::npos ? 2 : 1);
    EXPECT_EQ(t.elf.data, 1);
    EXPECT_EQ(t.elf.osabi, 0);
    EXPECT_TRUE(t.elf.rela);
  }
}

TEST(RiscvTarget, DecodeFlagsRoundTrip) {
  const ElfMachineInfo* m = findElfMachine(abikit::kEmRiscv);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->family, Family::RISCV);
  EXPECT_EQ(m->name, "EM_RISCV");
  const std::array<std::array<const char*, 3>, 12> cases = {{
      {"riscv32-unknown-elf", "rv32i", "ilp32"},
      {"riscv32-unknown-elf", "rv32imafc", "ilp32f"},
      {"riscv32-unknown-elf", "rv32gc", "ilp32d"},
      {"riscv32-unknown-elf", "rv32ec", "ilp32e"},
      {"riscv64-unknown-elf", "rv64imac", "lp64"},
      {"riscv64-unknown-elf", "rv64gc", "lp64f"},
      {"riscv64-unknown-linux-gnu", "rv64gc", "lp64d"},
      {"riscv64-unknown-elf", "rv64gqc", "lp64q"},
      {"riscv64-unknown-elf", "rv64e", "lp64e"},
      {"riscv64-unknown-elf", "rv64gc_ztso", "lp64d"},
      {"riscv32-unknown-elf", "rv32imafdc", "ilp32f"},
      {"riscv64-unknown-elf", "rv64gc", "lp64"},
  }};
  for (const auto& [triple, march, mabi] : cases) {
    Target t = resolve(triple, march, mabi);
    ElfHeaderFacts h{t.elf.elf_class,   t.elf.data,    t.elf.osabi,
                     t.elf.abi_version, t.elf.machine, t.elf.flags};
    ElfFlagsInfo info = m->decodeFlags(h);
    EXPECT_TRUE(info.problems.empty())
        << march << ": " << (info.problems.empty() ? std::string() : info.problems.front());
    EXPECT_EQ(info.property("abi"), riscvAbiName(t.riscv().abi)) << march;
    EXPECT_EQ(info.property("rve"), t.riscv().e_abi ? "yes" : "no") << march;
    EXPECT_EQ(info.property("tso"), t.riscv().isa.has("ztso") ? "yes" : "no") << march;
    EXPECT_EQ(info.property("rvc"), t.riscv().isa.has("c") ? "yes" : "no") << march;
    EXPECT_EQ(info.target, t.riscv().xlen == 64 ? "riscv64-unknown-elf" : "riscv32-unknown-elf");
    std::vector<std::string> conflicts;
    m->linkConflicts(info, info, conflicts);
    EXPECT_TRUE(conflicts.empty()) << march;
  }
}

TEST(RiscvTarget, DecodeFlagsProblemsAndNames) {
  const ElfMachineInfo* m = findElfMachine(abikit::kEmRiscv);
  ElfFlagsInfo info = m->decodeFlags({1, 1, 0, 0, abikit::kEmRiscv, 0x5});
  EXPECT_EQ(info.flag_names,
            (std::vector<std::string>{"EF_RISCV_RVC", "EF_RISCV_FLOAT_ABI_DOUBLE"}));
  EXPECT_EQ(info.property("float_abi"), "double");
  EXPECT_EQ(info.property("abi"), "ilp32d");
  info = m->decodeFlags({2, 1, 0, 0, abikit::kEmRiscv, 0x1f});
  EXPECT_EQ(info.flag_names, (std::vector<std::string>{"EF_RISCV_RVC", "EF_RISCV_FLOAT_ABI_QUAD",
                                                       "EF_RISCV_RVE", "EF_RISCV_TSO"}));
  ASSERT_EQ(info.problems.size(), 1u);
  EXPECT_EQ(info.problems[0], "EF_RISCV_RVE with a hard-float ABI (the E ABIs are soft-float)");
  info = m->decodeFlags({1, 1, 0, 0, abikit::kEmRiscv, 0x00000480});
  ASSERT_EQ(info.problems.size(), 1u);
  EXPECT_EQ(info.problems[0], "reserved e_flags bits 0x480 are set");
  info = m->decodeFlags({1, 1, 0, 0, abikit::kEmRiscv, 0x03000000});
  ASSERT_EQ(info.problems.size(), 1u);
  EXPECT_NE(info.problems[0].find("non-standard e_flags bits 0x3000000"), std::string::npos);
  info = m->decodeFlags({1, 1, 0, 0, abikit::kEmRiscv, 0x24});
  EXPECT_EQ(info.property("abi"), "rv64ilp32d");
  EXPECT_EQ(info.target, "riscv64-unknown-elf");
  EXPECT_TRUE(info.problems.empty());
  info = m->decodeFlags({2, 1, 0, 0, abikit::kEmRiscv, 0x20});
  ASSERT_EQ(info.problems.size(), 1u);
  EXPECT_EQ(info.problems[0], "EF_RISCV_RV64ILP32 objects are ELFCLASS32");
  info = m->decodeFlags({1, 2, 0, 0, abikit::kEmRiscv, 0x0});
  ASSERT_EQ(info.problems.size(), 1u);
  info = m->decodeFlags({1, 1, 0, 0, abikit::kEmRiscv, 0x40});
  EXPECT_EQ(info.property("rvy"), "yes");
  EXPECT_TRUE(info.problems.empty());
}

TEST(RiscvTarget, LinkConflicts) {
  const ElfMachineInfo* m = findElfMachine(abikit::kEmRiscv);
  auto decode = [&](uint32_t flags, uint8_t cls = 1) {
    return m->decodeFlags({cls, 1, 0, 0, abikit::kEmRiscv, flags});
  };
  auto conflicts = [&](uint32_t a, uint32_t b) {
    std::vector<std::string> out;
    m->linkConflicts(decode(a), decode(b), out);
    return out;
  };
  EXPECT_TRUE(conflicts(0x1, 0x0).empty());   // RVC merges
  EXPECT_TRUE(conflicts(0x10, 0x0).empty());  // TSO merges
  EXPECT_TRUE(conflicts(0x15, 0x04).empty()); // RVC+TSO with plain double
  auto fl = conflicts(0x2, 0x4);
  ASSERT_EQ(fl.size(), 1u);
  EXPECT_EQ(fl[0], "float ABI single vs double (EF_RISCV_FLOAT_ABI differs; floating-point "
                   "arguments are passed differently)");
  auto rve = conflicts(0x8, 0x0);
  ASSERT_EQ(rve.size(), 1u);
  EXPECT_EQ(rve[0], "EF_RISCV_RVE differs: E ABI vs non-E ABI");
  auto ilp = conflicts(0x20, 0x0);
  ASSERT_EQ(ilp.size(), 1u);
  EXPECT_NE(ilp[0].find("EF_RISCV_RV64ILP32"), std::string::npos);
  EXPECT_EQ(conflicts(0x8 | 0x20, 0x4).size(), 3u);
}

TEST(RiscvTarget, RelocationTable) {
  const ElfMachineInfo* m = findElfMachine(abikit::kEmRiscv);
  std::set<uint32_t> types;
  std::set<std::string_view> names;
  for (const RelocationType& r : m->relocations) {
    EXPECT_TRUE(types.insert(r.type).second) << r.type;
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_EQ(r.name.substr(0, 8), "R_RISCV_");
    EXPECT_FALSE(r.description.empty()) << r.name;
    for (const RelocBitMove& mv : r.moves) EXPECT_LE(mv.to + mv.count, r.size * 8) << r.name;
  }
  const std::pair<uint32_t, const char*> known[] = {
      {0, "R_RISCV_NONE"},
      {1, "R_RISCV_32"},
      {2, "R_RISCV_64"},
      {3, "R_RISCV_RELATIVE"},
      {5, "R_RISCV_JUMP_SLOT"},
      {12, "R_RISCV_TLSDESC"},
      {16, "R_RISCV_BRANCH"},
      {17, "R_RISCV_JAL"},
      {18, "R_RISCV_CALL"},
      {19, "R_RISCV_CALL_PLT"},
      {20, "R_RISCV_GOT_HI20"},
      {23, "R_RISCV_PCREL_HI20"},
      {24, "R_RISCV_PCREL_LO12_I"},
      {25, "R_RISCV_PCREL_LO12_S"},
      {26, "R_RISCV_HI20"},
      {27, "R_RISCV_LO12_I"},
      {28, "R_RISCV_LO12_S"},
      {32, "R_RISCV_TPREL_ADD"},
      {36, "R_RISCV_ADD64"},
      {40, "R_RISCV_SUB64"},
      {41, "R_RISCV_GOT32_PCREL"},
      {43, "R_RISCV_ALIGN"},
      {44, "R_RISCV_RVC_BRANCH"},
      {45, "R_RISCV_RVC_JUMP"},
      {51, "R_RISCV_RELAX"},
      {52, "R_RISCV_SUB6"},
      {53, "R_RISCV_SET6"},
      {57, "R_RISCV_32_PCREL"},
      {58, "R_RISCV_IRELATIVE"},
      {59, "R_RISCV_PLT32"},
      {60, "R_RISCV_SET_ULEB128"},
      {61, "R_RISCV_SUB_ULEB128"},
      {62, "R_RISCV_TLSDESC_HI20"},
      {63, "R_RISCV_TLSDESC_LOAD_LO12"},
      {64, "R_RISCV_TLSDESC_ADD_LO12"},
      {65, "R_RISCV_TLSDESC_CALL"},
      {191, "R_RISCV_VENDOR"},
  };
  for (const auto& [type, name] : known) {
    const RelocationType* r = m->relocation(type);
    ASSERT_NE(r, nullptr) << name;
    EXPECT_EQ(r->name, name);
  }
  EXPECT_EQ(m->relocation(13), nullptr);  // unassigned
  EXPECT_EQ(m->relocation(42), nullptr);  // reserved
  EXPECT_EQ(m->relocation(192), nullptr); // nonstandard
  EXPECT_EQ(types.size(), 59u);           // 0-12, 16-41, 43-46, 51-65, 191
}

uint64_t applyTo(uint32_t type, uint64_t word, uint64_t value) {
  const RelocationType* r = findElfMachine(abikit::kEmRiscv)->relocation(type);
  std::array<uint8_t, 8> bytes{};
  for (size_t i = 0; i < 8; ++i) bytes[i] = uint8_t(word >> (8 * i));
  applyRelocation(*r, value, std::span<uint8_t>(bytes.data(), r->size));
  uint64_t out = 0;
  for (size_t i = 0; i < 8; ++i) out |= uint64_t(bytes[i]) << (8 * i);
  return out;
}

TEST(RiscvTarget, InstructionRelocationsMatchTheAssembler) {
  // Encodings from llvm-mc-14 -show-encoding; the instructions start with a zero immediate.
  auto neg = [](int64_t v) { return uint64_t(v); };
  EXPECT_EQ(applyTo(17, 0x0000006f, 8), 0x0080006fu);             // jal x0, 8
  EXPECT_EQ(applyTo(17, 0x000000ef, neg(-2048)), 0x801ff0efu);    // jal ra, -2048
  EXPECT_EQ(applyTo(17, 0x0000006f, 1048574), 0x7ffff06fu);       // j 1048574
  EXPECT_EQ(applyTo(17, 0x0000006f, neg(-1048576)), 0x8000006fu); // j -1048576
  EXPECT_EQ(applyTo(16, 0x00b50063, neg(-4)), 0xfeb50ee3u);       // beq a0, a1, -4
  EXPECT_EQ(applyTo(16, 0x00b51063, 4094), 0x7eb51fe3u);          // bne a0, a1, 4094
  EXPECT_EQ(applyTo(27, 0x00050513, 0xfff), 0xfff50513u);         // addi a0, a0, -1
  EXPECT_EQ(applyTo(27, 0x00050513, 2047), 0x7ff50513u);          // addi a0, a0, 2047
  EXPECT_EQ(applyTo(28, 0x00b52023, 0x800), 0x80b52023u);         // sw a1, -2048(a0)
  EXPECT_EQ(applyTo(28, 0x00b52023, 2047), 0x7eb52fa3u);          // sw a1, 2047(a0)
  EXPECT_EQ(applyTo(26, 0x00000537, 0x80000), 0x80000537u);       // lui a0, 0x80000
  EXPECT_EQ(applyTo(26, 0x00000537, 0xfffff), 0xfffff537u);       // lui a0, 0xfffff
  EXPECT_EQ(applyTo(45, 0xa001, 8), 0xa021u);                     // c.j 8
  EXPECT_EQ(applyTo(45, 0xa001, neg(-2)), 0xbffdu);               // c.j -2
  EXPECT_EQ(applyTo(45, 0xa001, 2046), 0xaffdu);                  // c.j 2046
  EXPECT_EQ(applyTo(44, 0xc101, neg(-256)), 0xd101u);             // c.beqz a0, -256
  EXPECT_EQ(applyTo(44, 0xe101, 254), 0xed7du);                   // c.bnez a0, 254
  EXPECT_EQ(applyTo(46, 0x6501, 1), 0x6505u);                     // c.lui a0, 1
  EXPECT_EQ(applyTo(46, 0x6501, 31), 0x657du);                    // c.lui a0, 31
  // A previous immediate is replaced, not ORed.
  EXPECT_EQ(applyTo(27, 0xfff50513, 1), 0x00150513u);
  // CALL: auipc ra, hi20 + jalr ra, lo12(ra); value = hi20(V) << 12 | lo12(V).
  const uint64_t call = 0x000080e7ull << 32 | 0x00000097u;
  EXPECT_EQ(applyTo(19, call, 0x12345678), 0x678080e7ull << 32 | 0x12345097u);
  EXPECT_EQ(applyTo(19, call, 0x1800), 0x800080e7ull << 32 | 0x00001097u); // V = 0x800
  // Data relocations overwrite the word; SET6/SUB6 keep the top two bits of the byte.
  EXPECT_EQ(applyTo(2, 0, 0x1122334455667788ull), 0x1122334455667788ull);
  EXPECT_EQ(applyTo(53, 0xc0, 0x3f), 0xffu);
  EXPECT_EQ(applyTo(53, 0xff, 0x01), 0xc1u);
}

// ----- macros, properties, names --------------------------------------------------------------

TEST(RiscvTarget, Macros) {
  Target t = resolve("riscv64-unknown-linux-gnu", "rv64gcv", "lp64d");
  EXPECT_EQ(macro(t, "__riscv"), "1");
  EXPECT_EQ(macro(t, "__riscv_xlen"), "64");
  EXPECT_EQ(macro(t, "__riscv_flen"), "64");
  EXPECT_EQ(macro(t, "__riscv_float_abi_double"), "1");
  EXPECT_EQ(macro(t, "__riscv_float_abi_soft"), "<undefined>");
  EXPECT_EQ(macro(t, "__riscv_i"), "2001000");
  EXPECT_EQ(macro(t, "__riscv_f"), "2002000");
  EXPECT_EQ(macro(t, "__riscv_zicsr"), "2000000");
  EXPECT_EQ(macro(t, "__riscv_v"), "1000000");
  EXPECT_EQ(macro(t, "__riscv_vector"), "1");
  EXPECT_EQ(macro(t, "__riscv_v_min_vlen"), "128");
  EXPECT_EQ(macro(t, "__riscv_v_elen"), "64");
  EXPECT_EQ(macro(t, "__riscv_v_elen_fp"), "64");
  EXPECT_EQ(macro(t, "__riscv_mul"), "1");
  EXPECT_EQ(macro(t, "__riscv_muldiv"), "1");
  EXPECT_EQ(macro(t, "__riscv_atomic"), "1");
  EXPECT_EQ(macro(t, "__riscv_compressed"), "1");
  EXPECT_EQ(macro(t, "__riscv_arch_test"), "1");
  EXPECT_EQ(macro(t, "__riscv_cmodel_medlow"), "1");
  EXPECT_EQ(macro(t, "__linux__"), "1");
  EXPECT_EQ(macro(t, "__ELF__"), "1");
  EXPECT_EQ(macro(t, "__PIE__"), "2");
  Target e = resolve("riscv32-unknown-elf", "rv32emc");
  EXPECT_EQ(macro(e, "__riscv_abi_rve"), "1");
  EXPECT_EQ(macro(e, "__riscv_32e"), "1");
  EXPECT_EQ(macro(e, "__riscv_e"), "2000000");
  EXPECT_EQ(macro(e, "__riscv_float_abi_soft"), "1");
  EXPECT_EQ(macro(e, "__riscv_mul"), "1");
  EXPECT_EQ(macro(e, "__riscv_atomic"), "<undefined>");
  EXPECT_EQ(macro(e, "__riscv_flen"), "<undefined>");
  EXPECT_EQ(macro(e, "__linux__"), "<undefined>");
  EXPECT_EQ(macro(e, "__PIE__"), "<undefined>");
  EXPECT_EQ(macro(resolve("riscv64-unknown-elf", "rv64e"), "__riscv_64e"), "1");
  Target q = resolve("riscv64-unknown-elf", "rv64gqc", "lp64q");
  EXPECT_EQ(macro(q, "__riscv_float_abi_quad"), "1");
  EXPECT_EQ(macro(q, "__riscv_flen"), "128");
  EXPECT_EQ(macro(resolve("riscv64-unknown-elf", "rv64i_zmmul"), "__riscv_mul"), "1");
  EXPECT_EQ(macro(resolve("riscv64-unknown-elf", "rv64i_zmmul"), "__riscv_div"), "<undefined>");
  EXPECT_EQ(macro(resolve("riscv64-unknown-linux-musl"), "__NO_MATH_ERRNO__"), "1");
  Target snitch = resolve("riscv32-unknown-elf", "rv32imafd_xssr_xfrep_xdma", "ilp32d");
  EXPECT_EQ(macro(snitch, "__riscv_xssr"), "1000");
}

TEST(RiscvTarget, Properties) {
  Target t = resolve("riscv64-unknown-elf", "rv64gcv_zvl256b", "lp64f", "", "medany");
  EXPECT_EQ(property(t, "xlen"), "64");
  EXPECT_EQ(property(t, "abi"), "lp64f");
  EXPECT_EQ(property(t, "abi_flen"), "32");
  EXPECT_EQ(property(t, "flen"), "64");
  EXPECT_EQ(property(t, "float_abi"), "single");
  EXPECT_EQ(property(t, "e_abi"), "no");
  EXPECT_EQ(property(t, "arg_gprs"), "8");
  EXPECT_EQ(property(t, "arg_fprs"), "8");
  EXPECT_EQ(property(t, "code_model"), "medany");
  EXPECT_EQ(property(t, "min_vlen"), "256");
  EXPECT_EQ(property(t, "os"), "none");
  EXPECT_EQ(property(t, "isa"), t.riscv().isa.toString());
  EXPECT_EQ(property(t, "extensions").substr(0, 10), "i m a f d ");
  Target e = resolve("riscv32-unknown-elf", "rv32e");
  EXPECT_EQ(property(e, "arg_gprs"), "6");
  EXPECT_EQ(property(e, "arg_fprs"), "0");
  EXPECT_EQ(property(e, "e_abi"), "yes");
  EXPECT_EQ(e.riscv().argGPRs(), 6u);
}

TEST(RiscvTarget, XdslNamesResolve) {
  Target riscemu = resolve("riscv32_riscemu");
  EXPECT_EQ(riscemu.spelling, "riscv32-unknown-elf -march=rv32ima -mabi=ilp32");
  EXPECT_EQ(riscemu.riscv().abi, RiscvAbi::ILP32);
  Target linux64 = resolve("riscv64_linux");
  EXPECT_EQ(linux64.spelling, "riscv64-unknown-linux-gnu -march=rv64g -mabi=lp64d");
  EXPECT_EQ(linux64.data.of(IntKind::Int).size, 4); // xDSL's first version had a 64-bit int
  Target snitch = resolve("snitch");
  EXPECT_EQ(snitch.spelling, "riscv32-unknown-elf -march=rv32imafd_xssr_xfrep_xdma -mabi=ilp32d");
  EXPECT_TRUE(snitch.riscv().isa.has("xfrep"));
  EXPECT_EQ(snitch.riscv().isa.flen(), 64u);
}

TEST(RiscvTarget, Summaries) {
  std::set<std::string> names;
  for (const TargetSummary& s : knownTargets()) {
    if (s.family != Family::RISCV) continue;
    names.insert(s.name);
    if (s.name == "riscv64-unknown-elf") {
      EXPECT_EQ(s.abis, (std::vector<std::string>{"lp64", "lp64f", "lp64d", "lp64q", "lp64e"}));
      EXPECT_EQ(s.cpus.front(), "generic-rv64");
      EXPECT_EQ(s.cpus.size(), 9u);
    }
    if (s.name == "riscv32-unknown-linux-gnu") {
      EXPECT_EQ(s.abis, (std::vector<std::string>{"ilp32", "ilp32f", "ilp32d", "ilp32e"}));
    }
  }
  for (const char* n : {"riscv32-unknown-elf", "riscv64-unknown-elf", "riscv32-unknown-linux-gnu",
                        "riscv64-unknown-linux-gnu", "riscv32_riscemu", "riscv64_linux", "snitch"})
    EXPECT_TRUE(names.count(n)) << n;
}

} // namespace
