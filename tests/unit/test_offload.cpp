// CUDA and HIP device compilations and their host (--host-target, docs/offload.md): what the
// device takes from the host, worked by hand from clang-14's NVPTXTargetInfo constructor and
// AMDGPUTargetInfo::setAuxTarget (each case also measured with clang-14's device compilation),
// and the refusals.
#include "test_cparse_util.h"

#include <algorithm>
#include <string>

namespace {

using namespace abikit;
using cparse_test::Parsed;

Target device(const std::string& triple, const std::string& host = "",
              const std::string& mcpu = "") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = mcpu;
  o.host_triple = host;
  // The CUDA facts of clang-14 (test_nvptx_compilers.cpp has what clang-19 and clang-22 add).
  if (triple.rfind("nvptx", 0) == 0) o.compiler = "clang-14";
  return resolveTarget(o);
}

Parsed parseFor(std::string_view text, Target t, Language lang) {
  Parsed p;
  p.target = std::make_unique<Target>(std::move(t));
  p.ctx = std::make_unique<TypeContext>(*p.target, lang);
  p.layout = std::make_unique<LayoutEngine>(*p.ctx);
  p.tu = parseSource(*p.ctx, *p.layout, lang == Language::HIP ? "t.hip" : "t.cu", text, {});
  return p;
}

std::string macro(const Target& t, Language lang, const std::string& name) {
  for (const auto& [k, v] : predefinedMacros(t, lang))
    if (k == name) return v;
  return "<undefined>";
}

