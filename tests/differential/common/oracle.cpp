#include "oracle.h"

#include "abikit/diag.h"
#include "abikit/target.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace abikit::oracle {

RunResult run(const std::vector<std::string>& argv, const std::string& input) {
  RunResult r;
  int in[2], out[2], err[2];
  if (pipe(in) || pipe(out) || pipe(err)) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]})
    posix_spawn_file_actions_addclose(&fa, fd);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  if (rc != 0) {
    close(in[1]);
    close(out[0]);
    close(err[0]);
    r.err = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return r;
  }
  size_t written = 0;
  if (input.empty()) {
    close(in[1]);
    in[1] = -1;
  } else {
    fcntl(in[1], F_SETFL, O_NONBLOCK);
  }
  bool out_open = true, err_open = true;
  char buf[65536];
  while (out_open || err_open || in[1] >= 0) {
    pollfd fds[3];
    int n = 0;
    int io = -1, oo = -1, eo = -1;
    if (in[1] >= 0) {
      io = n;
      fds[n++] = {in[1], POLLOUT, 0};
    }
    if (out_open) {
      oo = n;
      fds[n++] = {out[0], POLLIN, 0};
    }
    if (err_open) {
      eo = n;
      fds[n++] = {err[0], POLLIN, 0};
    }
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (io >= 0 && (fds[io].revents & (POLLOUT | POLLERR | POLLHUP))) {
      ssize_t w = write(in[1], input.data() + written, input.size() - written);
      if (w > 0) written += size_t(w);
      if (w < 0 || written == input.size()) {
        close(in[1]);
        in[1] = -1;
      }
    }
    auto drain = [&](int idx, int fd, bool& open, std::string& dst) {
      if (idx < 0 || !(fds[idx].revents & (POLLIN | POLLHUP | POLLERR))) return;
      ssize_t got = read(fd, buf, sizeof buf);
      if (got > 0)
        dst.append(buf, size_t(got));
      else
        open = false;
    };
    drain(oo, out[0], out_open, r.out);
    drain(eo, err[0], err_open, r.err);
  }
  close(out[0]);
  close(err[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

std::string findProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return access(name.c_str(), X_OK) == 0 ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    std::string full = dir + "/" + name;
    if (access(full.c_str(), X_OK) == 0) return full;
  }
  return "";
}

ScratchDir::ScratchDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmp && *tmp ? tmp : "/tmp") + "/abikit-diff-XXXXXX";
  std::vector<char> b(tmpl.begin(), tmpl.end());
  b.push_back('\0');
  if (!mkdtemp(b.data())) throw std::runtime_error("mkdtemp failed");
  path_ = b.data();
}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void ScratchDir::write(const std::string& name, const std::string& text) const {
  std::ofstream f(file(name), std::ios::binary);
  f << text;
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

uint64_t sampleCount(uint64_t d) {
  const char* v = std::getenv("ABIKIT_DIFF_COUNT");
  return v && *v ? std::strtoull(v, nullptr, 10) : d;
}

uint64_t sampleSeed(uint64_t d) {
  const char* v = std::getenv("ABIKIT_DIFF_SEED");
  return v && *v ? std::strtoull(v, nullptr, 10) : d;
}

std::vector<std::string> installedClangs() {
  std::vector<std::string> out;
  for (const CompilerInfo& c : knownCompilers())
    if (c.kind == CompilerKind::Clang && !findProgram(std::string(c.name)).empty())
      out.emplace_back(c.name);
  return out;
}

std::vector<std::string> modelledClangs(const std::string& triple, const std::string& march,
                                        const std::string& mabi, const std::string& mcpu) {
  std::string only;
  if (const char* v = std::getenv("ABIKIT_DIFF_COMPILERS")) only = "," + std::string(v) + ",";
  std::vector<std::string> out;
  for (const CompilerInfo& c : knownCompilers()) {
    if (c.kind != CompilerKind::Clang) continue;
    std::string name(c.name);
    if (!only.empty() && only.find("," + name + ",") == std::string::npos) continue;
    TargetOptions o;
    o.triple = triple;
    o.march = march;
    o.mabi = mabi;
    o.mcpu = mcpu;
    o.compiler = name;
    try {
      resolveTarget(o);
    } catch (const Error&) {
      continue; // not modelled for this family
    }
    if (!findProgram(name).empty()) out.push_back(name);
  }
  return out;
}

uint64_t sampleCountFor(uint64_t default_count, const std::vector<std::string>& modelled,
                        const std::string& compiler) {
  const char* v = std::getenv("ABIKIT_DIFF_COUNT");
  if (v && *v) return std::strtoull(v, nullptr, 10);
  if ((!modelled.empty() && modelled.front() == compiler) || compiler == "clang-14")
    return default_count;
  return (default_count + 1) / 2;
}

std::string compilerTag(const std::string& compiler) {
  std::string out;
  for (char ch : compiler)
    if (ch != '-') out += ch;
  return out;
}

const std::set<std::string> kUnmodelledClangMacros = {
    "__VERSION__",                     // the vendor's version string
    "__clang_version__",               // ditto
    "__clang_literal_encoding__",      // execution character sets, not ABI
    "__clang_wide_literal_encoding__", // ditto
    "__CONSTANT_CFSTRINGS__",          // Objective-C / CoreFoundation
    "__OBJC_BOOL_IS_BOOL",             // Objective-C
    "__PRAGMA_REDEFINE_EXTNAME",       // a pragma the front end supports
};

std::map<std::string, std::string> parseMacros(const std::string& text) {
  std::map<std::string, std::string> m;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.rfind("#define ", 0) != 0) continue;
    line = line.substr(8);
    size_t paren = line.find('(');
    size_t sp = line.find(' ');
    if (paren != std::string::npos && paren < sp) sp = line.find(')', paren) + 1;
    if (sp == std::string::npos || sp >= line.size())
      m[line] = "";
    else
      m[line.substr(0, sp)] = line.substr(sp + 1);
  }
  return m;
}

std::map<std::string, std::string> compilerMacros(std::vector<std::string> argv) {
  for (const char* a : {"-E", "-dM", "-x", "c", "/dev/null"}) argv.push_back(a);
  RunResult r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << argv[0] << ": " << r.err;
  if (r.exit_code != 0) return {};
  return parseMacros(r.out);
}

} // namespace abikit::oracle
