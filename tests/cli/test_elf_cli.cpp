// `abikit elf` and `abikit link-check` as a user runs them: exit codes, stdout/stderr, the JSON
// document, several files with a bad one among them.
#include "../unit/elf_writer.h"
#include "abikit/elf_constants.h"
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using abikit::test::CliResult;
using abikit::test::ElfWriter;
using abikit::test::runCli;
using abikit::test::TempDir;
using nlohmann::json;

class ElfCli : public ::testing::Test {
protected:
  std::string write(const std::string& name, const std::vector<uint8_t>& bytes) {
    return dir_.write(name,
                      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

  /// The CLI with these arguments (an argument vector: no shell, no word splitting).
  CliResult run(const std::vector<std::string>& args) { return runCli(args); }

  TempDir dir_;
};

std::vector<uint8_t> dpuObject(uint32_t flags = 0x02800000) {
  ElfWriter w(1, 1, abikit::kEmDpu, flags);
  uint32_t text = w.addSection(".text", 1, 6, std::vector<uint8_t>(16, 0), 0, 0, 8);
  uint32_t f = w.addSymbol("main", 0, 16, 2, 1, uint16_t(text));
  w.addRelocation(text, 8, 138, f, 0x123456);
  return w.build();
}

std::vector<uint8_t> amdgpuObject() {
  ElfWriter w(2, 1, abikit::kEmAmdgpu, 0x52f, 64, 2);
  // {"amdhsa.kernels": [], "amdhsa.version": [1, 1]}
  std::vector<uint8_t> md = {0x82, 0xae};
  for (char c : std::string("amdhsa.kernels")) md.push_back(uint8_t(c));
  md.push_back(0x90);
  md.push_back(0xae);
  for (char c : std::string("amdhsa.version")) md.push_back(uint8_t(c));
  for (uint8_t b : {0x92, 0x01, 0x01}) md.push_back(b);
  w.addNote(".note", "AMDGPU", 32, md);
  return w.build();
}

TEST_F(ElfCli, TextView) {
  std::string obj = write("dpu.o", dpuObject());
  CliResult r = run({"elf", "--symbols", "--relocs", "--notes", obj});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("Machine:    EM_DPU (245)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Target:     dpu-upmem-dpurte"), std::string::npos);
  EXPECT_NE(r.out.find("abi_version=2"), std::string::npos);
  EXPECT_NE(r.out.find("EF_DPU_EABI_SET"), std::string::npos);
  EXPECT_NE(r.out.find("R_DPU_IMM24"), std::string::npos);
  // The patched instruction field of dpu.md §5.2's IMM24 vector.
  EXPECT_NE(r.out.find("field: V = 0x123456, word 0x0000000000000000 -> 0x0000000000652123"),
            std::string::npos)
      << r.out;
}

TEST_F(ElfCli, JsonView) {
  std::string a = write("dpu.o", dpuObject());
  std::string b = write("k.o", amdgpuObject());
  CliResult r = run({"elf", "--json", "--symbols", "--relocs", "--notes", a, b});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "abikit/1");
  ASSERT_EQ(doc["files"].size(), 2u);
  const json& d = doc["files"][0];
  EXPECT_EQ(d["header"]["machine"], 245);
  EXPECT_EQ(d["header"]["flags_hex"], "0x02800000");
  EXPECT_EQ(d["target"]["family"], "dpu");
  EXPECT_EQ(d["target"]["properties"]["abi_version"], "2");
  const json& rel = d["relocations"][0]["entries"][0];
  EXPECT_EQ(rel["type_name"], "R_DPU_IMM24");
  EXPECT_EQ(rel["symbol_name"], "main");
  EXPECT_EQ(rel["addend"], 0x123456);
  EXPECT_EQ(rel["field_after"], "0x0000000000652123");
  EXPECT_EQ(d["relocation_types"][0]["name"], "R_DPU_IMM24");
  EXPECT_EQ(d["relocation_types"][0]["moves"].size(), 7u);
  EXPECT_EQ(d["symbols"][0]["entries"][1]["name"], "main");
  const json& k = doc["files"][1];
  EXPECT_EQ(k["target"]["processor"], "gfx906");
  const json& note = k["notes"][0];
  EXPECT_EQ(note["type_name"], "NT_AMDGPU_METADATA");
  EXPECT_EQ(note["metadata"]["amdhsa.version"], json::array({1, 1}));
  EXPECT_TRUE(note["problems"].empty()) << note["problems"];
}

