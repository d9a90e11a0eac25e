// abikit — AMDGPU kernel arguments: the kernarg segment of a kernel.
//
// For an amdgcn kernel (OpenCL `__kernel`, HIP `__global__`, `__attribute__((amdgpu_kernel))`)
// this computes what LLVM 14 writes into the `.args` list of the kernel's `amdhsa.kernels` entry
// in the code-object metadata: every explicit argument's offset, size, value kind, address space,
// access qualifier, type qualifiers, OpenCL type name and name, then the hidden arguments the
// runtime fills in, and `.kernarg_segment_size` / `.kernarg_segment_align`. The rules and their
// limits are in docs/targets/amdgpu.md ("Kernel arguments").
#pragma once

#include "abikit/layout.h"
#include "abikit/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace abikit {

/// Which hidden arguments to describe. abikit sees declarations, not kernel bodies; LLVM decides
/// from the body whether the kernel needs them.
enum class HiddenArgs : uint8_t {
  Auto, // what llc-14 does at -O1 for a kernel whose body does not use them
  All,  // what llc-14 does at -O0 (kernels are optnone: the hidden block is always there)
  None, // no hidden arguments
};

struct KernargOptions {
  HiddenArgs hidden = HiddenArgs::Auto;
  /// Give explicit arguments their `.name` (clang writes it with -cl-kernel-arg-info, or when
  /// IR value names are kept); false leaves it out as a default clang-14 build does.
  bool arg_names = true;
};

enum class KernargValueKind : uint8_t {
  ByValue,
  GlobalBuffer,
  DynamicSharedPointer,
  Sampler,
  Image,
  Pipe,
  Queue,
  HiddenGlobalOffsetX,
  HiddenGlobalOffsetY,
  HiddenGlobalOffsetZ,
  HiddenNone,
  HiddenPrintfBuffer,
  HiddenHostcallBuffer,
  HiddenDefaultQueue,
  HiddenCompletionAction,
  HiddenMultigridSyncArg,
  HiddenBlockCountX,
  HiddenBlockCountY,
  HiddenBlockCountZ,
  HiddenGroupSizeX,
  HiddenGroupSizeY,
  HiddenGroupSizeZ,
  HiddenRemainderX,
  HiddenRemainderY,
  HiddenRemainderZ,
  HiddenGridDims,
  HiddenHeapV1,
  HiddenDynamicLdsSize,
  HiddenPrivateBase,
  HiddenSharedBase,
  HiddenQueuePtr,
};
/// The metadata spelling: "by_value", "global_buffer", "hidden_global_offset_x", ...
std::string_view kernargValueKindName(KernargValueKind k);

/// `.address_space`: absent, or the LLVM address space of a pointer-typed argument.
enum class KernargAddressSpace : uint8_t {
  None,
  Private,
  Global,
  Constant,
  Local,
  Generic,
  Region
};
std::string_view kernargAddressSpaceName(KernargAddressSpace a); // "global", ...; "" for None

/// `.access`: absent, or the OpenCL access qualifier of an image or pipe.
enum class KernargAccess : uint8_t { None, ReadOnly, WriteOnly, ReadWrite };
std::string_view kernargAccessName(KernargAccess a); // "read_only", ...; "" for None

struct KernelArgument {
  std::string name;      // `.name`; empty: not written
  std::string type_name; // `.type_name` (OpenCL only); empty: not written
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t align = 1; // the alignment `offset` was rounded up to (not part of the metadata)
  KernargValueKind value_kind = KernargValueKind::ByValue;
  KernargAddressSpace address_space = KernargAddressSpace::None;
  KernargAccess access = KernargAccess::None;
  uint32_t pointee_align = 0; // `.pointee_align` (local pointers); 0: not written
  bool is_const = false;
  bool is_restrict = false;
  bool is_volatile = false;
  bool is_pipe = false;
  bool hidden = false;
  const Type* type = nullptr; // explicit arguments: the parameter's declared type
};

struct KernelArguments {
  std::string_view name;
  std::vector<KernelArgument> args; // explicit arguments, then hidden ones, as in `.args`
  size_t explicit_count = 0;
  uint64_t explicit_size = 0; // end of the last explicit argument
  uint64_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_align = 4;
  /// `.language` / `.language_version` ("OpenCL C", {major, minor}); empty outside OpenCL.
  std::string_view language;
  std::vector<unsigned> language_version;
  std::vector<std::string> notes; // what abikit assumed (hidden arguments, V5)
  /// Why the kernel is not answered (the message of the error computing it gave); empty when it
  /// is. Only `name` is set with it.
  std::string error;
};

/// Computes the kernarg segment of `kernel` for the layout's target (which must be amdgcn).
/// Throws abikit::Error for a function that is not a kernel, a kernel clang-14 rejects (non-void
/// return, invalid OpenCL kernel parameter types), or a parameter type abikit does not describe;
/// the message names the parameter.
KernelArguments computeKernelArguments(const LayoutEngine& layout, const FunctionDecl& kernel,
                                       const KernargOptions& options = {});

} // namespace abikit
