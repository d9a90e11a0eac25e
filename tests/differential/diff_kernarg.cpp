// Differential test of the AMDGPU kernel-argument (kernarg) metadata against clang-14/llc-14.
//
// Random OpenCL C 2.0 kernels (kernarg_gen) are compiled with `clang-14 -target
// amdgcn-amd-amdhsa -mcpu=gfx906 -nogpulib -x cl -cl-std=CL2.0 -cl-kernel-arg-info -S` at -O0
// and -O1; the `.amdgpu_metadata` block of the assembly is read back and every `.args` entry
// (offset, size, value kind, address space, access, type name, name, qualifiers, pointee
// alignment), `.kernarg_segment_size` and `.kernarg_segment_align` are compared with abikit's
// kernarg computation (-mhidden-args=all for -O0, auto for -O1), entry by entry; the text abikit
// prints with --yaml must equal LLVM's for the same keys. Smaller OpenCL samples compile with
// -cl-std=CL1.2 (clang's default; .language_version [1, 2]) and -cl-std=CL3.0. A HIP sample
// (clang-14 -x hip
// --cuda-device-only -fno-discard-value-names) is checked the same way, and an OpenCL sample
// with code object V5 against llc-14's preliminary V5 (--amdhsa-code-object-version=5).
//
// ABIKIT_DIFF_COUNT (default 400 kernels per language and optimisation level) and
// ABIKIT_DIFF_SEED (default 1) size the run.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/kernarg.h"
#include "batch.h"
#include "kernarg_gen.h"
#include "oracle.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace {

using namespace abikit;
using namespace abikit::difftest;

constexpr size_t kBatch = 100;
constexpr size_t kMaxReported = 5;

struct Mode {
  const char* name;
  bool hip;
  int opt;                   // clang -O level
  unsigned co_version;       // code object version
  HiddenArgs hidden;         // the abikit mode that models it
  uint16_t cl_version = 200; // OpenCL C: -cl-std
  const char* clStd() const {
    return cl_version == 120   ? "-cl-std=CL1.2"
           : cl_version == 300 ? "-cl-std=CL3.0"
                               : "-cl-std=CL2.0";
  }
};

const Mode kModes[] = {
    {"opencl_O0", false, 0, 4, HiddenArgs::All},
    {"opencl_O1", false, 1, 4, HiddenArgs::Auto},
    {"hip_O0", true, 0, 4, HiddenArgs::All},
    {"hip_O1", true, 1, 4, HiddenArgs::Auto},
    {"opencl_v5_O0", false, 0, 5, HiddenArgs::All},
    {"opencl_v5_O1", false, 1, 5, HiddenArgs::Auto},
    {"opencl12_O1", false, 1, 4, HiddenArgs::Auto, 120},
    {"opencl30_O0", false, 0, 4, HiddenArgs::All, 300},
};

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

std::vector<std::string> compileCommand(const Mode& m, const std::string& src,
                                        const std::string& out) {
  std::vector<std::string> cmd = {"clang-14", "-O" + std::to_string(m.opt), "-S", "-w"};
  if (m.hip) {
    cmd.insert(cmd.end(), {"-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc",
                           "--offload-arch=gfx906", "-fno-discard-value-names"});
  } else {
    cmd.insert(cmd.end(), {"-target", "amdgcn-amd-amdhsa", "-mcpu=gfx906", "-nogpulib", "-x", "cl",
                           m.clStd(), "-cl-kernel-arg-info"});
  }
  if (m.co_version == 5) cmd.insert(cmd.end(), {"-mllvm", "--amdhsa-code-object-version=5"});
  cmd.insert(cmd.end(), {src, "-o", out});
  return cmd;
}

std::string argText(const std::vector<std::pair<std::string, std::string>>& a) {
  std::string s = "{";
  for (const auto& [k, v] : a) s += (s.size() > 1 ? ", " : "") + k + ": " + v;
  return s + "}";
}

struct Verdict {
  bool oracle_rejected = false;
  std::string oracle_message;
  bool disagree = false;
  std::string detail;
  uint64_t args = 0;
};

class Runner {
public:
  Runner(const Mode& mode, const Target& target) : mode_(mode), target_(target) {}

