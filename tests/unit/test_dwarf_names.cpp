// .debug_names (dwarf::readNameIndexes): a hand-built index with a hash table, two names, one
// entry each (one with an indexed parent), and malformed indexes, each one error at its offset.
#include "abikit/diag.h"
#include "abikit/dwarf_names.h"
#include "abikit/emit.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit;
using namespace abikit::dwarf;

void u32(std::vector<uint8_t>& v, uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
}

struct Index {
  std::vector<uint8_t> names, str;
  DebugSections sections() const {
    DebugSections s;
    s.file = "n.o";
    s.names = {names, 0x200, 0};
    s.str = {str, 0x400, 0};
    return s;
  }
};

// One CU at 0, 1 bucket, names "g" (hash 0x2b60c) and "main" (0x7c9a7f6a), abbreviations
// 1 = subprogram {die_offset ref4, parent flag_present} and 2 = variable {die_offset ref4,
// parent ref4}; "main" has an entry whose parent is "g"'s entry.
Index build(uint32_t name_count = 2, uint8_t second_code = 2) {
  Index x;
  x.str = {'g', 0, 'm', 'a', 'i', 'n', 0};
  std::vector<uint8_t> abbrevs = {1,    0x2e, 3,    0x13, 4,    0x19, 0, 0, second_code,
                                  0x34, 3,    0x13, 4,    0x13, 0,    0, 0};
  std::vector<uint8_t> entries = {1, 0x27, 0, 0, 0, 0,              // g: entry at 0
                                  2, 0x59, 0, 0, 0, 0, 0, 0, 0, 0}; // main: parent at 0
  std::vector<uint8_t> body = {5, 0, 0, 0};
  u32(body, 1);          // CU count
  u32(body, 0);          // local TUs
  u32(body, 0);          // foreign TUs
  u32(body, 1);          // buckets
  u32(body, name_count); // names
  u32(body, uint32_t(abbrevs.size()));
  u32(body, 8);
  for (char c : std::string("LLVM0700")) body.push_back(uint8_t(c));
  u32(body, 0);       // CU 0
  u32(body, 1);       // bucket 0: name 1
  u32(body, 0x2b60c); // hashes
  u32(body, 0x7c9a7f6a);
  u32(body, 0); // string offsets
  u32(body, 2);
  u32(body, 0); // entry offsets
  u32(body, 6);
  body.insert(body.end(), abbrevs.begin(), abbrevs.end());
  body.insert(body.end(), entries.begin(), entries.end());
  u32(x.names, uint32_t(body.size()));
  x.names.insert(x.names.end(), body.begin(), body.end());
  return x;
}

TEST(DwarfNames, HandBuiltIndex) {
  Index x = build();
  DebugInfo info(x.sections());
  std::vector<NameIndex> v = readNameIndexes(info);
  ASSERT_EQ(v.size(), 1u);
  const NameIndex& n = v[0];
  EXPECT_EQ(n.augmentation, "LLVM0700");
  ASSERT_EQ(n.names.size(), 2u);
  EXPECT_EQ(n.names[0].string, "g");
  EXPECT_EQ(n.names[1].string, "main");
  ASSERT_EQ(n.names[1].entries.size(), 1u);
  EXPECT_EQ(n.names[1].entries[0].values[0], 0x59u);
  const std::string text = dwarfNamesText(v);
  EXPECT_NE(text.find("      Hash: 0x7C9A7F6A\n      String: 0x00000002 \"main\"\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("DW_IDX_parent: Entry @ 0x"), std::string::npos) << text;
  EXPECT_NE(text.find("DW_IDX_parent: <parent not indexed>"), std::string::npos) << text;
  EXPECT_NE(text.find("  Abbreviations [\n    Abbreviation 0x1 {\n      Tag: DW_TAG_subprogram\n"),
            std::string::npos)
      << text;
}

void expectNamesError(const Index& x, const std::string& words) {
  try {
    DebugInfo info(x.sections());
    (void)readNameIndexes(info);
    ADD_FAILURE() << "no error; expected " << words;
  } catch (const Error& e) {
    EXPECT_TRUE(e.hasOffset()) << e.message();
    EXPECT_GE(e.offset(), 0x200u) << e.message();
    EXPECT_NE(e.message().find(words), std::string::npos) << e.message();
  }
}

TEST(DwarfNames, MalformedIndexesAreOneError) {
  // A name count far beyond what the index holds: refused before anything is allocated.
  expectNamesError(build(0x40000000), "run past its end");
  // Two abbreviations with the same code.
  expectNamesError(build(2, 1), "appears twice");
  // Version 4.
  Index v = build();
  v.names[4] = 4;
  expectNamesError(v, "version 4");
  // An entry whose abbreviation code is not in the table.
  Index e = build();
  e.names[e.names.size() - 16] = 9;
  expectNamesError(e, "is not in the table");
  // A string offset outside .debug_str.
  Index s = build();
  s.str.resize(2); // "g" and its NUL: offset 2 is past the end
  expectNamesError(s, "outside .debug_str");
}

} // namespace
