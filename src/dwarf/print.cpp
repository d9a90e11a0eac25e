// Operations → text: the one walker behind both printed forms, appending to a caller's string.
//
// The canonical text (reference dwarf.md §1.5, toText/opText): "DW_OP_bregx 0x5 -8,
// DW_OP_entry_value (DW_OP_reg5), DW_OP_implicit_value 0x2 [12 34]". Unsigned operands in
// lowercase hexadecimal, signed ones in decimal, blocks in brackets, nested expressions in
// parentheses; extension operations by their DW_OP_LLVM_* names, whatever their encoding.
//
// The display form (toDisplay/opDisplay): what llvm-dwarfdump-22 prints for an exprloc (its
// printDwarfExpression): unsigned operands as 0x%x, signed ones with a sign (%+d), register
// operations with the target's register name (DW_OP_breg2 X2+8, DW_OP_regx SGPR33) or the number
// when it names none, DW_OP_LLVM_user operations as "DW_OP_LLVM_user DW_OP_LLVM_<name>", blocks as
// 0x%02x bytes, DW_OP_entry_value(...) around its nested expression. Where llvm-dwarfdump-22
// prints something else (it cannot decode const_type, deref_type, xderef_type, reinterpret; it
// reads the aspace_bregx displacement as unsigned; it misplaces ")" after a nested expression of
// several operations), this prints what it would print had it decoded the operation as abikit
// does: docs/dwarf.md lists each difference.
//
// Both forms share the walk (", " between operations, "(" ... ")" around nested expressions,
// iterative: no recursion on the nesting depth) and the operand switch; `Form` selects the few
// places where they differ. Characters go through a small stack buffer flushed into the string:
// no allocation once the string has the capacity, numbers written in place.
#include "print.h"

#include "small_stack.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace abikit::dwarf {

namespace {

enum class Form { Text, Display };

constexpr char kDigits[] = "0123456789abcdef";

constexpr size_t kOpCount = 0
#define ABIKIT_DW_OP(E, name, code, a, b) +1
#define ABIKIT_DW_OP_LLVM(E, name, user, legacy, seed, a, b) +1
#include "abikit/dwarf_ops.def"
    ;

// Byte i of the result: nibble i of x (nibble 0 the least significant).
constexpr uint64_t spreadNibbles(uint32_t x) {
  uint64_t w = x;
  w = (w | (w << 16)) & 0x0000ffff0000ffffULL;
  w = (w | (w << 8)) & 0x00ff00ff00ff00ffULL;
  return (w | (w << 4)) & 0x0f0f0f0f0f0f0f0fULL;
}

// Eight nibbles (one a byte, the most significant first in memory) as lowercase hex digits.
void storeHexDigits(char* to, uint64_t nibbles) {
  uint64_t letters = ((nibbles + 0x0606060606060606ULL) >> 4) & 0x0101010101010101ULL; // 10-15
  uint64_t ascii = nibbles + 0x3030303030303030ULL + letters * ('a' - '0' - 10);
  std::memcpy(to, &ascii, 8);
}

uint64_t byteSwap(uint64_t x) {
  x = ((x & 0x00ff00ff00ff00ffULL) << 8) | ((x >> 8) & 0x00ff00ff00ff00ffULL);
  x = ((x & 0x0000ffff0000ffffULL) << 16) | ((x >> 16) & 0x0000ffff0000ffffULL);
  return (x << 32) | (x >> 32);
}

// The 16 hexadecimal digits of v, the most significant first, at to[0, 16).
void hexDigits(char* to, uint64_t v) {
  uint64_t hi = spreadNibbles(uint32_t(v >> 32)), lo = spreadNibbles(uint32_t(v));
  if constexpr (std::endian::native == std::endian::little) {
    hi = byteSwap(hi);
    lo = byteSwap(lo);
  }
  storeHexDigits(to, hi);
  storeHexDigits(to + 8, lo);
}

// Appends to a std::string through a stack buffer. Every write makes its own room (a pointer
// compare); pieces longer than the buffer go straight to the string.
class Sink {
public:
  explicit Sink(std::string& out) : out_(out) {}
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;
  ~Sink() { flush(); }

