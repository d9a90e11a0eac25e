// The compilers abikit models, and what their C front ends do the same on every target.
//
// Each fact was read from the compiler itself (Debian 12 packages clang-14 14.0.6, clang-19
// 19.1.7, clang-22 22.1.8, gcc-riscv64-unknown-elf 12.2.0): `-E -dM -x c /dev/null` for the
// macros and `-fsyntax-only` on arrays of over-aligned typedefs for the array rule. What differs
// per target family (lowering, processors, ISA) is data in the family's file, listed in
// docs/targets/<family>.md.
#include "abikit/target.h"

#include <array>

namespace abikit {

namespace {

enum : uint8_t { kNo = 0, kYes = 1 };

// clang-22, clang-19, clang-14, gcc-12, then the vendor compilers: the order of compilers.def.
constexpr CompilerInfo kCompilers[] = {
    // name       kind                 version    array  flexible  flt_eval norm_max fpclass
    //                                                   scopes embed int_c bool_width interference
    {Compiler::Clang22, "clang-22", CompilerKind::Clang, 22, 1, 8, kYes, kYes, kNo, kYes, kYes, 6,
     kYes, kYes, kYes, 64},
    {Compiler::Clang19, "clang-19", CompilerKind::Clang, 19, 1, 7, kYes, kYes, kNo, kYes, kYes, 5,
     kYes, kNo, kNo, 64},
    {Compiler::Clang14, "clang-14", CompilerKind::Clang, 14, 0, 6, kNo, kNo, kYes, kNo, kNo, 0, kNo,
     kNo, kNo, 0},
    // GCC's own predefined macros are not modelled (no family reproduces GCC's -dM); its front
    // end rejects the same arrays ("alignment of array elements is greater than element size").
    {Compiler::Gcc12, "gcc-12", CompilerKind::Gcc, 12, 2, 0, kYes, kNo, kYes, kNo, kNo, 0, kNo, kNo,
     kNo, 0},
    // The vendor clangs (UPMEM SDK 2023.2.0: clang 12.0.0, its DWARF producer string; Graphcore's
    // fork: an LLVM 15 front end, reference/ipu.md). None can be installed to read these facts
    // from: they are clang-14's, which none of them contradicts (clang 12 and 15 predate every
    // change in this table but the __FLT_EVAL_METHOD__ macro, which left in clang 16).
    {Compiler::UpmemClang, "dpu-upmem-dpurte-clang", CompilerKind::Vendor, 12, 0, 0, kNo, kNo, kYes,
     kNo, kNo, 0, kNo, kNo, kNo, 0},
    {Compiler::GraphcorePopc, "popc", CompilerKind::Vendor, 15, 0, 0, kNo, kNo, kYes, kNo, kNo, 0,
     kNo, kNo, kNo, 0},
};

constexpr bool inEnumOrder() {
  size_t i = 0;
#define ABIKIT_COMPILER(E, spelling, K, maj, min, pat)                                             \
  if (kCompilers[i].id != Compiler::E || kCompilers[i].name != spelling ||                         \
      kCompilers[i].kind != CompilerKind::K || kCompilers[i].major != maj ||                       \
      kCompilers[i].minor != min || kCompilers[i].patch != pat)                                    \
    return false;                                                                                  \
  ++i;
#include "abikit/compilers.def"
  return i == std::size(kCompilers);
}
static_assert(inEnumOrder(), "kCompilers must follow compilers.def");

} // namespace

const CompilerInfo& compilerInfo(Compiler c) {
  return kCompilers[static_cast<size_t>(c)];
}

std::span<const CompilerInfo> knownCompilers() {
  return kCompilers;
}

const CompilerInfo* findCompiler(std::string_view name) {
  for (const CompilerInfo& c : kCompilers)
    if (c.name == name) return &c;
  return nullptr;
}

} // namespace abikit
