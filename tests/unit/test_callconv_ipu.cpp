// Graphcore IPU calling convention (the CLI contract is tests/cli/test_call_cli.cpp): modes
// (worker, supervisor, both), vertex functions, the documented variant against the compiler
// variant, the rejections, hostile sizes, and a cross-check of random prototypes against an
// independent model of the reference rules (reference/ipu.md §3.1-3.3) plus the invariants of every
// lowering.
#include "callconv_dpu_ipu_util.h"

#include <nlohmann/json.hpp>
#include <random>

namespace {

using namespace abikit;
using abikit::test::Lowerer;
using abikit::test::partsText;
using nlohmann::json;

enum class Mode { Worker, Supervisor, Both };

TargetOptions ipuOptions(Mode mode = Mode::Worker, AbiVariant v = AbiVariant::Compiler) {
  TargetOptions o;
  o.triple = "colossus-graphcore-elf";
  o.msupervisor = mode != Mode::Worker;
  o.mworker = mode == Mode::Both;
  o.abi_variant = v;
  return o;
}

// ----- fields, modes and vertex functions -----------------------------------------------------

TEST(IpuCallconv, ExtraArgumentsArePromotedAndEveryArgumentIsOnTheStack) {
  Lowerer x(ipuOptions());
  FunctionLowering f = x.lower("struct S { char c[3]; };\nint v(float a, ...);", "v",
                               {"char", "float", "struct S", "unsigned short"});
  ASSERT_EQ(f.params.size(), 5u);
  EXPECT_EQ(partsText(f.params[0]), "stack:0");
  EXPECT_EQ(typeName(f.params[1].type, x.ctx()), "int");
  EXPECT_EQ(partsText(f.params[1]), "stack:4");
  EXPECT_EQ(typeName(f.params[2].type, x.ctx()), "double");
  EXPECT_EQ(partsText(f.params[2]), "stack:8[0,4] stack:12[4,4]");
  EXPECT_EQ(f.params[3].kind, ArgKind::Indirect);
  EXPECT_TRUE(f.params[3].byval);
  EXPECT_EQ(f.params[3].align, 1u);
  EXPECT_EQ(partsText(f.params[3]), "stack:16");
  EXPECT_EQ(partsText(f.params[4]), "stack:20");
  EXPECT_EQ(f.stack_bytes, 24u);
  EXPECT_EQ(partsText(f.ret), "$m0");
}

TEST(IpuCallconv, HalfOnlyInWorkerMode) {
  const std::string src = "#include <ipudef.h>\nhalf f(half a, half2 b, float c);\n";
  Lowerer w(ipuOptions(Mode::Worker));
  FunctionLowering f = w.lower(src, "f");
  EXPECT_EQ(partsText(f.ret), "$a0");
  EXPECT_EQ(f.ret.parts[0].size, 2u);
  EXPECT_EQ(partsText(f.params[0]), "$a0");
  EXPECT_EQ(f.params[0].parts[0].size, 2u);
  EXPECT_EQ(f.params[0].kind, ArgKind::Direct); // half is not extended
  EXPECT_EQ(partsText(f.params[1]), "$a1");
  EXPECT_EQ(partsText(f.params[2]), "$a2");
  for (Mode m : {Mode::Supervisor, Mode::Both}) {
    Lowerer s(ipuOptions(m));
    EXPECT_NE(s.error(src, "f").find("only in worker mode"), std::string::npos);
  }
}

TEST(IpuCallconv, VertexFunctions) {
  Lowerer x(ipuOptions());
  const std::string src = "__attribute__((colossus_vertex)) void a(void);\n"
                          "__attribute__((colossus_vertex)) unsigned b(void);\n"
                          "__attribute__((colossus_vertex)) long long c(void);\n"
                          "__attribute__((colossus_vertex)) int d(int);\n"
                          "__attribute__((colossus_vertex)) int e();\n";
  FunctionLowering a = x.lower(src, "a");
  EXPECT_EQ(a.ret.kind, ArgKind::Ignore);
  EXPECT_EQ(a.notes.size(), 2u);
  FunctionLowering b = x.lower(src, "b");
  EXPECT_EQ(b.ret.kind, ArgKind::Direct);
  EXPECT_TRUE(b.ret.parts.empty()); // the exit status, not a register
  EXPECT_EQ(b.stack_bytes, 0u);
  EXPECT_NE(x.error(src, "c").find("returns void or a 32-bit integer"), std::string::npos);
  EXPECT_NE(x.error(src, "d").find("takes no parameters"), std::string::npos);
  EXPECT_EQ(x.lower(src, "e").ret.kind, ArgKind::Direct); // unprototyped, no arguments
  Lowerer s(ipuOptions(Mode::Supervisor, AbiVariant::Documented));
  EXPECT_TRUE(s.lower(src, "b").ret.parts.empty());
}

TEST(IpuCallconv, DocumentedVariantDiffersWhereTheSeedSpeaks) {
  const std::string src = "#include <ipudef.h>\n"
                          "struct F { float f; };\n"
                          "struct F f(int a, long long b, int c, double d, struct F s);\n"
                          "void v(int n, float x, ...);\n";
  Lowerer c(ipuOptions()), d(ipuOptions(Mode::Worker, AbiVariant::Documented));
  FunctionLowering fc = c.lower(src, "f"), fd = d.lower(src, "f");
  // compiler: sret $m0, a $m1, b $m2/$m3, c stack 0, d stack 4/8, s byval stack 12
  EXPECT_EQ(partsText(fc.ret), "$m0");
  EXPECT_TRUE(fc.ret.sret);
  EXPECT_EQ(partsText(fc.params[1]), "$m2[0,4] $m3[4,4]");
  EXPECT_EQ(partsText(fc.params[2]), "stack:0");
  EXPECT_EQ(partsText(fc.params[3]), "stack:4[0,4] stack:8[4,4]");
  EXPECT_EQ(partsText(fc.params[4]), "stack:12");
  // documented: return as float ($a0), a $m0, b $m2:3, c stack 0, d $a0:1, s as float $a2
  EXPECT_EQ(partsText(fd.ret), "$a0");
  EXPECT_FALSE(fd.ret.sret);
  EXPECT_EQ(partsText(fd.params[0]), "$m0");
  EXPECT_EQ(partsText(fd.params[1]), "$m2:3");
  EXPECT_EQ(partsText(fd.params[2]), "stack:0");
  EXPECT_EQ(partsText(fd.params[3]), "$a0:1");
  EXPECT_EQ(fd.params[4].kind, ArgKind::Direct);
  EXPECT_EQ(partsText(fd.params[4]), "$a2");
  // variadic: the compiler puts the named n and x on the stack, the seed only the extras
  FunctionLowering vc = c.lower(src, "v", {"int"}), vd = d.lower(src, "v", {"int"});
  EXPECT_EQ(partsText(vc.params[0]), "stack:0");
  EXPECT_EQ(partsText(vc.params[2]), "stack:8");
  EXPECT_EQ(partsText(vd.params[0]), "$m0");
  EXPECT_EQ(partsText(vd.params[1]), "$a0");
  EXPECT_EQ(partsText(vd.params[2]), "stack:0");
}

TEST(IpuCallconv, Rejections) {
  Lowerer x(ipuOptions());
  const std::string src = "#include <ipudef.h>\n"
                          "typedef float f3 __attribute__((ext_vector_type(3)));\n"
                          "typedef double big __attribute__((vector_size(64)));\n"
                          "void a(char2 v);\n"
                          "void b(f3 v);\n"
                          "void c(__fp16 h, ...);\n"
                          "__attribute__((amdgpu_kernel)) void k(void);\n"
                          "void d(big v);\n"
                          "big e(void);\n";
  EXPECT_NE(x.error(src, "a").find("vectors of 8-bit integers"), std::string::npos);
  EXPECT_NE(x.error(src, "b").find("not a power of two"), std::string::npos);
  EXPECT_NE(x.error(src, "c").find("cannot pass vectors or half"), std::string::npos);
  EXPECT_NE(x.error(src, "k").find("kernel"), std::string::npos);
  // 64-byte vectors: the compiler splits them (16 pieces) and demotes the return ...
  FunctionLowering d = x.lower(src, "d");
  EXPECT_EQ(d.params[0].parts.size(), 16u);
  EXPECT_TRUE(x.lower(src, "e").ret.sret);
  // ... while the seed's text stops at 128 bits.
  Lowerer doc(ipuOptions(Mode::Worker, AbiVariant::Documented));
  EXPECT_NE(doc.error(src, "d").find("up to 128 bits"), std::string::npos);
  EXPECT_NE(doc.error("struct Q { struct { int y; } __attribute__((aligned(8))) in; };\n"
                      "void f(struct Q q);",
                      "f")
                .find("different size"),
            std::string::npos);
  EXPECT_NE(doc.error("struct A { int a[2]; };\nvoid f(struct A a);", "f").find("array"),
            std::string::npos);
  EXPECT_EQ(doc.lower("struct A { int a[2]; int b; };\nvoid f(struct A a);", "f").params[0].kind,
            ArgKind::Indirect);
}

TEST(IpuCallconv, RejectionsArePositionedAtTheParameter) {
  Lowerer x(ipuOptions(Mode::Supervisor));
  try {
    x.lower("void f(int a,\n  int b, __fp16 h);", "f");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.column(), 17u);
    EXPECT_NE(e.message().find("function 'f': parameter 'h'"), std::string::npos);
  }
}

