// The Microsoft record layout (x86_64-pc-windows-msvc) and the ms_struct variant of the generic
// one (x86_64-w64-windows-gnu, and `#pragma ms_struct` / `__attribute__((ms_struct))` elsewhere):
// cases worked by hand from the rules in docs/layout.md (clang's MicrosoftRecordLayoutBuilder
// and the ms_struct branches of its ItaniumRecordLayoutBuilder), each also checked against
// clang-22. Every case defines one record `S`; the expected layout is written as
// "SIZE/ALIGN name@BIT[:WIDTH] ..." over the named members (bit offsets from the record's start).
#include "test_cparse_util.h"

#include <string>

namespace {

using namespace abikit;
using cparse_test::parse;

constexpr const char* kMsvc = "x86_64-pc-windows-msvc";
constexpr const char* kMingw = "x86_64-w64-windows-gnu";

struct MsCase {
  const char* name;
  const char* triple;
  const char* source;
  const char* expected;
};

// Worked by hand; the comments give the step that decides each case.
const MsCase kCases[] = {
    // --- Microsoft: bit-fields take whole units of their declared type -----------------------
    {"units_of_each_size", kMsvc, "struct S { char a; int b:3; long long c:5; };",
     "16/8 a@0 b@32:3 c@64:5"}, // int unit at 4, long long unit at 8
    {"same_size_shares_unit", kMsvc, "struct S { int a:3; int b:5; int c:30; };",
     "8/4 a@0:3 b@3:5 c@32:30"}, // c does not fit the 24 bits left: a new unit
    {"different_sizes_never_share", kMsvc, "struct S { char a:3; short b:5; };",
     "4/2 a@0:3 b@16:5"},
    {"signedness_does_not_matter", kMsvc, "struct S { int a:3; unsigned b:5; };",
     "4/4 a@0:3 b@3:5"},
    {"member_ends_the_unit", kMsvc, "struct S { int a:3; float f; int b:4; };",
     "12/4 a@0:3 f@32 b@64:4"},
    {"long_is_int_sized", kMsvc, "struct S { long a:4; int b:4; };", "4/4 a@0:4 b@4:4"},
    {"int_then_long_long", kMsvc, "struct S { int a:4; long long b:4; };", "16/8 a@0:4 b@64:4"},
    {"unit_overflow", kMsvc, "struct S { short a:10; short b:10; };", "4/2 a@0:10 b@16:10"},
    {"after_array", kMsvc, "struct S { char a[3]; int b:8; };", "8/4 a@0 b@32:8"},
    {"enum_shares_with_int", kMsvc, "enum E { A, B }; struct S { enum E e:2; int i:3; };",
     "4/4 e@0:2 i@2:3"},
    {"bool_and_char", kMsvc, "struct S { _Bool a:1; char b:2; _Bool c:1; };",
     "1/1 a@0:1 b@1:2 c@3:1"},
    {"aligned_bit_field", kMsvc, "struct S { char a; int b:4 __attribute__((aligned(16))); };",
     "32/16 a@0 b@128:4"}, // the unit is 16-aligned; the record's size rounds to 16
    {"pack4_long_long_unit", kMsvc, "#pragma pack(4)\nstruct S { char a; long long b:40; };",
     "12/4 a@0 b@32:40"},
    // --- Microsoft: zero-width bit-fields ----------------------------------------------------
    {"zero_width_after_bit_field", kMsvc, "struct S { char a:3; int :0; char b:4; };",
     "8/4 a@0:3 b@32:4"}, // it aligns to int and raises the record's alignment
    {"zero_width_after_member_ignored", kMsvc, "struct S { char a; int :0; char b; };",
     "2/1 a@0 b@8"},
    {"leading_zero_width_ignored", kMsvc, "struct S { int :0; char b; };", "1/1 b@0"},
    {"second_zero_width_ignored", kMsvc, "struct S { char a:1; int :0; long long :0; char b; };",
     "8/4 a@0:1 b@32"},
    {"only_zero_width", kMsvc, "struct S { int :0; };", "4/1"},
    // --- Microsoft: unions -------------------------------------------------------------------
    {"union_bit_field_alignment_ignored", kMsvc, "union S { char c; int b:3; };", "4/1 c@0 b@0:3"},
    {"union_bit_field_first", kMsvc, "union S { int a:3; char b; };", "4/1 a@0:3 b@0"},
    {"union_zero_width_takes_its_size", kMsvc, "union S { char a:2; long long :0; };", "8/1 a@0:2"},
    {"union_aligned_member", kMsvc, "union S { char c; int i __attribute__((aligned(8))); };",
     "8/8 c@0 i@0"},
    // --- Microsoft: packed, #pragma pack and aligned -----------------------------------------
    {"packed_record", kMsvc, "struct __attribute__((packed)) S { char a; int b; };", "5/1 a@0 b@8"},
    {"packed_record_bit_field", kMsvc, "struct __attribute__((packed)) S { char a; int b:4; };",
     "5/1 a@0 b@8:4"},
    {"packed_member", kMsvc, "struct S { char a; int b __attribute__((packed)); };", "5/1 a@0 b@8"},
    {"pack2", kMsvc, "#pragma pack(2)\nstruct S { char a; int b; double c; };",
     "14/2 a@0 b@16 c@48"},
    {"pack16_ignored", kMsvc,
     "typedef char v32 __attribute__((vector_size(32)));\n#pragma pack(16)\n"
     "struct S { char a; v32 v; };",
     "64/32 a@0 v@256"}, // above the pointer size: ignored
    {"pack8_caps_vector", kMsvc,
     "typedef char v32 __attribute__((vector_size(32)));\n#pragma pack(8)\n"
     "struct S { char a; v32 v; };",
     "40/8 a@0 v@64"},
    {"aligned_beats_pack", kMsvc,
     "#pragma pack(1)\nstruct S { char a; int b __attribute__((aligned(8))); };", "16/8 a@0 b@64"},
    {"aligned_record_under_pack", kMsvc,
     "#pragma pack(1)\nstruct __attribute__((aligned(4))) S { char a; int b; };", "8/4 a@0 b@8"},
    {"aligned_member_record_under_pack", kMsvc,
     "struct __attribute__((aligned(16))) In { char c; };\n#pragma pack(1)\n"
     "struct S { char a; struct In i; };",
     "32/16 a@0 i@128"},
    {"aligned_typedef_under_packed", kMsvc,
     "typedef int aint __attribute__((aligned(8)));\n"
     "struct __attribute__((packed)) S { char a; aint b; };",
     "16/8 a@0 b@64"},
    {"aligned_member", kMsvc, "struct S { char a; char b __attribute__((aligned(4))); };",
     "8/4 a@0 b@32"},
    {"nested_under_pack2", kMsvc,
     "struct In { char c; int i; };\n#pragma pack(2)\nstruct S { char a; struct In in; };",
     "10/2 a@0 in@16"},
    // --- Microsoft: empty records, flexible arrays, the data model ---------------------------
    {"empty", kMsvc, "struct S {};", "4/1"},
    {"empty_aligned_8", kMsvc, "struct __attribute__((aligned(8))) S {};", "8/8"},
    {"empty_aligned_2", kMsvc, "struct __attribute__((aligned(2))) S {};", "4/2"},
    {"flexible_array", kMsvc, "struct S { int n; char d[]; };", "4/4 n@0 d@32"},
    {"flexible_double_array", kMsvc, "struct S { char c; double d[]; };", "8/8 c@0 d@64"},
    {"long_double_is_double", kMsvc, "struct S { char c; long double d; };", "16/8 c@0 d@64"},
    {"pointer_and_int", kMsvc, "struct S { char c; void *p; int i; };", "24/8 c@0 p@64 i@128"},
    {"int_keywords", kMsvc,
     "struct S { char c; unsigned __int64 x; __int32 y; __int16 z; __int8 w; };",
     "24/8 c@0 x@64 y@128 z@160 w@176"},
    {"declspec_align_record", kMsvc, "struct __declspec(align(16)) S { int a; };", "16/16 a@0"},
    {"declspec_align_member", kMsvc, "struct S { char a; __declspec(align(8)) char b; };",
     "16/8 a@0 b@64"},
    {"wchar_t_is_16_bits", kMsvc, "#include <stddef.h>\nstruct S { char c; wchar_t w; };",
     "4/2 c@0 w@16"},
    {"enum_is_int_even_packed", kMsvc,
     "enum __attribute__((packed)) E { A = 1 };\nstruct S { char c; enum E e; };", "8/4 c@0 e@32"},
    // --- ms_struct (MinGW by default; #pragma ms_struct and the attribute elsewhere) ---------
    {"mingw_units", kMingw, "struct S { char a; int b:3; long long c:5; };",
     "16/8 a@0 b@32:3 c@64:5"},
    {"mingw_union_bit_field", kMingw, "union S { char c; int b:3; };", "4/1 c@0 b@0:3"},
    {"mingw_zero_width_after_member", kMingw, "struct S { char a; int :0; char b; };",
     "2/1 a@0 b@8"},
    {"mingw_zero_width_after_bit_field", kMingw, "struct S { char a:3; int :0; char b; };",
     "8/4 a@0:3 b@32"}, // under ms_struct an unnamed bit-field raises the alignment too
    {"mingw_pack1", kMingw, "#pragma pack(1)\nstruct S { char a; int b:4; int c:30; };",
     "9/1 a@0 b@8:4 c@40:30"},
    {"mingw_long_double", kMingw, "struct S { char c; long double d; };", "32/16 c@0 d@128"},
    {"mingw_gcc_struct", kMingw,
     "struct __attribute__((gcc_struct)) S { char a; int b:3; long long c:5; };",
     "8/8 a@0 b@8:3 c@11:5"},
    {"mingw_gcc_struct_ignored_by_clang14", "x86_64-w64-windows-gnu clang-14",
     "struct __attribute__((gcc_struct)) S { char a; int b:3; long long c:5; };",
     "16/8 a@0 b@32:3 c@64:5"},
    {"pragma_ms_struct_linux", "x86_64-linux-gnu",
     "#pragma ms_struct on\nstruct S { short a:4; int b:4; };", "8/4 a@0:4 b@32:4"},
    {"pragma_ms_struct_off", "x86_64-linux-gnu",
     "#pragma ms_struct on\n#pragma ms_struct off\nstruct S { short a:4; int b:4; };",
     "4/4 a@0:4 b@4:4"},
    {"attribute_ms_struct_riscv", "riscv64-unknown-elf",
     "struct __attribute__((ms_struct)) S { char a:4; char b:6; };", "2/1 a@0:4 b@8:6"},
    {"ms_struct_i386_double", "i386-linux-gnu",
     "#pragma ms_struct on\nstruct S { char c; double d; };", "16/8 c@0 d@64"},
    {"ms_struct_aarch64_unnamed", "aarch64-linux-gnu",
     "#pragma ms_struct on\nstruct S { char a; int :4; char b; };", "12/4 a@0 b@64"},
};

std::string layoutSignature(const cparse_test::Parsed& p) {
  const RecordDecl* rd = p.record("S");
  if (!rd) return "no record S";
  const RecordLayout& rl = p.layout->of(*rd);
  std::string s = std::to_string(rl.size) + "/" + std::to_string(rl.align);
  for (size_t i = 0; i < rd->fields.size(); ++i) {
    const FieldDecl& f = rd->fields[i];
    if (f.name.empty()) continue;
    s += " " + std::string(f.name) + "@" + std::to_string(rl.fields[i].bit_offset);
    if (rl.fields[i].bit_width >= 0) s += ":" + std::to_string(rl.fields[i].bit_width);
  }
  return s;
}

class MsLayout : public ::testing::TestWithParam<MsCase> {};

TEST_P(MsLayout, HandWorked) {
  const MsCase& c = GetParam();
  cparse_test::Parsed p = parse(c.source, c.triple);
  EXPECT_EQ(layoutSignature(p), c.expected) << c.source;
}

INSTANTIATE_TEST_SUITE_P(Cases, MsLayout, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<MsCase>& info) {
                           return std::string(info.param.name);
                         });

