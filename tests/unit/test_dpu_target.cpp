// UPMEM DPU target: the model (processor sizes, options; the CLI's JSON is
// tests/cli/test_describe_cli.cpp), the relocation patches against the test vectors of
// reference/dpu.md §5.2, and the e_flags decoding and link rules of the DPU linker.
#include "abikit/diag.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <array>
#include <gtest/gtest.h>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace {

abikit::Target dpu(const std::string& cpu = "") {
  abikit::TargetOptions o;
  o.triple = "dpu-upmem-dpurte";
  o.mcpu = cpu;
  return abikit::resolveTarget(o);
}

const abikit::ElfMachineInfo& dpuElf() {
  const abikit::ElfMachineInfo* m = abikit::findElfMachine(abikit::kEmDpu);
  EXPECT_NE(m, nullptr);
  return *m;
}

/// The word a relocation produces from a zeroed 8-byte instruction slot.
uint64_t patch(uint32_t type, uint64_t value, uint64_t initial = 0) {
  const abikit::RelocationType* rel = dpuElf().relocation(type);
  EXPECT_NE(rel, nullptr) << type;
  if (!rel) return 0;
  std::array<uint8_t, 8> field{};
  for (size_t i = 0; i < 8; ++i) field[i] = uint8_t(initial >> (8 * i));
  abikit::applyRelocation(*rel, value, std::span<uint8_t>(field.data(), rel->size));
  uint64_t w = 0;
  for (size_t i = 0; i < 8; ++i) w |= uint64_t(field[i]) << (8 * i);
  return w;
}

} // namespace

TEST(DpuTarget, VersionSizes) {
  abikit::Target a = dpu();
  EXPECT_EQ(a.cpu, "v1A");
  EXPECT_EQ(a.dpu().version, abikit::DpuVersion::V1A);
  EXPECT_EQ(a.dpu().wram_bytes, 65536u);
  EXPECT_EQ(a.dpu().iram_bytes, 32768u);
  EXPECT_EQ(a.dpu().iram_instructions, 4096u);
  EXPECT_EQ(a.dpu().atomic_bytes, 256u);
  EXPECT_EQ(a.dpu().threads, 24u);

  abikit::Target b = dpu("v1B");
  EXPECT_EQ(b.cpu, "v1B");
  EXPECT_EQ(b.dpu().wram_bytes, 63488u);
  EXPECT_EQ(b.dpu().iram_bytes, 31744u);
  EXPECT_EQ(b.dpu().iram_instructions, 3968u);
  EXPECT_EQ(b.dpu().atomic_bytes, 64u);
  EXPECT_EQ(b.dpu().threads, 16u);
  // The memory regions agree with the processor sizes.
  std::map<std::string_view, uint64_t> sizes;
  for (const abikit::MemoryRegion& m : b.memory) sizes[m.name] = m.size;
  EXPECT_EQ(sizes["WRAM"], 63488u);
  EXPECT_EQ(sizes["IRAM"], 3968u * 8u);
  EXPECT_EQ(sizes["atomic"], 64u);
  EXPECT_EQ(sizes["MRAM"], 0u); // not fixed by the processor description

  auto macro = [](const abikit::Target& t, const std::string& name) {
    for (const auto& [k, v] : abikit::predefinedMacros(t, abikit::Language::C))
      if (k == name) return v;
    return std::string("<undefined>");
  };
  EXPECT_EQ(macro(a, "NR_THREADS"), "24");
  EXPECT_EQ(macro(b, "NR_THREADS"), "16");
  EXPECT_EQ(macro(a, "__DPU__"), "1");
  EXPECT_EQ(macro(a, "__SIZEOF_LONG__"), "8");
  EXPECT_EQ(macro(a, "__SIZEOF_POINTER__"), "4");
}

TEST(DpuTarget, TriplesAndOptions) {
  abikit::TargetOptions o;
  o.triple = "dpuv1b-upmem-dpurte";
  EXPECT_EQ(abikit::resolveTarget(o).cpu, "v1B");
  o.mcpu = "v1A";
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error); // the triple says v1B
  o.triple = "dpu-upmem-dpurte-extra";
  o.mcpu.clear();
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error);
  o.triple = "dpu-foo-dpurte";
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error);
  EXPECT_THROW(dpu("v2"), abikit::Error);
  o.triple = "dpu-upmem-dpurte";
  o.msupervisor = true;
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error);
}