  std::vector<Verdict> run(const std::vector<KernelCase>& all) {
    std::vector<Verdict> verdicts(all.size());
    oracle::compileDroppingRejected(
        all,
        [&](std::vector<KernelCase>& batch, const std::vector<size_t>& ids,
            std::vector<size_t>& rejected) { return runOnce(batch, ids, verdicts, rejected); },
        [&](size_t i) { verdicts[i].oracle_rejected = true; });
    return verdicts;
  }

private:
  // false when clang rejected the batch; `rejected` then lists the kernels it named.
  bool runOnce(const std::vector<KernelCase>& kernels, const std::vector<size_t>& ids,
               std::vector<Verdict>& all_verdicts, std::vector<size_t>& rejected) {
    std::string text = renderKernels(kernels);
    // The line range of each kernel's declarations and definition.
    std::vector<std::pair<uint32_t, uint32_t>> lines;
    {
      uint32_t line = 2; // after the prelude line
      for (const KernelCase& k : kernels) {
        std::string one = renderKernels({k});
        uint32_t n = uint32_t(std::count(one.begin(), one.end(), '\n')) - 1;
        lines.push_back({line, line + n - 1});
        line += n;
      }
    }
    oracle::ScratchDir dir;
    std::string src = dir.file(mode_.hip ? "kernels.hip" : "kernels.cl");
    dir.write(mode_.hip ? "kernels.hip" : "kernels.cl", text);
    oracle::RunResult r = oracle::run(compileCommand(mode_, src, dir.file("kernels.s")));
    if (r.exit_code != 0) {
      std::istringstream es(r.err);
      std::string l;
      std::string tag = src + ":";
      while (std::getline(es, l)) {
        if (l.rfind(tag, 0) != 0 || l.find("error") == std::string::npos) continue;
        uint32_t n = uint32_t(std::stoul(l.substr(tag.size())));
        for (size_t k = 0; k < kernels.size(); ++k)
          if (n >= lines[k].first && n <= lines[k].second) {
            if (std::find(rejected.begin(), rejected.end(), ids[k]) == rejected.end())
              rejected.push_back(ids[k]);
            all_verdicts[ids[k]].oracle_rejected = true;
            all_verdicts[ids[k]].oracle_message += l + "\n";
          }
      }
      if (rejected.empty())
        for (size_t k = 0; k < kernels.size(); ++k) {
          all_verdicts[ids[k]].oracle_rejected = true;
          all_verdicts[ids[k]].oracle_message = r.err.substr(0, 3000);
        }
      return false;
    }
    std::vector<Verdict> verdicts(kernels.size());
    std::vector<MdKernel> theirs = readAmdgpuMetadata(oracle::readFile(dir.file("kernels.s")));
    std::map<std::string, const MdKernel*> by_name;
    for (const MdKernel& k : theirs) by_name[k.name] = &k;

    // abikit: parse the same text, compute every kernel, print the YAML, read it back.
    TypeContext ctx(target_, mode_.hip ? LanguageMode(Language::HIP)
                                       : LanguageMode(Language::OpenCL, mode_.cl_version));
    LayoutEngine layout(ctx);
    TranslationUnit tu;
    try {
      tu = parseSource(ctx, layout, src, text, {});
    } catch (const Error& e) {
      for (size_t i = 0; i < kernels.size(); ++i) {
        all_verdicts[ids[i]].disagree = true;
        all_verdicts[ids[i]].detail = "abikit could not parse the kernels: " + e.format() + "\n";
      }
      return true;
    }
    KernargOptions options;
    options.hidden = mode_.hidden;
    for (size_t i = 0; i < kernels.size(); ++i) {
      Verdict& v = verdicts[i];
      const FunctionDecl* f = tu.findFunction(kernels[i].name);
      auto it = by_name.find(kernels[i].name);
      if (!f || it == by_name.end()) {
        v.disagree = true;
        v.detail =
            std::string("the kernel is missing from ") + (f ? "clang's metadata" : "abikit") + "\n";
        continue;
      }
      std::vector<KernelArguments> one;
      try {
        one.push_back(computeKernelArguments(layout, *f, options));
      } catch (const Error& e) {
        v.disagree = true;
        v.detail = "abikit rejected a kernel clang-14 accepts:\n  " + e.format() + "\n";
        continue;
      }
      std::string yaml = kernargYaml(target_, one);
      std::vector<MdKernel> ours = readAmdgpuMetadata(yaml);
      const MdKernel& t = *it->second;
      if (ours.size() != 1) {
        v.disagree = true;
        v.detail = "abikit's YAML does not read back:\n" + yaml;
        continue;
      }
      const MdKernel& o = ours[0];
      v.args = t.args.size();
      std::string detail;
      for (const char* key : {".kernarg_segment_size", ".kernarg_segment_align"}) {
        std::string a = o.keys.count(key) ? o.keys.at(key) : "";
        std::string b = t.keys.count(key) ? t.keys.at(key) : "";
        if (a != b) detail += "  " + std::string(key) + ": abikit " + a + ", llc-14 " + b + "\n";
      }
      size_t n = std::max(o.args.size(), t.args.size());
      for (size_t a = 0; a < n; ++a) {
        std::string ao = a < o.args.size() ? argText(o.args[a]) : "(none)";
        std::string at = a < t.args.size() ? argText(t.args[a]) : "(none)";
        if (ao != at)
          detail += "  .args[" + std::to_string(a) + "]\n    abikit: " + ao +
                    "\n    llc-14: " + at + "\n";
      }
      if (detail.empty() && o.text != t.text)
        detail += "  the YAML text differs:\n--- abikit\n" + o.text + "--- llc-14\n" + t.text;
      if (!detail.empty()) {
        v.disagree = true;
        v.detail = detail;
      }
    }
    for (size_t i = 0; i < kernels.size(); ++i) all_verdicts[ids[i]] = verdicts[i];
    return true;
  }

