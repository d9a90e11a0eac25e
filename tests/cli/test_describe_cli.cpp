// `abikit describe` through the command line: the target model (registers, data model, stack,
// memory, ELF identity) as JSON for UPMEM DPU, Graphcore IPU, RISC-V and AMDGPU, and bad targets
// (an error on stderr, exit status 1, nothing on stdout). The models themselves are checked
// through the library in tests/unit/test_<family>_target.cpp.
#include "cli_runner.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

using nlohmann::json;

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;

json describe(const std::string& args) {
  CliResult r = runCli("describe " + args + " --json");
  EXPECT_EQ(r.exit_code, 0) << args << ": " << r.summary();
  return json::parse(r.out);
}

const json* findReg(const json& doc, const std::string& name) {
  for (const json& r : doc["registers"])
    if (r["name"] == name) return &r;
  return nullptr;
}

bool hasRole(const json& reg, const std::string& role) {
  for (const json& r : reg["roles"])
    if (r == role) return true;
  return false;
}

} // namespace

TEST(DpuDescribeCli, DescribeJsonRegisters) {
  json doc = describe("--target dpu-upmem-dpurte");
  EXPECT_EQ(doc["schema"], "abikit/1");
  EXPECT_EQ(doc["family"], "dpu");
  EXPECT_EQ(doc["triple"], "dpu-upmem-dpurte");
  EXPECT_EQ(doc["cpu"], "v1A");
  for (int i = 0; i <= 23; ++i) {
    const json* r = findReg(doc, "r" + std::to_string(i));
    ASSERT_NE(r, nullptr) << i;
    EXPECT_EQ((*r)["bits"], 32);
    EXPECT_EQ((*r)["dwarf"], i);
    EXPECT_EQ(hasRole(*r, "argument"), i <= 7) << i;
    EXPECT_EQ(hasRole(*r, "caller-saved"), i <= 13) << i;
    EXPECT_EQ(hasRole(*r, "callee-saved"), i >= 14 && i <= 21) << i;
  }
  EXPECT_TRUE(hasRole(*findReg(doc, "r0"), "return"));
  EXPECT_TRUE(hasRole(*findReg(doc, "r1"), "return"));
  EXPECT_FALSE(hasRole(*findReg(doc, "r2"), "return"));
  EXPECT_TRUE(hasRole(*findReg(doc, "r22"), "stack-pointer"));
  EXPECT_TRUE(hasRole(*findReg(doc, "r23"), "return-address"));
  // d0..d22: even pairs only, the even register holds the most significant word.
  for (int i = 0; i <= 22; i += 2) {
    const json* d = findReg(doc, "d" + std::to_string(i));
    ASSERT_NE(d, nullptr) << i;
    EXPECT_EQ((*d)["bits"], 64);
    EXPECT_TRUE((*d)["dwarf"].is_null());
    EXPECT_EQ((*d)["components"],
              json::array({"r" + std::to_string(i), "r" + std::to_string(i + 1)}));
    EXPECT_EQ(findReg(doc, "d" + std::to_string(i + 1)), nullptr);
  }
  EXPECT_TRUE(hasRole(*findReg(doc, "d0"), "return"));
  EXPECT_TRUE(hasRole(*findReg(doc, "d6"), "argument"));
  EXPECT_FALSE(hasRole(*findReg(doc, "d8"), "argument"));
  for (const char* ro : {"zero", "one", "lneg", "mneg", "id", "id2", "id4", "id8"}) {
    const json* r = findReg(doc, ro);
    ASSERT_NE(r, nullptr) << ro;
    EXPECT_TRUE(hasRole(*r, "read-only")) << ro;
    EXPECT_TRUE((*r)["dwarf"].is_null()) << ro;
  }
  EXPECT_TRUE(hasRole(*findReg(doc, "zero"), "zero"));
  EXPECT_EQ(doc["registers"].size(), 24u + 12u + 8u);
}

