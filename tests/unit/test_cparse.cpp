// The front-end's parser: declaration syntax, the types it builds, attributes, enums,
// bit-fields, constant expressions and the translation unit it returns. Layout numbers are
// clang-14's for the target (checked with `clang-14 --target=... -fsyntax-only` static asserts).
#include "test_cparse_util.h"

using namespace abikit;
using namespace abikit::cparse_test;

// ----- declaration specifiers and declarators -------------------------------------------------

TEST(CParse, SpecifiersInAnyOrder) {
  Parsed p =
      parse("struct S { int const unsigned long a; long unsigned int long b; char signed c; "
            "short volatile unsigned d; long double e; double long f; signed g; unsigned h; };\n");
  EXPECT_EQ(p.fieldType("S", "a"), "const unsigned long");
  EXPECT_EQ(p.fieldType("S", "b"), "unsigned long long");
  EXPECT_EQ(p.fieldType("S", "c"), "signed char");
  EXPECT_EQ(p.fieldType("S", "d"), "volatile unsigned short");
  EXPECT_EQ(p.fieldType("S", "e"), "long double");
  EXPECT_EQ(p.fieldType("S", "f"), "long double");
  EXPECT_EQ(p.fieldType("S", "g"), "int");
  EXPECT_EQ(p.fieldType("S", "h"), "unsigned int");
}

TEST(CParse, PlainCharSignednessComesFromTheTarget) {
  Parsed rv = parse("struct S { char c; };\n");
  EXPECT_FALSE(dyn<IntType>(rv.field("S", "c")->type)->is_signed); // RISC-V: unsigned char
  Parsed dpu = parse("struct S { char c; };\n", "dpu-upmem-dpurte");
  EXPECT_TRUE(dyn<IntType>(dpu.field("S", "c")->type)->is_signed);
}

TEST(CParse, Declarators) {
  Parsed p = parse(R"C(
struct S {
  int *p;
  int **pp;
  int *const *volatile cpv;
  int (*fp)(int, char);
  void (*arr[3])(void);
  char (*pa)[5];
  int (*(*fpfp)(int))(double);
  int a2[2][3];
  int (x);
};)C");
  EXPECT_EQ(p.fieldType("S", "p"), "int *");
  EXPECT_EQ(p.fieldType("S", "pp"), "int **");
  EXPECT_EQ(p.fieldType("S", "cpv"), "int *const *volatile");
  EXPECT_EQ(p.fieldType("S", "fp"), "int (*)(int, char)");
  EXPECT_EQ(p.fieldType("S", "arr"), "void (*[3])(void)");
  EXPECT_EQ(p.fieldType("S", "pa"), "char (*)[5]");
  EXPECT_EQ(p.fieldType("S", "fpfp"), "int (*(*)(int))(double)");
  EXPECT_EQ(p.fieldType("S", "a2"), "int[2][3]");
  EXPECT_EQ(p.fieldType("S", "x"), "int");
  EXPECT_EQ(p.sizeOf("S"), 8u + 8 + 8 + 8 + 24 + 8 + 8 + 24 + 4 + 4);
}

TEST(CParse, AbstractDeclaratorsInTypeNames) {
  Parsed p = parse(R"C(
struct S {
  char a[sizeof(int (*)(void))];
  char b[sizeof(int *[4])];
  char c[sizeof(int (*)[4])];
  char d[sizeof(void (*[2])(int))];
  char e[_Alignof(struct { char c; double d; })];
};)C");
  const FieldDecl* a = p.field("S", "a");
  EXPECT_EQ(dyn<ArrayType>(a->type)->count, 8u);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "b")->type)->count, 32u);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "c")->type)->count, 8u);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "d")->type)->count, 16u);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "e")->type)->count, 8u);
}

TEST(CParse, Qualifiers) {
  Parsed p = parse("struct S { const volatile int a; int *restrict b; int *__restrict c; "
                   "const int *d; int const *const e; };\n");
  EXPECT_EQ(p.fieldType("S", "a"), "const volatile int");
  EXPECT_EQ(p.fieldType("S", "b"), "int *restrict");
  EXPECT_EQ(p.fieldType("S", "c"), "int *restrict");
  EXPECT_EQ(p.fieldType("S", "d"), "const int *");
  EXPECT_EQ(p.fieldType("S", "e"), "const int *const");
}

TEST(CParse, StorageClassesAndFunctionSpecifiersAreAccepted) {
  Parsed p = parse(R"C(
extern int e;
static int s;
_Thread_local int t;
__thread int t2;
static inline int f(void) { return 1; }
_Noreturn void g(void);
__inline__ int h(int x) { return x; }
register int r;
__extension__ typedef long long ll;
auto int a;
struct S { ll v; };
)C");
  EXPECT_EQ(p.fieldType("S", "v"), "ll");
  const FunctionDecl* f = p.function("f");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->is_definition);
  EXPECT_TRUE(f->is_static);
  EXPECT_FALSE(p.function("g")->is_definition);
}

TEST(CParse, ScalarTypesOfTheTarget) {
  Parsed p =
      parse("struct S { _Bool b; __int128 i; unsigned __int128 u; __int128_t t; __uint128_t ut; "
            "_Float16 h; __fp16 fp; float _Complex fc; _Complex double dc; _BitInt(17) bi; "
            "unsigned _BitInt(65) ubi; __builtin_va_list va; };\n");
  EXPECT_EQ(p.fieldType("S", "b"), "_Bool");
  EXPECT_EQ(p.fieldType("S", "i"), "__int128");
  EXPECT_EQ(p.fieldType("S", "u"), "unsigned __int128");
  EXPECT_EQ(p.fieldType("S", "t"), "__int128_t");
  EXPECT_EQ(p.fieldType("S", "h"), "_Float16");
  EXPECT_EQ(p.fieldType("S", "fp"), "__fp16");
  EXPECT_EQ(p.fieldType("S", "fc"), "_Complex float");
  EXPECT_EQ(p.fieldType("S", "dc"), "_Complex double");
  EXPECT_EQ(p.fieldType("S", "bi"), "_BitInt(17)");
  EXPECT_EQ(p.fieldType("S", "ubi"), "unsigned _BitInt(65)");
  EXPECT_EQ(p.fieldType("S", "va"), "__builtin_va_list");
}

TEST(CParse, TypesTheTargetDoesNotHaveAreRejected) {
  EXPECT_EQ(errorLine("struct S { __int128 x; };\n", "riscv32-unknown-elf"),
            "test.h:1:12: error: __int128 is not supported on this target");
  EXPECT_EQ(errorLine("struct S { _BitInt(8) x; };\n", "dpu-upmem-dpurte"),
            "test.h:1:12: error: _BitInt is not supported on this target");
  EXPECT_EQ(errorLine("struct S { __int128_t x; };\n", "dpu-upmem-dpurte"),
            "test.h:1:12: error: unknown type name '__int128_t'");
}

// ----- functions ------------------------------------------------------------------------------

