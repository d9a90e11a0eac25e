// CUDA and HIP device compilations with each host abikit knows (--host-target, docs/offload.md)
// against clang-14's own device compilation of the same source for that host
// (`--target=HOST -x cuda --cuda-device-only` / `-x hip --cuda-device-only`):
//  - sizeof and the in-record alignment of every scalar type abikit supports there, and clang's
//    refusal of every one it calls unsupported;
//  - the predefined macros (-E -dM): the host's target macros, the adopted data model's macros
//    and the device's own, leaving out the C++ dialect's (abikit's CUDA/HIP dialect is C).
// Random records laid out as device code per host are in diff_layout.cpp (cuda_*, hip_*).
#include "abikit/target.h"
#include "oracle.h"

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <vector>

using namespace abikit;

namespace {

const char* const kClang = "clang-14";

struct Pair {
  const char* name;
  const char* device; // triple
  const char* host;
  Language lang;
};

const Pair kPairs[] = {
    {"cuda_x86_64", "nvptx64-nvidia-cuda", "x86_64-linux-gnu", Language::CUDA},
    {"cuda_aarch64", "nvptx64-nvidia-cuda", "aarch64-linux-gnu", Language::CUDA},
    {"cuda_i386", "nvptx-nvidia-cuda", "i386-linux-gnu", Language::CUDA},
    {"cuda_msvc", "nvptx64-nvidia-cuda", "x86_64-pc-windows-msvc", Language::CUDA},
    {"cuda_mingw", "nvptx64-nvidia-cuda", "x86_64-w64-windows-gnu", Language::CUDA},
    {"hip_x86_64", "amdgcn-amd-amdhsa", "x86_64-linux-gnu", Language::HIP},
    {"hip_aarch64", "amdgcn-amd-amdhsa", "aarch64-linux-gnu", Language::HIP},
    {"hip_msvc", "amdgcn-amd-amdhsa", "x86_64-pc-windows-msvc", Language::HIP},
    {"hip_mingw", "amdgcn-amd-amdhsa", "x86_64-w64-windows-gnu", Language::HIP},
};

Target resolve(const Pair& p) {
  TargetOptions o;
  o.triple = p.device;
  o.mcpu = p.lang == Language::CUDA ? "sm_70" : "gfx906";
  o.host_triple = p.host;
  o.compiler = kClang;
  return resolveTarget(o);
}

std::vector<std::string> deviceCommand(const Pair& p) {
  std::vector<std::string> cmd = {kClang, std::string("--target=") + p.host, "-w"};
  if (p.lang == Language::CUDA)
    for (const char* a :
         {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_70"})
      cmd.push_back(a);
  else
    for (const char* a :
         {"-x", "hip", "--cuda-device-only", "-nogpuinc", "-nogpulib", "--offload-arch=gfx906"})
      cmd.push_back(a);
  return cmd;
}

// C++ spells _Bool `bool`.
std::string intSpelling(IntKind k) {
  return k == IntKind::Bool ? "bool" : intKindName(k);
}

class OffloadDiff : public ::testing::TestWithParam<Pair> {};

TEST_P(OffloadDiff, ScalarsMatchClang) {
  const Pair& p = GetParam();
  if (oracle::findProgram(kClang).empty()) GTEST_SKIP() << "clang-14 not found";
  const DataModel d = dataModelFor(resolve(p), p.lang);
  // Each type's size and its offset after a char (its alignment in records), read back from
  // the initialiser of a device array in the LLVM IR.
  std::vector<std::pair<std::string, SizeAlign>> types;
  std::vector<std::string> unsupported;
  for (size_t i = 0; i < kNumIntKinds; ++i)
    (d.ints[i].supported() ? (void)types.emplace_back(intSpelling(IntKind(i)), d.ints[i])
                           : unsupported.push_back(intSpelling(IntKind(i))));
  for (size_t i = 0; i < kNumFloatKinds; ++i)
    (d.floats[i].supported() ? (void)types.emplace_back(floatKindName(FloatKind(i)), d.floats[i])
                             : unsupported.push_back(floatKindName(FloatKind(i))));
  types.emplace_back("void *", d.pointer);
  types.emplace_back("__SIZE_TYPE__", d.of(d.size_type));
  types.emplace_back("__WCHAR_TYPE__", d.of(d.wchar_type));
  types.emplace_back("__INTMAX_TYPE__", d.of(d.intmax_type));
  std::string src;
  std::string values;
  for (size_t i = 0; i < types.size(); ++i) {
    src += "struct W" + std::to_string(i) + " { char c; " + types[i].first + " x; };\n";
    values += "sizeof(" + types[i].first + "), __builtin_offsetof(struct W" + std::to_string(i) +
              ", x), ";
  }
  src += "__attribute__((device)) unsigned long long v[] = {" + values + "(char)-1 < 0};\n";
  oracle::ScratchDir dir;
  const std::string file = dir.file(p.lang == Language::CUDA ? "t.cu" : "t.hip");
  dir.write(p.lang == Language::CUDA ? "t.cu" : "t.hip", src);
  std::vector<std::string> cmd = deviceCommand(p);
  for (const char* a : {"-S", "-emit-llvm", "-o", "-"}) cmd.push_back(a);
  cmd.push_back(file);
  oracle::RunResult r = oracle::run(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.err << src;
  size_t at = r.out.find("@v = ");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::vector<uint64_t> got;
  for (size_t k = r.out.find('[', r.out.find("] [", at)) + 1;;) {
    size_t i64 = r.out.find("i64 ", k);
    size_t end = r.out.find(']', k);
    if (i64 == std::string::npos || i64 > end) break;
    got.push_back(std::stoull(r.out.substr(i64 + 4)));
    k = i64 + 4;
  }
  ASSERT_EQ(got.size(), 2 * types.size() + 1) << r.out.substr(at, 2000);
  for (size_t i = 0; i < types.size(); ++i) {
    EXPECT_EQ(got[2 * i], types[i].second.size) << p.name << ": sizeof " << types[i].first;
    EXPECT_EQ(got[2 * i + 1], types[i].second.align) << p.name << ": alignment " << types[i].first;
  }
  EXPECT_EQ(got.back() != 0, d.char_signed) << p.name << ": char's sign";
  // Every type abikit calls unsupported there is rejected by clang's device compilation.
  for (const std::string& type : unsupported) {
    dir.write(p.lang == Language::CUDA ? "t.cu" : "t.hip",
              "__attribute__((device)) " + type + " x;\n");
    std::vector<std::string> u = deviceCommand(p);
    u.push_back("-fsyntax-only");
    u.push_back(file);
    EXPECT_NE(oracle::run(u).exit_code, 0) << p.name << ": clang accepts " << type;
  }
}

// C++ dialect macros: abikit's CUDA/HIP dialect is the C subset of docs/frontend.md.
bool cxxDialectMacro(const std::string& name) {
  for (const char* prefix : {"__cpp_", "__GXX_", "__STDCPP_", "__GLIBCXX_"})
    if (name.rfind(prefix, 0) == 0) return true;
  for (const char* n : {"__cplusplus", "__GNUG__", "_GNU_SOURCE", "__DEPRECATED", "__EXCEPTIONS",
                        "__GNUC_GNU_INLINE__", "__private_extern__",
                        // and the Microsoft dialect's C++ ones
                        "__BOOL_DEFINED", "_WCHAR_T_DEFINED", "_NATIVE_WCHAR_T_DEFINED",
                        "_RVALUE_REFERENCES_SUPPORTED", "_RVALUE_REFERENCES_V2_SUPPORTED",
                        "_NATIVE_NULLPTR_SUPPORTED", "_MSVC_LANG", "_HAS_CHAR16_T_LANGUAGE_SUPPORT",
                        "_CPPUNWIND", "_CPPRTTI"})
    if (name == n) return true;
  return false;
}
// What abikit defines for its C dialect that a C++ compilation does not.
bool cDialectMacro(const std::string& name) {
  return name == "__STDC_VERSION__" || name == "__GNUC_STDC_INLINE__" || name == "__abikit__";
}

TEST_P(OffloadDiff, PredefinedMacrosMatchClang) {
  const Pair& p = GetParam();
  if (oracle::findProgram(kClang).empty()) GTEST_SKIP() << "clang-14 not found";
  std::vector<std::string> cmd = deviceCommand(p);
  for (const char* a : {"-E", "-dM", "/dev/null"}) cmd.push_back(a);
  oracle::RunResult r = oracle::run(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> clang = oracle::parseMacros(r.out);
  std::map<std::string, std::string> ours;
  for (auto& [k, v] : predefinedMacros(resolve(p), p.lang)) ours[k] = v;
  size_t compared = 0;
  for (const auto& [name, value] : clang) {
    if (cxxDialectMacro(name) || oracle::kUnmodelledClangMacros.count(name)) continue;
    auto it = ours.find(name);
    if (it == ours.end()) {
      ADD_FAILURE() << p.name << ": clang defines " << name << " " << value;
      continue;
    }
    EXPECT_EQ(it->second, value) << p.name << ": " << name;
    ++compared;
  }
  for (const auto& [name, value] : ours)
    if (!clang.count(name) && !cDialectMacro(name))
      ADD_FAILURE() << p.name << ": abikit defines " << name << " " << value;
  std::printf("[ offload ] %s: %zu macros agree with clang-14\n", p.name, compared);
}

INSTANTIATE_TEST_SUITE_P(Pairs, OffloadDiff, ::testing::ValuesIn(kPairs),
                         [](const ::testing::TestParamInfo<Pair>& info) {
                           return std::string(info.param.name);
                         });

} // namespace