TEST(DpuDescribeCli, DescribeJsonStackElfMemory) {
  json doc = describe("--target dpu-upmem-dpurte");
  EXPECT_EQ(doc["stack"]["stack_pointer"], "r22");
  EXPECT_EQ(doc["stack"]["return_address"], "r23");
  EXPECT_EQ(doc["stack"]["alignment"], 8);
  EXPECT_EQ(doc["stack"]["grows"], "up");
  EXPECT_TRUE(doc["stack"]["frame_pointer"].is_null());

  EXPECT_EQ(doc["elf"]["class"], "ELFCLASS32");
  EXPECT_EQ(doc["elf"]["data"], "ELFDATA2LSB");
  EXPECT_EQ(doc["elf"]["osabi"], 0);
  EXPECT_EQ(doc["elf"]["e_machine"], 245);
  EXPECT_EQ(doc["elf"]["e_flags"], 0x02800000);
  EXPECT_EQ(doc["elf"]["e_flags_hex"], "0x02800000");
  EXPECT_EQ(doc["elf"]["relocations"], "RELA");

  std::map<std::string, uint64_t> bases;
  for (const json& m : doc["memory"]) bases[m["name"]] = m["base"];
  EXPECT_EQ(bases.size(), 4u);
  EXPECT_EQ(bases["WRAM"], 0x00000000u);
  EXPECT_EQ(bases["IRAM"], 0x80000000u);
  EXPECT_EQ(bases["MRAM"], 0x08000000u);
  EXPECT_EQ(bases["atomic"], 0xF0000000u);
}

TEST(DpuDescribeCli, DescribeJsonDataModel) {
  json doc = describe("--target dpu-upmem-dpurte");
  const json& t = doc["data_model"]["types"];
  auto sa = [&](const char* name) { return std::make_pair(t[name]["size"], t[name]["align"]); };
  EXPECT_EQ(sa("long"), std::make_pair(json(8), json(8)));
  EXPECT_EQ(sa("long long"), std::make_pair(json(8), json(8)));
  EXPECT_EQ(sa("double"), std::make_pair(json(8), json(8)));
  EXPECT_EQ(sa("long double"), std::make_pair(json(8), json(8)));
  EXPECT_EQ(sa("void *"), std::make_pair(json(4), json(4)));
  EXPECT_TRUE(t["__int128"].is_null());
  EXPECT_EQ(t["long double"]["format"], "ieee-double");
  EXPECT_EQ(doc["data_model"]["char_signed"], true);
  EXPECT_EQ(doc["data_model"]["typedefs"]["wchar_t"], "unsigned char");
  EXPECT_EQ(doc["data_model"]["typedefs"]["size_t"], "unsigned int");
  EXPECT_EQ(doc["data_model"]["typedefs"]["ptrdiff_t"], "int");
  EXPECT_EQ(doc["data_model"]["biggest_alignment"], 4);
  EXPECT_EQ(doc["data_model"]["default_aligned_attribute"], 16);
}

TEST(DpuDescribeCli, VersionSizes) {
  json doc = describe("--target dpu-upmem-dpurte -mcpu=v1B");
  EXPECT_EQ(doc["cpu"], "v1B");
  ASSERT_EQ(doc["memory"].size(), 4u);
  EXPECT_EQ(doc["memory"][0]["name"], "WRAM");
  EXPECT_EQ(doc["memory"][0]["size"], 63488);
}

