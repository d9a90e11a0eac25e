// abikit — AMDGPU target details (part of Target::detail) and the processor table.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace abikit {

/// A target-id feature setting: `gfx90a:xnack+` (On), `:xnack-` (Off), absent (Any), or the
/// processor does not support the feature at all.
enum class FeatureSetting : uint8_t { Unsupported, Any, Off, On };

/// One row of the processor table (data in src/target/amdgpu.cpp).
struct AmdgpuProcessor {
  std::string_view name;       // "gfx906"
  std::string_view aliases;    // space separated alternative names ("fiji polaris10")
  uint16_t mach = 0;           // EF_AMDGPU_MACH_* value
  std::string_view generation; // "GFX9"
  bool supports_xnack = false;
  bool supports_sramecc = false;
  bool supports_wave32 = false; // can run wave32
  uint8_t default_wave_size = 64;
  bool is_generic = false;   // gfx9-generic, ... (code object v6+)
  bool in_llvm14 = false;    // known to llc-14
  std::string_view features; // other supported target features, space separated
  std::string_view note;
};

std::span<const AmdgpuProcessor> amdgpuProcessors();
const AmdgpuProcessor* findAmdgpuProcessor(std::string_view name_or_alias);
const AmdgpuProcessor* findAmdgpuProcessorByMach(uint16_t mach);

struct AmdgpuTarget {
  const AmdgpuProcessor* processor = nullptr;
  FeatureSetting xnack = FeatureSetting::Unsupported;
  FeatureSetting sramecc = FeatureSetting::Unsupported;
  unsigned wavefront_size = 64;
  unsigned code_object_version = 4; // LLVM 14 default
};

} // namespace abikit
