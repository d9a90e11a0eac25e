// compareLayouts(): the user reports of issue 27 reproduced (OpenCL's cl_int/cl_long record on
// i386, Microsoft bit-fields against a device, AArch64's vector alignment cap, long double on HIP
// kernels, a member under #if, DPU transfer sizes), and what is the same stays silent.
#include "abikit/compat.h"
#include "test_cparse_util.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit;
using abikit::cparse_test::parse;
using abikit::cparse_test::Parsed;

struct Compared {
  std::vector<Parsed> parsed;
  std::vector<CompatRecord> records;
  const CompatRecord& operator[](std::string_view name) const {
    for (const CompatRecord& r : records)
      if (r.name == name) return r;
    ADD_FAILURE() << "no record " << name;
    return records.front();
  }
};

Compared compare(std::string_view text, std::initializer_list<const char*> triples) {
  Compared c;
  for (const char* t : triples) c.parsed.push_back(parse(text, t));
  std::vector<CompatSide> sides;
  for (const Parsed& p : c.parsed) sides.push_back({p.layout.get(), p.tu.records});
  c.records = compareLayouts(sides);
  return c;
}

const CompatDifference* find(const CompatRecord& r, std::string_view field, std::string_view what) {
  for (const CompatDifference& d : r.differences)
    if (d.field == field && d.what == what) return &d;
  return nullptr;
}

using V = std::vector<std::optional<uint64_t>>;

// KhronosGroup/OpenCL-Headers#149, pocl#801: struct { cl_int; cl_long; } is 12 bytes on i386.
TEST(Compat, OpenClIntLongOnI386) {
  Compared c = compare("typedef int cl_int; typedef long long cl_long;"
                       "struct args { cl_int n; cl_long total; };",
                       {"x86_64-linux-gnu", "i386-linux-gnu", "nvptx64-nvidia-cuda"});
  const CompatRecord& r = c["struct args"];
  EXPECT_FALSE(r.same());
  ASSERT_NE(find(r, "", "size"), nullptr);
  EXPECT_EQ(find(r, "", "size")->values, (V{16, 12, 16}));
  ASSERT_NE(find(r, "total", "offset"), nullptr);
  EXPECT_EQ(find(r, "total", "offset")->values, (V{8, 4, 8}));
  EXPECT_EQ(find(r, "n", "offset"), nullptr); // n agrees
}

// llvm#51031: on Windows the host lays bit-fields out the Microsoft way (whole units of each
// declared type); a device compiled with the generic rules packs them.
TEST(Compat, MicrosoftBitFieldsAgainstTheDevice) {
  Compared c = compare("struct flags { char a; int b : 3; long long c : 5; };",
                       {"x86_64-pc-windows-msvc", "nvptx64-nvidia-cuda", "x86_64-w64-windows-gnu"});
  const CompatRecord& r = c["struct flags"];
  ASSERT_NE(find(r, "", "size"), nullptr);
  EXPECT_EQ(find(r, "", "size")->values, (V{16, 8, 16}));
  ASSERT_NE(find(r, "b", "bit_offset"), nullptr);
  EXPECT_EQ(find(r, "b", "bit_offset")->values, (V{32, 8, 32}));
  ASSERT_NE(find(r, "c", "bit_offset"), nullptr);
  EXPECT_EQ(find(r, "c", "bit_offset")->values, (V{64, 11, 64}));
}

// LLP64: `long` is 4 bytes on Windows, 8 on a 64-bit device and on 64-bit Linux; long double is
// 8 bytes under MSVC, 16 (x87) under MinGW.
TEST(Compat, WindowsLongAndLongDouble) {
  Compared c = compare("struct p { long n; long double x; };",
                       {"x86_64-pc-windows-msvc", "x86_64-w64-windows-gnu", "x86_64-linux-gnu"});
  const CompatRecord& r = c["struct p"];
  ASSERT_NE(find(r, "n", "size"), nullptr);
  EXPECT_EQ(find(r, "n", "size")->values, (V{4, 4, 8}));
  ASSERT_NE(find(r, "x", "offset"), nullptr);
  EXPECT_EQ(find(r, "x", "offset")->values, (V{8, 16, 16}));
  bool noted = false;
  for (const std::string& n : r.notes) noted |= n.find("long double") != std::string::npos;
  EXPECT_TRUE(noted);
}

