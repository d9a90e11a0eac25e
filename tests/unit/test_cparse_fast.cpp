// The front-end's member fast path (ParseOptions::fast_paths) against the general parser: record
// bodies generated from fragments chosen to sit on both sides of every condition the fast path
// checks (specifier combinations, tags of the wrong kind or not declared, pointers with
// qualifiers, array sizes of every spelling, macros, bit-field widths, blanks, newlines,
// comments, splices, directives, a second declarator, errors of every kind). Both parses must
// give the same records, fields, types, locations, layouts — or the same error at the same place.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <cstdio>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace abikit;

std::string summary(const Target& target, Language lang, const std::string& text, bool fast) {
  TypeContext ctx(target, lang);
  LayoutEngine layout(ctx);
  ParseOptions options;
  options.fast_paths = fast;
  std::string out;
  try {
    TranslationUnit tu = parseSource(ctx, layout, "gen.h", text, options);
    for (const RecordDecl* rd : tu.records) {
      out += rd->displayName(ctx) + " " + std::to_string(rd->loc.line) + ":" +
             std::to_string(rd->loc.col) + "\n";
      for (const FieldDecl& f : rd->fields)
        out += std::string(f.name) + " " + typeName(f.type, ctx) + " " +
               std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col) + " " +
               std::to_string(f.bit_width) + " " + std::to_string(f.aligned) + "\n";
      try {
        const RecordLayout& l = layout.of(*rd);
        out += std::to_string(l.size) + " " + std::to_string(l.align);
        for (const FieldLayout& f : l.fields) out += " " + std::to_string(f.bit_offset);
      } catch (const Error& e) {
        out += e.format();
      }
      out += "\n";
    }
    for (const TypedefDecl* td : tu.typedefs)
      out += "typedef " + std::string(td->name) + " " + typeName(td->underlying, ctx) + " " +
             std::to_string(td->loc.line) + ":" + std::to_string(td->loc.col) + "\n";
  } catch (const Error& e) {
    out += "error: " + e.format();
  }
  return out;
}

const char* const kPrelude = "typedef int T;\n"
                             "typedef unsigned long U;\n"
                             "typedef struct A AT;\n"
                             "typedef float V __attribute__((vector_size(8)));\n"
                             "typedef int IA[];\n"
                             "struct A { int a; char b; };\n"
                             "struct B;\n"
                             "union W { int i; float f; };\n"
                             "enum E { E0, E1 };\n"
                             "enum F;\n"
                             "#define N 4\n"
                             "#define M (N * 2)\n"
                             "#define P ((3 + -1) * 2 - +1)\n"
                             "#define Q (-1)\n"
                             "#define R (2147483647 + 1)\n"
                             "#define S 010\n"
                             "#define D (100 / 7 % 5 + (1 << 4) - (3 > 2) + (0 ? 1 : 2))\n"
                             "#define H (0x10 | 3 ^ 1 & ~0)\n"
                             "#define DZ (1 / (2 - 2))\n"
                             "#define OV (65536 * 65536)\n"
                             "#define NS (1 << -1)\n"
                             "#define CH ('a' - 90)\n"
                             "#define LL (2L + 1)\n"
                             "#define CM (1, 2)\n"
                             "#define EMPTY\n"
                             "#define TYPE int\n"
                             "#define FN(x) x\n";

// Each list starts with the entries that make accepted members (the generator mostly picks
// those), followed by the ones that must go to the general parser or fail.
const std::vector<std::string> kSpecs = {
    // accepted
    "int", "unsigned", "unsigned int", "long", "long long", "unsigned long", "short", "short int",
    "char", "signed char", "const char", "volatile int", "const volatile long", "int const",
    "_Bool", "float", "double", "T", "U", "AT", "V", "struct A", "union W", "enum E", "const T",
    "T const", "TYPE", "EMPTY int", "int EMPTY", "__attribute__((aligned(8))) int",
    "_Alignas(8) int", "IA",
    // other
    "void", "long double", "struct B", "union A", "struct W", "enum F", "struct Z", "short char",
    "long float", "long long long", "unsigned T", "signed signed int", "char int"};
