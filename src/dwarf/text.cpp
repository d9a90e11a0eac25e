// The canonical text form (reference dwarf.md §1.5) → operations: "DW_OP_bregx 0x5 -8,
// DW_OP_entry_value (DW_OP_reg5), DW_OP_implicit_value 0x2 [12 34]". Unsigned operands in
// lowercase hexadecimal, signed ones in decimal, blocks in brackets, nested expressions in
// parentheses; extension operations by their DW_OP_LLVM_* names, whatever their encoding.
// Parsing is iterative (no recursion on the nesting depth). Printing is print.cpp's walker,
// shared with the display form; toText/opText here wrap its appending functions.
#include "abikit/dwarf.h"

#include <charconv>
#include <limits>

namespace abikit::dwarf {

namespace {

bool isSigned(OperandKind k) {
  return k == OperandKind::S1 || k == OperandKind::S2 || k == OperandKind::S4 ||
         k == OperandKind::S8 || k == OperandKind::Sleb;
}

// ----- the parser -------------------------------------------------------------------------------

class Parser {
public:
  explicit Parser(std::string_view text) : t_(text) {}

  Expression run() {
    Expression e;
    std::vector<size_t> open; // entry_value operations whose "(" is open
    skipSpace();
    if (atEnd()) return e;
    while (true) {
      skipSpace();
      if (peek() == ')' && !open.empty() && e.ops.size() == open.back() + 1) {
        // "()" : an empty nested expression.
      } else {
        operation(e, open);
        if (standardOp(e.ops.back().op) == Op::entry_value)
          continue; // its nested expression follows
      }
      // After an operation: ")" closes nested expressions, "," starts the next operation.
      while (true) {
        skipSpace();
        if (peek() == ')') {
          if (open.empty()) fail("')' without a DW_OP_entry_value '(' to close");
          ++p_;
          Operation& ev = e.ops[open.back()];
          ev.u[1] = e.ops.size() - open.back() - 1;
          open.pop_back();
          continue;
        }
        break;
      }
      skipSpace();
      if (atEnd()) {
        if (!open.empty()) fail("missing ')' after the DW_OP_entry_value expression");
        return e;
      }
      if (peek() != ',') fail("expected ',' between operations");
      ++p_;
    }
  }

private:
  [[noreturn]] void fail(std::string detail, size_t at = SIZE_MAX) const {
    throw ExprError(ExprErrorKind::Syntax, ExprError::Where::Column, (at == SIZE_MAX ? p_ : at) + 1,
                    std::move(detail));
  }
  bool atEnd() const { return p_ >= t_.size(); }
  char peek() const { return atEnd() ? '\0' : t_[p_]; }
  void skipSpace() {
    while (!atEnd() && (t_[p_] == ' ' || t_[p_] == '\t' || t_[p_] == '\n' || t_[p_] == '\r')) ++p_;
  }
  static bool isWord(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  void operation(Expression& e, std::vector<size_t>& open) {
    size_t at = p_;
    while (!atEnd() && isWord(t_[p_])) ++p_;
    std::string_view name = t_.substr(at, p_ - at);
    if (name.empty()) fail("expected an operation name", at);
    const OpInfo* info = findOp(name);
    if (!info) {
      if (name == "DW_OP_LLVM_user")
        fail("DW_OP_LLVM_user is an encoding, not an operation: write the extension's name "
             "(DW_OP_LLVM_offset)",
             at);
      fail("unknown operation '" + std::string(name) + "'", at);
    }
    Operation op;
    op.op = info->op;
    op.depth = uint32_t(open.size());
    for (int k = 0; k < 2; ++k) {
      OperandKind kind = info->operand[k];
      if (kind == OperandKind::None) break;
      skipSpace();
      if (kind == OperandKind::Expr) {
        if (peek() != '(') fail(std::string(info->name) + ": expected '(' and the expression");
        ++p_;
        open.push_back(e.ops.size());
      } else if (kind == OperandKind::Block) {
        op.u[k] = unsignedValue(*info, kind);
        skipSpace();
        size_t at_block = p_;
        uint64_t n = bytes(e, op, *info);
        if (n != op.u[k])
          fail(std::string(info->name) + ": " + std::to_string(n) +
                   " bytes given, the length says " + std::to_string(op.u[k]),
               at_block);
      } else if (kind == OperandKind::BlockU1) {
        size_t at_block = p_;
        op.u[k] = bytes(e, op, *info);
        if (op.u[k] > 0xff)
          fail(std::string(info->name) + ": at most 255 bytes (a one-byte length)", at_block);
      } else if (isSigned(kind)) {
        op.s = signedValue(*info, kind);
      } else {
        op.u[k] = unsignedValue(*info, kind);
      }
    }
    if (info->operand[0] != OperandKind::Expr && !atEnd() && isWord(t_[p_]))
      fail("unexpected '" + std::string(1, t_[p_]) + "'");
    e.ops.push_back(op);
  }

  // The range a fixed-size operand's text must fit (addresses and references: 8 bytes here; the
  // encoder checks them against the format).
  static unsigned width(OperandKind k) {
    unsigned n = fixedOperandSize(k, ExprFormat{ExtEncoding::User, 8, 8, Endian::Little});
    return n ? n : 8;
  }

  uint64_t unsignedValue(const OpInfo& info, OperandKind kind) {
    size_t at = p_;
    if (t_.substr(p_, 2) != "0x")
      fail(std::string(info.name) + ": expected an unsigned operand in hexadecimal (0x...)");
    p_ += 2;
    size_t digits = p_;
    uint64_t v = 0;
    auto r = std::from_chars(t_.data() + p_, t_.data() + t_.size(), v, 16);
    if (r.ptr == t_.data() + digits) fail(std::string(info.name) + ": expected hex digits");
    if (r.ec == std::errc::result_out_of_range)
      fail(std::string(info.name) + ": the operand does not fit in 64 bits", at);
    p_ = size_t(r.ptr - t_.data());
    unsigned n = width(kind);
    if (n < 8 && (v >> (8 * n)))
      fail(std::string(info.name) + ": the operand does not fit in " + std::to_string(n) +
               (n == 1 ? " byte" : " bytes"),
           at);
    return v;
  }

  int64_t signedValue(const OpInfo& info, OperandKind kind) {
    size_t at = p_;
    int64_t v = 0;
    auto r = std::from_chars(t_.data() + p_, t_.data() + t_.size(), v, 10);
    if (r.ptr == t_.data() + p_ || t_.substr(p_, 2) == "0x" || t_.substr(p_, 3) == "-0x")
      fail(std::string(info.name) + ": expected a signed decimal operand");
    if (r.ec == std::errc::result_out_of_range)
      fail(std::string(info.name) + ": the operand does not fit in 64 bits", at);
    p_ = size_t(r.ptr - t_.data());
    unsigned n = width(kind);
    if (n < 8) {
      int64_t lo = -(int64_t(1) << (8 * n - 1)), hi = (int64_t(1) << (8 * n - 1)) - 1;
      if (v < lo || v > hi)
        fail(std::string(info.name) + ": the operand does not fit in " + std::to_string(n) +
                 (n == 1 ? " signed byte" : " signed bytes"),
             at);
    }
    return v;
  }

  // "[12 34]": appends the bytes to e.blocks, records where in op.block; the count.
  uint64_t bytes(Expression& e, Operation& op, const OpInfo& info) {
    if (peek() != '[') fail(std::string(info.name) + ": expected '[' and the bytes");
    ++p_;
    op.block = uint32_t(e.blocks.size());
    uint64_t n = 0;
    while (true) {
      skipSpace();
      if (peek() == ']') {
        ++p_;
        return n;
      }
      auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      int hi = hex(peek());
      int lo = p_ + 1 < t_.size() ? hex(t_[p_ + 1]) : -1;
      if (hi < 0 || lo < 0 || (p_ + 2 < t_.size() && hex(t_[p_ + 2]) >= 0))
        fail(std::string(info.name) + ": expected a byte as two hex digits or ']'");
      e.blocks.push_back(uint8_t(hi * 16 + lo));
      p_ += 2;
      ++n;
    }
  }

  std::string_view t_;
  size_t p_ = 0;
};

} // namespace

std::string toText(const Expression& expr) {
  std::string out;
  toText(expr, out);
  return out;
}

std::string opText(const Expression& expr, size_t i) {
  std::string out;
  opText(expr, i, out);
  return out;
}

Expression parseText(std::string_view text) {
  return Parser(text).run();
}

Expression assemble(std::string_view text, const ExprFormat& format) {
  return decode(encode(parseText(text), format), format);
}

} // namespace abikit::dwarf
