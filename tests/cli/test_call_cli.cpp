// `abikit call` through the command line: the JSON and text views of a lowering, --variadic-args,
// modes, kernels, and rejections (an error on stderr, exit status 1, nothing on stdout) for the
// UPMEM DPU, Graphcore IPU, AMDGPU and RISC-V calling conventions. The lowerings themselves are
// checked through the library in tests/unit/test_callconv_<family>.cpp.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;
using nlohmann::json;

/// Writes `text` to a header of the test's temporary directory and returns its path.
std::string writeHeader(const std::string& name, const std::string& text) {
  return abikit::test::writeTempFile(name, text);
}

// The acceptance case (tests/unit/test_callconv_riscv.cpp checks it through the library).
constexpr const char* kAcceptance = "struct P{float a; int b;}; struct Q{long long x,y,z;};\n"
                                    "void f(int, long long, struct P, double, struct Q, ...);\n";

TEST(DpuCallCli, AcceptanceExampleThroughTheCli) {
  std::string h = writeHeader("dpu_acc.h", "void f(int a, long long b, int c);\n");
  CliResult r = runCli("call --target dpu-upmem-dpurte " + h + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["schema"], "abikit/1");
  const json& f = doc["functions"][0];
  EXPECT_EQ(f["name"], "f");
  EXPECT_EQ(f["return"]["kind"], "ignore");
  const char* regs[] = {"r0", "d2", "r1"};
  const int sizes[] = {4, 8, 4};
  for (int i = 0; i < 3; ++i) {
    const json& p = f["params"][i];
    EXPECT_EQ(p["kind"], "direct");
    ASSERT_EQ(p["parts"].size(), 1u);
    EXPECT_EQ(p["parts"][0]["offset"], 0);
    EXPECT_EQ(p["parts"][0]["size"], sizes[i]);
    EXPECT_EQ(p["parts"][0]["loc"]["reg"], regs[i]);
  }
  EXPECT_EQ(f["stack_bytes"], 0);

  r = runCli("call --target dpu-upmem-dpurte " + h);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("d2"), std::string::npos);
}

