// abikit: ABI answers for heterogeneous targets. The command line's driver: which command,
// its flags, and what it prints. See docs/cli.md for the interface.
#include "abikit/diag.h"
#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

// clang spells target options with one dash (-march=rv64gc); CLI11 wants two.
std::vector<std::string> normaliseArgs(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    args.emplace_back(argv[i]);
    abikit::cli::normaliseLongFlag(args.back());
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

// The edit distance of two words (for "did you mean" suggestions).
size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// "; did you mean 'X'?" for the candidate nearest to `word`, when one is near enough.
std::string suggestion(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  size_t best_d = 0;
  for (const std::string& c : candidates) {
    size_t d = editDistance(word, c);
    if (!best || d < best_d) best = &c, best_d = d;
  }
  if (!best || best_d > std::max<size_t>(2, word.size() / 3)) return "";
  return "; did you mean '" + *best + "'?";
}

// A command-line error: the message, and where to look; exit status 2.
int usageError(const std::string& message, const std::string& help) {
  std::fprintf(stderr, "abikit: error: %s\n", message.c_str());
  std::fprintf(stderr, "Run '%s' for usage.\n", help.c_str());
  return 2;
}

} // namespace

void abikit::cli::normaliseLongFlag(std::string& a) {
  static const char* const kLong[] = {"-march",       "-cl-std",           "-mabi",
                                      "-mcpu",        "-mcmodel",          "-mcode-object-version",
                                      "-msupervisor", "-mworker",          "-mhidden-args",
                                      "-mptx-style",  "-mwavefrontsize64", "-mno-wavefrontsize64"};
  for (const char* l : kLong) {
    size_t n = std::char_traits<char>::length(l);
    if (a.compare(0, n, l) == 0 && (a.size() == n || a[n] == '=')) {
      a = "-" + a;
      return;
    }
  }
}

int abikit::cli::run(int argc, char** argv) {
  using namespace abikit::cli;
  CLI::App app{"abikit: target descriptions and exact ABI answers for RISC-V, NVPTX, AMDGPU, "
               "UPMEM DPU and Graphcore IPU, and the layouts of their x86 hosts",
               "abikit"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every command");
  app.set_version_flag("--version", "abikit " ABIKIT_VERSION);
  Action action;
  // Building the option tree of a command costs as much as parsing a small header, and a run
  // uses one command: when the first argument names a command and no other argument is the name
  // of one, only that command is registered (CLI11 parses and reports such a command line the
  // same way with or without the others). Anything else registers them all.
  struct Command {
    const char* name;
    void (*add)(CLI::App&, Action&);
  };
  static const Command kCommands[] = {{"targets", addTargetsCommand},
                                      {"describe", addDescribeCommand},
                                      {"call", addCallCommand},
                                      {"ptx", addPtxCommand},
                                      {"kernarg", addKernargCommand},
                                      {"layout", addLayoutCommand},
                                      {"compat", addCompatCommand},
                                      {"elf", addElfCommand},
                                      {"link-check", addLinkCheckCommand},
                                      {"dwarf-expr", addDwarfExprCommand},
                                      {"dwarf-cfi", addDwarfCfiCommand},
                                      {"dwarf", addDwarfCommand}};
  std::vector<std::string> args = normaliseArgs(argc, argv);
  std::vector<std::string> names;
  for (const Command& c : kCommands) names.emplace_back(c.name);
  auto find = [&](std::string_view word) -> const Command* {
    for (const Command& c : kCommands)
      if (word == c.name) return &c;
    return nullptr;
  };
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;

  // `abikit help [COMMAND]`: the help of the tool or of that command.
  bool help = !args.empty() && args[0] == "help";
  if (help) {
    if (args.size() > 2) return usageError("'help' takes one command name", "abikit --help");
    if (args.size() == 2 && !find(args[1]))
      return usageError("unknown command '" + args[1] + "'" + suggestion(args[1], names),
                        "abikit --help");
    args = args.size() == 2 ? std::vector<std::string>{args[1], "--help"}
                            : std::vector<std::string>{"--help"};
  }
  // The command is the first argument; a word there that is none names itself.
  if (args.empty())
    return usageError("a command is required (one of " + list + ")", "abikit --help");
  const Command* only = find(args[0]);
  if (!only && args[0].rfind("-", 0) != 0)
    return usageError("unknown command '" + args[0] + "'" + suggestion(args[0], names),
                      "abikit --help");
  for (size_t i = 1; only && i < args.size(); ++i)
    if (find(args[i])) only = nullptr;
  for (const Command& c : kCommands)
    if (!only || &c == only) c.add(app, action);

  // An option the command does not have (`--targt`), named with the nearest one it has. A
  // command with verbs of its own (`dwarf-expr decode`) takes the options of the verb named.
  if (only) {
    CLI::App* sub = app.get_subcommand(only->name);
    std::string path = only->name;
    auto optionNames = [](const CLI::App* a) {
      std::vector<std::string> names;
      for (const CLI::Option* o : a->get_options())
        for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
      return names;
    };
    for (size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--") break; // positional arguments follow
      if (a.rfind("-", 0) != 0) {
        for (CLI::App* verb : sub->get_subcommands([](CLI::App*) { return true; }))
          if (verb->get_name() == a) sub = verb, path += " " + a;
        continue;
      }
      if (a.size() < 3 || a.compare(0, 2, "--") != 0) continue;
      std::string name = a.substr(0, a.find('='));
      if (sub->get_allow_extras() || sub->get_option_no_throw(name) || name == "--help-all")
        continue;
      // As the user spelled it (-march, where CLI11 is given --march).
      std::string user = help ? a : std::string(argv[i + 1]);
      std::string shown = user.substr(0, user.find('='));
      return usageError("unknown option '" + shown + "' for 'abikit " + path + "'" +
                            suggestion(name, optionNames(sub)),
                        "abikit help " + std::string(only->name));
    }
  }

  std::reverse(args.begin(), args.end());
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string where = "abikit --help";
    for (const CLI::App* sub : app.get_subcommands()) where = "abikit help " + sub->get_name();
    return usageError(e.what(), where);
  }
  if (!action) return 2;
  try {
    Output out = action();
    if (!out.diagnostics.empty()) std::fputs(out.diagnostics.c_str(), stderr);
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
