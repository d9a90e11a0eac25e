// Target knowledge through the reader: DPU relocation patches on the dpu.md §5.2 vectors and
// the §5.4 address fixup, DPU and IPU objects made by the test writer round-tripping, the e_flags
// `describe` predicts decoding back to the same target, link-check conflicts, the AMDGPU kernel
// descriptor, and `.riscv.attributes`.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/target.h"
#include "elf_writer.h"

#include <array>
#include <gtest/gtest.h>

namespace {

using abikit::ElfFile;
using abikit::test::ElfWriter;

// ----- DPU ---------------------------------------------------------------------------------------

struct PatchVector {
  uint32_t type;
  uint64_t value;
  uint64_t mask;
};
// dpu.md §5.2: the OR mask each relocation puts into a zeroed instruction word.
const PatchVector kDpuVectors[] = {
    {138, 0x123456, 0x652123},
    {142, 0x12345678, 0x12876345},
    {129, 0x1F, 0x10F00000},
    {131, 0xAB, 0xBA0000},
    {134, 0xA5, 0x5000A},
    {135, 0xABC, 0x18001C05000},
    {136, 0xBEEF, 0xF0BEE},
    {137, 0xFFFF, 0x3807CFF0000},
    {132, 0x7FF, 0x38000FF0000},
    {133, 0xFFF, 0x138000FF0000},
    {139, 0xABCDEF, 0x30001F0BABC},
    {140, 0x7ABCDEF, 0x38000FEBABC},
    {141, 0xFABCDEF, 0x138000FEBABC},
    {143, 0x89ABCDEF, 0x9889F0BABC},
    {145, 0x89ABCDEF, 0x101889F0BABC},
    {144, 0x1FFFF, 0xFFFFFF},
    {144, 0x0FFFF, 0xFFF00F},
};

TEST(ElfDpu, RelocationPatchesMatchTheReferenceVectors) {
  const abikit::ElfMachineInfo* m = abikit::findElfMachine(abikit::kEmDpu);
  ASSERT_NE(m, nullptr);
  for (const PatchVector& v : kDpuVectors) {
    const abikit::RelocationType* r = m->relocation(v.type);
    ASSERT_NE(r, nullptr) << v.type;
    uint8_t word[8] = {};
    abikit::applyRelocation(*r, v.value, word);
    uint64_t got = 0;
    for (int i = 0; i < 8; ++i) got |= uint64_t(word[i]) << (8 * i);
    EXPECT_EQ(got, v.mask) << r->name;
  }
}

TEST(ElfDpu, ObjectsRoundTripAndShowThePatchedField) {
  // One relocation per vector, each against its own zeroed 8-byte slot of .text.
  ElfWriter w(1, 1, abikit::kEmDpu, 0x02800000);
  const size_t n = std::size(kDpuVectors);
  uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(8 * n, 0), 0, 0, 8);
  uint32_t sym = w.addSymbol("base", 0, 0, 0, 1, uint16_t(text));
  for (size_t i = 0; i < n; ++i)
    w.addRelocation(text, 8 * i, kDpuVectors[i].type, sym, int64_t(kDpuVectors[i].value));
  std::vector<uint8_t> bytes = w.build();
  ElfFile f = ElfFile::fromMemory("dpu.o", bytes);
  EXPECT_EQ(f.flagsInfo().target, "dpu-upmem-dpurte");
  EXPECT_EQ(f.flagsInfo().property("abi_version"), "2");
  EXPECT_TRUE(f.flagsInfo().problems.empty());
  auto tables = f.relocationTables();
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].size(), n);
  for (size_t i = 0; i < n; ++i) {
    abikit::ElfRelocation r = tables[0][i];
    const abikit::RelocationType* t = abikit::elfRelocationType(f, r.type);
    ASSERT_NE(t, nullptr);
    auto patch = abikit::relocationPatch(f, tables[0], r);
    ASSERT_TRUE(patch.has_value()) << t->name;
    EXPECT_EQ(patch->value, kDpuVectors[i].value);
    EXPECT_EQ(patch->before, 0u);
    EXPECT_EQ(patch->after, kDpuVectors[i].mask) << t->name;
  }
}

