// Differential test of OpenCL C's versions (-cl-std) against clang: random records whose members
// are pointers written with and without an address space (to scalars, records, pointers and
// arrays; typedef'd, in arrays, nested), on each OpenCL target and every modelled clang, at
// CL1.0, CL1.1, CL1.2, CL2.0 and CL3.0. abikit parses each header with that version and writes its
// assertion file (layoutCAsserts: every record's size and alignment, every member's offset and
// size); the file, with probes of __OPENCL_C_VERSION__ and __opencl_c_generic_address_space as
// abikit predefines them, must compile with `clang-N -x cl -cl-std=V`. A pointee without an address
// space is private in OpenCL C 1.x (32-bit on AMDGPU) and generic in 2.0 (64-bit): a wrong
// deduction changes sizes and offsets. A `generic` qualifier must be refused by abikit exactly
// where clang refuses it.
//
// ABIKIT_DIFF_COUNT (default 120 records per target, compiler and version) and ABIKIT_DIFF_SEED
// size the run.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "oracle.h"

#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace abikit;

const char* const kTriples[] = {"amdgcn-amd-amdhsa", "nvptx64-nvidia-nvcl", "nvptx-nvidia-nvcl"};

struct Standard {
  const char* flag; // -cl-std value
  uint16_t version;
};
const Standard kStandards[] = {
    {"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}};

struct Case {
  std::string triple;
  std::string compiler;
  Standard std;
  std::string name() const {
    std::string n = triple + "_" + oracle::compilerTag(compiler) + "_" + std.flag;
    for (char& c : n)
      if (c == '-' || c == '.') c = '_';
    return n;
  }
};

std::vector<Case> allCases() {
  std::vector<Case> out;
  for (const char* t : kTriples)
    for (const std::string& cc : oracle::modelledClangs(t))
      for (const Standard& s : kStandards) out.push_back({t, cc, s});
  return out;
}

// Random records with pointer members. Only what every OpenCL C version accepts in a record
// (`generic` only after a `*`; among the specifiers it is tested on its own below).
class Generator {
public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  std::string header(size_t records) {
    std::string out = "typedef int *IntPtr;\ntypedef __global float *GlobalPtr;\n"
                      "struct Leaf { char c; int *p; };\n";
    for (size_t i = 0; i < records; ++i) {
      out += std::string(below(8) == 0 ? "struct __attribute__((packed)) R" : "struct R") +
             std::to_string(i) + " {\n";
      size_t n = 1 + below(6);
      for (size_t m = 0; m < n; ++m) out += "  " + member(i, m) + ";\n";
      out += "};\n";
    }
    return out;
  }

private:
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  template <size_t N> const char* pick(const char* const (&a)[N]) { return a[below(N)]; }

  std::string member(size_t record, size_t m) {
    static const char* const kScalars[] = {"char",   "short", "int",  "long",   "float",
                                           "double", "uchar", "int2", "float4", "char3"};
    static const char* const kSpaces[] = {
        "", "", "", "__global ", "__local ", "__constant ", "__private ", "const "};
    const std::string name = "m" + std::to_string(m);
    std::string pointee = below(5) == 0 && record > 0 ? "struct R" + std::to_string(below(record))
                          : below(6) == 0             ? "void"
                          : below(8) == 0             ? "struct Leaf"
                                                      : std::string(pick(kScalars));
    std::string space = pick(kSpaces);
    switch (below(10)) {
    case 0:
      return pick(kScalars) + std::string(" ") + name;
    case 1: { // a pointer to a pointer, the inner one maybe in a named space (clang takes
              // `__generic` there in every version)
      static const char* const kInner[] = {"",           "__global ", "__local ",
                                           "__private ", "const ",    "__generic "};
      return space + pointee + " * " + pick(kInner) + "*" + name;
    }
    case 2: // an array of pointers
      return space + pointee + " *" + name + "[" + std::to_string(1 + below(3)) + "]";
    case 3: // a pointer to an array
      return space + pick(kScalars) + " (*" + name + ")[" + std::to_string(1 + below(4)) + "]";
    case 4:
      return std::string(below(2) ? "IntPtr " : "GlobalPtr ") + name;
    case 5:
      return "struct Leaf " + name;
    default:
      return space + pointee + " *" + name;
    }
  }

  std::mt19937_64 rng_;
};

std::vector<std::string> clangCommand(const Case& c, const std::string& file) {
  return {c.compiler,  "-target",       c.triple, "-x", "cl", std::string("-cl-std=") + c.std.flag,
          "-nogpulib", "-fsyntax-only", "-w",     file};
}

// The probes of the version macros as abikit predefines them.
std::string macroProbes(const Target& t, LanguageMode mode) {
  std::string version, generic = "0";
  for (const auto& [name, value] : predefinedMacros(t, mode)) {
    if (name == "__OPENCL_C_VERSION__") version = value;
    if (name == "__opencl_c_generic_address_space") generic = "1";
  }
  return "#if __OPENCL_C_VERSION__ != " + version + "\n#error abikit: __OPENCL_C_VERSION__ " +
         version + "\n#endif\n#if defined(__opencl_c_generic_address_space) != " + generic +
         "\n#error abikit: __opencl_c_generic_address_space " + generic + "\n#endif\n";
}

class OpenCLStd : public ::testing::TestWithParam<Case> {};

Target targetOf(const Case& c) {
  TargetOptions o;
  o.triple = c.triple;
  o.compiler = c.compiler;
  return resolveTarget(o);
}

TEST_P(OpenCLStd, LayoutsAndMacrosAsClang) {
  const Case& c = GetParam();
  const Target target = targetOf(c);
  const LanguageMode mode(Language::OpenCL, c.std.version);
  const uint64_t count = oracle::sampleCount(120);
  const uint64_t seed = oracle::sampleSeed(1);
  oracle::ScratchDir dir;

  // Records in batches of 40: one clang run each.
  uint64_t done = 0;
  for (uint64_t batch = 0; done < count; ++batch) {
    const size_t n = size_t(std::min<uint64_t>(40, count - done));
    std::string text = Generator(seed * 1000003 + batch).header(n);
    TypeContext ctx(target, mode);
    LayoutEngine engine(ctx);
    std::string asserts;
    try {
      TranslationUnit tu = parseSource(ctx, engine, "case.cl", text, ParseOptions{});
      asserts = layoutCAsserts(engine, tu.records, text);
    } catch (const Error& e) {
      ADD_FAILURE() << c.name() << ": abikit refused batch " << batch << ": " << e.format() << "\n"
                    << text;
      return;
    }
    dir.write("case.cl", asserts + macroProbes(target, mode));
    oracle::RunResult r = oracle::run(clangCommand(c, dir.file("case.cl")));
    EXPECT_EQ(r.exit_code, 0) << c.name() << ": clang refuses abikit's layouts (batch " << batch
                              << ", seed " << seed << "):\n"
                              << r.err.substr(0, 4000);
    if (r.exit_code != 0) return;
    done += n;
  }
  std::printf("[ opencl-std ] %s: %llu records, 0 disagreements\n", c.name().c_str(),
              static_cast<unsigned long long>(done));
}

// `generic` and `__generic`: abikit accepts them exactly where clang does.
TEST_P(OpenCLStd, GenericQualifierAsClang) {
  const Case& c = GetParam();
  const Target target = targetOf(c);
  oracle::ScratchDir dir;
  for (const char* text : {"struct G { generic int *g; };\n", "struct G { __generic int *g; };\n",
                           "struct G { int * __generic *g; };\n"}) {
    TypeContext ctx(target, LanguageMode(Language::OpenCL, c.std.version));
    LayoutEngine engine(ctx);
    bool ours = true;
    std::string why;
    try {
      parseSource(ctx, engine, "g.cl", text, ParseOptions{});
    } catch (const Error& e) {
      ours = false;
      why = e.format();
    }
    dir.write("g.cl", text);
    bool theirs = oracle::run(clangCommand(c, dir.file("g.cl"))).exit_code == 0;
    EXPECT_EQ(ours, theirs) << c.name() << ": " << text << why;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, OpenCLStd, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name(); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OpenCLStd);

} // namespace
