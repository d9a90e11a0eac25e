// abikit — host target details (x86, AArch64; part of Target::detail).
#pragma once

#include <span>
#include <string_view>

namespace abikit {

/// A macro the host's compiler driver makes from its options (-fPIE, -mcmodel, SEH exceptions),
/// not its target: a CUDA/HIP device compilation of this host does not get it, or (the code
/// model's) gets `device_name` instead, the macro of an empty model (docs/offload.md).
struct HostDriverMacro {
  std::string_view name;
  std::string_view device_name; // empty: dropped
};

/// A host CPU target: abikit models its data model and record layout (for comparisons with
/// device targets), not its calling convention.
struct HostTarget {
  std::string_view psabi; // "System V AMD64 psABI", "System V i386 psABI", "AAPCS64"
  std::string_view os;    // "linux"
  std::span<const HostDriverMacro> driver_macros;
};

} // namespace abikit