// ----- relocations ----------------------------------------------------------------------------

TEST(DpuRelocations, TableMatchesTheSeed) {
  const abikit::ElfMachineInfo& m = dpuElf();
  EXPECT_EQ(m.name, "EM_DPU");
  EXPECT_EQ(m.family, abikit::Family::DPU);
  const std::pair<uint32_t, const char*> expected[] = {
      {0, "R_DPU_NONE"},
      {1, "R_DPU_32"},
      {2, "R_DPU_8"},
      {3, "R_DPU_16"},
      {4, "R_DPU_64"},
      {128, "R_DPU_PC"},
      {129, "R_DPU_IMM5"},
      {130, "R_DPU_IMM8_DMA"},
      {131, "R_DPU_IMM24_PC"},
      {132, "R_DPU_IMM27_PC"},
      {133, "R_DPU_IMM28_PC_OPC8"},
      {134, "R_DPU_IMM8_STR"},
      {135, "R_DPU_IMM12_STR"},
      {136, "R_DPU_IMM16_STR"},
      {137, "R_DPU_IMM16_ATM"},
      {138, "R_DPU_IMM24"},
      {139, "R_DPU_IMM24_RB"},
      {140, "R_DPU_IMM27"},
      {141, "R_DPU_IMM28"},
      {142, "R_DPU_IMM32"},
      {143, "R_DPU_IMM32_ZERO_RB"},
      {144, "R_DPU_IMM17_24"},
      {145, "R_DPU_IMM32_DUS_RB"},
  };
  EXPECT_EQ(m.relocations.size(), std::size(expected));
  for (const auto& [type, name] : expected) {
    const abikit::RelocationType* r = m.relocation(type);
    ASSERT_NE(r, nullptr) << name;
    EXPECT_EQ(r->name, name);
    EXPECT_EQ(r->size, type == 0 ? 0 : type == 2 ? 1 : type == 3 ? 2 : type == 1 ? 4 : 8) << name;
  }
  // The value widths the seed gives for the instruction fields.
  const std::pair<uint32_t, unsigned> widths[] = {
      {128, 16}, {129, 5},  {130, 8},  {131, 8},  {132, 11}, {133, 12},
      {134, 8},  {135, 12}, {136, 16}, {137, 16}, {138, 24}, {139, 24},
      {140, 27}, {141, 28}, {142, 32}, {143, 32}, {144, 17}, {145, 32}};
  for (const auto& [type, bits] : widths) EXPECT_EQ(m.relocation(type)->value_bits, bits) << type;
  EXPECT_TRUE(m.relocation(144)->sign_extend);
}

