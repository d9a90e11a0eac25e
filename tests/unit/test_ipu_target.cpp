// Graphcore IPU target (the model through the CLI's JSON is tests/cli/test_describe_cli.cpp):
// processors and modes, the R_COLOSSUS_* relocations against the Graphcore
// linker's own test vectors (lld/test/ELF/colossus-*.s in the fork) and values worked by hand
// from reference/ipu.md §5, e_flags decoding, predefined macros and <ipudef.h>.
#include "abikit/diag.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <array>
#include <gtest/gtest.h>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace {

abikit::Target ipu(const std::string& cpu = "", bool supervisor = false, bool worker = false,
                   abikit::AbiVariant variant = abikit::AbiVariant::Compiler) {
  abikit::TargetOptions o;
  o.triple = "colossus-graphcore-elf";
  o.mcpu = cpu;
  o.msupervisor = supervisor;
  o.mworker = worker;
  o.abi_variant = variant;
  return abikit::resolveTarget(o);
}

std::string macro(const abikit::Target& t, const std::string& name) {
  for (const auto& [k, v] : abikit::predefinedMacros(t, abikit::Language::C))
    if (k == name) return v;
  return "<undefined>";
}

const abikit::ElfMachineInfo& ipuElf() {
  const abikit::ElfMachineInfo* m = abikit::findElfMachine(abikit::kEmGraphcoreIpu);
  EXPECT_NE(m, nullptr);
  return *m;
}

/// Places `field_value` with relocation `type` into `initial` (the bytes at r_offset).
uint64_t place(uint32_t type, uint64_t field_value, uint64_t initial = 0) {
  const abikit::RelocationType* rel = ipuElf().relocation(type);
  EXPECT_NE(rel, nullptr) << type;
  if (!rel) return 0;
  std::array<uint8_t, 8> bytes{};
  for (size_t i = 0; i < 8; ++i) bytes[i] = uint8_t(initial >> (8 * i));
  abikit::applyRelocation(*rel, field_value, std::span<uint8_t>(bytes.data(), rel->size));
  uint64_t w = 0;
  for (size_t i = 0; i < 8; ++i) w |= uint64_t(bytes[i]) << (8 * i);
  return w;
}

/// What the linker writes for symbol value plus addend `s_plus_a`.
uint64_t link(uint32_t type, uint64_t s_plus_a, uint64_t initial, uint32_t base = 0x40000) {
  return place(type, abikit::ipuRelocationValue(type, s_plus_a, base), initial);
}

} // namespace

// ----- processors, modes, triples -------------------------------------------------------------

TEST(IpuTarget, Processors) {
  struct Row {
    const char* cpu;
    uint32_t flags, tmem, repeat;
    const char* version;
  };
  for (const Row& r : {Row{"ipu1", 0x1, 0x40000, 12, "1"}, Row{"ipu2", 0x2, 0x4c000, 16, "2"},
                       Row{"ipu21", 0x21, 0x4c000, 16, "21"}}) {
    abikit::Target t = ipu(r.cpu);
    EXPECT_EQ(t.cpu, r.cpu);
    EXPECT_EQ(t.elf.flags, r.flags) << r.cpu;
    EXPECT_EQ(t.elf.machine, 248);
    EXPECT_EQ(t.ipu().tmem_region0_base, r.tmem) << r.cpu;
    ASSERT_EQ(t.memory.size(), 1u);
    EXPECT_EQ(t.memory[0].base, r.tmem) << r.cpu;
    EXPECT_EQ(macro(t, "__IPU_ARCH_VERSION__"), r.version);
    EXPECT_EQ(macro(t, "__IPU_REPEAT_COUNT_SIZE__"), std::to_string(r.repeat));
  }
  // The fork's driver, backend and linker default to ipu1.
  abikit::Target def = ipu();
  EXPECT_EQ(def.cpu, "ipu1");
  EXPECT_EQ(def.ipu().arch, abikit::IpuArch::Ipu1);
  EXPECT_EQ(def.elf.flags, 0x1u);
  // -march is the Graphcore driver's spelling of the processor.
  abikit::TargetOptions o;
  o.triple = "colossus-graphcore-elf";
  o.march = "ipu21";
  EXPECT_EQ(abikit::resolveTarget(o).cpu, "ipu21");
  o.mcpu = "ipu21";
  EXPECT_EQ(abikit::resolveTarget(o).cpu, "ipu21");
  o.mcpu = "ipu2";
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error);
  EXPECT_THROW(ipu("ipu3"), abikit::Error);
  EXPECT_THROW(ipu("ipu-generic"), abikit::Error);
  EXPECT_THROW(ipu("IPU2"), abikit::Error);
}