  const Mode& mode_;
  const Target& target_;
};

class DiffKernarg : public ::testing::TestWithParam<Mode> {};

TEST_P(DiffKernarg, AgreesWithClang) {
  const Mode& mode = GetParam();
  ASSERT_FALSE(oracle::findProgram("clang-14").empty()) << "clang-14 is not installed";
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx906";
  o.code_object_version = int(mode.co_version);
  Target target = resolveTarget(o);
  uint64_t count = oracle::sampleCount(400);
  // The HIP and V5 samples are smaller: they exercise fewer rules.
  if (mode.hip || mode.co_version == 5 || mode.cl_version != 200)
    count = std::max<uint64_t>(count / 4, 50);
  uint64_t seed = oracle::sampleSeed(1);
  Runner runner(mode, target);
  uint64_t disagreements = 0, rejected = 0, reported = 0, args = 0;
  for (uint64_t first = 0; first < count; first += kBatch) {
    std::vector<KernelCase> batch;
    for (uint64_t k = first; k < std::min<uint64_t>(count, first + kBatch); ++k)
      batch.push_back(generateKernel(mix(mix(seed, mode.hip ? 7 : 3), k),
                                     "c" + std::to_string(k) + "_", mode.hip, mode.cl_version));
    std::vector<Verdict> verdicts = runner.run(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      const Verdict& v = verdicts[i];
      args += v.args;
      if (v.oracle_rejected) {
        ++rejected;
        if (reported++ < kMaxReported)
          ADD_FAILURE() << mode.name << ": clang-14 rejected a batch with kernel " << batch[i].name
                        << ":\n"
                        << v.oracle_message;
        continue;
      }
      if (!v.disagree) continue;
      ++disagreements;
      if (reported++ >= kMaxReported) continue;
      // Shrink: drop parameters while the disagreement stays.
      KernelCase small = batch[i];
      Verdict last = v;
      for (bool progress = true; progress;) {
        progress = false;
        for (const KernelCase& c : shrinkKernel(small)) {
          Verdict w = runner.run({c})[0];
          if (!w.oracle_rejected && w.disagree) {
            small = c;
            last = w;
            progress = true;
            break;
          }
        }
      }
      ADD_FAILURE() << mode.name << ": disagreement (kernel seed " << batch[i].seed << "):\n"
                    << renderKernels({small}) << last.detail;
    }
  }
  std::printf("[ kernarg  ] %s: %llu kernels, %llu .args entries vs clang-14: %llu "
              "disagreements, %llu rejected\n",
              mode.name, (unsigned long long)count, (unsigned long long)args,
              (unsigned long long)disagreements, (unsigned long long)rejected);
  EXPECT_EQ(disagreements, 0u);
  EXPECT_EQ(rejected, 0u);
}

INSTANTIATE_TEST_SUITE_P(Modes, DiffKernarg, ::testing::ValuesIn(kModes),
                         [](const ::testing::TestParamInfo<Mode>& info) {
                           return std::string(info.param.name);
                         });

} // namespace
