// RISC-V calling convention: hand-checked cases for every named ABI, the examples of
// reference/riscv.md §3 (psABI) and §4.10 (E ABIs), the issue's acceptance case (through the
// CLI in tests/cli/test_call_cli.cpp), and the rejections. Each expectation was worked out from the
// rules (clang-14's RISCVABIInfo and LLVM 14's CC_RISCV, docs/targets/riscv.md "Calling
// convention") and, for the ABIs clang-14 implements, checked against clang-14/llc-14 assembly.
//
// A lowering is summarised as "ret | arg0 | arg1 | ...": a location is a register name or
// stkN (byte N of the outgoing argument area); several parts are "loc@offset:size" joined
// with '+'; "s:"/"z:" mark sign/zero extension, "*" an indirect argument (the pointer's
// location), "-" an ignored value.
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>

using namespace abikit;

namespace {

struct Lowered {
  std::unique_ptr<Target> target;
  std::unique_ptr<TypeContext> ctx;
  std::unique_ptr<LayoutEngine> layout;
  FunctionLowering fl;
};

/// `spec`: "riscv64 lp64d" (the -march defaults to the ABI's: rv64imafdc, rv32e, ...).
Lowered lower(const std::string& spec, const std::string& source, const std::string& fn,
              const std::string& extra = "") {
  Lowered out;
  TargetOptions o;
  size_t sp = spec.find(' ');
  o.triple = spec.substr(0, sp) + "-unknown-elf";
  o.mabi = spec.substr(sp + 1);
  if (size_t cc = o.mabi.find(' '); cc != std::string::npos) { // "riscv64 lp64 clang-22"
    o.compiler = o.mabi.substr(cc + 1);
    o.mabi.resize(cc);
  }
  if (o.mabi == "lp64q") o.march = "rv64gq";
  out.target = std::make_unique<Target>(resolveTarget(o));
  out.ctx = std::make_unique<TypeContext>(*out.target, Language::C);
  out.layout = std::make_unique<LayoutEngine>(*out.ctx);
  std::string text = source;
  if (!extra.empty()) text += "\nvoid probe__(" + extra + ");\n";
  TranslationUnit tu = parseSource(*out.ctx, *out.layout, "test.h", text, ParseOptions{});
  const FunctionDecl* f = tu.findFunction(fn);
  if (!f) throw std::runtime_error("no function " + fn);
  std::vector<const Type*> types;
  if (const FunctionDecl* p = tu.findFunction("probe__"))
    for (const ParamDecl& pd : p->type->params) types.push_back(pd.type);
  LowerOptions lo;
  lo.variadic_args = types;
  out.fl = lowerFunction(*out.ctx, *out.layout, *f, lo);
  return out;
}

std::string where(const ArgLowering& a, const LayoutEngine& layout) {
  if (a.kind == ArgKind::Ignore) return "-";
  std::string s;
  if (a.kind == ArgKind::Extend) s = a.extend == ExtendKind::Sign ? "s:" : "z:";
  if (a.kind == ArgKind::Indirect) s = "*";
  uint64_t size = layout.of(a.type).size;
  bool whole = a.parts.size() == 1 && a.parts[0].offset == 0 &&
               (a.kind == ArgKind::Indirect || a.parts[0].size == size);
  for (size_t i = 0; i < a.parts.size(); ++i) {
    const ArgPart& p = a.parts[i];
    if (i) s += " + ";
    s += p.loc.kind == ArgLocation::Kind::Register ? std::string(p.loc.reg)
                                                   : "stk" + std::to_string(p.loc.stack_offset);
    if (!whole) s += "@" + std::to_string(p.offset) + ":" + std::to_string(p.size);
  }
  return s;
}

std::string summary(const Lowered& l) {
  std::string s = where(l.fl.ret, *l.layout);
  for (const ArgLowering& a : l.fl.params) s += " | " + where(a, *l.layout);
  return s;
}

std::string run(const std::string& spec, const std::string& source, const std::string& fn = "f",
                const std::string& extra = "") {
  return summary(lower(spec, source, fn, extra));
}

std::string errorOf(const std::string& spec, const std::string& source,
                    const std::string& extra = "") {
  try {
    return "no error: " + run(spec, source, "f", extra);
  } catch (const Error& e) {
    return e.message();
  }
}

bool hasNote(const Lowered& l, const std::string& text) {
  for (const std::string& n : l.fl.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

// ----- the acceptance case ---------------------------------------------------------------------

constexpr const char* kAcceptance = "struct P{float a; int b;}; struct Q{long long x,y,z;};\n"
                                    "void f(int, long long, struct P, double, struct Q, ...);\n";

TEST(RiscvCallconv, AcceptanceCase) {
  // a0; a1+a2; fa0+a3; fa1; a4 (pointer), as llc-14 assigns them.
  EXPECT_EQ(run("riscv32 ilp32d", kAcceptance),
            "- | a0 | a1@0:4 + a2@4:4 | fa0@0:4 + a3@4:4 | fa1 | *a4");
  Lowered l = lower("riscv32 ilp32d", kAcceptance, "f");
  const ArgLowering& q = l.fl.params[4];
  EXPECT_EQ(q.kind, ArgKind::Indirect);
  EXPECT_FALSE(q.byval); // a pointer to a caller-made temporary, not an LLVM byval copy
  EXPECT_EQ(q.align, 8u);
  EXPECT_EQ(l.fl.stack_bytes, 0u);
}

// ----- integer convention ----------------------------------------------------------------------

TEST(RiscvCallconv, ScalarsAndExtension) {
  const char* src = "void f(char, signed char, unsigned char, short, unsigned short, _Bool, int,"
                    " unsigned int);";
  // char is unsigned on RISC-V; RV64 sign-extends 32-bit unsigned values; RV32 extends nothing
  // 32 bits wide.
  EXPECT_EQ(run("riscv64 lp64", src), "- | z:a0 | s:a1 | z:a2 | s:a3 | z:a4 | z:a5 | s:a6 | s:a7");
  EXPECT_EQ(run("riscv32 ilp32", src), "- | z:a0 | s:a1 | z:a2 | s:a3 | z:a4 | z:a5 | a6 | a7");
  EXPECT_EQ(run("riscv64 lp64", "unsigned int f(long, unsigned long, void *);"),
            "s:a0 | a0 | a1 | a2");
  EXPECT_EQ(run("riscv64 lp64", "enum E { A = 1, B = 0xffffffffu }; enum E f(enum E);"),
            "s:a0 | s:a0");
  EXPECT_EQ(run("riscv64 lp64", "enum __attribute__((packed)) E { A = 200 }; enum E f(enum E);"),
            "z:a0 | z:a0");
  EXPECT_EQ(run("riscv64 lp64", "typedef unsigned int u32; u32 f(u32);"), "s:a0 | s:a0");
}

TEST(RiscvCallconv, Clang14DoesNotExtendNarrowIntegersOnTheStack) {
  // clang-14 extends only what it expects in a register; GCC and the psABI extend on the stack
  // too (docs/targets/riscv.md).
  Lowered l = lower("riscv64 lp64 clang-14",
                    "void f(int, int, int, int, int, int, int, int, unsigned char, short);", "f");
  EXPECT_EQ(summary(l), "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:a6 | s:a7 | stk0 | stk8");
  EXPECT_EQ(l.fl.stack_bytes, 16u);
  EXPECT_TRUE(hasNote(l, "without extension"));
  EXPECT_EQ(
      run("riscv32 ilp32 clang-14", "void f(int, int, int, int, int, int, int, int, char, char);"),
      "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7 | stk0 | stk4");
}

TEST(RiscvCallconv, TwoXlenScalarsPairsAndSplits) {
  // Named 2×XLEN scalars take the next two GPRs, no even-register alignment (E87).
  EXPECT_EQ(run("riscv64 lp64d", "void f(int, long double);"), "- | s:a0 | a1@0:8 + a2@8:8");
  EXPECT_EQ(run("riscv64 lp64", "void f(int, __int128);"), "- | s:a0 | a1@0:8 + a2@8:8");
  EXPECT_EQ(run("riscv32 ilp32", "void f(int, long long);"), "- | a0 | a1@0:4 + a2@4:4");
  // Low half in a7, high half on the stack.
  EXPECT_EQ(run("riscv32 ilp32", "void f(int, int, int, int, int, int, int, long long);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7@0:4 + stk0@4:4");
  EXPECT_EQ(run("riscv32 ilp32", "void f(int, int, int, int, int, int, int, double);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7@0:4 + stk0@4:4");
  // Both halves on the stack: aligned to the type (8), after a 4-byte slot.
  EXPECT_EQ(
      run("riscv32 ilp32", "void f(int, int, int, int, int, int, int, int, int, long long, int);"),
      "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7 | stk0 | stk8 | stk16");
  EXPECT_EQ(run("riscv64 lp64",
                "void f(long, long, long, long, long, long, long, long, long, __int128);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7 | stk0 | stk16");
  // Larger than 2×XLEN: by reference.
  EXPECT_EQ(run("riscv32 ilp32d", "long double f(long double);"), "*a0 | *a1");
}

TEST(RiscvCallconv, Aggregates) {
  const char* src = "struct S1 { char c; }; struct S2 { int a, b; }; struct S3 { int a, b, c; };"
                    "struct S4 { long long x; }; struct S5 { char c[6]; };"
                    "void f(struct S1, struct S2, struct S3, struct S4, struct S5);";
  EXPECT_EQ(run("riscv32 ilp32", src),
            "- | a0 | a1@0:4 + a2@4:4 | *a3 | a4@0:4 + a5@4:4 | a6@0:4 + a7@4:2");
  EXPECT_EQ(run("riscv64 lp64", src), "- | a0 | a1 | a2@0:8 + a3@8:4 | a4 | a5");
  // A 2×XLEN aggregate with one register left: first XLEN in a7, the rest on the stack (E57).
  EXPECT_EQ(run("riscv32 ilp32",
                "struct S { int a, b; }; void f(int, int, int, int, int, int, int, struct S);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7@0:4 + stk0@4:4");
  // Larger than 2×XLEN: a pointer to a copy the callee may modify (byval false).
  Lowered l = lower("riscv64 lp64", "struct B { long a, b, c; }; void f(struct B);", "f");
  EXPECT_EQ(summary(l), "- | *a0");
  EXPECT_FALSE(l.fl.params[0].byval);
  EXPECT_EQ(l.fl.params[0].align, 8u);
  // Unions and arrays inside records are passed like any aggregate of their size.
  EXPECT_EQ(run("riscv64 lp64d", "union U { float f; int i; }; void f(union U);"), "- | a0");
  EXPECT_EQ(run("riscv32 ilp32", "struct A { short s[3]; }; void f(struct A);"),
            "- | a0@0:4 + a1@4:2");
}

TEST(RiscvCallconv, StackSlots) {
  // Every stack-passed value takes an XLEN slot (a char too), aggregates in XLEN pieces.
  EXPECT_EQ(run("riscv64 lp64", "struct S { int a, b, c; };"
                                "void f(long, long, long, long, long, long, long, long, char,"
                                " struct S, int);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7 | z:stk0 | stk8 | s:stk24");
}

TEST(RiscvCallconv, EmptyRecordsAreIgnored) {
  // C empty records (GNU extension) take no register or slot, and neither do records made only
  // of unnamed bit-fields and empty members (clang-14's isEmptyRecord).
  EXPECT_EQ(run("riscv64 lp64", "struct E {}; struct E f(struct E, int, struct E);"),
            "- | - | s:a0 | -");
  EXPECT_EQ(run("riscv64 lp64 clang-14", "struct E {}; struct B { int : 5; struct E e[2]; };"
                                         "void f(struct B, int);"),
            "- | - | s:a0");
}

TEST(RiscvCallconv, SretReturns) {
  // A return that would be by reference is written through a hidden pointer in a0; the
  // arguments start at a1.
  Lowered l = lower("riscv32 ilp32", "struct T { int a, b, c; }; struct T f(int);", "f");
  EXPECT_EQ(summary(l), "*a0 | a1");
  EXPECT_TRUE(l.fl.ret.sret);
  EXPECT_EQ(l.fl.ret.align, 4u);
  // On RV64 the same struct fits two registers.
  EXPECT_EQ(run("riscv64 lp64", "struct T { int a, b, c; }; struct T f(int);"),
            "a0@0:8 + a1@8:4 | s:a0");
  // Small integer returns are extended.
  EXPECT_EQ(run("riscv64 lp64", "short f(void);"), "s:a0");
  EXPECT_EQ(run("riscv64 lp64", "unsigned char f(void);"), "z:a0");
}

// ----- hardware floating-point convention ------------------------------------------------------

TEST(RiscvCallconv, FloatingPointRegisters) {
  // Reals in fa0-fa7 whether or not GPRs are left (E59/E93); once fa7 is taken, the integer
  // convention (E52).
  EXPECT_EQ(run("riscv32 ilp32f", "void f(float, float, float, float, float, float, float,"
                                  " float, float, float);"),
            "- | fa0 | fa1 | fa2 | fa3 | fa4 | fa5 | fa6 | fa7 | a0 | a1");
  EXPECT_EQ(run("riscv64 lp64d", "void f(int, int, int, int, int, int, int, int, double);"),
            "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:a6 | s:a7 | fa0");
  // ABI_FLEN limits: a double under ilp32f/lp64f is an integer-convention value.
  EXPECT_EQ(run("riscv32 ilp32f", "double f(double, float);"),
            "a0@0:4 + a1@4:4 | a0@0:4 + a1@4:4 | fa0");
  EXPECT_EQ(run("riscv64 lp64f", "double f(double, float);"), "a0 | a0 | fa0");
  // Soft-float ABIs pass reals in GPRs.
  EXPECT_EQ(run("riscv64 lp64", "float f(float, double);"), "a0 | a0 | a1");
  // long double is never in an FPR below lp64q.
  EXPECT_EQ(run("riscv64 lp64d", "long double f(long double);"),
            "a0@0:8 + a1@8:8 | a0@0:8 + a1@8:8");
}

TEST(RiscvCallconv, Float16) {
  // _Float16 is a real of its own (NaN-boxed in an FPR) when ABI_FLEN >= 32.
  EXPECT_EQ(run("riscv32 ilp32f", "_Float16 f(_Float16);"), "fa0 | fa0");
  EXPECT_EQ(run("riscv64 lp64", "_Float16 f(_Float16);"), "a0 | a0");
  // clang-14 never flattens a struct with a _Float16 member (E46, E94).
  EXPECT_EQ(run("riscv64 lp64d clang-14", "struct H { _Float16 a; int b; }; void f(struct H);"),
            "- | a0");
  EXPECT_EQ(run("riscv64 lp64d clang-14", "struct H { _Float16 a, b; }; void f(struct H);"),
            "- | a0");
  // ... but a _Complex _Float16 member is (clang-14's complex rule has no lower bound).
  EXPECT_EQ(run("riscv64 lp64d", "struct H { _Complex _Float16 c; }; void f(struct H);"),
            "- | fa0@0:2 + fa1@2:2");
  // __fp16 cannot be a parameter or a return type in C.
  EXPECT_NE(errorOf("riscv64 lp64d", "void f(__fp16);").find("__fp16"), std::string::npos);
  EXPECT_NE(errorOf("riscv64 lp64d", "__fp16 f(void);").find("__fp16"), std::string::npos);
  // An extra __fp16 argument is promoted to double.
  EXPECT_EQ(run("riscv64 lp64d", "void f(int, ...);", "f", "__fp16"), "- | s:a0 | a1");
}

TEST(RiscvCallconv, StructFlattening) {
  // One real, two reals, a real and an integer, at their real offsets.
  EXPECT_EQ(run("riscv64 lp64d", "struct S { double d; }; void f(struct S);"), "- | fa0");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a; double b; }; void f(struct S);"),
            "- | fa0@0:4 + fa1@8:8");
  EXPECT_EQ(run("riscv32 ilp32d", "struct S { double d; int i; }; struct S f(struct S);"),
            "fa0@0:8 + a0@8:4 | fa0@0:8 + a0@8:4");
  EXPECT_EQ(run("riscv64 lp64f", "struct S { char c; float f; }; void f(struct S);"),
            "- | a0@0:1 + fa0@4:4");
  // Nested records and arrays are flattened: struct{struct{float f[1];} a[2];} is
  // struct{float f0, f1;}.
  EXPECT_EQ(run("riscv32 ilp32f", "struct In { float f[1]; }; struct S { struct In a[2]; };"
                                  "void f(struct S);"),
            "- | fa0@0:4 + fa1@4:4");
  // Packed and over-aligned members keep their own offsets (the bug rustc fixed).
  EXPECT_EQ(run("riscv64 lp64d",
                "struct __attribute__((packed)) S { char c; float f; }; void f(struct S);"),
            "- | a0@0:1 + fa0@1:4");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a; float b __attribute__((aligned(8))); };"
                                 "void f(struct S);"),
            "- | fa0@0:4 + fa1@8:4");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a; double b; } __attribute__((aligned(32)));"
                                 "void f(struct S);"),
            "- | fa0@0:4 + fa1@8:8");
  // Complex members count as two reals; an integer complex member as two integers
  // (clang-14: two GPRs, each with its own part).
  EXPECT_EQ(run("riscv64 lp64d", "struct S { _Complex float c; }; void f(struct S);"),
            "- | fa0@0:4 + fa1@4:4");
  EXPECT_EQ(run("riscv64 lp64f", "struct S { _Complex int c; }; void f(struct S);"),
            "- | a0@0:4 + a1@4:4");
  // Bit-fields are integer fields; a wide type with at most XLEN bits counts as XLEN.
  EXPECT_EQ(run("riscv32 ilp32f", "struct S { int x : 3; float f; }; void f(struct S);"),
            "- | a0@0:4 + fa0@4:4");
  EXPECT_EQ(run("riscv32 ilp32f", "struct S { long long x : 20; float f; }; void f(struct S);"),
            "- | a0@0:4 + fa0@4:4");
  // Not eligible: two integers, three fields, unions, pointers, an integer wider than XLEN.
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float f; int a, b; }; void f(struct S);"),
            "- | a0@0:8 + a1@8:4");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a, b, c; }; void f(struct S);"),
            "- | a0@0:8 + a1@8:4");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float f; void *p; }; void f(struct S);"),
            "- | a0@0:8 + a1@8:8");
  EXPECT_EQ(run("riscv32 ilp32d", "struct S { float f; long long l; }; void f(struct S);"),
            "- | *a0");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { union { float f; } u; }; void f(struct S);"),
            "- | a0");
  // Empty members and zero-length arrays are ignored (C).
  EXPECT_EQ(run("riscv64 lp64d", "struct E {}; struct S { struct E e[1]; float f; };"
                                 "void f(struct S);"),
            "- | fa0");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float z[0]; float f; int i; }; void f(struct S);"),
            "- | fa0@0:4 + a0@4:4");
}

