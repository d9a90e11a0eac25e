// UPMEM DPU calling convention (the CLI contract is tests/cli/test_call_cli.cpp): the lowering
// fields the goldens do not show (types after promotion, flags, notes), the rejections, hostile
// sizes, and a cross-check of random prototypes against an independent model of the reference
// procedure (reference/dpu.md §3) plus the invariants of every lowering.
#include "callconv_dpu_ipu_util.h"

#include <nlohmann/json.hpp>
#include <random>

namespace {

using namespace abikit;
using abikit::test::Lowerer;
using abikit::test::partsText;
using nlohmann::json;

TargetOptions dpuOptions(AbiVariant v = AbiVariant::Compiler) {
  TargetOptions o;
  o.triple = "dpu-upmem-dpurte";
  o.abi_variant = v;
  return o;
}

// ----- fields the goldens do not show ---------------------------------------------------------

TEST(DpuCallconv, ExtraArgumentsArePromotedAndFlagged) {
  Lowerer x(dpuOptions());
  FunctionLowering f = x.lower("void v(int n, ...);", "v",
                               {"char", "unsigned short", "float", "__fp16", "_Bool", "double"});
  ASSERT_EQ(f.params.size(), 7u);
  EXPECT_FALSE(f.params[0].variadic);
  const char* types[] = {"int", "int", "int", "double", "double", "int", "double"};
  const int64_t offsets[] = {-1, 0, 4, 8, 16, 24, 32};
  for (size_t i = 1; i < 7; ++i) {
    SCOPED_TRACE(i);
    EXPECT_TRUE(f.params[i].variadic);
    EXPECT_EQ(typeName(f.params[i].type, x.ctx()), types[i]);
    EXPECT_EQ(f.params[i].kind, ArgKind::Direct); // promoted: no longer sub-word
    ASSERT_EQ(f.params[i].parts.size(), 1u);
    EXPECT_EQ(f.params[i].parts[0].loc.kind, ArgLocation::Kind::Stack);
    EXPECT_EQ(f.params[i].parts[0].loc.stack_offset, offsets[i]);
  }
  EXPECT_EQ(f.stack_bytes, 40u);
  EXPECT_TRUE(f.notes.empty());
}

TEST(DpuCallconv, AggregateFlagsAndAlignment) {
  Lowerer x(dpuOptions());
  FunctionLowering f = x.lower("struct D { char c; double d; };\n"
                               "struct D g(struct D a, _Complex float z);",
                               "g");
  EXPECT_EQ(f.ret.kind, ArgKind::Indirect);
  EXPECT_TRUE(f.ret.sret);
  EXPECT_FALSE(f.ret.byval);
  EXPECT_EQ(f.ret.align, 8u);
  EXPECT_EQ(f.params[0].kind, ArgKind::Indirect);
  EXPECT_TRUE(f.params[0].byval);
  EXPECT_FALSE(f.params[0].sret);
  EXPECT_EQ(f.params[0].align, 8u);
  EXPECT_EQ(partsText(f.params[0]), "r1");
  EXPECT_EQ(f.params[1].align, 4u);
  EXPECT_EQ(partsText(f.params[1]), "r2");
}

TEST(DpuCallconv, NotesOnlyWhereTheyApply) {
  Lowerer x(dpuOptions());
  const std::string src = "struct P { int x; };\n"
                          "void plain(int a, struct P p, long long b);\n"
                          "void spill(int a, int b, int c, int d, int e, int f, int g, int h, "
                          "struct P p);\n"
                          "void vfix(long long a, long long b, long long c, long long d, "
                          "long long e, ...);\n"
                          "void vreg(int a, ...);\n";
  EXPECT_TRUE(x.lower(src, "plain").notes.empty());
  FunctionLowering spill = x.lower(src, "spill");
  ASSERT_EQ(spill.notes.size(), 1u);
  EXPECT_NE(spill.notes[0].find("Q3"), std::string::npos);
  FunctionLowering vfix = x.lower(src, "vfix", {"int"});
  ASSERT_EQ(vfix.notes.size(), 1u);
  EXPECT_NE(vfix.notes[0].find("Q4"), std::string::npos);
  EXPECT_EQ(vfix.params[5].parts[0].loc.stack_offset, 8); // after e at 0..8
  EXPECT_TRUE(x.lower(src, "vreg", {"struct P", "int"}).notes.empty());
}

TEST(DpuCallconv, VectorElementsAndTheirNote) {
  Lowerer x(dpuOptions());
  const std::string src = "typedef float f3 __attribute__((ext_vector_type(3)));\n"
                          "typedef double d2 __attribute__((vector_size(16)));\n"
                          "typedef int i1 __attribute__((vector_size(4)));\n"
                          "void f(f3 a, d2 b);\n"
                          "i1 g(i1 x);\n"
                          "void v(int n, ...);\n";
  FunctionLowering f = x.lower(src, "f");
  EXPECT_EQ(partsText(f.params[0]), "r0[0,4] r1[4,4] r2[8,4]");
  EXPECT_EQ(partsText(f.params[1]), "d4[0,8] d6[8,8]");
  ASSERT_EQ(f.notes.size(), 1u);
  FunctionLowering g = x.lower(src, "g"); // a one-element vector returns like its element
  EXPECT_EQ(partsText(g.ret), "r0");
  EXPECT_EQ(partsText(g.params[0]), "r0");
  FunctionLowering v = x.lower(src, "v", {"d2"});
  EXPECT_EQ(partsText(v.params[1]), "stack:0[0,8] stack:8[8,8]");
}

TEST(DpuCallconv, DocumentedVariantChangesOnlyCompositeVarargs) {
  Lowerer c(dpuOptions()), d(dpuOptions(AbiVariant::Documented));
  const std::string src = "struct S { short a, b, c; };\n"
                          "struct S f(int a, long long b, struct S s, double x, char y);\n"
                          "int v(const char *fmt, ...);\n";
  FunctionLowering fc = c.lower(src, "f"), fd = d.lower(src, "f");
  ASSERT_EQ(fc.params.size(), fd.params.size());
  for (size_t i = 0; i < fc.params.size(); ++i)
    EXPECT_EQ(partsText(fc.params[i]), partsText(fd.params[i]));
  FunctionLowering vc = c.lower(src, "v", {"struct S", "int"});
  FunctionLowering vd = d.lower(src, "v", {"struct S", "int"});
  EXPECT_EQ(vc.params[1].kind, ArgKind::Indirect);
  EXPECT_EQ(partsText(vc.params[1]), "stack:0");
  EXPECT_EQ(vc.params[1].parts[0].size, 4u); // the pointer
  EXPECT_EQ(vd.params[1].kind, ArgKind::Direct);
  EXPECT_EQ(partsText(vd.params[1]), "stack:0");
  EXPECT_EQ(vd.params[1].parts[0].size, 6u);     // the object
  EXPECT_EQ(partsText(vd.params[2]), "stack:8"); // after 6 bytes, word-aligned
  EXPECT_EQ(vd.stack_bytes, 12u);
}

// ----- rejections and hostile sizes -----------------------------------------------------------

TEST(DpuCallconv, RejectionsNameTheFunctionAndTheArgument) {
  Lowerer x(dpuOptions());
  EXPECT_EQ(x.error("void f(int a, __fp16 h);", "f"),
            "function 'f': parameter 'h' has type __fp16: clang rejects __fp16 parameters "
            "unless the target allows half arguments and returns, which the DPU does not");
  EXPECT_NE(x.error("__fp16 g(void);", "g").find("return type __fp16"), std::string::npos);
  EXPECT_NE(x.error("typedef short s2 __attribute__((vector_size(4)));\ns2 g(void);", "g")
                .find("vector return value"),
            std::string::npos);
  EXPECT_NE(x.error("typedef __fp16 h2 __attribute__((vector_size(4)));\nvoid f(h2 v);", "f")
                .find("vectors of __fp16"),
            std::string::npos);
  EXPECT_NE(x.error("__attribute__((colossus_vertex)) void k(void);", "k").find("vertex"),
            std::string::npos);
  EXPECT_NE(x.error("struct I; void f(struct I i);", "f"), "(no error)"); // incomplete type
}

TEST(DpuCallconv, RejectionsArePositionedAtTheParameter) {
  Lowerer x(dpuOptions());
  try {
    x.lower("void f(int a,\n       __fp16 h);", "f");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.column(), 15u);
  }
  try {
    x.lower("typedef int v2 __attribute__((vector_size(8)));\nv2 g(void);", "g");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.line(), 2u); // the function
  }
}