TEST_F(ElfCli, BadFilesFailWithTheByteOffset) {
  std::vector<uint8_t> bytes = dpuObject();
  bytes.resize(40); // cuts the ELF32 header
  std::string bad = write("bad.o", bytes);
  CliResult r = run({"elf", bad});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err, bad + ": error: truncated ELF header: the file has 40 bytes, the ELF32 header "
                         "needs 52 (at byte offset 40)\n");
  r = run({"elf", "/nonexistent/x.o"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot open"), std::string::npos);
}

TEST_F(ElfCli, SeveralFilesWithABadOne) {
  std::string good = write("good.o", dpuObject());
  std::string bad = write("bad.o", {0x7f, 'E', 'L', 'F', 9});
  CliResult r = run({"elf", good, bad});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("File: " + good), std::string::npos); // the good one is shown
  EXPECT_EQ(r.out.find("File: " + bad), std::string::npos);
  EXPECT_NE(r.err.find(bad + ": error: "), std::string::npos);
  // JSON: no partial document.
  r = run({"elf", "--json", good, bad});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find(bad + ": error: "), std::string::npos);
}

TEST_F(ElfCli, LinkCheck) {
  std::string a = write("a.o", dpuObject());
  std::string b = write("b.o", dpuObject());
  std::string c = write("c.o", dpuObject(0)); // no ABI version
  std::string k = write("k.o", amdgpuObject());
  CliResult r = run({"link-check", a, b});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "compatible\n");
  r = run({"link-check", a, b, c, k});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, a + " vs " + c + ": DPU ABI version 2 vs none\n" + a + " vs " + k +
                       ": different machines: EM_DPU (245) vs EM_AMDGPU (224)\n");
  r = run({"link-check"});
  EXPECT_EQ(r.exit_code, 2);
  // JSON: the files compared and, per conflicting pair, its files and reasons.
  r = run({"link-check", "--json", a, b, c, k});
  EXPECT_EQ(r.exit_code, 1);
  json j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "abikit/1");
  EXPECT_EQ(j["compatible"], false);
  EXPECT_EQ(j["files"], json({a, b, c, k}));
  ASSERT_EQ(j["conflicts"].size(), 2u);
  EXPECT_EQ(j["conflicts"][0]["files"], json({a, c}));
  EXPECT_EQ(j["conflicts"][0]["reasons"], json({"DPU ABI version 2 vs none"}));
  EXPECT_EQ(j["conflicts"][1]["reasons"],
            json({"different machines: EM_DPU (245) vs EM_AMDGPU (224)"}));
  r = run({"link-check", "--json", a, b});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "{\"schema\":\"abikit/1\",\"compatible\":true,\"files\":[\"" + a + "\",\"" + b +
                       "\"],\"conflicts\":[]}\n");
}

// One line per conflicting pair, with the root cause only: objects of different ELF classes are
// not also compared by their float-ABI bits.
TEST_F(ElfCli, LinkCheckRootCause) {
  auto riscv = [](uint8_t cls, uint32_t flags) {
    ElfWriter w(cls, 1, abikit::kEmRiscv, flags);
    w.addSection(".text", 1, 6, {0, 0, 0, 0});
    return w.build();
  };
  std::string rv32d = write("rv32d.o", riscv(1, 0x4)); // ilp32d
  std::string rv64s = write("rv64s.o", riscv(2, 0x0)); // lp64
  std::string rv32e = write("rv32e.o", riscv(1, 0x8)); // ilp32e, soft-float
  CliResult r = run({"link-check", rv32d, rv64s, rv32e});
  EXPECT_EQ(r.exit_code, 1);
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1)
    lines.push_back(r.out.substr(at, nl - at));
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(lines[0], rv32d + " vs " + rv64s + ": different ELF classes: ELFCLASS32 vs ELFCLASS64");
  EXPECT_NE(lines[1].find(rv32d + " vs " + rv32e + ": "), std::string::npos);
  EXPECT_NE(lines[1].find("; "), std::string::npos) << lines[1]; // float ABI and RVE, one line
}

} // namespace
