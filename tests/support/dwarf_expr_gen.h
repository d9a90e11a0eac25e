// A seeded generator of valid DWARF expressions (abikit::dwarf::Expression) for the round-trip
// unit tests and the differential test against llvm-dwarfdump-22: every operation the encoding
// can code (or only those in `only`), LEB128 edge values, fixed-size operands at their limits,
// blocks and nested DW_OP_entry_value expressions. Header-only.
#pragma once

#include "abikit/dwarf.h"

#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace abikit::test {

struct ExprGenOptions {
  dwarf::ExprFormat format;
  size_t max_ops = 8;                   // top-level operations: 0..max_ops
  uint32_t max_depth = 2;               // entry_value nesting
  std::span<const uint64_t> base_types; // DIE offsets for base-type operands (empty: any value)
  /// Operations to draw from (empty: every operation the encoding codes).
  std::vector<dwarf::Op> only;
};

/// The operations `format` can encode.
inline std::vector<dwarf::Op> encodableOps(const dwarf::ExprFormat& format) {
  std::vector<dwarf::Op> out;
  // GNU operations are other codes for DWARF 5 ones (dwarf::standardOp): not generated.
  for (const dwarf::OpInfo& info : dwarf::allOps())
    if ((!info.extension || dwarf::extensionCode(info, format.encoding) >= 0) &&
        !info.name.starts_with("DW_OP_GNU_"))
      out.push_back(info.op);
  return out;
}

class ExprGenerator {
public:
  ExprGenerator(uint64_t seed, ExprGenOptions options)
      : rng_(seed), o_(std::move(options)),
        ops_(o_.only.empty() ? encodableOps(o_.format) : o_.only) {}

  dwarf::Expression next() {
    dwarf::Expression e;
    size_t n = pick(o_.max_ops + 1);
    for (size_t i = 0; i < n; ++i) add(e, ops_[pick(ops_.size())], 0);
    return e;
  }

  /// One operation `op` (with nested operations for entry_value) appended to `e`.
  void add(dwarf::Expression& e, dwarf::Op op, uint32_t depth) {
    using K = dwarf::OperandKind;
    const dwarf::OpInfo& info = dwarf::opInfo(op);
    dwarf::Operation o;
    o.op = op;
    o.depth = depth;
    size_t index = e.ops.size();
    bool base_type_operand[2] = {op == dwarf::Op::const_type || op == dwarf::Op::convert ||
                                     op == dwarf::Op::reinterpret,
                                 op == dwarf::Op::regval_type || op == dwarf::Op::deref_type ||
                                     op == dwarf::Op::xderef_type};
    for (int k = 0; k < 2; ++k) {
      K kind = info.operand[k];
      switch (kind) {
      case K::None:
      case K::Expr:
        break;
      case K::U1:
        o.u[k] = fixed(1);
        break;
      case K::U2:
        o.u[k] = fixed(2);
        break;
      case K::U4:
        o.u[k] = fixed(4);
        break;
      case K::U8:
        o.u[k] = fixed(8);
        break;
      case K::Addr:
        o.u[k] = fixed(o_.format.address_size);
        break;
      case K::Ref:
        o.u[k] = fixed(o_.format.offset_size);
        break;
      case K::S1:
      case K::S2:
      case K::S4:
      case K::S8: {
        unsigned n = kind == K::S1 ? 1 : kind == K::S2 ? 2 : kind == K::S4 ? 4 : 8;
        unsigned shift = 64 - 8 * n;
        o.s = int64_t(fixed(n) << shift) >> shift;
        break;
      }
      case K::Uleb:
        if (base_type_operand[k] && !o_.base_types.empty()) {
          bool generic = (op == dwarf::Op::convert || op == dwarf::Op::reinterpret) && pick(4) == 0;
          o.u[k] = generic ? 0 : o_.base_types[pick(o_.base_types.size())];
        } else {
          o.u[k] = uleb();
        }
        break;
      case K::Sleb:
        o.s = sleb();
        break;
      case K::Block:
      case K::BlockU1: {
        size_t n = pick(4) == 0 ? pick(300) : pick(9);
        if (kind == K::BlockU1 && n > 255) n = 255;
        o.block = uint32_t(e.blocks.size());
        for (size_t i = 0; i < n; ++i) e.blocks.push_back(uint8_t(rng_()));
        o.u[k] = n;
        break;
      }
      }
    }
    e.ops.push_back(o);
    if (op == dwarf::Op::entry_value) {
      size_t n = depth + 1 > o_.max_depth ? 0 : pick(4);
      for (size_t i = 0; i < n; ++i) add(e, ops_[pick(ops_.size())], depth + 1);
      e.ops[index].u[1] = e.ops.size() - index - 1;
    }
  }

  std::mt19937_64& rng() { return rng_; }

private:
  size_t pick(size_t n) { return n ? size_t(rng_() % n) : 0; }

  // Unsigned n-byte values: the limits and random ones.
  uint64_t fixed(unsigned n) {
    uint64_t max = n == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * n)) - 1;
    switch (pick(6)) {
    case 0:
      return 0;
    case 1:
      return max;
    case 2:
      return max >> 1; // the largest positive signed value
    case 3:
      return (max >> 1) + 1; // the smallest negative one
    default:
      return rng_() & max;
    }
  }

  // LEB128 edge values: one-, two-, ... ten-byte boundaries.
  uint64_t uleb() {
    static constexpr uint64_t kEdges[] = {0,
                                          1,
                                          63,
                                          64,
                                          127,
                                          128,
                                          0x3fff,
                                          0x4000,
                                          0x1fffff,
                                          0x200000,
                                          0xffffffffull,
                                          0x100000000ull,
                                          0x7fffffffffffffffull,
                                          0x8000000000000000ull,
                                          0xffffffffffffffffull};
    switch (pick(3)) {
    case 0:
      return kEdges[pick(std::size(kEdges))];
    case 1:
      return rng_() >> pick(64);
    default:
      return rng_() & 0xfff;
    }
  }

  int64_t sleb() {
    static constexpr int64_t kEdges[] = {0,
                                         1,
                                         -1,
                                         63,
                                         64,
                                         -64,
                                         -65,
                                         8191,
                                         8192,
                                         -8192,
                                         -8193,
                                         std::numeric_limits<int32_t>::max(),
                                         std::numeric_limits<int32_t>::min(),
                                         std::numeric_limits<int64_t>::max(),
                                         std::numeric_limits<int64_t>::min()};
    switch (pick(3)) {
    case 0:
      return kEdges[pick(std::size(kEdges))];
    case 1:
      return int64_t(rng_()) >> pick(64);
    default:
      return int64_t(rng_() % 257) - 128;
    }
  }

  std::mt19937_64 rng_;
  ExprGenOptions o_;
  std::vector<dwarf::Op> ops_;
};

} // namespace abikit::test