TEST(DpuCallCli, VariadicJsonAndNotes) {
  std::string h = writeHeader("dpu_var.h", "struct S { int x; };\n"
                                           "int v(int a, int b, int c, int d, int e, int f, "
                                           "int g, int h, int i, ...);\n");
  CliResult r = runCli(
      {"call", "--target", "dpu-upmem-dpurte", h, "--variadic-args", "struct S, char", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json f = json::parse(r.out)["functions"][0];
  EXPECT_EQ(f["variadic"], true);
  const json& s = f["params"][9];
  EXPECT_EQ(s["variadic"], true);
  EXPECT_EQ(s["kind"], "indirect");
  EXPECT_EQ(s["byval"], true);
  EXPECT_EQ(s["align"], 4);
  EXPECT_EQ(s["parts"][0]["loc"]["stack"], 4);
  const json& c = f["params"][10];
  EXPECT_EQ(c["type"], "int"); // char promoted
  EXPECT_EQ(c["parts"][0]["loc"]["stack"], 8);
  EXPECT_EQ(f["stack_bytes"], 12);
  ASSERT_EQ(f["notes"].size(), 1u);
  EXPECT_NE(f["notes"][0].get<std::string>().find("va_start"), std::string::npos);
}

// A prototype the target cannot express is an error for that function only (exit 1); when it is
// the only one asked for, nothing is written to stdout.
TEST(DpuCallCli, RejectionIsReportedForThatFunction) {
  std::string h = writeHeader("dpu_bad.h", "void ok(int);\nvoid f(__fp16 h);\n");
  CliResult r = runCli("call --target dpu-upmem-dpurte " + h + " --json");
  EXPECT_EQ(r.exit_code, 1);
  json doc = json::parse(r.out);
  ASSERT_EQ(doc["functions"].size(), 2u);
  EXPECT_EQ(doc["functions"][0]["name"], "ok");
  EXPECT_EQ(doc["functions"][1]["name"], "f");
  EXPECT_NE(doc["functions"][1]["error"].get<std::string>().find("parameter 'h' has type __fp16"),
            std::string::npos);
  EXPECT_NE(r.err.find("dpu_bad.h:2:15: error: function 'f': parameter 'h' has type __fp16"),
            std::string::npos)
      << r.err;
  r = runCli("call --target dpu-upmem-dpurte " + h + " --json --function f");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("function 'f': parameter 'h' has type __fp16"), std::string::npos) << r.err;
}

TEST(IpuCallCli, JsonPairsAndSplitHalves) {
  std::string h = writeHeader("ipu_pairs.h", "#include <ipudef.h>\n"
                                             "double f(int a, int2 v, long long x, float y);\n");
  CliResult r = runCli("call --target colossus-graphcore-elf " + h + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json f = json::parse(r.out)["functions"][0];
  EXPECT_EQ(f["return"]["parts"][0]["loc"]["reg"], "$m0");
  EXPECT_EQ(f["return"]["parts"][1]["loc"]["reg"], "$m1");
  EXPECT_EQ(f["params"][1]["parts"][0]["loc"]["reg"], "$m2:3");
  EXPECT_EQ(f["params"][1]["parts"][0]["size"], 8);
  // x: low half back-fills $m1, high half finds no register
  EXPECT_EQ(f["params"][2]["parts"][0]["loc"]["reg"], "$m1");
  EXPECT_EQ(f["params"][2]["parts"][1]["loc"]["stack"], 0);
  EXPECT_EQ(f["params"][2]["parts"][1]["offset"], 4);
  EXPECT_EQ(f["params"][3]["parts"][0]["loc"]["reg"], "$a0");
  EXPECT_EQ(f["stack_bytes"], 4);
}

TEST(IpuCallCli, RejectsAVariadicVectorCall) {
  std::string h = writeHeader("ipu_var.h", "#include <ipudef.h>\nvoid v(int n, ...);\n");
  CliResult r =
      runCli("call --target colossus-graphcore-elf " + h + " --variadic-args float2 --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("function 'v': an extra argument has type float2"), std::string::npos)
      << r.err;
  r = runCli("call --target colossus-graphcore-elf " + h + " --variadic-args int --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(IpuCallCli, ModesChangeWhereFloatGoes) {
  std::string h = writeHeader("ipu_mode.h", "float f(float x);\n");
  auto reg = [&](const std::string& flags) {
    CliResult r = runCli("call --target colossus-graphcore-elf " + flags + " " + h + " --json");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out)["functions"][0]["params"][0]["parts"][0]["loc"]["reg"];
  };
  EXPECT_EQ(reg(""), "$a0");
  EXPECT_EQ(reg("-mworker"), "$a0");
  EXPECT_EQ(reg("-msupervisor"), "$m0");
  EXPECT_EQ(reg("-msupervisor -mworker"), "$m0");
}

TEST(AmdgpuCallCli, JsonAndText) {
  std::string h = writeHeader("amdgpu_call.h", "struct S { char a; int b; double c; };\n"
                                               "void f(struct S s, long l, char c);\n");
  CliResult r = runCli("call --target amdgcn-amd-amdhsa -mcpu=gfx906 " + h + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  const auto& p = doc["functions"][0]["params"];
  EXPECT_EQ(p[0]["kind"], "direct");
  EXPECT_EQ(p[0]["parts"][0]["loc"]["reg"], "v0");
  EXPECT_EQ(p[0]["parts"][1]["offset"], 4);
  EXPECT_EQ(p[1]["parts"][0]["loc"]["reg"], "v4");
  EXPECT_EQ(p[2]["kind"], "extend");
  EXPECT_EQ(p[2]["extend"], "sign");

  std::string k = writeHeader("amdgpu_kern.cl", "__kernel void k(__global int *p, int n);\n");
  r = runCli("call --target amdgcn-amd-amdhsa -mcpu=gfx906 " + k + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["functions"][0]["params"][1]["parts"][0]["loc"]["kernarg"], 8);
  r = runCli("call --target amdgcn-amd-amdhsa -mcpu=gfx906 " + k);
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("kernarg[8]"), std::string::npos);

  std::string v = writeHeader("amdgpu_var.h", "int v(int, ...);\n");
  r = runCli("call --target amdgcn-amd-amdhsa -mcpu=gfx906 " + v);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("variadic"), std::string::npos);
}

TEST(RiscvCallCli, AcceptanceCase) {
  std::string path = writeHeader("riscv_acceptance.h", kAcceptance);
  CliResult r =
      runCli("call --target riscv32-unknown-elf -march=rv32imafd -mabi=ilp32d " + path + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(r.err, "");
  const std::string& out = r.out;
  auto count = [&](const std::string& s) {
    size_t n = 0;
    for (size_t at = out.find(s); at != std::string::npos; at = out.find(s, at + 1)) ++n;
    return n;
  };
  EXPECT_NE(out.find("\"target\": \"riscv32-unknown-elf -march=rv32imafd -mabi=ilp32d\""),
            std::string::npos);
  for (const char* reg : {"a0", "a1", "a2", "fa0", "a3", "fa1", "a4"})
    EXPECT_EQ(count(std::string("\"reg\": \"") + reg + "\""), 1u) << reg << "\n" << out;
  EXPECT_EQ(count("\"kind\": \"indirect\""), 1u);
  EXPECT_EQ(count("\"byval\": false"), 1u);
}

} // namespace

namespace {

// A record laid out with ms_struct bit-fields (whole units) has an IR type abikit does not model:
// the GPU lowerings refuse it by name rather than pass it as runs of bits (AMDGPU passes records
// of up to 8 bytes by their bytes alone, which the layout gives).
TEST(GpuCallCli, MsStructBitFieldsAreRefused) {
  std::string h = writeHeader(
      "ms_call.h", "#pragma ms_struct on\nstruct S { char c; long long b : 3; int d[4]; };\n"
                   "#pragma ms_struct off\nvoid f(struct S s);\n");
  for (const char* target : {"nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa"}) {
    CliResult r = runCli(std::string("call --target ") + target + " " + h + " --function f");
    EXPECT_EQ(r.exit_code, 1) << target;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("struct S has ms_struct bit-fields"), std::string::npos) << r.err;
  }
}

} // namespace
