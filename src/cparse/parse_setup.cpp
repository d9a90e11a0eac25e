// The parser's set-up (keywords, OpenCL types, address-space qualifiers), tokens and scopes, and
// the translation unit.
#include "parser.h"

namespace abikit::detail {

namespace {

// ----- keywords -------------------------------------------------------------------------------

// kLangMs: the Microsoft dialect's keywords (DataModel::ms_extensions), in every language.
enum : uint8_t { kLangC = 1, kLangCL = 2, kLangCxx = 4, kLangAll = 7, kLangMs = 8 };

struct KwEntry {
  const char* spelling;
  Kw kw;
  uint8_t langs;
};

constexpr KwEntry kKeywords[] = {
    {"typedef", kKwTypedef, kLangAll},
    {"extern", kKwExtern, kLangAll},
    {"static", kKwStatic, kLangAll},
    {"auto", kKwAuto, kLangC | kLangCL},
    {"register", kKwRegister, kLangAll},
    {"_Thread_local", kKwThreadLocal, kLangAll},
    {"__thread", kKwThreadLocal, kLangAll},
    {"thread_local", kKwThreadLocal, kLangCxx},
    {"inline", kKwInline, kLangAll},
    {"__inline", kKwInline, kLangAll},
    {"__inline__", kKwInline, kLangAll},
    {"_Noreturn", kKwNoreturn, kLangAll},
    {"const", kKwConst, kLangAll},
    {"__const", kKwConst, kLangAll},
    {"__const__", kKwConst, kLangAll},
    {"volatile", kKwVolatile, kLangAll},
    {"__volatile", kKwVolatile, kLangAll},
    {"__volatile__", kKwVolatile, kLangAll},
    {"restrict", kKwRestrict, kLangC | kLangCL},
    {"__restrict", kKwRestrict, kLangAll},
    {"__restrict__", kKwRestrict, kLangAll},
    {"_Atomic", kKwAtomic, kLangAll},
    {"_Nonnull", kKwNullability, kLangAll},
    {"_Nullable", kKwNullability, kLangAll},
    {"_Nullable_result", kKwNullability, kLangAll},
    {"_Null_unspecified", kKwNullability, kLangAll},
    {"void", kKwVoid, kLangAll},
    {"char", kKwChar, kLangAll},
    {"short", kKwShort, kLangAll},
    {"int", kKwInt, kLangAll},
    {"long", kKwLong, kLangAll},
    {"float", kKwFloat, kLangAll},
    {"double", kKwDouble, kLangAll},
    {"signed", kKwSigned, kLangAll},
    {"__signed", kKwSigned, kLangAll},
    {"__signed__", kKwSigned, kLangAll},
    {"unsigned", kKwUnsigned, kLangAll},
    {"_Bool", kKwBool, kLangC | kLangCL}, // not C++ (CUDA, HIP): `bool` there
    {"bool", kKwBool, kLangCL | kLangCxx},
    {"_Complex", kKwComplex, kLangAll},
    {"__complex", kKwComplex, kLangAll},
    {"__complex__", kKwComplex, kLangAll},
    {"_Imaginary", kKwImaginary, kLangAll},
    {"__int128", kKwInt128, kLangAll},
    {"__int8", kKwChar, kLangMs},
    {"__int16", kKwShort, kLangMs},
    {"__int32", kKwInt, kLangMs},
    {"__int64", kKwInt64, kLangMs},
    {"_BitInt", kKwBitInt, kLangAll},
    {"_ExtInt", kKwBitInt, kLangAll},
    {"_Float16", kKwFloat16, kLangAll},
    {"__fp16", kKwFp16, kLangAll},
    {"half", kKwHalf, kLangCL},
    {"__bf16", kKwBf16, kLangAll},
    {"__float128", kKwFloat128, kLangAll},
    {"struct", kKwStruct, kLangAll},
    {"union", kKwUnion, kLangAll},
    {"enum", kKwEnum, kLangAll},
    {"typeof", kKwTypeof, kLangC | kLangCL},
    {"__typeof", kKwTypeof, kLangAll},
    {"__typeof__", kKwTypeof, kLangAll},
    {"decltype", kKwTypeof, kLangCxx},
    {"__auto_type", kKwAutoType, kLangAll},
    {"_Alignas", kKwAlignas, kLangAll},
    {"alignas", kKwAlignas, kLangCxx},
    {"_Alignof", kKwAlignof, kLangAll},
    {"alignof", kKwAlignof, kLangCxx},
    {"__alignof", kKwGnuAlignof, kLangAll},
    {"__alignof__", kKwGnuAlignof, kLangAll},
    {"sizeof", kKwSizeof, kLangAll},
    {"_Static_assert", kKwStaticAssert, kLangAll},
    {"static_assert", kKwStaticAssert, kLangCxx},
    {"wchar_t", kKwCxxCharType, kLangCxx},
    {"char16_t", kKwCxxCharType, kLangCxx},
    {"char32_t", kKwCxxCharType, kLangCxx},
    {"__attribute__", kKwAttribute, kLangAll},
    {"__attribute", kKwAttribute, kLangAll},
    {"__extension__", kKwExtension, kLangAll},
    {"asm", kKwAsm, kLangAll},
    {"__asm", kKwAsm, kLangAll},
    {"__asm__", kKwAsm, kLangAll},
    {"__declspec", kKwDeclspec, kLangAll},
    // clang's calling-convention keywords (every language; the one-underscore spellings in the
    // Microsoft dialect).
    {"__cdecl", kKwCallConv, kLangAll},
    {"__stdcall", kKwCallConv, kLangAll},
    {"__fastcall", kKwCallConv, kLangAll},
    {"__thiscall", kKwCallConv, kLangAll},
    {"__vectorcall", kKwCallConv, kLangAll},
    {"__regcall", kKwCallConv, kLangAll},
    {"_cdecl", kKwCallConv, kLangMs},
    {"_stdcall", kKwCallConv, kLangMs},
    {"_fastcall", kKwCallConv, kLangMs},
    {"_thiscall", kKwCallConv, kLangMs},
    {"_vectorcall", kKwCallConv, kLangMs},
    {"__builtin_offsetof", kKwOffsetof, kLangAll},
    {"__builtin_types_compatible_p", kKwTypesCompatible, kLangC | kLangCL},
    {"__builtin_choose_expr", kKwChooseExpr, kLangAll},
    {"__builtin_constant_p", kKwConstantP, kLangAll},
    {"__builtin_va_arg", kKwVaArg, kLangAll},
    {"_Generic", kKwGeneric, kLangAll},
    {"true", kKwTrue, kLangCL | kLangCxx},
    {"false", kKwFalse, kLangCL | kLangCxx},
    {"__real__", kKwRealImag, kLangAll},
    {"__imag__", kKwRealImag, kLangAll},
    {"__real", kKwRealImag, kLangAll},
    {"__imag", kKwRealImag, kLangAll},
    {"kernel", kKwKernel, kLangCL},
    {"__kernel", kKwKernel, kLangCL},
    {"read_only", kKwReadOnly, kLangCL},
    {"__read_only", kKwReadOnly, kLangCL},
    {"write_only", kKwWriteOnly, kLangCL},
    {"__write_only", kKwWriteOnly, kLangCL},
    {"read_write", kKwReadWrite, kLangCL},
    {"__read_write", kKwReadWrite, kLangCL},
    {"pipe", kKwPipe, kLangCL},
    {"class", kKwCxxOnly, kLangCxx},
    {"template", kKwCxxOnly, kLangCxx},
    {"typename", kKwCxxOnly, kLangCxx},
    {"namespace", kKwCxxOnly, kLangCxx},
    {"using", kKwCxxOnly, kLangCxx},
    {"operator", kKwCxxOnly, kLangCxx},
    {"virtual", kKwCxxOnly, kLangCxx},
    {"friend", kKwCxxOnly, kLangCxx},
    {"public", kKwCxxOnly, kLangCxx},
    {"private", kKwCxxOnly, kLangCxx},
    {"protected", kKwCxxOnly, kLangCxx},
    {"constexpr", kKwCxxOnly, kLangCxx},
    {"mutable", kKwCxxOnly, kLangCxx},
    {"explicit", kKwCxxOnly, kLangCxx},
};

struct CLTypeEntry {
  const char* spelling;
  OpenCLKind kind;
  uint8_t feature; // the OpenCLFeature the type needs (0: none)
};
constexpr CLTypeEntry kCLTypes[] = {
    {"image1d_t", OpenCLKind::Image1d, kClImages},
    {"image1d_array_t", OpenCLKind::Image1dArray, kClImages},
    {"image1d_buffer_t", OpenCLKind::Image1dBuffer, kClImages},
    {"image2d_t", OpenCLKind::Image2d, kClImages},
    {"image2d_array_t", OpenCLKind::Image2dArray, kClImages},
    {"image2d_depth_t", OpenCLKind::Image2dDepth, kClImages},
    {"image2d_array_depth_t", OpenCLKind::Image2dArrayDepth, kClImages},
    {"image2d_msaa_t", OpenCLKind::Image2dMsaa, kClImages},
    {"image2d_array_msaa_t", OpenCLKind::Image2dArrayMsaa, kClImages},
    {"image2d_msaa_depth_t", OpenCLKind::Image2dMsaaDepth, kClImages},
    {"image2d_array_msaa_depth_t", OpenCLKind::Image2dArrayMsaaDepth, kClImages},
    {"image3d_t", OpenCLKind::Image3d, kClImages},
    {"sampler_t", OpenCLKind::Sampler, 0},
    {"event_t", OpenCLKind::Event, 0},
    {"clk_event_t", OpenCLKind::ClkEvent, kClDeviceEnqueue},
    {"queue_t", OpenCLKind::Queue, kClDeviceEnqueue},
    {"reserve_id_t", OpenCLKind::ReserveId, kClPipes},
};

} // namespace

// ----- set-up and tokens ----------------------------------------------------------------------

std::string Parser::openclVersionText() const {
  uint16_t v = ctx_.languageMode().opencl_version;
  return "OpenCL C version " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10);
}