std::string targetError(const std::string& triple, const std::string& host) {
  try {
    device(triple, host);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

constexpr const char* kNv64 = "nvptx64-nvidia-cuda";
constexpr const char* kAmd = "amdgcn-amd-amdhsa";

TEST(Offload, DefaultHosts) {
  Target nv = device(kNv64);
  ASSERT_TRUE(nv.offload.host);
  EXPECT_EQ(nv.offload.host->triple, "x86_64-linux-gnu");
  EXPECT_EQ(nv.spelling, "nvptx64-nvidia-cuda -mcpu=sm_20 --compiler clang-14");
  EXPECT_EQ(device("nvptx-nvidia-cuda").offload.host->triple, "i386-linux-gnu");
  EXPECT_EQ(device(kAmd).offload.host->triple, "x86_64-linux-gnu");
  // A host that is not the default shows in the spelling (compat's target labels).
  EXPECT_EQ(device(kNv64, "x86_64-pc-windows-msvc").spelling,
            "nvptx64-nvidia-cuda -mcpu=sm_20 --compiler clang-14 --host-target "
            "x86_64-pc-windows-msvc");
  // Host CPU targets and the other devices have no host.
  EXPECT_FALSE(device("x86_64-linux-gnu").offload.host);
  EXPECT_FALSE(device("riscv64-unknown-elf").offload.host);
}

TEST(Offload, Refusals) {
  EXPECT_NE(targetError("riscv64-unknown-elf", "x86_64-linux-gnu")
                .find("--host-target applies to the CUDA/HIP device targets"),
            std::string::npos);
  EXPECT_NE(targetError("x86_64-linux-gnu", "aarch64-linux-gnu").find("not to x86_64-linux-gnu"),
            std::string::npos);
  EXPECT_EQ(targetError(kNv64, "nvptx64-nvidia-cuda"),
            "--host-target nvptx64-nvidia-cuda is not a host CPU target (x86_64-linux-gnu, "
            "i386-linux-gnu, aarch64-linux-gnu, x86_64-pc-windows-msvc, x86_64-w64-windows-gnu)");
  EXPECT_NE(targetError(kNv64, "sparc-sun-solaris").find("--host-target sparc-sun-solaris: "),
            std::string::npos);
  EXPECT_NE(targetError(kNv64, "i386-linux-gnu").find("32-bit pointers"), std::string::npos);
  EXPECT_NE(targetError(kAmd, "i386-linux-gnu").find("32-bit pointers"), std::string::npos);
  EXPECT_NE(targetError("nvptx-nvidia-cuda", "x86_64-linux-gnu").find("64-bit pointers"),
            std::string::npos);
  EXPECT_NE(targetError(kNv64, "i686-pc-windows-msvc").find("--host-target i686-pc-windows-msvc"),
            std::string::npos);
}

TEST(Offload, CDataModelIgnoresTheHost) {
  Target nv = device(kNv64, "x86_64-pc-windows-msvc");
  DataModel c = dataModelFor(nv, Language::C);
  EXPECT_EQ(c.of(IntKind::Long).size, 8);
  EXPECT_EQ(c.wchar_type, IntKind::Int);
  EXPECT_EQ(macro(nv, Language::C, "_MSC_VER"), "<undefined>");
  EXPECT_EQ(macro(nv, Language::C, "__x86_64__"), "<undefined>");
}

TEST(Offload, CudaTakesTheHostsIntegers) {
  // MSVC: LLP64, wchar_t is unsigned short, the Microsoft dialect.
  DataModel w = dataModelFor(device(kNv64, "x86_64-pc-windows-msvc"), Language::CUDA);
  EXPECT_EQ(w.of(IntKind::Long).size, 4);
  EXPECT_EQ(w.wchar_type, IntKind::UShort);
  EXPECT_EQ(w.size_type, IntKind::ULongLong);
  EXPECT_TRUE(w.ms_extensions);
  EXPECT_EQ(w.record_rules, RecordRules::Itanium); // clang-14 does not take MSVC's layout
  EXPECT_EQ(w.of(FloatKind::LongDouble).size, 8);  // the device's
  EXPECT_EQ(w.biggest_alignment, 8);               // the device's
  // aarch64: unsigned char, zero-width bit-fields raise the alignment.
  DataModel a = dataModelFor(device(kNv64, "aarch64-linux-gnu"), Language::CUDA);
  EXPECT_FALSE(a.char_signed);
  EXPECT_TRUE(a.zero_length_bitfield_alignment);
  EXPECT_EQ(a.max_vector_align, 0); // not taken by CUDA
  // i386 with the 32-bit device: long long and double 4-aligned in records.
  DataModel i = dataModelFor(device("nvptx-nvidia-cuda"), Language::CUDA);
  EXPECT_EQ(i.of(IntKind::LongLong).align, 4);
  EXPECT_EQ(i.of(FloatKind::Double).align, 4);
  EXPECT_EQ(i.of(FloatKind::LongDouble).size, 8);
  EXPECT_EQ(i.of(IntKind::Int128).size, 16); // the device's own
}

TEST(Offload, HipTakesLongDoubleSizeAndAlignLimits) {
  DataModel x = dataModelFor(device(kAmd), Language::HIP);
  EXPECT_EQ(x.of(FloatKind::LongDouble).size, 16);
  EXPECT_EQ(x.of(FloatKind::LongDouble).align, 16);
  EXPECT_EQ(x.float_formats[size_t(FloatKind::LongDouble)], FloatFormat::IEEEDouble);
  EXPECT_EQ(x.of(FloatKind::Float128).size, 16);
  EXPECT_EQ(x.float_formats[size_t(FloatKind::Float128)], FloatFormat::IEEEDouble);
  EXPECT_EQ(x.biggest_alignment, 16);
  DataModel w = dataModelFor(device(kAmd, "x86_64-pc-windows-msvc"), Language::HIP);
  EXPECT_EQ(w.of(FloatKind::LongDouble).size, 8);
  EXPECT_FALSE(w.of(FloatKind::Float128).supported());
  DataModel a = dataModelFor(device(kAmd, "aarch64-linux-gnu"), Language::HIP);
  EXPECT_EQ(a.of(FloatKind::LongDouble).size, 16);
  EXPECT_FALSE(a.of(FloatKind::Float128).supported());
  EXPECT_EQ(a.max_vector_align, 16);
}

// Records, each measured with clang-14's device compilation for the host named.
TEST(Offload, RecordLayouts) {
  const char* kZeroWidth = "struct C { char a; int : 0; char b; };";
  Parsed x = parseFor(kZeroWidth, device(kNv64), Language::CUDA);
  EXPECT_EQ(x.sizeOf("struct C"), 5u);
  Parsed a = parseFor(kZeroWidth, device(kNv64, "aarch64-linux-gnu"), Language::CUDA);
  EXPECT_EQ(a.sizeOf("struct C"), 8u);
  EXPECT_EQ(a.alignOf("struct C"), 4u);

  const char* kLongLong = "struct E { char c; long long x; };";
  Parsed i = parseFor(kLongLong, device("nvptx-nvidia-cuda"), Language::CUDA);
  EXPECT_EQ(i.sizeOf("struct E"), 12u);
  EXPECT_EQ(i.offsetOf("struct E", "x"), 4u);

  const char* kLongDouble = "struct B { char c; long double d; };";
  EXPECT_EQ(parseFor(kLongDouble, device(kNv64), Language::CUDA).sizeOf("struct B"), 16u);
  Parsed h = parseFor(kLongDouble, device(kAmd), Language::HIP);
  EXPECT_EQ(h.sizeOf("struct B"), 32u);
  EXPECT_EQ(h.alignOf("struct B"), 16u);

  // wchar_t and long on an MSVC host; __int64 is a keyword there.
  Parsed w = parseFor("#include <stddef.h>\nstruct W { wchar_t c; long l; __int64 q; };",
                      device(kNv64, "x86_64-pc-windows-msvc"), Language::CUDA);
  EXPECT_EQ(w.offsetOf("struct W", "l"), 4u);
  EXPECT_EQ(w.sizeOf("struct W"), 16u);
  // max_align_t: double under _MSC_VER; the host's long double for HIP on x86-64.
  Parsed m = parseFor("#include <stddef.h>\nstruct M { char c; max_align_t m; };",
                      device(kNv64, "x86_64-pc-windows-msvc"), Language::CUDA);
  EXPECT_EQ(m.sizeOf("struct M"), 16u);
  Parsed hm = parseFor("#include <stddef.h>\nstruct M { char c; max_align_t m; };", device(kAmd),
                       Language::HIP);
  EXPECT_EQ(hm.sizeOf("struct M"), 48u);
}

TEST(Offload, HostMacros) {
  Target nv = device(kNv64);
  EXPECT_EQ(macro(nv, Language::CUDA, "__x86_64__"), "1");
  EXPECT_EQ(macro(nv, Language::CUDA, "__linux__"), "1");
  EXPECT_EQ(macro(nv, Language::CUDA, "__SSE2__"), "1");
  EXPECT_EQ(macro(nv, Language::CUDA, "__NVPTX__"), "1");
  EXPECT_EQ(macro(nv, Language::CUDA, "__CUDA_ARCH__"), "200");
  // Not the host driver's options, not GNU-mode names in clang-14's strict C++.
  EXPECT_EQ(macro(nv, Language::CUDA, "__PIC__"), "<undefined>");
  EXPECT_EQ(macro(nv, Language::CUDA, "__pie__"), "<undefined>");
  EXPECT_EQ(macro(nv, Language::CUDA, "linux"), "<undefined>");
  EXPECT_EQ(macro(nv, Language::CUDA, "__STRICT_ANSI__"), "1");
  // The data-model macros follow the adopted model.
  Target w = device(kNv64, "x86_64-pc-windows-msvc");
  EXPECT_EQ(macro(w, Language::CUDA, "__SIZEOF_LONG__"), "4");
  EXPECT_EQ(macro(w, Language::CUDA, "__WCHAR_TYPE__"), "unsigned short");
  EXPECT_EQ(macro(w, Language::CUDA, "_MSC_VER"), "1920");
  EXPECT_EQ(macro(w, Language::CUDA, "_WIN64"), "1");
  EXPECT_EQ(macro(w, Language::CUDA, "__GNUC__"), "<undefined>");
  Target h = device(kAmd);
  EXPECT_EQ(macro(h, Language::HIP, "__SIZEOF_LONG_DOUBLE__"), "16");
  EXPECT_EQ(macro(h, Language::HIP, "__LDBL_MANT_DIG__"), "53");
  EXPECT_EQ(macro(h, Language::HIP, "__BIGGEST_ALIGNMENT__"), "16");
  EXPECT_EQ(macro(h, Language::HIP, "__AMDGPU__"), "1");
}

// The C++ rules of CUDA/HIP sources that change layouts or what is accepted (clang-14 checked).
TEST(Offload, CxxRecords) {
  Parsed p = parseFor("struct E {};\nstruct Z { int : 0; };\nstruct A0 { char a[0]; };\n"
                      "struct H { char c; struct E e; char d; };\n"
                      "struct F { char f[]; };\nunion U { int a; char f[]; };",
                      device(kNv64), Language::CUDA);
  EXPECT_EQ(p.sizeOf("struct E"), 1u);  // an empty class
  EXPECT_EQ(p.sizeOf("struct Z"), 1u);  // zero-width bit-fields only: still empty
  EXPECT_EQ(p.sizeOf("struct A0"), 0u); // a member, so not empty
  EXPECT_EQ(p.sizeOf("struct H"), 3u);
  EXPECT_EQ(p.offsetOf("struct H", "d"), 2u);
  EXPECT_EQ(p.sizeOf("struct F"), 0u); // flexible arrays anywhere (GNU C++)
  EXPECT_EQ(p.sizeOf("union U"), 4u);
  // The Microsoft C++ layout (an MSVC host's own compilation of a .cu file): any record of
  // size 0 has size 1.
  Parsed m = parseFor("struct E {};\nstruct A0 { char a[0]; };", device("x86_64-pc-windows-msvc"),
                      Language::CUDA);
  EXPECT_EQ(m.sizeOf("struct E"), 1u);
  EXPECT_EQ(m.sizeOf("struct A0"), 1u);
}

TEST(Offload, CxxDialect) {
  auto error = [](std::string_view text) {
    try {
      parseFor(text, device(kNv64), Language::CUDA);
    } catch (const Error& e) {
      return e.format();
    }
    return std::string();
  };
  EXPECT_NE(error("enum E { A };\nstruct S { enum E : 3; };")
                .find("t.cu:2:19: error: ISO C++ only allows ':' in member enumeration "
                      "declaration to introduce a fixed underlying type"),
            std::string::npos);
  EXPECT_NE(error("struct S { _Bool b; };").find("unknown type name '_Bool'"), std::string::npos);
  // wchar_t, char16_t and char32_t are built in; <stddef.h> and <uchar.h> do not redefine them.
  Parsed w = parseFor("#include <stddef.h>\n#include <uchar.h>\n"
                      "struct W { bool b; wchar_t w; char16_t c; char32_t d; };",
                      device(kNv64, "x86_64-pc-windows-msvc"), Language::CUDA);
  EXPECT_EQ(w.offsetOf("struct W", "w"), 2u);
  EXPECT_EQ(w.offsetOf("struct W", "d"), 8u);
  // A device of an MSVC host has the Microsoft dialect but not its int enums.
  Parsed e = parseFor("enum __attribute__((packed)) P { A = -48 };\n"
                      "enum L { B = 1078827657663LL };\nstruct S { enum P p; enum L l; };",
                      device(kNv64, "x86_64-pc-windows-msvc"), Language::CUDA);
  EXPECT_EQ(e.offsetOf("struct S", "l"), 8u);
  EXPECT_EQ(e.sizeOf("struct S"), 16u);
}

} // namespace
