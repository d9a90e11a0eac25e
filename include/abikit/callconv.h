// abikit — calling-convention lowering with physical locations.
//
// For one function (and, for a variadic one, one call with given extra argument types) this
// says how the return value and every argument travel: the kind (direct, extend, indirect,
// ignore) and each part's location (register by assembler name, offset in the outgoing stack
// argument area, or a PTX .param). One shared assignment core (src/callconv/core) serves the
// per-target rule files.
#pragma once

#include "abikit/layout.h"
#include "abikit/types.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace abikit {

enum class ArgKind : uint8_t { Direct, Extend, Indirect, Ignore };
enum class ExtendKind : uint8_t { None, Sign, Zero };

struct ArgLocation {
  enum class Kind : uint8_t {
    Register,
    Stack,
    Param,
    Kernarg, // an AMDGPU kernel argument: `stack_offset` is its offset in the kernarg segment
  };
  Kind kind = Kind::Register;
  std::string_view reg;     // Register: assembler name, from the target's register table
  int64_t stack_offset = 0; // Stack: byte offset in the outgoing argument area (see the
                            // target's StackInfo::argument_area and docs/targets/*.md);
                            // Kernarg: byte offset in the kernarg segment
  std::string param;        // Param: PTX .param name ("f_param_0", "func_retval0")
};

struct ArgPart {
  uint32_t offset = 0; // byte offset within the value (for Indirect: within the pointer)
  uint32_t size = 0;
  ArgLocation loc;
};

struct ArgLowering {
  std::string_view name; // parameter name (may be empty); "" for the return value
  const Type* type = nullptr;
  ArgKind kind = ArgKind::Direct;
  ExtendKind extend = ExtendKind::None;
  bool byval = false;    // Indirect: the callee gets a caller-made copy it may modify
  bool sret = false;     // Indirect return through a hidden pointer
  uint32_t align = 0;    // Indirect: alignment of the pointed-to object
  bool variadic = false; // an extra argument of a variadic call
  std::vector<ArgPart> parts;
};

struct FunctionLowering {
  std::string_view name;
  bool variadic = false;
  ArgLowering ret;
  std::vector<ArgLowering> params;
  uint64_t stack_bytes = 0;       // size of the outgoing argument area this call uses
  std::vector<std::string> notes; // target caveats that apply to this signature
  /// Why the function is not answered (the message of the error lowering it gave); empty when
  /// it is. Only `name` is set with it: `abikit call` lists such a function as an error.
  std::string error;
};

struct LowerOptions {
  /// For a variadic function: the types of the extra arguments of the call to lower.
  std::span<const Type* const> variadic_args;
};

/// Lowers one function for the context's target. `ctx` must be the context `layout` was made
/// for (promoted types of variadic arguments are interned in it). Throws abikit::Error
/// (Unsupported) for a signature the target cannot express, naming why.
FunctionLowering lowerFunction(TypeContext& ctx, const LayoutEngine& layout, const FunctionDecl& fn,
                               const LowerOptions& options = {});

/// Throws abikit::Error (Unsupported), at the function's declaration, when its result, a
/// parameter or one of `extra` (variadic arguments) holds an _Atomic value: abikit lowers none
/// (clang passes them by rules of their own per target, not measured). Pointers to atomics are
/// fine.
void rejectAtomicValues(const TypeContext& ctx, const FunctionDecl& fn,
                        std::span<const Type* const> extra = {});

/// NVPTX: the `.ptr .align N` of a kernel's pointer parameter to `pointee`, as LLVM gives it
/// (getOpenCLAlignment of the pointee's IR type under NVPTX's data layout; 1 for void, the
/// pointer alignment for a function).
uint32_t ptxPointeeAlign(const LayoutEngine& layout, const Type* pointee);

/// NVPTX: the ABI alignment of the IR type clang gives `t` (NVPTX's data layout), which LLVM 15
/// and later take as the least alignment of a byval aggregate's `.param`.
uint32_t ptxIrAlign(const LayoutEngine& layout, const Type* t);

} // namespace abikit
