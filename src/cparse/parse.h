// Internal: the parser of the C declaration front-end (declarations, types, attributes and
// integer constant expressions), fed by the Preprocessor.
#pragma once

#include "abikit/cparse.h"
#include "preprocessor.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace abikit::detail {

/// Parser keywords (Ident::keyword).
enum Kw : uint16_t {
  kKwNone = 0,
  // storage classes and function specifiers
  kKwTypedef,
  kKwExtern,
  kKwStatic,
  kKwAuto,
  kKwRegister,
  kKwThreadLocal,
  kKwInline,
  kKwNoreturn,
  // qualifiers
  kKwConst,
  kKwVolatile,
  kKwRestrict,
  kKwAtomic,
  kKwNullability, // _Nonnull, _Nullable, _Null_unspecified (ignored)
  kKwAddrSpace,   // a target address-space qualifier (see Parser::as_keywords_)
  // type specifiers
  kKwVoid,
  kKwChar,
  kKwShort,
  kKwInt,
  kKwLong,
  kKwFloat,
  kKwDouble,
  kKwSigned,
  kKwUnsigned,
  kKwBool,
  kKwComplex,
  kKwImaginary,
  kKwInt128,
  kKwInt64, // Microsoft __int64 (__int8/16/32 are char/short/int)
  kKwBitInt,
  kKwFloat16,
  kKwFp16,
  kKwHalf,
  kKwBf16,
  kKwFloat128,
  kKwStruct,
  kKwUnion,
  kKwEnum,
  kKwTypeof,
  kKwTypeofUnqual,
  kKwAutoType,
  kKwAlignas,
  kKwAlignof,    // _Alignof: the ABI alignment
  kKwGnuAlignof, // __alignof__: GCC's preferred alignment
  kKwSizeof,
  kKwStaticAssert,
  kKwAttribute,
  kKwExtension,
  kKwAsm,
  kKwDeclspec,
  kKwCallConv, // __cdecl, __stdcall, ... (and _cdecl, ... in the Microsoft dialect)
  kKwOffsetof,
  kKwTypesCompatible,
  kKwChooseExpr,
  kKwConstantP,
  kKwVaArg,
  kKwGeneric,
  kKwTrue,
  kKwFalse,
  kKwRealImag,
  // OpenCL
  kKwKernel,
  kKwReadOnly,
  kKwWriteOnly,
  kKwReadWrite,
  kKwPipe,
  kKwCLType,      // image*_t, sampler_t, event_t, ... (Parser::cl_types_)
  kKwCxxCharType, // C++ (CUDA/HIP): wchar_t, char16_t, char32_t (Parser::cxx_char_types_)
  // C++ (CUDA/HIP sources)
  kKwCxxOnly, // class, template, namespace, ...: rejected
  kKwCount
};

/// An object type with the address space it lives in (the type model keeps address spaces on
/// pointers only; the parser tracks the pointee's).
struct QType {
  const Type* t = nullptr;
  uint32_t as = 0;
  bool has_as = false;
};

enum class AttrKind : uint8_t {
  Ignored, // known, no effect on layout or calling convention
  Packed,
  Aligned,
  VectorSize,
  ExtVectorType,
  Mode,
  AddressSpace,
  TransparentUnion,
  Kernel,          // amdgpu_kernel, nvptx_kernel, CUDA global
  Vertex,          // colossus_vertex
  OpenCLAddrSpace, // opencl_global, ... (arg = the spelling it stands for)
  MsStruct,        // ms_struct: the record takes the ms_struct layout
  GccStruct,       // gcc_struct: the record takes the generic layout despite -mms-bitfields
  Unsupported,     // known to change layout or ABI; not implemented
};

struct Attr {
  std::string_view name; // normalised (no leading/trailing __)
  Loc loc;
  AttrKind kind = AttrKind::Ignored;
  bool has_arg = false;
  uint64_t value = 0;     // integer argument
  Ident* ident = nullptr; // identifier argument (mode)
  uint32_t as = 0;        // OpenCLAddrSpace
  bool c2x = false;       // written [[...]]
};
using AttrList = std::vector<Attr>;

/// Answers __has_attribute for the preprocessor.
int hasAttribute(std::string_view scope, std::string_view name, bool c2x);

TranslationUnit runParser(TypeContext& ctx, const LayoutEngine& layout, std::string_view name,
                          std::string text, const ParseOptions& options);
/// The same on text followed by kLexPadding NULs that stays valid during the call (not copied).
TranslationUnit runParserBorrowed(TypeContext& ctx, const LayoutEngine& layout,
                                  std::string_view name, std::string_view padded,
                                  const ParseOptions& options);

} // namespace abikit::detail