TEST(IpuTarget, Modes) {
  abikit::Target w = ipu("ipu2");
  EXPECT_EQ(w.ipu().mode, abikit::IpuMode::Worker);
  EXPECT_TRUE(w.ipu().hasArf());
  EXPECT_TRUE(w.ipu().halfArgsAndReturns());
  EXPECT_NE(w.findRegister("$a0"), nullptr);
  EXPECT_NE(w.findRegister("$azero"), nullptr);
  EXPECT_EQ(macro(w, "__SUPERVISOR__"), "<undefined>");
  EXPECT_EQ(ipu("ipu2", false, true).ipu().mode, abikit::IpuMode::Worker); // -mworker alone

  abikit::Target s = ipu("ipu2", true);
  EXPECT_EQ(s.ipu().mode, abikit::IpuMode::Supervisor);
  EXPECT_FALSE(s.ipu().hasArf());
  EXPECT_FALSE(s.ipu().halfArgsAndReturns());
  EXPECT_EQ(s.findRegister("$a0"), nullptr);
  EXPECT_EQ(s.findRegister("$a0:1"), nullptr);
  EXPECT_NE(s.findRegister("$m0:1"), nullptr);
  EXPECT_EQ(s.registers.size(), 24u);
  EXPECT_EQ(macro(s, "__SUPERVISOR__"), "1");
  EXPECT_EQ(s.spelling, "colossus-graphcore-elf -mcpu=ipu2 -msupervisor");
  // The data model does not change with the mode; the ELF identity neither.
  EXPECT_EQ(s.data.of(abikit::FloatKind::Fp16).size, 2);
  EXPECT_EQ(s.elf.flags, w.elf.flags);

  abikit::Target b = ipu("ipu2", true, true);
  EXPECT_EQ(b.ipu().mode, abikit::IpuMode::Both);
  EXPECT_EQ(b.findRegister("$a0"), nullptr);
  EXPECT_FALSE(b.ipu().halfArgsAndReturns());
  EXPECT_EQ(b.spelling, "colossus-graphcore-elf -mcpu=ipu2 -msupervisor -mworker");
}

TEST(IpuTarget, DocumentedVariantRegisterRoles) {
  abikit::Target c = ipu("ipu2");
  abikit::Target d = ipu("ipu2", false, false, abikit::AbiVariant::Documented);
  EXPECT_EQ(d.spelling, "colossus-graphcore-elf -mcpu=ipu2 --abi-variant=documented");
  // The backend saves $m10 around calls; the seed's table calls it caller save.
  EXPECT_TRUE(c.findRegister("$m10")->roles & abikit::kRoleCalleeSaved);
  EXPECT_FALSE(d.findRegister("$m10")->roles & abikit::kRoleCalleeSaved);
  EXPECT_TRUE(d.findRegister("$m10")->roles & abikit::kRoleCallerSaved);
  // The backend returns f32-class values in $a0-$a5; the seed says $a0-$a3.
  EXPECT_TRUE(c.findRegister("$a5")->roles & abikit::kRoleReturn);
  EXPECT_FALSE(d.findRegister("$a5")->roles & abikit::kRoleReturn);
  EXPECT_FALSE(d.findRegister("$a4:5")->roles & abikit::kRoleReturn);
  EXPECT_TRUE(d.findRegister("$a3")->roles & abikit::kRoleReturn);
  EXPECT_TRUE(d.findRegister("$a5")->roles & abikit::kRoleArgument);
  EXPECT_EQ(c.registers.size(), d.registers.size());
}