TEST(CParse, FunctionPrototypes) {
  Parsed p = parse(R"C(
int f0(void);
int f1();
int f2(int a, const char *b, ...);
void f3(int arr[10], int (*cb)(void *), void fn(int));
typedef void V;
int f4(V);
int f5(int n, int a[n]);
int f6(int a[static 4], int b[const]);
)C");
  const FunctionDecl* f0 = p.function("f0");
  EXPECT_TRUE(f0->type->prototyped);
  EXPECT_TRUE(f0->type->params.empty());
  EXPECT_FALSE(p.function("f1")->type->prototyped);
  const FunctionDecl* f2 = p.function("f2");
  ASSERT_EQ(f2->type->params.size(), 2u);
  EXPECT_TRUE(f2->type->variadic);
  EXPECT_EQ(f2->type->params[0].name, "a");
  EXPECT_EQ(f2->type->params[1].name, "b");
  EXPECT_EQ(typeName(f2->type, *p.ctx), "int (int, const char *, ...)");
  const FunctionDecl* f3 = p.function("f3");
  ASSERT_EQ(f3->type->params.size(), 3u);
  // Parameters keep their declared types; the calling convention adjusts them.
  EXPECT_EQ(typeName(f3->type->params[0].type, *p.ctx), "int[10]");
  EXPECT_EQ(typeName(f3->type->params[2].type, *p.ctx), "void (int)");
  EXPECT_TRUE(p.function("f4")->type->params.empty());
  EXPECT_EQ(p.function("f5")->type->params.size(), 2u);
  EXPECT_EQ(p.function("f6")->type->params.size(), 2u);
}

TEST(CParse, FunctionDefinitionsAndInitializersAreSkipped) {
  Parsed p = parse(R"C(
int g = 3, h[] = {1, 2, 3}, *q = &g;
struct S { int x; } s = { .x = (1 + 2) };
static int add(int a, int b) {
  struct Local { char c; } l;
  if (a) { return a + b; }
  return sizeof(struct Local) + (int)"}";
}
int knr(a, b) int a; char *b; { return a; }
struct After { int y; };
)C");
  EXPECT_NE(p.field("After", "y"), nullptr);
  EXPECT_EQ(p.tu.records.size(), 2u); // S and After (Local is in a skipped body)
  const FunctionDecl* add = p.function("add");
  EXPECT_TRUE(add->is_definition);
  ASSERT_EQ(add->type->params.size(), 2u);
  EXPECT_EQ(add->type->params[1].name, "b");
  const FunctionDecl* knr = p.function("knr");
  EXPECT_FALSE(knr->type->prototyped);
  ASSERT_EQ(knr->type->params.size(), 2u);
  EXPECT_EQ(typeName(knr->type->params[1].type, *p.ctx), "char *");
}

TEST(CParse, FunctionRedeclarations) {
  Parsed p =
      parse("int f();\nint f(int x);\nint f(int y) { return y; }\nint g(int);\nint g(int);\n");
  ASSERT_EQ(p.tu.functions.size(), 2u);
  const FunctionDecl* f = p.function("f");
  EXPECT_TRUE(f->type->prototyped);
  EXPECT_TRUE(f->is_definition);
  EXPECT_EQ(f->type->params[0].name, "y");
  EXPECT_EQ(errorLine("int f(int);\nlong f(int);\n"),
            "test.h:2:6: error: conflicting types for 'f'");
  EXPECT_EQ(errorLine("int f(void) { return 0; }\nint f(void) { return 1; }\n"),
            "test.h:2:5: error: redefinition of 'f'");
}

TEST(CParse, FunctionErrors) {
  EXPECT_EQ(errorLine("int f(...);\n"),
            "test.h:1:7: error: ISO C requires a named parameter before '...'");
  EXPECT_EQ(errorLine("int f(void, int);\n"),
            "test.h:1:7: error: 'void' must be the first and only parameter if specified");
  EXPECT_EQ(errorLine("int f(void x);\n"), "test.h:1:12: error: argument may not have 'void' type");
  EXPECT_EQ(errorLine("int f(int a, int a);\n"),
            "test.h:1:18: error: redefinition of parameter 'a'");
  EXPECT_EQ(
      errorLine("int f(x, y);\n"),
      "test.h:1:5: error: a parameter list without types is only allowed in a function definition");
  EXPECT_EQ(errorLine("int f(void)[3];\n"), "test.h:1:6: error: function cannot return array type");
  EXPECT_EQ(errorLine("struct S { int f(void); };\n"),
            "test.h:1:16: error: field 'f' declared as a function");
  EXPECT_EQ(errorLine("int g(unknown_t x);\n"), "test.h:1:7: error: unknown type name 'unknown_t'");
}

// ----- records --------------------------------------------------------------------------------

TEST(CParse, NestedAnonymousAndForwardDeclaredRecords) {
  Parsed p = parse(R"C(
struct Fwd;
struct Uses { struct Fwd *p; };
struct Fwd { int v; };
struct Outer {
  struct Inner { short s; } in;
  union { int i; float f; };
  struct { char c1, c2; };
  int tail;
};
struct Inner later;
)C");
  EXPECT_EQ(p.sizeOf("Uses"), 8u);
  EXPECT_EQ(p.sizeOf("Fwd"), 4u);
  EXPECT_EQ(p.sizeOf("Inner"), 2u); // a tag defined inside a struct is visible outside
  EXPECT_EQ(p.offsetOf("Outer", "i"), 4u);
  EXPECT_EQ(p.offsetOf("Outer", "c2"), 9u);
  EXPECT_EQ(p.offsetOf("Outer", "tail"), 12u);
  EXPECT_EQ(p.sizeOf("Outer"), 16u);
  // Order: records in the order their definitions end.
  std::vector<std::string> names;
  for (const RecordDecl* rd : p.tu.records) names.push_back(rd->displayName(*p.ctx));
  EXPECT_EQ(names, (std::vector<std::string>{"struct Uses", "struct Fwd", "struct Inner",
                                             "struct Outer"}));
}

TEST(CParse, TypedefNamesAnAnonymousRecord) {
  Parsed p = parse("typedef struct { int a; } T, *PT;\ntypedef union { char c; } U;\n"
                   "typedef enum { E0, E1 } E;\n");
  ASSERT_EQ(p.tu.records.size(), 2u);
  EXPECT_EQ(p.tu.records[0]->typedef_name, "T");
  EXPECT_EQ(p.tu.records[0]->displayName(*p.ctx), "T");
  EXPECT_EQ(p.tu.records[1]->displayName(*p.ctx), "U");
  EXPECT_EQ(p.enumNamed("E")->typedef_name, "E");
  ASSERT_EQ(p.tu.typedefs.size(), 4u);
  EXPECT_EQ(typeName(p.typedefNamed("PT")->underlying, *p.ctx), "T *");
}

TEST(CParse, TagsDeclaredInAPrototypeAreLocalToIt) {
  Parsed p = parse("void f(struct S *p);\nstruct S { int x; char c; };\n");
  EXPECT_EQ(p.sizeOf("S"), 8u);
  // The prototype's struct S is a different (incomplete) type.
  const Type* param = p.function("f")->type->params[0].type;
  auto* pt = dyn<PointerType>(param);
  ASSERT_NE(pt, nullptr);
  EXPECT_FALSE(dyn<RecordType>(pt->pointee)->decl->complete);
}