TEST(RiscvCallconv, ZeroWidthBitFieldQuirk) {
  // clang-14 ignores zero-width bit-fields next to a single real (§3.4) ...
  EXPECT_EQ(run("riscv64 lp64d", "struct S { int : 0; float f; int : 0; }; void f(struct S);"),
            "- | fa0");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a; float b; int : 0; }; void f(struct S);"),
            "- | fa0@0:4 + fa1@4:4");
  // ... but one before the second flattened field makes the struct ineligible (E43).
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a; int : 0; float b; }; void f(struct S);"),
            "- | a0");
  EXPECT_EQ(run("riscv32 ilp32f", "struct S { float a; int : 0; float b; }; void f(struct S);"),
            "- | a0@0:4 + a1@4:4");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { int : 0; _Complex float c; }; void f(struct S);"),
            "- | a0");
}

TEST(RiscvCallconv, FlatteningNeedsAllItsRegisters) {
  // Never split between an FPR and a GPR or the stack (E84, E86): with one FPR left a
  // float+float struct uses the integer convention.
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a, b; };"
                                 "void f(double, double, double, double, double, double, double,"
                                 " struct S);"),
            "- | fa0 | fa1 | fa2 | fa3 | fa4 | fa5 | fa6 | a0");
  // With no GPR left a float+int struct goes to the stack in the integer convention.
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float a; int b; };"
                                 "void f(long, long, long, long, long, long, long, long,"
                                 " struct S);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | a6 | a7 | stk0");
}

