// The source language on the command line (-x, -cl-std) and per-declaration answers: a function
// or kernel the target cannot express is reported on stderr while the others are answered
// (call, ptx, kernarg), exit 1.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;
using abikit::test::writeTempFile;

const char* const kAmd = "--target amdgcn-amd-amdhsa -mcpu=gfx906 ";

TEST(LanguageCli, OpenCLStandard) {
  std::string f = writeTempFile("std.cl", "struct S { char *p; int x; };\n");
  // clang's default is OpenCL C 1.2: the pointee is private, a 32-bit pointer on AMDGPU.
  CliResult r = runCli(std::string("layout ") + kAmd + f + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"][0]["size"], 8);
  for (const char* std : {"-cl-std=CL2.0", "--cl-std=CL2.0", "-cl-std=cl2.0"}) {
    r = runCli(std::string("layout ") + kAmd + f + " --json " + std);
    ASSERT_EQ(r.exit_code, 0) << std << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["records"][0]["size"], 16) << std;
  }
  r = runCli(std::string("layout ") + kAmd + f + " -cl-std=CL3.0 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"][0]["size"], 8); // no generic space (clang-14)

  r = runCli(std::string("layout ") + kAmd + f + " -cl-std=CL2.2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("invalid value 'CL2.2' in '-cl-std'"), std::string::npos) << r.err;
  r = runCli(std::string("layout ") + kAmd + f + " -cl-std=clc++");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("C++ for OpenCL is not supported"), std::string::npos) << r.err;

  // -cl-std needs OpenCL C; -x names the language of a file whatever its name.
  std::string h = writeTempFile("std.h", "struct S { char *p; int x; };\n");
  r = runCli(std::string("layout ") + kAmd + h + " -cl-std=CL2.0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("-cl-std=CL2.0 applies to OpenCL C sources"), std::string::npos) << r.err;
  r = runCli(std::string("layout ") + kAmd + h + " -x cl --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"][0]["size"], 8);
  r = runCli(std::string("layout ") + kAmd + h + " -x fortran");
  EXPECT_EQ(r.exit_code, 2);

  // The kernel metadata's .language_version is the version.
  std::string k = writeTempFile("k.cl", "kernel void k(global int *p) {}\n");
  r = runCli(std::string("kernarg ") + kAmd + k + " --yaml");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(".language_version:\n      - 1\n      - 2\n"), std::string::npos) << r.out;
  r = runCli(std::string("kernarg ") + kAmd + k + " --yaml -cl-std=CL2.0");
  EXPECT_NE(r.out.find(".language_version:\n      - 2\n      - 0\n"), std::string::npos) << r.out;
  // `generic` needs OpenCL C 2.0 (or 3.0 where the target has it).
  std::string g = writeTempFile("g.cl", "struct G { generic int *g; };\n");
  r = runCli(std::string("layout ") + kAmd + g);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("g.cl:1:12: error: OpenCL C version 1.2 does not support the 'generic' "
                       "type qualifier"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(runCli(std::string("layout ") + kAmd + g + " -cl-std=CL2.0").exit_code, 0);
}

TEST(LanguageCli, CallAnswersEachFunction) {
  std::string f = writeTempFile("each.h", "int printf(const char *, ...);\nint f(int a);\n"
                                          "long g(long x, long y);\n");
  CliResult r = runCli(std::string("call ") + kAmd + f);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("\nf\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ng\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("printf"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("each.h:1:5: error: function 'printf': variadic functions"),
            std::string::npos)
      << r.err;

  r = runCli(std::string("call ") + kAmd + f + " --json");
  EXPECT_EQ(r.exit_code, 1);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["functions"].size(), 3u);
  EXPECT_EQ(doc["functions"][0]["name"], "printf");
  EXPECT_NE(doc["functions"][0]["error"].get<std::string>().find("variadic functions"),
            std::string::npos);
  EXPECT_FALSE(doc["functions"][0].contains("params"));
  EXPECT_EQ(doc["functions"][1]["name"], "f");
  EXPECT_FALSE(doc["functions"][1].contains("error"));
  EXPECT_EQ(doc["functions"][1]["params"].size(), 1u);

  // Every function answered: exit 0, nothing on stderr.
  r = runCli(std::string("call ") + kAmd + f + " --function f --function g");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  // None answered: the error, nothing on stdout.
  r = runCli(std::string("call ") + kAmd + f + " --function printf --json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("function 'printf'"), std::string::npos) << r.err;
}

TEST(LanguageCli, PtxAndKernargAnswerEachDeclaration) {
  // clang-14 crashes on variadic functions for NVPTX: abikit refuses them with that compiler.
  std::string f = writeTempFile("ptx_each.h", "int printf(const char *, ...);\nint f(int a);\n");
  CliResult r = runCli("ptx --target nvptx64-nvidia-cuda --compiler clang-14 " + f);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(".func  (.param .b32 func_retval0) f\n("), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("printf"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("ptx_each.h:1:5: error:"), std::string::npos) << r.err;
  r = runCli("ptx --target nvptx64-nvidia-cuda --compiler clang-14 --module " + f);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(".target sm_20"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("func_retval0) f\n("), std::string::npos) << r.out;

  std::string k =
      writeTempFile("each.cl", "kernel void bad(bool b) {}\nkernel void ok(int n) {}\n");
  r = runCli(std::string("kernarg ") + kAmd + k + " --json");
  EXPECT_EQ(r.exit_code, 1);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["kernels"].size(), 2u);
  EXPECT_EQ(doc["kernels"][0]["name"], "bad");
  EXPECT_TRUE(doc["kernels"][0].contains("error"));
  EXPECT_EQ(doc["kernels"][1]["name"], "ok");
  EXPECT_EQ(doc["kernels"][1]["args"][0]["name"], "n");
  EXPECT_NE(r.err.find("each.cl:1:"), std::string::npos) << r.err;
  r = runCli(std::string("kernarg ") + kAmd + k + " --yaml");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find(".name:           ok"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(".name:           bad"), std::string::npos) << r.out;
}