TEST(IpuTarget, TriplesAndOptions) {
  for (const char* t : {"colossus", "colossus-unknown-unknown", "colossus-graphcore-elf",
                        "colossus-graphcore--elf"}) {
    abikit::TargetOptions o;
    o.triple = t;
    abikit::Target target = abikit::resolveTarget(o);
    EXPECT_EQ(target.family, abikit::Family::IPU) << t;
    EXPECT_EQ(target.triple, "colossus-graphcore-elf") << t;
  }
  for (const char* t :
       {"colossus-graphcore-linux", "colossus-nvidia-elf", "colossus-graphcore-elf-gnu"}) {
    abikit::TargetOptions o;
    o.triple = t;
    EXPECT_THROW(abikit::resolveTarget(o), abikit::Error) << t;
  }
  abikit::TargetOptions o;
  o.triple = "colossus-graphcore-elf";
  o.mabi = "ilp32";
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error);
  o.mabi.clear();
  o.code_object_version = 5;
  EXPECT_THROW(abikit::resolveTarget(o), abikit::Error);

  bool listed = false;
  for (const abikit::TargetSummary& s : abikit::knownTargets())
    if (s.name == "colossus-graphcore-elf") {
      listed = true;
      EXPECT_EQ(s.cpus, (std::vector<std::string>{"ipu1", "ipu2", "ipu21"}));
    }
  EXPECT_TRUE(listed);
}

TEST(IpuTarget, PredefinedMacros) {
  abikit::Target t = ipu("ipu2");
  EXPECT_EQ(macro(t, "__IPU__"), "1");
  EXPECT_EQ(macro(t, "__SIZEOF_LONG__"), "4");
  EXPECT_EQ(macro(t, "__SIZEOF_LONG_LONG__"), "8");
  EXPECT_EQ(macro(t, "__SIZEOF_LONG_DOUBLE__"), "8");
  EXPECT_EQ(macro(t, "__SIZEOF_POINTER__"), "4");
  EXPECT_EQ(macro(t, "__BIGGEST_ALIGNMENT__"), "4");
  EXPECT_EQ(macro(t, "__SIZE_TYPE__"), "unsigned int");
  EXPECT_EQ(macro(t, "__INTPTR_TYPE__"), "int");
  EXPECT_EQ(macro(t, "__PTRDIFF_TYPE__"), "int");
  EXPECT_EQ(macro(t, "__WCHAR_TYPE__"), "int");
  EXPECT_EQ(macro(t, "__INT64_TYPE__"), "long long int");
  EXPECT_EQ(macro(t, "__ILP32__"), "1");
  EXPECT_EQ(macro(t, "__LONG_MAX__"), "2147483647L");
  EXPECT_EQ(macro(t, "__GCC_ATOMIC_INT_LOCK_FREE"), "2");
  EXPECT_EQ(macro(t, "__GCC_ATOMIC_LLONG_LOCK_FREE"), "1");
  // Not defined for this target by the Graphcore toolchain.
  for (const char* undef : {"__ELF__", "__SIZEOF_INT128__", "__FLT16_MAX__", "__CHAR_UNSIGNED__",
                            "__LP64__", "__SUPERVISOR__", "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_4"})
    EXPECT_EQ(macro(t, undef), "<undefined>") << undef;
  EXPECT_EQ(macro(ipu("ipu1", true), "__SUPERVISOR__"), "1");
  EXPECT_EQ(macro(ipu("ipu1", true), "__IPU__"), "1");
}

