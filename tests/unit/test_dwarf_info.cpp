// The debug-information reader over hand-built sections: unit headers of DWARF 4 and 5, 32- and
// 64-bit; forms (strx, addrx, implicit_const, indirect, data16, ref_addr); location lists of
// DWARF 5 (loclistx, base_addressx, offset_pair, default) and DWARF 4 (base selection); scopes
// and variables at an address (transparent blocks, inlined subroutines, constants); the static
// reading of a location (places); and every malformed input failing with its file offset.
#include "../support/dwarf_builder.h"
#include "abikit/dwarf_info.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit;
using namespace abikit::dwarf;
using test::DwarfBuilder;

// Abbreviation codes of the builder's standard table.
enum : uint8_t { kCu = 1, kSub, kVar, kParam, kBlock, kBase, kInlined, kVarConst, kVarList };

// A unit with: CU [0x1000, 0x1100) -> base type "int" -> subprogram f [0x1000, 0x1080) with
// frame base DW_OP_reg8, parameter x (exprloc reg10), variable y (loclist), a block
// [0x1010, 0x1020) with variable z (fbreg -8), a block without ranges with variable t (lit7,
// stack_value), and a variable c with const_value 42.
DwarfBuilder standardUnit(unsigned version, bool dwarf64) {
  DwarfBuilder b(version, dwarf64, 8);
  b.abbrev(kCu, DW_TAG_compile_unit, true,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_low_pc, DW_FORM_addr},
            {DW_AT_high_pc, DW_FORM_data4},
            {DW_AT_loclists_base, DW_FORM_sec_offset}});
  b.abbrev(kBase, DW_TAG_base_type, false,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_byte_size, DW_FORM_data1},
            {DW_AT_encoding, DW_FORM_data1}});
  b.abbrev(kSub, DW_TAG_subprogram, true,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_low_pc, DW_FORM_addr},
            {DW_AT_high_pc, DW_FORM_data4},
            {DW_AT_frame_base, DW_FORM_exprloc}});
  b.abbrev(kParam, DW_TAG_formal_parameter, false,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_type, DW_FORM_ref4},
            {DW_AT_location, DW_FORM_exprloc}});
  b.abbrev(kVarList, DW_TAG_variable, false,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_type, DW_FORM_ref4},
            {DW_AT_location, version >= 5 ? DW_FORM_loclistx : DW_FORM_sec_offset}});
  b.abbrev(kBlock, DW_TAG_lexical_block, true,
           {{DW_AT_low_pc, DW_FORM_addr}, {DW_AT_high_pc, DW_FORM_data4}});
  b.abbrev(kVar, DW_TAG_variable, false,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_type, DW_FORM_ref4},
            {DW_AT_location, DW_FORM_exprloc}});
  b.abbrev(kInlined, DW_TAG_lexical_block, true, {}); // a block without code ranges
  b.abbrev(kVarConst, DW_TAG_variable, false,
           {{DW_AT_name, DW_FORM_string},
            {DW_AT_type, DW_FORM_ref4},
            {DW_AT_const_value, DW_FORM_sdata}});
  b.endAbbrevs();

  // The location list of y: [0x1000, 0x1008) reg11; [0x1008, 0x1040) fbreg -16.
  if (version >= 5) {
    b.loclistsHeader(1);
    b.beginList(0);
    b.lleOffsetPair(0x0, 0x8, {0x5b});            // DW_OP_reg11
    b.lleStartLength(0x1008, 0x38, {0x91, 0x70}); // DW_OP_fbreg -16
    b.lleEnd();
  } else {
    b.beginLocList();
    b.locPair(0x0, 0x8, {0x5b}); // relative to the unit's base address, 0x1000
    b.locBase(0);                // a base selection entry: addresses are absolute from here
    b.locPair(0x1008, 0x1040, {0x91, 0x70});
    b.locEnd();
  }

  b.die(kCu).string("a.c").addr(0x1000).u32(0x100).offset(b.loclistsBase());
  const uint64_t int_ref = b.here();
  b.die(kBase).string("int").u8(4).u8(5);
  b.die(kSub).string("f").addr(0x1000).u32(0x80).exprloc({0x58}); // DW_OP_reg8
  b.die(kParam).string("x").ref4(int_ref).exprloc({0x5a});        // DW_OP_reg10
  b.die(kVarList).string("y").ref4(int_ref).listRef(0);
  b.die(kBlock).addr(0x1010).u32(0x10);
  b.die(kVar).string("z").ref4(int_ref).exprloc({0x91, 0x78}); // DW_OP_fbreg -8
  b.end();
  b.die(kInlined);
  b.die(kVar).string("t").ref4(int_ref).exprloc({0x37, 0x9f}); // DW_OP_lit7, DW_OP_stack_value
  b.end();
  b.die(kVarConst).string("c").ref4(int_ref).sleb(42);
  b.end(); // f
  b.end(); // CU
  b.finishUnit();
  return b;
}

