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

// clang-22, clang-19, clang-14, gcc-12, then the vendor compilers: the order of compilers.def.
constexpr CompilerInfo kCompilers[] = {
    {.id = Compiler::Clang22,
     .name = "clang-22",
     .kind = CompilerKind::Clang,
     .major = 22,
     .minor = 1,
     .patch = 8,
     .array_element_size_multiple_of_align = true,
     .flexible_array_anywhere = true,
     .flt_eval_method_macro = false,
     .norm_max_macros = true,
     .fpclass_macros = true,
     .memory_scopes = 6,
     .embed_macros = true,
     .int_c_macros = true,
     .bool_width_is_value_bits = true,
     .interference_size = 64,
     .gcc_struct_attribute = true,
     .non_pod_members_unpacked = true},
    {.id = Compiler::Clang19,
     .name = "clang-19",
     .kind = CompilerKind::Clang,
     .major = 19,
     .minor = 1,
     .patch = 7,
     .array_element_size_multiple_of_align = true,
     .flexible_array_anywhere = true,
     .flt_eval_method_macro = false,
     .norm_max_macros = true,
     .fpclass_macros = true,
     .memory_scopes = 5,
     .embed_macros = true,
     .int_c_macros = false,
     .bool_width_is_value_bits = false,
     .interference_size = 64,
     .non_pod_members_unpacked = true},
    {.id = Compiler::Clang14,
     .name = "clang-14",
     .kind = CompilerKind::Clang,
     .major = 14,
     .minor = 0,
     .patch = 6,
     .array_element_size_multiple_of_align = false,
     .flexible_array_anywhere = false,
     .flt_eval_method_macro = true,
     .norm_max_macros = false,
     .fpclass_macros = false,
     .memory_scopes = 0,
     .embed_macros = false,
     .int_c_macros = false,
     .bool_width_is_value_bits = false,
     .interference_size = 0,
     .lock_free_needs_natural_align = true,
     .offload_strict_ansi = true},
    // GCC's own predefined macros are not modelled (no family reproduces GCC's -dM); its front
    // end rejects the same arrays ("alignment of array elements is greater than element size").
    {.id = Compiler::Gcc12,
     .name = "gcc-12",
     .kind = CompilerKind::Gcc,
     .major = 12,
     .minor = 2,
     .patch = 0,
     .array_element_size_multiple_of_align = true,
     .flexible_array_anywhere = false,
     .flt_eval_method_macro = true,
     .norm_max_macros = false,
     .fpclass_macros = false,
     .memory_scopes = 0,
     .embed_macros = false,
     .int_c_macros = false,
     .bool_width_is_value_bits = false,
     .interference_size = 0,
     .gcc_struct_attribute = true},
    // The vendor clangs (UPMEM SDK 2023.2.0: clang 12.0.0, its DWARF producer string; Graphcore's
    // fork: an LLVM 15 front end, reference/ipu.md). None can be installed to read these facts
    // from: they are clang-14's, which none of them contradicts (clang 12 and 15 predate every
    // change in this table but the __FLT_EVAL_METHOD__ macro, which left in clang 16).
    {.id = Compiler::UpmemClang,
     .name = "dpu-upmem-dpurte-clang",
     .kind = CompilerKind::Vendor,
     .major = 12,
     .minor = 0,
     .patch = 0,
     .array_element_size_multiple_of_align = false,
     .flexible_array_anywhere = false,
     .flt_eval_method_macro = true,
     .norm_max_macros = false,
     .fpclass_macros = false,
     .memory_scopes = 0,
     .embed_macros = false,
     .int_c_macros = false,
     .bool_width_is_value_bits = false,
     .interference_size = 0},
    {.id = Compiler::GraphcorePopc,
     .name = "popc",
     .kind = CompilerKind::Vendor,
     .major = 15,
     .minor = 0,
     .patch = 0,
     .array_element_size_multiple_of_align = false,
     .flexible_array_anywhere = false,
     .flt_eval_method_macro = true,
     .norm_max_macros = false,
     .fpclass_macros = false,
     .memory_scopes = 0,
     .embed_macros = false,
     .int_c_macros = false,
     .bool_width_is_value_bits = false,
     .interference_size = 0},
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