TEST(RiscvCallconv, ComplexNumbers) {
  EXPECT_EQ(run("riscv32 ilp32d", "double _Complex f(double _Complex);"),
            "fa0@0:8 + fa1@8:8 | fa0@0:8 + fa1@8:8");
  EXPECT_EQ(run("riscv32 ilp32f", "float _Complex f(float _Complex);"),
            "fa0@0:4 + fa1@4:4 | fa0@0:4 + fa1@4:4");
  // Like a struct of two reals in the integer convention (§3.2 item 9).
  EXPECT_EQ(run("riscv32 ilp32", "double _Complex f(double _Complex);"), "*a0 | *a1");
  EXPECT_EQ(run("riscv64 lp64", "double _Complex f(double _Complex);"),
            "a0@0:8 + a1@8:8 | a0@0:8 + a1@8:8");
  EXPECT_EQ(run("riscv32 ilp32f", "double _Complex f(float _Complex);"), "*a0 | fa0@0:4 + fa1@4:4");
  // Integer complex numbers are aggregates.
  EXPECT_EQ(run("riscv64 lp64d", "void f(_Complex int, _Complex short);"), "- | a0 | a1");
  // A complex number needs two free FPRs.
  EXPECT_EQ(run("riscv64 lp64d", "void f(double, double, double, double, double, double, double,"
                                 " float _Complex);"),
            "- | fa0 | fa1 | fa2 | fa3 | fa4 | fa5 | fa6 | a0");
}

