// libFuzzer target over the whole command line: abikit::cli::run() with an argv made from the
// input, so that flag parsing (CLI11, the one-dash clang spellings, type lists such as
// --variadic-args, -D/-U/-I, target flags) and each command's path to its output are reached
// together.
//
// Input: words separated by NUL bytes. The first word picks the command (its first byte modulo
// the command list when it is not one of the names); the other words are arguments as they
// are. When the input holds a 0x01 byte, what follows it is the content of one input file,
// written to a temporary file whose path replaces each argument "@" (and is appended when no
// argument is "@"). Standard input is /dev/null (a "-" argument reads nothing); arguments that
// name /dev, /proc or /sys are dropped.
//
// run() must return 0, 1 or 2; a crash, an abort, an exception that escapes run(), a hang or
// an out-of-bounds access (ASan/UBSan) is a bug. The help flags are dropped: CLI11 prints the
// help and the run returns, which is not worth the time (and the --help-all text is large);
// so is `compat --output-dir`, which would write files where the input says.
// stdout goes to /dev/null (dup2 at the first input). The CLI's messages on stderr are silenced
// by libFuzzer's -close_fd_mask=2 (tests/fuzz/cli.options; scripts/fuzz.sh passes it), which
// keeps libFuzzer's and the sanitizers' reports on a copy of the real stderr; run by hand
// without it to see them.
#include "cli.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char* kCommands[] = {"targets", "describe", "layout",     "call",       "ptx",
                                     "kernarg", "elf",      "link-check", "dwarf-expr", "compat"};
constexpr size_t kMaxWords = 64;

std::string g_path; // the temporary input file

// stdin and stdout to /dev/null; a temporary file for the input's file content.
void setUp() {
  int null = ::open("/dev/null", O_RDWR);
  if (null < 0) std::abort();
  ::dup2(null, STDIN_FILENO);
  ::dup2(null, STDOUT_FILENO);
  ::close(null);
  char tmpl[] = "/tmp/abikit-fuzz-cli-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd < 0) std::abort();
  ::close(fd);
  g_path = tmpl;
  std::atexit([] { ::unlink(g_path.c_str()); });
}

// compat --output-dir writes files: not where a fuzzer chooses.
bool writesFiles(std::string_view w) {
  return w.starts_with("--output-dir");
}

bool isHelp(std::string_view w) {
  return w == "-h" || w == "--help" || w == "--help-all" || w.starts_with("--help=") ||
         w.starts_with("--help-all=");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static bool ready = (setUp(), true);
  (void)ready;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string_view file;
  bool has_file = false;
  if (size_t sep = in.find('\x01'); sep != std::string_view::npos) {
    file = in.substr(sep + 1);
    in = in.substr(0, sep);
    has_file = true;
  }
  std::vector<std::string> words;
  for (size_t start = 0; start <= in.size() && words.size() < kMaxWords;) {
    size_t end = in.find('\0', start);
    if (end == std::string_view::npos) end = in.size();
    words.emplace_back(in.substr(start, end - start));
    start = end + 1;
  }
  if (words.empty() || words[0].empty()) return 0;
  bool known = false;
  for (const char* c : kCommands) known = known || words[0] == c;
  if (!known) words[0] = kCommands[uint8_t(words[0][0]) % (sizeof kCommands / sizeof kCommands[0])];

  if (has_file) {
    FILE* f = std::fopen(g_path.c_str(), "wb");
    if (!f) std::abort();
    if (!file.empty() && std::fwrite(file.data(), 1, file.size(), f) != file.size()) std::abort();
    std::fclose(f);
  }
  std::vector<std::string> args{"abikit"};
  bool placed = false;
  for (std::string& w : words) {
    // Devices and kernel files: an endless /dev/zero, or /proc/self/mem, is no finding.
    if (isHelp(w) || writesFiles(w) || w.find("/dev") != std::string::npos ||
        w.find("/proc") != std::string::npos || w.find("/sys") != std::string::npos)
      continue;
    if (has_file && w == "@") {
      args.push_back(g_path);
      placed = true;
    } else {
      args.push_back(std::move(w));
    }
  }
  if (has_file && !placed) args.push_back(g_path);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int rc = abikit::cli::run(int(args.size()), argv.data());
  if (rc < 0 || rc > 2) __builtin_trap();
  return 0;
}
