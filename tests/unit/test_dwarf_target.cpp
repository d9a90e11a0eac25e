// The DWARF data of every target family (Target::dwarf): register numbers to registers and
// sizes, address spaces, default CIEs. Expected values are worked by hand from the sources named
// in docs/targets/<family>.md, "DWARF": the RISC-V psABI (riscv-dwarf.adoc) and clang-22's CIEs,
// reference dwarf.md §3 and §4.1 (AMDGPU), LLVM's NVPTX sources and ptxas 13.0's cubins, the DPU
// and Colossus backends (reference dpu.md §5.5, ipu.md §5).
#include "abikit/target.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <string>

namespace {

using abikit::DwarfRegisterRange;
using abikit::DwarfSpaceScope;
using abikit::DwarfTargetInfo;
using abikit::Target;

Target resolve(const std::string& triple, const std::string& march = "",
               const std::string& mcpu = "", const std::string& mabi = "") {
  abikit::TargetOptions o;
  o.triple = triple;
  o.march = march;
  o.mcpu = mcpu;
  o.mabi = mabi;
  return abikit::resolveTarget(o);
}

Target ipu(bool supervisor) {
  abikit::TargetOptions o;
  o.triple = "colossus-graphcore-elf";
  o.mcpu = "ipu2";
  o.msupervisor = supervisor;
  return abikit::resolveTarget(o);
}

// "name/bits" of the register a number denotes, "-" when it denotes none.
std::string reg(const DwarfTargetInfo& d, uint64_t number) {
  const DwarfRegisterRange* r = d.findRegister(number);
  if (!r) return "-";
  return abikit::dwarfRegisterName(*r, number) + "/" + std::to_string(r->bits);
}

// Ranges valid together must not overlap, and every range names something.
void expectWellFormed(const DwarfTargetInfo& d) {
  for (const DwarfRegisterRange& r : d.registers) {
    EXPECT_GE(r.count, 1u);
    EXPECT_FALSE(r.prefix.empty());
    EXPECT_TRUE(r.numbered || r.count == 1) << r.prefix;
    // The lookup of each of its numbers finds this range or one of another mode first.
    for (uint64_t n : {uint64_t(r.first), uint64_t(r.first) + r.count - 1}) {
      const DwarfRegisterRange* f = d.findRegister(n);
      if (f && f != &r) {
        EXPECT_NE(f->mode, r.mode) << "overlap at " << n << ": " << r.prefix;
      }
    }
  }
  for (size_t i = 0; i < d.spaces.size(); ++i)
    for (size_t j = i + 1; j < d.spaces.size(); ++j)
      EXPECT_NE(d.spaces[i].first, d.spaces[j].first);
}

// Registers of Target::registers that have a DWARF number must be found, at the same size
// (`skip`: names whose number the DWARF data deliberately gives to another register).
void expectRegistersAgree(const Target& t, std::initializer_list<std::string_view> skip = {}) {
  for (const abikit::RegisterInfo& r : t.registers) {
    if (r.dwarf < 0 || std::find(skip.begin(), skip.end(), r.name) != skip.end()) continue;
    const DwarfRegisterRange* d = t.dwarf.findRegister(uint64_t(r.dwarf));
    ASSERT_NE(d, nullptr) << t.spelling << ": " << r.name << " (DWARF " << r.dwarf << ")";
    // A per-lane register (AMDGPU VGPR) is one lane's element of the whole-wave DWARF register.
    if (d->lane_bits) {
      EXPECT_EQ(d->lane_bits, r.bits) << t.spelling << ": " << r.name;
      EXPECT_EQ(d->bits, uint32_t(r.bits) * t.dwarf.lanes) << t.spelling << ": " << r.name;
    } else if (d->bits) {
      EXPECT_EQ(d->bits, r.bits) << t.spelling << ": " << r.name;
    }
  }
}

} // namespace

// ----- RISC-V -------------------------------------------------------------------------------