std::vector<std::string> names(const VariablesAt& at) {
  std::vector<std::string> out;
  for (const VariableAt& v : at.variables) out.push_back(v.name);
  return out;
}

class DwarfInfoUnit : public testing::TestWithParam<std::tuple<unsigned, bool>> {};

TEST_P(DwarfInfoUnit, HeaderDiesAndScopes) {
  auto [version, dwarf64] = GetParam();
  DwarfBuilder b = standardUnit(version, dwarf64);
  DebugInfo info(b.sections());
  ASSERT_EQ(info.units().size(), 1u);
  const Unit& u = info.units()[0];
  EXPECT_EQ(u.header.version, version);
  EXPECT_EQ(u.header.offset_size, dwarf64 ? 8 : 4);
  EXPECT_EQ(u.header.address_size, 8);
  EXPECT_EQ(u.dies.size(), 10u);
  EXPECT_EQ(u.dies[0].tag, DW_TAG_compile_unit);
  EXPECT_EQ(u.dies[0].next, 10u);
  EXPECT_EQ(u.base_address, 0x1000u);
  EXPECT_EQ(info.name(u, u.dies[2]), "f");

  // Inside the block: z (innermost first), then f's own: x, y, t (transparent block), c.
  VariablesAt at = variablesAt(info, 0x1014);
  ASSERT_TRUE(at.found);
  EXPECT_EQ(at.function, "f");
  EXPECT_EQ(names(at), (std::vector<std::string>{"z", "x", "y", "t", "c"}));
  ASSERT_TRUE(at.has_frame_base);
  EXPECT_EQ(std::vector<uint8_t>(at.frame_base.begin(), at.frame_base.end()),
            std::vector<uint8_t>{0x58});
  const VariableAt& y = at.variables[2];
  EXPECT_TRUE(y.from_list);
  EXPECT_EQ(std::vector<uint8_t>(y.expression.begin(), y.expression.end()),
            (std::vector<uint8_t>{0x91, 0x70}));
  EXPECT_EQ(y.type, "int");
  const VariableAt& c = at.variables[4];
  EXPECT_EQ(c.kind, VariableAt::Kind::Constant);
  EXPECT_EQ(c.constant, (std::vector<uint8_t>{42, 0, 0, 0})); // the type's 4 bytes

  // Outside the block; y from the first list entry.
  at = variablesAt(info, 0x1004);
  EXPECT_EQ(names(at), (std::vector<std::string>{"x", "y", "t", "c"}));
  EXPECT_EQ(at.variables[1].expression[0], 0x5b);
  // Past y's list: optimised out there.
  at = variablesAt(info, 0x1070);
  EXPECT_EQ(at.variables[1].kind, VariableAt::Kind::OptimizedOut);
  // No function there.
  EXPECT_FALSE(variablesAt(info, 0x1090).found);
  EXPECT_FALSE(variablesAt(info, 0x0fff).found);
}

INSTANTIATE_TEST_SUITE_P(Versions, DwarfInfoUnit,
                         testing::Values(std::tuple{5u, false}, std::tuple{5u, true},
                                         std::tuple{4u, false}, std::tuple{4u, true}));

