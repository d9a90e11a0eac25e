// Bytes → operations (reference dwarf.md §1.1-§1.4). One pass over the bytes: each operation's
// operands are read as the table says; a DW_OP_entry_value's nested expression is decoded in
// place (its operations follow it, one level deeper), bounded by its length. Every error names
// the byte offset of the operation that fails.
#include "abikit/dwarf.h"
#include "bytes.h"
#include "small_stack.h"

#include <array>
#include <cstdint>
#include <limits>

namespace abikit::dwarf {

namespace {

using detail::ByteReader;
using detail::ReadStatus;

constexpr int16_t kNone = -1;
constexpr int16_t kUserPrefix = -2;

// For each encoding: opcode byte → Op (kNone: unknown; kUserPrefix: DW_OP_LLVM_user), and the
// DW_OP_LLVM_user sub-opcodes → Op.
struct CodeTables {
  std::array<std::array<int16_t, 256>, 3> byte{};
  std::array<int16_t, 64> sub{};
  CodeTables() {
    for (auto& t : byte) t.fill(kNone);
    sub.fill(kNone);
    for (const OpInfo& info : allOps()) {
      if (!info.extension) {
        for (auto& t : byte) t[size_t(info.code)] = int16_t(info.op);
        continue;
      }
      if (info.user >= 0) sub[size_t(info.user)] = int16_t(info.op);
      if (info.legacy >= 0)
        byte[size_t(ExtEncoding::Legacy)][size_t(info.legacy)] = int16_t(info.op);
      if (info.seed_draft >= 0)
        byte[size_t(ExtEncoding::SeedDraft)][size_t(info.seed_draft)] = int16_t(info.op);
    }
    byte[size_t(ExtEncoding::User)][kLlvmUser] = kUserPrefix;
  }
};

const CodeTables& codeTables() {
  static const CodeTables kTables;
  return kTables;
}

[[noreturn]] void fail(ExprErrorKind kind, size_t at, std::string detail) {
  throw ExprError(kind, ExprError::Where::Byte, at, std::move(detail));
}

std::string hexByte(unsigned b) {
  static const char kDigits[] = "0123456789abcdef";
  return std::string("0x") + kDigits[(b >> 4) & 15] + kDigits[b & 15];
}

class Decoder {
public:
  Decoder(std::span<const uint8_t> bytes, const ExprFormat& format, Expression& out)
      : r_(bytes, format.endian), format_(format), out_(out), tables_(codeTables()),
        ops_(allOps().data()) {}

  // After a failure: out holds the operations before the one that failed.
  void dropPartial() {
    if (partial_) out_.ops.pop_back();
    partial_ = false;
  }

  void run() {
    while (true) {
      while (!scopes_.empty() && r_.pos() == scopes_.back().end) closeScope();
      if (r_.atEnd()) break;
      operation();
    }
  }

private:
  struct Scope {
    size_t op; // index of the DW_OP_entry_value
    size_t end;
  };

  void closeScope() {
    Operation& e = out_.ops[scopes_.back().op];
    e.u[1] = out_.ops.size() - scopes_.back().op - 1;
    e.size = uint32_t(scopes_.back().end - e.offset);
    scopes_.pop();
    r_.setLimit(scopes_.empty() ? r_.fullSize() : scopes_.back().end);
  }

  void check(ReadStatus s, const OpInfo& info, const char* what) {
    if (s != ReadStatus::Ok) [[unlikely]]
      readFailed(s, info, what);
  }
  [[noreturn]] void readFailed(ReadStatus s, const OpInfo& info, const char* what) {
    std::string where = scopes_.empty() ? "the expression" : "the DW_OP_entry_value expression";
    if (s == ReadStatus::Truncated)
      fail(ExprErrorKind::Truncated, start_,
           std::string(info.name) + ": " + what + " runs past the end of " + where);
    fail(ExprErrorKind::Overflow, start_,
         std::string(info.name) + ": " + what + " does not fit in 64 bits");
  }