TEST(IpuCallconv, HugeVectorsStayBounded) {
  Lowerer x(ipuOptions());
  FunctionLowering f = x.lower("typedef int big __attribute__((vector_size(4096)));\n"
                               "big f(big v, int a);",
                               "f");
  EXPECT_TRUE(f.ret.sret);
  EXPECT_EQ(partsText(f.ret), "$m0");
  ASSERT_EQ(f.params[0].parts.size(), 512u); // v2i32 pieces
  EXPECT_EQ(test::locText(f.params[0].parts[0]), "$m2:3");
  EXPECT_EQ(partsText(f.params[1]), "$m1");
  EXPECT_EQ(f.stack_bytes, 511u * 8);
  test::checkInvariants(x.target(), x.layout(), f);
  EXPECT_NE(x.error("typedef int huge __attribute__((vector_size(1073741824)));\n"
                    "huge f(int a, huge v);",
                    "f")
                .find("up to 65536 elements"),
            std::string::npos);
}

// ----- random prototypes against a model of the reference rules ------------------------------

enum class P { M, A, MP, AP };
struct Piece {
  P kind;
  uint32_t size;
};
struct ModelType {
  const char* spelling;
  std::vector<Piece> worker;     // pieces in worker mode
  std::vector<Piece> supervisor; // empty: not allowed outside worker mode
  bool vector_or_half;
  bool aggregate;
};

