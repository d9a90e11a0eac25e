// Generated DWARF expressions as DW_AT_location exprlocs: the assembly (for llvm-mc-22) of a
// DWARF 5 .debug_info with one compile unit, three base-type DIEs (DW_ATE_unsigned, 4 bytes, no
// name) and one DW_TAG_variable per expression. Used by the differential test against
// llvm-dwarfdump-22 (tests/differential/diff_dwarf_expr.cpp) and by bench_dwarf --write-asm
// (bench/dwarf_vs_dwarfdump.sh). Header-only.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace abikit::test {

/// The size of the unit header: where the first DIE starts.
inline size_t exprlocUnitHeaderSize(bool dwarf64) {
  return dwarf64 ? 24 : 12;
}

/// The unit offsets of the three base-type DIEs.
inline std::vector<uint64_t> exprlocBaseTypeOffsets(bool dwarf64) {
  size_t h = exprlocUnitHeaderSize(dwarf64);
  return {h + 1, h + 4, h + 7};
}

/// An assembly file whose .debug_info holds one DW_TAG_variable per expression.
inline std::string exprlocAssembly(uint8_t address_size, bool dwarf64,
                                   const std::vector<std::vector<uint8_t>>& exprs) {
  std::ostringstream s;
  s << "\t.section .debug_abbrev,\"\",@progbits\n"
    << "\t.byte 1,0x11,1,0,0\n"                     // compile_unit, children
    << "\t.byte 2,0x34,0,0x02,0x18,0,0\n"           // variable: DW_AT_location exprloc
    << "\t.byte 3,0x24,0,0x3e,0x0b,0x0b,0x0b,0,0\n" // base_type: encoding, byte_size
    << "\t.byte 0\n"
    << "\t.section .debug_info,\"\",@progbits\n";
  if (dwarf64)
    s << "\t.long 0xffffffff\n\t.quad .Lend-.Lstart\n";
  else
    s << "\t.long .Lend-.Lstart\n";
  s << ".Lstart:\n\t.short 5\n\t.byte 1\n\t.byte " << int(address_size) << "\n"
    << (dwarf64 ? "\t.quad 0\n" : "\t.long 0\n") << "\t.byte 1\n";
  for (int i = 0; i < 3; ++i) s << "\t.byte 3,7,4\n";
  for (const auto& e : exprs) {
    s << "\t.byte 2\n\t.uleb128 " << e.size() << "\n";
    for (size_t i = 0; i < e.size(); ++i)
      s << (i % 32 == 0 ? "\t.byte " : ",") << int(e[i])
        << (i % 32 == 31 || i + 1 == e.size() ? "\n" : "");
  }
  s << "\t.byte 0\n.Lend:\n";
  return s.str();
}

} // namespace abikit::test
