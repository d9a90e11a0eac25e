// Differential test of `abikit compat`: random headers (layout_gen) on pairs of targets. abikit
// parses each header for both targets, compares every record (compareLayouts) and writes the
// assertion files (compatCAsserts: each target's file states the other's layout). Each file is
// compiled by clang-22 for its own target. The proof: the files compile exactly when compat finds
// no difference that C assertions can state (size, alignment, a member's offset or size). Bit-field
// positions cannot be asserted in C (offsetof cannot name a bit-field): cases whose only
// differences are bit positions must compile, and are counted.
//
// ABIKIT_DIFF_COUNT (default 60 cases per pair) and ABIKIT_DIFF_SEED size the run.
#include "abikit/compat.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "layout_gen.h"
#include "oracle.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <memory>

namespace {

using namespace abikit;
using namespace abikit::difftest;

struct Pair {
  const char* name;
  const char* a;
  const char* b;
};

// Host/device and host/host pairs whose layouts differ in many ways (DPU and IPU have no clang).
const Pair kPairs[] = {
    {"x86_64_i386", "x86_64-linux-gnu", "i386-linux-gnu"},
    {"x86_64_msvc", "x86_64-linux-gnu", "x86_64-pc-windows-msvc"},
    {"mingw_aarch64", "x86_64-w64-windows-gnu", "aarch64-linux-gnu"},
    {"i386_nvptx64", "i386-linux-gnu", "nvptx64-nvidia-cuda"},
    {"msvc_amdgcn", "x86_64-pc-windows-msvc", "amdgcn-amd-amdhsa"},
};

Target targetFor(const char* triple) {
  TargetOptions o;
  o.triple = triple;
  return resolveTarget(o);
}

// One target's parse of a header.
struct Side {
  Target target;
  TypeContext ctx;
  LayoutEngine engine;
  TranslationUnit tu;
  Side(Target t, const std::string& text)
      : target(std::move(t)), ctx(target, Language::C), engine(ctx),
        tu(parseSource(ctx, engine, "case.h", text, ParseOptions{})) {
    for (const RecordDecl* rd : tu.records) engine.of(*rd); // layout errors throw here too
  }
};

bool compiles(const std::string& triple, const oracle::ScratchDir& dir, const std::string& name,
              const std::string& text, std::string& err) {
  dir.write(name, text);
  std::vector<std::string> cmd = {"clang-22", "--target=" + triple, "-fsyntax-only", "-w",
                                  dir.file(name)};
  if (std::string(triple).rfind("amdgcn", 0) == 0) cmd.insert(cmd.begin() + 2, "-nogpulib");
  oracle::RunResult r = oracle::run(cmd);
  err = r.err;
  return r.exit_code == 0;
}

class DiffCompat : public ::testing::TestWithParam<Pair> {};

TEST_P(DiffCompat, AssertionsCompileExactlyWhenLayoutsAgree) {
  const Pair& p = GetParam();
  if (oracle::findProgram("clang-22").empty()) GTEST_SKIP() << "clang-22 is not installed";
  const Target ta = targetFor(p.a), tb = targetFor(p.b);
  const uint64_t count = oracle::sampleCount(60);
  const uint64_t seed = oracle::sampleSeed(1);
  uint64_t same = 0, differ = 0, bits_only = 0, skipped = 0, records = 0;
  oracle::ScratchDir dir;
  for (uint64_t k = 0; k < count; ++k) {
    // Generated for the first target, or when the second cannot parse that (a type it lacks),
    // for the second; a case neither way both parse is skipped.
    std::string text;
    std::unique_ptr<Side> a, b;
    for (const Target* gen : {&ta, &tb}) {
      std::vector<GProgram> one;
      one.push_back(generateCase(seed * 0x9E3779B97F4A7C15ull + k + (gen == &tb ? count : 0),
                                 "c" + std::to_string(k) + "_", *gen, OracleKind::Clang, true));
      text = render(one);
      try {
        a = std::make_unique<Side>(ta, text);
        b = std::make_unique<Side>(tb, text);
        break;
      } catch (const Error&) {
        a.reset();
        b.reset();
      }
    }
    if (!a || !b) {
      ++skipped;
      continue;
    }
    records += a->tu.records.size();
    const CompatSide sides[] = {{&a->engine, a->tu.records}, {&b->engine, b->tu.records}};
    std::vector<CompatRecord> result = compareLayouts(sides);
    bool assertable = false, any = false;
    for (const CompatRecord& r : result)
      for (const CompatDifference& d : r.differences) {
        any = true;
        assertable |= d.what != "bit_offset" && d.what != "bit_width";
      }
    same += !any;
    differ += assertable;
    bits_only += any && !assertable;
    for (const CompatAssertFile& f : compatCAsserts(sides, text)) {
      std::string err;
      const bool ok =
          compiles(f.target.substr(0, f.target.find(' ')), dir, "asserts.c", f.text, err);
      if (ok == !assertable) continue;
      std::string report = compatText(std::vector<std::string>{ta.spelling, tb.spelling}, result);
      ADD_FAILURE() << p.name << " case " << k << ": compat says the layouts "
                    << (assertable ? "differ" : "agree") << " but the assertions for " << f.target
                    << " (stating " << f.reference << "'s layout) "
                    << (ok ? "compile" : "do not compile") << "\n--- header\n"
                    << text << "--- compat\n"
                    << report << "--- clang-22\n"
                    << err;
      return;
    }
  }
  std::printf("[ compat  ] %s: %llu cases (%llu records): %llu agree, %llu differ, %llu differ "
              "in bit-field positions only, %llu skipped (neither way parses on both); "
              "every assertion file compiled exactly when the layouts agree\n",
              p.name, (unsigned long long)count, (unsigned long long)records,
              (unsigned long long)same, (unsigned long long)differ, (unsigned long long)bits_only,
              (unsigned long long)skipped);
  EXPECT_GT(same + differ + bits_only, 0u);
}

INSTANTIATE_TEST_SUITE_P(Pairs, DiffCompat, ::testing::ValuesIn(kPairs),
                         [](const ::testing::TestParamInfo<Pair>& info) {
                           return std::string(info.param.name);
                         });

} // namespace
