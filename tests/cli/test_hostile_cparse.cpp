// Hostile input to the C front-end through the command line: deep nesting, huge macro
// expansions, many #line files, oversized and non-regular inputs, injected type lists, records
// past the size limit. Every case is generated here (no checked-in megabytes) and run with a
// time and memory limit: one clear error and exit 1 with nothing on stdout, or a correct answer.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using abikit::test::CliLimits;
using abikit::test::CliResult;
using abikit::test::runCli;
using abikit::test::TempDir;

// The limits every hostile case runs under.
CliLimits hostileLimits() {
  CliLimits l;
  l.seconds = 2;
  l.memory_bytes = size_t(512) << 20;
  return l;
}

std::string repeat(std::string_view s, size_t n) {
  std::string r;
  r.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) r += s;
  return r;
}

// One clear error (FILE:LINE:COL or "abikit: error:"), exit 1, nothing on stdout, within limits.
void expectOneError(const CliResult& r, std::string_view want) {
  EXPECT_EQ(r.exit_code, 1) << r.summary();
  EXPECT_FALSE(r.timed_out) << r.summary();
  EXPECT_EQ(r.out_bytes, 0u) << r.summary();
  EXPECT_NE(r.err.find(want), std::string::npos) << r.summary();
  EXPECT_NE(r.err.find("error: "), std::string::npos) << r.summary();
}

const char* kRiscv[] = {"--target", "riscv64-unknown-elf"};

CliResult layoutOf(const std::string& text, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"layout", kRiscv[0], kRiscv[1], "-"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runCli(args, text, hostileLimits());
}

TEST(HostileCParse, TypeofAndAlignasNestingIsBounded) {
  for (std::string_view open : {"typeof(", "__typeof__(", "_Alignas(", "typeof(int (*)("}) {
    std::string text = "struct S { " + repeat(open, 6400) + "int" + repeat(")", 6400) + " x; };\n";
    expectOneError(layoutOf(text), "nested too deeply");
  }
  // Through enum fixed underlying types and parameter lists.
  std::string en = "struct S { " + repeat("typeof(enum : typeof(", 3200) + "int" +
                   repeat(") {A})", 3200) + " x; };\n";
  expectOneError(layoutOf(en), "nested too deeply");
  std::string params = "void f(" + repeat("typeof(void (*)(", 3200) + "int" + repeat("))", 3200) +
                       ");\nstruct S { int x; };\n";
  expectOneError(layoutOf(params), "nested too deeply");
}

} // namespace

