// The command line as a user meets it: the version, help for the tool and for each command,
// unknown commands and options named (with the nearest known word), usage lines that start with
// `abikit`, and each command's help listing only the target flags it reads. Command-line errors
// exit with status 2, print nothing on stdout and say where to look.
#include "cli_runner.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using abikit::test::CliResult;
using abikit::test::runCli;

void expectUsageError(const CliResult& r, const std::string& message, const std::string& help) {
  EXPECT_EQ(r.exit_code, 2) << r.summary();
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(r.err, "abikit: error: " + message + "\nRun '" + help + "' for usage.\n");
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace

TEST(CommandLine, Version) {
  CliResult r = runCli("--version");
  EXPECT_EQ(r.exit_code, 0) << r.summary();
  EXPECT_EQ(r.out.rfind("abikit ", 0), 0u) << r.out;
  EXPECT_TRUE(r.err.empty());
}

TEST(CommandLine, NoCommandListsThem) {
  expectUsageError(
      runCli(std::vector<std::string>{}),
      "a command is required (one of targets, describe, call, ptx, kernarg, layout, compat, "
      "elf, link-check, dwarf-expr, dwarf-cfi, dwarf)",
      "abikit --help");
}

TEST(CommandLine, UnknownCommandIsNamed) {
  expectUsageError(runCli("layot a.h"), "unknown command 'layot'; did you mean 'layout'?",
                   "abikit --help");
  expectUsageError(runCli("kernargs a.cl"), "unknown command 'kernargs'; did you mean 'kernarg'?",
                   "abikit --help");
  expectUsageError(runCli("foo"), "unknown command 'foo'", "abikit --help");
  expectUsageError(runCli("help layot"), "unknown command 'layot'; did you mean 'layout'?",
                   "abikit --help");
}

TEST(CommandLine, HelpOfTheToolAndOfACommand) {
  CliResult all = runCli("help");
  EXPECT_EQ(all.exit_code, 0) << all.summary();
  EXPECT_TRUE(has(all.out, "Usage: abikit [OPTIONS] SUBCOMMAND")) << all.out;
  for (const char* cmd :
       {"targets", "describe", "call", "ptx", "kernarg", "layout", "elf", "link-check"}) {
    EXPECT_TRUE(has(all.out, cmd)) << cmd;
    // `help CMD` needs no --target and equals `CMD --help`.
    CliResult h = runCli(std::string("help ") + cmd);
    EXPECT_EQ(h.exit_code, 0) << cmd << ": " << h.summary();
    EXPECT_TRUE(has(h.out, std::string("Usage: abikit ") + cmd + " ")) << h.out;
    EXPECT_EQ(h.out, runCli(std::string(cmd) + " --help").out) << cmd;
  }
}

TEST(CommandLine, UnknownOptionIsNamedWithTheNearest) {
  expectUsageError(runCli("layout --targt riscv64-unknown-elf a.h"),
                   "unknown option '--targt' for 'abikit layout'; did you mean '--target'?",
                   "abikit help layout");
  expectUsageError(runCli("call --target riscv64-unknown-elf --varidic-args int a.h"),
                   "unknown option '--varidic-args' for 'abikit call'; did you mean "
                   "'--variadic-args'?",
                   "abikit help call");
  // As it was spelled, and with nothing suggested when nothing is near.
  expectUsageError(runCli("ptx --target nvptx64-nvidia-cuda -march=rv64gc a.h"),
                   "unknown option '-march' for 'abikit ptx'", "abikit help ptx");
  expectUsageError(runCli("layout --target riscv64-unknown-elf --zzzzzzzz a.h"),
                   "unknown option '--zzzzzzzz' for 'abikit layout'", "abikit help layout");
  // A command's verbs have options of their own.
  expectUsageError(runCli("dwarf-expr decode --target riscv64-unknown-elf --displya 50"),
                   "unknown option '--displya' for 'abikit dwarf-expr decode'; did you mean "
                   "'--display'?",
                   "abikit help dwarf-expr");
}

TEST(CommandLine, EachCommandsHelpListsTheTargetFlagsItReads) {
  CliResult ptx = runCli("ptx --help");
  EXPECT_TRUE(has(ptx.out, "--mcpu"));
  for (const char* other :
       {"--march", "--mabi", "--msupervisor", "--abi-variant", "--mcode-object-version"})
    EXPECT_FALSE(has(ptx.out, other)) << other;
  CliResult kernarg = runCli("kernarg --help");
  EXPECT_TRUE(has(kernarg.out, "--mcpu"));
  EXPECT_TRUE(has(kernarg.out, "--mcode-object-version"));
  for (const char* other : {"--march", "--mabi", "--msupervisor", "--abi-variant"})
    EXPECT_FALSE(has(kernarg.out, other)) << other;
  CliResult layout = runCli("layout --help");
  for (const char* flag :
       {"--march", "--mabi", "--mcpu", "--msupervisor", "--abi-variant", "--mcode-object-version"})
    EXPECT_TRUE(has(layout.out, flag)) << flag;
}

TEST(CommandLine, OtherParseErrorsPointToTheCommandsHelp) {
  CliResult r = runCli("layout a.h");
  EXPECT_EQ(r.exit_code, 2) << r.summary();
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(has(r.err, "--target is required")) << r.err;
  EXPECT_TRUE(has(r.err, "Run 'abikit help layout' for usage.")) << r.err;
}