// pocl#2174: AArch64 caps vector alignment at 16, x86-64 does not.
TEST(Compat, VectorAlignmentCapOnAarch64) {
  Compared c = compare("typedef float float16v __attribute__((vector_size(64)));"
                       "struct k { char c; float16v v; };",
                       {"x86_64-linux-gnu", "aarch64-linux-gnu"});
  const CompatRecord& r = c["struct k"];
  EXPECT_EQ(find(r, "", "size")->values, (V{128, 80}));
  EXPECT_EQ(find(r, "", "align")->values, (V{64, 16}));
  EXPECT_EQ(find(r, "v", "offset")->values, (V{64, 16}));
}

// ROCm/hip#890: long double on an AMDGPU kernel is a double; on the x86-64 host, x87 in 16.
TEST(Compat, LongDoubleAcrossHostAndAmdgpu) {
  Compared c =
      compare("struct p { long double x; int n; };", {"x86_64-linux-gnu", "amdgcn-amd-amdhsa"});
  const CompatRecord& r = c["struct p"];
  EXPECT_EQ(find(r, "x", "size")->values, (V{16, 8}));
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.front().find("long double"), std::string::npos);
}

TEST(Compat, MemberUnderIfAndRecordOnOneSide) {
  Compared c = compare("struct s { int a;\n#ifdef __x86_64__\n int host_only;\n#endif\n int b; };\n"
                       "#ifdef __riscv\nstruct dev { int x; };\n#endif\n",
                       {"x86_64-linux-gnu", "riscv64-unknown-elf"});
  const CompatRecord& s = c["struct s"];
  ASSERT_NE(find(s, "host_only", "present"), nullptr);
  EXPECT_EQ(find(s, "host_only", "present")->values, (V{4, std::nullopt}));
  EXPECT_EQ(find(s, "b", "offset")->values, (V{8, 4}));
  const CompatRecord& d = c["struct dev"];
  EXPECT_EQ(find(d, "", "present")->values, (V{std::nullopt, 4}));
}

TEST(Compat, BitFieldsComparedInBits) {
  // i386's 4-aligned long long lets x share the unit that starts at byte 4; x86-64 moves it to
  // the next 8-aligned unit.
  Compared c =
      compare("struct b { char pad[5]; long long x:40; };", {"x86_64-linux-gnu", "i386-linux-gnu"});
  const CompatRecord& r = c["struct b"];
  ASSERT_NE(find(r, "x", "bit_offset"), nullptr);
  EXPECT_EQ(find(r, "x", "bit_offset")->values, (V{64, 40}));
  EXPECT_EQ(find(r, "x", "offset"), nullptr); // bit-fields are compared in bits
}

// reference/hosts.md: a zero-width bit-field raises the record's alignment on AArch64 only.
TEST(Compat, ZeroWidthBitFieldOnAarch64) {
  Compared c =
      compare("struct z { char a; int:0; char y; };", {"x86_64-linux-gnu", "aarch64-linux-gnu"});
  const CompatRecord& r = c["struct z"];
  EXPECT_EQ(find(r, "", "size")->values, (V{5, 8}));
  EXPECT_EQ(find(r, "", "align")->values, (V{1, 4}));
  EXPECT_EQ(find(r, "y", "offset"), nullptr);
}

TEST(Compat, DpuTransferSizeAndPointerNotes) {
  Compared c = compare("struct t { int a, b, c; }; struct q { void *p; int n; };",
                       {"x86_64-linux-gnu", "dpu-upmem-dpurte"});
  const CompatRecord& t = c["struct t"];
  EXPECT_TRUE(t.same());
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_NE(t.notes[0].find("multiples of 8"), std::string::npos);
  const CompatRecord& q = c["struct q"];
  EXPECT_FALSE(q.same());
  bool pointer_note = false;
  for (const std::string& n : q.notes)
    pointer_note |= n.find("holds a pointer") != std::string::npos;
  EXPECT_TRUE(pointer_note);
}

TEST(Compat, SameEverywhereIsSilent) {
  Compared c = compare("struct s { int a; short b; char c[2]; };",
                       {"x86_64-linux-gnu", "i386-linux-gnu", "aarch64-linux-gnu",
                        "nvptx64-nvidia-cuda", "riscv32-unknown-elf"});
  const CompatRecord& r = c["struct s"];
  EXPECT_TRUE(r.same());
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.layouts.size(), 5u);
}

} // namespace
