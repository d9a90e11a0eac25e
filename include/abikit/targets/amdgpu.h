// abikit — AMDGPU target details (part of Target::detail) and the processor table.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace abikit {

/// A target-id feature setting: `gfx90a:xnack+` (On), `:xnack-` (Off), absent (Any), or the
/// processor does not support the feature at all.
enum class FeatureSetting : uint8_t { Unsupported, Any, Off, On };

std::string_view featureSettingName(FeatureSetting s); // "unsupported", "any", "off", "on"

/// Which accumulation registers (AGPRs) a processor has and how calls treat them.
enum class AmdgpuAgprs : uint8_t {
  None,
  AllClobbered,  // gfx908: a0-a255, none preserved across calls
  HighPreserved, // gfx90a, gfx94x, gfx950: a32-a255 preserved across calls
};

/// One row of the processor table (data in src/target/amdgpu.cpp).
struct AmdgpuProcessor {
  std::string_view name;       // "gfx906"
  std::string_view aliases;    // space separated alternative names ("fiji polaris10")
  uint16_t mach = 0;           // EF_AMDGPU_MACH_* value
  std::string_view generation; // "GFX9"; "R600" for the r600 architecture
  bool supports_xnack = false;
  bool supports_sramecc = false;
  bool supports_wave32 = false; // can run wave32
  uint8_t default_wave_size = 64;
  bool is_generic = false;   // gfx9-generic, ... (code object v6+)
  bool in_llvm14 = false;    // known to llc-14 / clang-14
  std::string_view features; // other supported target features, space separated
  std::string_view note;
  /// Known only by its EF_AMDGPU_MACH value (r600 processors, and the newest ones that appear
  /// only in LLVM's e_flags tests): decoded in ELF files, not accepted by resolveTarget().
  bool decode_only = false;
  bool fast_fma_f32 = false; // LLVM's FEATURE_FAST_FMA_F32 (clang defines FP_FAST_FMAF)
  AmdgpuAgprs agprs = AmdgpuAgprs::None;
  uint8_t isa_major = 0, isa_minor = 0, isa_stepping = 0; // ISA version (0.0.0 = none)
  bool dgpu = true;                                       // dGPU (true) or APU (false)
  std::string_view properties; // "Target Properties" of the processor table, space separated
};

std::span<const AmdgpuProcessor> amdgpuProcessors();
const AmdgpuProcessor* findAmdgpuProcessor(std::string_view name_or_alias);
const AmdgpuProcessor* findAmdgpuProcessorByMach(uint16_t mach);

/// A parsed target id (`gfx90a:sramecc-:xnack+`), validated against the processor table.
struct AmdgpuTargetId {
  const AmdgpuProcessor* processor = nullptr;
  FeatureSetting xnack = FeatureSetting::Unsupported;
  FeatureSetting sramecc = FeatureSetting::Unsupported;

  /// Canonical form: primary processor name, features in alphabetical order, `+`/`-`,
  /// omitted when any ("gfx90a:sramecc-:xnack+").
  std::string canonical() const;
};

/// Parses `processor(:feature(+|-))*`. Throws abikit::Error (ErrorKind::Target, positioned in
/// `-mcpu`) for a malformed id, an unknown processor or feature, a feature the processor does
/// not support, or a feature given twice. Processors marked decode_only are rejected.
AmdgpuTargetId parseAmdgpuTargetId(std::string_view text);

/// EF_AMDGPU_* e_flags for a processor and feature settings in the given code object version
/// (2 and 3: the layout LLVM 14 writes, any encoded as on; 4 and 5: MACH | xnack | sramecc
/// fields; 6: plus the generic version in bits 24..31).
uint32_t amdgpuElfFlags(const AmdgpuProcessor& p, FeatureSetting xnack, FeatureSetting sramecc,
                        unsigned code_object_version, unsigned generic_version = 0);

struct AmdgpuTarget {
  const AmdgpuProcessor* processor = nullptr; // nullptr: no -mcpu (clang's generic default)
  FeatureSetting xnack = FeatureSetting::Unsupported;
  FeatureSetting sramecc = FeatureSetting::Unsupported;
  unsigned wavefront_size = 64;
  unsigned code_object_version = 4; // LLVM 14 default
};

} // namespace abikit
