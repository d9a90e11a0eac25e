// The x86 intrinsic headers (<mmintrin.h> ... <immintrin.h>, <x86intrin.h>) as data: the vector
// and mask types clang's own headers define (clang-14's lib/clang/14.0.6/include, unchanged in
// clang 19 and 22), so that records holding __m128 or __m256i lay out. The intrinsic functions
// are not declared: abikit answers layouts, and a header that calls one in a constant
// expression gets an error naming it. docs/targets/x86.md.
#include "family.h"

namespace abikit::detail {

namespace {

constexpr const char kMmintrin[] = R"(#ifndef __MMINTRIN_H
#define __MMINTRIN_H
typedef long long __m64 __attribute__((__vector_size__(8), __aligned__(8)));
typedef long long __v1di __attribute__((__vector_size__(8)));
typedef int __v2si __attribute__((__vector_size__(8)));
typedef short __v4hi __attribute__((__vector_size__(8)));
typedef char __v8qi __attribute__((__vector_size__(8)));
#endif
)";

constexpr const char kXmmintrin[] = R"(#ifndef __XMMINTRIN_H
#define __XMMINTRIN_H
#include <mmintrin.h>
typedef int __v4si __attribute__((__vector_size__(16)));
typedef float __v4sf __attribute__((__vector_size__(16)));
typedef float __m128 __attribute__((__vector_size__(16), __aligned__(16)));
typedef float __m128_u __attribute__((__vector_size__(16), __aligned__(1)));
typedef unsigned int __v4su __attribute__((__vector_size__(16)));
#endif
)";

constexpr const char kEmmintrin[] = R"(#ifndef __EMMINTRIN_H
#define __EMMINTRIN_H
#include <xmmintrin.h>
typedef double __m128d __attribute__((__vector_size__(16), __aligned__(16)));
typedef long long __m128i __attribute__((__vector_size__(16), __aligned__(16)));
typedef double __m128d_u __attribute__((__vector_size__(16), __aligned__(1)));
typedef long long __m128i_u __attribute__((__vector_size__(16), __aligned__(1)));
typedef double __v2df __attribute__((__vector_size__(16)));
typedef long long __v2di __attribute__((__vector_size__(16)));
typedef short __v8hi __attribute__((__vector_size__(16)));
typedef char __v16qi __attribute__((__vector_size__(16)));
typedef unsigned long long __v2du __attribute__((__vector_size__(16)));
typedef unsigned short __v8hu __attribute__((__vector_size__(16)));
typedef unsigned char __v16qu __attribute__((__vector_size__(16)));
typedef signed char __v16qs __attribute__((__vector_size__(16)));
#endif
)";

// SSE3 to SSE4.2 and AES add functions only.
constexpr const char kPmmintrin[] = "#include <emmintrin.h>\n";
constexpr const char kTmmintrin[] = "#include <pmmintrin.h>\n";
constexpr const char kSmmintrin[] = "#include <tmmintrin.h>\n";
constexpr const char kNmmintrin[] = "#include <smmintrin.h>\n";
constexpr const char kWmmintrin[] = "#include <emmintrin.h>\n";

constexpr const char kImmintrin[] = R"(#ifndef __IMMINTRIN_H
#define __IMMINTRIN_H
#include <nmmintrin.h>
#include <wmmintrin.h>
typedef double __v4df __attribute__((__vector_size__(32)));
typedef float __v8sf __attribute__((__vector_size__(32)));
typedef long long __v4di __attribute__((__vector_size__(32)));
typedef int __v8si __attribute__((__vector_size__(32)));
typedef short __v16hi __attribute__((__vector_size__(32)));
typedef char __v32qi __attribute__((__vector_size__(32)));
typedef unsigned long long __v4du __attribute__((__vector_size__(32)));
typedef unsigned int __v8su __attribute__((__vector_size__(32)));
typedef unsigned short __v16hu __attribute__((__vector_size__(32)));
typedef unsigned char __v32qu __attribute__((__vector_size__(32)));
typedef signed char __v32qs __attribute__((__vector_size__(32)));
typedef float __m256 __attribute__((__vector_size__(32), __aligned__(32)));
typedef double __m256d __attribute__((__vector_size__(32), __aligned__(32)));
typedef long long __m256i __attribute__((__vector_size__(32), __aligned__(32)));
typedef float __m256_u __attribute__((__vector_size__(32), __aligned__(1)));
typedef double __m256d_u __attribute__((__vector_size__(32), __aligned__(1)));
typedef long long __m256i_u __attribute__((__vector_size__(32), __aligned__(1)));
typedef char __v64qi __attribute__((__vector_size__(64)));
typedef short __v32hi __attribute__((__vector_size__(64)));
typedef double __v8df __attribute__((__vector_size__(64)));
typedef float __v16sf __attribute__((__vector_size__(64)));
typedef long long __v8di __attribute__((__vector_size__(64)));
typedef int __v16si __attribute__((__vector_size__(64)));
typedef unsigned char __v64qu __attribute__((__vector_size__(64)));
typedef unsigned short __v32hu __attribute__((__vector_size__(64)));
typedef unsigned long long __v8du __attribute__((__vector_size__(64)));
typedef unsigned int __v16su __attribute__((__vector_size__(64)));
typedef signed char __v64qs __attribute__((__vector_size__(64)));
typedef float __m512 __attribute__((__vector_size__(64), __aligned__(64)));
typedef double __m512d __attribute__((__vector_size__(64), __aligned__(64)));
typedef long long __m512i __attribute__((__vector_size__(64), __aligned__(64)));
typedef float __m512_u __attribute__((__vector_size__(64), __aligned__(1)));
typedef double __m512d_u __attribute__((__vector_size__(64), __aligned__(1)));
typedef long long __m512i_u __attribute__((__vector_size__(64), __aligned__(1)));
typedef unsigned char __mmask8;
typedef unsigned short __mmask16;
typedef unsigned int __mmask32;
typedef unsigned long long __mmask64;
#endif
)";

constexpr const char kX86intrin[] = "#include <immintrin.h>\n";

constexpr BuiltinHeader kHeaders[] = {
    {"mmintrin.h", kMmintrin},   {"xmmintrin.h", kXmmintrin}, {"emmintrin.h", kEmmintrin},
    {"pmmintrin.h", kPmmintrin}, {"tmmintrin.h", kTmmintrin}, {"smmintrin.h", kSmmintrin},
    {"nmmintrin.h", kNmmintrin}, {"wmmintrin.h", kWmmintrin}, {"immintrin.h", kImmintrin},
    {"x86intrin.h", kX86intrin},
};

} // namespace

std::span<const BuiltinHeader> x86IntrinsicHeaders() {
  return kHeaders;
}

} // namespace abikit::detail
