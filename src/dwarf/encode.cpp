// Operations → bytes: minimal LEB128s, the extension codes of the chosen encoding, and an
// Unencodable error (never an invented code) where the encoding has none or an operand does not
// fit its field. A DW_OP_entry_value's nested expression is encoded first and its length put in
// front of it.
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

unsigned fixedSize(OperandKind k, const ExprFormat& f) {
  switch (k) {
  case OperandKind::U1:
  case OperandKind::S1:
  case OperandKind::BlockU1:
    return 1;
  case OperandKind::U2:
  case OperandKind::S2:
    return 2;
  case OperandKind::U4:
  case OperandKind::S4:
    return 4;
  case OperandKind::U8:
  case OperandKind::S8:
    return 8;
  case OperandKind::Addr:
    return f.address_size;
  case OperandKind::Ref:
    return f.offset_size;
  default:
    return 0;
  }
}

class Encoder {
public:
  Encoder(const Expression& e, const ExprFormat& f, std::vector<uint8_t>& out)
      : e_(e), f_(f), out_(out) {}

  // Encodes ops[i, end) (one nesting level and what is nested in it); returns end.
  size_t run(size_t i, size_t end) {
    while (i < end) i = one(i);
    return end;
  }

private:
  size_t one(size_t i) {
    const Operation& op = e_.ops[i];
    const OpInfo& info = opInfo(op.op);
    if (!info.extension) {
      out_.push_back(uint8_t(info.code));
    } else {
      int code = extensionCode(info, f_.encoding);
      if (code < 0)
        unencodable(i, std::string(info.name) + " has no code in the " +
                           std::string(extEncodingName(f_.encoding)) + " encoding");
      if (f_.encoding == ExtEncoding::User) {
        out_.push_back(kLlvmUser);
        writeUleb(out_, uint64_t(code));
      } else {
        out_.push_back(uint8_t(code));
      }
    }
    for (int k = 0; k < 2; ++k) {
      OperandKind kind = info.operand[k];
      switch (kind) {
      case OperandKind::None:
        break;
      case OperandKind::U1:
      case OperandKind::U2:
      case OperandKind::U4:
      case OperandKind::U8:
      case OperandKind::Addr:
      case OperandKind::Ref: {
        unsigned n = fixedSize(kind, f_);
        if (n < 8 && op.u[k] >> (8 * n))
          unencodable(i, std::string(info.name) + ": operand " + std::to_string(op.u[k]) +
                             " does not fit in " + std::to_string(n) + " bytes");
        writeFixed(out_, n, op.u[k], f_.endian);
        break;
      }
      case OperandKind::S1:
      case OperandKind::S2:
      case OperandKind::S4:
      case OperandKind::S8: {
        unsigned n = fixedSize(kind, f_);
        unsigned shift = 64 - 8 * n;
        if (n < 8 && (int64_t(uint64_t(op.s) << shift) >> shift) != op.s)
          unencodable(i, std::string(info.name) + ": operand " + std::to_string(op.s) +
                             " does not fit in " + std::to_string(n) + " signed bytes");
        writeFixed(out_, n, uint64_t(op.s), f_.endian);
        break;
      }
      case OperandKind::Uleb:
        writeUleb(out_, op.u[k]);
        break;
      case OperandKind::Sleb:
        writeSleb(out_, op.s);
        break;
      case OperandKind::Block:
      case OperandKind::BlockU1: {
        if (op.block > e_.blocks.size() || op.u[k] > e_.blocks.size() - op.block)
          unencodable(i,
                      std::string(info.name) + ": the block lies outside the expression's bytes");
        if (kind == OperandKind::Block)
          writeUleb(out_, op.u[k]);
        else if (op.u[k] > 0xff)
          unencodable(i, std::string(info.name) + ": a block of " + std::to_string(op.u[k]) +
                             " bytes does not fit a one-byte length");
        else
          out_.push_back(uint8_t(op.u[k]));
        auto b = e_.blockOf(op, k);
        out_.insert(out_.end(), b.begin(), b.end());
        break;
      }
      case OperandKind::Expr: {
        size_t end = e_.endOf(i);
        if (end > e_.ops.size())
          unencodable(i, "DW_OP_entry_value: more nested operations than the expression has");
        for (size_t j = i + 1; j < end; ++j)
          if (e_.ops[j].depth <= op.depth)
            unencodable(i, "DW_OP_entry_value: a nested operation is not nested deeper");
        // The nested bytes go to the end of out_ and are then moved behind their length.
        size_t at = out_.size();
        run(i + 1, end);
        std::vector<uint8_t> len;
        writeUleb(len, out_.size() - at);
        out_.insert(out_.begin() + std::ptrdiff_t(at), len.begin(), len.end());
        return end;
      }
      }
    }
    return i + 1;
  }

  const Expression& e_;
  const ExprFormat& f_;
  std::vector<uint8_t>& out_;
};

} // namespace

void encode(const Expression& expr, const ExprFormat& format, std::vector<uint8_t>& out) {
  out.clear();
  if (format.address_size != 4 && format.address_size != 8)
    throw Error(ErrorKind::Input, "DWARF address size " + std::to_string(format.address_size) +
                                      " is not supported (4 or 8)");
  if (format.offset_size != 4 && format.offset_size != 8)
    throw Error(ErrorKind::Input, "DWARF offset size " + std::to_string(format.offset_size) +
                                      " is not 4 (DWARF32) or 8 (DWARF64)");
  Encoder(expr, format, out).run(0, expr.ops.size());
}

std::vector<uint8_t> encode(const Expression& expr, const ExprFormat& format) {
  std::vector<uint8_t> out;
  encode(expr, format, out);
  return out;
}

} // namespace abikit::dwarf
