// parsePaddedSource() (the text lexed where the caller holds it, followed by kSourcePadding NULs)
// against parseSource() (the text copied): the same records, fields, locations and errors, also
// for texts that end inside a token, a comment, a directive or a line splice. And the identifier
// table sized from the input: headers with more identifiers than it was sized for, and with
// fewer.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace abikit;

std::string summary(const std::string& text, bool padded) {
  TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  const Target target = resolveTarget(o); // the context keeps a reference
  TypeContext ctx(target, Language::C);
  LayoutEngine layout(ctx);
  std::string out;
  try {
    TranslationUnit tu;
    if (padded) {
      // Exactly the padding after the text: a read past it is out of bounds (ASan).
      std::unique_ptr<char[]> bytes(new char[text.size() + kSourcePadding]);
      std::copy(text.begin(), text.end(), bytes.get());
      std::fill(bytes.get() + text.size(), bytes.get() + text.size() + kSourcePadding, '\0');
      tu = parsePaddedSource(ctx, layout, "h.h", std::string_view(bytes.get(), text.size()),
                             ParseOptions());
    } else {
      tu = parseSource(ctx, layout, "h.h", text, ParseOptions());
    }
    for (const RecordDecl* rd : tu.records) {
      out += rd->displayName(ctx) + " " + std::to_string(rd->loc.line) + ":" +
             std::to_string(rd->loc.col) + "\n";
      for (const FieldDecl& f : rd->fields)
        out += " " + std::string(f.name) + " " + typeName(f.type, ctx) + " " +
               std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col) + "\n";
      out += " size " + std::to_string(layout.of(*rd).size) + "\n";
    }
    for (const TypedefDecl* td : tu.typedefs) out += "typedef " + std::string(td->name) + "\n";
  } catch (const Error& e) {
    out += "error: " + e.format();
  }
  return out;
}

TEST(CParsePadded, SameAsACopiedText) {
  const std::vector<std::string> texts = {
      "",
      "\n",
      "struct a { int x; char y; };\n",
      "struct a { int x; char y; };",
      "struct a { int x; char y; }",
      "struct a { int x",
      "struct a { int x; }; typedef struct a a_t;",
      "struct a { int x; }; struct a { int y; };\n",
      "typedef int t; typedef long t;\n",
      "#if 1 +\nstruct a { int x; };\n#endif\n",
      "#ifdef X\nstruct a { int x; };\n",
      "#ifdef X\nstruct a { int x; };\n#else\nstruct b { long y; };",
      "#define N 4\nstruct a { int x[N]; };\n#undef N",
      "/* unterminated",
      "struct a { int x; }; /* unterminated",
      "struct a { int x; }; // comment",
      "struct a { int x; }; \\",
      "struct a { int x; }; \\\n",
      "struct a { char c; }; struct b { struct a a; int i",
      "struct a { int x; };\n\"unterminated",
      "struct a { int x; };\n'",
      "struct abcdefghijklmnop { int abcdefghijklmnopq; };",
      "struct s { int x; }; s",
      "enum e { A, B = 3, C",
      "#include <stdint.h>\nstruct a { uint64_t x; uint8_t y; };",
      "#include \"missing.h\"\n",
  };
  for (const std::string& t : texts) EXPECT_EQ(summary(t, true), summary(t, false)) << t;
}

TEST(CParsePadded, IdentifierTableSizedFromTheInput) {
  // 30,000 distinct record names in about 1 MB: more identifiers than the table is sized for
  // (one per 128 bytes), so it still grows while the text is read.
  std::string dense;
  for (int i = 0; i < 30000; ++i)
    dense += "struct r" + std::to_string(i) + " { int a" + std::to_string(i) + "; };\n";
  TargetOptions o;
  o.triple = "riscv64-unknown-elf";
  const Target target = resolveTarget(o);
  {
    TypeContext ctx(target, Language::C);
    LayoutEngine layout(ctx);
    TranslationUnit tu = parseSource(ctx, layout, "d.h", dense, ParseOptions());
    ASSERT_EQ(tu.records.size(), 30000u);
    for (int i : {0, 1, 4095, 4096, 16383, 29999}) {
      const RecordDecl* rd = tu.findRecord("r" + std::to_string(i), ctx);
      ASSERT_NE(rd, nullptr) << i;
      EXPECT_EQ(rd->fields.at(0).name, "a" + std::to_string(i));
    }
  }
  // A large text with few identifiers (comments): a large table, the same answers.
  std::string sparse(2 << 20, ' ');
  sparse.replace(0, 2, "/*");
  sparse.replace(sparse.size() - 3, 3, "*/\n");
  sparse += "struct s { int x; long y; };\nstruct s2 { struct s a[2]; };\n";
  EXPECT_EQ(summary(sparse, true), summary(sparse, false));
  EXPECT_EQ(summary(sparse, true), "struct s 2:8\n x int 2:16\n y long 2:24\n size 16\n"
                                   "struct s2 3:8\n a struct s[2] 3:22\n size 32\n");
}

} // namespace