TEST(DpuCallconv, HugeVectorsAndManyParametersStayBounded) {
  Lowerer x(dpuOptions());
  FunctionLowering f =
      x.lower("typedef char big __attribute__((vector_size(4096)));\nvoid f(big v);", "f");
  ASSERT_EQ(f.params[0].parts.size(), 4096u);
  EXPECT_EQ(partsText(f.params[0]).substr(0, 8), "r0[0,1] ");
  EXPECT_EQ(f.params[0].parts[8].loc.stack_offset, 0);
  EXPECT_EQ(f.stack_bytes, (4096u - 8) * 4);
  test::checkInvariants(x.target(), x.layout(), f);

  // A hostile vector_size is rejected instead of becoming a billion pieces.
  EXPECT_NE(x.error("typedef char huge __attribute__((vector_size(1073741824)));\n"
                    "void f(huge v);",
                    "f")
                .find("up to 65536 elements"),
            std::string::npos);
  EXPECT_EQ(x.lower("typedef char huge __attribute__((vector_size(1073741824)));\n"
                    "void f(huge *v);",
                    "f")
                .params[0]
                .parts.size(),
            1u);

  std::string src = "void many(";
  for (int i = 0; i < 300; ++i) src += (i ? ", " : "") + std::string(i % 3 ? "int" : "double");
  src += ");";
  FunctionLowering m = x.lower(src, "many");
  EXPECT_EQ(m.params.size(), 300u);
  test::checkInvariants(x.target(), x.layout(), m);
}