TEST(IpuTarget, IpudefHeader) {
  abikit::Target t = ipu("ipu2");
  ASSERT_EQ(t.headers.size(), 1u);
  EXPECT_EQ(t.headers[0].name, "ipudef.h");
  std::string_view text = t.headers[0].text;
  EXPECT_NE(text.find("typedef __fp16 half;"), std::string_view::npos);
  // Each vector typedef of the Graphcore header: element type and element count; the size
  // spelled in abikit's copy must be count * sizeof(element) on this data model.
  struct Vec {
    const char* name;
    const char* element;
    unsigned element_size, count;
  };
  const abikit::DataModel& d = t.data;
  const unsigned fp16 = d.of(abikit::FloatKind::Fp16).size;
  const unsigned f32 = d.of(abikit::FloatKind::Float).size;
  const unsigned c = d.of(abikit::IntKind::Char).size, s = d.of(abikit::IntKind::Short).size;
  const unsigned i = d.of(abikit::IntKind::Int).size, l = d.of(abikit::IntKind::Long).size;
  const unsigned ll = d.of(abikit::IntKind::LongLong).size;
  const Vec vecs[] = {
      {"half2", "__fp16", fp16, 2},
      {"half4", "__fp16", fp16, 4},
      {"half8", "__fp16", fp16, 8},
      {"float2", "float", f32, 2},
      {"float4", "float", f32, 4},
      {"char2", "char", c, 2},
      {"uchar2", "unsigned char", c, 2},
      {"char4", "char", c, 4},
      {"uchar4", "unsigned char", c, 4},
      {"short2", "short", s, 2},
      {"ushort2", "unsigned short", s, 2},
      {"short4", "short", s, 4},
      {"ushort4", "unsigned short", s, 4},
      {"int2", "int", i, 2},
      {"uint2", "unsigned int", i, 2},
      {"int4", "int", i, 4},
      {"uint4", "unsigned int", i, 4},
      {"long2", "long", l, 2},
      {"long4", "long", l, 4},
      {"longlong2", "long long", ll, 2},
      {"longlong4", "long long", ll, 4},
  };
  size_t typedefs = 0;
  for (size_t pos = text.find("typedef "); pos != std::string_view::npos;
       pos = text.find("typedef ", pos + 1))
    ++typedefs;
  EXPECT_EQ(typedefs, std::size(vecs) + 1 + 2); // + half, + the two ipu21 quarter types
  for (const Vec& v : vecs) {
    std::string decl = std::string("typedef ") + v.element + " " + v.name +
                       " __attribute__((vector_size(" + std::to_string(v.element_size * v.count) +
                       ")));";
    EXPECT_NE(text.find(decl), std::string_view::npos) << decl;
  }
  // The fp8 `quarter` types are declared only from ipu21 on.
  size_t guard = text.find("#if defined(__IPU_ARCH_VERSION__) && __IPU_ARCH_VERSION__ >= 21");
  size_t quarter = text.find("typedef struct quarter {");
  ASSERT_NE(guard, std::string_view::npos);
  ASSERT_NE(quarter, std::string_view::npos);
  EXPECT_LT(guard, quarter);
  EXPECT_LT(quarter, text.find("#endif", guard));
  EXPECT_EQ(macro(ipu("ipu21"), "__IPU_ARCH_VERSION__"), "21");
}

// ----- relocations ----------------------------------------------------------------------------

