// abikit — RISC-V ISA strings (-march): parse, expand, validate, print canonically.
//
// Modelled on LLVM's RISCVISAInfo: lower-case only, version numbers (i2p1), `_` separators,
// multi-letter z*/s*/x* extensions with digits (zve64d), the implied-extension closure, a
// deterministic canonical order, the E base, XLEN checks and conflicts. Every malformed input is
// reported as an abikit::Error pointing at the offending character (Error::atOption).
//
// The table of known extensions, their versions and what each implies is in
// src/target/riscv_isa.cpp; docs/targets/riscv.md lists it with its sources.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace abikit {

struct RiscvExtension {
  std::string name; // lower case: "i", "m", "zicsr", "zve64d", "xtheadba"
  unsigned major = 0;
  unsigned minor = 0;
};

/// One entry of the table of extensions abikit knows.
struct RiscvKnownExtension {
  std::string_view name; // "zve64d"
  uint8_t major = 0;     // the only version accepted (and the one used when none is given)
  uint8_t minor = 0;
  bool experimental = false; // accepted only with an explicit, exact version (as with clang's
                             // -menable-experimental-extensions)
  bool rv32_only = false;    // rejected for rv64
  std::string_view implies;  // extensions it implies, space separated ("zve64f d")
};

/// Where the LLVM versions abikit models close an ISA differently (the defaults: LLVM 20, the
/// line the extension table follows; src/target/riscv.cpp says which compiler sets what).
struct RiscvIsaRules {
  bool a_implies_zaamo_zalrsc = true; // LLVM 20 and later
  bool c_implies_zca = false;         // C brings Zca, with D Zcd, with F on RV32 Zcf (LLVM 22)
  bool combine_b = false;             // Zba, Zbb and Zbs together add B (LLVM 22)
};

class RiscvISAInfo {
public:
  /// Parses a -march string. Throws abikit::Error (ErrorKind::Target, option "-march").
  static RiscvISAInfo parse(std::string_view march, const RiscvIsaRules& rules = {});

  /// The table of known extensions, sorted by name.
  static std::span<const RiscvKnownExtension> knownExtensions();

  unsigned xlen() const { return xlen_; }
  /// FLEN of the ISA: 128 with Q, 64 with D, 32 with F, else 0.
  unsigned flen() const { return flen_; }
  bool isEBase() const { return has("e"); }
  bool has(std::string_view ext) const;
  /// All extensions after the implied closure, in canonical order.
  std::span<const RiscvExtension> extensions() const { return exts_; }
  /// Canonical full string with versions: "rv64i2p1_m2p0_a2p1_..._zicsr2p0".
  std::string toString() const;
  /// clang's computeDefaultABI for this ISA: "ilp32e", "ilp32d", "ilp32f", "ilp32", "lp64e", ...
  std::string_view defaultAbi() const;
  /// Minimum VLEN from zvl*b (0 without vectors), ELEN from zve*/v.
  unsigned minVLen() const { return min_vlen_; }
  unsigned maxELen() const { return max_elen_; }
  /// Largest floating-point element width of the vector unit (zve32f: 32, zve64d/v: 64).
  unsigned maxELenFp() const { return max_elen_fp_; }

private:
  unsigned xlen_ = 0;
  unsigned flen_ = 0;
  unsigned min_vlen_ = 0;
  unsigned max_elen_ = 0;
  unsigned max_elen_fp_ = 0;
  std::vector<RiscvExtension> exts_;
  friend class RiscvISAParser;
};

} // namespace abikit
