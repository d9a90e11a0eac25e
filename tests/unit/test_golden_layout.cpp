// Golden layout tests for the targets without an installable compiler (UPMEM DPU, Graphcore
// IPU). Each tests/golden/<family>/layout/NAME.h is parsed for the family's target and every
// record it declares is compared with NAME.layout, which was worked out by hand from the rules
// in ../shared/reference/<family>.md §1 (each record carries a one-line justification).
//
// NAME.layout, one line per record and per member ('#' starts a comment):
//   struct S size=8 align=4
//     a offset=0 size=1 align=1                    (offset in bytes)
//     b bit=9 width=3 size=4 align=4               (bit-field: absolute bit offset and width;
//                                                    size/align of the declared type)
//     (unnamed) bit=32 width=0 size=4 align=4      (unnamed bit-field)
//     (anonymous union) offset=8 size=4 align=4    (anonymous member; its members follow,
//       x offset=8 size=4 align=4                   indented, offsets from the outer record)
// For members that are not bit-fields `align` is the alignment the member was placed with
// (after packed, aligned and #pragma pack).
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"
#include "golden_cases.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace {

using namespace abikit;
namespace fs = std::filesystem;

using golden::GoldenCase;
using golden::readText;

const RecordDecl* anonymousMember(const FieldDecl& fd) {
  if (!fd.name.empty() || fd.isBitField()) return nullptr;
  auto* rt = dyn<RecordType>(stripTypedefs(fd.type));
  return rt && rt->decl->name.empty() ? rt->decl : nullptr;
}

void formatMembers(const LayoutEngine& eng, const RecordDecl& rd, uint64_t base, int indent,
                   std::string& out) {
  const RecordLayout& rl = eng.of(rd);
  for (size_t i = 0; i < rd.fields.size(); ++i) {
    const FieldDecl& fd = rd.fields[i];
    const FieldLayout& fl = rl.fields[i];
    uint64_t bit = base + fl.bit_offset;
    out.append(size_t(indent) * 2, ' ');
    const RecordDecl* anon = anonymousMember(fd);
    if (anon)
      out += anon->is_union ? "(anonymous union)" : "(anonymous struct)";
    else
      out += fd.name.empty() ? std::string("(unnamed)") : std::string(fd.name);
    if (fd.isBitField())
      out += " bit=" + std::to_string(bit) + " width=" + std::to_string(fd.bit_width);
    else if (bit % 8)
      out += " bit=" + std::to_string(bit); // never expected: reported as a difference
    else
      out += " offset=" + std::to_string(bit / 8);
    out += " size=" + std::to_string(fl.size) + " align=" + std::to_string(fl.align) + "\n";
    if (anon) formatMembers(eng, *anon, bit, indent + 1, out);
  }
}

std::string layoutLines(const std::string& family, const std::string& triple,
                        const std::string& header) {
  TargetOptions o;
  o.triple = triple;
  Target target = resolveTarget(o);
  TypeContext ctx(target, Language::C);
  LayoutEngine eng(ctx);
  TranslationUnit tu = parseSource(ctx, eng, header, readText(header), ParseOptions{});
  std::string out;
  for (const RecordDecl* rd : tu.records) {
    const RecordLayout& rl = eng.of(*rd);
    out += rd->displayName(ctx) + " size=" + std::to_string(rl.size) +
           " align=" + std::to_string(rl.align) + "\n";
    formatMembers(eng, *rd, 0, 1, out);
  }
  return out;
}

// The expected text without comments, blank lines and trailing blanks.
std::string normalise(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    if (line.find_first_not_of(' ') == std::string::npos) continue;
    out += line + "\n";
  }
  return out;
}

std::vector<GoldenCase> allCases() {
  return golden::goldenCases("layout");
}

class GoldenLayout : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenLayout, MatchesHandWorkedLayout) {
  const GoldenCase& c = GetParam();
  fs::path expected_path = fs::path(c.header).replace_extension(".layout");
  ASSERT_TRUE(fs::exists(expected_path)) << expected_path << " is missing";
  std::string expected = normalise(readText(expected_path));
  std::string actual;
  try {
    actual = layoutLines(c.family, c.triple, c.header);
  } catch (const Error& e) {
    FAIL() << e.format();
  }
  EXPECT_EQ(actual, expected) << c.header;
}

INSTANTIATE_TEST_SUITE_P(Headers, GoldenLayout, ::testing::ValuesIn(allCases()),
                         golden::goldenCaseName);

// The issue asks for at least 40 hand-worked cases per target.
TEST(GoldenLayout, AtLeastFortyCasesPerTarget) {
  std::map<std::string, int> n;
  for (const GoldenCase& c : allCases()) {
    // Count the records of each case: one case may hold a few closely related records.
    std::string expected = normalise(readText(fs::path(c.header).replace_extension(".layout")));
    std::istringstream in(expected);
    std::string line;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != ' ') ++n[c.family];
  }
  EXPECT_GE(n["dpu"], 40);
  EXPECT_GE(n["ipu"], 40);
}

} // namespace