TEST(CParse, RecordErrors) {
  EXPECT_EQ(parseError("struct S {\n  int x;\n"),
            "test.h:1:1: error: unterminated struct 'S' (missing '}')\nstruct S {\n^");
  EXPECT_EQ(
      parseError("struct S { int x; }\nint y;\n"),
      "test.h:1:20: error: expected ';' after struct\nstruct S { int x; }\n                   ^");
  EXPECT_EQ(errorLine("union U { int x; }\n"), "test.h:1:19: error: expected ';' after union");
  EXPECT_EQ(errorLine("struct S { int x; };\nstruct S { int y; };\n"),
            "test.h:2:8: error: redefinition of 'struct S'");
  EXPECT_EQ(errorLine("struct S;\nunion S { int y; };\n"),
            "test.h:2:7: error: use of 'S' with tag type that does not match previous declaration");
  EXPECT_EQ(errorLine("struct S { int a; char b; float a; };\n"),
            "test.h:1:33: error: duplicate member 'a'");
  EXPECT_EQ(errorLine("struct S { struct T t; };\n"),
            "test.h:1:21: error: field 't' has incomplete type 'struct T'");
  EXPECT_EQ(errorLine("struct S { void v; };\n"),
            "test.h:1:17: error: field 'v' has incomplete type 'void'");
  EXPECT_EQ(errorLine("struct S { int a[]; int b; };\n"),
            "test.h:1:16: error: flexible array member 'a' with type 'int[]' is not at the end of "
            "struct S");
  // clang-14 rejects a flexible array member alone in a struct or in a union; clang 19 and
  // later accept both (GNU), in a union at any position.
  const char* cc14 = "riscv64-unknown-elf clang-14";
  EXPECT_EQ(errorLine("struct S { int a[]; };\n", cc14),
            "test.h:1:16: error: flexible array member 'a' not allowed in otherwise empty struct");
  EXPECT_EQ(errorLine("union U { int n; int a[]; };\n", cc14),
            "test.h:1:22: error: flexible array member 'a' in a union is not allowed");
  for (const char* cc : {"riscv64-unknown-elf clang-19", "riscv64-unknown-elf clang-22"}) {
    Parsed p = parse("struct S { int :3; long a[]; };\nunion U { char g[]; int n; };\n"
                     "struct E { char c[]; };\n",
                     cc);
    EXPECT_EQ(p.sizeOf("struct S"), 8u) << cc;
    EXPECT_EQ(p.alignOf("struct S"), 8u) << cc;
    EXPECT_EQ(p.sizeOf("union U"), 4u) << cc;
    EXPECT_EQ(p.sizeOf("struct E"), 0u) << cc;
    EXPECT_EQ(errorLine("struct S { int a[]; int b; };\n", cc),
              "test.h:1:16: error: flexible array member 'a' with type 'int[]' is not at the end "
              "of struct S")
        << cc;
  }
  // clang 19 and later: an array's innermost element size must be a multiple of its alignment.
  const char* f8 = "typedef float F8 __attribute__((aligned(8)));\nstruct A { int n; F8 x[2]; };\n";
  EXPECT_EQ(errorLine(f8, cc14), "");
  const char* f8_error = "test.h:2:23: error: size of array element of type 'F8' (4 bytes) "
                         "isn't a multiple of its alignment (8 bytes)";
  EXPECT_EQ(errorLine(f8), f8_error); // clang-22 is RISC-V's default
  EXPECT_EQ(errorLine(f8, "riscv64-unknown-elf clang-22"), f8_error);
  EXPECT_EQ(errorLine("typedef float F8 __attribute__((aligned(8)));\nextern F8 g[];\n",
                      "riscv64-unknown-elf clang-19"),
            "test.h:2:12: error: size of array element of type 'F8' (4 bytes) isn't a multiple of "
            "its alignment (8 bytes)");
  // An aligned typedef of an array is not the element clang checks.
  EXPECT_EQ(errorLine("typedef long long T3[3] __attribute__((aligned(16)));\nT3 v[4];\n",
                      "riscv64-unknown-elf clang-22"),
            "");
  EXPECT_EQ(errorLine("struct S { int x; ;; 5; };\n"),
            "test.h:1:22: error: expected a member declaration, found '5'");
  EXPECT_EQ(errorLine("struct S; struct S s;\n"),
            "test.h:1:20: error: tentative definition has type 'struct S' that is never completed");
}

TEST(CParse, FlexibleArrayMembers) {
  Parsed p = parse("struct F { short n; char data[]; };\nstruct G { int a; struct F f; };\n");
  EXPECT_EQ(p.sizeOf("F"), 2u);
  EXPECT_TRUE(p.layout->of(*p.record("F")).has_flexible_array);
  EXPECT_EQ(p.sizeOf("G"), 8u);
}

// ----- bit-fields -----------------------------------------------------------------------------

TEST(CParse, BitFields) {
  Parsed p = parse(R"C(
enum E { A, B, C };
struct S {
  unsigned a : 3;
  unsigned : 0;
  unsigned b : 4;
  int : 5;
  _Bool f : 1;
  enum E e : 2;
  unsigned long long w : 40;
  char c : 8;
};)C");
  const RecordDecl* rd = p.record("S");
  ASSERT_EQ(rd->fields.size(), 8u);
  EXPECT_EQ(rd->fields[0].bit_width, 3);
  EXPECT_TRUE(rd->fields[1].isUnnamedBitField());
  EXPECT_EQ(rd->fields[1].bit_width, 0);
  EXPECT_EQ(rd->fields[3].bit_width, 5);
  EXPECT_EQ(p.fieldType("S", "e"), "enum E");
  const RecordLayout& rl = p.layout->of(*rd);
  EXPECT_EQ(rl.fields[2].bit_offset, 32u);
  EXPECT_EQ(rl.fields[6].bit_offset, 64u);
  EXPECT_EQ(rl.size, 16u);
}

TEST(CParse, BitFieldErrors) {
  EXPECT_EQ(parseError("struct S { int x : 40; };\n"),
            "test.h:1:16: error: bit-field 'x' is wider than its type (40 bits > 32)\n"
            "struct S { int x : 40; };\n               ^");
  EXPECT_EQ(errorLine("struct S { _Bool b : 2; };\n"),
            "test.h:1:18: error: bit-field 'b' is wider than its type (2 bits > 1)");
  EXPECT_EQ(errorLine("struct S { char : 9; };\n"),
            "test.h:1:12: error: bit-field is wider than its type (9 bits > 8)");
  EXPECT_EQ(errorLine("struct S { int x : -1; };\n"),
            "test.h:1:16: error: bit-field 'x' has negative width (-1)");
  EXPECT_EQ(errorLine("struct S { int x : 0; };\n"),
            "test.h:1:16: error: named bit-field 'x' has zero width");
  EXPECT_EQ(errorLine("struct S { float f : 2; };\n"),
            "test.h:1:18: error: bit-field 'f' has non-integral type 'float'");
  EXPECT_EQ(errorLine("struct S { int *p : 2; };\n"),
            "test.h:1:17: error: bit-field 'p' has non-integral type 'int *'");
  EXPECT_EQ(errorLine("int n;\nstruct S { int x : n; };\n"),
            "test.h:2:20: error: bit-field width is not an integer constant expression");
}

// ----- arrays and constant expressions --------------------------------------------------------