constexpr size_t kGoodSpecs = 32;
const std::vector<std::string> kPtrs = {"", "", "", "", "*", "**", "* const ", "*volatile", "* *"};
constexpr size_t kGoodPtrs = 9;
const std::vector<std::string> kNames = {"x", "T", "N", "FN", "int", "_q1", "EMPTY"};
const std::vector<std::string> kSuffixes = {
    // accepted
    "", "", "", "", "[3]", "[ N ]", "[M]", "[P]", "[S]", "[0]", "[2][3]", "[N+1]", "[sizeof(int)]",
    "[0x10]", "[4u]", "[010]", "[FN(2)]", "[D]", "[H]", "[CH]", "[LL]",
    // other
    "[DZ]", "[OV]", "[NS]", "[CM]", "[Q]", "[R]", "[-1]", "[BAD]", "[]", "[2147483647]",
    "[2147483648]", "(void)", "[1.5]"};
constexpr size_t kGoodSuffixes = 21;
const std::vector<std::string> kWidths = {"",   "",   "",    "",    ":3",  " : 1",        ":07",
                                          ":N", ":0", ":33", ":64", ":-1", ": 2147483648"};
constexpr size_t kGoodWidths = 8;
const std::vector<std::string> kEnds = {";",    ";",      ";", " ;", " __attribute__((packed));",
                                        ", y;", ",*z:2;", ""};
constexpr size_t kGoodEnds = 5;
const std::vector<std::string> kSeps = {"\n\t",
                                        "\n\t",
                                        " ",
                                        "\t",
                                        " /* c */ ",
                                        "\n// c\n",
                                        "/*\n*/",
                                        "\r\n",
                                        "\n#ifdef NOPE\nint gone;\n#endif\n",
                                        " /* a *\\\n/ ",
                                        "\\\n",
                                        "\n#define K 2\n",
                                        "\f"};
constexpr size_t kGoodSeps = 13;

// Record heads (the record fast path reads `struct NAME {` on one line) and tails; `@` stands
// for the record's own name.
const std::vector<std::string> kHeads = {
    // accepted
    "struct @ {", "struct @ {", "struct @ {", "union @ {", "struct @{", "struct  @\t{",
    "struct\t@ {", "struct @\n{", "struct /* c */ @ {", "struct @ /* c */ {",
    "struct __attribute__((packed)) @ {", "struct @ __attribute__((aligned(8))) {", "struct {",
    "struct EMPTY {", "struct T {", "struct @ \\\n {", "struct @\\\n {", "union {", "struct\\\n@ {",
    "union\t@ {", "struct\f@ {", "struct B {", "struct /**/ @ {", "struct\t@\t{",
    // other
    "struct A {", "union A {", "struct N {", "struct FN {", "struct int {", "struct @ ;",
    "struct @", "enum @ {", "struct 1 {", "struct @ [[gnu::packed]] {", "structure @ {",
    "unions @ {", "struct", "union"};
constexpr size_t kGoodHeads = 24;
const std::vector<std::string> kTails = {
    "};",    "};",         "};",          "} ;", "}\n;", "} __attribute__((packed));",
    "} v@;", "} *p@, q@;", "} const c@;", "}"};
constexpr size_t kGoodTails = 9;
// What comes between a record's tail and the next record's head (the keyword fast path reads a
// `struct`/`union` at the start of a later line, the typedef fast path a whole
// `typedef struct TAG NAME;`).
const std::vector<std::string> kBetween = {
    // accepted
    "\n", "\n", "\n\n", "  \n", "\n \n", "\r\n", "\n ", "\n\t", " ", "", "\n/* c */", "\n/* c */\n",
    "\\\n", "\n\\\n", "\n#define struct struct\n", "\n#define union struct\n",
    "\n#define union struct\nstruct X@ { int x; };\nunion Y@ { int y; };\n",
    "\n#define struct union\nstruct X@ { int x; char c; };\nstruct Y@ { int y; };\n",
    "\n#ifdef NOPE\nint gone;\n#endif\n", "\n;\n", "\ntypedef int TD@;\n",
    "\ntypedef struct @ T@;\n", "\ntypedef struct @ T@;\n",
    "\ntypedef struct @ T@;\ntypedef struct @ T@;\n", "\ntypedef\tstruct  @\tT@ ;\n",
    "\ntypedef struct A AT;\n", "\ntypedef struct Nope@ NP@;\n", "\ntypedef struct @ FN;\n",
    "\ntypedef struct EMPTY @ E@;\n", "\ntypedef struct @ L@\n;\n", "\ntypedef struct @ *P@;\n",
    "\ntypedef struct @ Q@, R@;\n", "\ntypedef struct @ S@ __attribute__((aligned(8)));\n",
    "\ntypedef struct @/**/C@;\n", "\ntypedef struct @ D@\\\n;\n", "\ntypedef union W H@;\n",
    "\ntypedef struct B J@;\n",
    // A member text read again after an identifier in it has changed meaning (the member memo).
    "\n#undef N\n#define N 5\n", "\n#define m1 m9\n", "\n#undef m1\n", "\n#define T long\n",
    "\n#undef T\n", "\n#pragma push_macro(\"N\")\n#undef N\n#define N 6\n",
    "\n#pragma pop_macro(\"N\")\n", "\n#define unsigned signed\n",
    "\nstruct F@ { struct A m0; T m1[N]; };\n"
    "void f@(struct A { char c[3]; } *a, struct G@x { struct A m0; T m1[N]; } *b);\n",
    "\nstruct F@ { union W m0; };\nvoid f@(union W { short s; } *a, struct G@x { union W m0; } "
    "*b);\n",
    // other
    "\ntypedef union @ U@;\n", "\ntypedef struct @ AT;\n", "\ntypedef struct @ T;\n",
    "\ntypedef struct @ x;\nint x;\n", "\nint v@;\ntypedef struct @ v@;\n",
    "\ntypedef struct @ N;\n", "\ntypedef struct @ int;\n", "\ntypedef struct @ F@",
    "\ntypedef struct @ G@;struct", "\ntypedef struct W H@;\n",
    "\nstruct F@ { T m1; };\nvoid g@(int T, struct G@z { T m1; } *b);\n"};