TEST(DwarfInfo, Places) {
  auto placesOf = [](std::vector<uint8_t> bytes) { return places(decode(bytes, ExprFormat{})); };
  auto p = placesOf({0x5a}); // reg10
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].kind, Place::Kind::Register);
  EXPECT_EQ(p[0].reg, 10u);
  EXPECT_EQ(p[0].bits, 0u);
  p = placesOf({0x91, 0x70}); // fbreg -16
  EXPECT_EQ(p[0].kind, Place::Kind::Memory);
  EXPECT_TRUE(p[0].frame_base);
  EXPECT_EQ(p[0].offset, -16);
  p = placesOf({0x72, 0x08}); // breg2 +8
  EXPECT_TRUE(p[0].has_reg);
  EXPECT_EQ(p[0].reg, 2u);
  EXPECT_EQ(p[0].offset, 8);
  // piece 8 (empty: optimised out), reg13 piece 8
  p = placesOf({0x93, 0x08, 0x5d, 0x93, 0x08});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].kind, Place::Kind::OptimizedOut);
  EXPECT_EQ(p[0].bits, 64u);
  EXPECT_EQ(p[1].kind, Place::Kind::Register);
  EXPECT_EQ(p[1].reg, 13u);
  // lit3 stack_value piece 4; constu 300 stack_value bit_piece 12 0
  p = placesOf({0x33, 0x9f, 0x93, 0x04, 0x10, 0xac, 0x02, 0x9f, 0x9d, 0x0c, 0x00});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].kind, Place::Kind::Value);
  EXPECT_EQ(p[0].address, 3u);
  EXPECT_EQ(p[1].kind, Place::Kind::Value);
  EXPECT_EQ(p[1].address, 300u);
  EXPECT_EQ(p[1].bits, 12u);
  // breg15 0, breg11 0, div, stack_value: computed
  p = placesOf({0x7f, 0x00, 0x7b, 0x00, 0x1b, 0x9f});
  EXPECT_EQ(p[0].kind, Place::Kind::Expression);
  EXPECT_EQ(p[0].first, 0u);
  EXPECT_EQ(p[0].end, 4u);
  EXPECT_EQ(placesOf({})[0].kind, Place::Kind::OptimizedOut);

  // AMDGPU's address-space markers: clang-22 (lit5 private, lit3 LDS) and clang-14/19 (lit1
  // private, lit2 LDS); without the target, or with a marker it does not list, computed.
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx90a";
  const Target amd = resolveTarget(o);
  auto amdPlaces = [&](std::vector<uint8_t> bytes) {
    return places(decode(bytes, ExprFormat{}), &amd.dwarf);
  };
  p = amdPlaces({0x91, 0x08, 0x35, 0x16, 0x18}); // fbreg 8, lit5, swap, xderef
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].kind, Place::Kind::Memory);
  EXPECT_TRUE(p[0].frame_base);
  EXPECT_EQ(p[0].offset, 8);
  EXPECT_EQ(p[0].space, 5u); // private_lane
  EXPECT_EQ(p[0].end, 4u);
  p = amdPlaces({0x91, 0x08, 0x31, 0x16, 0x18}); // the same, clang-14/19's lit1
  EXPECT_EQ(p[0].space, 5u);
  // bregx VGPR4 0, lit3, swap, xderef, piece 4; bregx VGPR5 0, lit2, swap, xderef, piece 4
  p = amdPlaces({0x92, 0x84, 0x14, 0x00, 0x33, 0x16, 0x18, 0x93, 0x04, 0x92, 0x85, 0x14, 0x00, 0x32,
                 0x16, 0x18, 0x93, 0x04});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].space, 3u); // local
  EXPECT_TRUE(p[0].has_reg);
  EXPECT_EQ(p[0].reg, 2564u);
  EXPECT_EQ(p[1].space, 3u);
  EXPECT_EQ(p[1].reg, 2565u);
  EXPECT_EQ(amdPlaces({0x91, 0x08, 0x34, 0x16, 0x18})[0].kind, Place::Kind::Expression); // lit4
  EXPECT_EQ(placesOf({0x91, 0x08, 0x35, 0x16, 0x18})[0].kind, Place::Kind::Expression);
  // A stack value after the marker is a value, not a location: computed.
  EXPECT_EQ(amdPlaces({0x91, 0x08, 0x35, 0x16, 0x18, 0x9f})[0].kind, Place::Kind::Expression);
}

TEST(DwarfInfo, FormsThroughOffsetTables) {
  // DWARF 5 with strx1, addrx, implicit_const, indirect (-> udata), data16 and ref_addr.
  DwarfBuilder b(5, false, 8);
  b.abbrev(1, DW_TAG_compile_unit, true,
           {{DW_AT_str_offsets_base, DW_FORM_sec_offset},
            {DW_AT_addr_base, DW_FORM_sec_offset},
            {DW_AT_name, DW_FORM_strx1},
            {DW_AT_low_pc, DW_FORM_addrx}});
  b.abbrev(2, DW_TAG_variable, false,
           {{DW_AT_name, DW_FORM_strx1},
            {DW_AT_decl_line, DW_FORM_implicit_const, 77},
            {DW_AT_byte_size, DW_FORM_indirect},
            {DW_AT_const_value, DW_FORM_data16},
            {DW_AT_type, DW_FORM_ref_addr}});
  b.endAbbrevs();
  const uint64_t so_base = b.strOffsets({"unit.c", "v"});
  const uint64_t addr_base = b.addrTable({0x4000, 0x5000});
  b.die(1).offset(so_base).offset(addr_base).u8(0).uleb(1);
  const uint64_t self = b.here();
  b.die(2).u8(1).uleb(DW_FORM_udata).uleb(300).raw(std::vector<uint8_t>(16, 0xab)).offset(self);
  b.end();
  b.finishUnit();
  DebugInfo info(b.sections());
  const Unit& u = info.units()[0];
  EXPECT_EQ(u.base_address, 0x5000u);
  std::vector<AttrValue> attrs;
  info.attributes(u, u.dies[0], attrs);
  EXPECT_EQ(attrs[2].str, "unit.c");
  info.attributes(u, u.dies[1], attrs);
  ASSERT_EQ(attrs.size(), 5u);
  EXPECT_EQ(attrs[0].str, "v");
  EXPECT_EQ(attrs[1].s, 77);
  EXPECT_EQ(attrs[2].form, DW_FORM_udata);
  EXPECT_EQ(attrs[2].u, 300u);
  EXPECT_EQ(attrs[3].bytes.size(), 16u);
  EXPECT_EQ(attrs[4].kind, AttrValue::Kind::Reference);
  EXPECT_EQ(attrs[4].u, self);
  uint64_t a = 0;
  EXPECT_TRUE(info.addressAt(u, 0, a));
  EXPECT_EQ(a, 0x4000u);
  EXPECT_FALSE(info.addressAt(u, 2, a));
}

