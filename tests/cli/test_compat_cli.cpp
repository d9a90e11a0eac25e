// `abikit compat` through the command line: the exit status is the answer (0 all agree, 1 any
// difference, with the report on stdout), the JSON of cli-contract.md, --record, the assertion
// files, and the errors (one target, an unknown flag in a target string, a bad -march, an
// unknown record).
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;

const char* const kHeader = "struct job { int id; long long total; };\n"
                            "struct same { int a; int b; };\n";

TEST(CompatCli, DifferencesAreTheAnswer) {
  CliResult r = runCli(
      {"compat", "-", "--target", "x86_64-linux-gnu", "--target", "i386-linux-gnu"}, kHeader);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("struct job: differs\n  size: 16, 12\n  align: 8, 4\n"
                       "  'total' offset: 8, 4\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("struct same: same (size 8, align 4)"), std::string::npos);
  CliResult same = runCli({"compat", "-", "--target", "x86_64-linux-gnu", "--target",
                           "riscv64-unknown-elf -march=rv64gc -mabi=lp64d", "--record", "same"},
                          kHeader);
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
}

TEST(CompatCli, JsonFollowsTheContract) {
  CliResult r = runCli({"compat", "-", "--json", "--target", "x86_64-linux-gnu", "--target",
                        "dpu-upmem-dpurte -mcpu=v1B"},
                       "struct s { long double ld; char c; };\n");
  EXPECT_EQ(r.exit_code, 1);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "abikit/1");
  EXPECT_EQ(doc["targets"][1], "dpu-upmem-dpurte -mcpu=v1B");
  const auto& rec = doc["records"][0];
  EXPECT_EQ(rec["name"], "struct s");
  EXPECT_EQ(rec["same"], false);
  EXPECT_EQ(rec["layouts"][0]["size"], 32);
  EXPECT_EQ(rec["layouts"][1]["size"], 16);
  bool offset = false;
  for (const auto& d : rec["differences"])
    if (d.value("field", "") == "c" && d["what"] == "offset") {
      offset = true;
      EXPECT_EQ(d["values"], nlohmann::json::parse("[16, 8]"));
    }
  EXPECT_TRUE(offset) << r.out;
  EXPECT_FALSE(rec["notes"].empty());
}

TEST(CompatCli, OneAssertionFilePerTarget) {
  CliResult r = runCli({"compat", "-", "--emit-c-asserts", "--target", "x86_64-linux-gnu",
                        "--target", "aarch64-linux-gnu"},
                       kHeader);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("// ---- x86_64-linux-gnu.c\n/* abikit compat: for x86_64-linux-gnu, the "
                       "layout of aarch64-linux-gnu */"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("// ---- aarch64-linux-gnu.c"), std::string::npos);
  EXPECT_NE(r.out.find("_Static_assert(sizeof(struct job) == 16"), std::string::npos);
}

TEST(CompatCli, Errors) {
  CliResult one = runCli({"compat", "-", "--target", "x86_64-linux-gnu"}, kHeader);
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_EQ(one.out, "");
  EXPECT_NE(one.err.find("at least two --target"), std::string::npos) << one.err;
  CliResult flags =
      runCli({"compat", "-", "--target", "x86_64-linux-gnu --bogus", "--target", "i386-linux-gnu"},
             kHeader);
  EXPECT_EQ(flags.exit_code, 1);
  EXPECT_EQ(flags.out, "");
  EXPECT_NE(flags.err.find("--target 'x86_64-linux-gnu --bogus'"), std::string::npos) << flags.err;
  CliResult bad = runCli({"compat", "-", "--target", "x86_64-linux-gnu", "--target",
                          "riscv64-unknown-elf -march=rv64qq"},
                         kHeader);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  CliResult none = runCli({"compat", "-", "--target", "x86_64-linux-gnu", "--target",
                           "i386-linux-gnu", "--record", "nothing"},
                          kHeader);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_EQ(none.out, "");
  EXPECT_NE(none.err.find("no record named 'nothing'"), std::string::npos) << none.err;
}

// A .cu file's device side follows --host-target (docs/offload.md).
TEST(CompatCli, CudaDeviceFollowsItsHost) {
  abikit::test::TempDir dir;
  std::string cu = dir.write("k.cu", "struct W { wchar_t w; long l; };\n");
  // clang-14's device keeps the Itanium rules with an MSVC host, which abikit models; clang-22's
  // takes the Microsoft ones, but not as the host does: refused until modelled.
  CliResult same =
      runCli({"compat", cu, "--target", "x86_64-pc-windows-msvc", "--target",
              "nvptx64-nvidia-cuda --compiler clang-14 --host-target x86_64-pc-windows-msvc"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("struct W: same (size 8, align 4)"), std::string::npos) << same.out;
  CliResult refused = runCli({"compat", cu, "--target", "x86_64-pc-windows-msvc", "--target",
                              "nvptx64-nvidia-cuda --host-target x86_64-pc-windows-msvc"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find("does not model how clang-22 lays out"), std::string::npos)
      << refused.err;
  // The default host, x86_64-linux-gnu, has 4-byte wchar_t and 8-byte long.
  CliResult differ = runCli(
      {"compat", cu, "--target", "x86_64-pc-windows-msvc", "--target", "nvptx64-nvidia-cuda"});
  EXPECT_EQ(differ.exit_code, 1);
  EXPECT_NE(differ.out.find("struct W: differs\n  size: 8, 16\n"), std::string::npos) << differ.out;
  CliResult bad = runCli({"compat", cu, "--target", "x86_64-linux-gnu", "--target",
                          "riscv64-unknown-elf --host-target x86_64-linux-gnu"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_NE(bad.err.find("--host-target applies to the CUDA/HIP device targets"), std::string::npos)
      << bad.err;
}

} // namespace