// Input that is not C: one line that says what it is, no raw control bytes on the terminal.
TEST(LanguageCli, BinaryAndCxxInput) {
  // The bytes of an object: NULs, and 0xE8 0x80 that start no well-formed UTF-8 character.
  std::string elf = writeTempFile("obj.h", std::string("\x7f"
                                                       "ELF\x02\x01\x01\xe8\x80\0\0\0",
                                                       12));
  CliResult r = runCli("layout --target x86_64-linux-gnu " + elf);
  EXPECT_EQ(r.exit_code, 1) << r.summary();
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("obj.h:1:1: error: this is an ELF file, not C source (abikit elf reads "
                       "objects and archives)"),
            std::string::npos)
      << r.err;
  for (char c : r.err) EXPECT_FALSE((c >= 0 && c < 0x20 && c != '\n' && c != '\t') || c == 0x7f);
  EXPECT_EQ(r.err.find('\xe8'), std::string::npos) << r.err; // shown as '?' in the source line
  std::string bin = writeTempFile("data.h", std::string("int x;\0\1\2", 9));
  r = runCli("layout --target x86_64-linux-gnu " + bin);
  EXPECT_NE(r.err.find("data.h:1:1: error: this is a binary file, not C source"), std::string::npos)
      << r.err;
  std::string inc = writeTempFile("inc.h", "#include \"obj.h\"\n");
  r = runCli("layout --target x86_64-linux-gnu " + inc);
  EXPECT_NE(r.err.find("inc.h:1:10: error: '"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("obj.h' is an ELF file, not C source"), std::string::npos) << r.err;
  // Bytes that are not UTF-8 in a name are shown as \xNN.
  std::string odd = writeTempFile("odd.h", "\x80\x81 x;\n");
  r = runCli("layout --target x86_64-linux-gnu " + odd);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown type name '\\x80\\x81'"), std::string::npos) << r.err;
  std::string cxx = writeTempFile("cls.h", "class A { int x; };\n");
  r = runCli("layout --target x86_64-linux-gnu " + cxx);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cls.h:1:1: error: unknown type name 'class' ('class' is C++, which "
                       "abikit does not read"),
            std::string::npos)
      << r.err;
}

// _Atomic: laid out as clang does; a function taking or returning one is not lowered, alone.
TEST(LanguageCli, AtomicTypes) {
  std::string f = writeTempFile(
      "at.h", "#include <stdatomic.h>\nstruct S { char c; _Atomic(struct { char a[3]; }) x; "
              "atomic_llong n; };\nint f(_Atomic int x);\nint g(atomic_int *p);\n");
  CliResult r = runCli("layout --target i386-linux-gnu --json --record S " + f);
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["records"][0]["size"], 16);
  EXPECT_EQ(j["records"][0]["fields"][1]["offset"], 4);
  EXPECT_EQ(j["records"][0]["fields"][1]["size"], 4);
  EXPECT_EQ(j["records"][0]["fields"][2]["offset"], 8);
  EXPECT_EQ(j["records"][0]["fields"][2]["type"], "atomic_llong");
  r = runCli("call --target riscv64-unknown-elf --json " + f);
  EXPECT_EQ(r.exit_code, 1) << r.summary();
  EXPECT_NE(r.err.find("at.h:3:5: error: function 'f': parameter 1 of type '_Atomic(int)' holds "
                       "an _Atomic value, which abikit does not lower"),
            std::string::npos)
      << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["functions"].size(), 2u);
  EXPECT_TRUE(j["functions"][0].contains("error"));
  EXPECT_FALSE(j["functions"][1].contains("error"));
  r = runCli("layout --target dpu-upmem-dpurte " + f);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("_Atomic types are not supported on dpu-upmem-dpurte"), std::string::npos)
      << r.err;
}

// --from: only the declarations made in the named files (a header's own records, not those of
// the headers it includes).
TEST(LanguageCli, FromKeepsOneFilesDeclarations) {
  abikit::test::TempDir dir;
  std::string lib = dir.write("lib.h", "struct Lib { int a; };\nint libf(int);\n");
  std::string top = dir.write(
      "top.h", "#include \"lib.h\"\nstruct Mine { char c; };\nint minef(struct Mine *p);\n");
  const std::string x86 = "--target x86_64-linux-gnu ";
  CliResult r = runCli("layout " + x86 + "--json " + top);
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"].size(), 2u);
  r = runCli("layout " + x86 + "--json --from top.h " + top);
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["records"].size(), 1u);
  EXPECT_EQ(j["records"][0]["name"], "struct Mine");
  r = runCli("layout " + x86 + "--json --from " + lib + " " + top); // a full path
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"][0]["name"], "struct Lib");
  r = runCli("call --target riscv64-unknown-elf --from lib.h " + top);
  ASSERT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_NE(r.out.find("libf"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("minef"), std::string::npos) << r.out;
  r = runCli("layout " + x86 + "--from top.h --from lib.h --json " + top);
  EXPECT_EQ(nlohmann::json::parse(r.out)["records"].size(), 2u);
  r = runCli("layout " + x86 + "--from other.h " + top);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--from 'other.h': no declaration of"), std::string::npos) << r.err;
}

} // namespace
