// encode∘decode = identity (and the canonical text survives parse and print) on seeded generated
// expressions: every operation of each encoding, LEB128 edge values, address sizes 4 and 8, 32-
// and 64-bit DWARF, both byte orders; and every single operation on its own.
#include "../support/dwarf_expr_gen.h"
#include "abikit/dwarf.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit::dwarf;

void roundTrip(const Expression& gen, const ExprFormat& f) {
  std::string text = toText(gen);
  std::vector<uint8_t> bytes = encode(gen, f);
  Expression back = decode(bytes, f);
  ASSERT_EQ(toText(back), text);
  ASSERT_EQ(encode(back, f), bytes) << text;
  ASSERT_EQ(encode(parseText(text), f), bytes) << text;
  ASSERT_EQ(back.ops.size(), gen.ops.size());
  // Offsets and sizes tile the bytes (an entry_value's size includes its nested operations).
  size_t expect = 0;
  for (size_t i = 0; i < back.ops.size(); ++i) {
    const Operation& op = back.ops[i];
    ASSERT_EQ(op.depth, gen.ops[i].depth);
    ASSERT_EQ(op.offset, expect) << text;
    expect = op.op == Op::entry_value ? op.offset + op.size - op.u[0] : op.offset + op.size;
  }
  ASSERT_EQ(expect, bytes.size());
}

TEST(DwarfRoundTrip, GeneratedExpressionsInEveryFormat) {
  const ExtEncoding encodings[] = {ExtEncoding::User, ExtEncoding::Legacy, ExtEncoding::SeedDraft};
  size_t checked = 0;
  uint64_t seed = 1;
  for (ExtEncoding enc : encodings)
    for (uint8_t addr : {4, 8})
      for (uint8_t off : {4, 8})
        for (abikit::Endian endian : {abikit::Endian::Little, abikit::Endian::Big}) {
          abikit::test::ExprGenOptions o;
          o.format.encoding = enc;
          o.format.address_size = addr;
          o.format.offset_size = off;
          o.format.endian = endian;
          abikit::test::ExprGenerator gen(seed++, o);
          for (int i = 0; i < 400; ++i) {
            Expression e = gen.next();
            roundTrip(e, o.format);
            if (HasFatalFailure()) return;
            ++checked;
          }
        }
  EXPECT_EQ(checked, 3u * 2 * 2 * 2 * 400);
}

TEST(DwarfRoundTrip, EveryOperationAlone) {
  const ExtEncoding encodings[] = {ExtEncoding::User, ExtEncoding::Legacy, ExtEncoding::SeedDraft};
  for (ExtEncoding enc : encodings) {
    abikit::test::ExprGenOptions o;
    o.format.encoding = enc;
    abikit::test::ExprGenerator gen(7, o);
    size_t ops = 0;
    for (Op op : abikit::test::encodableOps(o.format)) {
      for (int rep = 0; rep < 50; ++rep) {
        Expression e;
        gen.add(e, op, 0);
        roundTrip(e, o.format);
        if (HasFatalFailure()) return;
      }
      ++ops;
    }
    // DWARF 5's 166 operations and the extensions each encoding codes (§1.3).
    EXPECT_EQ(ops, enc == ExtEncoding::SeedDraft ? 164u + 3 : 164u + 12);
  }
}

TEST(DwarfRoundTrip, DeepNestingNeedsNoRecursion) {
  // 100,000 nested DW_OP_entry_values: parsed, encoded, decoded and printed without recursion
  // (a recursive codec would overflow the stack) and in linear time.
  const size_t n = 100000;
  std::string text;
  for (size_t i = 0; i < n; ++i) text += "DW_OP_entry_value (";
  text += "DW_OP_nop";
  text.append(n, ')');
  ExprFormat f;
  Expression e = parseText(text);
  ASSERT_EQ(e.ops.size(), n + 1);
  EXPECT_EQ(e.ops[0].u[1], n);
  std::vector<uint8_t> bytes = encode(e, f);
  Expression back = decode(bytes, f);
  ASSERT_EQ(back.ops.size(), n + 1);
  EXPECT_EQ(back.ops[n].depth, n);
  EXPECT_EQ(back.ops[0].size, bytes.size());
  EXPECT_EQ(toText(back), text);
  EXPECT_EQ(encode(back, f), bytes);
  EXPECT_EQ(toDisplay(back, DisplayOptions{}).size(), text.size() - n); // "DW_OP_entry_value("
  // Nested expressions of 126-129 bytes (an implicit_value of len - 2 bytes): the length's
  // LEB128 grows from one byte to two.
  for (size_t len : {126, 127, 128, 129}) {
    Expression one = parseText("DW_OP_entry_value (DW_OP_implicit_value 0x" +
                               std::string(1, "0123456789abcdef"[(len - 2) / 16]) +
                               std::string(1, "0123456789abcdef"[(len - 2) % 16]) + " [" +
                               [&] {
                                 std::string b;
                                 for (size_t i = 0; i < len - 2; ++i) b += i ? " 00" : "00";
                                 return b;
                               }() +
                               "])");
    std::vector<uint8_t> b1 = encode(one, f);
    EXPECT_EQ(decode(b1, f).ops[0].u[0], len);
  }
}

TEST(DwarfRoundTrip, DecodingIsBoundedOnRandomBytes) {
  // Random bytes either decode (and then encode back to a decodable expression with the same
  // text) or fail with an ExprError; never anything else.
  std::mt19937_64 rng(99);
  ExprFormat f;
  size_t ok = 0;
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> b(rng() % 24);
    for (uint8_t& x : b) x = uint8_t(rng() % 4 ? rng() % 0xb0 : rng());
    try {
      Expression e = decode(b, f);
      EXPECT_EQ(toText(decode(encode(e, f), f)), toText(e));
      ++ok;
    } catch (const ExprError&) {
    }
  }
  EXPECT_GT(ok, 100u);
}

} // namespace
