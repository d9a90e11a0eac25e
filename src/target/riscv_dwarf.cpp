// RISC-V DWARF data: register numbers and sizes (psABI riscv-dwarf.adoc), the one address space,
// and the default CIE as clang-22 writes it. Part of the RISC-V family (riscv.cpp calls
// riscvDwarfInfo()); docs/targets/riscv.md, "DWARF", says where each value comes from.
#include "family.h"

#include <array>
#include <vector>

namespace abikit::detail {
namespace {

// CSRs are DWARF 4096 + CSR number (psABI), XLEN bits each. Named here: the ones the reference
// lists (F: fflags, frm, fcsr; V: vl, vtype, vlenb — llvm-dwarfdump-22 names only vlenb); every
// other CSR number is "csr" + its number in decimal.
struct NamedCsr {
  uint32_t csr;
  std::string_view name;
};
constexpr NamedCsr kNamedCsrs[] = {
    {0x001, "fflags"}, {0x002, "frm"},   {0x003, "fcsr"},
    {0xc20, "vl"},     {0xc21, "vtype"}, {0xc22, "vlenb"},
};
constexpr uint32_t kCsrBase = 4096;
constexpr uint32_t kCsrCount = 4096;

using M = DwarfRegMode;

std::vector<DwarfRegisterRange> buildRanges(unsigned xlen, unsigned ngpr, unsigned flen,
                                            bool vector) {
  std::vector<DwarfRegisterRange> r;
  r.push_back({0, ngpr, xlen, M::Any, "x", 0, true, 0});
  if (flen) r.push_back({32, 32, flen, M::Any, "f", 0, true, 0});
  // 64: the alternate frame return column (signal handlers' return address); no register.
  r.push_back({64, 1, xlen, M::Any, "alt_frame_return", 0, false, 0});
  // Vector registers are VLEN bits: the machine state gives VLEN (the vlenb CSR); a zvl*b
  // extension only bounds it from below.
  if (vector) r.push_back({96, 32, 0, M::Any, "v", 0, true, 0});
  uint32_t next = 0; // first CSR number not yet covered
  for (const NamedCsr& c : kNamedCsrs) {
    if (c.csr > next)
      r.push_back({kCsrBase + next, c.csr - next, xlen, M::Any, "csr", next, true, 0});
    r.push_back({kCsrBase + c.csr, 1, xlen, M::Any, c.name, 0, false, 0});
    next = c.csr + 1;
  }
  r.push_back({kCsrBase + next, kCsrCount - next, xlen, M::Any, "csr", next, true, 0});
  return r;
}

// Index of a table: XLEN 32/64 x base I/E x FLEN 0/32/64/128 x vector.
size_t tableIndex(unsigned xlen, unsigned ngpr, unsigned flen, bool vector) {
  size_t f = flen == 0 ? 0 : flen == 32 ? 1 : flen == 64 ? 2 : 3;
  return ((size_t(xlen == 64) * 2 + size_t(ngpr == 32)) * 4 + f) * 2 + size_t(vector);
}

constexpr DwarfAddressSpace kSpaces32[] = {{0, 1, "global", 32, DwarfSpaceScope::Process, false}};
constexpr DwarfAddressSpace kSpaces64[] = {{0, 1, "global", 64, DwarfSpaceScope::Process, false}};

} // namespace

DwarfTargetInfo riscvDwarfInfo(unsigned xlen, unsigned ngpr, unsigned flen, bool vector) {
  // Every variant is built once, at first use, and kept for the life of the program.
  static const std::array<std::vector<DwarfRegisterRange>, 32> kTables = [] {
    std::array<std::vector<DwarfRegisterRange>, 32> t;
    for (unsigned x : {32u, 64u})
      for (unsigned n : {16u, 32u})
        for (unsigned f : {0u, 32u, 64u, 128u})
          for (bool v : {false, true}) t[tableIndex(x, n, f, v)] = buildRanges(x, n, f, v);
    return t;
  }();
  DwarfTargetInfo d;
  d.registers = kTables[tableIndex(xlen, ngpr, flen, vector)];
  d.spaces = xlen == 64 ? std::span<const DwarfAddressSpace>(kSpaces64)
                        : std::span<const DwarfAddressSpace>(kSpaces32);
  d.lanes = 1;
  d.address_bits = uint8_t(xlen);
  d.map = nullptr;
  // clang-22's CIE (.debug_frame and .eh_frame alike): return address x1 (ra), code alignment 1
  // with or without C, data alignment -XLEN/8. GCC 12 writes -4 for RV64 too.
  d.return_address_column = 1;
  d.code_alignment = 1;
  d.data_alignment = xlen == 64 ? -8 : -4;
  // DWARF's default: a column no instruction mentions is undefined (the psABI's callee-saved
  // registers are preserved across calls, but the CIE does not say so; see docs).
  d.default_same_value = false;
  d.cie_augmentation = "";
  return d;
}

} // namespace abikit::detail
