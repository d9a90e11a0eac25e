// The layout writers through the C front-end: OpenCL and CUDA spellings of the C assertions,
// records named by an aligned typedef, and names escaped in JSON. `abikit layout` through the
// command line is tests/cli/test_layout_cli.cpp.
#include "abikit/cparse.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "test_cparse_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

using namespace abikit;

TEST(LayoutWriters, OpenClAndCudaSpellings) {
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx906";
  Target t = resolveTarget(o);
  for (Language lang : {Language::OpenCL, Language::HIP}) {
    TypeContext ctx(t, lang);
    LayoutEngine eng(ctx);
    TranslationUnit tu = parseSource(ctx, eng, "x", "struct S { long l; };", ParseOptions{});
    std::string c = layoutCAsserts(eng, tu.records, "");
    EXPECT_EQ(c.find("#include <stddef.h>"), std::string::npos);
    EXPECT_NE(c.find("__builtin_offsetof(struct S, l) == 0"), std::string::npos) << c;
    if (lang == Language::OpenCL) {
      EXPECT_NE(c.find("_Static_assert(__alignof__(struct S) == 8"), std::string::npos) << c;
    } else {
      EXPECT_NE(c.find("static_assert(alignof(struct S) == 8"), std::string::npos) << c;
    }
  }
}

// A record named only by a typedef is named in C through the typedef, whose aligned attribute
// replaces the record's alignment (higher or lower): the assertion says the typedef's.
TEST(LayoutWriters, CAssertsOfARecordNamedByAnAlignedTypedef) {
  cparse_test::Parsed p =
      cparse_test::parse("typedef struct { int a; } T16 __attribute__((aligned(16)));\n"
                         "typedef struct { long l; } T2 __attribute__((aligned(2)));\n"
                         "typedef struct { char c; } T1;\n");
  std::string c = layoutCAsserts(*p.layout, p.tu.records, "");
  EXPECT_NE(c.find("_Alignof(T16) == 16,"), std::string::npos) << c;
  EXPECT_NE(c.find("_Alignof(T2) == 2,"), std::string::npos) << c;
  EXPECT_NE(c.find("_Alignof(T1) == 1,"), std::string::npos) << c;
  EXPECT_NE(c.find("sizeof(T16) == 4,"), std::string::npos) << c;
}

TEST(LayoutWriters, JsonEscapesNames) {
  TargetOptions o;
  o.triple = "dpu-upmem-dpurte";
  Target t = resolveTarget(o);
  TypeContext ctx(t, Language::C);
  LayoutEngine eng(ctx);
  uint32_t file = ctx.addFile("dir\\with \"quotes\".h");
  RecordDecl* rd = ctx.createRecord("", false, SourceLoc{file, 1, 1});
  FieldDecl fd;
  fd.name = "x";
  fd.type = ctx.intType(IntKind::Int);
  rd->fields.push_back(fd);
  rd->complete = true;
  const RecordDecl* list[] = {rd};
  nlohmann::json doc = nlohmann::json::parse(layoutJson(eng, list));
  EXPECT_EQ(doc["records"][0]["name"], "struct (anonymous at dir\\with \"quotes\".h:1:1)");
}

} // namespace