uint32_t Parser::addressSpaceKeyword(const Ident* id, const Loc& at, bool specifier) {
  if (specifier && std::find(no_generic_.begin(), no_generic_.end(), id) != no_generic_.end())
    fail(at, openclVersionText() + " does not support the '" + std::string(id->name) +
                 "' type qualifier");
  return as_keywords_[id];
}

Parser::Parser(TypeContext& ctx, const LayoutEngine& layout, Preprocessor& pp, IdentTable& ids)
    : ctx_(ctx), layout_(layout), pp_(pp), ids_(ids), lang_(ctx.language()) {
  uint8_t mask = lang_ == Language::OpenCL ? kLangCL : isCxx(lang_) ? kLangCxx : kLangC;
  if (ctx.data().ms_extensions) mask |= kLangMs;
  for (const KwEntry& k : kKeywords)
    if (k.langs & mask) ids_.get(k.spelling)->keyword = uint16_t(k.kw);
  id_struct_ = ids_.get("struct");
  id_union_ = ids_.get("union");
  // Address-space qualifiers from the target.
  for (const AddressSpaceInfo& a : ctx.target().address_spaces) {
    if (a.c_spelling.empty()) continue;
    Ident* id = ids_.getCopy(a.c_spelling);
    id->keyword = kKwAddrSpace;
    as_keywords_[id] = a.number;
  }
  if (lang_ == Language::OpenCL) {
    // OpenCL's qualifiers, with and without "__"; the number is the target's for that
    // spelling, else 0 (clang's default address-space map). Without the generic address space
    // (OpenCL C 1.x, 3.0 on some targets) `generic` is still a qualifier, refused where used.
    cl_features_ = openclFeatures(ctx.target(), ctx.languageMode());
    const bool generic = cl_features_ & kClGenericAddressSpace;
    for (const char* n : {"global", "local", "constant", "private", "generic"}) {
      std::string prefixed = std::string("__") + n;
      const uint32_t num = openclAddressSpace(ctx.target(), prefixed);

      for (const std::string& s : {std::string(n), prefixed}) {
        Ident* id = ids_.getCopy(s);
        id->keyword = kKwAddrSpace;
        as_keywords_[id] = num;
        if (prefixed == "__generic" && !generic) no_generic_.push_back(id);
      }
    }
    // A type of a feature the version lacks is no type name (clang: "unknown type name").
    for (const CLTypeEntry& e : kCLTypes) {
      if (e.feature && !(cl_features_ & e.feature)) continue;
      Ident* id = ids_.get(e.spelling);
      id->keyword = kKwCLType;
      cl_types_[id] = e.kind;
    }
  }
  const DataModel& d = ctx.data();
  // C++'s character types are keywords there, each the data model's underlying type.
  cxx_char_types_[ids_.get("wchar_t")] = d.wchar_type;
  cxx_char_types_[ids_.get("char16_t")] = d.char16_type;
  cxx_char_types_[ids_.get("char32_t")] = d.char32_type;
  size_type_ = ctx.intType(d.size_type);
  ptrdiff_type_ = ctx.intType(d.ptrdiff_type);
  int_ = ctx.intType(IntKind::Int);
  int_bits_ = unsigned(ctx.data().of(IntKind::Int).size) * 8;
}