  void flush() {
    out_.append(buf_, p_);
    p_ = buf_;
  }
  // Room for n <= kSize characters at the returned pointer; commit() with the new end.
  char* room(size_t n) {
    if (size_t(buf_ + kSize - p_) < n) flush();
    return p_;
  }
  void commit(char* end) { p_ = end; }
  void put(char c) { *room(1) = c, ++p_; }
  void put(std::string_view s) {
    if (s.size() > kSize / 2) {
      flush();
      out_.append(s);
      return;
    }
    char* p = room(s.size());
    std::memcpy(p, s.data(), s.size());
    p_ = p + s.size();
  }
  // A few characters (register names): a loop, cheaper than a call for one or two.
  void putShort(std::string_view s) {
    if (s.size() > 32) return put(s);
    char* p = room(32);
    for (char c : s) *p++ = c;
    p_ = p;
  }
  template <size_t N> void put(const char (&s)[N]) { put(std::string_view(s, N - 1)); }

  // " 0x%x" (with `lead`) or "0x%x", at least `width` digits.
  void hex(uint64_t v, bool lead = true, int width = 1) {
    char* p = room(24);
    if (lead) *p++ = ' ';
    *p++ = '0';
    *p++ = 'x';
    int digits = v ? (67 - std::countl_zero(v)) / 4 : 1;
    if (digits < width) digits = width;
    // All 16 digits at once, then the last `digits` of them as one fixed-size copy.
    char all[32] = {};
    hexDigits(all, v);
    std::memcpy(p, all + 16 - digits, 16);
    p_ = p + digits;
  }
  // "%d" or, with `plus`, "%+d".
  void dec(int64_t v, bool plus) {
    char* p = room(24);
    if (plus && v >= 0) *p++ = '+';
    p_ = std::to_chars(p, p + 21, v).ptr;
  }
  void dec(uint64_t v) {
    char* p = room(24);
    p_ = std::to_chars(p, p + 21, v).ptr;
  }

private:
  static constexpr size_t kSize = 256;
  std::string& out_;
  char* p_ = buf_;
  char buf_[kSize];
};

// Whether operand k of `op` is the DIE offset of a base type (the second operand of regval_type,
// deref_type, xderef_type; the first of const_type, convert, reinterpret).
bool isBaseTypeOperand(Op op, int k) {
  op = standardOp(op);
  if (k == 1) return op == Op::regval_type || op == Op::deref_type || op == Op::xderef_type;
  return op == Op::const_type || op == Op::convert || op == Op::reinterpret;
}

// How a register operation names its register (display form).
enum class RegisterUse : uint8_t {
  None,
  Implicit,      // DW_OP_reg0-31: the register in the opcode
  ImplicitBased, // DW_OP_breg0-31: then the signed offset
  Operand,       // regx, call_frame_entry_reg: the first operand
  OperandBased,  // bregx, aspace_bregx: the first operand, then the signed offset
  OperandTyped,  // regval_type: the first operand, then the base type
};

// The walker's first dispatch, by Op: the common operations print without the operand loop
// (which handles the rest, the same in both forms).
enum class Shape : uint8_t {
  Name,         // no operand, no register
  RegImplicit,  // DW_OP_reg0-31
  BregImplicit, // DW_OP_breg0-31: the register, then the signed offset
  Unsigned,     // one unsigned operand, neither a register nor a base type
  Signed,       // one signed operand
  Operands,     // anything else: the operand loop
};

bool isSignedKind(OperandKind k) {
  return k == OperandKind::S1 || k == OperandKind::S2 || k == OperandKind::S4 ||
         k == OperandKind::S8 || k == OperandKind::Sleb;
}

// What the walker reads per operation, by Op: the name padded to a fixed width (so that a name
// is one fixed-size copy), the display form's name of a DW_OP_LLVM_user operation (with the
// "DW_OP_LLVM_user " prefix), and how it names a register.
class OpTable {
public:
  static constexpr size_t kWidth = 56;
  OpTable() {
    for (const OpInfo& info : allOps()) {
      size_t i = size_t(info.op);
      std::string_view prefix = info.extension ? "DW_OP_LLVM_user " : "";
      if (prefix.size() + info.name.size() > kWidth)
        throw std::logic_error("dwarf_ops.def: a name too long");
      info.name.copy(plain_[i].text, info.name.size());
      plain_[i].size = uint8_t(info.name.size());
      prefix.copy(user_[i].text, prefix.size());
      info.name.copy(user_[i].text + prefix.size(), info.name.size());
      user_[i].size = uint8_t(prefix.size() + info.name.size());
      registers_[i] = registerUse(info.op);
      shapes_[i] = shapeOf(info, registers_[i]);
    }
  }
  // The name as the canonical text has it (display: in the legacy and seed-draft encodings).
  void putPlain(Sink& out, Op op) const { put(out, plain_[size_t(op)]); }
  // The name as the display form has it in the user encoding.
  void putUser(Sink& out, Op op) const { put(out, user_[size_t(op)]); }
  RegisterUse registers(Op op) const { return registers_[size_t(op)]; }
  Shape shape(Op op) const { return shapes_[size_t(op)]; }

private:
  struct Padded {
    char text[kWidth] = {};
    uint8_t size = 0;
  };
  static void put(Sink& out, const Padded& p) {
    char* to = out.room(kWidth);
    std::memcpy(to, p.text, kWidth);
    out.commit(to + p.size);
  }
  static RegisterUse registerUse(Op op) {
    if (op >= Op::reg0 && op <= Op::reg31) return RegisterUse::Implicit;
    if (op >= Op::breg0 && op <= Op::breg31) return RegisterUse::ImplicitBased;
    switch (standardOp(op)) {
    case Op::regx:
    case Op::LLVM_call_frame_entry_reg:
      return RegisterUse::Operand;
    case Op::bregx:
    case Op::LLVM_aspace_bregx:
      return RegisterUse::OperandBased;
    case Op::regval_type:
      return RegisterUse::OperandTyped;
    default:
      return RegisterUse::None;
    }
  }
  Padded plain_[kOpCount];
  Padded user_[kOpCount];
  static Shape shapeOf(const OpInfo& info, RegisterUse use) {
    OperandKind a = info.operand[0], b = info.operand[1];
    if (use == RegisterUse::Implicit) return Shape::RegImplicit;
    if (use == RegisterUse::ImplicitBased) return Shape::BregImplicit;
    if (use != RegisterUse::None || b != OperandKind::None) return Shape::Operands;
    if (a == OperandKind::None) return Shape::Name;
    if (isSignedKind(a)) return info.op == Op::LLVM_aspace_bregx ? Shape::Operands : Shape::Signed;
    if (a == OperandKind::Expr || a == OperandKind::Block || a == OperandKind::BlockU1 ||
        isBaseTypeOperand(info.op, 0))
      return Shape::Operands;
    return Shape::Unsigned;
  }
  RegisterUse registers_[kOpCount];
  Shape shapes_[kOpCount];
};

const OpTable& opTable() {
  static const OpTable kTable;
  return kTable;
}

// ----- what only the display form prints ----------------------------------------------------

// " (0x0000000d)": a base type reference as llvm-dwarfdump prints a valid one: with the unit's
// base types (options.base_types), its .debug_info offset and ` "name"`, or " <invalid base_type
// ref: 0x..>"; without them, as in a unit at offset 0 (0x%08x). DW_OP_convert and
// DW_OP_reinterpret 0 (the generic type) print " 0x0".
void baseType(Sink& out, Op op, uint64_t die, const DisplayOptions* opt) {
  op = standardOp(op);
  if (die == 0 && (op == Op::convert || op == Op::reinterpret)) {
    out.put(" 0x0");
    return;
  }
  uint64_t at = die;
  std::string_view name;
  if (opt && opt->base_types && !opt->base_types->baseType(die, at, name)) {
    out.put(" <invalid base_type ref:");
    out.hex(die);
    out.put('>');
    return;
  }
  out.put(" (");
  out.hex(at, false, 8);
  out.put(')');
  if (!name.empty()) {
    out.put(" \"");
    out.put(name);
    out.put('"');
  }
}

// " NAME".
void putRegisterName(Sink& out, const DwarfRegisterName& n, uint64_t reg) {
  out.put(' ');
  out.putShort(n.prefix);
  if (n.numbered) out.dec(uint64_t(n.index0) + (reg - n.first));
  out.putShort(n.suffix);
}

// A register operation whose register the target names: " X2+8" and the like; false when the
// operation is no register operation or the target names no such register (the operands then
// print as numbers).
bool namedRegister(const Operation& o, RegisterUse use, const DisplayOptions& opt, Sink& out) {
  if (use == RegisterUse::None) return false;
  uint64_t reg = use == RegisterUse::Implicit        ? uint64_t(o.op) - uint64_t(Op::reg0)
                 : use == RegisterUse::ImplicitBased ? uint64_t(o.op) - uint64_t(Op::breg0)
                                                     : o.u[0];
  const DwarfRegisterName* n = findRegisterName(opt.registers, reg);
  if (!n) return false;
  putRegisterName(out, *n, reg);
  if (use == RegisterUse::ImplicitBased || use == RegisterUse::OperandBased) out.dec(o.s, true);
  if (use == RegisterUse::OperandTyped) baseType(out, o.op, o.u[1], &opt);
  return true;
}

// ----- the operand switch, once --------------------------------------------------------------

// Block bytes: " [12 34]" (text) or " 0x12 0x34" (display).
template <Form F> void blockBytes(Sink& out, std::span<const uint8_t> bytes) {
  if constexpr (F == Form::Text) {
    out.put(" [");
    for (size_t i = 0; i < bytes.size(); ++i) {
      char* p = out.room(3);
      if (i) *p++ = ' ';
      *p++ = kDigits[bytes[i] >> 4];
      *p++ = kDigits[bytes[i] & 15];
      out.commit(p);
    }
    out.put(']');
  } else {
    for (uint8_t b : bytes) {
      char* p = out.room(5);
      p[0] = ' ';
      p[1] = '0';
      p[2] = 'x';
      p[3] = kDigits[b >> 4];
      p[4] = kDigits[b & 15];
      out.commit(p + 5);
    }
  }
}

template <Form F>
void operation(const Expression& e, const Operation& o, const OpInfo& info, const OpTable& table,
               bool user, const DisplayOptions* opt, Sink& out) {
  if constexpr (F == Form::Display) {
    if (user)
      table.putUser(out, o.op);
    else
      table.putPlain(out, o.op);
  } else {
    table.putPlain(out, o.op);
  }
  switch (table.shape(o.op)) {
  case Shape::Name:
    return;
  case Shape::Unsigned:
    out.hex(o.u[0]);
    return;
  case Shape::Signed:
    out.put(' ');
    out.dec(o.s, F == Form::Display);
    return;
  case Shape::RegImplicit:
    if constexpr (F == Form::Display) namedRegister(o, RegisterUse::Implicit, *opt, out);
    return;
  case Shape::BregImplicit:
    if constexpr (F == Form::Display)
      if (namedRegister(o, RegisterUse::ImplicitBased, *opt, out)) return;
    out.put(' ');
    out.dec(o.s, F == Form::Display);
    return;
  case Shape::Operands:
    break;
  }
  if constexpr (F == Form::Display)
    if (namedRegister(o, table.registers(o.op), *opt, out)) return;
  for (int k = 0; k < 2; ++k) {
    switch (info.operand[k]) {
    case OperandKind::None:
      return;
    case OperandKind::Expr: // the nested operations follow; the walker closes it
      out.put(F == Form::Text ? std::string_view(" (") : std::string_view("("));
      return;
    case OperandKind::Block: // the length, then the bytes
      out.hex(o.u[k]);
      blockBytes<F>(out, e.blockOf(o, k));
      break;
    case OperandKind::BlockU1: // the bytes (the length is implied, or printed before)
      blockBytes<F>(out, e.blockOf(o, k));
      break;
    case OperandKind::S1:
    case OperandKind::S2:
    case OperandKind::S4:
    case OperandKind::S8:
    case OperandKind::Sleb:
      // llvm-dwarfdump-22's descriptor makes the aspace_bregx displacement an unsigned LEB128,
      // printed 0x%x after an unnamed register: the same for 0 and up, a sign for the rest.
      if (F == Form::Display && o.op == Op::LLVM_aspace_bregx && o.s >= 0) {
        out.hex(uint64_t(o.s));
        break;
      }
      out.put(' ');
      out.dec(o.s, F == Form::Display);
      break;
    default:
      if (F == Form::Display && isBaseTypeOperand(o.op, k)) {
        baseType(out, o.op, o.u[k], opt);
        if (o.op == Op::const_type) out.hex(o.u[1]); // the constant's length, then its bytes
        break;
      }
      out.hex(o.u[k]);
      break;
    }
  }
}

// Appends ops[first, last) (a whole nesting level): ", " between operations, "(" after each
// entry_value and ")" where its nested operations end.
template <Form F>
void appendRange(const Expression& e, size_t first, size_t last, const DisplayOptions* opt,
                 std::string& s) {
  Sink out(s);
  const OpInfo* infos = allOps().data();
  const OpTable& table = opTable();
  // The display form in the user encoding: "DW_OP_LLVM_user " before extension operations.
  bool user = F == Form::Display && opt->encoding == ExtEncoding::User;
  detail::SmallStack<size_t, 16> ends; // the ends of the open nested expressions
  bool lead = true;
  for (size_t i = first; i < last; ++i) {
    if (!lead) out.put(", ");
    lead = false;
    const Operation& o = e.ops[i];
    operation<F>(e, o, infos[size_t(o.op)], table, user, opt, out);
    if (standardOp(e.ops[i].op) == Op::entry_value) {
      ends.push(e.endOf(i));
      lead = true;
    }
    while (!ends.empty() && ends.back() == i + 1) {
      out.put(')');
      ends.pop();
      lead = false;
    }
  }
  for (; !ends.empty(); ends.pop()) out.put(')'); // a list cut short: still balanced
}

} // namespace

const DwarfRegisterName* findRegisterName(std::span<const DwarfRegisterName> names, uint64_t reg) {
  for (const DwarfRegisterName& n : names)
    if (reg >= n.first && reg - n.first < n.count) return &n;
  return nullptr;
}

void toText(const Expression& expr, std::string& out) {
  appendRange<Form::Text>(expr, 0, expr.ops.size(), nullptr, out);
}

void opText(const Expression& expr, size_t i, std::string& out) {
  appendRange<Form::Text>(expr, i, expr.endOf(i), nullptr, out);
}

void toDisplay(const Expression& expr, const DisplayOptions& options, std::string& out) {
  if (expr.ops.empty()) {
    out += "<empty>";
    return;
  }
  appendRange<Form::Display>(expr, 0, expr.ops.size(), &options, out);
}

void opDisplay(const Expression& expr, size_t i, const DisplayOptions& options, std::string& out) {
  appendRange<Form::Display>(expr, i, expr.endOf(i), &options, out);
}

} // namespace abikit::dwarf
