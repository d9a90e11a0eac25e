// Call frame information → the text llvm-dwarfdump-22 prints for .debug_frame and .eh_frame
// (its CIE::dump, FDE::dump, printCFIProgram and printUnwindTable): the entry headers, one line
// per instruction, one line per row. Registers print with the target's DWARF names
// (registerDisplayName) or as "reg" + number; expressions in the display form (toDisplay).
// Where llvm-dwarfdump-22 prints something else (it truncates row offsets to 32 bits, names
// DW_CFA_GNU_args_size only on x86, does not know DW_CFA_GNU_negative_offset_extended, ...),
// this prints what abikit read; docs/dwarf.md, "Call frame information", lists each difference.
#include "abikit/dwarf_cfi.h"
#include "cfi_internal.h"

namespace abikit::dwarf {

namespace {

constexpr char kUpperDigits[] = "0123456789ABCDEF";

using detail::appendHex;

void decimal(std::string& out, int64_t v) {
  detail::appendDecimal(out, v);
}
void udecimal(std::string& out, uint64_t v) {
  detail::appendDecimal(out, v);
}

// "%+d"
void plusDecimal(std::string& out, int64_t v) {
  if (v >= 0) out += '+';
  decimal(out, v);
}

std::string expressionText(const CfiSection& s, uint64_t offset, uint64_t size, const CfiCie& cie,
                           const DisplayOptions& d, bool dwarf64) {
  DisplayOptions dd = d;
  dd.encoding = s.format.encoding;
  return toDisplay(
      decode(s.bytes.subspan(size_t(offset), size_t(size)), cfiExprFormat(s, cie, dwarf64)), dd);
}

// The name llvm-dwarfdump-22 prints: DW_CFA_GNU_args_size only for x86 (no abikit target).
std::string_view displayName(Cfa op) {
  return op == Cfa::GNU_args_size ? std::string_view() : cfaInfo(op).name;
}

void offsetFromCfa(std::string& out, int64_t offset) {
  out += "CFA";
  if (offset == 0) return;
  if (offset > 0) out += '+';
  decimal(out, offset);
}

void rowText(std::string& out, const CfiSection& s, const CfiRow& row, const CfiCie& cie,
             const DisplayOptions& d, bool dwarf64) {
  if (row.has_address) {
    out += "0x";
    appendHex(out, row.address, 0);
    out += ": ";
  }
  out += "CFA=";
  const CfaRule& c = row.cfa;
  switch (c.kind) {
  case CfaRuleKind::Unspecified:
    out += "unspecified";
    break;
  case CfaRuleKind::RegisterOffset:
    out += cfiRegisterName(d, c.reg);
    if (c.offset != 0 || c.has_address_space) {
      plusDecimal(out, c.offset);
      if (c.has_address_space) {
        out += " in addrspace";
        udecimal(out, c.address_space);
      }
    }
    break;
  case CfaRuleKind::Expression:
    out += expressionText(s, c.expr_offset, c.expr_size, cie, d, dwarf64);
    break;
  }
  bool first = true;
  for (const auto& [reg, r] : row.rules) {
    out += first ? ": " : ", ";
    first = false;
    out += cfiRegisterName(d, reg);
    out += '=';
    switch (r.kind) {
    case RegisterRuleKind::Undefined:
      out += "undefined";
      break;
    case RegisterRuleKind::SameValue:
      out += "same";
      break;
    case RegisterRuleKind::Offset:
      out += '[';
      offsetFromCfa(out, r.offset);
      out += ']';
      break;
    case RegisterRuleKind::ValOffset:
      offsetFromCfa(out, r.offset);
      break;
    case RegisterRuleKind::Register:
      out += cfiRegisterName(d, r.reg);
      break;
    case RegisterRuleKind::Expression:
      out += '[';
      out += expressionText(s, r.expr_offset, r.expr_size, cie, d, dwarf64);
      out += ']';
      break;
    case RegisterRuleKind::ValExpression:
      out += expressionText(s, r.expr_offset, r.expr_size, cie, d, dwarf64);
      break;
    }
  }
}

void formatLine(std::string& out, bool dwarf64) {
  out += dwarf64 ? "DWARF64" : "DWARF32";
  out += '\n';
}

// The instruction lines and the rows of one entry (each indented by two spaces), with the blank
// lines llvm-dwarfdump-22 puts around the rows.
template <typename Entry>
void body(std::string& out, const CfiSection& s, const Entry& e, const CfiCie& cie,
          const DisplayOptions& d, std::optional<uint64_t> address,
          std::vector<CfiError>* row_errors) {
  for (const CfiInstruction& in : s.instructionsOf(e)) {
    out += "  ";
    out += displayCfiInstruction(s, in, cie, d, address, e.dwarf64);
    out += '\n';
  }
  out += '\n';
  try {
    CfiTable t = buildTable(s, e);
    size_t n = t.size(), i = 0;
    t.forEachRow([&](const CfiRow& r) {
      // llvm-dwarfdump-22 drops a last row that says nothing (no CFA rule, no register rule).
      if (++i == n && r.cfa.kind == CfaRuleKind::Unspecified && r.rules.empty()) return;
      out += "  ";
      rowText(out, s, r, cie, d, e.dwarf64);
      out += '\n';
    });
  } catch (const CfiError& err) {
    if (row_errors) row_errors->push_back(err);
  }
  out += '\n';
}

void cie(std::string& out, const CfiSection& s, const CfiCie& c, const DisplayOptions& d,
         std::vector<CfiError>* row_errors) {
  bool eh = s.format.section == CfiSectionKind::EhFrame;
  appendHex(out, c.offset, 8);
  out += ' ';
  appendHex(out, c.length, c.dwarf64 ? 16 : 8);
  out += ' ';
  appendHex(out, eh ? 0 : c.dwarf64 ? ~uint64_t(0) : 0xffffffff, c.dwarf64 && !eh ? 16 : 8);
  out += " CIE\n  Format:                ";
  formatLine(out, c.dwarf64);
  if (eh && c.version != 1) out += "WARNING: unsupported CIE version\n";
  out += "  Version:               ";
  udecimal(out, c.version);
  out += "\n  Augmentation:          \"";
  out += c.augmentation;
  out += "\"\n";
  if (!c.understood) {
    out += "  (augmentation not understood: the rest of the CIE is not read)\n\n";
    return;
  }
  if (c.version >= 4) {
    out += "  Address size:          ";
    udecimal(out, c.address_size);
    out += "\n  Segment desc size:     ";
    udecimal(out, c.segment_selector_size);
    out += '\n';
  }
  out += "  Code alignment factor: ";
  udecimal(out, c.code_alignment_factor);
  out += "\n  Data alignment factor: ";
  decimal(out, c.data_alignment_factor);
  out += "\n  Return address column: ";
  udecimal(out, c.return_address_register);
  out += '\n';
  if (c.personality) {
    out += "  Personality Address: ";
    appendHex(out, *c.personality, 16);
    out += '\n';
  }
  if (!c.augmentation_data.empty()) {
    out += "  Augmentation data:    ";
    for (uint8_t b : c.augmentation_data) {
      out += ' ';
      out += kUpperDigits[b >> 4];
      out += kUpperDigits[b & 15];
    }
    out += '\n';
  }
  out += '\n';
  body(out, s, c, c, d, std::nullopt, row_errors);
}

void fde(std::string& out, const CfiSection& s, const CfiFde& f, const DisplayOptions& d,
         std::vector<CfiError>* row_errors) {
  bool eh = s.format.section == CfiSectionKind::EhFrame;
  const CfiCie& c = s.cieOf(f);
  appendHex(out, f.offset, 8);
  out += ' ';
  appendHex(out, f.length, f.dwarf64 ? 16 : 8);
  out += ' ';
  appendHex(out, f.cie_pointer, f.dwarf64 && !eh ? 16 : 8);
  out += " FDE cie=";
  appendHex(out, c.offset, 8);
  if (f.opaque && eh) {
    out += " pc=?\n  Format:       ";
    formatLine(out, f.dwarf64);
    out += "  (its CIE's augmentation is not understood: the FDE is not read)\n\n";
    return;
  }
  out += " pc=";
  appendHex(out, f.initial_location, 8);
  out += "...";
  appendHex(out, f.initial_location + f.address_range, 8);
  out += "\n  Format:       ";
  formatLine(out, f.dwarf64);
  if (f.opaque) {
    out += "  (its CIE's augmentation is not understood: the FDE is not read)\n\n";
    return;
  }
  if (f.lsda) {
    out += "  LSDA Address: ";
    appendHex(out, *f.lsda, 16);
    out += '\n';
  }
  body(out, s, f, c, d, f.initial_location, row_errors);
}

} // namespace

std::string cfiRegisterName(const DisplayOptions& d, uint64_t reg) {
  std::string name = registerDisplayName(d.registers, reg);
  if (!name.empty()) return name;
  name = "reg";
  udecimal(name, reg);
  return name;
}

std::string displayCfiInstruction(const CfiSection& s, const CfiInstruction& in, const CfiCie& cie,
                                  const DisplayOptions& d, std::optional<uint64_t>& address,
                                  bool dwarf64) {
  const CfaInfo& info = cfaInfo(in.op);
  std::string out(displayName(in.op));
  out += ':';
  for (int i = 0; i < 3; ++i) {
    uint64_t v = in.operand[i];
    switch (info.operand[i]) {
    case CfaOperand::None:
      break;
    case CfaOperand::Register:
      out += ' ';
      out += cfiRegisterName(d, v);
      break;
    case CfaOperand::Address:
      out += ' ';
      appendHex(out, v, 0);
      address = v;
      break;
    case CfaOperand::Offset:
      out += ' ';
      plusDecimal(out, int64_t(v));
      break;
    case CfaOperand::CodeDelta:
      out += ' ';
      if (cie.code_alignment_factor == 0) {
        decimal(out, int64_t(v));
        out += "*code_alignment_factor";
        break;
      }
      decimal(out, int64_t(v * cie.code_alignment_factor));
      if (address) {
        *address += v * cie.code_alignment_factor;
        out += " to 0x";
        appendHex(out, *address, 0);
      }
      break;
    case CfaOperand::FactoredU:
    case CfaOperand::FactoredS:
    case CfaOperand::FactoredNeg:
      out += ' ';
      if (cie.data_alignment_factor == 0) {
        decimal(out, int64_t(v));
        out += "*data_alignment_factor";
        break;
      }
      v *= uint64_t(cie.data_alignment_factor);
      decimal(out, int64_t(info.operand[i] == CfaOperand::FactoredNeg ? 0 - v : v));
      break;
    case CfaOperand::AddressSpace:
      out += " in addrspace";
      udecimal(out, v);
      break;
    case CfaOperand::Expression:
      out += ' ';
      out += expressionText(s, in.expr_offset, in.expr_size, cie, d, dwarf64);
      break;
    }
  }
  return out;
}

std::string displayCfiRow(const CfiSection& s, const CfiRow& row, const CfiCie& cie,
                          const DisplayOptions& d, bool dwarf64) {
  std::string out;
  rowText(out, s, row, cie, d, dwarf64);
  return out;
}

std::string displayCfi(const CfiSection& s, const DisplayOptions& d,
                       std::vector<CfiError>* row_errors) {
  std::string out = "\n";
  for (const CfiEntry& e : s.entries) {
    switch (e.kind) {
    case CfiEntryKind::Terminator:
      appendHex(out, e.offset, 8);
      out += " ZERO terminator\n";
      break;
    case CfiEntryKind::Cie:
      cie(out, s, s.cies[e.index], d, row_errors);
      break;
    case CfiEntryKind::Fde:
      fde(out, s, s.fdes[e.index], d, row_errors);
      break;
    }
  }
  return out;
}

} // namespace abikit::dwarf
