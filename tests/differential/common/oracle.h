// Helpers for differential tests: run a compiler, capture its output, scratch directories.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace abikit::oracle {

struct RunResult {
  int exit_code = -1;
  std::string out; // stdout
  std::string err; // stderr
};

/// Runs argv[0] with the arguments (no shell), optionally feeding `input` on stdin.
RunResult run(const std::vector<std::string>& argv, const std::string& input = "");

/// Full path of a program found on PATH (or at an absolute path), "" if absent.
std::string findProgram(const std::string& name);

/// A fresh directory under $TMPDIR removed when the object dies.
class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  void write(const std::string& name, const std::string& text) const;

private:
  std::string path_;
};

std::string readFile(const std::string& path);

/// Sample size and seed for generated cases: ABIKIT_DIFF_COUNT / ABIKIT_DIFF_SEED from the
/// environment (set by tests/differential/run), else the given defaults.
uint64_t sampleCount(uint64_t default_count);
uint64_t sampleSeed(uint64_t default_seed);

/// Every clang abikit knows (--compiler) that is installed, newest first: for tests of what
/// abikit reads, which does not depend on the compiler abikit models.
std::vector<std::string> installedClangs();

/// The clang versions abikit models for a target (resolveTarget accepts them as --compiler),
/// newest first: every differential runs each of them that is installed (ABIKIT_DIFF_COMPILERS,
/// a comma-separated list such as "clang-22,clang-14", narrows the choice).
std::vector<std::string> modelledClangs(const std::string& triple, const std::string& march = "",
                                        const std::string& mabi = "", const std::string& mcpu = "");

/// The CI sample for a compiler: all of `count` for the family's default (the first of
/// modelledClangs) and for clang-14 (whose answers must not change), half for the others; an
/// explicit ABIKIT_DIFF_COUNT applies to every compiler alike.
uint64_t sampleCountFor(uint64_t default_count, const std::vector<std::string>& modelled,
                        const std::string& compiler);

/// A test-name fragment for a compiler: "clang-22" -> "clang22".
std::string compilerTag(const std::string& compiler);

/// Appends one copy of `abi` per compiler in `modelled`, each with `compiler` set, `modelled`
/// kept and `name` suffixed with the compiler's tag ("lp64d" -> "lp64d_clang22").
template <class Abi>
void appendPerCompiler(std::vector<Abi>& out, Abi abi, const std::vector<std::string>& modelled) {
  abi.modelled = modelled;
  for (const std::string& cc : modelled) {
    Abi x = abi;
    x.compiler = cc;
    x.name = std::string(abi.name) + "_" + compilerTag(cc);
    out.push_back(std::move(x));
  }
}

/// Macros clang predefines that abikit does not model, each for a documented reason
/// (docs/compilers.md, "Predefined macros"): the vendor's version strings, the execution
/// character sets, Objective-C and a pragma's feature test.
extern const std::set<std::string> kUnmodelledClangMacros;

/// The #define lines of `-E -dM` output as name -> value (a function-like macro keeps its
/// parameter list in the name: "__INT64_C(c)").
std::map<std::string, std::string> parseMacros(const std::string& text);
/// The macros a compiler predefines: `argv` (the compiler and its target options) run with
/// `-E -dM -x c /dev/null`. A compiler that fails is a test failure (and an empty map).
std::map<std::string, std::string> compilerMacros(std::vector<std::string> argv);

} // namespace abikit::oracle
