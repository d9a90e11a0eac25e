// abikit: ABI answers for heterogeneous targets. The command line's driver: which command,
// its flags, and what it prints. See docs/cli.md for the interface.
#include "abikit/diag.h"
#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace {

// clang spells target options with one dash (-march=rv64gc); CLI11 wants two.
std::vector<std::string> normaliseArgs(int argc, char** argv) {
  static const char* const kLong[] = {
      "-march",       "-mabi",    "-mcpu",         "-mcmodel",   "-mcode-object-version",
      "-msupervisor", "-mworker", "-mhidden-args", "-mptx-style"};
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    for (const char* l : kLong) {
      size_t n = std::char_traits<char>::length(l);
      if (a.compare(0, n, l) == 0 && (a.size() == n || a[n] == '=')) {
        a = "-" + a;
        break;
      }
    }
    args.push_back(std::move(a));
  }
  return args;
}

// A failed write to stdout (a full disk, a closed pipe with SIGPIPE ignored, ...): its errno.
struct WriteFailed {
  int error;
};

// Standard output, written in chunks as a command's writer drains its buffer.
class StdoutSink : public abikit::OutputSink {
public:
  explicit StdoutSink(std::string text) : OutputSink(std::move(text), kChunk) {}
  void flush() override {
    if (buffer_.empty()) return;
    errno = 0;
    size_t n = std::fwrite(buffer_.data(), 1, buffer_.size(), stdout);
    if (n != buffer_.size()) fail();
    buffer_.clear();
  }
  // Everything written and flushed out of stdio's buffer.
  void finish() {
    flush();
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) fail();
  }

private:
  [[noreturn]] static void fail() {
    int e = errno ? errno : EIO;
    std::clearerr(stdout);
    throw WriteFailed{e};
  }
};

} // namespace

int abikit::cli::run(int argc, char** argv) {
  using namespace abikit::cli;
  CLI::App app{"abikit: target descriptions and exact ABI answers for RISC-V, NVPTX, AMDGPU, "
               "UPMEM DPU and Graphcore IPU"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  Action action;
  // Building the option tree of a command costs as much as parsing a small header, and a run
  // uses one command: when the first argument names a command and no other argument is the name
  // of one, only that command is registered (CLI11 parses and reports such a command line the
  // same way with or without the others). Anything else registers them all.
  struct Command {
    const char* name;
    void (*add)(CLI::App&, Action&);
  };
  static const Command kCommands[] = {
      {"targets", addTargetsCommand}, {"describe", addDescribeCommand},
      {"call", addCallCommand},       {"ptx", addPtxCommand},
      {"kernarg", addKernargCommand}, {"layout", addLayoutCommand},
      {"elf", addElfCommand},         {"link-check", addLinkCheckCommand}};
  std::vector<std::string> args = normaliseArgs(argc, argv);
  const Command* only = nullptr;
  for (const Command& c : kCommands)
    if (!args.empty() && args[0] == c.name) only = &c;
  for (size_t i = 1; only && i < args.size(); ++i)
    for (const Command& c : kCommands)
      if (args[i] == c.name) only = nullptr;
  for (const Command& c : kCommands)
    if (!only || &c == only) c.add(app, action);

  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "abikit: error: %s\n", e.what());
    std::fprintf(stderr, "Run 'abikit --help' for usage.\n");
    return 2;
  }
  if (!action) return 2;
  try {
    Output out = action();
    StdoutSink sink(std::move(out.text));
    sink.flush();
    if (out.stream) out.exit_code = out.stream(sink);
    sink.finish();
    return out.exit_code;
  } catch (const WriteFailed& e) {
    std::fprintf(stderr, "abikit: error: cannot write the output: %s\n", std::strerror(e.error));
    return 1;
  } catch (const abikit::Error& e) {
    std::fprintf(stderr, "%s\n", e.format().c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "abikit: error: out of memory\n");
    return 1;
  }
}