TEST(IpuRelocations, Table) {
  const abikit::ElfMachineInfo& m = ipuElf();
  EXPECT_EQ(m.name, "EM_GRAPHCORE_IPU");
  EXPECT_EQ(m.family, abikit::Family::IPU);
  struct Row {
    uint32_t type;
    const char* name;
    uint8_t size;
  };
  const Row rows[] = {
      {0, "R_COLOSSUS_NONE", 0},
      {1, "R_COLOSSUS_8", 1},
      {2, "R_COLOSSUS_16", 2},
      {3, "R_COLOSSUS_20", 4},
      {4, "R_COLOSSUS_32", 4},
      {5, "R_COLOSSUS_64", 8},
      {6, "R_COLOSSUS_RELATIVE_16_S2", 2},
      {7, "R_COLOSSUS_18_S2", 4},
      {8, "R_COLOSSUS_19_S2", 4},
      {9, "R_COLOSSUS_RUN", 4},
      {14, "R_COLOSSUS_16_S3", 2},
      {15, "R_COLOSSUS_16_S4", 2},
      {16, "R_COLOSSUS_16_S5", 2},
      {17, "R_COLOSSUS_21", 4},
  };
  EXPECT_EQ(m.relocations.size(), std::size(rows));
  for (const Row& r : rows) {
    const abikit::RelocationType* rel = m.relocation(r.type);
    ASSERT_NE(rel, nullptr) << r.name;
    EXPECT_EQ(rel->name, r.name);
    EXPECT_EQ(rel->size, r.size) << r.name;
  }
  for (uint32_t unassigned : {10u, 11u, 12u, 13u, 18u})
    EXPECT_EQ(m.relocation(unassigned), nullptr);
  EXPECT_EQ(m.relocation(9)->calculation, "(S + A - TMEM_REGION0_BASE) >> 2");
  EXPECT_EQ(m.relocation(7)->calculation, "(S + A) >> 2");
}

TEST(IpuRelocations, LinkerTestVectors) {
  // lld/test/ELF/colossus-run-reloc.s: `run $m0, $m0, foo + N` (word 0x14000000), foo = 0x40000
  // and the ipu1 image base 0x40000.
  const uint64_t run = 0x14000000;
  EXPECT_EQ(link(9, 0x40000, run), 0x14000000u);
  EXPECT_EQ(link(9, 0x40004, run), 0x14000001u);
  EXPECT_EQ(link(9, 0x44000, run), 0x14010000u);
  EXPECT_EQ(link(9, 0x448d0, run), 0x14010234u);
  EXPECT_EQ(link(9, 0x7c3c0, run), 0x140f00f0u);
  EXPECT_EQ(link(9, 0x7fffc, run), 0x140f0fffu);
  // colossus-image-base.s: with ipu2 the base is 0x4c000.
  EXPECT_EQ(link(9, 0x4c000, run, ipu("ipu2").ipu().tmem_region0_base), 0x14000000u);
  // colossus-19-S2-reloc.s: `bri foo + N` (word 0x40800000), foo = 0.
  const uint64_t bri = 0x40800000;
  EXPECT_EQ(link(8, 0, bri), 0x40800000u);
  EXPECT_EQ(link(8, 4, bri), 0x40800001u);
  EXPECT_EQ(link(8, 0x42000, bri), 0x40810800u);
  EXPECT_EQ(link(8, 0xffff4, bri), 0x4083fffdu);
  EXPECT_EQ(link(8, 0x1ffffc, bri), 0x4087ffffu);
  // colossus-20-reloc.s: `setzi $m0, foo + N` (word 0x19000000), foo = 0.
  const uint64_t setzi = 0x19000000;
  EXPECT_EQ(link(3, 0, setzi), 0x19000000u);
  EXPECT_EQ(link(3, 0x42000, setzi), 0x19042000u);
  EXPECT_EQ(link(3, 0xfffff, setzi), 0x190fffffu);
  // colossus-21-reloc.s: `.long foo@abs@21`, foo = 0x7ae40, bar = 0x512f8.
  EXPECT_EQ(link(17, 0x7ae40, 0), 0x0007ae40u);
  EXPECT_EQ(link(17, 0x512f8, 0), 0x000512f8u);
  // colossus-16-reloc.s: `.half foo + N`, foo = 0.
  EXPECT_EQ(link(2, 0x1, 0), 0x0001u);
  EXPECT_EQ(link(2, 0x45, 0), 0x0045u);
  EXPECT_EQ(link(2, 0x1234, 0), 0x1234u);
  EXPECT_EQ(link(2, 0xffff, 0), 0xffffu);
}