TEST(CParse, ArraySizesWithConstantExpressions) {
  Parsed p = parse(R"C(
enum { COUNT = 4 };
struct A { int x; char y; };
struct S {
  char a[COUNT * 2 + 1];
  char b[sizeof(struct A)];
  char c[__builtin_offsetof(struct A, y)];
  char d[_Alignof(double) + __alignof__(long long)];
  char e[(unsigned char)300];
  char f['b' - 'a'];
  char g[10 / 3 % 2 + (1 ? 2 : 3)];
  char h[(int)2.9 + (1 << 2) + (-8 >> 1) + 4];
  char i[sizeof(((struct A *)0)->y) + sizeof "abc"];
  char j[(unsigned long)&((struct A *)0)->y];
  char k[0x10 + 010 + 0b11 + 1u + 2UL + 3ll];
  char l[1 && 0 ? 5 : 6];
  char m[_Generic(1.0f, float: 7, default: 1)];
  char n[__builtin_types_compatible_p(int, signed) + __builtin_choose_expr(1, 2, (void)0)];
};)C");
  auto count = [&](const char* f) { return dyn<ArrayType>(p.field("S", f)->type)->count; };
  EXPECT_EQ(count("a"), 9u);
  EXPECT_EQ(count("b"), 8u);
  EXPECT_EQ(count("c"), 4u);
  EXPECT_EQ(count("d"), 16u);
  EXPECT_EQ(count("e"), 44u);
  EXPECT_EQ(count("f"), 1u);
  EXPECT_EQ(count("g"), 3u);
  EXPECT_EQ(count("h"), 6u);
  EXPECT_EQ(count("i"), 5u);
  EXPECT_EQ(count("j"), 4u);
  EXPECT_EQ(count("k"), 16u + 8 + 3 + 1 + 2 + 3);
  EXPECT_EQ(count("l"), 6u);
  EXPECT_EQ(count("m"), 7u);
  EXPECT_EQ(count("n"), 3u);
}

TEST(CParse, UsualArithmeticConversions) {
  Parsed p = parse(R"C(
_Static_assert(-1 < 0u == 0, "int converts to unsigned");
_Static_assert(-1L < 0u, "long holds every unsigned int on LP64");
_Static_assert(sizeof(1 ? (char)1 : (short)2) == sizeof(int), "promotion");
_Static_assert(sizeof('a') == sizeof(int), "character constants are int");
_Static_assert(sizeof(2147483648) == 8 && sizeof(0x80000000) == 4, "literal types");
_Static_assert((unsigned char)-1 == 255 && (signed char)200 == -56, "conversions");
_Static_assert(~0u == 4294967295u && -(-3) == 3, "unary");
_Static_assert(sizeof(int) * 8 == 32, "sizeof is size_t");
struct S { int ok; };
)C");
  EXPECT_NE(p.field("S", "ok"), nullptr);
}

TEST(CParse, PreferredAlignmentOfAlignofGnu) {
  // IPU: double and long long have a smaller ABI alignment than size; __alignof__ gives the
  // preferred (natural) alignment like clang's getPreferredTypeAlign.
  Parsed p = parse("struct S { char a[_Alignof(double)]; char b[__alignof__(double)]; "
                   "char c[__alignof__(struct { double d; })]; };\n",
                   "colossus-graphcore-elf");
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "a")->type)->count, 4u);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "b")->type)->count, 8u);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "c")->type)->count, 4u);
}

TEST(CParse, ConstantExpressionErrors) {
  EXPECT_EQ(parseError("struct S { char a[-1]; };\n"),
            "test.h:1:19: error: array 'a' has negative size\nstruct S { char a[-1]; };\n          "
            "        ^");
  EXPECT_EQ(errorLine("enum E { A = 1 / 0 };\n"),
            "test.h:1:16: error: division by zero in constant expression");
  EXPECT_EQ(errorLine("enum E { A = 5 % 0 };\n"),
            "test.h:1:16: error: remainder by zero in constant expression");
  EXPECT_EQ(errorLine("enum E { A = 2147483647 + 1 };\n"),
            "test.h:1:25: error: integer overflow in constant expression (the result does not fit "
            "in 'int')");
  EXPECT_EQ(errorLine("int a[1 << 40];\n"),
            "test.h:1:9: error: shift count >= width of type ('int' has 32 bits)");
  EXPECT_EQ(errorLine("int v;\nstruct S { char a[v]; };\n"),
            "test.h:2:19: error: array size is not an integer constant expression (variable length "
            "arrays are not supported here)");
  EXPECT_EQ(errorLine("struct S { char a[1.5]; };\n"),
            "test.h:1:19: error: size of array has non-integer type 'double'");
  EXPECT_EQ(errorLine("struct S { char a[nope]; };\n"),
            "test.h:1:19: error: use of undeclared identifier 'nope'");
  EXPECT_EQ(errorLine("struct T; struct S { char a[sizeof(struct T)]; };\n"),
            "test.h:1:29: error: invalid application of 'sizeof' to an incomplete type 'struct T'");
  EXPECT_EQ(
      errorLine("struct S { char a[99999999999999999999999]; };\n"),
      "test.h:1:19: error: integer literal is too large to be represented in any integer type");
  EXPECT_EQ(errorLine("int a[10000000000000000000];\n"),
            "test.h:1:7: error: array is too large (10000000000000000000 elements)");
  EXPECT_EQ(errorLine("struct S { char a[3 = 4]; };\n"),
            "test.h:1:21: error: assignment is not allowed in a constant expression");
  EXPECT_EQ(errorLine("int f(void);\nstruct S { char a[f()]; };\n"),
            "test.h:2:19: error: array size is not an integer constant expression (variable length "
            "arrays are not supported here)");
}

TEST(CParse, StaticAssert) {
  Parsed p = parse("_Static_assert(sizeof(long) == 8, \"LP64\");\n_Static_assert(1);\n"
                   "struct S { int x; _Static_assert(sizeof(int) == 4, \"in a struct\"); };\n");
  EXPECT_NE(p.field("S", "x"), nullptr);
  EXPECT_EQ(parseError("_Static_assert(sizeof(long) == 4, \"long must be 32-bit\");\n"),
            "test.h:1:1: error: static assertion failed: long must be 32-bit\n"
            "_Static_assert(sizeof(long) == 4, \"long must be 32-bit\");\n^");
  EXPECT_EQ(
      errorLine("int n;\n_Static_assert(n, \"x\");\n"),
      "test.h:2:16: error: static assertion expression is not an integral constant expression");
  // clang folds address arithmetic in array sizes but not in static assertions.
  EXPECT_EQ(
      errorLine("struct A { int a, b; };\n_Static_assert((unsigned long)&((struct A *)0)->b == 4, "
                "\"\");\n"),
      "test.h:2:16: error: static assertion expression is not an integral constant expression");
}

// ----- enums ----------------------------------------------------------------------------------