// A bad target is an error on stderr, exit status 1, and nothing on stdout.
TEST(DpuDescribeCli, BadProcessor) {
  CliResult r = runCli("describe --target dpu-upmem-dpurte -mcpu=v9 --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("unknown DPU processor 'v9'"), std::string::npos) << r.err;
}

TEST(IpuDescribeCli, DescribeJsonRegistersIpu2) {
  json doc = describe("--target colossus-graphcore-elf -mcpu=ipu2");
  EXPECT_EQ(doc["schema"], "abikit/1");
  EXPECT_EQ(doc["family"], "ipu");
  EXPECT_EQ(doc["triple"], "colossus-graphcore-elf");
  EXPECT_EQ(doc["arch"], "colossus");
  EXPECT_EQ(doc["cpu"], "ipu2");
  EXPECT_EQ(doc["target"], "colossus-graphcore-elf -mcpu=ipu2");

  for (int i = 0; i <= 15; ++i) {
    const json* m = findReg(doc, "$m" + std::to_string(i));
    ASSERT_NE(m, nullptr) << i;
    EXPECT_EQ((*m)["file"], "mrf");
    EXPECT_EQ((*m)["bits"], 32);
    EXPECT_EQ((*m)["dwarf"], i);
    EXPECT_EQ(hasRole(*m, "argument"), i <= 3) << i;
    EXPECT_EQ(hasRole(*m, "return"), i <= 3) << i;
    EXPECT_EQ(hasRole(*m, "caller-saved"), i <= 6) << i;
    EXPECT_EQ(hasRole(*m, "callee-saved"), i >= 7 && i <= 11) << i;
    EXPECT_EQ(hasRole(*m, "reserved"), i >= 11) << i;
  }
  EXPECT_TRUE(hasRole(*findReg(doc, "$m8"), "base-pointer"));
  EXPECT_EQ((*findReg(doc, "$m8"))["alias"], "$bp");
  EXPECT_TRUE(hasRole(*findReg(doc, "$m9"), "frame-pointer"));
  EXPECT_TRUE(hasRole(*findReg(doc, "$m10"), "return-address"));
  EXPECT_EQ((*findReg(doc, "$m10"))["alias"], "$lr");
  EXPECT_TRUE(hasRole(*findReg(doc, "$m11"), "stack-pointer"));
  EXPECT_EQ((*findReg(doc, "$m11"))["alias"], "$sp");
  for (const char* ro : {"$m12", "$m13"}) EXPECT_TRUE(hasRole(*findReg(doc, ro), "read-only"));
  EXPECT_EQ((*findReg(doc, "$m12"))["alias"], "$mworker_base");
  EXPECT_EQ((*findReg(doc, "$m13"))["alias"], "$mvertex_base");
  EXPECT_TRUE(hasRole(*findReg(doc, "$m15"), "zero"));

  // The backend's DWARF numbers: $a0-$a14 = 15-29 ($a0 collides with $m15), $a15 = 31.
  for (int i = 0; i <= 15; ++i) {
    const json* a = findReg(doc, "$a" + std::to_string(i));
    ASSERT_NE(a, nullptr) << i;
    EXPECT_EQ((*a)["file"], "arf");
    EXPECT_EQ((*a)["dwarf"], i == 15 ? 31 : 15 + i);
    EXPECT_EQ(hasRole(*a, "argument"), i <= 5) << i;
    EXPECT_EQ(hasRole(*a, "callee-saved"), i == 6 || i == 7) << i;
    EXPECT_EQ(hasRole(*a, "reserved"), i >= 8) << i;
  }
  EXPECT_TRUE(hasRole(*findReg(doc, "$a15"), "zero"));

  // Pairs $m0:1..$m14:15 = 32-39, $a0:1..$a14:15 = 40-47; quads $a0:3.. = 48-51.
  for (int i = 0; i < 8; ++i) {
    std::string lo = std::to_string(2 * i), hi = std::to_string(2 * i + 1);
    const json* mp = findReg(doc, "$m" + lo + ":" + hi);
    const json* ap = findReg(doc, "$a" + lo + ":" + hi);
    ASSERT_NE(mp, nullptr) << i;
    ASSERT_NE(ap, nullptr) << i;
    EXPECT_EQ((*mp)["dwarf"], 32 + i);
    EXPECT_EQ((*ap)["dwarf"], 40 + i);
    EXPECT_EQ((*mp)["bits"], 64);
    EXPECT_EQ((*mp)["components"], json::array({"$m" + lo, "$m" + hi}));
    EXPECT_EQ((*ap)["components"], json::array({"$a" + lo, "$a" + hi}));
    EXPECT_EQ(hasRole(*mp, "argument"), i <= 1) << i;
    EXPECT_EQ(hasRole(*ap, "argument"), i <= 2) << i;
  }
  for (int i = 0; i < 4; ++i) {
    std::string name = "$a" + std::to_string(4 * i) + ":" + std::to_string(4 * i + 3);
    const json* q = findReg(doc, name);
    ASSERT_NE(q, nullptr) << name;
    EXPECT_EQ((*q)["dwarf"], 48 + i);
    EXPECT_EQ((*q)["bits"], 128);
    EXPECT_FALSE(hasRole(*q, "argument")); // calls never use quads
  }
}

TEST(IpuDescribeCli, DescribeJsonElfStackMemory) {
  json doc = describe("--target colossus-graphcore-elf -mcpu=ipu2");
  EXPECT_EQ(doc["elf"]["class"], "ELFCLASS32");
  EXPECT_EQ(doc["elf"]["data"], "ELFDATA2LSB");
  EXPECT_EQ(doc["elf"]["osabi"], 255);
  EXPECT_EQ(doc["elf"]["e_machine"], 248);
  EXPECT_EQ(doc["elf"]["machine_name"], "EM_GRAPHCORE_IPU");
  EXPECT_EQ(doc["elf"]["e_flags"], 0x2);
  EXPECT_EQ(doc["elf"]["relocations"], "RELA");

  EXPECT_EQ(doc["stack"]["grows"], "down");
  EXPECT_EQ(doc["stack"]["alignment"], 8);
  EXPECT_EQ(doc["stack"]["stack_pointer"], "$m11");
  EXPECT_EQ(doc["stack"]["return_address"], "$m10");
  EXPECT_EQ(doc["stack"]["frame_pointer"], "$m9");
  EXPECT_NE(doc["stack"]["argument_area"].get<std::string>().find("$m11 + N"), std::string::npos);

  ASSERT_EQ(doc["memory"].size(), 1u);
  EXPECT_EQ(doc["memory"][0]["name"], "TMEM region 0");
  EXPECT_EQ(doc["memory"][0]["base"], 0x4c000);
  EXPECT_TRUE(doc["memory"][0]["size"].is_null());

  EXPECT_EQ(doc["details"]["arch"], "ipu2");
  EXPECT_EQ(doc["details"]["mode"], "worker");
  EXPECT_EQ(doc["details"]["tmem_region0_base"], 0x4c000);
  EXPECT_EQ(doc["details"]["repeat_count_bits"], 16);
  EXPECT_EQ(doc["details"]["register_files"], json::array({"mrf", "arf"}));
}

TEST(IpuDescribeCli, DescribeJsonDataModel) {
  json doc = describe("--target colossus-graphcore-elf -mcpu=ipu2");
  const json& dm = doc["data_model"];
  const json& t = dm["types"];
  auto sa = [&](const char* name) {
    return std::to_string(t[name]["size"].get<int>()) + "/" +
           std::to_string(t[name]["align"].get<int>());
  };
  EXPECT_EQ(sa("long"), "4/4");
  EXPECT_EQ(sa("long long"), "8/8");
  EXPECT_EQ(sa("double"), "8/4");
  EXPECT_EQ(sa("long double"), "8/4");
  EXPECT_EQ(sa("__fp16"), "2/2");
  EXPECT_EQ(sa("void *"), "4/4");
  EXPECT_EQ(sa("void (*)(void)"), "4/4");
  EXPECT_EQ(sa("va_list"), "4/4");
  EXPECT_EQ(t["long double"]["format"], "ieee-double");
  EXPECT_EQ(t["__fp16"]["format"], "ieee-half");
  EXPECT_TRUE(t["__int128"].is_null());
  EXPECT_TRUE(t["_Float16"].is_null());
  EXPECT_TRUE(t["__bf16"].is_null());
  EXPECT_TRUE(t["__float128"].is_null());
  EXPECT_EQ(dm["char_signed"], true);
  EXPECT_EQ(dm["typedefs"]["size_t"], "unsigned int");
  EXPECT_EQ(dm["typedefs"]["ptrdiff_t"], "int");
  EXPECT_EQ(dm["typedefs"]["intptr_t"], "int");
  EXPECT_EQ(dm["typedefs"]["wchar_t"], "int");
  EXPECT_EQ(dm["typedefs"]["wint_t"], "unsigned int");
  EXPECT_EQ(dm["typedefs"]["intmax_t"], "long long");
  EXPECT_EQ(dm["max_vector_align"], 8);
  EXPECT_EQ(dm["biggest_alignment"], 4);
  EXPECT_EQ(dm["default_aligned_attribute"], 16);
  EXPECT_EQ(dm["max_align_t_align"], 8);
  EXPECT_EQ(dm["bitint_max_width"], 128);
  EXPECT_EQ(dm["bitint_max_align"], 8);
  EXPECT_EQ(dm["max_atomic_inline_bits"], 32);
  EXPECT_EQ(dm["bitfields"]["unnamed_and_zero_width_raise_record_alignment"], true);
}

TEST(IpuDescribeCli, Processors) {
  for (auto [cpu, flags] :
       {std::pair<const char*, uint32_t>{"ipu1", 0x1}, {"ipu2", 0x2}, {"ipu21", 0x21}}) {
    json doc = describe(std::string("--target colossus-graphcore-elf -mcpu=") + cpu);
    EXPECT_EQ(doc["elf"]["e_flags"], flags) << cpu;
  }
}

TEST(IpuDescribeCli, Modes) {
  json doc = describe("--target colossus-graphcore-elf -mcpu=ipu21 -msupervisor -mworker");
  EXPECT_EQ(doc["details"]["mode"], "both");
  EXPECT_EQ(doc["details"]["register_files"], json::array({"mrf"}));
  EXPECT_EQ(findReg(doc, "$a0"), nullptr);
  EXPECT_NE(findReg(doc, "$m15"), nullptr);
  json sup = describe("--target colossus-graphcore-elf -msupervisor");
  EXPECT_EQ(sup["details"]["mode"], "supervisor");
  EXPECT_EQ(sup["cpu"], "ipu1");
}

TEST(IpuDescribeCli, BadProcessor) {
  CliResult r = runCli("describe --target colossus-graphcore-elf -mcpu=ipu9 --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("unknown IPU processor 'ipu9'"), std::string::npos) << r.err;
}

TEST(RiscvDescribeCli, DescribeJson) {
  CliResult r = runCli("describe --target riscv64-unknown-elf -march=rv64gc -mabi=lp64d --json");
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(r.err, "");
  const std::string& out = r.out;
  for (const char* needle :
       {"\"schema\": \"abikit/1\"", "\"target\": \"riscv64-unknown-elf -march=rv64gc -mabi=lp64d\"",
        "\"family\": \"riscv\"", "\"cpu\": \"generic-rv64\"", "\"char_signed\": false",
        "\"e_machine\": 243", "\"e_flags\": 5", "\"class\": \"ELFCLASS64\"", "\"name\": \"fa0\"",
        "\"alias\": \"x10\"", "\"xlen\": 64", "\"abi\": \"lp64d\"", "\"abi_flen\": 64",
        "\"isa\": \"rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0_zmmul1p0_zaamo1p0_"
        "zalrsc1p0_zca1p0_zcd1p0\"",
        "\"alignment\": 16", "\"stack_pointer\": \"sp\""})
    EXPECT_NE(out.find(needle), std::string::npos) << needle << "\n" << out.substr(0, 2000);
  // Bad input: exit 1, the message on stderr, nothing else.
  r = runCli("describe --target riscv64-unknown-elf -march=rv64gcx --json");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "abikit: error: non-standard user-level extension name missing after 'x' "
                   "(in '-march=rv64gcx' at character 7)\n");
}

TEST(AmdgpuDescribeCli, DescribeJson) {
  CliResult r = runCli("describe --target amdgcn-amd-amdhsa -mcpu=gfx90a:xnack+ --json");
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(r.err, "");
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["target"], "amdgcn-amd-amdhsa -mcpu=gfx90a:xnack+");
  EXPECT_EQ(doc["elf"]["e_flags"], 0x73f);
  EXPECT_EQ(doc["elf"]["abi_version"], 2);
  EXPECT_EQ(doc["details"]["target_id"], "gfx90a:xnack+");
  EXPECT_EQ(doc["details"]["wavefront_size"], 64);
  EXPECT_EQ(doc["stack"]["stack_pointer"], "s32");
  bool found = false;
  for (const auto& reg : doc["registers"])
    if (reg["name"] == "a32") {
      found = true;
      EXPECT_EQ(reg["dwarf"], 3104);
    }
  EXPECT_TRUE(found);
  r = runCli("describe --target amdgcn-amd-amdhsa -mcpu=gfx906:xnack --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("target-id feature 'xnack' needs '+' or '-' (in '-mcpu=gfx906:xnack' at "
                       "character"),
            std::string::npos)
      << r.err;
}