const std::vector<ModelType>& modelTypes() {
  static const std::vector<ModelType> t = {
      {"int", {{P::M, 4}}, {{P::M, 4}}, false, false},
      {"char", {{P::M, 1}}, {{P::M, 1}}, false, false},
      {"unsigned short", {{P::M, 2}}, {{P::M, 2}}, false, false},
      {"float", {{P::A, 4}}, {{P::M, 4}}, false, false},
      {"long long", {{P::M, 4}, {P::M, 4}}, {{P::M, 4}, {P::M, 4}}, false, false},
      {"double", {{P::M, 4}, {P::M, 4}}, {{P::M, 4}, {P::M, 4}}, false, false},
      {"void *", {{P::M, 4}}, {{P::M, 4}}, false, false},
      {"struct S", {{P::M, 4}}, {{P::M, 4}}, false, true},
      {"int2", {{P::MP, 8}}, {{P::MP, 8}}, true, false},
      {"short2", {{P::M, 4}}, {{P::M, 4}}, true, false},
      {"int4", {{P::MP, 8}, {P::MP, 8}}, {{P::MP, 8}, {P::MP, 8}}, true, false},
      {"longlong2",
       {{P::M, 4}, {P::M, 4}, {P::M, 4}, {P::M, 4}},
       {{P::M, 4}, {P::M, 4}, {P::M, 4}, {P::M, 4}},
       true,
       false},
      {"float2", {{P::AP, 8}}, {}, true, false},
      {"half", {{P::A, 2}}, {}, true, false},
      {"half2", {{P::A, 4}}, {}, true, false},
      {"half4", {{P::AP, 8}}, {}, true, false},
      {"float4", {{P::AP, 8}, {P::AP, 8}}, {}, true, false},
  };
  return t;
}