TEST(DwarfTarget, RiscvRv64gc) {
  Target t = resolve("riscv64-unknown-elf", "rv64gc", "", "lp64d");
  const DwarfTargetInfo& d = t.dwarf;
  expectWellFormed(d);
  EXPECT_EQ(reg(d, 0), "x0/64");
  EXPECT_EQ(reg(d, 2), "x2/64");
  EXPECT_EQ(reg(d, 31), "x31/64");
  EXPECT_EQ(reg(d, 32), "f0/64"); // D: FLEN 64
  EXPECT_EQ(reg(d, 63), "f31/64");
  EXPECT_EQ(reg(d, 64), "alt_frame_return/64");
  EXPECT_EQ(reg(d, 65), "-"); // reserved for future standard extensions
  EXPECT_EQ(reg(d, 95), "-");
  EXPECT_EQ(reg(d, 96), "-");   // no V
  EXPECT_EQ(reg(d, 3072), "-"); // custom extensions (llvm-dwarfdump's T0): not modelled
  EXPECT_EQ(reg(d, 4095), "-");
  EXPECT_EQ(reg(d, 4096), "csr0/64");
  EXPECT_EQ(reg(d, 4096 + 0x001), "fflags/64");
  EXPECT_EQ(reg(d, 4096 + 0x002), "frm/64");
  EXPECT_EQ(reg(d, 4096 + 0x003), "fcsr/64");
  EXPECT_EQ(reg(d, 4096 + 0x004), "csr4/64");
  EXPECT_EQ(reg(d, 4096 + 0x300), "csr768/64");  // mstatus
  EXPECT_EQ(reg(d, 4096 + 0xc00), "csr3072/64"); // cycle
  EXPECT_EQ(reg(d, 7200), "vl/64");
  EXPECT_EQ(reg(d, 7201), "vtype/64");
  EXPECT_EQ(reg(d, 7202), "vlenb/64"); // the one CSR llvm-dwarfdump-22 names
  EXPECT_EQ(reg(d, 7203), "csr3107/64");
  EXPECT_EQ(reg(d, 8191), "csr4095/64");
  EXPECT_EQ(reg(d, 8192), "-");
  EXPECT_EQ(reg(d, uint64_t(1) << 40), "-");

  ASSERT_EQ(d.spaces.size(), 1u);
  EXPECT_EQ(d.findSpace(0)->name, "global");
  EXPECT_EQ(d.findSpace(0)->address_bits, 64);
  EXPECT_EQ(d.findSpace(0)->scope, DwarfSpaceScope::Process);
  EXPECT_EQ(d.findSpace(1), nullptr);
  EXPECT_EQ(d.lanes, 1u);
  EXPECT_EQ(d.address_bits, 64);
  EXPECT_EQ(d.map, nullptr);

  // clang-22's CIE for riscv64 (measured): RA x1, code alignment 1, data alignment -8.
  EXPECT_EQ(d.return_address_column, 1u);
  EXPECT_EQ(d.code_alignment, 1u);
  EXPECT_EQ(d.data_alignment, -8);
  EXPECT_FALSE(d.default_same_value);
  EXPECT_EQ(d.cie_augmentation, "");
  expectRegistersAgree(t);
}

TEST(DwarfTarget, RiscvFlenVectorAndBase) {
  Target rv32 = resolve("riscv32-unknown-elf", "rv32imac");
  expectWellFormed(rv32.dwarf);
  EXPECT_EQ(reg(rv32.dwarf, 1), "x1/32");
  EXPECT_EQ(reg(rv32.dwarf, 32), "-"); // no F registers
  EXPECT_EQ(reg(rv32.dwarf, 64), "alt_frame_return/32");
  EXPECT_EQ(reg(rv32.dwarf, 7202), "vlenb/32");
  EXPECT_EQ(rv32.dwarf.data_alignment, -4); // clang-22 riscv32: -4
  EXPECT_EQ(rv32.dwarf.findSpace(0)->address_bits, 32);
  EXPECT_EQ(rv32.dwarf.address_bits, 32);
  expectRegistersAgree(rv32);

  Target f32 = resolve("riscv32-unknown-elf", "rv32imafc", "", "ilp32f");
  EXPECT_EQ(reg(f32.dwarf, 42), "f10/32");

  Target q = resolve("riscv64-unknown-elf", "rv64imafdq", "", "lp64q");
  EXPECT_EQ(reg(q.dwarf, 32), "f0/128");

  Target zfinx = resolve("riscv64-unknown-elf", "rv64ima_zfinx", "", "lp64");
  EXPECT_EQ(reg(zfinx.dwarf, 32), "-"); // Zfinx: floats live in the x registers

  Target v = resolve("riscv64-unknown-linux-gnu", "rv64gcv");
  expectWellFormed(v.dwarf);
  EXPECT_EQ(reg(v.dwarf, 96), "v0/0"); // VLEN: from the machine state (vlenb)
  EXPECT_EQ(reg(v.dwarf, 127), "v31/0");
  EXPECT_EQ(reg(v.dwarf, 128), "-");
  Target zvl = resolve("riscv64-unknown-elf", "rv64gcv_zvl512b");
  EXPECT_EQ(reg(zvl.dwarf, 100), "v4/0"); // zvl512b: VLEN >= 512, still not fixed
  expectRegistersAgree(v);

  Target e = resolve("riscv32-unknown-elf", "rv32e", "", "ilp32e");
  expectWellFormed(e.dwarf);
  EXPECT_EQ(reg(e.dwarf, 15), "x15/32");
  EXPECT_EQ(reg(e.dwarf, 16), "-"); // RV32E has x0-x15 only
  expectRegistersAgree(e);
}

