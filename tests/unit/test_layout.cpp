// Unit tests of the layout engine with types built directly in a TypeContext (no C front-end):
// the type rules, the record rules that the differential test cannot reach (IPU's vector cap,
// the DPU's missing types), caching, and every rejection.
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

namespace {

using namespace abikit;

Target target(const char* triple, const char* march = "", const char* mabi = "") {
  TargetOptions o;
  o.triple = triple;
  o.march = march;
  o.mabi = mabi;
  return resolveTarget(o);
}

struct Fixture {
  explicit Fixture(const char* triple, const char* march = "", const char* mabi = "",
                   LanguageMode lang = Language::C)
      : t(target(triple, march, mabi)), ctx(t, lang), eng(ctx) {}
  Target t;
  TypeContext ctx;
  LayoutEngine eng;

  const Type* i(IntKind k) { return ctx.intType(k); }
  const Type* f(FloatKind k) { return ctx.floatType(k); }

  RecordDecl* record(const char* name, std::vector<FieldDecl> fields, bool is_union = false) {
    RecordDecl* rd = ctx.createRecord(ctx.intern(name), is_union, SourceLoc{});
    rd->fields.assign(fields.begin(), fields.end());
    rd->complete = true;
    return rd;
  }
  FieldDecl field(const char* name, const Type* type, int bits = -1) {
    FieldDecl fd;
    fd.name = ctx.intern(name);
    fd.type = type;
    fd.bit_width = bits;
    return fd;
  }
  std::string error(const Type* t) {
    try {
      eng.of(t);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
      return e.message();
    }
    return "(no error)";
  }
  std::string error(const RecordDecl* rd) {
    try {
      eng.of(*rd);
    } catch (const Error& e) {
      return e.message();
    }
    return "(no error)";
  }
};

void expectLayout(TypeLayout l, uint64_t size, uint32_t align) {
  EXPECT_EQ(l.size, size);
  EXPECT_EQ(l.align, align);
}

// ----- scalars and derived types --------------------------------------------------------------

TEST(LayoutTypes, DpuScalarsFollowTheDataModel) {
  Fixture x("dpu-upmem-dpurte");
  expectLayout(x.eng.of(x.i(IntKind::Long)), 8, 8);
  expectLayout(x.eng.of(x.i(IntKind::LongLong)), 8, 8);
  expectLayout(x.eng.of(x.f(FloatKind::LongDouble)), 8, 8);
  expectLayout(x.eng.of(x.ctx.pointerTo(x.ctx.voidType())), 4, 4);
  expectLayout(x.eng.of(x.ctx.complexOf(x.f(FloatKind::Float))), 8, 4);
  expectLayout(x.eng.of(x.ctx.complexOf(x.f(FloatKind::Double))), 16, 8);
}

TEST(LayoutTypes, IpuDoubleAlignsToFourButLongLongToEight) {
  Fixture x("colossus-graphcore-elf");
  expectLayout(x.eng.of(x.f(FloatKind::Double)), 8, 4);
  expectLayout(x.eng.of(x.f(FloatKind::LongDouble)), 8, 4);
  expectLayout(x.eng.of(x.i(IntKind::LongLong)), 8, 8);
  expectLayout(x.eng.of(x.i(IntKind::Long)), 4, 4);
  expectLayout(x.eng.of(x.ctx.complexOf(x.f(FloatKind::Double))), 16, 4);
}

TEST(LayoutTypes, MissingTypesAreRejectedByName) {
  Fixture dpu("dpu-upmem-dpurte");
  EXPECT_NE(dpu.error(dpu.i(IntKind::Int128)).find("'__int128' is not available"),
            std::string::npos);
  EXPECT_NE(dpu.error(dpu.ctx.bitIntType(12, true)).find("_BitInt is not available"),
            std::string::npos);
  EXPECT_NE(dpu.error(dpu.f(FloatKind::Float128)).find("'__float128'"), std::string::npos);
  Fixture rv32("riscv32-unknown-elf", "rv32imac", "ilp32");
  EXPECT_NE(rv32.error(rv32.i(IntKind::UInt128)).find("'unsigned __int128' is not available"),
            std::string::npos);
}

TEST(LayoutTypes, VoidFunctionAndIncompleteTypesHaveNoSize) {
  Fixture x("dpu-upmem-dpurte");
  EXPECT_NE(x.error(x.ctx.voidType()).find("'void'"), std::string::npos);
  FunctionType* ft = x.ctx.createFunctionType();
  ft->result = x.i(IntKind::Int);
  EXPECT_NE(x.error(ft).find("function type"), std::string::npos);
  EXPECT_NE(x.error(x.ctx.incompleteArrayOf(x.i(IntKind::Int))).find("incomplete array type"),
            std::string::npos);
  RecordDecl* fwd = x.ctx.createRecord("fwd", false, SourceLoc{});
  EXPECT_NE(x.error(x.ctx.recordType(fwd)).find("incomplete type 'struct fwd'"), std::string::npos);
  EnumDecl* ed = x.ctx.createEnum("e", SourceLoc{});
  EXPECT_NE(x.error(x.ctx.enumType(ed)).find("incomplete type 'enum e'"), std::string::npos);
  EXPECT_NE(x.error(x.ctx.openclType(OpenCLKind::Image2d)).find("OpenCL type 'image2d_t'"),
            std::string::npos);
}

TEST(LayoutTypes, BitIntFollowsClang14) {
  Fixture x("colossus-graphcore-elf");
  expectLayout(x.eng.of(x.ctx.bitIntType(1, false)), 1, 1);
  expectLayout(x.eng.of(x.ctx.bitIntType(7, true)), 1, 1);
  expectLayout(x.eng.of(x.ctx.bitIntType(9, true)), 2, 2);
  expectLayout(x.eng.of(x.ctx.bitIntType(17, true)), 4, 4);
  expectLayout(x.eng.of(x.ctx.bitIntType(33, true)), 8, 8);
  // Above 64 bits the alignment stays at the cap (8) and the size rounds up to it.
  expectLayout(x.eng.of(x.ctx.bitIntType(65, true)), 16, 8);
  expectLayout(x.eng.of(x.ctx.bitIntType(72, true)), 16, 8);
  expectLayout(x.eng.of(x.ctx.bitIntType(128, false)), 16, 8);
  EXPECT_NE(x.error(x.ctx.bitIntType(129, true)).find("wider than the 128 bits"),
            std::string::npos);
  EXPECT_NE(x.error(x.ctx.bitIntType(1, true)).find("at least 2 bits"), std::string::npos);
}

TEST(LayoutTypes, TypedefAlignmentReplacesEvenDownwards) {
  Fixture x("dpu-upmem-dpurte");
  TypedefDecl* low = x.ctx.createTypedef("low", x.i(IntKind::LongLong), SourceLoc{});
  low->aligned = 2;
  expectLayout(x.eng.of(x.ctx.typedefType(low)), 8, 2);
  TypedefDecl* high = x.ctx.createTypedef("high", x.i(IntKind::Int), SourceLoc{});
  high->aligned = 8;
  expectLayout(x.eng.of(x.ctx.typedefType(high)), 4, 8);
  // An array of it is rounded up to the element alignment, as clang does: 3 * 4 -> 16.
  expectLayout(x.eng.of(x.ctx.arrayOf(x.ctx.typedefType(high), 3)), 16, 8);
  expectLayout(x.eng.of(x.ctx.arrayOf(x.ctx.typedefType(high), 2)), 8, 8);
  // Qualifiers change nothing.
  expectLayout(x.eng.of(x.ctx.qualified(x.ctx.typedefType(low), kQualConst | kQualVolatile)), 8, 2);
}

TEST(LayoutTypes, VectorsRoundToPowersOfTwoAndIpuCapsTheirAlignment) {
  Fixture dpu("dpu-upmem-dpurte");
  expectLayout(dpu.eng.of(dpu.ctx.vectorOf(dpu.i(IntKind::Char), 3, VectorKind::Generic)), 4, 4);
  expectLayout(dpu.eng.of(dpu.ctx.vectorOf(dpu.i(IntKind::Int), 4, VectorKind::Generic)), 16, 16);
  expectLayout(dpu.eng.of(dpu.ctx.vectorOf(dpu.f(FloatKind::Float), 3, VectorKind::Ext)), 16, 16);
  expectLayout(dpu.eng.of(dpu.ctx.vectorOf(dpu.i(IntKind::Long), 5, VectorKind::Ext)), 64, 64);
  Fixture ipu("colossus-graphcore-elf");
  expectLayout(ipu.eng.of(ipu.ctx.vectorOf(ipu.f(FloatKind::Fp16), 8, VectorKind::Generic)), 16, 8);
  expectLayout(ipu.eng.of(ipu.ctx.vectorOf(ipu.i(IntKind::LongLong), 4, VectorKind::Generic)), 32,
               8);
  expectLayout(ipu.eng.of(ipu.ctx.vectorOf(ipu.i(IntKind::Short), 2, VectorKind::Generic)), 4, 4);
  expectLayout(ipu.eng.of(ipu.ctx.vectorOf(ipu.f(FloatKind::Float), 3, VectorKind::Ext)), 16, 8);
  EXPECT_NE(dpu.error(dpu.ctx.vectorOf(dpu.i(IntKind::Bool), 4, VectorKind::Ext))
                .find("invalid vector element type '_Bool'"),
            std::string::npos);
  EXPECT_NE(dpu.error(dpu.ctx.vectorOf(dpu.i(IntKind::Int), 0, VectorKind::Generic))
                .find("zero-length vector"),
            std::string::npos);
}

TEST(LayoutTypes, PointersTakeTheirAddressSpaceSize) {
  Fixture dpu("dpu-upmem-dpurte");
  expectLayout(dpu.eng.of(dpu.ctx.pointerTo(dpu.i(IntKind::Int), 255)), 4, 4);
  EXPECT_NE(dpu.error(dpu.ctx.pointerTo(dpu.i(IntKind::Int), 7)).find("address space 7"),
            std::string::npos);
  Fixture amd("amdgcn-amd-amdhsa");
  expectLayout(amd.eng.of(amd.ctx.pointerTo(amd.i(IntKind::Int), 0)), 8, 8);
  expectLayout(amd.eng.of(amd.ctx.pointerTo(amd.i(IntKind::Int), 3)), 4, 4);
  expectLayout(amd.eng.of(amd.ctx.pointerTo(amd.i(IntKind::Int), 5)), 4, 4);
}

TEST(LayoutTypes, PointersKnowWhetherTheyPointToAFunction) {
  Fixture x("riscv64-unknown-elf", "rv64gc");
  FunctionType* fn = x.ctx.createFunctionType();
  fn->result = x.i(IntKind::Int);
  TypedefDecl* td = x.ctx.createTypedef(x.ctx.intern("handler_t"), fn, SourceLoc{});
  const Type* through_typedef =
      x.ctx.qualified(x.ctx.typedefType(td), kQualConst); // const handler_t
  auto* p = static_cast<const PointerType*>(x.ctx.pointerTo(fn, 0));
  auto* q = static_cast<const PointerType*>(x.ctx.pointerTo(through_typedef, 0));
  auto* r = static_cast<const PointerType*>(x.ctx.pointerTo(x.i(IntKind::Int), 0));
  RecordDecl* rd = x.record("S", {});
  auto* s = static_cast<const PointerType*>(x.ctx.pointerTo(x.ctx.recordType(rd), 0));
  EXPECT_TRUE(p->to_function);
  EXPECT_TRUE(q->to_function);
  EXPECT_FALSE(r->to_function);
  EXPECT_FALSE(s->to_function);
  // A qualified pointer keeps it.
  auto* cp = static_cast<const PointerType*>(x.ctx.qualified(p, kQualVolatile));
  EXPECT_TRUE(cp->to_function);
  expectLayout(x.eng.of(cp), 8, 8);
}

TEST(LayoutTypes, LayoutsKeptInTheTypesAgreeAcrossEngines) {
  Fixture x("riscv64-unknown-elf", "rv64gc", "lp64d");
  TypedefDecl* low = x.ctx.createTypedef("low", x.i(IntKind::LongLong), SourceLoc{});
  low->aligned = 2;
  EnumDecl* ed = x.ctx.createEnum("e", SourceLoc{});
  ed->complete = true;
  ed->underlying = static_cast<const IntType*>(x.i(IntKind::UInt));
  RecordDecl* rd = x.record("S", {x.field("a", x.i(IntKind::Int))});
  TypedefDecl* rec_td = x.ctx.createTypedef("S_t", x.ctx.recordType(rd), SourceLoc{});
  const Type* low_t = x.ctx.typedefType(low);
  struct Case {
    const Type* type;
    uint64_t size;
    uint32_t align;
    bool in_type; // kept in Type::layout_bits
  };
  const Case cases[] = {
      {x.i(IntKind::Long), 8, 8, true},
      {x.ctx.qualified(x.i(IntKind::Short), kQualConst), 2, 2, true},
      {x.f(FloatKind::LongDouble), 16, 16, true},
      {x.ctx.pointerTo(x.i(IntKind::Char), 0), 8, 8, true},
      {low_t, 8, 2, true},
      {x.ctx.arrayOf(low_t, 3), 24, 2, true},
      {x.ctx.enumType(ed), 4, 4, true},
      {x.ctx.vectorOf(x.i(IntKind::Int), 3, VectorKind::Ext), 16, 16, true},
      {x.ctx.complexOf(x.f(FloatKind::Double)), 16, 8, true},
      // 64 MiB and more: too large for the bits, kept by the engine.
      {x.ctx.arrayOf(x.i(IntKind::Char), uint64_t(1) << 26), uint64_t(1) << 26, 1, false},
      // From a record's layout: kept by each engine.
      {x.ctx.arrayOf(x.ctx.recordType(rd), 2), 8, 4, false},
      {x.ctx.typedefType(rec_td), 4, 4, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(typeName(c.type, x.ctx));
    EXPECT_EQ(c.type->layout_bits, 0u);
    expectLayout(x.eng.of(c.type), c.size, c.align);
    EXPECT_EQ(c.type->layout_bits != 0, c.in_type);
    expectLayout(x.eng.of(c.type), c.size, c.align); // from where it was kept
    LayoutEngine other(x.ctx);
    expectLayout(other.of(c.type), c.size, c.align);
  }
  // A fresh engine lays the record out again, and what is built on it with it.
  rd->fields.push_back(x.field("b", x.i(IntKind::Long)));
  LayoutEngine fresh(x.ctx);
  expectLayout(fresh.of(x.ctx.arrayOf(x.ctx.recordType(rd), 2)), 32, 8);
  expectLayout(fresh.of(x.ctx.typedefType(rec_td)), 16, 8);
  // Another context answers for its own data model.
  Fixture rv32("riscv32-unknown-elf", "rv32gc", "ilp32d");
  expectLayout(rv32.eng.of(rv32.i(IntKind::Long)), 4, 4);
  expectLayout(rv32.eng.of(rv32.ctx.pointerTo(rv32.i(IntKind::Char), 0)), 4, 4);
}

TEST(LayoutTypes, HugeArraysAreRejected) {
  Fixture x("dpu-upmem-dpurte"); // size_t is 32 bits
  EXPECT_NO_THROW(x.eng.of(x.ctx.arrayOf(x.i(IntKind::Char), 0xFFFFFFFFull)));
  EXPECT_NE(x.error(x.ctx.arrayOf(x.i(IntKind::Char), 0x100000000ull)).find("too large"),
            std::string::npos);
  EXPECT_NE(x.error(x.ctx.arrayOf(x.i(IntKind::Int), ~0ull / 2)).find("too large"),
            std::string::npos);
  Fixture rv("riscv64-unknown-elf", "rv64gc", "lp64d");
  EXPECT_NE(rv.error(rv.ctx.arrayOf(rv.ctx.arrayOf(rv.i(IntKind::Long), 1ull << 40), 1ull << 40))
                .find("too large"),
            std::string::npos);
}

TEST(LayoutTypes, OpenClDataModelWidensLong) {
  Fixture x("amdgcn-amd-amdhsa", "", "", Language::OpenCL);
  expectLayout(x.eng.of(x.i(IntKind::Long)), 8, 8);
  expectLayout(x.eng.of(x.i(IntKind::LongLong)), 16, 16);
}

// ----- records --------------------------------------------------------------------------------

TEST(LayoutRecords, FieldsHolesAndTailPadding) {
  Fixture x("dpu-upmem-dpurte");
  RecordDecl* rd =
      x.record("s", {x.field("c", x.i(IntKind::Char)), x.field("l", x.i(IntKind::Long)),
                     x.field("s", x.i(IntKind::Short))});
  const RecordLayout& rl = x.eng.of(*rd);
  EXPECT_EQ(rl.size, 24u);
  EXPECT_EQ(rl.align, 8u);
  EXPECT_EQ(rl.data_size, 18u);
  ASSERT_EQ(rl.fields.size(), 3u);
  EXPECT_EQ(rl.fields[1].bit_offset, 64u);
  EXPECT_EQ(rl.fields[2].bit_offset, 128u);
  EXPECT_EQ(rl.fields[2].bit_width, -1);
  // The layout is cached: the same object comes back.
  EXPECT_EQ(&x.eng.of(*rd), &rl);
  expectLayout(x.eng.recordType(*rd), 24, 8);
  expectLayout(x.eng.of(x.ctx.recordType(rd)), 24, 8);
}

TEST(LayoutRecords, IpuUnnamedBitFieldsRaiseTheAlignment) {
  // ipu.md: struct{char a; int :0; char b;} -> b at 4, size 8, align 4.
  Fixture ipu("colossus-graphcore-elf");
  FieldDecl zero = ipu.field("", ipu.i(IntKind::Int), 0);
  RecordDecl* rd = ipu.record(
      "z", {ipu.field("a", ipu.i(IntKind::Char)), zero, ipu.field("b", ipu.i(IntKind::Char))});
  const RecordLayout& rl = ipu.eng.of(*rd);
  EXPECT_EQ(rl.fields[2].bit_offset, 32u);
  EXPECT_EQ(rl.size, 8u);
  EXPECT_EQ(rl.align, 4u);
  // The same record on the DPU (generic clang rule): no alignment from unnamed bit-fields.
  Fixture dpu("dpu-upmem-dpurte");
  RecordDecl* rd2 =
      dpu.record("z", {dpu.field("a", dpu.i(IntKind::Char)), dpu.field("", dpu.i(IntKind::Int), 0),
                       dpu.field("b", dpu.i(IntKind::Char))});
  EXPECT_EQ(dpu.eng.of(*rd2).size, 5u);
  EXPECT_EQ(dpu.eng.of(*rd2).align, 1u);
}

TEST(LayoutRecords, BitFieldWidthsAreChecked) {
  Fixture x("dpu-upmem-dpurte");
  EXPECT_NE(x.error(x.record("a", {x.field("b", x.i(IntKind::Bool), 2)}))
                .find("width of bit-field 'b' (2 bits) exceeds the width of its type (1 bit)"),
            std::string::npos);
  EXPECT_NE(x.error(x.record("b", {x.field("i", x.i(IntKind::Int), 33)})).find("(32 bits)"),
            std::string::npos);
  EXPECT_NE(x.error(x.record("c", {x.field("z", x.i(IntKind::Int), 0)}))
                .find("named bit-field 'z' has zero width"),
            std::string::npos);
  EXPECT_NE(x.error(x.record("d", {x.field("f", x.f(FloatKind::Float), 3)}))
                .find("non-integral type 'float'"),
            std::string::npos);
  // An enum bit-field is limited by the enum's integer type.
  EnumDecl* ed = x.ctx.createEnum("e", SourceLoc{});
  ed->underlying = x.ctx.intType(IntKind::UChar);
  ed->complete = true;
  EXPECT_NO_THROW(x.eng.of(*x.record("e1", {x.field("e", x.ctx.enumType(ed), 8)})));
  EXPECT_NE(x.error(x.record("e2", {x.field("e", x.ctx.enumType(ed), 9)})).find("(8 bits)"),
            std::string::npos);
  // A _BitInt bit-field is limited by N, not by its storage.
  Fixture ipu("colossus-graphcore-elf");
  EXPECT_NO_THROW(
      ipu.eng.of(*ipu.record("b1", {ipu.field("x", ipu.ctx.bitIntType(17, true), 17)})));
  EXPECT_NE(ipu.error(ipu.record("b2", {ipu.field("x", ipu.ctx.bitIntType(17, true), 18)}))
                .find("(17 bits)"),
            std::string::npos);
}

TEST(LayoutRecords, FlexibleArrayMembers) {
  Fixture x("dpu-upmem-dpurte");
  const Type* fam = x.ctx.incompleteArrayOf(x.i(IntKind::Long));
  const RecordLayout& ok =
      x.eng.of(*x.record("ok", {x.field("n", x.i(IntKind::Int)), x.field("d", fam)}));
  EXPECT_TRUE(ok.has_flexible_array);
  EXPECT_EQ(ok.fields[1].bit_offset, 64u);
  EXPECT_EQ(ok.size, 8u);
  EXPECT_EQ(ok.align, 8u);
  EXPECT_NE(x.error(x.record("u", {x.field("n", x.i(IntKind::Int)), x.field("d", fam)}, true))
                .find("in a union is not allowed"),
            std::string::npos);
  EXPECT_NE(x.error(x.record("m", {x.field("d", fam), x.field("n", x.i(IntKind::Int))}))
                .find("is not the last field"),
            std::string::npos);
  // A named bit-field is a member; an unnamed one is not.
  EXPECT_NO_THROW(
      x.eng.of(*x.record("bf", {x.field("b", x.i(IntKind::UChar), 1), x.field("d", fam)})));
  EXPECT_NE(x.error(x.record("e", {x.field("", x.i(IntKind::Int), 3), x.field("d", fam)}))
                .find("otherwise empty struct"),
            std::string::npos);
}

TEST(LayoutRecords, BadMembersAreRejectedWithTheirPosition) {
  Fixture x("dpu-upmem-dpurte");
  uint32_t file = x.ctx.addFile("<memory>");
  RecordDecl* fwd = x.ctx.createRecord("fwd", false, SourceLoc{});
  FieldDecl fd = x.field("f", x.ctx.recordType(fwd));
  fd.loc = {file, 3, 7};
  RecordDecl* rd = x.record("holder", {fd});
  try {
    x.eng.of(*rd);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_TRUE(e.hasSourcePosition());
    EXPECT_EQ(e.line(), 3u);
    EXPECT_EQ(e.column(), 7u);
    EXPECT_NE(e.message().find("incomplete type 'struct fwd'"), std::string::npos);
    EXPECT_NE(e.message().find("field 'f' of struct holder"), std::string::npos);
  }
  EXPECT_NE(x.error(x.record("v", {x.field("v", x.ctx.voidType())})).find("'void'"),
            std::string::npos);
  FunctionType* ft = x.ctx.createFunctionType();
  ft->result = x.ctx.voidType();
  EXPECT_NE(x.error(x.record("g", {x.field("g", ft)})).find("declared as a function"),
            std::string::npos);
}

TEST(LayoutRecords, ErrorsQuoteTheSourceLine) {
  std::string path = ::testing::TempDir() + "abikit_layout_error.h";
  {
    std::ofstream f(path);
    f << "struct holder {\r\n  struct fwd f;\n};\n";
  }
  Fixture x("dpu-upmem-dpurte");
  uint32_t file = x.ctx.addFile(path);
  RecordDecl* fwd = x.ctx.createRecord("fwd", false, SourceLoc{});
  FieldDecl fd = x.field("f", x.ctx.recordType(fwd));
  fd.loc = {file, 2, 14};
  try {
    x.eng.of(*x.record("holder", {fd}));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.sourceLine(), "  struct fwd f;");
    EXPECT_EQ(e.file(), path);
  }
  std::remove(path.c_str());
}

TEST(LayoutRecords, SelfContainingRecordsAreRejected) {
  Fixture x("dpu-upmem-dpurte");
  RecordDecl* a = x.ctx.createRecord("a", false, SourceLoc{});
  RecordDecl* b = x.ctx.createRecord("b", false, SourceLoc{});
  a->fields.push_back(x.field("b", x.ctx.recordType(b)));
  b->fields.push_back(x.field("a", x.ctx.recordType(a)));
  a->complete = b->complete = true;
  EXPECT_NE(x.error(a).find("contains itself"), std::string::npos);
  // Nothing is left half-done: asking again gives the same answer, not a crash.
  EXPECT_NE(x.error(a).find("contains itself"), std::string::npos);
  EXPECT_NE(x.error(b).find("contains itself"), std::string::npos);
}

TEST(LayoutRecords, NestedRecordsLaidOutOnTheWayKeepTheirOwnFields) {
  // Laying out `Outer` lays out `Inner` (its field's type) in the middle: each keeps its own
  // run of field layouts. Many records, so that the engine's blocks of fields fill up.
  Fixture x("riscv64-unknown-elf", "rv64gc");
  std::vector<RecordDecl*> outers;
  for (int k = 0; k < 3000; ++k) {
    RecordDecl* inner =
        x.record("Inner", {x.field("a", x.i(IntKind::Char)), x.field("b", x.i(IntKind::Long))});
    outers.push_back(x.record("Outer", {x.field("c", x.i(IntKind::Short)),
                                        x.field("in", x.ctx.recordType(inner)),
                                        x.field("d", x.i(IntKind::Int))}));
  }
  RecordDecl* wide = x.record("Wide", {});
  for (int k = 0; k < 5000; ++k) wide->fields.push_back(x.field("w", x.i(IntKind::Int)));
  for (RecordDecl* o : outers) {
    const RecordLayout& l = x.eng.of(*o);
    ASSERT_EQ(l.fields.size(), 3u);
    EXPECT_EQ(l.fields[0].bit_offset, 0u);
    EXPECT_EQ(l.fields[1].bit_offset, 64u);
    EXPECT_EQ(l.fields[1].size, 16u);
    EXPECT_EQ(l.fields[2].bit_offset, 192u);
    EXPECT_EQ(l.size, 32u);
  }
  const RecordLayout& w = x.eng.of(*wide);
  ASSERT_EQ(w.fields.size(), 5000u);
  EXPECT_EQ(w.fields[4999].bit_offset, 4999u * 32);
  for (RecordDecl* o : outers) {
    const RecordLayout& in = x.eng.of(*static_cast<const RecordType*>(o->fields[1].type)->decl);
    ASSERT_EQ(in.fields.size(), 2u);
    EXPECT_EQ(in.fields[1].bit_offset, 64u);
  }
}

TEST(LayoutRecords, ARecordThatFailsCanBeAskedAgain) {
  // A record's layout is built in the engine's storage: one whose layout fails after a record
  // was laid out on the way leaves nothing half-done behind, and the layouts handed out before
  // and after stay as they were.
  Fixture x("riscv64-unknown-elf", "rv64gc");
  RecordDecl* first = x.record("first", {x.field("a", x.i(IntKind::Short))});
  const RecordLayout& first_l = x.eng.of(*first);
  RecordDecl* inner =
      x.record("inner", {x.field("a", x.i(IntKind::Char)), x.field("b", x.i(IntKind::Long))});
  RecordDecl* fwd = x.ctx.createRecord("fwd", false, SourceLoc{});
  RecordDecl* bad = x.record(
      "bad", {x.field("in", x.ctx.recordType(inner)), x.field("f", x.ctx.recordType(fwd))});
  for (int k = 0; k < 3; ++k)
    EXPECT_NE(x.error(bad).find("incomplete type 'struct fwd'"), std::string::npos);
  const RecordLayout& in = x.eng.of(*inner);
  ASSERT_EQ(in.fields.size(), 2u);
  EXPECT_EQ(in.fields[1].bit_offset, 64u);
  EXPECT_EQ(in.size, 16u);
  // Completed, the record lays out; so do many records after it.
  fwd->fields.push_back(x.field("x", x.i(IntKind::Int)));
  fwd->complete = true;
  const RecordLayout& ok = x.eng.of(*bad);
  ASSERT_EQ(ok.fields.size(), 2u);
  EXPECT_EQ(ok.fields[1].bit_offset, 128u);
  EXPECT_EQ(ok.size, 24u);
  EXPECT_EQ(&x.eng.of(*bad), &ok);
  for (int k = 0; k < 1000; ++k)
    EXPECT_EQ(x.eng.of(*x.record("r", {x.field("a", x.i(IntKind::Int))})).size, 4u);
  EXPECT_EQ(&x.eng.of(*first), &first_l);
  EXPECT_EQ(first_l.size, 2u);
  EXPECT_EQ(&x.eng.of(*bad), &ok);
  EXPECT_EQ(ok.fields[1].bit_offset, 128u);
}

TEST(LayoutRecords, RecordsCreatedAfterTheEngineAreLaidOut) {
  Fixture x("dpu-upmem-dpurte");
  x.eng.of(*x.record("first", {x.field("a", x.i(IntKind::Int))}));
  for (int n = 0; n < 100; ++n) x.ctx.createRecord("", false, SourceLoc{});
  RecordDecl* late = x.record("late", {x.field("a", x.i(IntKind::Short))});
  EXPECT_EQ(x.eng.of(*late).size, 2u);
}

TEST(LayoutRecords, BadAttributeValuesAreRejected) {
  Fixture x("dpu-upmem-dpurte");
  RecordDecl* rd = x.record("p", {x.field("a", x.i(IntKind::Int))});
  rd->max_field_align = 3;
  EXPECT_NE(x.error(rd).find("#pragma pack value must be a power of two"), std::string::npos);
  RecordDecl* rd2 = x.record("q", {x.field("a", x.i(IntKind::Int))});
  rd2->aligned = 6;
  EXPECT_NE(x.error(rd2).find("not a power of two"), std::string::npos);
}

TEST(LayoutRecords, TooLargeRecordsAreRejected) {
  Fixture x("dpu-upmem-dpurte");
  const Type* big = x.ctx.arrayOf(x.i(IntKind::Char), 0xC0000000ull);
  EXPECT_NE(x.error(x.record("big", {x.field("a", big), x.field("b", big)})).find("too large"),
            std::string::npos);
}

} // namespace