/// reference/ipu.md §3.1-3.3, restated: separate $m/$a files, first free register (pairs need
/// both halves free), else 4/4 or 8/8 stack slots in argument order; a variadic callee gets
/// every piece in a 4/4 slot.
struct IpuModel {
  bool m[4] = {}, a[6] = {};
  int64_t off = 0;

  std::string stack(int64_t size) {
    off = (off + size - 1) / size * size;
    std::string s = "stack:" + std::to_string(off);
    off += size;
    return s;
  }
  std::string reg(P kind, bool* file, int n, const char* prefix, bool pair) {
    for (int i = 0; i + (pair ? 1 : 0) < n; i += pair ? 2 : 1)
      if (!file[i] && (!pair || !file[i + 1])) {
        file[i] = true;
        if (pair) file[i + 1] = true;
        return pair ? prefix + std::to_string(i) + ":" + std::to_string(i + 1)
                    : prefix + std::to_string(i);
      }
    (void)kind;
    return "";
  }
  std::string place(const Piece& p, bool variadic, bool allow_stack = true) {
    if (variadic) return stack(4);
    std::string r = p.kind == P::M    ? reg(p.kind, m, 4, "$m", false)
                    : p.kind == P::A  ? reg(p.kind, a, 6, "$a", false)
                    : p.kind == P::MP ? reg(p.kind, m, 4, "$m", true)
                                      : reg(p.kind, a, 6, "$a", true);
    if (!r.empty() || !allow_stack) return r;
    return stack(p.kind == P::MP || p.kind == P::AP ? 8 : 4);
  }
};

std::string piecesText(const std::vector<std::string>& locs, const std::vector<Piece>& ps) {
  if (locs.size() == 1) return locs[0];
  std::string s;
  uint32_t off = 0;
  for (size_t i = 0; i < locs.size(); ++i) {
    if (i) s += " ";
    s += locs[i] + "[" + std::to_string(off) + "," + std::to_string(ps[i].size) + "]";
    off += ps[i].size;
  }
  return s;
}