// ----- AMDGPU -------------------------------------------------------------------------------

TEST(DwarfTarget, AmdgpuWave64) {
  Target t = resolve("amdgcn-amd-amdhsa", "", "gfx90a");
  const DwarfTargetInfo& d = t.dwarf;
  expectWellFormed(d);
  EXPECT_EQ(d.lanes, 64u);
  EXPECT_EQ(reg(d, 0), "-"); // PC_32: 32-bit processes only
  EXPECT_EQ(reg(d, 1), "-"); // EXEC_MASK_32: wave32 only
  EXPECT_EQ(reg(d, 16), "PC_64/64");
  EXPECT_EQ(reg(d, 17), "EXEC_MASK_64/64");
  EXPECT_EQ(reg(d, 32), "SGPR0/32");
  EXPECT_EQ(reg(d, 95), "SGPR63/32");
  EXPECT_EQ(reg(d, 96), "-");
  EXPECT_EQ(reg(d, 1088), "SGPR64/32");
  EXPECT_EQ(reg(d, 1129), "SGPR105/32");
  EXPECT_EQ(reg(d, 1130), "-");
  EXPECT_EQ(reg(d, 1536), "-"); // wave32 VGPR0
  EXPECT_EQ(reg(d, 2048), "-"); // wave32 AGPR0
  EXPECT_EQ(reg(d, 2560), "VGPR0/2048");
  EXPECT_EQ(reg(d, 2815), "VGPR255/2048");
  EXPECT_EQ(reg(d, 2816), "-"); // reserved (llvm-dwarfdump-22 still names it VGPR256)
  EXPECT_EQ(reg(d, 3072), "AGPR0/2048");
  EXPECT_EQ(reg(d, 3327), "AGPR255/2048");
  EXPECT_EQ(reg(d, 3328), "-");
  EXPECT_EQ(d.findRegister(2600)->lane_bits, 32);

  EXPECT_EQ(d.findSpace(0)->name, "global");
  EXPECT_EQ(d.findSpace(0)->address_bits, 64);
  EXPECT_EQ(d.findSpace(1)->name, "generic");
  EXPECT_EQ(d.findSpace(3)->scope, DwarfSpaceScope::Wave);
  EXPECT_EQ(d.findSpace(4), nullptr); // reserved
  EXPECT_EQ(d.findSpace(5)->name, "private_lane");
  EXPECT_EQ(d.findSpace(5)->address_bits, 32);
  EXPECT_EQ(d.findSpace(6)->name, "private_wave");
  EXPECT_EQ(d.findSpace(7), nullptr);
  ASSERT_NE(d.findSpace(0x20 + 63), nullptr); // private_lane63: lane < 64
  EXPECT_TRUE(d.findSpace(0x20 + 63)->seed_only);
  EXPECT_EQ(d.findSpace(0x20 + 64), nullptr);

  // §3.3: lane 3's dword 2 of private_lane is private_wave (8/4)*64*4 + 3*4 = 524.
  abikit::DwarfPhysicalByte b;
  ASSERT_TRUE(d.map(5, 8, 3, 64, {}, b));
  EXPECT_EQ(b.space, 6u);
  EXPECT_EQ(b.address, 524u);

  // §4.1 (S): RA column 16, alignment factors 4 and 4, same value, "[amd:v0.0]".
  EXPECT_EQ(d.return_address_column, 16u);
  EXPECT_EQ(d.code_alignment, 4u);
  EXPECT_EQ(d.data_alignment, 4);
  EXPECT_TRUE(d.default_same_value);
  EXPECT_EQ(d.cie_augmentation, "[amd:v0.0]");
  // vcc's 768 (VCC_64 of the newest AMDGPUUsage) is reserved in reference dwarf.md §3.1.
  expectRegistersAgree(t, {"vcc"});
}