TEST(RiscvCallconv, MisplacedFlattenedField) {
  // clang-14 lays out its coerced struct {i32, float} without looking at the float's offset 1
  // in this packed struct: the float is read from byte 4 (only byte 4 is inside the 5-byte
  // object). abikit reports what clang-14 passes and says so.
  Lowered l =
      lower("riscv32 ilp32f",
            "struct __attribute__((packed)) P { int a : 8; float f; }; void f(struct P);", "f");
  EXPECT_EQ(summary(l), "- | a0@0:4 + fa0@4:1");
  EXPECT_TRUE(hasNote(l, "not from its own offset 1"));
}

// ----- variadic calls --------------------------------------------------------------------------

TEST(RiscvCallconv, VariadicArguments) {
  const char* src = "int f(int, ...);";
  // 2×XLEN-aligned varargs take an aligned register pair (E60, E63).
  EXPECT_EQ(run("riscv32 ilp32d", src, "f", "double"), "a0 | a0 | a2@0:4 + a3@4:4");
  EXPECT_EQ(run("riscv32 ilp32", src, "f", "long long, int"), "a0 | a0 | a2@0:4 + a3@4:4 | a4");
  EXPECT_EQ(run("riscv64 lp64d", src, "f", "long double"), "s:a0 | s:a0 | a2@0:8 + a3@8:8");
  EXPECT_EQ(run("riscv64 lp64", src, "f", "__int128"), "s:a0 | s:a0 | a2@0:8 + a3@8:8");
  // Varargs never use FPRs; float is promoted to double, char to int.
  EXPECT_EQ(run("riscv64 lp64d", src, "f", "float, char, double"), "s:a0 | s:a0 | a1 | s:a2 | a3");
  // A struct of 2×XLEN alignment is aligned too; one of XLEN alignment is not.
  EXPECT_EQ(run("riscv32 ilp32",
                "struct A { long long x; }; struct B { int a, b; };" + std::string(src), "f",
                "struct A, struct B"),
            "a0 | a0 | a2@0:4 + a3@4:4 | a4@0:4 + a5@4:4");
  // No aligned pair left: the stack, and a7 stays unused (E67).
  EXPECT_EQ(
      run("riscv32 ilp32", "int f(int, int, int, int, int, int, int, ...);", "f", "long long, int"),
      "a0 | a0 | a1 | a2 | a3 | a4 | a5 | a6 | stk0 | stk8");
  // Variadic aggregates larger than 2×XLEN are passed by reference like named ones.
  EXPECT_EQ(run("riscv64 lp64", "struct B { long a, b, c; };" + std::string(src), "f", "struct B"),
            "s:a0 | s:a0 | *a1");
  // A variadic real after named reals: integer registers.
  EXPECT_EQ(run("riscv64 lp64d", "int f(double, ...);", "f", "double"), "s:a0 | fa0 | a0");
}

