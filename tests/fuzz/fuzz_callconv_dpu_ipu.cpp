// libFuzzer target over the DPU and IPU calling-convention rules: the first byte picks the target
// (DPU or IPU worker/supervisor/both, compiler or documented variant), the rest is C declaration
// text; every declared function is lowered, a variadic one also with extra arguments of the types
// its own parameters have. Anything but an abikit::Error escaping, a crash, a hang or an
// out-of-bounds access (ASan/UBSan) is a bug.
#include "abikit/callconv.h"
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
  bool supervisor;
  bool worker;
  abikit::AbiVariant variant;
};

constexpr Config kConfigs[] = {
    {"dpu-upmem-dpurte", false, false, abikit::AbiVariant::Compiler},
    {"dpu-upmem-dpurte", false, false, abikit::AbiVariant::Documented},
    {"colossus-graphcore-elf", false, false, abikit::AbiVariant::Compiler},
    {"colossus-graphcore-elf", true, false, abikit::AbiVariant::Compiler},
    {"colossus-graphcore-elf", true, true, abikit::AbiVariant::Compiler},
    {"colossus-graphcore-elf", false, false, abikit::AbiVariant::Documented},
    {"colossus-graphcore-elf", true, false, abikit::AbiVariant::Documented},
    {"colossus-graphcore-elf", true, true, abikit::AbiVariant::Documented},
};
constexpr size_t kNumConfigs = sizeof(kConfigs) / sizeof(kConfigs[0]);

const std::vector<abikit::Target>& targets() {
  static const std::vector<abikit::Target> all = [] {
    std::vector<abikit::Target> v;
    for (const Config& c : kConfigs) {
      abikit::TargetOptions o;
      o.triple = c.triple;
      o.msupervisor = c.supervisor;
      o.mworker = c.worker;
      o.abi_variant = c.variant;
      v.push_back(abikit::resolveTarget(o));
    }
    return v;
  }();
  return all;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t which = data[0] % kNumConfigs;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  abikit::TypeContext ctx(targets()[which], abikit::Language::C);
  abikit::LayoutEngine layout(ctx);
  abikit::TranslationUnit tu;
  try {
    tu = abikit::parseSource(ctx, layout, "/nonexistent-abikit-fuzz/fuzz.h", text,
                             abikit::ParseOptions{});
  } catch (const abikit::Error&) {
    return 0;
  }
  for (const abikit::FunctionDecl* fn : tu.functions) {
    try {
      abikit::lowerFunction(ctx, layout, *fn);
    } catch (const abikit::Error&) {
    }
    if (!fn->type->variadic) continue;
    std::vector<const abikit::Type*> extra;
    for (const abikit::ParamDecl& p : fn->type->params) extra.push_back(p.type);
    abikit::LowerOptions options;
    options.variadic_args = extra;
    try {
      abikit::lowerFunction(ctx, layout, *fn, options);
    } catch (const abikit::Error&) {
    }
  }
  return 0;
}