TEST(DwarfTarget, AmdgpuWave32) {
  Target t = resolve("amdgcn-amd-amdhsa", "", "gfx1030");
  const DwarfTargetInfo& d = t.dwarf;
  expectWellFormed(d);
  EXPECT_EQ(d.lanes, 32u);
  EXPECT_EQ(reg(d, 1), "EXEC_MASK_32/32");
  EXPECT_EQ(reg(d, 17), "-");
  EXPECT_EQ(reg(d, 16), "PC_64/64");
  EXPECT_EQ(reg(d, 1536), "VGPR0/1024");
  EXPECT_EQ(reg(d, 1791), "VGPR255/1024");
  EXPECT_EQ(reg(d, 1792), "-");
  EXPECT_EQ(reg(d, 2048), "AGPR0/1024");
  EXPECT_EQ(reg(d, 2560), "-"); // wave64 VGPR0
  ASSERT_NE(d.findSpace(0x20 + 31), nullptr);
  EXPECT_EQ(d.findSpace(0x20 + 32), nullptr); // private_lane32 needs a 64-lane wave
  abikit::DwarfPhysicalByte b;
  ASSERT_TRUE(d.map(5, 8, 3, 32, {}, b));
  EXPECT_EQ(b.address, 268u); // (8/4)*32*4 + 3*4
  expectRegistersAgree(t, {"vcc"});
}

// ----- NVPTX --------------------------------------------------------------------------------

TEST(DwarfTarget, NvptxRegisters) {
  Target t = resolve("nvptx64-nvidia-cuda", "", "sm_80");
  const DwarfTargetInfo& d = t.dwarf;
  expectWellFormed(d);
  // SASS registers as ptxas numbers them in .debug_frame: class << 24 | index.
  EXPECT_EQ(reg(d, 0x05000000), "R0/32");
  EXPECT_EQ(reg(d, 0x05000001), "R1/32"); // the stack pointer, ptxas's CFA register
  EXPECT_EQ(reg(d, 0x05000014), "R20/32");
  EXPECT_EQ(reg(d, 0x050000fe), "R254/32");
  EXPECT_EQ(reg(d, 0x050000ff), "RZ/32");
  EXPECT_EQ(reg(d, 0x05000100), "-");
  EXPECT_EQ(reg(d, 0x02000000), "P0/1");
  EXPECT_EQ(reg(d, 0x02000007), "P7/1");
  EXPECT_EQ(reg(d, 0x02000008), "-");
  EXPECT_EQ(reg(d, 0x01000000), "CC/0");
  EXPECT_EQ(reg(d, 0x09000006), "UP6/1");
  EXPECT_EQ(reg(d, 0x0b00003d), "UR61/32");
  EXPECT_EQ(reg(d, 0x0b0000ff), "URZ/32");
  EXPECT_EQ(reg(d, 0x04000002), "-"); // 16-bit halves: not modelled
  // PTX registers as LLVM numbers them in .debug_info: the packed name.
  EXPECT_EQ(reg(d, 0x255350), "%SP/64");
  EXPECT_EQ(reg(d, 0x2553504c), "%SPL/64");
  EXPECT_EQ(reg(d, 0x257231), "-"); // %r1: a virtual register, per function
  EXPECT_EQ(reg(d, 0), "-");

  Target old = resolve("nvptx64-nvidia-cuda", "", "sm_70");
  EXPECT_EQ(reg(old.dwarf, 0x05000014), "R20/32");
  EXPECT_EQ(reg(old.dwarf, 0x0b000001), "-"); // no uniform registers before sm_75
  Target n32 = resolve("nvptx-nvidia-cuda", "", "sm_80");
  EXPECT_EQ(reg(n32.dwarf, 0x255350), "%SP/32");
}