constexpr size_t kGoodBetween = 47;
// Whole members the record checks look into: anonymous records, flexible arrays, names that
// may repeat an earlier member's.
const std::vector<std::string> kSpecial = {"struct { int m1; int a; };",
                                           "union { char m2; };",
                                           "struct { struct { int m3; }; };",
                                           "int flex[];",
                                           "int : 3;",
                                           "struct H@ { int a; } m5;",
                                           "struct { int m0; } s;",
                                           "int m1;",
                                           "char x[];",
                                           "int m0;",
                                           "float m2;"};

std::string genHeader(std::mt19937& rng) {
  // Mostly one of the first `good` entries (members that are accepted), else any.
  auto pick = [&](const std::vector<std::string>& v, size_t good = 0) -> const std::string& {
    size_t n = good && std::uniform_int_distribution<int>(0, 99)(rng) < 93 ? good : v.size();
    return v[std::uniform_int_distribution<size_t>(0, n - 1)(rng)];
  };
  std::string text = kPrelude;
  int records = std::uniform_int_distribution<int>(1, 3)(rng);
  // Half of the headers take their members from a pool of member texts that every record
  // draws from (the member memo reads a text again; things between the records change what the
  // identifiers in it mean).
  std::vector<std::string> pool;
  if (std::uniform_int_distribution<int>(0, 1)(rng)) {
    records = std::uniform_int_distribution<int>(3, 6)(rng);
    pool.resize(size_t(std::uniform_int_distribution<int>(1, 6)(rng)));
  }
  for (int r = 0; r < records; ++r) {
    const std::string tag = "G" + std::to_string(r);
    auto named = [&](std::string t) {
      for (size_t at; (at = t.find('@')) != std::string::npos;) t.replace(at, 1, tag);
      return t;
    };
    text += named(pick(kHeads, kGoodHeads));
    int members = pool.empty() ? std::uniform_int_distribution<int>(1, 8)(rng) : int(pool.size());
    for (int m = 0; m < members; ++m) {
      if (!pool.empty() && !pool[size_t(m)].empty()) {
        if (std::uniform_int_distribution<int>(0, 99)(rng) < 75) text += pool[size_t(m)];
        continue;
      }
      text += pick(kSeps, kGoodSeps);
      if (std::uniform_int_distribution<int>(0, 99)(rng) < 4) {
        text += named(pick(kSpecial));
        continue;
      }
      // A pooled member is mostly one the fast path reads (the memo keeps those).
      bool fast = !pool.empty() && std::uniform_int_distribution<int>(0, 99)(rng) < 90;
      auto first = [&](const std::vector<std::string>& v, size_t n) -> const std::string& {
        return v[std::uniform_int_distribution<size_t>(0, n - 1)(rng)];
      };
      const std::string& spec = fast ? first(kSpecs, 26) : pick(kSpecs, kGoodSpecs);
      const std::string& ptrs = fast ? first(kPtrs, 6) : pick(kPtrs, kGoodPtrs);
      // Distinct names (the members of one record), sometimes one of kNames.
      std::string name = std::uniform_int_distribution<int>(0, 99)(rng) < 95
                             ? "m" + std::to_string(m)
                             : pick(kNames);
      const std::string& suffix = fast ? first(kSuffixes, 8) : pick(kSuffixes, kGoodSuffixes);
      // A width mostly on an integer member without pointers or array suffix.
      bool plain = ptrs.empty() && suffix.empty() && spec.find("float") == std::string::npos &&
                   spec.find("double") == std::string::npos && spec != "V" && spec != "AT" &&
                   spec.find("struct") == std::string::npos &&
                   spec.find("union") == std::string::npos;
      const std::string& width =
          fast ? first(kWidths, plain ? 6 : 4) : pick(kWidths, plain ? kGoodWidths : 4);
      const std::string& end = fast ? first(kEnds, 4) : pick(kEnds, kGoodEnds);
      std::string member = spec + " " + ptrs + name + suffix + width + end;
      text += member;
      if (!pool.empty()) pool[size_t(m)] = pick(kSeps, kGoodSeps) + member;
    }
    // Sometimes the last record is left open: the error points at its keyword.
    if (r == records - 1 && std::uniform_int_distribution<int>(0, 99)(rng) < 5) break;
    text += pick(kSeps, kGoodSeps) + named(pick(kTails, kGoodTails)) +
            named(pick(kBetween, kGoodBetween));
  }
  return text;
}

