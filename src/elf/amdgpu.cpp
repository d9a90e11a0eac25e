// AMDGPU: the code-object V3+ kernel descriptor (reference gpu.md §2.8).
#include "abikit/elf.h"
#include "bytes.h"

namespace abikit {

AmdgpuKernelDescriptor decodeAmdgpuKernelDescriptor(std::span<const uint8_t, 64> b) {
  AmdgpuKernelDescriptor kd;
  const detail::EndianSlice in(b, false); // the descriptor is little-endian
  kd.group_segment_fixed_size = in.u32At(0);
  kd.private_segment_fixed_size = in.u32At(4);
  kd.kernarg_size = in.u32At(8);
  kd.kernel_code_entry_byte_offset = int64_t(in.u64At(16));
  kd.compute_pgm_rsrc3 = in.u32At(44);
  kd.compute_pgm_rsrc1 = in.u32At(48);
  kd.compute_pgm_rsrc2 = in.u32At(52);
  kd.kernel_code_properties = in.u16At(56);
  kd.kernarg_preload = in.u16At(58);
  static constexpr const char* kProperties[16] = {"ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER",
                                                  "ENABLE_SGPR_DISPATCH_PTR",
                                                  "ENABLE_SGPR_QUEUE_PTR",
                                                  "ENABLE_SGPR_KERNARG_SEGMENT_PTR",
                                                  "ENABLE_SGPR_DISPATCH_ID",
                                                  "ENABLE_SGPR_FLAT_SCRATCH_INIT",
                                                  "ENABLE_SGPR_PRIVATE_SEGMENT_SIZE",
                                                  nullptr,
                                                  nullptr,
                                                  nullptr,
                                                  "ENABLE_WAVEFRONT_SIZE32",
                                                  "USES_DYNAMIC_STACK",
                                                  nullptr,
                                                  nullptr,
                                                  nullptr,
                                                  nullptr};
  for (unsigned bit = 0; bit < 16; ++bit) {
    if (!(kd.kernel_code_properties & (1u << bit))) continue;
    if (kProperties[bit])
      kd.properties.emplace_back(kProperties[bit]);
    else
      kd.problems.push_back("reserved kernel_code_properties bit " + std::to_string(bit) +
                            " is set");
  }
  auto reserved = [&](size_t from, size_t size) {
    for (size_t i = from; i < from + size; ++i)
      if (in.u8At(i)) {
        kd.problems.push_back("reserved bytes " + std::to_string(from) + ".." +
                              std::to_string(from + size - 1) + " are not zero");
        return;
      }
  };
  reserved(12, 4);
  reserved(24, 20);
  reserved(60, 4);
  return kd;
}

std::optional<AmdgpuKernelDescriptor> amdgpuKernelDescriptorFor(const ElfFile& file,
                                                                const ElfSymbol& sym) {
  if (file.header().machine != kEmAmdgpu || file.header().bigEndian()) return std::nullopt;
  if (sym.type() != kSttObject || sym.size != 64 || sym.name.size() < 3 ||
      sym.name.substr(sym.name.size() - 3) != ".kd")
    return std::nullopt;
  if (sym.shndx == 0 || sym.shndx >= file.sections().size()) return std::nullopt;
  const ElfSection& sec = file.sections()[sym.shndx];
  if (!sec.hasContents()) return std::nullopt;
  // Relocatable objects hold section offsets in st_value, linked ones addresses.
  uint64_t off = sym.value;
  if (file.header().type != kEtRel) {
    if (off < sec.addr) return std::nullopt;
    off -= sec.addr;
  }
  if (off > sec.size || sec.size - off < 64) return std::nullopt;
  std::span<const uint8_t> bytes = file.contents(sec);
  return decodeAmdgpuKernelDescriptor(std::span<const uint8_t, 64>(bytes.data() + off, 64));
}

} // namespace abikit
