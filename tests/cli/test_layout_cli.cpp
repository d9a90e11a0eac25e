// `abikit layout` through the command line: the text view (holes, bit positions, tail padding),
// the JSON shape of cli-contract.md, --record, the C assertion file, preprocessor flags, large
// files against standard input, errors and exit codes, and the bundled example header on all
// five targets.
#include "cli_runner.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;

const std::string kExample = std::string(ABIKIT_SOURCE_DIR) + "/examples/example.h";

TEST(LayoutCli, ExampleHeaderWorksOnEveryFamily) {
  const char* targets[] = {"--target riscv64-unknown-elf -march=rv64gc",
                           "--target riscv32-unknown-elf -march=rv32e",
                           "--target dpu-upmem-dpurte",
                           "--target colossus-graphcore-elf",
                           "--target nvptx64-nvidia-cuda",
                           "--target amdgcn-amd-amdhsa -mcpu=gfx906"};
  for (const char* t : targets) {
    CliResult r = runCli(std::string("layout ") + t + " " + kExample + " --json");
    ASSERT_EQ(r.exit_code, 0) << t << "\n" << r.err;
    nlohmann::json doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["schema"], "abikit/1");
    EXPECT_GE(doc["records"].size(), 11u) << t;
    CliResult text = runCli(std::string("layout ") + t + " " + kExample);
    EXPECT_EQ(text.exit_code, 0) << t << "\n" << text.err;
    EXPECT_NE(text.out.find("struct packet_header {"), std::string::npos);
  }
}

TEST(LayoutCli, JsonFollowsTheContract) {
  CliResult r = runCli("layout --target riscv64-unknown-elf -march=rv64gc - --json",
                       "struct S { double d; char c; int b : 7; };\n"
                       "struct A { char t; union { int x; float y; }; };\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["target"], "riscv64-unknown-elf -march=rv64gc -mabi=lp64d");
  ASSERT_EQ(doc["records"].size(), 2u);
  const auto& s = doc["records"][0];
  EXPECT_EQ(s["name"], "struct S");
  EXPECT_EQ(s["kind"], "struct");
  EXPECT_EQ(s["size"], 16);
  EXPECT_EQ(s["align"], 8);
  const auto& b = s["fields"][2];
  EXPECT_EQ(b["name"], "b");
  EXPECT_EQ(b["type"], "int");
  EXPECT_EQ(b["bit_offset"], 72);
  EXPECT_EQ(b["offset"], 9);
  EXPECT_EQ(b["bit_width"], 7);
  EXPECT_EQ(b["size"], 4);
  EXPECT_EQ(b["align"], 4);
  EXPECT_FALSE(s["fields"][0].contains("bit_width"));
  // Anonymous members: one entry with their own fields, offsets from the outer record.
  const auto& anon = doc["records"][1]["fields"][1];
  EXPECT_EQ(anon["name"], "");
  EXPECT_EQ(anon["anonymous"], true);
  EXPECT_EQ(anon["kind"], "union");
  EXPECT_EQ(anon["offset"], 4);
  ASSERT_EQ(anon["fields"].size(), 2u);
  EXPECT_EQ(anon["fields"][1]["name"], "y");
  EXPECT_EQ(anon["fields"][1]["offset"], 4);
}

TEST(LayoutCli, TextShowsHolesBitPositionsAndPadding) {
  CliResult r = runCli("layout --target dpu-upmem-dpurte -",
                       "struct S { char c; long l; int b : 7; int : 0; short s; };\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& t = r.out;
  EXPECT_NE(t.find("/* dpu-upmem-dpurte -mcpu=v1A */"), std::string::npos) << t;
  EXPECT_NE(t.find("/* XXX 7 bytes hole */"), std::string::npos) << t;
  EXPECT_NE(t.find("int b:7;"), std::string::npos) << t;
  EXPECT_NE(t.find("16:0"), std::string::npos) << t;
  EXPECT_NE(t.find("/* XXX 1 bit + 3 bytes hole */"), std::string::npos) << t;
  EXPECT_NE(t.find("int :0;"), std::string::npos) << t;
  EXPECT_NE(t.find("/* XXX 2 bytes tail padding */"), std::string::npos) << t;
  EXPECT_NE(t.find("/* size: 24, align: 8, members: 5, holes: 1 (7 bytes), bit holes: 1 (25 "
                   "bits), padding: 2 */"),
            std::string::npos)
      << t;
}

TEST(LayoutCli, RecordSelection) {
  std::string src = "struct A { int a; }; typedef struct { char c; } B; union C { int i; };\n";
  CliResult r = runCli({"layout", "--target", "dpu-upmem-dpurte", "-", "--record", "B", "--record",
                        "union C", "--json"},
                       src);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["records"].size(), 2u);
  EXPECT_EQ(doc["records"][0]["name"], "B");
  EXPECT_EQ(doc["records"][1]["name"], "union C");
  CliResult bad = runCli("layout --target dpu-upmem-dpurte - --record nope", src);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_NE(bad.err.find("no record named 'nope'"), std::string::npos) << bad.err;
}

TEST(LayoutCli, LargeFilesAreReadAsStandardInputIs) {
  // A file of 1 MiB or more is mapped, with zero pages after it for the padding the lexer
  // reads; standard input is read into memory. Texts that end on a page boundary, just before
  // one and inside a token or a comment give the same answers and errors both ways.
  const std::string tails[] = {"struct S { int x; };\n", "struct S { int x; }", "/* open",
                               "struct S { int x; };\nstruct T { char c"};
  for (size_t extra : {size_t(0), size_t(1), size_t(4095)}) {
    for (const std::string& tail : tails) {
      size_t size = (size_t(1) << 20) + extra;
      std::string text = "/*";
      text.append(size - tail.size() - 6, 'x');
      text += "*/\n\n" + tail;
      ASSERT_EQ(text.size(), size);
      char path[] = "/tmp/abikit-large-XXXXXX";
      int fd = mkstemp(path);
      ASSERT_GE(fd, 0);
      close(fd);
      std::ofstream(path, std::ios::binary) << text;
      CliResult file = runCli(std::string("layout --target riscv64-unknown-elf ") + path);
      CliResult in = runCli("layout --target riscv64-unknown-elf -", text);
      std::remove(path);
      EXPECT_EQ(file.exit_code, in.exit_code) << tail;
      EXPECT_EQ(file.out, in.out) << tail;
      std::string err = file.err;
      for (size_t at; (at = err.find(path)) != std::string::npos;)
        err.replace(at, std::string(path).size(), "<stdin>");
      EXPECT_EQ(err, in.err) << tail;
      EXPECT_EQ(file.exit_code == 0, tail.back() == '\n') << file.err;
    }
  }
}

TEST(LayoutCli, PreprocessorFlagsTakeOneValueEachAsInACompiler) {
  // `-I DIR FILE`, `-D NAME FILE`: the file is the input, not a second directory or macro.
  std::string dir = std::string(ABIKIT_SOURCE_DIR) + "/examples";
  std::string src = "#include \"example.h\"\n#if N == 3 && defined(FLAG) && !defined(GONE)\n"
                    "struct picked { int x; };\n#endif\n";
  CliResult r = runCli("layout --target riscv64-unknown-elf -I " + dir +
                           " -D N=3 -D FLAG -DGONE -U GONE "
                           "-I" +
                           dir + " - --record picked --json",
                       src);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["records"].size(), 1u);
  EXPECT_EQ(doc["records"][0]["name"], "struct picked");
}

