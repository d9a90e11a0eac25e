// Operations → bytes: minimal LEB128s, the extension codes of the chosen encoding, and an
// Unencodable error (never an invented code) where the encoding has none or an operand does not
// fit its field. A DW_OP_entry_value's length is computed before it is written (no recursion,
// no moving bytes: linear at any nesting depth).
#include "abikit/dwarf.h"
#include "bytes.h"

namespace abikit::dwarf {

namespace {

using detail::writeFixed;
using detail::writeSleb;
using detail::writeUleb;

[[noreturn]] void unencodable(size_t index, std::string detail) {
  throw ExprError(ExprErrorKind::Unencodable, ExprError::Where::Operation, index,
                  std::move(detail));
}

// Writes the code and the operands of ops[i], not what is nested in it (an entry_value's length
// and nested expression are the caller's).
void emitOwn(const Expression& e, size_t i, const ExprFormat& f, std::vector<uint8_t>& out) {
  const Operation& op = e.ops[i];
  const OpInfo& info = opInfo(op.op);
  if (!info.extension) {
    out.push_back(uint8_t(info.code));
  } else {
    int code = extensionCode(info, f.encoding);
    if (code < 0)
      unencodable(i, std::string(info.name) + " has no code in the " +
                         std::string(extEncodingName(f.encoding)) + " encoding");
    if (f.encoding == ExtEncoding::User) {
      out.push_back(kLlvmUser);
      writeUleb(out, uint64_t(code));
    } else {
      out.push_back(uint8_t(code));
    }
  }
  for (int k = 0; k < 2; ++k) {
    OperandKind kind = info.operand[k];
    switch (kind) {
    case OperandKind::None:
    case OperandKind::Expr:
      break;
    case OperandKind::U1:
    case OperandKind::U2:
    case OperandKind::U4:
    case OperandKind::U8:
    case OperandKind::Addr:
    case OperandKind::Ref: {
      unsigned n = fixedOperandSize(kind, f);
      if (n < 8 && op.u[k] >> (8 * n))
        unencodable(i, std::string(info.name) + ": operand " + std::to_string(op.u[k]) +
                           " does not fit in " + std::to_string(n) + " bytes");
      writeFixed(out, n, op.u[k], f.endian);
      break;
    }
    case OperandKind::S1:
    case OperandKind::S2:
    case OperandKind::S4:
    case OperandKind::S8: {
      unsigned n = fixedOperandSize(kind, f);
      unsigned shift = 64 - 8 * n;
      if (n < 8 && (int64_t(uint64_t(op.s) << shift) >> shift) != op.s)
        unencodable(i, std::string(info.name) + ": operand " + std::to_string(op.s) +
                           " does not fit in " + std::to_string(n) + " signed bytes");
      writeFixed(out, n, uint64_t(op.s), f.endian);
      break;
    }
    case OperandKind::Uleb:
      writeUleb(out, op.u[k]);
      break;
    case OperandKind::Sleb:
      writeSleb(out, op.s);
      break;
    case OperandKind::Block:
    case OperandKind::BlockU1: {
      if (op.block > e.blocks.size() || op.u[k] > e.blocks.size() - op.block)
        unencodable(i, std::string(info.name) + ": the block lies outside the expression's bytes");
      if (kind == OperandKind::Block)
        writeUleb(out, op.u[k]);
      else if (op.u[k] > 0xff)
        unencodable(i, std::string(info.name) + ": a block of " + std::to_string(op.u[k]) +
                           " bytes does not fit a one-byte length");
      else
        out.push_back(uint8_t(op.u[k]));
      auto b = e.blockOf(op, k);
      out.insert(out.end(), b.begin(), b.end());
      break;
    }
    }
  }
}

size_t ulebSize(uint64_t v) {
  size_t n = 1;
  while (v >>= 7) ++n;
  return n;
}

// Three passes, each linear whatever the nesting: (1) check the nesting and each operation's own
// bytes, in order (so the first unencodable operation is the one reported); (2) from the end,
// the byte length of each entry_value's nested expression, from its direct children; (3) write.
void encodeAll(const Expression& e, const ExprFormat& f, std::vector<uint8_t>& out) {
  const size_t n = e.ops.size();
  std::vector<uint64_t> own(n), total(n), nested(n);
  std::vector<uint8_t> scratch;
  std::vector<size_t> ends; // the ends of the open entry_values
  for (size_t i = 0; i < n; ++i) {
    while (!ends.empty() && ends.back() == i) ends.pop_back();
    const Operation& op = e.ops[i];
    if (op.depth != ends.size())
      unencodable(i, "nesting depth " + std::to_string(op.depth) + " where " +
                         std::to_string(ends.size()) + " DW_OP_entry_value operations are open");
    if (standardOp(op.op) == Op::entry_value) {
      if (op.u[1] > n - i - 1 || (!ends.empty() && i + 1 + op.u[1] > ends.back()))
        unencodable(i, "DW_OP_entry_value: more nested operations than there are");
      ends.push_back(i + 1 + size_t(op.u[1]));
    }
    scratch.clear();
    emitOwn(e, i, f, scratch);
    own[i] = scratch.size();
  }
  for (size_t i = n; i-- > 0;) {
    total[i] = own[i];
    if (standardOp(e.ops[i].op) != Op::entry_value) continue;
    for (size_t j = i + 1, end = e.endOf(i); j < end; j = e.endOf(j)) nested[i] += total[j];
    total[i] += ulebSize(nested[i]) + nested[i];
  }
  for (size_t i = 0; i < n; ++i) {
    emitOwn(e, i, f, out);
    if (standardOp(e.ops[i].op) == Op::entry_value) writeUleb(out, nested[i]);
  }
}

} // namespace

void encode(const Expression& expr, const ExprFormat& format, std::vector<uint8_t>& out) {
  out.clear();
  checkFormat(format);
  encodeAll(expr, format, out);
}

std::vector<uint8_t> encode(const Expression& expr, const ExprFormat& format) {
  std::vector<uint8_t> out;
  encode(expr, format, out);
  return out;
}

} // namespace abikit::dwarf