TEST(CParseFastPath, AgreesWithTheGeneralParser) {
  struct Config {
    const char* triple;
    Language lang;
  };
  const Config configs[] = {
      {"riscv64-unknown-elf", Language::C},    {"riscv32-unknown-elf", Language::C},
      {"amdgcn-amd-amdhsa", Language::OpenCL}, {"nvptx64-nvidia-cuda", Language::CUDA},
      {"dpu-upmem-dpurte", Language::C},       {"colossus-graphcore-elf", Language::C}};
  std::mt19937 rng(20261122);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    const Config& c = configs[size_t(i) % (sizeof(configs) / sizeof(configs[0]))];
    TargetOptions o;
    o.triple = c.triple;
    Target target = resolveTarget(o);
    std::string text = genHeader(rng);
    std::string fast = summary(target, c.lang, text, true);
    std::string general = summary(target, c.lang, text, false);
    ASSERT_EQ(fast, general) << c.triple << "\n" << text;
    (fast.rfind("error: ", 0) == 0 ? rejected : accepted) += 1;
  }
  // Both sides of the generator are exercised.
  EXPECT_GT(accepted, 600);
  EXPECT_GT(rejected, 600);
}

// The nesting depth of a type is seen only where it passes the limit: chains of records that
// point to each other reach it at the same record with both parsers (a record one level deeper
// than its deepest member, a pointer one deeper than its pointee), whichever way each member is
// read (`struct S *p;` alone, after another member, with an array, twice in a record).
TEST(CParseFastPath, DepthLimitAtTheSameRecord) {
  TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  Target target = resolveTarget(o);
  const char* const steps[] = {
      "struct S%d { struct S%d *p; };\n",
      "struct S%d { int x; struct S%d *p; };\n",
      "struct S%d { struct S%d *p[2]; };\n",
      "struct S%1$d { struct S%2$d *p; struct S%2$d *q; };\n",
      "struct S%d { struct S%d **p; };\n",
  };
  // S0 is 1 deep, and each step adds 2 (3 with an array or a second '*'): where the first type
  // deeper than 400 is made.
  const int first_bad[] = {200, 200, 134, 200, 134};
  for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); ++k) {
    std::string text = "struct S0 { int x; };\n";
    char buf[128];
    for (int i = 1; i < 300; ++i) {
      std::snprintf(buf, sizeof buf, steps[k], i, i - 1);
      text += buf;
    }
    std::string fast = summary(target, Language::C, text, true);
    std::string general = summary(target, Language::C, text, false);
    EXPECT_EQ(fast, general) << steps[k];
    std::string at = "gen.h:" + std::to_string(first_bad[k] + 1) + ":";
    EXPECT_NE(fast.find("type nested too deeply"), std::string::npos) << fast.substr(0, 300);
    EXPECT_NE(fast.find(at), std::string::npos) << steps[k] << fast.substr(0, 300);
  }
}