void Parser::consumeSlow() {
  if (nla_) {
    tok_ = la_[0];
    for (unsigned i = 1; i < nla_; ++i) la_[i - 1] = la_[i];
    --nla_;
  }
  if (tok_.kind == Tok::Unknown) {
    if (tok_.flags & kTokUnterminated) {
      char q = '"';
      for (char c : tok_.text())
        if (c == '\'' || c == '"') {
          q = c;
          break;
        }
      fail(tok_.loc,
           q == '\'' ? "missing terminating ' character" : "missing terminating '\"' character");
    }
    std::string_view c = "?";
    if (tok_.len) c = tok_.ptr[0] == '\0' ? std::string_view("\\0") : std::string_view(tok_.ptr, 1);
    fail(tok_.loc, "unexpected character '" + std::string(c) + "'");
  }
}

const Token& Parser::peekTok(unsigned n) {
  while (nla_ <= n) {
    pp_.next(la_[nla_]);
    ++nla_;
  }
  return la_[n];
}

std::string Parser::tokenText(const Token& t) const {
  switch (t.kind) {
  case Tok::Eof:
    return "end of file";
  case Tok::Eod:
    return "end of line";
  default:
    return "'" + std::string(t.text()) + "'";
  }
}

void Parser::failUnknownTypeName() {
  std::string message = "unknown type name '" + std::string(tok_.ident->name) + "'";
  // A C++ keyword where C has none: say so rather than leave the user guessing.
  for (const KwEntry& k : kKeywords)
    if (k.kw == kKwCxxOnly && k.spelling == tok_.ident->name && !isCxx(lang_)) {
      message += " ('" + std::string(k.spelling) +
                 "' is C++, which abikit does not read: it reads C, OpenCL C, and the C "
                 "declarations of CUDA and HIP sources)";
      break;
    }
  fail(tok_.loc, message);
}