TEST(ElfDpu, LinkedFilesGetTheAddressSpaceFixup) {
  // In a linked file, S is an address: an IRAM label becomes an instruction index.
  ElfWriter w(1, 1, abikit::kEmDpu, 0x02800000);
  w.e_type = 2;
  uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(16, 0), 0, 0, 8, 0, 0x80000000);
  uint32_t sym = w.addSymbol("label", 0x80000040, 0, 2, 1, uint16_t(text));
  w.addRelocation(text, 0x80000008, 138, sym, 0);
  std::vector<uint8_t> bytes = w.build();
  ElfFile f = ElfFile::fromMemory("dpu.elf", bytes);
  auto t = f.relocationTables().at(0);
  auto patch = abikit::relocationPatch(f, t, t[0]);
  ASSERT_TRUE(patch.has_value());
  EXPECT_EQ(patch->value, 0x8u);
}

TEST(ElfDpu, LinkerAddressFixupVectors) {
  // dpu.md §5.4.
  EXPECT_EQ(abikit::dpuLinkerValue(0x00000104), 0x104u);
  EXPECT_EQ(abikit::dpuLinkerValue(0x80000040), 0x8u);
  EXPECT_EQ(abikit::dpuLinkerValue(0x80000019), 0x4u);
  EXPECT_EQ(abikit::dpuLinkerValue(0x08000100), 0x100u);
  EXPECT_EQ(abikit::dpuLinkerValue(0xF0000005), 0x5u);
  EXPECT_EQ(abikit::dpuLinkerValue(0x8000FFF8), 0x1FFFu);
  // Only the low 32 bits take part.
  EXPECT_EQ(abikit::dpuLinkerValue(0x1'80000040), 0x8u);
}

TEST(ElfDpu, OtherMachinesHaveNoPatchView) {
  ElfWriter w(2, 1, abikit::kEmRiscv, 0x5);
  uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(8, 0));
  uint32_t s = w.addSymbol("f", 0, 0, 2, 1, uint16_t(text));
  w.addRelocation(text, 0, 26, s, 0); // R_RISCV_HI20: (S + A + 0x800) >> 12, not S + A
  std::vector<uint8_t> bytes = w.build();
  ElfFile f = ElfFile::fromMemory("rv.o", bytes);
  auto t = f.relocationTables().at(0);
  EXPECT_FALSE(abikit::relocationPatch(f, t, t[0]).has_value());
}

// ----- IPU ---------------------------------------------------------------------------------------

TEST(ElfIpu, ObjectsRoundTrip) {
  for (uint32_t arch : {0x1u, 0x2u, 0x21u}) {
    ElfWriter w(1, 1, abikit::kEmGraphcoreIpu, arch, 255);
    uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(64, 0), 0, 0, 4);
    uint32_t data = w.addSection(".data", 1, 3, std::vector<uint8_t>(16, 0), 0, 0, 4);
    uint32_t f = w.addSymbol("vertex", 0, 64, 2, 1, uint16_t(text));
    uint32_t g = w.addSymbol("table", 0, 16, 1, 1, uint16_t(data));
    const uint32_t types[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 16, 17};
    for (size_t i = 0; i < std::size(types); ++i)
      w.addRelocation(i % 2 ? data : text, 4 * (i / 2), types[i], i % 2 ? g : f, int64_t(4 * i));
    std::vector<uint8_t> bytes = w.build();
    ElfFile file = ElfFile::fromMemory("ipu.o", bytes);
    const abikit::ElfFlagsInfo& fi = file.flagsInfo();
    EXPECT_EQ(fi.target, "colossus-graphcore-elf");
    EXPECT_EQ(fi.processor, arch == 1 ? "ipu1" : arch == 2 ? "ipu2" : "ipu21");
    EXPECT_TRUE(fi.problems.empty());
    size_t seen = 0;
    for (const abikit::ElfRelocationTable& t : file.relocationTables())
      for (size_t i = 0; i < t.size(); ++i) {
        const abikit::RelocationType* r = abikit::elfRelocationType(file, t[i].type);
        ASSERT_NE(r, nullptr) << t[i].type;
        EXPECT_EQ(std::string(r->name).rfind("R_COLOSSUS_", 0), 0u);
        ++seen;
      }
    EXPECT_EQ(seen, std::size(types));
  }
}