namespace {

TEST(DescribeCli, CompilerIsShownSelectedAndChecked) {
  json d = describe("--target riscv64-unknown-elf");
  EXPECT_EQ(d["compiler"], "clang-22");
  EXPECT_EQ(d["target"], "riscv64-unknown-elf -march=rv64imac -mabi=lp64");
  json n = describe("--target riscv64-unknown-linux-gnu --compiler clang-14");
  EXPECT_EQ(n["compiler"], "clang-14");
  EXPECT_EQ(n["target"],
            "riscv64-unknown-linux-gnu -march=rv64imafdc -mabi=lp64d --compiler clang-14");
  EXPECT_EQ(describe("--target riscv64-unknown-elf --compiler clang-22")["target"],
            "riscv64-unknown-elf -march=rv64imac -mabi=lp64");
  // DPU and IPU: their vendor's compiler, by default or by name; --abi-variant=documented stays.
  EXPECT_EQ(describe("--target dpu-upmem-dpurte")["compiler"], "dpu-upmem-dpurte-clang");
  json dpu = describe("--target dpu-upmem-dpurte --compiler dpu-upmem-dpurte-clang");
  EXPECT_EQ(dpu["compiler"], "dpu-upmem-dpurte-clang");
  EXPECT_EQ(dpu["target"], describe("--target dpu-upmem-dpurte")["target"]);
  json ipu = describe("--target colossus-graphcore-elf --compiler popc --abi-variant=documented");
  EXPECT_EQ(ipu["compiler"], "popc");
  EXPECT_EQ(ipu["abi_variant"], "documented");
  // An unknown compiler, one the family does not model, --compiler on DPU: exit 1, nothing on
  // stdout, one line naming what is known or modelled.
  for (const char* bad : {"--target riscv64-unknown-elf --compiler clang-9",
                          "--target amdgcn-amd-amdhsa --mcpu gfx90a --compiler clang-22",
                          "--target dpu-upmem-dpurte --compiler clang-22",
                          "--target colossus-graphcore-elf --compiler dpu-upmem-dpurte-clang",
                          "--target riscv64-unknown-elf --compiler popc"}) {
    CliResult r = runCli(std::string("describe ") + bad + " --json");
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_EQ(r.out, "") << bad;
    EXPECT_TRUE(r.err.find("modelled: ") != std::string::npos ||
                r.err.find("known: ") != std::string::npos ||
                r.err.find("their compiler is") != std::string::npos)
        << bad << ": " << r.err;
  }
  // The lowering follows the selected compiler: clang-19 sign-extends an unsigned _BitInt(17)
  // as the 32-bit integer it fits (clang-14 too), clang-22 zero-extends it by its signedness.
  CliResult c = runCli("call --target riscv64-unknown-elf --compiler clang-19 -",
                       "void f(unsigned _BitInt(17));\n");
  EXPECT_EQ(c.exit_code, 0) << c.summary();
  EXPECT_NE(c.out.find("extend (sign)"), std::string::npos) << c.out;
  CliResult m = runCli("call --target riscv64-unknown-elf --compiler clang-22 -",
                       "void f(unsigned _BitInt(17));\n");
  EXPECT_EQ(m.exit_code, 0) << m.summary();
  EXPECT_NE(m.out.find("extend (zero)"), std::string::npos) << m.out;
}

} // namespace