// ----- _BitInt -------------------------------------------------------------------------------

TEST(RiscvCallconv, BitIntClang14) {
  // Narrower than XLEN: extended by signedness, except 17..32 bits on RV64, which clang-14
  // sign-extends (its rule looks at the 32-bit size).
  EXPECT_EQ(run("riscv64 lp64 clang-14",
                "void f(unsigned _BitInt(17), unsigned _BitInt(9), _BitInt(33),"
                " unsigned _BitInt(40));"),
            "- | s:a0 | z:a1 | s:a2 | z:a3");
  EXPECT_EQ(run("riscv64 lp64 clang-14", "void f(_BitInt(64), _BitInt(65), _BitInt(128));"),
            "- | a0 | a1@0:8 + a2@8:8 | a3@0:8 + a4@8:8");
  // RV32: 33..64 bits in a pair, wider by reference.
  EXPECT_EQ(run("riscv32 ilp32 clang-14", "void f(_BitInt(40), _BitInt(65));"),
            "- | a0@0:4 + a1@4:4 | *a2");
}

// ----- other rules ---------------------------------------------------------------------------

TEST(RiscvCallconv, TransparentUnionsAndVectors) {
  EXPECT_EQ(run("riscv64 lp64", "union __attribute__((transparent_union)) U { int *p; long l; };"
                                "void f(union U);"),
            "- | a0");
  EXPECT_EQ(run("riscv64 lp64", "union __attribute__((transparent_union)) U { int i; unsigned u; };"
                                "void f(union U);"),
            "- | s:a0");
  // Members of different sizes: clang ignores the attribute, the union is an aggregate.
  EXPECT_EQ(run("riscv64 lp64", "union __attribute__((transparent_union)) U { int i; long l; };"
                                "void f(union U);"),
            "- | a0");
  // Vectors are aggregates: in GPRs up to 2×XLEN, else by reference.
  const char* v = "typedef int v4 __attribute__((vector_size(16)));"
                  "typedef char v8 __attribute__((vector_size(8))); void f(v4, v8, ...);";
  EXPECT_EQ(run("riscv64 lp64d", v), "- | a0@0:8 + a1@8:8 | a2");
  EXPECT_EQ(run("riscv32 ilp32d", v), "- | *a0 | a1@0:4 + a2@4:4");
  // A 16-byte-aligned vector among the varargs on RV64 takes an aligned pair.
  EXPECT_EQ(run("riscv64 lp64d", v, "f", "v4"), "- | a0@0:8 + a1@8:8 | a2 | a4@0:8 + a5@8:8");
}