TEST(DwarfTarget, NvptxSpacesAndCie) {
  Target t = resolve("nvptx64-nvidia-cuda", "", "sm_90");
  const DwarfTargetInfo& d = t.dwarf;
  // DW_AT_address_class codes (PTX writer's guide; LLVM's NVPTXAS::DWARF_AddressSpace).
  EXPECT_EQ(d.findSpace(0), nullptr); // no default space
  EXPECT_EQ(d.findSpace(1), nullptr); // code
  EXPECT_EQ(d.findSpace(2), nullptr); // reg: LLVM's marker for register variables
  EXPECT_EQ(d.findSpace(4)->name, "const");
  EXPECT_EQ(d.findSpace(5)->name, "global");
  EXPECT_EQ(d.findSpace(6)->name, "local");
  EXPECT_EQ(d.findSpace(6)->scope, DwarfSpaceScope::Lane);
  EXPECT_EQ(d.findSpace(7)->name, "param");
  EXPECT_EQ(d.findSpace(8)->name, "shared");
  EXPECT_EQ(d.findSpace(8)->scope, DwarfSpaceScope::Wave);
  EXPECT_EQ(d.findSpace(12)->name, "generic");
  EXPECT_EQ(d.findSpace(12)->address_bits, 64);
  EXPECT_EQ(d.findSpace(13), nullptr);
  EXPECT_EQ(d.lanes, 1u);
  EXPECT_EQ(d.address_bits, 64);
  // ptxas 13.0's CIE (measured on cubins for sm_75-sm_120).
  EXPECT_EQ(d.return_address_column, 0x05000014u);
  EXPECT_EQ(d.code_alignment, 4u);
  EXPECT_EQ(d.data_alignment, -4);
  EXPECT_FALSE(d.default_same_value);
  EXPECT_EQ(d.cie_augmentation, "");
  EXPECT_NE(d.findRegister(d.return_address_column), nullptr);
}

TEST(DwarfTarget, NvptxRegisterNameEncoding) {
  EXPECT_EQ(abikit::nvptxDwarfRegisterNumber("%rd1"), 0x25726431u); // LLVM's test value
  EXPECT_EQ(abikit::nvptxDwarfRegisterNumber("%r5"), 0x257235u);
  EXPECT_EQ(abikit::nvptxDwarfRegisterNumber("%SP"), 0x255350u);
  EXPECT_EQ(abikit::nvptxDwarfRegisterNumber("%rd12345"), 0x2572643132333435u);
  EXPECT_EQ(abikit::nvptxDwarfRegisterNumber("%rd123456"), 0u); // 9 bytes: no number
  EXPECT_EQ(abikit::nvptxDwarfRegisterNumber(""), 0u);
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x25726432), "%rd2");
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x25723137), "%r17");
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x2572643132333435u), "%rd12345");
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x05000014), ""); // a SASS register
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x25), "");       // "%" alone
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x25720031), ""); // a NUL inside
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0x72256431), ""); // '%' not first
  EXPECT_EQ(abikit::nvptxDwarfRegisterName(0), "");
  for (const char* name : {"%p1", "%rs7", "%f10", "%fd3", "%SPL", "%r123456"})
    EXPECT_EQ(abikit::nvptxDwarfRegisterName(abikit::nvptxDwarfRegisterNumber(name)), name);
}

// ----- DPU ----------------------------------------------------------------------------------

TEST(DwarfTarget, Dpu) {
  for (const char* cpu : {"v1A", "v1B"}) {
    Target t = resolve("dpu-upmem-dpurte", "", cpu);
    const DwarfTargetInfo& d = t.dwarf;
    expectWellFormed(d);
    EXPECT_EQ(reg(d, 0), "r0/32");
    EXPECT_EQ(reg(d, 22), "r22/32"); // stack pointer
    EXPECT_EQ(reg(d, 23), "r23/32"); // return address
    EXPECT_EQ(reg(d, 24), "-");      // UPMEM's lldb: pc, but no DWARF number in the compiler
    EXPECT_EQ(reg(d, 25), "-");
    ASSERT_EQ(d.spaces.size(), 1u);
    EXPECT_EQ(d.findSpace(0)->address_bits, 32);
    EXPECT_EQ(d.findSpace(255), nullptr); // MRAM is a range of space 0, not a space
    EXPECT_EQ(d.lanes, 1u);
    EXPECT_EQ(d.address_bits, 32);
    // Derived from the fork's MC layer: RA column 0 (r0, createDPUMCRegisterInfo), 1, -4.
    EXPECT_EQ(d.return_address_column, 0u);
    EXPECT_EQ(d.code_alignment, 1u);
    EXPECT_EQ(d.data_alignment, -4);
    EXPECT_FALSE(d.default_same_value);
    expectRegistersAgree(t);
  }
}

