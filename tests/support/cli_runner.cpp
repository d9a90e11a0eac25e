#include "cli_runner.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace abikit::test {

namespace {

std::string cliPath() {
  if (const char* p = std::getenv("ABIKIT_CLI"); p && *p) return p;
#ifdef ABIKIT_CLI_PATH
  return ABIKIT_CLI_PATH;
#else
  return "abikit";
#endif
}

void setNonBlocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

} // namespace

std::string CliResult::summary() const {
  std::string s = timed_out ? "timed out"
                  : signal  ? "killed by signal " + std::to_string(signal)
                            : "exit " + std::to_string(exit_code);
  s += " after " + std::to_string(seconds) + " s, peak RSS " + std::to_string(max_rss_kb) +
       " KB, stdout " + std::to_string(out_bytes) + " bytes; stderr: " + err.substr(0, 400);
  return s;
}

CliResult runCli(const std::vector<std::string>& args, std::string_view input,
                 const CliLimits& limits) {
  CliResult r;
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC)) {
    r.err = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  std::string exe = cliPath();
  std::vector<char*> argv;
  argv.push_back(exe.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Under AddressSanitizer (ABIKIT_TEST_SANITIZED=1: the CLI was built with it) the shadow memory
  // needs terabytes of address space and every step is slower: no address-space limit, ten times
  // the time.
  const bool sanitized = std::getenv("ABIKIT_TEST_SANITIZED") != nullptr;
  const size_t memory_bytes = sanitized ? 0 : limits.memory_bytes;
  const double seconds = sanitized ? limits.seconds * 10 : limits.seconds;
  auto start = std::chrono::steady_clock::now();
  pid_t pid = ::fork();
  if (pid == 0) {
    if (!limits.stdin_path.empty()) {
      int fd = ::open(limits.stdin_path.c_str(), O_RDONLY);
      if (fd < 0) ::_exit(127);
      ::dup2(fd, 0);
    } else {
      ::dup2(in[0], 0);
    }
    if (!limits.stdout_path.empty()) {
      int fd = ::open(limits.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) ::_exit(127);
      ::dup2(fd, 1);
    } else {
      ::dup2(out[1], 1);
    }
    ::dup2(err[1], 2);
    if (memory_bytes) {
      struct rlimit rl = {memory_bytes, memory_bytes};
      ::setrlimit(RLIMIT_AS, &rl);
    }
    struct rlimit core = {0, 0};
    ::setrlimit(RLIMIT_CORE, &core);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (pid < 0) {
    ::close(in[1]);
    ::close(out[0]);
    ::close(err[0]);
    r.err = std::string("fork: ") + std::strerror(errno);
    return r;
  }
  setNonBlocking(in[1]);
  setNonBlocking(out[0]);
  setNonBlocking(err[0]);
  std::signal(SIGPIPE, SIG_IGN);
  size_t fed = 0;
  int in_fd = limits.stdin_path.empty() && !input.empty() ? in[1] : -1;
  if (in_fd < 0) ::close(in[1]);
  int out_fd = out[0], err_fd = err[0];
  size_t err_bytes = 0;
  char buf[1 << 16];
  auto drain = [&](int& fd, std::string& into, size_t& total) {
    for (;;) {
      ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) {
        total += size_t(n);
        if (into.size() < limits.max_capture)
          into.append(buf, std::min(size_t(n), limits.max_capture - into.size()));
        continue;
      }
      if (n == 0) {
        ::close(fd);
        fd = -1;
      }
      return;
    }
  };
  auto deadline = start + std::chrono::duration<double>(seconds);
  while (out_fd >= 0 || err_fd >= 0) {
    pollfd fds[3];
    int n = 0;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    if (in_fd >= 0) fds[n++] = {in_fd, POLLOUT, 0};
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    ::poll(fds, nfds_t(n), int(std::min<long long>(left.count(), 1000)));
    if (out_fd >= 0) drain(out_fd, r.out, r.out_bytes);
    if (err_fd >= 0) drain(err_fd, r.err, err_bytes);
    if (in_fd >= 0) {
      ssize_t w = ::write(in_fd, input.data() + fed, input.size() - fed);
      if (w > 0) fed += size_t(w);
      if ((w < 0 && errno != EAGAIN) || fed == input.size()) {
        ::close(in_fd);
        in_fd = -1;
      }
    }
  }
  if (in_fd >= 0) ::close(in_fd);
  if (out_fd >= 0) ::close(out_fd);
  if (err_fd >= 0) ::close(err_fd);
  int status = 0;
  struct rusage ru {};
  ::wait4(pid, &status, 0, &ru);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.max_rss_kb = ru.ru_maxrss;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

CliResult runCli(std::string_view command, std::string_view input, const CliLimits& limits) {
  std::vector<std::string> args;
  size_t i = 0;
  while (i < command.size()) {
    while (i < command.size() && (command[i] == ' ' || command[i] == '\t')) ++i;
    size_t j = i;
    while (j < command.size() && command[j] != ' ' && command[j] != '\t') ++j;
    if (j > i) args.emplace_back(command.substr(i, j - i));
    i = j;
  }
  return runCli(args, input, limits);
}

TempDir::TempDir() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "abikit-test-XXXXXX").string();
  if (::mkdtemp(tmpl.data())) path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TempDir::write(const std::string& name, std::string_view bytes) const {
  std::string p = path_ + "/" + name;
  std::ofstream(p, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
  return p;
}

std::string writeTempFile(const std::string& name, std::string_view bytes) {
  static TempDir dir;
  return dir.write(name, bytes);
}

} // namespace abikit::test