TEST(RiscvCallconv, HugeArraysOfEmptyRecordsAreFast) {
  // An array of a billion empty records is empty; the struct is one float.
  EXPECT_EQ(run("riscv64 lp64d", "struct E {}; struct S { struct E e[1000000000][1000]; float f; };"
                                 "void f(struct S);"),
            "- | fa0");
  EXPECT_EQ(run("riscv64 lp64d", "struct S { float f; float g[1000000000]; }; void f(struct S);"),
            "- | *a0");
}

TEST(RiscvCallconv, Clang19) {
  // clang-19 has clang-22's rules but the _BitInt one: _BitInt follows the integer of its size.
  const char* bits = "void f(unsigned _BitInt(17), _BitInt(65));";
  EXPECT_EQ(run("riscv64 lp64 clang-19", bits), "- | s:a0 | a1@0:8 + a2@8:8");
  EXPECT_EQ(run("riscv64 lp64 clang-22", bits), "- | z:a0 | s:a1@0:8 + a2@8:8");
  EXPECT_EQ(run("riscv64 lp64d clang-19", "struct H { _Float16 a; int b; }; void f(struct H);"),
            "- | fa0@0:2 + a0@4:4");
  EXPECT_EQ(run("riscv64 lp64 clang-19",
                "void f(int, int, int, int, int, int, int, int, unsigned char, short);"),
            "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:a6 | s:a7 | z:stk0 | s:stk8");
  EXPECT_EQ(run("riscv64 lp64 clang-19", "struct A { char : 7; }; void f(struct A, long);"),
            "- | a0 | a1");
}

