// The command-line tool's shared option groups and its input reader.
#include "abikit/diag.h"
#include "cli.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define ABIKIT_MAP_INPUT 1
#endif

namespace abikit::cli {

void TargetFlags::add(CLI::App& app, uint32_t groups) {
  app.add_option("--target", options.triple, "Target triple or xDSL target name")->required();
  if (groups & kRiscvFlags) {
    app.add_option("--march", options.march, "RISC-V ISA string (-march=rv64gc)");
    app.add_option("--mabi", options.mabi, "RISC-V ABI (-mabi=lp64d)");
  }
  if (groups & kCpuFlag)
    app.add_option("--mcpu", options.mcpu, "Processor (-mcpu=gfx90a:xnack+, sm_70, ipu2, v1A)");
  if (groups & kRiscvFlags)
    app.add_option("--mcmodel", options.mcmodel, "RISC-V code model (medlow, medany, large)");
  if (groups & kAmdgpuFlags) {
    app.add_option("--mcode-object-version", options.code_object_version,
                   "AMDGPU code object version");
    auto* w64 = app.add_flag("--mwavefrontsize64", wave64, "AMDGPU: wave64 (GFX10 and later)");
    app.add_flag("--mno-wavefrontsize64", wave32, "AMDGPU: wave32 (GFX10 and later)")
        ->excludes(w64);
  }
  if (groups & kIpuFlags) {
    app.add_flag("--msupervisor", options.msupervisor, "IPU: supervisor code");
    app.add_flag("--mworker", options.mworker, "IPU: worker code (default)");
  }
  if (groups & kHostTargetFlag)
    app.add_option("--host-target", options.host_triple,
                   "CUDA/HIP sources (.cu, .hip): the host of the device compilation, whose "
                   "data model it shares (default x86_64-linux-gnu; i386-linux-gnu for "
                   "nvptx-nvidia-cuda)");
  app.add_option("--compiler", options.compiler,
                 "Whose behaviour to reproduce where compilers differ: clang-22, clang-19, "
                 "clang-14 (default: the newest the target's family models); DPU: "
                 "dpu-upmem-dpurte-clang, IPU: popc (their only compilers)");
  if (groups & kVendorAbiFlag)
    app.add_option("--abi-variant", abi_variant,
                   "DPU/IPU: follow the vendor compiler (--compiler) or the seed document's "
                   "text where they differ")
        ->check(CLI::IsMember({"compiler", "documented"}));
}

Target TargetFlags::resolve() const {
  TargetOptions o = options;
  o.wavefront_size = wave64 ? 64 : wave32 ? 32 : 0;
  o.abi_variant = abi_variant == "documented" ? AbiVariant::Documented : AbiVariant::Compiler;
  return resolveTarget(o);
}

void DwarfFormatFlags::add(CLI::App& app) {
  app.add_option("--encoding", encoding,
                 "How DW_OP_LLVM_* operations are coded: user (DW_OP_LLVM_user + sub-opcode, "
                 "default), legacy (single bytes 0xe1-0xec) or seed-draft")
      ->check(CLI::IsMember({"user", "legacy", "seed-draft"}));
  app.add_flag("--dwarf64", dwarf64, "64-bit DWARF (8-byte DIE offsets; default 32-bit)");
  app.add_option("--address-size", address_size,
                 "Bytes of a DW_OP_addr operand: 4 or 8 (default: the target's pointer size)");
}

dwarf::ExprFormat DwarfFormatFlags::format(const Target& target) const {
  dwarf::ExprFormat f;
  f.encoding = encoding == "legacy"       ? dwarf::ExtEncoding::Legacy
               : encoding == "seed-draft" ? dwarf::ExtEncoding::SeedDraft
                                          : dwarf::ExtEncoding::User;
  f.offset_size = dwarf64 ? 8 : 4;
  unsigned size = address_size ? address_size : target.data.pointer.size;
  if (size != 4 && size != 8)
    throw Error(ErrorKind::Input,
                "--address-size " + std::to_string(size) + " is not supported (4 or 8)");
  f.address_size = uint8_t(size);
  f.endian = target.data.endian;
  return f;
}

void appendHexBytes(std::string_view s, const std::string& label, std::vector<uint8_t>& out) {
  int pending = -1;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (pending >= 0)
        throw Error(ErrorKind::Input,
                    label + ": a lone hex digit before character " + std::to_string(i + 1));
      continue;
    }
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0)
      throw Error(ErrorKind::Input,
                  label + ": character " + std::to_string(i + 1) + " is not a hex digit");
    if (pending < 0) {
      pending = v;
    } else {
      out.push_back(uint8_t(pending * 16 + v));
      pending = -1;
    }
  }
  if (pending >= 0) throw Error(ErrorKind::Input, label + ": an odd number of hex digits");
}