// ----- every relocation table round-trips --------------------------------------------------------

TEST(ElfTables, EveryRelocationTypeRoundTrips) {
  // One relocation of each type of each family's table, written by the test writer (ELF32 for
  // DPU and IPU, ELF64 otherwise) and read back with its name.
  size_t checked = 0;
  for (const abikit::ElfMachineInfo* m : abikit::elfMachines()) {
    if (!m || m->relocations.empty()) continue;
    SCOPED_TRACE(std::string(m->name));
    const bool is32 = m->machine == abikit::kEmDpu || m->machine == abikit::kEmGraphcoreIpu;
    ElfWriter w(is32 ? 1 : 2, 1, m->machine, 0);
    const size_t n = m->relocations.size();
    uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(8 * n, 0), 0, 0, 8);
    uint32_t sym = w.addSymbol("target", 0, 0, 0, 1, 0);
    for (size_t i = 0; i < n; ++i)
      w.addRelocation(text, 8 * i, m->relocations[i].type, sym, int64_t(i));
    std::vector<uint8_t> bytes = w.build();
    ElfFile f = ElfFile::fromMemory("table.o", bytes);
    ASSERT_EQ(f.machine(), m);
    auto t = f.relocationTables().at(0);
    ASSERT_EQ(t.size(), n);
    for (size_t i = 0; i < n; ++i) {
      abikit::ElfRelocation r = t[i];
      EXPECT_EQ(r.type, m->relocations[i].type);
      EXPECT_EQ(r.addend, int64_t(i));
      const abikit::RelocationType* rt = abikit::elfRelocationType(f, r.type);
      ASSERT_NE(rt, nullptr);
      EXPECT_EQ(rt->name, m->relocations[i].name);
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

// ----- describe and elf agree --------------------------------------------------------------------

abikit::TargetOptions opts(std::string triple, std::string mcpu = "", std::string march = "",
                           std::string mabi = "", int cov = 0) {
  abikit::TargetOptions o;
  o.triple = std::move(triple);
  o.mcpu = std::move(mcpu);
  o.march = std::move(march);
  o.mabi = std::move(mabi);
  o.code_object_version = cov;
  return o;
}

std::string tripleArch(std::string_view t) {
  return std::string(t.substr(0, t.find('-')));
}

TEST(ElfDescribeAgreement, PredictedFlagsDecodeBackToTheTarget) {
  const abikit::TargetOptions cases[] = {
      opts("riscv32-unknown-elf", "", "rv32i", "ilp32"),
      opts("riscv32-unknown-elf", "", "rv32imac", "ilp32"),
      opts("riscv32-unknown-elf", "", "rv32imafc", "ilp32f"),
      opts("riscv32-unknown-elf", "", "rv32imafdc", "ilp32d"),
      opts("riscv32-unknown-elf", "", "rv32e", "ilp32e"),
      opts("riscv32-unknown-elf", "", "rv32ec", "ilp32e"),
      opts("riscv64-unknown-elf", "", "rv64gc", "lp64d"),
      opts("riscv64-unknown-elf", "", "rv64imac", "lp64"),
      opts("riscv64-unknown-elf", "", "rv64imafc", "lp64f"),
      opts("riscv64-unknown-linux-gnu", "", "rv64gc", "lp64"),
      opts("riscv64-unknown-elf", "", "rv64gc_ztso", "lp64d"),
      opts("riscv64_linux"),
      opts("snitch"),
      opts("amdgcn-amd-amdhsa", "gfx906"),
      opts("amdgcn-amd-amdhsa", "gfx906:xnack+:sramecc-"),
      opts("amdgcn-amd-amdhsa", "gfx90a:xnack-", "", "", 5),
      opts("amdgcn-amd-amdhsa", "gfx1030", "", "", 4),
      opts("amdgcn-amd-amdhsa", "gfx803", "", "", 4),
      opts("amdgcn-amd-amdhsa", "gfx908:sramecc+", "", "", 5),
      opts("amdgcn-amd-amdhsa", "gfx90a:xnack+:sramecc+", "", "", 4),
      opts("amdgcn-amd-amdhsa", "gfx1100", "", "", 5),
      opts("dpu-upmem-dpurte"),
      opts("dpu-upmem-dpurte", "v1B"),
      opts("colossus-graphcore-elf", "ipu1"),
      opts("colossus-graphcore-elf", "ipu2"),
      opts("colossus-graphcore-elf", "ipu21"),
      opts("nvptx64-nvidia-cuda", "sm_75"),
      opts("nvptx64-nvidia-cuda", "sm_90a"),
      opts("nvptx-nvidia-cuda", "sm_80"),
  };
  int checked = 0;
  for (const abikit::TargetOptions& o : cases) {
    SCOPED_TRACE(o.triple + " " + o.mcpu + " " + o.march + " " + o.mabi);
    abikit::Target t;
    try {
      t = abikit::resolveTarget(o);
    } catch (const abikit::Error& e) {
      ADD_FAILURE() << e.message();
      continue;
    }
    ElfWriter w(t.elf.elf_class, t.elf.data, t.elf.machine, t.elf.flags, t.elf.osabi,
                t.elf.abi_version);
    std::vector<uint8_t> bytes = w.build();
    ElfFile f = ElfFile::fromMemory("predicted.o", bytes);
    ASSERT_NE(f.machine(), nullptr);
    EXPECT_EQ(f.machine()->family, t.family);
    EXPECT_EQ(f.machine()->name, t.elf.machine_name);
    const abikit::ElfFlagsInfo& fi = f.flagsInfo();
    EXPECT_TRUE(fi.problems.empty()) << fi.problems.front();
    EXPECT_EQ(tripleArch(fi.target), t.arch);
    switch (t.family) {
    case abikit::Family::RISCV:
      EXPECT_EQ(fi.property("abi"), abikit::riscvAbiName(t.riscv().abi));
      EXPECT_EQ(fi.property("rve"), t.riscv().e_abi ? "yes" : "no");
      EXPECT_EQ(fi.property("rvc"), t.riscv().isa.has("c") ? "yes" : "no");
      EXPECT_EQ(fi.property("tso"), t.riscv().isa.has("ztso") ? "yes" : "no");
      break;
    case abikit::Family::AMDGPU: {
      EXPECT_EQ(fi.target, t.triple);
      EXPECT_EQ(fi.processor, t.cpu);
      EXPECT_EQ(fi.property("code_object_version"), std::to_string(t.amdgpu().code_object_version));
      break;
    }
    case abikit::Family::DPU:
      EXPECT_EQ(fi.target, t.triple);
      EXPECT_EQ(fi.property("abi_version"), std::to_string(t.dpu().abi_version));
      break;
    case abikit::Family::IPU:
      EXPECT_EQ(fi.target, t.triple);
      EXPECT_EQ(fi.processor, t.cpu);
      break;
    case abikit::Family::X86: // host objects are not read yet: no cases above
    case abikit::Family::AArch64:
      ADD_FAILURE() << "unexpected host target";
      break;
    case abikit::Family::NVPTX:
      EXPECT_EQ(fi.target, t.triple);
      // ptxas 13.0 writes the same e_flags (and .note.nv.cuinfo) for sm_90a as for sm_90: the
      // "a" is not in the object, so the decoded processor is the base one (docs/elf.md).
      if (t.nvptx().arch_specific)
        EXPECT_EQ(fi.processor, "sm_" + std::to_string(t.nvptx().sm));
      else
        EXPECT_EQ(fi.processor, t.cpu);
      break;
    }
    // And the decoded processor resolves again to the same ELF identity.
    if (!fi.processor.empty() && t.family != abikit::Family::RISCV) {
      abikit::TargetOptions back = o;
      back.triple = fi.target;
      back.mcpu = fi.processor;
      if (t.family == abikit::Family::AMDGPU) {
        for (const char* feature : {"sramecc", "xnack"}) {
          std::string_view v = fi.property(feature);
          if (v == "on") back.mcpu += std::string(":") + feature + "+";
          if (v == "off") back.mcpu += std::string(":") + feature + "-";
        }
      }
      abikit::Target again = abikit::resolveTarget(back);
      EXPECT_EQ(again.elf.flags, t.elf.flags);
      EXPECT_EQ(again.elf.osabi, t.elf.osabi);
      EXPECT_EQ(again.elf.abi_version, t.elf.abi_version);
    }
    ++checked;
  }
  EXPECT_EQ(checked, int(std::size(cases)));
}

// ----- link-check --------------------------------------------------------------------------------

std::vector<uint8_t> headerOnly(uint8_t cls, uint16_t machine, uint32_t flags, uint8_t osabi = 0,
                                uint8_t abi = 0) {
  ElfWriter w(cls, 1, machine, flags, osabi, abi);
  w.addSection(".text", 1, 6, {0, 0, 0, 0});
  return w.build();
}

std::vector<std::string> conflicts(const std::vector<std::vector<uint8_t>>& objs) {
  std::vector<ElfFile> files;
  for (size_t i = 0; i < objs.size(); ++i)
    files.push_back(ElfFile::fromMemory("o" + std::to_string(i) + ".o", objs[i]));
  std::vector<const ElfFile*> ptrs;
  for (const ElfFile& f : files) ptrs.push_back(&f);
  std::vector<std::string> lines;
  for (const abikit::LinkConflict& c : abikit::linkConflicts(ptrs)) lines.push_back(c.line());
  return lines;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

TEST(ElfLinkCheck, CompatibleObjects) {
  EXPECT_TRUE(
      conflicts({headerOnly(2, abikit::kEmRiscv, 0x5), headerOnly(2, abikit::kEmRiscv, 0x4)})
          .empty());
  EXPECT_TRUE(conflicts({headerOnly(1, abikit::kEmDpu, 0x02800000),
                         headerOnly(1, abikit::kEmDpu, 0x02800000)})
                  .empty());
  EXPECT_TRUE(conflicts({headerOnly(1, abikit::kEmGraphcoreIpu, 2, 255),
                         headerOnly(1, abikit::kEmGraphcoreIpu, 2, 255)})
                  .empty());
  EXPECT_TRUE(conflicts({headerOnly(2, abikit::kEmAmdgpu, 0x52f, 64, 2),
                         headerOnly(2, abikit::kEmAmdgpu, 0x52f, 64, 2)})
                  .empty());
  EXPECT_TRUE(conflicts({headerOnly(2, abikit::kEmRiscv, 0x5)}).empty());
}

TEST(ElfLinkCheck, Conflicts) {
  // Different machines and classes.
  auto c = conflicts(
      {headerOnly(2, abikit::kEmRiscv, 0x5), headerOnly(2, abikit::kEmAmdgpu, 0x52f, 64, 2)});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(mentions(c, "different machines: EM_RISCV (243) vs EM_AMDGPU (224)"));
  EXPECT_TRUE(mentions(c, "o0.o vs o1.o"));
  c = conflicts({headerOnly(1, abikit::kEmRiscv, 0x4), headerOnly(2, abikit::kEmRiscv, 0x4)});
  EXPECT_TRUE(mentions(c, "different ELF classes"));
  // The root cause alone: across classes the float-ABI bits are not compared.
  c = conflicts({headerOnly(1, abikit::kEmRiscv, 0x4), headerOnly(2, abikit::kEmRiscv, 0x0)});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], "o0.o vs o1.o: different ELF classes: ELFCLASS32 vs ELFCLASS64");
  // DPU: ABI version 2 against an object without the version flag.
  c = conflicts({headerOnly(1, abikit::kEmDpu, 0x02800000), headerOnly(1, abikit::kEmDpu, 0)});
  EXPECT_TRUE(mentions(c, "DPU ABI version")) << (c.empty() ? "" : c[0]);
  // RISC-V: float ABI and RVE.
  c = conflicts({headerOnly(2, abikit::kEmRiscv, 0x5), headerOnly(2, abikit::kEmRiscv, 0x3)});
  EXPECT_FALSE(c.empty());
  c = conflicts({headerOnly(1, abikit::kEmRiscv, 0x8), headerOnly(1, abikit::kEmRiscv, 0x0)});
  EXPECT_FALSE(c.empty());
  // AMDGPU: different processors; xnack on vs off.
  c = conflicts({headerOnly(2, abikit::kEmAmdgpu, 0x52f, 64, 2),
                 headerOnly(2, abikit::kEmAmdgpu, 0x530, 64, 2)});
  EXPECT_FALSE(c.empty());
  c = conflicts({headerOnly(2, abikit::kEmAmdgpu, 0x33f, 64, 2),
                 headerOnly(2, abikit::kEmAmdgpu, 0x23f, 64, 2)});
  EXPECT_FALSE(c.empty());
  // IPU: different architectures.
  c = conflicts({headerOnly(1, abikit::kEmGraphcoreIpu, 1, 255),
                 headerOnly(1, abikit::kEmGraphcoreIpu, 2, 255)});
  EXPECT_TRUE(mentions(c, "IPU architecture"));
  // Three files: each is compared with the first.
  c = conflicts({headerOnly(2, abikit::kEmRiscv, 0x5), headerOnly(2, abikit::kEmRiscv, 0x5),
                 headerOnly(2, abikit::kEmRiscv, 0x1)});
  EXPECT_TRUE(mentions(c, "o0.o vs o2.o"));
  EXPECT_FALSE(mentions(c, "o0.o vs o1.o"));
}

TEST(ElfLinkCheck, UnknownMachinesAreAnError) {
  EXPECT_THROW(conflicts({headerOnly(2, 0x4242, 0), headerOnly(2, 0x4242, 0)}), abikit::Error);
  // Different machines need no machine knowledge.
  auto c = conflicts({headerOnly(2, 0x4242, 0), headerOnly(2, abikit::kEmRiscv, 0)});
  EXPECT_TRUE(mentions(c, "different machines"));
}

TEST(ElfLinkCheck, ExecutablesCannotBeLinked) {
  ElfWriter w(2, 1, abikit::kEmRiscv, 0x5);
  w.e_type = 2;
  w.addSection(".text", 1, 6, {0, 0, 0, 0});
  std::vector<uint8_t> exe = w.build();
  auto c = conflicts({headerOnly(2, abikit::kEmRiscv, 0x5), exe});
  EXPECT_TRUE(mentions(c, "ET_EXEC"));
}

// ----- AMDGPU kernel descriptor ------------------------------------------------------------------

TEST(ElfAmdgpu, KernelDescriptor) {
  // gpu.md §2.8, K03 on gfx906: kernarg size 0x24, rsrc1 0x00af0000, rsrc2 0x8c, properties 0x9.
  std::vector<uint8_t> kd(64, 0);
  kd[8] = 0x24;
  kd[48 + 2] = 0xaf;
  kd[52] = 0x8c;
  kd[56] = 0x09;
  ElfWriter w(2, 1, abikit::kEmAmdgpu, 0x52f, 64, 2);
  uint32_t ro = w.addSection(".rodata", 1, 2, kd, 0, 0, 64);
  w.addSymbol("k03.kd", 0, 64, 1, 1, uint16_t(ro));
  w.addSymbol("other", 0, 64, 1, 1, uint16_t(ro));
  std::vector<uint8_t> bytes = w.build();
  ElfFile f = ElfFile::fromMemory("k.o", bytes);
  auto t = f.symbolTables().at(0);
  auto d = abikit::amdgpuKernelDescriptorFor(f, t[1]);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->kernarg_size, 0x24u);
  EXPECT_EQ(d->compute_pgm_rsrc1, 0x00af0000u);
  EXPECT_EQ(d->compute_pgm_rsrc2, 0x8cu);
  EXPECT_EQ(d->kernel_code_properties, 0x9u);
  ASSERT_EQ(d->properties.size(), 2u);
  EXPECT_EQ(d->properties[0], "ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER");
  EXPECT_EQ(d->properties[1], "ENABLE_SGPR_KERNARG_SEGMENT_PTR");
  EXPECT_TRUE(d->problems.empty());
  EXPECT_FALSE(abikit::amdgpuKernelDescriptorFor(f, t[2]).has_value()); // not ".kd"
  kd[30] = 1;
  kd[57] = 0x80; // reserved bit 15
  std::array<uint8_t, 64> raw;
  std::copy(kd.begin(), kd.end(), raw.begin());
  auto bad = abikit::decodeAmdgpuKernelDescriptor(raw);
  EXPECT_EQ(bad.problems.size(), 2u);
}