TEST(DpuRelocations, TestVectorsOfReference) {
  // reference/dpu.md §5.2: the mask ORed into a zeroed instruction word.
  struct Vec {
    uint32_t type;
    uint64_t value, mask;
  };
  const Vec vectors[] = {
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
  for (const Vec& v : vectors) {
    char what[64];
    std::snprintf(what, sizeof what, "type %u value 0x%llx", v.type, (unsigned long long)v.value);
    EXPECT_EQ(patch(v.type, v.value), v.mask) << what;
  }
}

TEST(DpuRelocations, EveryTypeWorkedByHand) {
  // Each instruction field on its own, value all ones, so every moved bit shows.
  EXPECT_EQ(patch(129, 0x1F), 0x10F00000u); // IMM5: bits 20..23 and 28
  EXPECT_EQ(patch(131, 0xFF), 0x00FF0000u); // IMM24_PC: bits 16..23
  EXPECT_EQ(patch(132, 0x7FF), 0x38000FF0000u);
  EXPECT_EQ(patch(134, 0xFF), 0x000F000Fu);   // IMM8_STR: bits 16..19, 0..3
  EXPECT_EQ(patch(136, 0xFFFF), 0x000F0FFFu); // IMM16_STR: bits 16..19, 0..11
  EXPECT_EQ(patch(138, 0xFFFFFF), 0x00FFFFFFu);
  EXPECT_EQ(patch(142, 0xFFFFFFFF), 0xFFFFFFFFu);
  EXPECT_EQ(patch(139, 0xFFFFFF), 0x38001F0FFFFu); // IMM24_RB: 0..15, 20..24, 39..41
  EXPECT_EQ(patch(143, 0xFFFFFFFF), 0x9CFFF0FFFFu);
  EXPECT_EQ(patch(145, 0xFFFFFFFF), 0x101CFFF0FFFFu);
  // IMM17_24 of a negative value: bit 16 is copied to bits 5..11.
  EXPECT_EQ(patch(144, 0x10000), 0x00000FF0u);
  EXPECT_EQ(patch(144, 0x00001), 0x00100000u);
  // R_DPU_PC overwrites bits 0..15; R_DPU_IMM8_DMA overwrites bits 24..31; others OR.
  EXPECT_EQ(patch(128, 0x1234, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFFFFFF1234ull);
  EXPECT_EQ(patch(130, 0x5A, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFF5AFFFFFFull);
  EXPECT_EQ(patch(138, 0, 0x0102030405060708ull), 0x0102030405060708ull);
  // Data relocations overwrite their bytes, little-endian.
  EXPECT_EQ(patch(1, 0x80000040, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFF80000040ull);
  EXPECT_EQ(patch(2, 0x1AB, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFFFFFFFFABull);
  EXPECT_EQ(patch(3, 0x12345, 0xFFFFFFFFFFFFFFFFull), 0xFFFFFFFFFFFF2345ull);
  EXPECT_EQ(patch(4, 0x1122334455667788ull), 0x1122334455667788ull);
  EXPECT_EQ(patch(0, 0x1234, 0x77), 0x77u); // R_DPU_NONE patches nothing
}

// ----- e_flags --------------------------------------------------------------------------------

TEST(DpuElfFlags, Decode) {
  const abikit::ElfMachineInfo& m = dpuElf();
  abikit::ElfHeaderFacts h{1, 1, 0, 0, abikit::kEmDpu, 0x02800000};
  abikit::ElfFlagsInfo ok = m.decodeFlags(h);
  EXPECT_EQ(ok.target, "dpu-upmem-dpurte");
  EXPECT_EQ(ok.property("abi_version"), "2");
  EXPECT_TRUE(ok.problems.empty());
  EXPECT_EQ(ok.flag_names.front(), "EF_DPU_EABI_SET");

  h.flags = 0x01800000; // an older ABI version
  abikit::ElfFlagsInfo v1 = m.decodeFlags(h);
  EXPECT_EQ(v1.property("abi_version"), "1");
  EXPECT_EQ(v1.problems.size(), 1u);

  h.flags = 0; // no ABI flag: the linker's sentinel, never equal to a real version
  abikit::ElfFlagsInfo none = m.decodeFlags(h);
  EXPECT_EQ(none.property("abi_version"), "none");
  ASSERT_EQ(none.problems.size(), 1u);
  EXPECT_NE(none.problems[0].find("bit 23"), std::string::npos);

  h.flags = 0x02000000; // a version byte without the flag is ignored
  EXPECT_EQ(m.decodeFlags(h).property("abi_version"), "none");
  EXPECT_EQ(m.decodeFlags(h).problems.size(), 2u);

  h.flags = 0x02800010;
  abikit::ElfFlagsInfo unknown = m.decodeFlags(h);
  ASSERT_EQ(unknown.problems.size(), 1u);
  EXPECT_NE(unknown.problems[0].find("0x10"), std::string::npos);

  h = {2, 2, 3, 0, abikit::kEmDpu, 0x02800000};
  EXPECT_EQ(m.decodeFlags(h).problems.size(), 3u); // class, byte order, OSABI
}

TEST(DpuElfFlags, LinkConflicts) {
  const abikit::ElfMachineInfo& m = dpuElf();
  auto decode = [&](uint32_t flags) { return m.decodeFlags({1, 1, 0, 0, abikit::kEmDpu, flags}); };
  std::vector<std::string> out;
  m.linkConflicts(decode(0x02800000), decode(0x02800000), out);
  EXPECT_TRUE(out.empty());
  m.linkConflicts(decode(0), decode(0), out); // both decode to the sentinel: they link
  EXPECT_TRUE(out.empty());
  m.linkConflicts(decode(0x02800000), decode(0), out);
  EXPECT_EQ(out.size(), 1u);
  m.linkConflicts(decode(0x02800000), decode(0x01800000), out);
  EXPECT_EQ(out.size(), 2u);
}
