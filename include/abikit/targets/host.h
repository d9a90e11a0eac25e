// abikit — host target details (x86, AArch64; part of Target::detail).
#pragma once

#include <string_view>

namespace abikit {

/// A host CPU target: abikit models its data model and record layout (for comparisons with
/// device targets), not its calling convention.
struct HostTarget {
  std::string_view psabi; // "System V AMD64 psABI", "System V i386 psABI", "AAPCS64"
  std::string_view os;    // "linux"
};

} // namespace abikit