namespace {

TEST(HostileCParse, ErrorsOnHugeLinesShowAWindow) {
  TempDir dir;
  // A 100 MB line: one identifier that names no type, and a valid line after a long comment.
  std::string text = "struct S { " + std::string(size_t(100) << 20, 'x') + " y; };\n";
  CliResult r =
      runCli({"layout", kRiscv[0], kRiscv[1], dir.write("long.h", text)}, {}, hostileLimits());
  expectOneError(r, "long.h:1:12: error: ");
  EXPECT_LT(r.err.size(), 8192u) << r.summary();
  text.clear();
  text =
      "struct S { int a; }; /*" + std::string(size_t(50) << 20, '-') + "*/ struct T { int x };\n";
  r = runCli({"layout", kRiscv[0], kRiscv[1], dir.write("long2.h", text)}, {}, hostileLimits());
  expectOneError(r, "long2.h:1:");
  EXPECT_LT(r.err.size(), 8192u) << r.summary();
  // The caret stays under the column it points at inside the window.
  size_t caret = r.err.rfind('^'), line = r.err.rfind('\n', caret);
  size_t shown = r.err.rfind('\n', line - 1);
  ASSERT_NE(shown, std::string::npos);
  EXPECT_EQ(r.err.substr(shown + 1 + (caret - line - 1), 1), "}") << r.err;
}

TEST(HostileCParse, InputSizeIsLimitedAndFileTypesChecked) {
  TempDir dir;
  // A 2 GiB file of NULs (sparse): refused before it is read.
  std::string sparse = dir.path() + "/zeros.h";
  {
    std::FILE* f = std::fopen(sparse.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fseek(f, (long(1) << 31) - 1, SEEK_SET);
    std::fputc(0, f);
    std::fclose(f);
  }
  expectOneError(runCli({"layout", kRiscv[0], kRiscv[1], sparse}, {}, hostileLimits()),
                 "is larger than the input size limit of 1073741824 bytes (--max-input-size)");
  // The limit is a flag (sizes with units too).
  std::string small = dir.write("small.h", "struct S { int x; };\n" + std::string(3000, ' '));
  expectOneError(runCli({"layout", kRiscv[0], kRiscv[1], small, "--max-input-size", "2K"}, {},
                        hostileLimits()),
                 "is larger than the input size limit of 2048 bytes");
  CliResult ok = runCli({"layout", kRiscv[0], kRiscv[1], small, "--max-input-size", "1M"}, {},
                        hostileLimits());
  EXPECT_EQ(ok.exit_code, 0) << ok.summary();
  // Endless standard input: stopped at the limit.
  CliLimits zero = hostileLimits();
  zero.stdin_path = "/dev/zero";
  expectOneError(runCli({"layout", kRiscv[0], kRiscv[1], "-", "--max-input-size", "64M"}, {}, zero),
                 "'<stdin>' is larger than the input size limit of 67108864 bytes");
  // At the default limit the memory limit may come first: still one error, exit 1.
  CliResult big = runCli({"layout", kRiscv[0], kRiscv[1], "-"}, {}, zero);
  EXPECT_EQ(big.exit_code, 1) << big.summary();
  EXPECT_EQ(big.out_bytes, 0u) << big.summary();
  // Not a file to read: a directory, a device.
  expectOneError(runCli({"layout", kRiscv[0], kRiscv[1], dir.path()}, {}, hostileLimits()),
                 "is a directory");
  expectOneError(runCli({"layout", kRiscv[0], kRiscv[1], "/dev/zero"}, {}, hostileLimits()),
                 "'/dev/zero' is not a regular file");
  expectOneError(runCli({"call", kRiscv[0], kRiscv[1], "/dev/zero"}, {}, hostileLimits()),
                 "'/dev/zero' is not a regular file");
  // The whole translation unit counts: the main file and what it includes.
  std::string inc = dir.write("inc.h", "struct I { int x; };\n" + std::string(1500, ' '));
  std::string main = dir.write("main.h", "#include \"inc.h\"\n" + std::string(1000, ' '));
  expectOneError(
      runCli({"layout", kRiscv[0], kRiscv[1], main, "--max-input-size", "2K"}, {}, hostileLimits()),
      "main.h:1:10: error: the source text read reaches the input size limit of 2048");
}

TEST(HostileCParse, MacroArgumentsNestedDeeplyStayBounded) {
  for (size_t n : {size_t(300), size_t(100000)}) {
    std::string text = "#define F(x) x\nint a[" + repeat("F(", n) + "1" + repeat(")", n) +
                       "];\nstruct S { int x; };\n";
    expectOneError(layoutOf(text), n > 256 && n < 1000 ? "macro expansion nested too deeply"
                                                       : "is too large: its arguments");
  }
  // 200 levels are fine.
  std::string text =
      "#define F(x) x\nstruct S { char c[" + repeat("F(", 200) + "3" + repeat(")", 200) + "]; };\n";
  CliResult r = layoutOf(text, {"--json"});
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_NE(r.out.find("\"size\": 3,"), std::string::npos) << r.out;
}

TEST(HostileCParse, ManyLineDirectivesAreLinear) {
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "#line " + std::to_string(i + 1) + " \"file" + std::to_string(i) + ".h\"\n";
  text += "struct S { int x; };\n";
  CliResult r = layoutOf(text, {"--json"});
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_NE(r.out.find("\"size\": 4,"), std::string::npos) << r.out.substr(0, 300);
}

TEST(HostileCParse, TypeListsAreParsedNotSpliced) {
  TempDir dir;
  std::string h =
      dir.write("v.h", "int printf(const char *, ...);\nstruct S { int a; double b; };\n");
  auto call = [&](const std::string& types) {
    return runCli({"call", kRiscv[0], kRiscv[1], h, "--variadic-args", types}, {}, hostileLimits());
  };
  CliResult ok = call("int, double, struct S, int (*)(int, int)");
  EXPECT_EQ(ok.exit_code, 0) << ok.summary();
  EXPECT_NE(ok.out.find("int (*)(int, int)"), std::string::npos) << ok.out;
  // A ')' no longer ends a probe prototype, a newline no longer starts a directive.
  for (std::string evil : {"int);\n#include \"/etc/hostname\"\nvoid g(int",
                           "int); struct Evil{int x;}; void g(int", "int\n#define X 1\n"}) {
    CliResult r = call(evil);
    expectOneError(r, "<--variadic-args>:");
    EXPECT_EQ(r.err.find("/etc/hostname:"), std::string::npos) << r.err;
  }
  expectOneError(call("dubble"), "<--variadic-args>:1:1: error: unknown type name 'dubble'");
  expectOneError(call("int,"), "expected a type name");
  EXPECT_EQ(call("dubble").err.find("__abikit"), std::string::npos);
}

TEST(HostileCParse, RecordSizesDoNotWrap) {
  // Members adding up past 2^61 bytes (and past 2^64 bits) are "too large", never a wrapped size.
  for (int k : {2, 3, 4, 8, 9, 16, 17}) {
    std::string text = "struct S {";
    for (int i = 0; i < k; ++i) text += " char a" + std::to_string(i) + "[1ULL << 60];";
    text += " };\n";
    expectOneError(layoutOf(text), "struct S is too large");
  }
  std::string max = "struct T {";
  for (int i = 0; i < 9; ++i) max += " char a" + std::to_string(i) + "[(1ULL << 61) - 1];";
  expectOneError(layoutOf(max + " };\n"), "struct T is too large");
  expectOneError(layoutOf(max + " int bf : 3; };\n"), "struct T is too large");
  expectOneError(layoutOf("struct U { char a[(1ULL << 61) - 1]; char b; } "
                          "__attribute__((aligned(1 << 28)));\n"),
                 "struct U is too large");
  // The largest that fits is answered.
  CliResult r =
      layoutOf("struct V { char a[1ULL << 60]; char b[(1ULL << 60) - 1]; };\n", {"--json"});
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_NE(r.out.find("\"size\": 2305843009213693951,"), std::string::npos) << r.out;
}

} // namespace