  void operation() {
    start_ = r_.pos();
    uint64_t code = 0;
    r_.fixed(1, code);
    int16_t id = tables_.byte[size_t(format_.encoding)][size_t(code)];
    if (id == kUserPrefix) {
      uint64_t sub = 0;
      ReadStatus st = r_.uleb(sub);
      if (st == ReadStatus::Truncated)
        fail(ExprErrorKind::Truncated, start_, "DW_OP_LLVM_user: the sub-opcode runs past the end");
      if (st == ReadStatus::Overflow)
        fail(ExprErrorKind::Overflow, start_,
             "DW_OP_LLVM_user: the sub-opcode does not fit in 64 bits");
      if (sub == 0)
        fail(ExprErrorKind::ReservedSubOpcode, start_, "DW_OP_LLVM_user sub-opcode 0 is reserved");
      id = sub < tables_.sub.size() ? tables_.sub[size_t(sub)] : kNone;
      if (id == kNone)
        fail(ExprErrorKind::UnknownSubOpcode, start_,
             "DW_OP_LLVM_user sub-opcode " + std::to_string(sub) + " is not assigned");
    } else if (id == kNone) {
      fail(ExprErrorKind::UnknownOpcode, start_,
           "opcode " + hexByte(unsigned(code)) + " is no operation in the " +
               std::string(extEncodingName(format_.encoding)) + " encoding");
    }
    const OpInfo& info = ops_[size_t(id)];
    // Built in place (a copy from the stack costs more than the rest of the operation): until
    // its operands are read, it is the partial operation dropPartial() removes.
    size_t index = out_.ops.size();
    Operation& op = out_.ops.emplace_back();
    partial_ = true;
    op.op = info.op;
    op.depth = uint32_t(scopes_.size());
    op.offset = uint32_t(start_);
    for (int i = 0; i < 2; ++i) operand(info, i, op);
    op.size = uint32_t(r_.pos() - start_);
    partial_ = false;
    if (standardOp(info.op) == Op::entry_value) {
      scopes_.push({index, r_.pos() + size_t(op.u[0])});
      r_.setLimit(scopes_.back().end);
    }
  }

  void operand(const OpInfo& info, int i, Operation& op) {
    uint64_t v = 0;
    switch (info.operand[i]) {
    case OperandKind::None:
      return;
    case OperandKind::U1:
    case OperandKind::U2:
    case OperandKind::U4:
    case OperandKind::U8: {
      unsigned n = info.operand[i] == OperandKind::U1   ? 1
                   : info.operand[i] == OperandKind::U2 ? 2
                   : info.operand[i] == OperandKind::U4 ? 4
                                                        : 8;
      check(r_.fixed(n, v), info, "a fixed-size operand");
      op.u[i] = v;
      return;
    }
    case OperandKind::S1:
    case OperandKind::S2:
    case OperandKind::S4:
    case OperandKind::S8: {
      unsigned n = info.operand[i] == OperandKind::S1   ? 1
                   : info.operand[i] == OperandKind::S2 ? 2
                   : info.operand[i] == OperandKind::S4 ? 4
                                                        : 8;
      check(r_.fixed(n, v), info, "a fixed-size operand");
      unsigned shift = 64 - 8 * n;
      op.s = int64_t(v << shift) >> shift;
      return;
    }
    case OperandKind::Uleb:
      check(r_.uleb(op.u[i]), info, "a ULEB128 operand");
      return;
    case OperandKind::Sleb:
      check(r_.sleb(op.s), info, "a SLEB128 operand");
      return;
    case OperandKind::Addr:
      check(r_.fixed(format_.address_size, op.u[i]), info, "the address");
      return;
    case OperandKind::Ref:
      check(r_.fixed(format_.offset_size, op.u[i]), info, "the DIE offset");
      return;
    case OperandKind::Block:
    case OperandKind::BlockU1: {
      if (info.operand[i] == OperandKind::Block)
        check(r_.uleb(v), info, "the block length");
      else
        check(r_.fixed(1, v), info, "the block length");
      if (v > r_.left()) check(ReadStatus::Truncated, info, "the block");
      op.u[i] = v;
      op.block = uint32_t(out_.blocks.size());
      out_.blocks.insert(out_.blocks.end(), r_.data() + r_.pos(), r_.data() + r_.pos() + v);
      r_.skip(v);
      return;
    }
    case OperandKind::Expr:
      check(r_.uleb(v), info, "the expression length");
      if (v > r_.left()) check(ReadStatus::Truncated, info, "the nested expression");
      op.u[i] = v;
      return;
    }
  }

  ByteReader r_;
  const ExprFormat& format_;
  Expression& out_;
  const CodeTables& tables_;
  const OpInfo* ops_; // the operation table, indexed by Op
  detail::SmallStack<Scope, 16> scopes_;
  size_t start_ = 0;
  bool partial_ = false;
};

} // namespace

void decode(std::span<const uint8_t> bytes, const ExprFormat& format, Expression& out) {
  out.clear();
  checkFormat(format);
  if (bytes.size() > std::numeric_limits<uint32_t>::max())
    throw Error(ErrorKind::Input, "a DWARF expression of 4 GiB or more is not supported");
  Decoder d(bytes, format, out);
  try {
    d.run();
  } catch (...) {
    d.dropPartial();
    throw;
  }
}

Expression decode(std::span<const uint8_t> bytes, const ExprFormat& format) {
  Expression e;
  decode(bytes, format, e);
  return e;
}

} // namespace abikit::dwarf