TEST(IpuRelocations, WorkedByHand) {
  const uint64_t ones = 0xFFFFFFFFFFFFFFFFull;
  // Data: the field's bytes are replaced, little-endian, and nothing beyond them.
  EXPECT_EQ(link(1, 0xab, ones), 0xFFFFFFFFFFFFFFABull);
  EXPECT_EQ(link(2, 0x1234, ones), 0xFFFFFFFFFFFF1234ull);
  EXPECT_EQ(link(4, 0x89abcdef, ones), 0xFFFFFFFF89ABCDEFull);
  EXPECT_EQ(link(5, 0x0123456789abcdefull, ones), 0x0123456789ABCDEFull);
  EXPECT_EQ(link(0, 0x1234, 0x77), 0x77u);
  // Instruction fields keep the other bits of the word.
  EXPECT_EQ(link(3, 0x12345, 0xFFFFFFFF), 0xFFF12345u);  // bits 19..0
  EXPECT_EQ(link(17, 0x12345, 0xFFFFFFFF), 0xFFE12345u); // bits 20..0
  EXPECT_EQ(link(7, 0x4, 0xFFFFFFFF), 0xFFFC0001u);      // (4 >> 2) in bits 17..0
  EXPECT_EQ(link(7, 0xffffc, 0), 0x3ffffu);
  EXPECT_EQ(link(8, 0x1ffffc, 0xFFFFFFFF), 0xFFFFFFFFu);
  EXPECT_EQ(link(8, 0x8, 0xFFFFFFFF), 0xFFF80002u); // (8 >> 2) in bits 18..0
  // RUN: value bits 15..12 to word bits 19..16, bits 11..0 stay; bits 15..12 of the word kept.
  EXPECT_EQ(link(9, 0x40000 + (0xabcd << 2), 0xFFFFFFFF), 0xFFFAFBCDu);
  EXPECT_EQ(link(9, 0x40000 + (0xabcd << 2), 0), 0x000A0BCDu);
  // Scaled 16-bit fields.
  EXPECT_EQ(link(6, 0x4c010, 0, 0x4c000), 0x0004u); // (0x4c010 - 0x4c000) >> 2
  EXPECT_EQ(link(6, 0x4c000 + 4 * 0xffff, 0, 0x4c000), 0xffffu);
  EXPECT_EQ(link(14, 0x40008, ones), 0xFFFFFFFFFFFF8001ull);
  EXPECT_EQ(link(15, 0x40010, 0), 0x4001u);
  EXPECT_EQ(link(16, 0x40020, 0), 0x2001u);
  EXPECT_EQ(link(16, 0x1fffe0, 0), 0xffffu);
}

TEST(IpuRelocations, RangeAndAlignmentErrors) {
  auto fails = [](uint32_t type, uint64_t v, uint32_t base = 0x40000) {
    try {
      abikit::ipuRelocationValue(type, v, base);
    } catch (const abikit::Error& e) {
      EXPECT_EQ(e.kind(), abikit::ErrorKind::Elf);
      return true;
    }
    return false;
  };
  EXPECT_TRUE(fails(9, 0x40002));            // misaligned (colossus-run-reloc-misaligned.s)
  EXPECT_TRUE(fails(9, 0x3fffc));            // below the image base
  EXPECT_TRUE(fails(9, 0x40000 + 0x40000));  // 0x10000 words: more than 16 bits
  EXPECT_FALSE(fails(9, 0x40000 + 0x3fffc)); // the last reachable word
  EXPECT_TRUE(fails(6, 0x4c000, 0x4c004));
  EXPECT_TRUE(fails(8, 0x200000)); // 0x80000 does not fit 19 bits
  EXPECT_TRUE(fails(8, 0x6));
  EXPECT_TRUE(fails(7, 0x100000)); // 0x40000 does not fit 18 bits
  EXPECT_TRUE(fails(1, 0x100));
  EXPECT_TRUE(fails(2, 0x10000));
  EXPECT_TRUE(fails(3, 0x100000));
  EXPECT_TRUE(fails(17, 0x200000));
  EXPECT_FALSE(fails(17, 0x1fffff));
  EXPECT_TRUE(fails(4, 0x100000000ull));
  EXPECT_FALSE(fails(5, ~0ull));
  EXPECT_TRUE(fails(14, 0x4));
  EXPECT_TRUE(fails(15, 0x8));
  EXPECT_TRUE(fails(16, 0x10));
  EXPECT_TRUE(fails(16, 0x200000)); // 0x10000 units of 32 bytes
  EXPECT_TRUE(fails(10, 0));        // unassigned in this fork
  EXPECT_TRUE(fails(200, 0));
}

