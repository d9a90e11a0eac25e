// Operations → the text llvm-dwarfdump-22 prints for an exprloc (its printDwarfExpression):
// unsigned operands as 0x%x, signed ones with a sign (%+d), register operations with the
// target's register name (DW_OP_breg2 X2+8, DW_OP_regx SGPR33) or the number when it names none,
// DW_OP_LLVM_user operations as "DW_OP_LLVM_user DW_OP_LLVM_<name>", blocks as 0x%02x bytes,
// DW_OP_entry_value(...) around its nested expression. Where llvm-dwarfdump-22 prints something
// else (it cannot decode const_type, deref_type, xderef_type, reinterpret; it reads the
// aspace_bregx displacement as unsigned; it misplaces ")" after a nested expression of several
// operations), this prints what it would print had it decoded the operation as abikit does:
// docs/dwarf.md lists each difference.
#include "abikit/dwarf.h"

#include <charconv>

namespace abikit::dwarf {

namespace {

constexpr char kDigits[] = "0123456789abcdef";

// " 0x%x"
void hex(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  out += " 0x";
  out.append(buf, r.ptr);
}

// "%+d"
void plusSigned(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  if (v >= 0) out += '+';
  out.append(buf, r.ptr);
}

// " 0x%02x"
void byteHex(std::string& out, uint8_t b) {
  out += " 0x";
  out += kDigits[b >> 4];
  out += kDigits[b & 15];
}

// " (0x0000000d)": a base type reference printed as llvm-dwarfdump prints a valid one in a unit
// at offset 0 (0x%08x); DW_OP_convert and DW_OP_reinterpret 0 (the generic type) print " 0x0".
void baseType(std::string& out, Op op, uint64_t die) {
  if (die == 0 && (op == Op::convert || op == Op::reinterpret)) {
    out += " 0x0";
    return;
  }
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, die, 16);
  out += " (0x";
  for (ptrdiff_t n = r.ptr - buf; n < 8; ++n) out += '0';
  out.append(buf, r.ptr);
  out += ')';
}

// Appends " NAME" when the target names register `reg`.
bool appendRegisterName(std::string& out, std::span<const DwarfRegisterName> names, uint64_t reg) {
  for (const DwarfRegisterName& n : names) {
    if (reg < n.first || reg - n.first >= n.count) continue;
    out += ' ';
    out += n.prefix;
    if (n.numbered) {
      char buf[24];
      auto r = std::to_chars(buf, buf + sizeof buf, n.index0 + (reg - n.first));
      out.append(buf, r.ptr);
    }
    out += n.suffix;
    return true;
  }
  return false;
}

bool isRegOp(Op op, uint64_t& reg, const Operation& o) {
  auto in = [&](Op first, Op last) { return op >= first && op <= last; };
  if (in(Op::reg0, Op::reg31)) {
    reg = uint64_t(op) - uint64_t(Op::reg0);
    return true;
  }
  if (in(Op::breg0, Op::breg31)) {
    reg = uint64_t(op) - uint64_t(Op::breg0);
    return true;
  }
  switch (op) {
  case Op::regx:
  case Op::bregx:
  case Op::regval_type:
  case Op::LLVM_call_frame_entry_reg:
  case Op::LLVM_aspace_bregx:
    reg = o.u[0];
    return true;
  default:
    return false;
  }
}

void operation(const Expression& e, size_t i, const DisplayOptions& opt, std::string& out) {
  const Operation& o = e.ops[i];
  const OpInfo& info = opInfo(o.op);
  if (info.extension && opt.encoding == ExtEncoding::User) out += "DW_OP_LLVM_user ";
  out += info.name;
  uint64_t reg = 0;
  if (isRegOp(o.op, reg, o)) {
    if (appendRegisterName(out, opt.registers, reg)) {
      bool based = o.op == Op::bregx || o.op == Op::LLVM_aspace_bregx ||
                   (o.op >= Op::breg0 && o.op <= Op::breg31);
      if (based) plusSigned(out, o.s);
      if (o.op == Op::regval_type) baseType(out, o.op, o.u[1]);
      return;
    }
  }
  for (int k = 0; k < 2; ++k) {
    OperandKind kind = info.operand[k];
    switch (kind) {
    case OperandKind::None:
      return;
    case OperandKind::Expr:
      out += '(';
      return;
    case OperandKind::Block:
      hex(out, o.u[k]);
      [[fallthrough]];
    case OperandKind::BlockU1:
      for (uint8_t b : e.blockOf(o, k)) byteHex(out, b);
      break;
    case OperandKind::S1:
    case OperandKind::S2:
    case OperandKind::S4:
    case OperandKind::S8:
    case OperandKind::Sleb:
      // llvm-dwarfdump-22's descriptor makes the aspace_bregx displacement an unsigned LEB128,
      // printed 0x%x after an unnamed register: the same for 0 and up, a sign for the rest.
      if (o.op == Op::LLVM_aspace_bregx && o.s >= 0) {
        hex(out, uint64_t(o.s));
        break;
      }
      out += ' ';
      plusSigned(out, o.s);
      break;
    case OperandKind::Uleb:
      // DIE offsets of base types (the second operand of regval_type, deref_type, xderef_type;
      // the first of const_type, convert, reinterpret).
      if ((k == 1 &&
           (o.op == Op::regval_type || o.op == Op::deref_type || o.op == Op::xderef_type)) ||
          (k == 0 && (o.op == Op::const_type || o.op == Op::convert || o.op == Op::reinterpret))) {
        baseType(out, o.op, o.u[k]);
        if (o.op == Op::const_type) hex(out, o.u[1]); // the constant's length, then its bytes
        break;
      }
      hex(out, o.u[k]);
      break;
    default:
      hex(out, o.u[k]);
      break;
    }
  }
}

void displayRange(const Expression& e, size_t first, size_t last, const DisplayOptions& opt,
                  std::string& out) {
  std::vector<size_t> ends;
  bool lead = true;
  for (size_t i = first; i < last; ++i) {
    if (!lead) out += ", ";
    lead = false;
    operation(e, i, opt, out);
    if (e.ops[i].op == Op::entry_value) {
      ends.push_back(e.endOf(i));
      lead = true;
    }
    while (!ends.empty() && ends.back() == i + 1) {
      out += ')';
      ends.pop_back();
      lead = false;
    }
  }
  for (; !ends.empty(); ends.pop_back()) out += ')';
}

} // namespace

std::string registerDisplayName(std::span<const DwarfRegisterName> names, uint64_t reg) {
  std::string s;
  if (appendRegisterName(s, names, reg)) s.erase(0, 1);
  return s;
}

DisplayOptions displayOptionsFor(const Target& target, ExtEncoding encoding) {
  DisplayOptions o;
  o.registers = target.dwarf_register_names;
  o.encoding = encoding;
  return o;
}

std::string toDisplay(const Expression& expr, const DisplayOptions& options) {
  if (expr.ops.empty()) return "<empty>";
  std::string out;
  out.reserve(32 * expr.ops.size());
  displayRange(expr, 0, expr.ops.size(), options, out);
  return out;
}

std::string opDisplay(const Expression& expr, size_t i, const DisplayOptions& options) {
  std::string out;
  displayRange(expr, i, expr.endOf(i), options, out);
  return out;
}

} // namespace abikit::dwarf