std::vector<uint8_t> parseHexArgs(const std::vector<std::string>& args) {
  std::vector<uint8_t> out;
  for (size_t a = 0; a < args.size(); ++a)
    appendHexBytes(args[a], "HEX argument " + std::to_string(a + 1), out);
  return out;
}

void InputFlags::add(CLI::App& app) {
  app.add_option("file", file, "C declarations (.h, .cl, .cu); - reads standard input")->required();
  // One value per flag, as in a C compiler (`-I DIR FILE`: FILE is not a second directory).
  app.add_option("-D", defines, "Define a macro: NAME or NAME=VALUE")->allow_extra_args(false);
  app.add_option("-U", undefines, "Undefine a macro")->allow_extra_args(false);
  app.add_option("-I", include_dirs, "Add a directory to the #include search path")
      ->allow_extra_args(false);
  app.add_option("-x", language,
                 "Source language (default: from the file name: .cl OpenCL C, .cu CUDA, .hip HIP, "
                 "anything else C)")
      ->check(CLI::IsMember({"c", "cl", "cuda", "hip"}));
  app.add_option("--cl-std", cl_std,
                 "OpenCL C version (-cl-std=CL1.0, CL1.1, CL1.2, CL2.0, CL3.0; default CL1.2, as "
                 "clang)");
  app.add_option("--from", from,
                 "Only the declarations made in this file (a path, or its last components: "
                 "--from zlib.h); repeatable")
      ->allow_extra_args(false);
  app.add_option("--max-input-size", max_input_bytes,
                 "Most bytes of source text read (the file and its includes; default 1 GiB)")
      ->transform(CLI::AsSizeValue(false));
}

bool InputFlags::fromKeeps(std::string_view file) const {
  namespace fs = std::filesystem;
  for (const std::string& f : from) {
    if (file == f) return true;
    if (file.size() > f.size() && file.ends_with(f) && file[file.size() - f.size() - 1] == '/')
      return true;
    std::error_code e1, e2;
    const fs::path a = fs::weakly_canonical(fs::path(file), e1);
    const fs::path b = fs::weakly_canonical(fs::path(f), e2);
    if (!e1 && !e2 && a == b) return true;
  }
  return false;
}

void InputFlags::throwNothingFrom() const {
  std::string list;
  for (const std::string& f : from) list += (list.empty() ? "'" : ", '") + f + "'";
  throw Error(ErrorKind::Input,
              "--from " + list + ": no declaration of " + displayName(file) + " is in such a file");
}

LanguageMode InputFlags::languageMode() const {
  LanguageMode mode = languageForPath(file);
  if (language == "c") mode.lang = Language::C;
  if (language == "cl") mode.lang = Language::OpenCL;
  if (language == "cuda") mode.lang = Language::CUDA;
  if (language == "hip") mode.lang = Language::HIP;
  if (!cl_std.empty()) {
    mode.opencl_version = parseOpenCLStandard(cl_std);
    if (mode.lang != Language::OpenCL)
      throw Error(ErrorKind::Input, "-cl-std=" + cl_std +
                                        " applies to OpenCL C sources (.cl or "
                                        "-x cl); " +
                                        displayName(file) + " is not one");
  }
  return mode;
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
  o.max_input_bytes = max_input_bytes;
  return o;
}

void Unanswered::add(const Error& e) {
  if (first_.empty()) first_.push_back(e);
  diagnostics_ += e.format() + "\n";
  ++count_;
}

void Unanswered::throwIfNone(size_t answered) const {
  if (answered == 0 && !first_.empty()) throw first_.front();
}

Output Unanswered::output(std::string text) const {
  Output out(std::move(text), count_ ? 1 : 0);
  out.diagnostics = diagnostics_;
  return out;
}

std::string displayName(const std::string& path) {
  return path == "-" ? "<stdin>" : path;
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
// False (nothing mapped, nothing opened) for anything else or if a step fails: the caller reads
// the file. The file is looked at (stat) before it is opened, so a pipe is opened once only, by
// the reader.
bool mapInput(const std::string& path, size_t padding, uint64_t max_bytes, PaddedInput& in) {
  if (path == "-") return false;
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (1 << 20))
    return false;
  if (uint64_t(st.st_size) > max_bytes) failInputTooLarge(path, max_bytes);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (1 << 20) &&
            uint64_t(st.st_size) <= max_bytes;
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

PaddedInput readPaddedInput(const std::string& path, size_t padding, uint64_t max_bytes) {
#ifdef ABIKIT_MAP_INPUT
  {
    PaddedInput mapped;
    if (mapInput(path, padding, max_bytes, mapped)) return mapped;
  }
#endif
  PaddedInput in;
  in.bytes = readSourceFile(path, max_bytes, padding);
  in.size = in.bytes.size();
  in.bytes.append(padding, '\0'); // within the capacity reserved: no copy
  return in;
}

} // namespace abikit::cli
