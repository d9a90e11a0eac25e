// AArch64 host target: resolution and its errors, the data model per compiler, the AAPCS64
// record rules (zero-width and unnamed bit-fields, the vector alignment cap) from
// reference/hosts.md's measured table, and the refusal of the calling convention.
#include "abikit/callconv.h"
#include "test_cparse_util.h"

#include <gtest/gtest.h>

namespace {

using namespace abikit;
using abikit::cparse_test::parse;
using abikit::cparse_test::targetFor;

std::string targetError(const std::string& triple, const std::string& mcpu = "") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = mcpu;
  try {
    resolveTarget(o);
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

TEST(Aarch64Target, ResolutionAndErrors) {
  for (const char* t : {"aarch64-linux-gnu", "aarch64-unknown-linux-gnu", "arm64-linux-gnu"})
    EXPECT_EQ(targetFor(t).triple, "aarch64-linux-gnu") << t;
  Target t = targetFor("aarch64-linux-gnu");
  EXPECT_EQ(t.family, Family::AArch64);
  EXPECT_EQ(t.host().psabi, "AAPCS64");
  EXPECT_EQ(t.elf.machine, 183);
  EXPECT_EQ(t.dwarf.return_address_column, 30u);
  EXPECT_NE(targetError("aarch64_be-linux-gnu").find("not aarch64_be"), std::string::npos);
  EXPECT_NE(targetError("arm64-apple-darwin").find("unknown AArch64 triple"), std::string::npos);
  EXPECT_NE(targetError("aarch64-linux-gnu", "cortex-a72").find("not modelled"), std::string::npos);
}

TEST(Aarch64Target, DataModelPerCompiler) {
  const DataModel d = targetFor("aarch64-linux-gnu").data;
  const DataModel d14 = targetFor("aarch64-linux-gnu clang-14").data;
  EXPECT_FALSE(d.char_signed);
  EXPECT_EQ(d.wchar_type, IntKind::UInt);
  EXPECT_EQ(d.float_formats[size_t(FloatKind::LongDouble)], FloatFormat::IEEEQuad);
  EXPECT_FALSE(d.of(FloatKind::Float128).supported());
  EXPECT_EQ(d.va_list.size, 32);
  EXPECT_EQ(d.max_vector_align, 16);
  EXPECT_EQ(d.bitint_max_align, 16);
  EXPECT_EQ(d14.bitint_max_align, 8);
  EXPECT_TRUE(d.of(FloatKind::BFloat16).supported());
  EXPECT_FALSE(d14.of(FloatKind::BFloat16).supported());
  auto has = [](const char* spec, const char* name) {
    for (auto& [k, v] : predefinedMacros(targetFor(spec), Language::C))
      if (k == name) return true;
    return false;
  };
  EXPECT_TRUE(has("aarch64-linux-gnu", "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16"));
  EXPECT_FALSE(has("aarch64-linux-gnu clang-14", "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16"));
}

// reference/hosts.md, "Measured differences": the aarch64 column.
TEST(Aarch64Target, MeasuredRecordLayouts) {
  auto p = parse(R"(
struct R1 { char a:4; int b:6; short c:10; char d; };
struct R3 { char a; int:0; char b; long long:3; char c; };
struct R5 { char c; long double ld; };
struct R7 { char c; float v __attribute__((vector_size(64))); };
struct R8 { char a; int:4; char b; };
)",
                 "aarch64-linux-gnu");
  EXPECT_EQ(p.sizeOf("R1"), 8u);
  EXPECT_EQ(p.alignOf("R1"), 4u);
  EXPECT_EQ(p.sizeOf("R3"), 8u);
  EXPECT_EQ(p.alignOf("R3"), 8u);
  EXPECT_EQ(p.sizeOf("R5"), 32u);
  EXPECT_EQ(p.sizeOf("R7"), 80u);
  EXPECT_EQ(p.alignOf("R7"), 16u);
  EXPECT_EQ(p.sizeOf("R8"), 4u);
  EXPECT_EQ(p.alignOf("R8"), 4u);
}

TEST(Aarch64Target, CallingConventionIsRefused) {
  auto p = parse("int f(int a);", "aarch64-linux-gnu");
  try {
    lowerFunction(*p.ctx, *p.layout, *p.function("f"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(e.message().find("aarch64-linux-gnu"), std::string::npos);
  }
}

} // namespace