void Parser::failUnexpected(const char* expected) {
  fail(tok_.loc, std::string("expected ") + expected + ", found " + tokenText(tok_));
}

void Parser::expect(Tok k, const char* context) {
  if (tok_.kind == k) {
    consume();
    return;
  }
  std::string msg = "expected '" + std::string(punctuatorSpelling(k)) + "'";
  if (context && *context) msg += std::string(" ") + context;
  fail(tok_.loc, msg);
}

void Parser::popScope() {
  size_t mark = scope_marks_.back();
  scope_marks_.pop_back();
  while (undo_.size() > mark) {
    Undo& u = undo_.back();
    if (u.tag)
      u.id->tag = u.old;
    else
      u.id->ordinary = u.old;
    if (u.id->memo & kIdMemoBind) ++ids_.memo_epoch;
    undo_.pop_back();
  }
}

void Parser::bind(Ident* id, Symbol* s) {
  if (depth() > 0) undo_.push_back({id, false, id->ordinary});
  id->ordinary = s;
  if (id->memo & kIdMemoBind) ++ids_.memo_epoch;
}

void Parser::bindTag(Ident* id, TagSym* s) {
  if (depth() > 0) undo_.push_back({id, true, id->tag});
  id->tag = s;
  if (id->memo & kIdMemoBind) ++ids_.memo_epoch;
}