TEST(CParse, EnumUnderlyingTypes) {
  Parsed p = parse(R"C(
enum U { U0, U1 = 5 };
enum N { N0 = -1, N1 = 2147483647 };
enum L { L0 = 0x100000000 };
enum NL { NL0 = -1, NL1 = 0x100000000 };
enum UL { UL0 = 0xffffffffffffffff };
enum __attribute__((packed)) P1 { P10, P11 = 255 };
enum __attribute__((packed)) P2 { P20 = -1, P21 = 127 };
enum P3 { P30 = 256 } __attribute__((packed));
enum F : unsigned char { F0 };
struct S { enum U u; enum N n; enum L l; enum P1 p1; enum P2 p2; enum P3 p3; enum F f; };
_Static_assert(sizeof(U1) == 4 && sizeof(L0) == 8 && sizeof(F0) == 1, "enumerator types");
)C");
  auto under = [&](const char* n) { return typeName(p.enumNamed(n)->underlying, *p.ctx); };
  EXPECT_EQ(under("U"), "unsigned int");
  EXPECT_EQ(under("N"), "int");
  EXPECT_EQ(under("L"), "unsigned long");
  EXPECT_EQ(under("NL"), "long");
  EXPECT_EQ(under("UL"), "unsigned long");
  EXPECT_EQ(under("P1"), "unsigned char");
  EXPECT_EQ(under("P2"), "signed char");
  EXPECT_EQ(under("P3"), "unsigned short");
  EXPECT_EQ(under("F"), "unsigned char");
  EXPECT_TRUE(p.enumNamed("F")->fixed_underlying);
  const EnumDecl* u = p.enumNamed("U");
  ASSERT_EQ(u->enumerators.size(), 2u);
  EXPECT_EQ(u->enumerators[1].name, "U1");
  EXPECT_EQ(int64_t(u->enumerators[1].value), 5);
  EXPECT_EQ(p.sizeOf("S"), 24u);
}

TEST(CParse, EnumValuesAndConstants) {
  Parsed p = parse("enum E { A = 3, B, C = A + B * 2, D = sizeof(int) };\nstruct S { char a[C]; "
                   "char b[D]; };\n");
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "a")->type)->count, 11u);
  const EnumDecl* e = p.enumNamed("E");
  EXPECT_EQ(int64_t(e->enumerators[1].value), 4);
}

TEST(CParse, EnumErrors) {
  EXPECT_EQ(errorLine("enum E { };\n"), "test.h:1:1: error: use of empty enum");
  EXPECT_EQ(errorLine("enum E { A, A };\n"), "test.h:1:13: error: redefinition of enumerator 'A'");
  EXPECT_EQ(errorLine("enum E { A };\nenum E { B };\n"),
            "test.h:2:6: error: redefinition of 'enum E'");
  EXPECT_EQ(
      errorLine("enum F : char { X = 300 };\n"),
      "test.h:1:21: error: enumerator value is not representable in the underlying type 'char'");
  EXPECT_EQ(errorLine("enum E { A = -1, B = 0xffffffffffffffff };\n"),
            "test.h:1:1: error: enumeration values exceed the range of the largest integer type");
  EXPECT_EQ(errorLine("enum E e;\nstruct S { enum E f; };\n"),
            "test.h:2:19: error: field 'f' has incomplete type 'enum E'");
}

// ----- typedefs -------------------------------------------------------------------------------

TEST(CParse, TypedefRedeclaration) {
  Parsed p = parse("typedef int T;\ntypedef int T;\ntypedef signed int T;\nstruct S { T x; };\n");
  EXPECT_EQ(p.tu.typedefs.size(), 1u);
  EXPECT_EQ(errorLine("typedef int T;\ntypedef long T;\n"),
            "test.h:2:14: error: typedef redefinition with different types ('long' vs 'int')");
  EXPECT_EQ(errorLine("int T;\ntypedef int T;\n"),
            "test.h:2:13: error: redefinition of 'T' as different kind of symbol");
}

TEST(CParse, TypeofAndTypedefUse) {
  Parsed p = parse("int g;\nstruct A { char c[3]; } a;\ntypedef __typeof__(g) G;\n"
                   "struct S { typeof(a.c) c; __typeof__(int *) p; G g; typeof(&g) gp; };\n");
  EXPECT_EQ(p.fieldType("S", "c"), "char[3]");
  EXPECT_EQ(p.fieldType("S", "p"), "int *");
  EXPECT_EQ(p.fieldType("S", "g"), "G");
  EXPECT_EQ(p.fieldType("S", "gp"), "int *");
}

// ----- alignment ------------------------------------------------------------------------------

TEST(CParse, AlignasAndAlignedAttributes) {
  Parsed p = parse(R"C(
#include <stdalign.h>
struct A { char c; _Alignas(16) int x; alignas(long long) char y; _Alignas(0) char z; };
struct B { char c; int x __attribute__((aligned(8))); } __attribute__((aligned(32)));
struct C { char c; int x __attribute__((aligned)); };
typedef int T2 __attribute__((aligned(2)));
struct D { char c; T2 t; };
typedef struct { int a; } T16 __attribute__((aligned(16)));
struct E { char c; T16 t; };
)C");
  EXPECT_EQ(p.field("A", "x")->aligned, 16u);
  EXPECT_EQ(p.field("A", "y")->aligned, 8u);
  EXPECT_EQ(p.field("A", "z")->aligned, 0u);
  EXPECT_EQ(p.sizeOf("A"), 32u);
  EXPECT_EQ(p.record("B")->aligned, 32u);
  EXPECT_EQ(p.sizeOf("B"), 32u);
  EXPECT_EQ(p.field("C", "x")->aligned, 16u); // bare `aligned`: the target's default
  EXPECT_EQ(p.typedefNamed("T2")->aligned, 2u);
  EXPECT_EQ(p.sizeOf("D"), 6u); // an aligned typedef may lower the alignment
  EXPECT_EQ(p.sizeOf("E"), 32u);
}

TEST(CParse, AttributesAfterATagNameBelongToTheDeclaration) {
  // As clang and GCC: after `struct S` (no body) an attribute is one of the declaration
  // specifiers and applies to what is declared (linux/virtio_ring.h's vring_desc_t); S itself
  // keeps its alignment. Between the keyword and the name it is the record's.
  Parsed p = parse(R"C(
struct X { long long a; };
typedef struct X __attribute__((aligned(16))) TB;
union U { int i; };
typedef union U __attribute__((aligned(32))) TE;
enum F { F0 };
typedef enum F __attribute__((aligned(16))) TF;
struct Z;
struct Z __attribute__((aligned(16))) *zp;
struct Z { int a; };
struct V;
struct V __attribute__((aligned(16)));
struct V { int a; };
struct __attribute__((aligned(16))) W;
struct W { int a; };
struct S { char c; struct X __attribute__((aligned(16))) m; TB b; TE e; TF f;
           enum F __attribute__((packed)) p; };
)C");
  EXPECT_EQ(p.typedefNamed("TB")->aligned, 16u);
  EXPECT_EQ(p.typedefNamed("TE")->aligned, 32u);
  EXPECT_EQ(p.typedefNamed("TF")->aligned, 16u);
  EXPECT_EQ(p.alignOf("X"), 8u);
  EXPECT_EQ(p.alignOf("U"), 4u);
  EXPECT_EQ(p.alignOf("Z"), 4u);
  EXPECT_EQ(p.alignOf("V"), 4u); // ignored (clang warns)
  EXPECT_EQ(p.alignOf("W"), 16u);
  EXPECT_EQ(p.field("S", "m")->aligned, 16u);
  EXPECT_EQ(p.offsetOf("S", "m"), 16u);
  EXPECT_EQ(p.offsetOf("S", "b"), 32u);
  EXPECT_EQ(p.offsetOf("S", "e"), 64u);
  EXPECT_EQ(p.offsetOf("S", "f"), 80u);
  EXPECT_EQ(p.offsetOf("S", "p"), 84u); // a packed member: no alignment, enum F keeps 4 bytes
  EXPECT_EQ(p.sizeOf("S"), 96u);
  EXPECT_EQ(errorLine("struct Y __attribute__((aligned(16))) { int a; };\n"),
            "test.h:1:39: error: expected an identifier or '(', found '{'");
}

