// libFuzzer target over the C declaration front-end (lexer, preprocessor, parser, constant
// expressions, built-in headers) and the layout of everything it declares. The first byte picks
// the target and the dialect; the rest is the source text. Anything but an abikit::Error
// escaping, a crash, a hang or an out-of-bounds access (ASan/UBSan) is a bug.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace {

struct Config {
  const char* triple;
  abikit::Language lang;
};

constexpr Config kConfigs[] = {
    {"riscv64-unknown-elf", abikit::Language::C},
    {"riscv32-unknown-elf", abikit::Language::C},
    {"amdgcn-amd-amdhsa", abikit::Language::OpenCL},
    {"nvptx64-nvidia-cuda", abikit::Language::CUDA},
    {"dpu-upmem-dpurte", abikit::Language::C},
    {"colossus-graphcore-elf", abikit::Language::C},
    {"nvptx-nvidia-cuda", abikit::Language::OpenCL},
    {"amdgcn-amd-amdhsa", abikit::Language::HIP},
};

const std::vector<abikit::Target>& targets() {
  static const std::vector<abikit::Target> all = [] {
    std::vector<abikit::Target> v;
    for (const Config& c : kConfigs) {
      abikit::TargetOptions o;
      o.triple = c.triple;
      v.push_back(abikit::resolveTarget(o));
    }
    return v;
  }();
  return all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t which = data[0] % (sizeof(kConfigs) / sizeof(kConfigs[0]));
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const abikit::Target& target = targets()[which];
  abikit::TypeContext ctx(target, kConfigs[which].lang);
  abikit::LayoutEngine layout(ctx);
  abikit::ParseOptions options;
  options.defines = {{"FUZZ", std::nullopt}, {"N", "4"}};
  try {
    // A directory that does not exist: relative #includes find nothing.
    abikit::TranslationUnit tu =
        abikit::parseSource(ctx, layout, "/nonexistent-abikit-fuzz/fuzz.h", text, options);
    for (const abikit::RecordDecl* rd : tu.records) {
      try {
        (void)layout.of(*rd);
      } catch (const abikit::Error&) {
      }
    }
    for (const abikit::TypedefDecl* td : tu.typedefs) (void)abikit::typeName(td->underlying, ctx);
    for (const abikit::FunctionDecl* fd : tu.functions) (void)abikit::typeName(fd->type, ctx);
  } catch (const abikit::Error& e) {
    (void)e.format();
  }
  return 0;
}
