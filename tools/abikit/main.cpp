// abikit: ABI answers for heterogeneous targets. See cli-contract.md for the interface.
#include "abikit/diag.h"
#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define ABIKIT_MAP_INPUT 1
#endif

namespace abikit::cli {

void TargetFlags::add(CLI::App& app) {
  app.add_option("--target", options.triple, "Target triple or xDSL target name")->required();
  app.add_option("--march", options.march, "RISC-V ISA string (-march=rv64gc)");
  app.add_option("--mabi", options.mabi, "RISC-V ABI (-mabi=lp64d)");
  app.add_option("--mcpu", options.mcpu, "Processor (-mcpu=gfx90a:xnack+, sm_70, ipu2, v1A)");
  app.add_option("--mcmodel", options.mcmodel, "RISC-V code model (medlow, medany, large)");
  app.add_option("--mcode-object-version", options.code_object_version,
                 "AMDGPU code object version");
  app.add_flag("--msupervisor", options.msupervisor, "IPU: supervisor code");
  app.add_flag("--mworker", options.mworker, "IPU: worker code (default)");
  app.add_option("--abi-variant", abi_variant,
                 "DPU/IPU: follow the vendor compiler or the seed document's text")
      ->check(CLI::IsMember({"compiler", "documented"}));
}

Target TargetFlags::resolve() const {
  TargetOptions o = options;
  o.abi_variant = abi_variant == "documented" ? AbiVariant::Documented : AbiVariant::Compiler;
  return resolveTarget(o);
}

void InputFlags::add(CLI::App& app) {
  app.add_option("file", file, "C declarations (.h, .cl, .cu); - reads standard input")->required();
  // One value per flag, as in a C compiler (`-I DIR FILE`: FILE is not a second directory).
  app.add_option("-D", defines, "Define a macro: NAME or NAME=VALUE")->allow_extra_args(false);
  app.add_option("-U", undefines, "Undefine a macro")->allow_extra_args(false);
  app.add_option("-I", include_dirs, "Add a directory to the #include search path")
      ->allow_extra_args(false);
}

ParseOptions InputFlags::parseOptions() const {
  ParseOptions o;
  o.include_dirs = include_dirs;
  for (const std::string& d : defines) {
    size_t eq = d.find('=');
    if (eq == std::string::npos)
      o.defines.emplace_back(d, std::nullopt);
    else
      o.defines.emplace_back(d.substr(0, eq), d.substr(eq + 1));
  }
  o.undefines = undefines;
  return o;
}

std::string displayName(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
}

std::string readInput(const std::string& path, size_t padding) {
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw Error(ErrorKind::Input, "cannot open '" + path + "': " + std::strerror(errno));
  std::string text;
  // A regular file is read with one call into one allocation of its size (the text may be
  // large); what follows (a file that grew, standard input) is appended.
  if (f != stdin && std::fseek(f, 0, SEEK_END) == 0) {
    long size = std::ftell(f);
    std::rewind(f);
    if (size > 0) {
      size_t want = size_t(size);
      text.reserve(want <= text.max_size() - padding ? want + padding : want);
      text.resize(want);
      text.resize(std::fread(text.data(), 1, want, f));
    }
  }
  char buf[1 << 16];
  size_t n;
  while (!std::ferror(f) && (n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  bool failed = std::ferror(f);
  if (f != stdin) std::fclose(f);
  if (failed) throw Error(ErrorKind::Input, "cannot read '" + displayName(path) + "'");
  return text;
}

PaddedInput::Mapping::~Mapping() {
#ifdef ABIKIT_MAP_INPUT
  if (base) ::munmap(base, length);
#endif
}

namespace {
#ifdef ABIKIT_MAP_INPUT
// A regular file of at least 1 MiB mapped read-only, with the zero pages of an anonymous mapping
// after it for the padding (the part of the file's last page after its end reads as zero too).
// False (nothing mapped) for anything else or if a step fails: the caller reads the file.
bool mapInput(const std::string& path, size_t padding, PaddedInput& in) {
  if (path == "-") return false;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (1 << 20);
  if (ok) {
    size_t size = size_t(st.st_size);
    size_t page = size_t(::sysconf(_SC_PAGESIZE));
    size_t file_len = (size + page - 1) / page * page;
    size_t length = (size + padding + page - 1) / page * page;
    void* base = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ok = base != MAP_FAILED;
    if (ok) {
      auto mapping = std::make_unique<PaddedInput::Mapping>();
      mapping->base = base;
      mapping->length = length;
      int flags = MAP_PRIVATE | MAP_FIXED;
#ifdef MAP_POPULATE
      flags |= MAP_POPULATE; // the whole file is read: map it in one go
#endif
      ok = ::mmap(base, file_len, PROT_READ, flags, fd, 0) == base;
      if (ok) {
        in.data = static_cast<const char*>(base);
        in.size = size;
        in.mapping = std::move(mapping);
      }
    }
  }
  ::close(fd);
  return ok;
}
#endif
} // namespace

PaddedInput readPaddedInput(const std::string& path, size_t padding) {
#ifdef ABIKIT_MAP_INPUT
  {
    PaddedInput mapped;
    if (mapInput(path, padding, mapped)) return mapped;
  }
#endif
  std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!f) throw Error(ErrorKind::Input, "cannot open '" + path + "': " + std::strerror(errno));
  // A regular file is read with one call into an allocation of its size plus the padding; what
  // follows (a file that grew, standard input) is read into a buffer that doubles.
  size_t cap = size_t(1) << 16;
  if (f != stdin && std::fseek(f, 0, SEEK_END) == 0) {
    long size = std::ftell(f);
    std::rewind(f);
    if (size > 0) cap = size_t(size);
  }
  PaddedInput in;
  size_t len = 0;
  bool failed = false;
  try {
    in.bytes.reset(new char[cap + padding]); // not cleared: the text is read into it
    for (;;) {
      len += std::fread(in.bytes.get() + len, 1, cap - len, f);
      if (len < cap || std::ferror(f)) break;
      // Full: read on only if there is more (a regular file of the size it had is not copied).
      char more[1 << 12];
      size_t n = std::fread(more, 1, sizeof more, f);
      if (n == 0) break;
      size_t grown = std::max(cap * 2, len + n);
      std::unique_ptr<char[]> bigger(new char[grown + padding]);
      std::memcpy(bigger.get(), in.bytes.get(), len);
      std::memcpy(bigger.get() + len, more, n);
      in.bytes = std::move(bigger);
      len += n;
      cap = grown;
    }
    failed = std::ferror(f);
  } catch (...) {
    if (f != stdin) std::fclose(f);
    throw;
  }
  if (f != stdin) std::fclose(f);
  if (failed) throw Error(ErrorKind::Input, "cannot read '" + displayName(path) + "'");
  std::memset(in.bytes.get() + len, 0, padding);
  in.data = in.bytes.get();
  in.size = len;
  return in;
}

} // namespace abikit::cli

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

} // namespace

int main(int argc, char** argv) {
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
    std::fwrite(out.text.data(), 1, out.text.size(), stdout);
    std::fflush(stdout);
    return out.exit_code;
  } catch (const abikit::Error& e) {
    std::fprintf(stderr, "%s\n", e.format().c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "abikit: error: out of memory\n");
    return 1;
  }
}