TEST(CParse, AlignmentErrors) {
  EXPECT_EQ(
      errorLine("struct S { _Alignas(2) int x; };\n"),
      "test.h:1:12: error: requested alignment is less than minimum alignment of 4 for type 'int'");
  EXPECT_EQ(errorLine("struct S { _Alignas(3) int x; };\n"),
            "test.h:1:21: error: requested alignment is not a power of 2");
  EXPECT_EQ(errorLine("struct S { int x __attribute__((aligned(6))); };\n"),
            "test.h:1:33: error: requested alignment is not a power of 2");
  EXPECT_EQ(errorLine("struct S { _Alignas(4) int x : 3; };\n"),
            "test.h:1:12: error: '_Alignas' attribute cannot be applied to a bit-field");
  EXPECT_EQ(errorLine("typedef _Alignas(8) int T;\n"),
            "test.h:1:9: error: '_Alignas' attribute cannot be applied to a typedef");
}

// ----- attributes -----------------------------------------------------------------------------

TEST(CParse, PackedPlacement) {
  Parsed p = parse(R"C(
struct __attribute__((packed)) P1 { char c; int i; };
struct P2 { char c; int i; } __attribute__((packed));
struct P3 { char c; int i __attribute__((packed)); };
struct P4 { char c; __attribute__((packed)) int i; };
__attribute__((packed)) struct N1 { char c; int i; };
typedef struct { char c; int i; } N2 __attribute__((packed));
typedef __attribute__((packed)) struct { char c; int i; } N3;
struct __attribute__((packed)) P5;
struct P5 { char c; int i; };
)C");
  EXPECT_EQ(p.sizeOf("P1"), 5u);
  EXPECT_EQ(p.sizeOf("P2"), 5u);
  EXPECT_EQ(p.sizeOf("P3"), 5u);
  EXPECT_EQ(p.sizeOf("P4"), 5u);
  // clang ignores these placements (with a warning).
  EXPECT_EQ(p.sizeOf("N1"), 8u);
  EXPECT_EQ(p.sizeOf("N2"), 8u);
  EXPECT_EQ(p.sizeOf("N3"), 8u);
  EXPECT_EQ(p.sizeOf("P5"), 5u); // attributes of an earlier declaration carry over
}

TEST(CParse, VectorAndModeAttributes) {
  Parsed p = parse(R"C(
typedef int v4si __attribute__((vector_size(16)));
typedef int v3si __attribute__((vector_size(12)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int di __attribute__((mode(DI)));
typedef unsigned int uqi __attribute__((mode(QI)));
typedef unsigned uw __attribute__((mode(word)));
typedef float df __attribute__((__mode__(__DF__)));
typedef int ti __attribute__((mode(TI)));
struct S { v4si a; v3si b; f4 c; di d; uqi e; uw f; df g; ti h; __attribute__((vector_size(8))) short i; };
)C");
  auto under = [&](const char* n) { return typeName(p.typedefNamed(n)->underlying, *p.ctx); };
  auto* v4 = dyn<VectorType>(p.typedefNamed("v4si")->underlying);
  ASSERT_NE(v4, nullptr);
  EXPECT_EQ(v4->count, 4u);
  EXPECT_EQ(v4->vkind, VectorKind::Generic);
  EXPECT_EQ(dyn<VectorType>(p.typedefNamed("v3si")->underlying)->count, 3u);
  auto* ext = dyn<VectorType>(p.typedefNamed("f4")->underlying);
  ASSERT_NE(ext, nullptr);
  EXPECT_EQ(ext->vkind, VectorKind::Ext);
  EXPECT_EQ(under("di"), "long");
  EXPECT_EQ(under("uqi"), "unsigned char");
  EXPECT_EQ(under("uw"), "unsigned long");
  EXPECT_EQ(under("df"), "double");
  EXPECT_EQ(under("ti"), "__int128");
  EXPECT_EQ(dyn<VectorType>(p.field("S", "i")->type)->count, 4u);
  Parsed dpu = parse("typedef int di __attribute__((mode(DI)));\n", "dpu-upmem-dpurte");
  EXPECT_EQ(typeName(dpu.typedefNamed("di")->underlying, *dpu.ctx), "long");
}

TEST(CParse, AttributeErrors) {
  EXPECT_EQ(errorLine("int *p __attribute__((vector_size(16)));\n"),
            "test.h:1:23: error: invalid vector element type 'int *'");
  EXPECT_EQ(errorLine("typedef int v __attribute__((vector_size(6)));\n"),
            "test.h:1:30: error: vector size not an integral multiple of component size");
  EXPECT_EQ(errorLine("struct S { float x __attribute__((ext_vector_type(4))); };\n"),
            "test.h:1:35: error: 'ext_vector_type' attribute only applies to typedefs");
  EXPECT_EQ(errorLine("typedef int v __attribute__((mode(V4SI)));\n"),
            "test.h:1:30: error: unsupported machine mode 'V4SI'");
  EXPECT_EQ(errorLine("typedef float f __attribute__((mode(DI)));\n"),
            "test.h:1:32: error: type of machine mode does not match type of base type");
  EXPECT_EQ(
      errorLine("struct S { int x; } __attribute__((scalar_storage_order(\"big-endian\")));\n"),
      "test.h:1:36: error: unsupported attribute 'scalar_storage_order'");
  EXPECT_EQ(errorLine("struct __attribute__((randomize_layout)) S { int x; };\n"),
            "test.h:1:23: error: unsupported attribute 'randomize_layout'");
  EXPECT_EQ(errorLine("int f(int) __attribute__((regparm(3)));\n"),
            "test.h:1:27: error: unsupported attribute 'regparm'");
  EXPECT_EQ(errorLine("int x __attribute__((frobnicate));\n"),
            "test.h:1:22: error: unsupported attribute 'frobnicate'");
  EXPECT_EQ(errorLine("int x __attribute__((packed(1)));\n"),
            "test.h:1:22: error: attribute 'packed' takes no arguments");
  EXPECT_EQ(errorLine("int x __attribute__((amdgpu_kernel));\n"),
            "test.h:1:22: error: 'amdgpu_kernel' attribute only applies to functions");
}

TEST(CParse, HarmlessAttributesAreIgnored) {
  Parsed p = parse(R"C(
__attribute__((deprecated("use g"), unused, visibility("default"))) int f(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), nonnull(1), warn_unused_result, __nothrow__, __leaf__));
struct __attribute__((designated_init, may_alias)) S { int x __attribute__((deprecated)); };
static inline __attribute__((always_inline, cold)) int g(void) { return 0; }
extern int h(void *p) __asm__("real_h") __attribute__((section(".text.h"), weak));
)C");
  EXPECT_NE(p.function("f"), nullptr);
  EXPECT_NE(p.function("h"), nullptr);
  EXPECT_NE(p.field("S", "x"), nullptr);
}

TEST(CParse, C2xAttributes) {
  Parsed p = parse("struct [[gnu::packed]] S { char c; int i; };\n[[deprecated]] int f(void);\n"
                   "struct T { char c; [[gnu::aligned(8)]] int x; };\n");
  EXPECT_EQ(p.sizeOf("S"), 5u);
  EXPECT_EQ(p.field("T", "x")->aligned, 8u);
  EXPECT_EQ(errorLine("[[acme::thing]] int x;\n"),
            "test.h:1:3: error: unsupported attribute 'acme::thing'");
}