// ----- IPU ----------------------------------------------------------------------------------

TEST(DwarfTarget, IpuWorker) {
  Target t = ipu(false);
  const DwarfTargetInfo& d = t.dwarf;
  expectWellFormed(d);
  EXPECT_EQ(reg(d, 0), "$m0/32");
  EXPECT_EQ(reg(d, 10), "$m10/32"); // lr
  EXPECT_EQ(reg(d, 11), "$m11/32"); // sp
  EXPECT_EQ(reg(d, 14), "$m14/32");
  EXPECT_EQ(reg(d, 15), "$a0/32"); // the backend's $a0; $m15 shares the number
  EXPECT_EQ(reg(d, 29), "$a14/32");
  EXPECT_EQ(reg(d, 30), "-");
  EXPECT_EQ(reg(d, 31), "$a15/32");
  EXPECT_EQ(reg(d, 32), "$m0:1/64");
  EXPECT_EQ(reg(d, 39), "$m14:15/64");
  EXPECT_EQ(reg(d, 40), "$a0:1/64");
  EXPECT_EQ(reg(d, 47), "$a14:15/64");
  EXPECT_EQ(reg(d, 48), "$a0:3/128");
  EXPECT_EQ(reg(d, 51), "$a12:15/128");
  EXPECT_EQ(reg(d, 52), "ACC0/32");
  EXPECT_EQ(reg(d, 59), "ACC7/32");
  EXPECT_EQ(reg(d, 60), "ACCD0/64");
  EXPECT_EQ(reg(d, 63), "ACCD3/64");
  EXPECT_EQ(reg(d, 64), "ACCQ0/128");
  EXPECT_EQ(reg(d, 65), "ACCQ1/128");
  EXPECT_EQ(reg(d, 66), "-");
  EXPECT_EQ(reg(d, 73), "-"); // $ap7: an encoding-only register
  EXPECT_EQ(reg(d, 76), "$a0:7/256");
  EXPECT_EQ(reg(d, 77), "$a8:15/256");
  EXPECT_EQ(reg(d, 78), "-");
  EXPECT_EQ(d.findSpace(0)->address_bits, 32);
  EXPECT_EQ(d.address_bits, 32);
  // The fork's tests: RA column 10 ($m10), code alignment 1, data alignment -4.
  EXPECT_EQ(d.return_address_column, 10u);
  EXPECT_EQ(d.code_alignment, 1u);
  EXPECT_EQ(d.data_alignment, -4);
  EXPECT_FALSE(d.default_same_value);
  EXPECT_EQ(d.cie_augmentation, "");
  // $m15's DWARF 15 is $a0's in worker code.
  expectRegistersAgree(t, {"$m15"});
  for (const abikit::RegisterInfo& r : t.registers) {
    if (r.dwarf < 0 || r.name == "$m15") continue;
    EXPECT_EQ(abikit::dwarfRegisterName(*d.findRegister(uint64_t(r.dwarf)), uint64_t(r.dwarf)),
              r.name);
  }
}

TEST(DwarfTarget, IpuSupervisor) {
  Target t = ipu(true);
  const DwarfTargetInfo& d = t.dwarf;
  expectWellFormed(d);
  EXPECT_EQ(reg(d, 15), "$m15/32"); // no $a file: 15 is $m15
  EXPECT_EQ(reg(d, 16), "-");
  EXPECT_EQ(reg(d, 37), "$m10:11/64");
  EXPECT_EQ(reg(d, 40), "-");
  EXPECT_EQ(reg(d, 52), "-");
  EXPECT_EQ(d.return_address_column, 10u);
  expectRegistersAgree(t);
}

// ----- every family -------------------------------------------------------------------------

TEST(DwarfTarget, EveryFamilyHasData) {
  for (const abikit::TargetSummary& s : abikit::knownTargets()) {
    abikit::TargetOptions o;
    o.triple = s.name;
    Target t = abikit::resolveTarget(o);
    SCOPED_TRACE(t.spelling);
    EXPECT_FALSE(t.dwarf.registers.empty());
    EXPECT_FALSE(t.dwarf.spaces.empty());
    EXPECT_GE(t.dwarf.lanes, 1u);
    EXPECT_NE(t.dwarf.findRegister(t.dwarf.return_address_column), nullptr);
    expectWellFormed(t.dwarf);
  }
}