TEST(LayoutCli, ErrorsExitOneWithAPositionAndNoOutput) {
  CliResult r = runCli("layout --target dpu-upmem-dpurte - --json",
                       "struct ok { int a; };\nstruct S {\n  char c;\n  __int128 x;\n};\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("__int128"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(":4:"), std::string::npos) << r.err;
  CliResult bits =
      runCli("layout --target colossus-graphcore-elf -", "struct S { _Bool b : 2; };\n");
  EXPECT_EQ(bits.exit_code, 1);
  EXPECT_EQ(bits.out, "");
  EXPECT_NE(bits.err.find(":1:"), std::string::npos) << bits.err;
  EXPECT_NE(bits.err.find("'b'"), std::string::npos) << bits.err;
  CliResult both = runCli("layout --target dpu-upmem-dpurte - --json --emit-c-asserts", "");
  EXPECT_EQ(both.exit_code, 2);
}

TEST(LayoutCli, CAssertsForStandardInputCarryTheDeclarations) {
  CliResult r =
      runCli("layout --target riscv32-unknown-elf -march=rv32imac - --emit-c-asserts -DN=3",
             "struct S { char c[N]; int x; unsigned f : 3; };\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string& c = r.out;
  EXPECT_NE(c.find("#include <stddef.h>"), std::string::npos);
  EXPECT_NE(c.find("#define N 3"), std::string::npos) << c;
  EXPECT_NE(c.find("struct S { char c[N]; int x; unsigned f : 3; };"), std::string::npos) << c;
  EXPECT_NE(c.find("_Static_assert(sizeof(struct S) == 12,"), std::string::npos) << c;
  EXPECT_NE(c.find("_Static_assert(offsetof(struct S, x) == 4,"), std::string::npos) << c;
  EXPECT_NE(c.find("_Static_assert(sizeof(((struct S *)0)->c) == 3,"), std::string::npos) << c;
  EXPECT_NE(c.find("/* f: bit-field at bit 64 (byte 8, bit 0), width 3"), std::string::npos) << c;
  CliResult file = runCli("layout --target dpu-upmem-dpurte " + kExample + " --emit-c-asserts");
  ASSERT_EQ(file.exit_code, 0) << file.err;
  EXPECT_NE(file.out.find("#include \"" + kExample + "\""), std::string::npos);
}

TEST(LayoutCli, HostTargetOfCudaSources) {
  abikit::test::TempDir dir;
  std::string cu = dir.write("k.cu", "struct C { char a; int : 0; char b; };\n");
  CliResult r = runCli(
      {"layout", "--target", "nvptx64-nvidia-cuda", "--host-target", "aarch64-linux-gnu", cu});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("/* nvptx64-nvidia-cuda -mcpu=sm_30 --host-target aarch64-linux-gnu */", 0),
            0u)
      << r.out;
  EXPECT_NE(r.out.find("size: 8, align: 4"), std::string::npos) << r.out;
  CliResult x86 = runCli({"layout", "--target", "nvptx64-nvidia-cuda", cu});
  EXPECT_NE(x86.out.find("size: 5, align: 1"), std::string::npos) << x86.out;
  CliResult bad =
      runCli({"layout", "--target", "nvptx64-nvidia-cuda", "--host-target", "i386-linux-gnu", cu});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.out, "");
  EXPECT_NE(bad.err.find("32-bit pointers"), std::string::npos) << bad.err;
  CliResult describe =
      runCli({"describe", "--target", "nvptx64-nvidia-cuda", "--host-target", "x86_64-linux-gnu"});
  EXPECT_EQ(describe.exit_code, 2); // a usage error: describe shows the C data model, no host
}

} // namespace