Symbol* Parser::newSymbol(Symbol::Kind k, const Loc& loc) {
  Symbol& s = symbols_.emplace_back();
  s.kind = k;
  s.depth = depth();
  s.loc = loc;
  return &s;
}

bool Parser::isTypeName(const Token& t) const {
  if (t.kind != Tok::Ident) return false;
  Symbol* s = lookup(t.ident);
  if (s) return s->kind == Symbol::Typedef;
  // C++ (CUDA/HIP): a tag name is also a type name.
  if (isCxx(lang_)) return lookupTag(t.ident) != nullptr;
  return false;
}

bool Parser::startsDeclSpec(const Token& t) const {
  if (t.kind != Tok::Ident) return t.kind == Tok::LBracket; // [[ attributes
  switch (t.ident->keyword) {
  case kKwTypedef:
  case kKwExtern:
  case kKwStatic:
  case kKwAuto:
  case kKwRegister:
  case kKwThreadLocal:
  case kKwInline:
  case kKwNoreturn:
  case kKwAttribute:
  case kKwExtension:
  case kKwAlignas:
  case kKwKernel:
  case kKwDeclspec:
  case kKwCallConv:
    return true;
  default:
    return startsTypeName(t);
  }
}

bool Parser::startsTypeName(const Token& t) const {
  if (t.kind != Tok::Ident) return false;
  switch (t.ident->keyword) {
  case kKwConst:
  case kKwVolatile:
  case kKwRestrict:
  case kKwAtomic:
  case kKwNullability:
  case kKwAddrSpace:
  case kKwVoid:
  case kKwChar:
  case kKwShort:
  case kKwInt:
  case kKwLong:
  case kKwFloat:
  case kKwDouble:
  case kKwInt64:
  case kKwSigned:
  case kKwUnsigned:
  case kKwBool:
  case kKwComplex:
  case kKwImaginary:
  case kKwInt128:
  case kKwBitInt:
  case kKwFloat16:
  case kKwFp16:
  case kKwHalf:
  case kKwBf16:
  case kKwFloat128:
  case kKwStruct:
  case kKwUnion:
  case kKwEnum:
  case kKwTypeof:
  case kKwTypeofUnqual:
  case kKwAutoType:
  case kKwReadOnly:
  case kKwWriteOnly:
  case kKwReadWrite:
  case kKwPipe:
  case kKwCLType:
  case kKwCxxCharType:
  case kKwAttribute:
  case kKwCallConv:
  case kKwExtension:
  case kKwAlignas:
    return true;
  case kKwNone:
    return isTypeName(t);
  default:
    return false;
  }
}

// ----- the translation unit -------------------------------------------------------------------

