// `abikit kernarg` through the command line: the JSON and YAML views of AMDGPU kernel arguments,
// --kernel, -mhidden-args, --no-arg-names, and the errors and exit codes. The segments themselves
// are checked through the library in tests/unit/test_kernarg.cpp.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;

std::string writeFile(const std::string& name, const std::string& text) {
  return abikit::test::writeTempFile(name, text);
}

TEST(KernargCli, Contract) {
  std::string f = writeFile("kernarg_cli.cl", "__kernel void k(__global int *a, int b) {}\n"
                                              "__kernel void z(void) {}\n");
  CliResult r = runCli("kernarg --target amdgcn-amd-amdhsa -mcpu=gfx906 " + f +
                       " --json -mhidden-args=all --kernel k");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "abikit/1");
  ASSERT_EQ(doc["kernels"].size(), 1u);
  const auto& k = doc["kernels"][0];
  EXPECT_EQ(k["name"], "k");
  EXPECT_EQ(k["kernarg_segment_size"], 72);
  EXPECT_EQ(k["kernarg_segment_align"], 8);
  EXPECT_EQ(k["args"][0]["name"], "a");
  EXPECT_EQ(k["args"][0]["type_name"], "int*");
  EXPECT_EQ(k["args"][0]["offset"], 0);
  EXPECT_EQ(k["args"][0]["size"], 8);
  EXPECT_EQ(k["args"][0]["value_kind"], "global_buffer");
  EXPECT_EQ(k["args"][0]["address_space"], "global");
  EXPECT_EQ(k["args"][2]["value_kind"], "hidden_global_offset_x");
  EXPECT_EQ(k["args"][2]["offset"], 16);
  EXPECT_FALSE(k["args"][2].contains("name"));

  r = runCli("kernarg --target amdgcn-amd-amdhsa -mcpu=gfx906 " + f + " --yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  - .args:\n      - .address_space:  global\n        .name:           a\n"
                       "        .offset:         0\n        .size:           8\n"
                       "        .type_name:      'int*'\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  - .args:           []\n"), std::string::npos);

  r = runCli("kernarg --target amdgcn-amd-amdhsa -mcpu=gfx906 " + f + " --no-arg-names");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("global_buffer"), std::string::npos);

  r = runCli("kernarg --target amdgcn-amd-amdhsa " + f + " -mhidden-args=sometimes");
  EXPECT_EQ(r.exit_code, 2);
  r = runCli("kernarg --target riscv64-unknown-elf " + f);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  r = runCli("kernarg --target amdgcn-amd-amdhsa -mcpu=gfx906 " + f + " --kernel nope");
  EXPECT_EQ(r.exit_code, 1);
  std::string bad = writeFile("kernarg_bad.cl", "__kernel void b(bool x) {}\n");
  r = runCli("kernarg --target amdgcn-amd-amdhsa -mcpu=gfx906 " + bad);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("kernarg_bad.cl:1:"), std::string::npos) << r.err;
}

} // namespace