// ----- random prototypes against a model of the reference procedure ---------------------------

enum class Cls { W, L, Agg };
struct ModelType {
  const char* spelling;
  Cls cls;
  Cls promoted; // class as an extra argument of a variadic call
};

const ModelType kTypes[] = {
    {"int", Cls::W, Cls::W},
    {"char", Cls::W, Cls::W},
    {"unsigned short", Cls::W, Cls::W},
    {"float", Cls::W, Cls::L}, // float -> double
    {"void *", Cls::W, Cls::W},
    {"enum E", Cls::W, Cls::W},
    {"long long", Cls::L, Cls::L},
    {"double", Cls::L, Cls::L},
    {"long", Cls::L, Cls::L},
    {"struct S12", Cls::Agg, Cls::Agg},
    {"struct S1", Cls::Agg, Cls::Agg},
    {"_Complex float", Cls::Agg, Cls::Agg},
};

/// reference/dpu.md §3, restated: W lowest free r0..r7 else a 4/4 slot; L first d-pair with both
/// halves free else an 8/8 slot; extras always on the stack; aggregates are W pointers; an
/// aggregate return takes r0 first.
struct DpuModel {
  bool used[8] = {};
  int64_t off = 0;

  std::string stack(int64_t size) {
    off = (off + size - 1) / size * size;
    std::string s = "stack:" + std::to_string(off);
    off += size;
    return s;
  }
  std::string word() {
    for (int i = 0; i < 8; ++i)
      if (!used[i]) {
        used[i] = true;
        return "r" + std::to_string(i);
      }
    return stack(4);
  }
  std::string pair() {
    for (int k = 0; k < 8; k += 2)
      if (!used[k] && !used[k + 1]) {
        used[k] = used[k + 1] = true;
        return "d" + std::to_string(k);
      }
    return stack(8);
  }
};