// Type names read after the main file, in its scope, from a text of their own in which no
// directive is recognised: the type names are parsed as such, never spliced into the file.
void Parser::parseTypeList(const ParseOptions::TypeList& list) {
  pp_.enterTextAfterEnd("<" + list.origin + ">", list.text);
  fast_paths = false;
  consume();
  for (;;) {
    Loc at = tok_.loc;
    if (tok_.kind == Tok::Ident && !tok_.ident->keyword && !startsTypeName(tok_))
      fail(at, "unknown type name '" + std::string(tok_.text()) + "'");
    if (tok_.kind == Tok::Eof || !startsTypeName(tok_)) failUnexpected("a type name");
    tu_.type_list.push_back(parseTypeName(at).t);
    if (tok_.kind == Tok::Eof) break;
    if (tok_.kind != Tok::Comma) failUnexpected("',' or the end of the type list");
    consume();
  }
}

TranslationUnit Parser::run() {
  try {
    consume();
    while (tok_.kind != Tok::Eof) parseExternalDeclaration();
    for (const auto& [t, loc] : tentative_) {
      const Type* c = stripTypedefs(t);
      bool incomplete =
          (c->kind == TypeKind::Record && !static_cast<const RecordType*>(c)->decl->complete) ||
          (c->kind == TypeKind::Enum && !static_cast<const EnumType*>(c)->decl->complete);
      if (incomplete)
        fail(loc, "tentative definition has type '" + typeStr(t) + "' that is never completed");
    }
    if (type_list && *type_list) parseTypeList(**type_list);
  } catch (const Error& e) {
    // A layout question without a position (e.g. a type the target cannot lay out): report it
    // where the parser is.
    if (e.hasSourcePosition()) throw;
    fail(tok_.loc, e.message(), e.kind() == ErrorKind::Unsupported);
  }
  return std::move(tu_);
}

namespace {

// The main file is entered by `enter(pp)`: an owned string or a borrowed padded text.
template <class Enter>
TranslationUnit parseWith(TypeContext& ctx, const LayoutEngine& layout, const ParseOptions& options,
                          size_t bytes, Enter enter) {
  IdentTable idents;
  idents.reserveForText(bytes);
  StringArena arena;
  PpQueries q;
  // gcc_struct is an attribute from clang 22 (earlier clangs answer 0 and ignore it).
  const bool gcc_struct = compilerInfo(ctx.target().compiler).gcc_struct_attribute;
  q.has_attribute = [gcc_struct](std::string_view scope, std::string_view n, bool c2x) {
    if (!gcc_struct && normaliseAttrName(n) == "gcc_struct") return 0;
    return hasAttribute(scope, n, c2x);
  };
  Preprocessor pp(ctx, options, idents, arena, std::move(q));
  try {
    enter(pp);
    Parser parser(ctx, layout, pp, idents);
    parser.fast_paths = options.fast_paths;
    parser.text_bytes = bytes;
    parser.type_list = &options.type_list;
    return parser.run();
  } catch (const SourceError& e) {
    throw Error::atSource(e.unsupported ? ErrorKind::Unsupported : ErrorKind::Input, e.message,
                          std::string(ctx.fileName(e.loc.file)), e.loc.line, e.loc.col,
                          pp.sourceLine(e.loc));
  }
}

} // namespace

TranslationUnit runParser(TypeContext& ctx, const LayoutEngine& layout, std::string_view name,
                          std::string text, const ParseOptions& options) {
  return parseWith(ctx, layout, options, text.size(),
                   [&](Preprocessor& pp) { pp.enterMainFile(std::string(name), std::move(text)); });
}

TranslationUnit runParserBorrowed(TypeContext& ctx, const LayoutEngine& layout,
                                  std::string_view name, std::string_view padded,
                                  const ParseOptions& options) {
  return parseWith(ctx, layout, options, padded.size(),
                   [&](Preprocessor& pp) { pp.enterMainFileBorrowed(std::string(name), padded); });
}

} // namespace abikit::detail