// Block comments are scanned eight bytes at a time for the bytes that matter ('*', newline,
// backslash, NUL): comments of every length up to 40 with those bytes at every offset, between
// members (the fast path) and before a record (the lexer). The member after the comment must be
// where the text says (line and column counted here), and an unterminated comment is reported
// at its start, with and without the fast paths.
TEST(CParseFastPath, BlockCommentsOfEveryShape) {
  TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  Target target = resolveTarget(o);
  std::mt19937 rng(7);
  const char alphabet[] = {'a', 'a', 'a', '*', '*', '/', '\n', ' '};
  // "LINE:COL" of byte `at` of `text`, counted here.
  auto lineCol = [](const std::string& text, size_t at) {
    unsigned line = 1, col = 1;
    for (size_t i = 0; i < at; ++i) {
      if (text[i] == '\n')
        ++line, col = 1;
      else
        ++col;
    }
    return std::to_string(line) + ":" + std::to_string(col);
  };
  int checked = 0;
  for (int len = 0; len <= 40; ++len) {
    for (int rep = 0; rep < 12; ++rep) {
      std::string body;
      for (int i = 0; i < len; ++i) {
        char c = alphabet[std::uniform_int_distribution<int>(0, 7)(rng)];
        if (c == '/' && !body.empty() && body.back() == '*') c = 'a'; // no early "*/"
        body += c;
      }
      if (!body.empty() && body.back() == '*' && rep % 2) body.back() = 'a';
      for (int where = 0; where < 2; ++where) {
        // where 0: between two members; 1: before the record, on its own line.
        std::string head =
            where ? "/*" + body + "*/\nstruct C {\n  int a;" : "struct C {\n  int a;";
        std::string text = head + (where ? " " : " /*" + body + "*/") + " int b;\n};\n";
        // The expected position of `b` (a field is located at its name).
        const std::string b_at = lineCol(text, text.find(" int b;") + 5);
        std::string fast = summary(target, Language::C, text, true);
        std::string general = summary(target, Language::C, text, false);
        ASSERT_EQ(fast, general) << text;
        std::string want = "b int " + b_at + " ";
        ASSERT_NE(fast.find(want), std::string::npos) << text << "\n" << fast;
        // Cut after the comment's body: unterminated, reported where it opens.
        std::string open = text.substr(0, text.find("/*") + 2 + body.size());
        const std::string open_at = lineCol(open, open.find("/*"));
        for (bool f : {true, false}) {
          std::string cut = summary(target, Language::C, open, f);
          std::string where_at = "gen.h:" + open_at + ": error: unterminated /* comment";
          ASSERT_NE(cut.find(where_at), std::string::npos) << open << "\n" << cut;
        }
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 41 * 12 * 2);
}

// Identifiers end where eight bytes classified at once say (skipIdentCont): names of every length
// up to 40 built from every kind of identifier byte (letters, digits, '_', '$', bytes from 0x80)
// and ended by every other byte that can follow a member name, as record tags, typedef names
// and member names, read by the lexer and by the fast path. The names must come out whole.
TEST(CParseFastPath, IdentifiersOfEveryLengthAndByte) {
  TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  Target target = resolveTarget(o);
  std::mt19937 rng(11);
  std::string inner = "azAZ09_$";
  for (int c = 0x80; c <= 0xFF; ++c) inner += char(c);
  const char* const ends[] = {";", " ;", "\t;", "[2];", ":3;", "/**/;", "\n;", "\f;"};
  int checked = 0;
  for (int len = 1; len <= 40; ++len) {
    for (int rep = 0; rep < 4; ++rep) {
      std::string name = "n";
      while (int(name.size()) < len)
        name += inner[std::uniform_int_distribution<size_t>(0, inner.size() - 1)(rng)];
      for (const char* end : ends) {
        std::string text = "typedef int t" + name + ";\nstruct s" + name + " {\n  t" + name + " " +
                           name + end + "\n  int z;\n};\n";
        std::string fast = summary(target, Language::C, text, true);
        ASSERT_EQ(fast, summary(target, Language::C, text, false)) << text;
        // The record, then the member: its name, then its type (t<name>, maybe with [2]).
        std::string want = "struct s" + name + " 2:8\n" + name + " t" + name;
        size_t at = fast.find(want);
        ASSERT_NE(at, std::string::npos) << text << "\n" << fast;
        char after = fast[at + want.size()];
        ASSERT_TRUE(after == ' ' || after == '[') << text << "\n" << fast;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 40 * 4 * 8);
}

} // namespace
