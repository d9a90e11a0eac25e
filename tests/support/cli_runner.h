// Runs the abikit command-line tool as a user would, without a shell: the arguments are passed
// as they are (no quoting, no word splitting), standard input is fed from a string, stdout and
// stderr are captured separately, and the run can be bounded in wall time and address space.
// The one CLI runner of the test suites.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::test {

/// Limits of one run. With ABIKIT_TEST_SANITIZED set in the environment (an ASan build of the
/// CLI) the address-space limit is not applied and the time limit is ten times longer.
struct CliLimits {
  double seconds = 60;     // wall time; the process is killed (SIGKILL) past it
  size_t memory_bytes = 0; // RLIMIT_AS of the child; 0 = no limit
  size_t max_capture =
      1u << 26;           // bytes kept of each of stdout and stderr (the rest is read and dropped)
  std::string stdin_path; // if set, the child's stdin is this file instead of `input`
  /// If set, the child's stdout is this file (created or truncated; /dev/null, /dev/full)
  /// instead of being captured: CliResult::out stays empty and out_bytes 0.
  std::string stdout_path;
};

struct CliResult {
  int exit_code = -1; // the exit status, or -1 when the process did not exit normally
  int signal = 0;     // the signal that ended it, or 0
  bool timed_out = false;
  std::string out, err;
  size_t out_bytes = 0; // how many bytes the child wrote to stdout in all (also past max_capture)
  double seconds = 0;   // wall time
  long max_rss_kb = 0;  // the child's peak resident set
  /// One line for a failed expectation: how the run ended and the start of stderr.
  std::string summary() const;
};

/// Runs the CLI (ABIKIT_CLI_PATH, or the path in the environment variable ABIKIT_CLI) with
/// `args`, `input` on its standard input.
CliResult runCli(const std::vector<std::string>& args, std::string_view input = {},
                 const CliLimits& limits = {});

/// Splits `command` on blanks (no quoting rules: for the tests' simple command lines) and runs it.
CliResult runCli(std::string_view command, std::string_view input = {},
                 const CliLimits& limits = {});

/// A directory made for one test and removed with everything in it when this object dies.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  /// Writes `bytes` to path()/name and returns the file's path.
  std::string write(const std::string& name, std::string_view bytes) const;

private:
  std::string path_;
};

/// Writes `bytes` to a file of the test executable's own temporary directory (one for the whole
/// run, removed at exit) and returns its path.
std::string writeTempFile(const std::string& name, std::string_view bytes);

} // namespace abikit::test