// ----- e_flags --------------------------------------------------------------------------------

TEST(IpuElfFlags, Decode) {
  const abikit::ElfMachineInfo& m = ipuElf();
  auto decode = [&](uint32_t flags, uint8_t osabi = 255) {
    return m.decodeFlags({1, 1, osabi, 0, abikit::kEmGraphcoreIpu, flags});
  };
  const std::tuple<uint32_t, const char*, const char*> known[] = {
      {0x1, "ipu1", "EF_GRAPHCORE_ARCH_IPU1"},
      {0x2, "ipu2", "EF_GRAPHCORE_ARCH_IPU2"},
      {0x21, "ipu21", "EF_GRAPHCORE_ARCH_IPU21"}};
  for (const auto& [flags, cpu, name] : known) {
    abikit::ElfFlagsInfo i = decode(flags);
    EXPECT_EQ(i.target, "colossus-graphcore-elf");
    EXPECT_EQ(i.processor, cpu);
    EXPECT_EQ(i.property("arch"), cpu);
    ASSERT_EQ(i.flag_names.size(), 1u);
    EXPECT_EQ(i.flag_names[0], name);
    EXPECT_TRUE(i.problems.empty()) << cpu;
  }
  abikit::ElfFlagsInfo none = decode(0);
  EXPECT_EQ(none.processor, "");
  EXPECT_EQ(none.property("arch"), "none");
  EXPECT_EQ(none.problems.size(), 1u);
  abikit::ElfFlagsInfo odd = decode(0x33);
  EXPECT_EQ(odd.processor, "");
  ASSERT_EQ(odd.problems.size(), 1u);
  EXPECT_NE(odd.problems[0].find("0x33"), std::string::npos);
  abikit::ElfFlagsInfo extra = decode(0x102);
  EXPECT_EQ(extra.processor, "ipu2");
  ASSERT_EQ(extra.problems.size(), 1u);
  EXPECT_NE(extra.problems[0].find("0x100"), std::string::npos);
  EXPECT_EQ(decode(0x2, 0).problems.size(), 1u); // not ELFOSABI_STANDALONE
  EXPECT_EQ(m.decodeFlags({2, 2, 255, 0, abikit::kEmGraphcoreIpu, 0x2}).problems.size(), 2u);
}

TEST(IpuElfFlags, LinkConflicts) {
  const abikit::ElfMachineInfo& m = ipuElf();
  auto decode = [&](uint32_t flags) {
    return m.decodeFlags({1, 1, 255, 0, abikit::kEmGraphcoreIpu, flags});
  };
  std::vector<std::string> out;
  m.linkConflicts(decode(0x2), decode(0x2), out);
  EXPECT_TRUE(out.empty());
  m.linkConflicts(decode(0x0), decode(0x1), out); // an object without arch bits is ignored
  EXPECT_TRUE(out.empty());
  m.linkConflicts(decode(0x1), decode(0x2), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].find("ipu1 vs ipu2"), std::string::npos);
  m.linkConflicts(decode(0x21), decode(0x2), out);
  EXPECT_EQ(out.size(), 2u);
}
