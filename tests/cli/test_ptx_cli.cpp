// `abikit ptx` through the command line: selected prototypes, --module and --ptx-style, and the
// errors and exit codes. The PTX text itself is checked through the library in
// tests/unit/test_ptx.cpp.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using abikit::test::CliResult;

/// Runs `abikit ptx ARGS HEADER` on a header holding `input`.
CliResult runCli(const std::string& args, const std::string& input) {
  abikit::test::TempDir dir;
  std::string path = dir.write("abikit_ptx_test.h", input);
  return abikit::test::runCli("ptx " + args + " " + path);
}

TEST(PtxCli, PrintsSelectedPrototypes) {
  CliResult r = runCli("--target nvptx64-nvidia-cuda --function g --function f",
                       "int f(int x);\nvoid g(void) {}\n");
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out, ".visible .func g()\n\n.extern .func  (.param .b32 func_retval0) f\n(\n"
                   "\t.param .b32 f_param_0\n)\n;\n");
}

TEST(PtxCli, ModuleAndStyle) {
  CliResult r = runCli("--target nvptx64-nvidia-cuda -mcpu=sm_80 --module --ptx-style=nvcc",
                       "struct S { char c[3]; };\nstruct S f(struct S s);\n");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("as NVIDIA's nvcc 13 prints them"), std::string::npos);
  EXPECT_NE(r.out.find(".version 7.0\n.target sm_80\n.address_size 64\n"), std::string::npos);
  EXPECT_NE(r.out.find(".extern .func  (.param .align 1 .b8 func_retval0[3]) f\n"),
            std::string::npos);
}

TEST(PtxCli, Errors) {
  CliResult r = runCli("--target nvptx64-nvidia-cuda --function nope", "int f(int x);\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no function 'nope'"), std::string::npos);
  r = runCli("--target nvptx64-nvidia-cuda --compiler clang-14", "int f(int x, ...);\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("variadic"), std::string::npos);
  // clang-22 (the default) passes the extra arguments in a buffer: one more .param.
  r = runCli("--target nvptx64-nvidia-cuda", "int f(int x, ...);\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\t.param .b64 f_param_1\n"), std::string::npos) << r.out;
  r = runCli("--target nvptx64-nvidia-cuda --ptx-style=gcc", "int f(int x);\n");
  EXPECT_EQ(r.exit_code, 2);
  r = runCli("--target riscv64-unknown-elf", "int f(int x);\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("NVPTX target"), std::string::npos);
}

} // namespace