TEST(CParse, TransparentUnion) {
  Parsed p = parse(R"C(
typedef union { int *a; long *b; } U1 __attribute__((transparent_union));
union __attribute__((transparent_union)) U2 { int *a; long *b; };
union U3 { int *a; long *b; } __attribute__((transparent_union));
union U4 { char c; int i; } __attribute__((transparent_union));
union U5 { float f; int i; } __attribute__((transparent_union));
)C");
  EXPECT_TRUE(p.record("U1")->transparent_union);
  EXPECT_TRUE(p.record("U2")->transparent_union);
  EXPECT_TRUE(p.record("U3")->transparent_union);
  EXPECT_FALSE(p.record("U4")->transparent_union); // sizes differ: clang drops it
  EXPECT_FALSE(p.record("U5")->transparent_union); // floating first member: dropped
}

TEST(CParse, AddressSpaces) {
  Parsed dpu =
      parse("struct S { __mram int *m; int *w; int *__attribute__((address_space(7))) *pp; };\n"
            "typedef __mram char mchar;\nstruct T { mchar *p; };\n",
            "dpu-upmem-dpurte");
  auto as = [&](const Parsed& p, const char* rec, const char* f) {
    return dyn<PointerType>(stripTypedefs(p.field(rec, f)->type))->address_space;
  };
  EXPECT_EQ(as(dpu, "S", "m"), 255u);
  EXPECT_EQ(as(dpu, "S", "w"), 0u);
  EXPECT_EQ(dyn<PointerType>(stripTypedefs(dyn<PointerType>(dpu.field("S", "pp")->type)->pointee))
                ->address_space,
            0u);
  EXPECT_EQ(dyn<PointerType>(dpu.field("S", "pp")->type)->address_space, 7u);
  EXPECT_EQ(as(dpu, "T", "p"), 255u);
  Parsed amd = parse("struct S { __global int *g; __local float *l; "
                     "__attribute__((address_space(4))) char *c; };\n",
                     "amdgcn-amd-amdhsa");
  EXPECT_EQ(as(amd, "S", "g"), 1u);
  EXPECT_EQ(as(amd, "S", "l"), 3u);
  EXPECT_EQ(as(amd, "S", "c"), 4u);
  EXPECT_EQ(amd.sizeOf("S"), 24u);
  EXPECT_EQ(errorLine("struct S { __mram int x; };\n", "dpu-upmem-dpurte"),
            "test.h:1:23: error: field may not be qualified with an address space");
  EXPECT_EQ(errorLine("void f(__mram int x);\n", "dpu-upmem-dpurte"),
            "test.h:1:19: error: parameter may not be qualified with an address space");
}

TEST(CParse, KernelAttributes) {
  Parsed p = parse("__attribute__((amdgpu_kernel)) void k1(int *p);\nvoid "
                   "__attribute__((nvptx_kernel)) k2(void);\n"
                   "void k3(void) __attribute__((amdgpu_kernel));\nvoid plain(void);\n"
                   "void __attribute__((colossus_vertex)) v(void);\n");
  EXPECT_EQ(p.function("k1")->type->fkind, FunctionKind::Kernel);
  EXPECT_EQ(p.function("k2")->type->fkind, FunctionKind::Kernel);
  EXPECT_EQ(p.function("k3")->type->fkind, FunctionKind::Kernel);
  EXPECT_EQ(p.function("plain")->type->fkind, FunctionKind::Normal);
  EXPECT_EQ(p.function("v")->type->fkind, FunctionKind::Vertex);
}

// ----- things outside the supported subset ----------------------------------------------------

TEST(CParseErrors, UnsupportedConstructs) {
  // _Atomic on a target whose compiler was not measured (tests/unit/test_atomic.cpp).
  EXPECT_EQ(
      parseError("struct S { int *_Atomic p; };\n", "dpu-upmem-dpurte"),
      "test.h:1:17: error: _Atomic types are not supported on dpu-upmem-dpurte -mcpu=v1A (the "
      "layout "
      "its compiler gives them is not documented)\nstruct S { int *_Atomic p; };\n"
      "                ^");
  EXPECT_EQ(errorLine("__auto_type x = 1;\n"), "test.h:1:1: error: '__auto_type' is not supported");
  EXPECT_EQ(errorLine("__declspec(dllexport) int x;\n"),
            "test.h:1:1: error: '__declspec' is not supported on riscv64-unknown-elf "
            "-march=rv64imac -mabi=lp64");
  EXPECT_EQ(errorLine("int (^blk)(void);\n"), "test.h:1:6: error: blocks ('^') are not supported");
  EXPECT_EQ(errorLine("struct S { char a[({ 1; })]; };\n"),
            "test.h:1:19: error: statement expressions are not supported");
  EXPECT_EQ(errorLine("struct S { char a[sizeof((int[]){1, 2})]; };\n"),
            "test.h:1:33: error: compound literals are not supported in constant expressions");
}

TEST(CParseErrors, SyntaxErrors) {
  EXPECT_EQ(errorLine("foo x;\n"), "test.h:1:1: error: unknown type name 'foo'");
  EXPECT_EQ(errorLine("struct S { foo *p; };\n"), "test.h:1:12: error: unknown type name 'foo'");
  EXPECT_EQ(errorLine("int x\n"), "test.h:1:6: error: expected ';' after top level declarator");
  EXPECT_EQ(errorLine("int x y;\n"),
            "test.h:1:7: error: expected ';' after top level declarator, found 'y'");
  EXPECT_EQ(errorLine("int long char x;\n"),
            "test.h:1:10: error: cannot combine 'char' with the previous type specifiers");
  EXPECT_EQ(errorLine("long char x;\n"),
            "test.h:1:1: error: 'char' cannot be combined with 'short' or 'long'");
  EXPECT_EQ(errorLine("int float x;\n"),
            "test.h:1:5: error: cannot combine 'float' with the previous type specifiers");
  EXPECT_EQ(parse("struct S { int; };\n").record("S")->fields.size(), 0u); // clang: a warning
  EXPECT_EQ(errorLine("}\n"), "test.h:1:1: error: extraneous closing brace ('}')");
  EXPECT_EQ(errorLine("int a[3;\n"), "test.h:1:8: error: expected ']', found ';'");
  EXPECT_EQ(errorLine("int f(int;\n"),
            "test.h:1:10: error: expected ',' or ')' in the parameter list, found ';'");
  EXPECT_EQ(errorLine("int f(void) {\n"),
            "test.h:1:13: error: expected '}' to end the function body");
  EXPECT_EQ(errorLine("typedef int T = 3;\n"),
            "test.h:1:15: error: illegal initializer (only variables can be initialized)");
}

// ----- smaller features -----------------------------------------------------------------------