// ----- .riscv.attributes -------------------------------------------------------------------------

TEST(ElfRiscv, Attributes) {
  for (uint8_t data : {1, 2}) {
    ElfWriter w(1, data, abikit::kEmRiscv, 0x5);
    // Format 'A'; subsection "riscv": Tag_File { stack_align 16, arch "rv32i2p1_c2p0",
    // unaligned_access 1, priv_spec 1, atomic_abi 3, unknown ignorable tag 65 "x" }.
    std::vector<uint8_t> file = {4, 16, 5};
    for (char c : std::string("rv32i2p1_c2p0")) file.push_back(uint8_t(c));
    file.push_back(0);
    for (int b : {6, 1, 8, 1, 14, 3, 65, int('x'), 0}) file.push_back(uint8_t(b));
    std::vector<uint8_t> sub;
    for (char c : std::string("riscv")) sub.push_back(uint8_t(c));
    sub.push_back(0);
    sub.push_back(1);
    w.put32(sub, uint32_t(5 + file.size()));
    sub.insert(sub.end(), file.begin(), file.end());
    std::vector<uint8_t> sec = {'A'};
    w.put32(sec, uint32_t(4 + sub.size()));
    sec.insert(sec.end(), sub.begin(), sub.end());
    uint32_t s = w.addSection(".riscv.attributes", abikit::kShtRiscvAttributes, 0, sec);
    std::vector<uint8_t> bytes = w.build();
    ElfFile f = ElfFile::fromMemory("rv.o", bytes);
    abikit::BuildAttributes a = abikit::parseRiscvAttributes(f, f.sections()[s]);
    EXPECT_EQ(a.format_version, 'A');
    ASSERT_EQ(a.subsections.size(), 1u);
    const auto& attrs = a.subsections[0].attributes;
    ASSERT_EQ(attrs.size(), 6u);
    EXPECT_EQ(attrs[0].tag_name, "Tag_RISCV_stack_align");
    EXPECT_EQ(attrs[0].int_value, 16u);
    EXPECT_EQ(attrs[0].description, "Stack alignment is 16-bytes");
    EXPECT_EQ(attrs[1].tag_name, "Tag_RISCV_arch");
    EXPECT_EQ(attrs[1].string_value, "rv32i2p1_c2p0");
    EXPECT_EQ(attrs[2].tag_name, "Tag_RISCV_unaligned_access");
    EXPECT_EQ(attrs[3].tag_name, "Tag_RISCV_priv_spec");
    EXPECT_EQ(attrs[4].description, "A7");
    EXPECT_EQ(attrs[5].tag, 65u);
    EXPECT_EQ(attrs[5].string_value, "x");
    EXPECT_TRUE(a.problems.empty()); // 65 % 128 >= 64: ignorable
  }
}

} // namespace
