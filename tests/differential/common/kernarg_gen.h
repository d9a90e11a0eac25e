// Random AMDGPU kernels for the kernarg differential test, and a reader for the
// `.amdgpu_metadata` YAML block clang-14/llc-14 print.
//
// OpenCL C kernels (2.0, or what 1.x and 3.0 allow): every scalar and vector type, pointers into
// __global, __constant and
// __local memory (const, volatile, restrict, typedef'd, to pointers, to arrays), images with
// their access qualifiers, samplers, queues, clk_event_t, pipes, enums, structs and unions by
// value (packed, aligned, single-element, nested, with arrays), parameter names YAML reads as
// something else. HIP kernels: C scalars (bool, __int128, _Float16, long double), generic and
// address-space pointers, vectors, _Complex, records (byref, single-element wrappers).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace abikit::difftest {

struct KernelCase {
  uint64_t seed = 0;
  bool hip = false;
  std::string name;                // kernel name
  std::string decls;               // typedefs, records, enums it uses
  std::vector<std::string> params; // "type name" declarations
};

/// `cl_version`: the OpenCL C version (-cl-std) the kernel must compile with; only 2.0 has pipes,
/// device enqueue, read_write images and pointers to pointers.
KernelCase generateKernel(uint64_t seed, const std::string& prefix, bool hip,
                          uint16_t cl_version = 200);

/// Simpler variants (a parameter dropped), for shrinking a disagreement.
std::vector<KernelCase> shrinkKernel(const KernelCase& k);

/// The source of a list of kernels (one translation unit; with the OpenCL pragmas or the HIP
/// prelude).
std::string renderKernels(const std::vector<KernelCase>& kernels);

/// One `amdhsa.kernels` entry of a metadata document.
struct MdKernel {
  std::string name;
  std::map<std::string, std::string> keys;                            // scalar kernel keys
  std::vector<std::vector<std::pair<std::string, std::string>>> args; // `.args`, in order
  /// The entry's text restricted to the keys abikit writes (`.args`, `.kernarg_segment_align`,
  /// `.kernarg_segment_size`, `.language`, `.language_version`, `.name`, `.symbol`), as LLVM
  /// prints them.
  std::string text;
};

/// Reads the `amdhsa.kernels` entries of a YAML metadata document (the `.amdgpu_metadata` block
/// of an assembly file, or a document on its own).
std::vector<MdKernel> readAmdgpuMetadata(const std::string& text);

} // namespace abikit::difftest