TEST(IpuCallconv, RandomPrototypesMatchTheReferenceRules) {
  const std::vector<ModelType>& types = modelTypes();
  for (Mode mode : {Mode::Worker, Mode::Supervisor, Mode::Both}) {
    SCOPED_TRACE(int(mode));
    const bool worker = mode == Mode::Worker;
    std::vector<int> allowed, scalar;
    for (int i = 0; i < int(types.size()); ++i)
      if (worker || !types[size_t(i)].supervisor.empty()) {
        allowed.push_back(i);
        if (!types[size_t(i)].vector_or_half) scalar.push_back(i);
      }
    std::mt19937 rng(7 + int(mode));
    const int kFunctions = 500;
    std::string src = "#include <ipudef.h>\nstruct S { int a, b, c; };\n";
    struct Case {
      int ret;
      std::vector<int> fixed;
      std::vector<int> extra;
      bool variadic;
    };
    std::vector<Case> cases;
    for (int i = 0; i < kFunctions; ++i) {
      Case c;
      c.variadic = rng() % 4 == 0;
      const std::vector<int>& pool = c.variadic ? scalar : allowed;
      c.ret = int(rng() % (allowed.size() + 2)) - 1; // -1 void, size: longlong4
      int n = int(rng() % 10) + (c.variadic ? 1 : 0);
      for (int k = 0; k < n; ++k) c.fixed.push_back(pool[rng() % pool.size()]);
      if (c.variadic)
        for (int k = int(rng() % 5); k > 0; --k) c.extra.push_back(scalar[rng() % scalar.size()]);
      std::string ret = c.ret < 0 ? "void"
                        : c.ret == int(allowed.size())
                            ? "longlong4"
                            : types[size_t(allowed[size_t(c.ret)])].spelling;
      std::string decl = ret + " f" + std::to_string(i) + "(";
      for (size_t k = 0; k < c.fixed.size(); ++k)
        decl += (k ? ", " : "") + std::string(types[size_t(c.fixed[k])].spelling);
      if (c.fixed.empty()) decl += "void";
      if (c.variadic) decl += ", ...";
      src += decl + ");\n";
      if (!c.extra.empty()) {
        src += "void p" + std::to_string(i) + "(";
        for (size_t k = 0; k < c.extra.size(); ++k)
          src += (k ? ", " : "") + std::string(types[size_t(c.extra[k])].spelling);
        src += ");\n";
      }
      cases.push_back(c);
    }
    Lowerer x(ipuOptions(mode));
    TranslationUnit tu = x.parse(src);
    for (int i = 0; i < kFunctions; ++i) {
      const Case& c = cases[size_t(i)];
      SCOPED_TRACE("f" + std::to_string(i));
      const FunctionDecl* probe = tu.findFunction("p" + std::to_string(i));
      FunctionLowering f = x.lowerDecl(*tu.findFunction("f" + std::to_string(i)), probe);
      test::checkInvariants(x.target(), x.layout(), f);

      auto piecesOf = [&](int t) -> const std::vector<Piece>& {
        return worker ? types[size_t(t)].worker : types[size_t(t)].supervisor;
      };
      IpuModel model;
      // return value
      if (c.ret >= 0) {
        bool sret = c.ret == int(allowed.size()) || types[size_t(allowed[size_t(c.ret)])].aggregate;
        std::string expect;
        if (!sret) {
          IpuModel r;
          std::vector<std::string> locs;
          const std::vector<Piece>& ps = piecesOf(allowed[size_t(c.ret)]);
          for (const Piece& p : ps) locs.push_back(r.place(p, false, false));
          sret = std::find(locs.begin(), locs.end(), "") != locs.end();
          if (!sret) expect = piecesText(locs, ps);
        }
        if (sret) expect = model.place({P::M, 4}, c.variadic);
        EXPECT_EQ(f.ret.sret, sret);
        EXPECT_EQ(partsText(f.ret), expect);
      }
      ASSERT_EQ(f.params.size(), c.fixed.size() + c.extra.size());
      for (size_t k = 0; k < c.fixed.size(); ++k) {
        const std::vector<Piece>& ps = piecesOf(c.fixed[k]);
        std::vector<std::string> locs;
        for (const Piece& p : ps) locs.push_back(model.place(p, c.variadic));
        EXPECT_EQ(partsText(f.params[k]), piecesText(locs, ps)) << "param " << k;
      }
      for (size_t k = 0; k < c.extra.size(); ++k) {
        // promotions: char -> int (4 bytes), float -> double (two halves)
        std::string sp = types[size_t(c.extra[k])].spelling;
        std::vector<Piece> ps = sp == "char"    ? std::vector<Piece>{{P::M, 4}}
                                : sp == "float" ? std::vector<Piece>{{P::M, 4}, {P::M, 4}}
                                                : types[size_t(c.extra[k])].worker;
        if (sp == "unsigned short") ps = {{P::M, 4}};
        std::vector<std::string> locs;
        for (size_t n = 0; n < ps.size(); ++n) locs.push_back(model.stack(4));
        EXPECT_EQ(partsText(f.params[c.fixed.size() + k]), piecesText(locs, ps)) << "extra " << k;
      }
      EXPECT_EQ(int64_t(f.stack_bytes), model.off);
    }

    // The documented variant on the same prototypes: only the invariants (the goldens check
    // its placements).
    Lowerer d(ipuOptions(mode, AbiVariant::Documented));
    TranslationUnit dtu = d.parse(src);
    for (int i = 0; i < kFunctions; ++i) {
      SCOPED_TRACE("documented f" + std::to_string(i));
      const FunctionDecl* probe = dtu.findFunction("p" + std::to_string(i));
      const FunctionDecl* fn = dtu.findFunction("f" + std::to_string(i));
      try {
        test::checkInvariants(d.target(), d.layout(), d.lowerDecl(*fn, probe));
      } catch (const Error& e) {
        // only the 32-byte longlong4 return is outside the seed's rules
        EXPECT_NE(e.message().find("up to 128 bits"), std::string::npos) << e.message();
      }
    }
  }
}

} // namespace
