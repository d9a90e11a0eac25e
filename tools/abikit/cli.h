// The abikit command-line tool: shared option groups. Each command lives in its own
// cmd_*.cpp file and only parses flags, calls the library and prints.
#pragma once

#include "abikit/cparse.h"
#include "abikit/dwarf.h"
#include "abikit/emit.h"
#include "abikit/target.h"

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit::cli {

/// The groups of target flags a command takes besides --target (its help lists only those).
enum TargetFlagGroup : uint32_t {
  kRiscvFlags = 1u << 0,    // -march, -mabi, -mcmodel
  kCpuFlag = 1u << 1,       // -mcpu
  kAmdgpuFlags = 1u << 2,   // -mcode-object-version
  kIpuFlags = 1u << 3,      // -msupervisor, -mworker
  kVendorAbiFlag = 1u << 4, // --abi-variant (DPU, IPU)
  kAllTargetFlags = (1u << 5) - 1,
  kHostTargetFlag = 1u << 5, // --host-target (commands that read .cu/.hip sources)
  kSourceTargetFlags = kAllTargetFlags | kHostTargetFlag,
};

/// --target, -march, -mabi, -mcpu, -mcmodel, -mcode-object-version, -msupervisor, -mworker,
/// --abi-variant: the target selection shared by every command that needs a target.
struct TargetFlags {
  TargetOptions options;
  std::string abi_variant = "compiler";
  bool wave64 = false, wave32 = false; // -mwavefrontsize64, -mno-wavefrontsize64
  /// Registers --target and the flags of `groups` (a command for one family takes only the
  /// flags that family reads).
  void add(CLI::App& app, uint32_t groups = kAllTargetFlags);
  Target resolve() const; // throws abikit::Error
};

/// FILE.h, -D, -I: the C input shared by layout/call/ptx/kernarg.
struct InputFlags {
  std::string file;
  std::vector<std::string> defines;
  std::vector<std::string> undefines;
  std::vector<std::string> include_dirs;
  uint64_t max_input_bytes = ParseOptions().max_input_bytes;
  std::string language;          // -x: c, cl, cuda, hip (empty: from the file name)
  std::string cl_std;            // -cl-std (OpenCL C only)
  std::vector<std::string> from; // --from: keep the declarations of these files only
  void add(CLI::App& app);
  /// `decls` less those --from does not keep (all of them without --from): a declaration is
  /// kept when its file is one of the --from paths, ends with "/" and one of them, or is the
  /// same file. An Input error when --from keeps none of a non-empty list.
  template <class Decl>
  std::vector<const Decl*> keepFrom(const TypeContext& ctx,
                                    const std::vector<const Decl*>& decls) const {
    if (from.empty()) return decls;
    std::vector<int8_t> known; // per file id: -1 not yet looked at, 0 dropped, 1 kept
    std::vector<const Decl*> out;
    for (const Decl* d : decls) {
      uint32_t id = d->loc.file;
      if (id >= known.size()) known.resize(id + 1, -1);
      if (known[id] < 0) known[id] = fromKeeps(ctx.fileName(id));
      if (known[id]) out.push_back(d);
    }
    if (out.empty() && !decls.empty()) throwNothingFrom();
    return out;
  }
  bool fromKeeps(std::string_view file) const;
  [[noreturn]] void throwNothingFrom() const;
  ParseOptions parseOptions() const; // -D NAME[=VALUE], -U, -I
  /// The source language (-x, else from the file name) and its standard (-cl-std); throws an
  /// Input error for -cl-std on a source that is not OpenCL C.
  LanguageMode languageMode() const;
};

/// --encoding, --dwarf64, --address-size: how a DWARF expression is coded (dwarf-expr).
struct DwarfFormatFlags {
  std::string encoding = "user";
  bool dwarf64 = false;
  unsigned address_size = 0; // 0: the target's pointer size
  void add(CLI::App& app);
  dwarf::ExprFormat format(const Target& target) const; // throws abikit::Error
};

/// Appends the bytes written as hex digits in `text` ("e9 02", "e902"; blanks between bytes) to
/// `out`. Errors name `label` ("HEX argument 2", "m.json: memory[0].bytes") and the character.
void appendHexBytes(std::string_view text, const std::string& label, std::vector<uint8_t>& out);

/// HEX arguments ("e9 02", "e902"), concatenated; errors name "HEX argument N".
std::vector<uint8_t> parseHexArgs(const std::vector<std::string>& args);

/// An input's text followed by padding NUL bytes (see readPaddedInput()).
struct PaddedInput {
  /// A file mapped read-only, followed by zero pages for the padding (unmapped when destroyed).
  struct Mapping {
    void* base = nullptr;
    size_t length = 0;
    Mapping() = default;
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping();
  };
  std::string bytes;                // the text read into memory (and the padding), or
  std::unique_ptr<Mapping> mapping; // the file mapped, at `data`
  const char* data = nullptr;       // mapped only: `bytes` moves with this object (a short
                                    // text is inside the string object itself)
  size_t size = 0;                  // of the text, without the padding
  std::string_view text() const { return {mapping ? data : bytes.data(), size}; }
};
/// The input's text (readSourceFile(): "-" is standard input, the same errors and size limit)
/// followed by `padding` NUL bytes: a large regular file is mapped (POSIX; its pages are the page
/// cache's, not copied), anything else is read into one allocation.
PaddedInput readPaddedInput(const std::string& path, size_t padding, uint64_t max_bytes);
/// The size of a regular input file in bytes (0 for standard input or if unknown).
size_t inputSize(const std::string& path);
/// Prepares the process heap for about `bytes` of allocations that live until exit (Linux/glibc,
/// large amounts only; nothing otherwise): one growth, no giving back, transparent huge pages.
void reserveHeap(size_t bytes);
/// How diagnostics name an input file ("<stdin>" for "-").
std::string displayName(const std::string& path);

/// What a command's callback produces: the complete stdout text, printed only on success, or
/// (for output of any size) a writer that run() calls after writing `text`. The writer appends
/// to the sink's buffer and drains it between items; the sink writes to stdout in chunks of
/// OutputSink::kChunk bytes. It returns the exit status (replacing exit_code) and must have
/// checked its input before it writes anything (an abikit::Error it throws is reported after
/// what was already written). A failed write is reported by run() for every command:
/// "abikit: error: cannot write the output: <reason>", exit 1.
struct Output {
  Output() = default;
  Output(std::string text_, int exit_code_ = 0) : text(std::move(text_)), exit_code(exit_code_) {}
  std::string text;
  int exit_code = 0;
  std::function<int(OutputSink&)> stream;
  std::string diagnostics; // written to stderr (errors of items left unanswered)
};

/// Per-declaration answers (call, ptx, kernarg): a function or kernel that cannot be answered
/// (its lowering throws an abikit::Error) is reported on stderr with its position while the
/// others are answered; the command then exits 1. When none is answered the first error is the
/// command's error, as for any bad input: nothing on stdout.
class Unanswered {
public:
  /// Records the error of one item.
  void add(const Error& e);
  size_t count() const { return count_; }
  /// Throws the first error recorded when `answered` is 0.
  void throwIfNone(size_t answered) const;
  /// `text` as the command's output, with the diagnostics and exit status 1 if any item is
  /// unanswered.
  Output output(std::string text) const;

private:
  std::vector<Error> first_; // the first error (at most one)
  std::string diagnostics_;
  size_t count_ = 0;
};

/// One answer per function: `answer(f)` for each, or, where it throws an abikit::Error, an
/// answer holding the function's name and the message (recorded in `unanswered`). Throws the
/// first error when no function is answered.
template <class Answer, class Fn>
std::vector<Answer> answerEach(std::span<const FunctionDecl* const> functions, Fn&& answer,
                               Unanswered& unanswered) {
  std::vector<Answer> out;
  out.reserve(functions.size());
  for (const FunctionDecl* f : functions) {
    try {
      out.push_back(answer(*f));
    } catch (const Error& e) {
      unanswered.add(e);
      Answer& x = out.emplace_back();
      x.name = f->name;
      x.error = e.message();
    }
  }
  unanswered.throwIfNone(out.size() - unanswered.count());
  return out;
}

using Action = std::function<Output()>;

/// clang's single-dash long flags (-march=..., -mcpu, -msupervisor, ...) in CLI11's double-dash
/// spelling; other arguments are left alone.
void normaliseLongFlag(std::string& arg);

/// One target's parse of a header (layout, compat). It is not destroyed: the process ends right
/// after printing, and freeing every record, type and field of a large header would cost more
/// than laying out one record. Commands keep it reachable (from a static), so that leak checkers
/// do not report it.
struct Session {
  Target target;
  TypeContext ctx;
  LayoutEngine engine;
  TranslationUnit tu;
  Session(Target t, LanguageMode lang) : target(std::move(t)), ctx(target, lang), engine(ctx) {}
};

/// What a C assertion file needs before its checks (layout and compat --emit-c-asserts): the
/// input's -D/-U macros and an #include of the header (for standard input, its text).
std::string assertsPrelude(const InputFlags& input, const std::string& text);

/// The whole command line: parses argv, runs the command, prints its output; the exit status.
int run(int argc, char** argv);

/// Registers a command on `app`; its action runs after parsing. Defined in the cmd_*.cpp files.
void addTargetsCommand(CLI::App& app, Action& action);
void addDescribeCommand(CLI::App& app, Action& action);
void addCallCommand(CLI::App& app, Action& action);
void addPtxCommand(CLI::App& app, Action& action);
void addKernargCommand(CLI::App& app, Action& action);
void addLayoutCommand(CLI::App& app, Action& action);
void addCompatCommand(CLI::App& app, Action& action);
void addElfCommand(CLI::App& app, Action& action);
void addLinkCheckCommand(CLI::App& app, Action& action);
void addDwarfExprCommand(CLI::App& app, Action& action);
void addDwarfCfiCommand(CLI::App& app, Action& action);
void addDwarfCommand(CLI::App& app, Action& action);

} // namespace abikit::cli