TEST(DpuCallconv, RandomPrototypesMatchTheReferenceProcedure) {
  std::mt19937 rng(20240611);
  const int kFunctions = 600;
  std::string src = "struct S12 { int a, b, c; };\nstruct S1 { char c; };\nenum E { E0, E1 };\n";
  struct Case {
    int ret; // -1 void, else index into kTypes
    std::vector<int> fixed, extra;
    bool variadic;
  };
  std::vector<Case> cases;
  for (int i = 0; i < kFunctions; ++i) {
    Case c;
    c.ret = int(rng() % (std::size(kTypes) + 1)) - 1;
    int n = int(rng() % 12);
    for (int k = 0; k < n; ++k) c.fixed.push_back(int(rng() % std::size(kTypes)));
    c.variadic = !c.fixed.empty() && rng() % 3 == 0;
    if (c.variadic)
      for (int k = int(rng() % 6); k > 0; --k) c.extra.push_back(int(rng() % std::size(kTypes)));
    std::string decl =
        (c.ret < 0 ? "void" : kTypes[c.ret].spelling) + std::string(" f") + std::to_string(i) + "(";
    for (size_t k = 0; k < c.fixed.size(); ++k)
      decl += (k ? ", " : "") + std::string(kTypes[c.fixed[k]].spelling);
    if (c.fixed.empty()) decl += "void";
    if (c.variadic) decl += ", ...";
    src += decl + ");\n";
    if (!c.extra.empty()) {
      src += "void p" + std::to_string(i) + "(";
      for (size_t k = 0; k < c.extra.size(); ++k)
        src += (k ? ", " : "") + std::string(kTypes[c.extra[k]].spelling);
      src += ");\n";
    }
    cases.push_back(c);
  }
  for (AbiVariant variant : {AbiVariant::Compiler, AbiVariant::Documented}) {
    Lowerer x(dpuOptions(variant));
    TranslationUnit tu = x.parse(src);
    for (int i = 0; i < kFunctions; ++i) {
      const Case& c = cases[size_t(i)];
      SCOPED_TRACE("f" + std::to_string(i));
      const FunctionDecl* probe = tu.findFunction("p" + std::to_string(i));
      FunctionLowering f = x.lowerDecl(*tu.findFunction("f" + std::to_string(i)), probe);
      test::checkInvariants(x.target(), x.layout(), f);

      DpuModel m;
      std::string ret;
      if (c.ret >= 0) {
        Cls rc = kTypes[c.ret].cls;
        if (rc == Cls::Agg) m.used[0] = true;
        ret = rc == Cls::L ? "d0" : "r0";
      }
      EXPECT_EQ(c.ret < 0 ? "" : partsText(f.ret), ret);
      ASSERT_EQ(f.params.size(), c.fixed.size() + c.extra.size());
      for (size_t k = 0; k < c.fixed.size(); ++k) {
        Cls cls = kTypes[c.fixed[k]].cls;
        EXPECT_EQ(partsText(f.params[k]), cls == Cls::L ? m.pair() : m.word()) << k;
      }
      for (size_t k = 0; k < c.extra.size(); ++k) {
        Cls cls = kTypes[c.extra[k]].promoted;
        const ArgLowering& a = f.params[c.fixed.size() + k];
        if (cls == Cls::Agg && variant == AbiVariant::Documented) {
          // by value: S12 is 12/4, S1 1/1 and _Complex float 8/4, all word-aligned
          int64_t size = c.extra[k] == 9 ? 12 : c.extra[k] == 10 ? 1 : 8;
          m.off = (m.off + 3) / 4 * 4;
          std::string s = "stack:" + std::to_string(m.off);
          m.off += size;
          EXPECT_EQ(partsText(a), s) << "extra " << k;
        } else {
          EXPECT_EQ(partsText(a), m.stack(cls == Cls::L ? 8 : 4)) << "extra " << k;
        }
      }
      EXPECT_EQ(int64_t(f.stack_bytes), m.off);
    }
  }
}

} // namespace