// Each malformed input: an abikit::Error at the right file offset, naming the problem.
void expectError(const DebugSections& s, uint64_t offset, const std::string& words) {
  try {
    DebugInfo info(s);
    for (const Unit& u : info.units())
      for (const Die& d : u.dies) {
        std::vector<AttrValue> attrs;
        info.attributes(u, d, attrs);
      }
    (void)variablesAt(info, 0x1004);
    ADD_FAILURE() << "no error; expected " << words;
  } catch (const Error& e) {
    EXPECT_TRUE(e.hasOffset()) << e.message();
    EXPECT_EQ(e.offset(), offset) << e.message();
    EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
  }
}

TEST(DwarfInfo, HostileInput) {
  DwarfBuilder good = standardUnit(5, false);
  const DebugSections base = good.sections();
  const uint64_t info_at = base.info.file_offset;
  {
    // The unit length runs past the section.
    std::vector<uint8_t> bytes(good.infoBytes().begin(), good.infoBytes().end());
    bytes[0] = 0xff;
    bytes[1] = 0x00;
    DebugSections s = base;
    s.info.bytes = bytes;
    expectError(s, info_at, "runs past the section's end");
  }
  {
    // Truncated: the section ends inside the unit DIE.
    DebugSections s = base;
    s.info.bytes = s.info.bytes.first(14);
    expectError(s, info_at, "runs past the section's end");
  }
  {
    // Version 6.
    std::vector<uint8_t> bytes(good.infoBytes().begin(), good.infoBytes().end());
    bytes[4] = 6;
    DebugSections s = base;
    s.info.bytes = bytes;
    expectError(s, info_at + 4, "unit version 6");
  }
  {
    // An abbreviation code that is not in the table (the first DIE's code byte, 12 bytes in).
    std::vector<uint8_t> bytes(good.infoBytes().begin(), good.infoBytes().end());
    bytes[12] = 99;
    DebugSections s = base;
    s.info.bytes = bytes;
    expectError(s, info_at + 12, "abbreviation code 99 is not in the table");
  }
  {
    // A location list without its end: the section stops after the first entry.
    DebugSections s = base;
    s.loclists.bytes = s.loclists.bytes.first(s.loclists.bytes.size() - 12);
    expectError(s, s.loclists.file_offset + s.loclists.bytes.size() - 1, "runs past the end");
  }
  {
    // An unknown form in the abbreviation of the first DIE: its value cannot be skipped.
    std::vector<uint8_t> abbrev(good.abbrevBytes().begin(), good.abbrevBytes().end());
    abbrev[4] = 0x7f; // the form of DW_AT_name in abbreviation 1
    DebugSections s = base;
    s.abbrev.bytes = abbrev;
    expectError(s, info_at + 13, "unknown form 0x7f");
  }
}

TEST(DwarfInfo, DeepNestingAndManyUnitsStayLinear) {
  // 20,000 nested blocks: indexed without recursion; the scope walk finds the innermost.
  DwarfBuilder b(5, false, 8);
  b.abbrev(1, DW_TAG_compile_unit, true, {});
  b.abbrev(2, DW_TAG_subprogram, true,
           {{DW_AT_low_pc, DW_FORM_addr}, {DW_AT_high_pc, DW_FORM_data4}});
  b.abbrev(3, DW_TAG_lexical_block, true,
           {{DW_AT_low_pc, DW_FORM_addr}, {DW_AT_high_pc, DW_FORM_data4}});
  b.endAbbrevs();
  b.die(1);
  b.die(2).addr(0x1000).u32(0x100);
  const int kDepth = 20000;
  for (int i = 0; i < kDepth; ++i) b.die(3).addr(0x1000).u32(0x100);
  for (int i = 0; i < kDepth + 2; ++i) b.end();
  b.finishUnit();
  DebugInfo info(b.sections());
  EXPECT_EQ(info.units()[0].dies.size(), size_t(kDepth + 2));
  EXPECT_EQ(info.units()[0].dies.back().depth, kDepth + 1);
  EXPECT_TRUE(variablesAt(info, 0x1010).found);
}

} // namespace