TEST(RiscvCallconv, Clang22) {
  // What clang-22 does differently from clang-14 (docs/compilers.md), each against clang-14.
  // clang-22 is the default.
  EXPECT_EQ(lower("riscv64 lp64", "void f(void);", "f").target->compiler, Compiler::Clang22);
  const char* narrow = "void f(int, int, int, int, int, int, int, int, unsigned char, short);";
  EXPECT_EQ(run("riscv64 lp64 clang-22", narrow),
            "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:a6 | s:a7 | z:stk0 | s:stk8");
  EXPECT_EQ(run("riscv64 lp64 clang-14", narrow),
            "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:a6 | s:a7 | stk0 | stk8");
  const char* half = "struct H { _Float16 a; int b; }; void f(struct H);";
  EXPECT_EQ(run("riscv64 lp64d clang-22", half), "- | fa0@0:2 + a0@4:4");
  EXPECT_EQ(run("riscv64 lp64d clang-14", half), "- | a0");
  EXPECT_EQ(run("riscv64 lp64d clang-22", "struct H { __fp16 a, b; }; void f(struct H);"),
            "- | fa0@0:2 + fa1@2:2");
  // _BitInt: extended by its own signedness over every register it takes.
  EXPECT_EQ(run("riscv64 lp64 clang-22", "void f(unsigned _BitInt(17), unsigned _BitInt(32),"
                                         " _BitInt(33), unsigned _BitInt(40));"),
            "- | z:a0 | s:a1 | s:a2 | z:a3");
  EXPECT_EQ(run("riscv64 lp64 clang-22", "void f(_BitInt(64), _BitInt(65),"
                                         " unsigned _BitInt(100), _BitInt(128));"),
            "- | a0 | s:a1@0:8 + a2@8:8 | z:a3@0:8 + a4@8:8 | a5@0:8 + a6@8:8");
  EXPECT_EQ(
      run("riscv32 ilp32 clang-22", "void f(_BitInt(40), unsigned _BitInt(33), _BitInt(65));"),
      "- | s:a0@0:4 + a1@4:4 | z:a2@0:4 + a3@4:4 | *a4");
  EXPECT_EQ(run("riscv64 lp64 clang-22", "unsigned _BitInt(17) f(void);"), "z:a0");
  EXPECT_EQ(run("riscv64 lp64 clang-14", "unsigned _BitInt(17) f(void);"), "s:a0");
  // An empty record is ignored only when its size is zero.
  const char* empty =
      "struct A { char : 7; }; struct B { int : 0; }; void f(struct A, struct B, long);";
  EXPECT_EQ(run("riscv64 lp64 clang-22", empty), "- | a0 | - | a1");
  EXPECT_EQ(run("riscv64 lp64 clang-14", empty), "- | - | - | a0");
  // ... and one with nothing to flatten but a size takes the integer convention.
  EXPECT_EQ(run("riscv64 lp64d clang-22", "struct __attribute__((aligned(8))) C { int : 4; };"
                                          " void f(struct C);"),
            "- | a0");
}

TEST(RiscvCallconv, Rejections) {
  EXPECT_NE(errorOf("riscv64 lp64d", "struct I; void f(struct I);").find("struct I"),
            std::string::npos);
  // Kernels do not exist on RISC-V.
  EXPECT_NE(errorOf("riscv64 lp64d", "__attribute__((amdgpu_kernel)) void f(void);"),
            "no error: -");
}

// ----- the E ABIs (§4.10) --------------------------------------------------------------------