TEST(MsLayout, FieldKeepsItsTypeAlignmentAndRequiredAlignmentIsKept) {
  cparse_test::Parsed p =
      parse("struct __attribute__((aligned(16))) In { char c; };\n#pragma pack(1)\n"
            "struct S { char a; struct In i; int b:3; };",
            kMsvc);
  const RecordLayout& in = p.layout->of(*p.record("In"));
  EXPECT_EQ(in.required_align, 16u);
  const RecordLayout& s = p.layout->of(*p.record("S"));
  EXPECT_EQ(s.required_align, 16u); // a member's required alignment carries over
  EXPECT_EQ(s.fields[2].align, 4u); // a bit-field reports its declared type's alignment
}

TEST(MsLayout, TheMicrosoftDialect) {
  // The keywords and __declspec exist in the Microsoft dialect only.
  EXPECT_NE(cparse_test::errorLine("struct S { __int64 x; };", "x86_64-w64-windows-gnu"), "");
  EXPECT_NE(cparse_test::errorLine("struct __declspec(align(8)) S { int a; };", "x86_64-linux-gnu")
                .find("'__declspec' is not supported"),
            std::string::npos);
  EXPECT_NE(cparse_test::errorLine("struct __declspec(property(get=f)) S { int a; };", kMsvc)
                .find("unsupported __declspec attribute 'property'"),
            std::string::npos);
  // gcc_struct: refused where only the Microsoft rules exist (clang 22 says so too).
  EXPECT_NE(cparse_test::errorLine("struct __attribute__((gcc_struct)) S { int a; };", kMsvc)
                .find("gcc_struct"),
            std::string::npos);
  // __has_attribute knows it from clang 22 on (clang-14 and clang-19 answer 0).
  for (auto [triple, want] : {std::pair{"x86_64-w64-windows-gnu", 1},
                              {"x86_64-w64-windows-gnu clang-19", 0},
                              {"x86_64-linux-gnu clang-14", 0}}) {
    cparse_test::Parsed h = parse("struct S { int a[__has_attribute(gcc_struct) + 1]; };", triple);
    EXPECT_EQ(h.sizeOf("struct S"), 4u * (want + 1)) << triple;
  }
  // Calling-convention keywords: the i386 ones are ignored (clang ignores them on every target
  // abikit lowers calls for), __vectorcall is refused; _stdcall is the dialect's spelling only.
  for (const char* triple : {kMsvc, "x86_64-linux-gnu", "riscv64-unknown-elf"})
    EXPECT_EQ(
        cparse_test::errorLine("typedef void (__stdcall *fp)(void);\n"
                               "void __cdecl f(void); int __fastcall g(int);\n"
                               "struct S { fp p; void (__attribute__((stdcall)) *q)(void); };",
                               triple),
        "")
        << triple;
  EXPECT_EQ(cparse_test::errorLine("void _stdcall f(void);", kMsvc), "");
  EXPECT_NE(cparse_test::errorLine("void _stdcall f(void);", "x86_64-linux-gnu"), "");
  EXPECT_NE(cparse_test::errorLine("int __vectorcall h(int);", kMsvc)
                .find("unsupported calling convention '__vectorcall'"),
            std::string::npos);
  // Enumerators are converted to int, as clang does.
  cparse_test::Parsed p = parse("enum E { X = 0x80000000, Y, Z = 0x100000001 };\n"
                                "int a[X < 0 ? 1 : -1]; int b[Z == 1 ? 1 : -1];",
                                kMsvc);
  const EnumDecl* e = p.enumNamed("E");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(int64_t(e->enumerators[1].value), -2147483647);
  EXPECT_EQ(p.layout->of(e->underlying).size, 4u);
}

} // namespace