TEST(CParse, LiteralsAndTheirTypes) {
  Parsed p = parse(R"C(
#include <uchar.h>
struct S {
  char a[sizeof(L"ab")];
  char b[sizeof(u"ab")];
  char c[sizeof(U"ab")];
  char d[sizeof(u8"ab")];
  char e[sizeof("a" "bc")];
  char f[sizeof(L'x')];
  char g[sizeof(u'x')];
  char h[_Generic(u'x', char16_t: 1, default: 2)];
  char i[sizeof(1.0f) + sizeof(1.0) + sizeof(1.0L)];
  char j['\x41' - 64];
  char k[__builtin_constant_p(3 * 4) + __builtin_constant_p(*(int *)0)];
};)C");
  auto n = [&](const char* f) { return dyn<ArrayType>(p.field("S", f)->type)->count; };
  EXPECT_EQ(n("a"), 12u);
  EXPECT_EQ(n("b"), 6u);
  EXPECT_EQ(n("c"), 12u);
  EXPECT_EQ(n("d"), 3u);
  EXPECT_EQ(n("e"), 4u);
  EXPECT_EQ(n("f"), 4u);
  EXPECT_EQ(n("g"), 2u);
  EXPECT_EQ(n("h"), 1u);
  EXPECT_EQ(n("i"), 4u + 8 + 16);
  EXPECT_EQ(n("j"), 1u);
  EXPECT_EQ(n("k"), 1u);
}

TEST(CParse, OffsetofThroughAnonymousMembersAndArrays) {
  Parsed p = parse(R"C(
struct In { int a; int arr[4]; };
struct S { char c; union { struct { short s; struct In in[2]; }; long l; }; };
struct T {
  char a[__builtin_offsetof(struct S, in[1].arr[2])];
  char b[__builtin_offsetof(struct S, l)];
};)C");
  EXPECT_EQ(dyn<ArrayType>(p.field("T", "a")->type)->count, 8u + 4 + 20 + 4 + 8);
  EXPECT_EQ(dyn<ArrayType>(p.field("T", "b")->type)->count, 8u);
}

TEST(CParse, EnumeratorTypesInCxxAreTheEnum) {
  Parsed p = parse("enum E { A };\nstruct S { char a[sizeof(A)]; };\n", "nvptx64-nvidia-cuda",
                   Language::CUDA);
  EXPECT_EQ(dyn<ArrayType>(p.field("S", "a")->type)->count, 4u);
  Parsed packed = parse("enum __attribute__((packed)) E { A };\nstruct S { char a[sizeof(A)]; };\n",
                        "nvptx64-nvidia-cuda", Language::CUDA);
  EXPECT_EQ(dyn<ArrayType>(packed.field("S", "a")->type)->count, 1u); // the enum type
  Parsed c = parse("enum __attribute__((packed)) E { A };\nstruct S { char a[sizeof(A)]; };\n");
  EXPECT_EQ(dyn<ArrayType>(c.field("S", "a")->type)->count, 4u); // C: int
}

TEST(CParse, ModeByteAndPointer) {
  Parsed p = parse("typedef int b __attribute__((mode(byte)));\ntypedef unsigned long p "
                   "__attribute__((mode(pointer)));\n",
                   "riscv32-unknown-elf");
  EXPECT_EQ(typeName(p.typedefNamed("b")->underlying, *p.ctx), "signed char");
  EXPECT_EQ(typeName(p.typedefNamed("p")->underlying, *p.ctx), "unsigned int");
}

TEST(CParse, IncludeLevelAndHasIncludeNext) {
  TempDir dir;
  dir.write("a/h.h", "#if __has_include_next(<h.h>)\n#include_next <h.h>\n#endif\n"
                     "struct A { char level[__INCLUDE_LEVEL__ + 1]; };\n");
  dir.write("b/h.h", "struct B { char level[__INCLUDE_LEVEL__ + 1]; };\n");
  ParseOptions o;
  o.include_dirs = {dir.file("a"), dir.file("b")};
  Parsed p = parse("#include <h.h>\n", "riscv64-unknown-elf", Language::C, o);
  EXPECT_EQ(dyn<ArrayType>(p.field("A", "level")->type)->count, 2u);
  EXPECT_EQ(dyn<ArrayType>(p.field("B", "level")->type)->count, 3u);
}

TEST(CParse, PragmaGccError) {
  EXPECT_EQ(errorLine("#pragma GCC error \"not here\"\n"),
            "test.h:1:1: error: #pragma GCC error \"not here\"");
}

// ----- pathological input: errors, never crashes ----------------------------------------------

TEST(CParseErrors, DeeplyNestedTypesAreBounded) {
  auto chain = [](int n, const char* first, const char* step) {
    std::string s = first;
    char buf[128];
    for (int i = 1; i < n; ++i) {
      std::snprintf(buf, sizeof buf, step, i - 1, i, i - 1);
      s += buf;
    }
    return s;
  };
  // At the limit the types still work (and can be laid out)...
  Parsed ok = parse(
      chain(300, "struct S0 { int x; };\n", "struct S%d;\nstruct S%2$d { struct S%1$d a; };\n"));
  EXPECT_EQ(ok.sizeOf("S299"), 4u);
  // Pointers to records count too, also when the member fast path has the pointer's depth
  // from an earlier member (the second `struct S%1$d *`).
  Parsed ptrs = parse(chain(150, "struct S0 { int x; };\n",
                            "struct S%2$d { struct S%1$d *a; struct S%3$d *b; };\n"));
  EXPECT_EQ(ptrs.sizeOf("S149"), 16u);
  // ...beyond it they are an error, whatever builds them.
  for (const std::string& text :
       {chain(1000, "typedef int A0[1];\n", "typedef A%d A%d[1];\n"),
        chain(1000, "struct S0 { int x; };\n", "struct S%2$d { struct S%1$d a; };\n"),
        chain(1000, "typedef int P0;\n", "typedef P%d *P%d;\n"),
        chain(1000, "struct S0 { int x; };\n",
              "struct S%2$d { struct S%1$d *a; struct S%3$d *b; };\n"),
        chain(1000, "typedef int F0;\n", "typedef F%d (*F%d)(F%3$d);\n")}) {
    std::string e = parseError(text);
    EXPECT_NE(e.find("type nested too deeply"), std::string::npos) << e.substr(0, 200);
  }
}

TEST(CParseErrors, DeepSyntaxIsBounded) {
  std::string parens = "int a[";
  for (int i = 0; i < 5000; ++i) parens += "(";
  parens += "1";
  for (int i = 0; i < 5000; ++i) parens += ")";
  parens += "];\n";
  EXPECT_NE(parseError(parens).find("nested too deeply"), std::string::npos);
  std::string decl = "int ";
  for (int i = 0; i < 5000; ++i) decl += "(";
  decl += "x";
  for (int i = 0; i < 5000; ++i) decl += ")";
  decl += ";\n";
  EXPECT_NE(parseError(decl).find("nested too deeply"), std::string::npos);
  std::string structs;
  for (int i = 0; i < 5000; ++i) structs += "struct { ";
  structs += "int x;";
  for (int i = 0; i < 5000; ++i) structs += " } m;";
  EXPECT_NE(parseError(structs).find("nested too deeply"), std::string::npos);
  std::string ifs;
  for (int i = 0; i < 100000; ++i) ifs += "#if 1\n";
  for (int i = 0; i < 100000; ++i) ifs += "#endif\n";
  ifs += "struct S { int x; };\n";
  EXPECT_EQ(parse(ifs).sizeOf("S"), 4u);
  std::string unary = "int a[";
  for (int i = 0; i < 5000; ++i) unary += "- ";
  unary += "1];\n";
  EXPECT_NE(parseError(unary).find("nested too deeply"), std::string::npos);
}

TEST(CParseErrors, BinaryGarbageIsAnError) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += char((i * 7919) & 0xFF);
  EXPECT_FALSE(parseError(garbage).empty());
  EXPECT_FALSE(parseError(std::string("struct S { int x; \0 };", 23)).empty());
}