TEST(RiscvCallconv, EAbisD1ToD4) {
  const char* d1 = "void f(int, int, int, int, int, int, int);";
  EXPECT_EQ(run("riscv32 ilp32e", d1), "- | a0 | a1 | a2 | a3 | a4 | a5 | stk0");
  EXPECT_EQ(run("riscv64 lp64e", d1), "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:stk0");
  const char* d2 = "void f(int, int, int, int, int, long long);";
  EXPECT_EQ(run("riscv32 ilp32e", d2), "- | a0 | a1 | a2 | a3 | a4 | a5@0:4 + stk0@4:4");
  EXPECT_EQ(run("riscv64 lp64e", d2), "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | a5");
  const char* d3 = "void f(int, int, int, int, int, int, long long);";
  EXPECT_EQ(run("riscv32 ilp32e", d3), "- | a0 | a1 | a2 | a3 | a4 | a5 | stk0");
  EXPECT_EQ(run("riscv64 lp64e", d3), "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | stk0");
  // ILP32E aligns 8-byte values on the stack to 4 only.
  const char* d4 = "void f(int, int, int, int, int, int, int, long long);";
  EXPECT_EQ(run("riscv32 ilp32e", d4), "- | a0 | a1 | a2 | a3 | a4 | a5 | stk0 | stk4");
  EXPECT_EQ(run("riscv64 lp64e", d4),
            "- | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5 | s:stk0 | stk8");
  EXPECT_EQ(run("riscv32 ilp32e", "void f(int, int, int, int, int, int, int, double);"),
            "- | a0 | a1 | a2 | a3 | a4 | a5 | stk0 | stk4");
}

TEST(RiscvCallconv, EAbisD5ToD9) {
  // D5: no aligned pair under ILP32E.
  EXPECT_EQ(run("riscv32 ilp32e", "int f(int, ...);", "f", "double"), "a0 | a0 | a1@0:4 + a2@4:4");
  EXPECT_EQ(run("riscv64 lp64e", "int f(int, ...);", "f", "double"), "s:a0 | s:a0 | a1");
  // D6
  EXPECT_EQ(run("riscv32 ilp32e", "int f(int, ...);", "f", "long double"), "a0 | a0 | *a1");
  EXPECT_EQ(run("riscv64 lp64e", "int f(int, ...);", "f", "__int128"),
            "s:a0 | s:a0 | a2@0:8 + a3@8:8");
  EXPECT_EQ(run("riscv64 lp64e", "int f(int, ...);", "f", "long double"),
            "s:a0 | s:a0 | a2@0:8 + a3@8:8");
  // D7
  const char* d7 = "struct T { int a, b, c; }; struct T f(int, int, int, int, int, int);";
  EXPECT_EQ(run("riscv32 ilp32e", d7), "*a0 | a1 | a2 | a3 | a4 | a5 | stk0");
  EXPECT_EQ(run("riscv64 lp64e", d7), "a0@0:8 + a1@8:4 | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | s:a5");
  // D8, D9
  EXPECT_EQ(run("riscv32 ilp32e", "long long f(void);"), "a0@0:4 + a1@4:4");
  EXPECT_EQ(run("riscv64 lp64e", "__int128 f(void);"), "a0@0:8 + a1@8:8");
  EXPECT_EQ(run("riscv32 ilp32e", "float f(float);"), "a0 | a0");
  EXPECT_EQ(run("riscv64 lp64e", "float f(float);"), "a0 | a0");
  // Variadic 2×XLEN values at the end of a0-a5: ILP32E splits, LP64E skips a5.
  EXPECT_EQ(run("riscv32 ilp32e", "int f(int, int, int, int, int, ...);", "f", "long long"),
            "a0 | a0 | a1 | a2 | a3 | a4 | a5@0:4 + stk0@4:4");
  EXPECT_EQ(run("riscv64 lp64e", "int f(int, int, int, int, int, ...);", "f", "__int128"),
            "s:a0 | s:a0 | s:a1 | s:a2 | s:a3 | s:a4 | stk0");
}

// ----- lp64q (§3.6) --------------------------------------------------------------------------

TEST(RiscvCallconv, Lp64q) {
  Lowered l = lower("riscv64 lp64q", "long double f(long double);", "f");
  EXPECT_EQ(summary(l), "fa0 | fa0");
  EXPECT_TRUE(hasNote(l, "lp64q"));
  EXPECT_EQ(run("riscv64 lp64q", "struct S { long double a, b; }; void f(struct S);"),
            "- | fa0@0:16 + fa1@16:16");
  EXPECT_EQ(run("riscv64 lp64q", "void f(long double _Complex);"), "- | fa0@0:16 + fa1@16:16");
  EXPECT_EQ(run("riscv64 lp64q", "struct S { long double x; long i; }; void f(struct S);"),
            "- | fa0@0:16 + a0@16:8");
  EXPECT_EQ(run("riscv64 lp64q", "void f(int, ...);", "f", "long double"),
            "- | s:a0 | a2@0:8 + a3@8:8");
  EXPECT_EQ(run("riscv64 lp64q", "double f(float, double);"), "fa0 | fa0 | fa1");
}

} // namespace
