// The parser of the C declaration front-end: declarations (typedef, struct/union/enum,
// bit-fields, arrays, pointers, functions, attributes, qualifiers, address spaces), types built
// in the TypeContext, and integer constant expressions evaluated with the layout engine. This
// header holds the class and the declarations in progress; its parts are parse_*.cpp, one per
// kind of construct (parse_fast.cpp is the only code that reads raw bytes).
#pragma once

#include "abikit/diag.h"
#include "abikit/layout.h"
#include "int_arith.h"
#include "parse.h"

#include <algorithm>
#include <array>
#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <type_traits>
#include <utility>

namespace abikit::detail {

// How deeply the parser's recursive descents may nest, all kinds together (records,
// declarators, parameter lists, type names, expressions, linkage blocks): see NestGuard.
constexpr unsigned kMaxNesting = 256;
// How deeply types may nest (arrays, pointers, typedefs, records, functions): everything that
// walks a type recursively (layout, spelling, comparison) stays far from the stack's end.
constexpr uint32_t kMaxTypeDepth = 400;

// ----- attributes (the table: parse_attributes.cpp) ---------------------------------------

enum class ArgStyle : uint8_t { None, Skip, Int, OptInt, Ident };

struct AttrEntry {
  const char* name;
  AttrKind kind;
  ArgStyle args;
};

const AttrEntry* findAttribute(std::string_view name);
std::string_view normaliseAttrName(std::string_view n);

// ----- small helpers --------------------------------------------------------------------------

inline int intRank(IntKind k) {
  switch (k) {
  case IntKind::Bool:
    return 0;
  case IntKind::Char:
  case IntKind::SChar:
  case IntKind::UChar:
    return 1;
  case IntKind::Short:
  case IntKind::UShort:
    return 2;
  case IntKind::Int:
  case IntKind::UInt:
    return 3;
  case IntKind::Long:
  case IntKind::ULong:
    return 4;
  case IntKind::LongLong:
  case IntKind::ULongLong:
    return 5;
  case IntKind::Int128:
  case IntKind::UInt128:
    return 6;
  }
  return 3;
}

/// A small vector with inline storage for trivially copyable elements (no initialisation of
/// the inline slots, so that an empty one costs nothing).
template <class T, size_t N> class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  SmallVec() = default;
  SmallVec(const SmallVec&) = delete;
  SmallVec& operator=(const SmallVec&) = delete;
  void push_back(const T& v) {
    if (size_ < N) {
      std::memcpy(static_cast<void*>(&inline_[size_ * sizeof(T)]), &v, sizeof(T));
      ++size_;
      return;
    }
    if (size_ == N) heap_.assign(data(), data() + N);
    heap_.push_back(v);
    ++size_;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return size_ <= N ? std::launder(reinterpret_cast<T*>(inline_)) : heap_.data(); }
  const T* data() const {
    return size_ <= N ? std::launder(reinterpret_cast<const T*>(inline_)) : heap_.data();
  }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return (*this)[size_ - 1]; }
  void reverse(size_t from) { std::reverse(data() + from, data() + size_); }

private:
  alignas(T) unsigned char inline_[N * sizeof(T)];
  std::vector<T> heap_;
  size_t size_ = 0;
};

// ----- declarations in progress ---------------------------------------------------------------

struct Symbol {
  enum Kind : uint8_t { Typedef, Var, Func, EnumConst, Param } kind;
  unsigned depth = 0;
  QType type;
  TypedefDecl* td = nullptr;
  FunctionDecl* fd = nullptr;
  __int128 value = 0;
  Loc loc;
};

struct TagSym {
  enum Kind : uint8_t { Struct, Union, Enum } kind;
  unsigned depth = 0;
  RecordDecl* rd = nullptr;
  EnumDecl* ed = nullptr;
  const Type* type = nullptr; // the RecordType or EnumType
  // A record's: the pointer to it (address space 0), once a member `struct TAG *NAME;` has made
  // it, so that the next one needs nothing from the record itself (see fastMembers()).
  const Type* pointer = nullptr;
  Loc loc;
};

struct Chunk {
  enum Kind : uint8_t { Pointer, Array, Function } kind = Pointer;
  uint8_t quals = 0;
  bool atomic = false; // `* _Atomic`
  Loc atomic_loc;
  bool has_as = false;
  uint32_t as = 0;
  bool incomplete = false; // []
  bool vla = false;        // [n] with n not constant (parameters only)
  uint64_t count = 0;
  FunctionType* fn = nullptr;
  Loc loc;
  Loc size_loc;
  bool type_attrs = false; // pointer-level attributes applied (see pointer_attrs)
  uint32_t attr_index = 0; // index of this chunk's attributes in Declarator::chunk_attrs
  uint32_t attr_count = 0;
};

struct Declarator {
  Ident* name = nullptr;
  Loc name_loc;
  Loc loc;
  SmallVec<Chunk, 4> chunks;     // in the order they apply to the base type
  AttrList attrs;                // after the name / parameter list
  AttrList chunk_attrs;          // attributes written inside pointer declarators
  std::vector<Ident*> knr_names; // identifier-list parameters
  bool has_knr = false;
};

// Type specifiers as a set of bits (the model is LuaJIT's lj_cparse.c): each type-specifier
// keyword adds its bit through one table, kTypeSpecs, which also names the bits it cannot join;
// finishDeclSpec() maps a whole set to its type once. The general loop (parseDeclSpecRest()) and
// the member fast paths (parseMember(), fastMembers()) add keywords through the same SpecSet,
// and a set of basic bits with its qualifiers indexes the fast path's cache of member types.
enum TypeSpecBit : uint32_t {
  // The basic ones (what a member's fast paths read; SpecSet::basicKey()):
  kSpecVoid = 1u << 0,
  kSpecChar = 1u << 1,
  kSpecInt = 1u << 2,
  kSpecFloat = 1u << 3,
  kSpecDouble = 1u << 4,
  kSpecBool = 1u << 5,
  kSpecShort = 1u << 6,
  kSpecLong = 1u << 7,
  kSpecLongLong = 1u << 8, // a second `long` (kSpecLong stays)
  kSpecSigned = 1u << 9,
  kSpecUnsigned = 1u << 10,
  // The others:
  kSpecInt128 = 1u << 11,
  kSpecBitInt = 1u << 12, // the width in DeclSpec::bitint_bits
  kSpecFloat16 = 1u << 13,
  kSpecFp16 = 1u << 14, // __fp16, OpenCL half
  kSpecBf16 = 1u << 15,
  kSpecFloat128 = 1u << 16,
  kSpecComplex = 1u << 17,
  kSpecNamed = 1u << 18, // a record, enum, typedef, typeof or OpenCL type: DeclSpec::named
};
constexpr uint32_t kSpecBasicBits = 11;
constexpr uint32_t kSpecBasic = (1u << kSpecBasicBits) - 1;
constexpr uint32_t kSpecAll = (1u << 19) - 1;
// The bits that name the base type: at most one of them.
constexpr uint32_t kSpecBase = kSpecVoid | kSpecChar | kSpecInt | kSpecFloat | kSpecDouble |
                               kSpecBool | kSpecInt128 | kSpecBitInt | kSpecFloat16 | kSpecFp16 |
                               kSpecBf16 | kSpecFloat128 | kSpecNamed;
// Make a set integer-like: with any of them, only an integer base (or none) is valid.
constexpr uint32_t kSpecIntLike = kSpecShort | kSpecLong | kSpecSigned | kSpecUnsigned;

// What a keyword among the declaration specifiers adds (all zero: neither a type specifier nor
// a qualifier).
struct TypeSpecKeyword {
  uint32_t bit = 0;      // its type-specifier bit
  uint32_t excludes = 0; // the bits it cannot join (the general loop reports the conflict)
  uint32_t again = 0;    // the bit it adds when its own is already there (`long long`)
  uint8_t qual = 0;      // a qualifier: its kQual* bit
};
inline constexpr std::array<TypeSpecKeyword, kKwCount> kTypeSpecs = [] {
  std::array<TypeSpecKeyword, kKwCount> t{};
  for (auto [kw, bit] : {std::pair{kKwVoid, kSpecVoid},
                         {kKwChar, kSpecChar},
                         {kKwInt, kSpecInt},
                         {kKwFloat, kSpecFloat},
                         {kKwDouble, kSpecDouble},
                         {kKwBool, kSpecBool},
                         {kKwInt128, kSpecInt128},
                         {kKwBitInt, kSpecBitInt},
                         {kKwFloat16, kSpecFloat16},
                         {kKwFp16, kSpecFp16},
                         {kKwHalf, kSpecFp16},
                         {kKwBf16, kSpecBf16},
                         {kKwFloat128, kSpecFloat128}})
    t[kw] = {bit, kSpecBase};
  t[kKwShort] = {kSpecShort, kSpecShort | kSpecLong};
  // __int64 is `long long` (it may join `int`, `signed`, `unsigned`).
  t[kKwInt64] = {kSpecLong | kSpecLongLong, kSpecShort | kSpecLong | (kSpecBase & ~kSpecInt)};
  t[kKwLong] = {kSpecLong, kSpecShort | kSpecLongLong, kSpecLongLong};
  t[kKwSigned] = {kSpecSigned, kSpecSigned | kSpecUnsigned};
  t[kKwUnsigned] = {kSpecUnsigned, kSpecSigned | kSpecUnsigned};
  t[kKwComplex] = {kSpecComplex, kSpecComplex};
  // A named type joins no other type specifier.
  for (Kw kw :
       {kKwStruct, kKwUnion, kKwEnum, kKwTypeof, kKwTypeofUnqual, kKwCLType, kKwCxxCharType})
    t[kw] = {kSpecNamed, kSpecAll};
  t[kKwConst].qual = kQualConst;
  t[kKwVolatile].qual = kQualVolatile;
  t[kKwRestrict].qual = kQualRestrict;
  return t;
}();

// The type specifiers and qualifiers of one declaration as they are read.
struct SpecSet {
  uint32_t bits = 0;
  uint8_t quals = 0;

  bool any() const { return bits != 0; }
  // Adds type-specifier keyword `kw`; false, changing nothing, when it cannot join the ones
  // before.
  bool add(unsigned kw) {
    const TypeSpecKeyword& s = kTypeSpecs[kw];
    if (bits & s.excludes) return false;
    bits |= bits & s.bit ? s.again : s.bit;
    return true;
  }
  enum Step : uint8_t { Qualifier, TypeSpecifier, Other };
  // The member fast paths: a basic type keyword, const or volatile; Other, changing nothing, for
  // any other keyword or one that cannot join those before (the general loop then reads on
  // from the same state and reports the conflict).
  Step addBasic(unsigned kw) {
    const TypeSpecKeyword& s = kTypeSpecs[kw];
    if (s.qual & (kQualConst | kQualVolatile)) {
      quals |= s.qual;
      return Qualifier;
    }
    return s.bit & kSpecBasic && add(kw) ? TypeSpecifier : Other;
  }
  // An index into Parser::basic_types_ for a set of basic bits with const/volatile.
  uint32_t basicKey() const { return bits | uint32_t(quals) << kSpecBasicBits; }
};
constexpr uint32_t kBasicKeys = 1u << (kSpecBasicBits + 2);

struct DeclSpec {
  Loc loc;
  Kw storage = kKwNone;
  Loc storage_loc;
  bool thread_local_ = false;
  bool inline_ = false;
  bool noreturn = false;
  bool has_as = false;
  uint32_t as = 0;
  SpecSet spec;        // type specifiers and qualifiers
  bool atomic = false; // the _Atomic qualifier (not _Atomic(T), a named type)
  Loc atomic_loc;
  unsigned bitint_bits = 0;
  QType named;      // kSpecNamed
  bool any = false; // any specifier or qualifier seen
  Loc type_loc;     // of the first type specifier
  bool is_typedef_name = false;
  // _Alignas
  uint64_t alignas_ = 0;
  bool has_alignas = false;
  Loc alignas_loc;
  AttrList attrs;
  // tag declared or defined by these specifiers
  bool tag_decl = false;    // struct/union/enum specifier present
  bool tag_defined = false; // with a body
  bool tag_forward = false; // `struct S` with no body (for `struct S;`)
  RecordDecl* record = nullptr;
  EnumDecl* enum_ = nullptr;
  // OpenCL
  bool kernel = false;
  AccessQual access = AccessQual::None;
  Loc access_loc;
  bool pipe = false;
  bool cxx_extern_c = false;

  bool anyType() const { return spec.any(); }
  // The named type (kSpecNamed) of a typedef name, tag or typeof as the first type specifier.
  void setNamed(const QType& t, const Loc& at) {
    spec.bits |= kSpecNamed;
    named = t;
    type_loc = at;
    any = true;
  }
};

enum class DeclContext : uint8_t { File, Member, Param, TypeName };

// A value of a constant expression.
struct Value {
  enum Kind : uint8_t { Int, Float, Ptr, LValue, Unknown } kind = Unknown;
  const Type* type = nullptr; // canonical-ish C type (may carry typedef sugar)
  unsigned __int128 bits = 0; // integer value (two's complement, truncated) or address
  long double f = 0;
  bool known = false;  // value (or address) known at compile time
  bool folded = false; // needed a GNU folding extension (address arithmetic)
  bool is_bitfield = false;
  bool is_string = false;
};

// `v` rounded to the precision of the floating type `t` (values are computed in long double).
inline long double roundTo(long double v, const Type* t, const DataModel& d) {
  auto* ft = dyn<FloatType>(stripTypedefs(t));
  if (!ft) return v;
  FloatFormat f = d.float_formats[size_t(ft->fkind)];
  if (f == FloatFormat::IEEESingle) return (long double)(float)v;
  if (f == FloatFormat::IEEEDouble) return (long double)(double)v;
  return v;
}

// ----- the parser -----------------------------------------------------------------------------

class Parser {
public:
  Parser(TypeContext& ctx, const LayoutEngine& layout, Preprocessor& pp, IdentTable& ids);
  TranslationUnit run();
  void parseTypeList(const ParseOptions::TypeList& list);
  bool fast_paths = true; // see ParseOptions::fast_paths
  size_t text_bytes = 0;  // the main file's size (sizes the member memo)
  const std::optional<ParseOptions::TypeList>* type_list = nullptr; // see ParseOptions::type_list

private:
  // tokens
  // The common case inline: no lookahead queued, and a token that is not a stray character.
  void consume() {
    prev_.loc = tok_.loc;
    prev_.len = tok_.len;
    prev_.kind = tok_.kind;
    if (!nla_) {
      pp_.next(tok_);
      if (tok_.kind != Tok::Unknown) return;
    }
    consumeSlow();
  }
  void consumeSlow(); // takes the lookahead token; reports stray characters
  const Token& peekTok(unsigned n);
  bool isKw(const Token& t, Kw k) const { return t.kind == Tok::Ident && t.ident->keyword == k; }
  bool isKw(Kw k) const { return isKw(tok_, k); }
  bool tryConsume(Tok k) {
    if (tok_.kind != k) return false;
    consume();
    return true;
  }
  void expect(Tok k, const char* context);
  [[noreturn]] void fail(const Loc& loc, std::string msg, bool unsupported = false) const {
    throw SourceError{loc, std::move(msg), unsupported};
  }
  [[noreturn]] void failUnexpected(const char* expected);
  // "unknown type name" for the identifier at tok_ (with a word on C++ keywords).
  [[noreturn]] void failUnknownTypeName();
  std::string tokenText(const Token& t) const;
  SourceLoc srcLoc(const Loc& l) const { return SourceLoc{l.file, l.line, l.col}; }
  std::string_view intern(Ident* id) {
    if (id->interned.empty()) id->interned = ctx_.intern(id->name);
    return id->interned;
  }
  std::string typeStr(const Type* t) const { return typeName(t, ctx_); }
  bool builtinLoc(const Loc& l) const { return pp_.isBuiltin(l); }

  // scopes
  void pushScope() { scope_marks_.push_back(undo_.size()); }
  void popScope();
  Symbol* lookup(Ident* id) const { return static_cast<Symbol*>(id->ordinary); }
  TagSym* lookupTag(Ident* id) const { return static_cast<TagSym*>(id->tag); }
  void bind(Ident* id, Symbol* s);
  void bindTag(Ident* id, TagSym* s);
  unsigned depth() const { return unsigned(scope_marks_.size()); }
  Symbol* newSymbol(Symbol::Kind k, const Loc& loc);
  bool isTypeName(const Token& t) const;
  bool startsTypeName(const Token& t) const;
  bool startsDeclSpec(const Token& t) const;

  // attributes
  bool atAttribute() const;
  // Most places have no attribute: the check inline, the parsing out of line.
  void parseAttributes(AttrList& out) {
    if ((tok_.kind == Tok::Ident &&
         (tok_.ident->keyword == kKwAttribute || tok_.ident->keyword == kKwDeclspec ||
          tok_.ident->keyword == kKwCallConv)) ||
        tok_.kind == Tok::LBracket)
      parseAttributesSlow(out);
  }
  void parseAttributesSlow(AttrList& out);
  void parseGnuAttribute(AttrList& out);
  void parseC2xAttribute(AttrList& out);
  void parseAttributeArgs(Attr& a, ArgStyle style);
  void skipBalanced(Tok open, Tok close);
  void checkUnsupported(const Attr& a) const;
  void checkGccStruct(Attr& a) const;
  void parseDeclspec(AttrList& out);
  void parseCallConvKeyword();
  QType applyTypeAttr(const Attr& a, QType t, bool is_typedef);
  QType applyMode(const Attr& a, QType t);
  uint64_t attrAlignment(const Attr& a) const;

  // declaration specifiers
  void parseDeclSpec(DeclSpec& ds, DeclContext dc);
  void parseDeclSpecRest(DeclSpec& ds, DeclContext dc); // the loop of parseDeclSpec()
  [[noreturn]] void failSpecConflict(const DeclSpec& ds, const Token& t);
  // Adds type-specifier keyword `t` (kTypeSpecs) or reports the conflict.
  void addTypeSpec(DeclSpec& ds, const Token& t);
  QType finishDeclSpec(DeclSpec& ds, DeclContext dc);
  // A typedef or tag name with no other specifier: finishDeclSpec() returns ds.named.
  static bool namedAlone(const DeclSpec& ds) {
    return ds.spec.bits == kSpecNamed && !ds.pipe && ds.access == AccessQual::None &&
           !ds.spec.quals && !ds.atomic && !ds.has_as && ds.attrs.empty() &&
           !dyn<OpenCLType>(ds.named.t);
  }
  void parseTagSpecifier(DeclSpec& ds, DeclContext dc);
  void parseAtomicSpecifier(DeclSpec& ds); // _Atomic(type-name)
  // _Atomic applied to `t` (the specifier or the qualifier at `at`), as C11 6.7.2.4 allows it.
  const Type* atomicOf(const Type* t, const Loc& at, bool specifier = false);
  // A new tag of kind `want` named `name` (null: anonymous), declared at `name_loc` in the
  // current scope.
  TagSym* newTag(TagSym::Kind want, Ident* name, const Loc& name_loc);
  // A new struct or union and its tag (which holds both the record and its type).
  TagSym* newRecord(Kw kw, Ident* name, const Loc& name_loc);
  void applyRecordAttrs(RecordDecl* rd, Kw kw, const AttrList& list, bool allow);
  // What a struct, union or enum specifier at `kw_loc` sets in its DeclSpec before the tag is
  // read, and what a struct or union sets once its tag `ts` is known (`body`: it is defined).
  static void startTagSpec(DeclSpec& ds, const Loc& kw_loc);
  static void endRecordSpec(DeclSpec& ds, const TagSym* ts, bool body);
  // The definition of `rd` from its '{' (tok_): the body, the attributes after it, the checks.
  void defineRecord(RecordDecl* rd, Kw kw, const Loc& kw_loc);
  bool fastRecordDefinition();
  enum class NextHead { None, Token, Record };
  NextHead fastNextRecordHead(Kw& kw, Loc& kw_loc, Ident*& name, Loc& name_loc);
  void parseRecordBody(RecordDecl* rd, const Loc& open);
  bool fastTagHead(Ident*& name, Loc& name_loc, bool new_tag); // for the general path
  [[gnu::always_inline]] inline bool fastTagHeadInline(Ident*& name, Loc& name_loc, bool new_tag);
  bool fastTypedefTag();
  // The byte-level paths' shared steps: the lexer they may read from (the preprocessor's own,
  // with no lookahead pending; null otherwise), and the previous and current tokens set as
  // consume() would have made them from the bytes at `at`.
  Lexer* idleDirectLexer() { return nla_ ? nullptr : pp_.directLexer(); }
  void setPrevToken(const Loc& loc, uint32_t len, Tok kind) {
    prev_.loc = loc;
    prev_.len = len;
    prev_.kind = kind;
  }
  void setByteToken(Tok kind, const char* at, uint32_t len, uint8_t flags, Ident* id,
                    const Loc& loc) {
    tok_.kind = kind;
    tok_.ptr = at;
    tok_.len = len;
    tok_.flags = flags;
    tok_.ident = id;
    tok_.loc = loc;
  }
  // The identifier `id`, spelled from `start` to `end` after the gap skipGap() went through
  // (`lines`, `ls`, `flags`), made the current token with the lexer after it; the current one
  // becomes the previous token.
  void takeIdentToken(Lexer* lx, Ident* id, const char* start, const char* end, uint32_t lines,
                      const char* ls, uint8_t flags) {
    setPrevToken(tok_.loc, tok_.len, tok_.kind);
    lx->skipTo(end, lines, ls);
    setByteToken(Tok::Ident, start, uint32_t(end - start), flags, id, lx->locAt(start));
  }
  Ident* id_struct_ = nullptr; // the keywords fastTypedefTag() reads
  Ident* id_union_ = nullptr;
  void parseEnumBody(EnumDecl* ed, const Loc& open);
  void finishEnum(EnumDecl* ed, const Loc& loc);
  void parseTypeof(DeclSpec& ds, bool unqual);
  void parseAlignas(DeclSpec& ds);
  const IntType* intTypeFor(const DeclSpec& ds, const Loc& at);

  // declarators
  void parseDeclarator(Declarator& d, DeclContext dc, bool abstract_ok, unsigned level = 0);
  // The parts of parseDeclaratorLevel(): the pointers ('*' and their qualifiers), then the
  // name or parenthesised declarator and its suffixes.
  void parsePointers(Declarator& d, SmallVec<Chunk, 4>& out);
  void parseDirectDeclarator(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                             bool abstract_ok, unsigned level);
  // The array and function suffixes after a declarator's name, in the order they apply.
  void parseDeclaratorSuffixes(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                               unsigned level);
  void parseDeclaratorLevel(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                            bool abstract_ok, unsigned level);
  void parseArraySuffix(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc, bool first_dim);
  FunctionType* parseParams(Declarator& d, const Loc& at, unsigned level);
  bool nestedDeclaratorFollows(DeclContext dc, bool abstract_ok) const;
  QType buildType(const DeclSpec& ds, QType base, Declarator& d, DeclContext dc,
                  FunctionType** outer_fn);
  void applyPointer(QType& t, const Chunk& c);
  void applyPointer(QType& t, const Loc& at);
  /// The address space of a pointer to `pointee` written without one: OpenCL C's deduction
  /// (TypeContext::defaultPointeeAddressSpace()) for objects, 0 for functions.
  uint32_t defaultAddressSpace(const Type* pointee) const {
    return stripTypedefs(pointee)->kind == TypeKind::Function ? 0
                                                              : ctx_.defaultPointeeAddressSpace();
  }
  /// The address space of an lvalue whose address a constant expression takes (`&v`, an array
  /// that decays): OpenCL C's string literals are in __constant; anything else is reached
  /// through a pointer written without an address space.
  uint32_t lvalueAddressSpace(const Value& v) const {
    return v.is_string ? ctx_.stringLiteralAddressSpace() : defaultAddressSpace(v.type);
  }
  void applyArray(QType& t, const Chunk& c, const Ident* name, DeclContext dc);
  std::string declName(const Declarator& d) const {
    return d.name ? std::string(d.name->name) : std::string();
  }
  QType parseTypeName(const Loc& at);

  // declarations
  void parseExternalDeclaration();
  void finishExternalDeclaration(DeclSpec& ds);
  void parseStaticAssert();
  void skipAsm();
  void skipInitializer();
  void skipFunctionBody();
  void declare(DeclSpec& ds, QType base, Declarator& d, bool is_definition);
  void declareTypedef(DeclSpec& ds, QType t, Declarator& d);
  void declareFunction(DeclSpec& ds, QType t, Declarator& d, FunctionType* fn, bool is_definition);
  void applyFunctionAttrs(const AttrList& attrs, FunctionType* fn, const Declarator& d);
  void parseMember(RecordDecl* rd);
  // What the member fast path has established about the record body being read: `clean` while
  // every member so far came through fastMembers() with its own name (marked with `stamp` in
  // its Ident: a name seen twice clears it) and no incomplete array type; `depth` the largest
  // nesting depth of their types. checkRecord() skips its member checks for a clean body.
  struct BodyState {
    const RecordDecl* rd = nullptr;
    uint32_t stamp = 0;
    uint32_t depth = 0;
    bool clean = false;
    // A member named `name` of nesting depth `d` read by the fast path.
    void add(Ident* name, uint32_t d) {
      if (name->mark == stamp) clean = false;
      name->mark = stamp;
      depth = std::max(depth, d);
    }
  };
  BodyState last_body_; // of the record body read last (parseRecordBody())
  // `after_open`: tok_ is the body's '{' and the first member is read after it.
  bool fastMembers(BodyState& body, bool after_open = false);
  [[gnu::always_inline]] static inline const char* skipGap(const char* p, uint32_t& lines,
                                                           const char*& ls, uint8_t& flags);
  // The first byte after the blanks (spaces, tabs, ...) at `p`; `flags` takes kTokLeadingSpace
  // if there were any, as the lexer marks the token there.
  [[gnu::always_inline]] static const char* skipBlanks(const char* p, uint8_t& flags) {
    using namespace lexchars;
    if (!(classOf(p) & kSpace)) return p; // the usual case first
    flags |= kTokLeadingSpace;
    return lexchars::skipBlanks(p + 1);
  }
  bool fastIdentToken();
  bool fastSemiToken();
  // The member memo: what fastMembers() made of a member's text (its bytes from the first
  // identifier up to the ';', on one line), kept so that the same text read again becomes the
  // same member without being read token by token. An entry is used only in the
  // IdentTable::memo_epoch it was made in: the epoch changes when an identifier of an entry is
  // defined or undefined as a macro or, for a typedef name or a tag, bound to another
  // declaration (see docs/frontend.md).
  struct alignas(64) MemberMemo {
    char text[32] = {};         // the text, then bytes after it
    const Type* type = nullptr; // the member's type (not in an address space)
    Ident* name = nullptr;      // the member's name
    uint32_t hash = 0;          // MemoKey
    uint32_t epoch = 0;         // 0: empty
    int32_t width = -1;         // bit-field width
    uint8_t len = 0;            // of the text
    uint8_t name_off : 7 = 0;   // where the name starts in it
    uint8_t plain : 1 = 0;      // written in place (see addFastMember())
    uint16_t depth = 0;         // depthOf(type)
  };
  static_assert(sizeof(MemberMemo) == 64, "one cache line");
  std::vector<MemberMemo> memo_;
  struct MemoKey {
    uint32_t hash = 0;
    uint32_t len = 0; // 0: the text has no key (no ';' in its first 32 bytes, too near the end)
    // The text has the shape of `struct TAG *NAME;` or `union TAG *NAME;`: the keyword and a
    // blank first, one '*', no '[' and no ':'. fastMembers() reads such a member without the
    // memo and does not keep it there (the tags differ, the texts seldom repeat), so it does not
    // look it up either: the lookup would load a line of the memo for nothing. (A shortcut only:
    // a text of this shape that the fast path cannot read is read by the general path as it
    // would be after a miss.)
    bool tag_pointer = false;
  };
  static MemoKey memberKey(const char* s, const char* end);
  [[gnu::always_inline]] inline const MemberMemo* memoFind(const char* s, const MemoKey& key) const;
  bool macroIntValue(Macro* m, int32_t& value);
  // The type of each SpecSet (by basicKey()) that a member's specifiers have had (filled by
  // parseMember(), read by fastMembers()); null: not seen yet.
  std::vector<QType> basic_types_;
  void addMember(const QType& t, Ident* name, const Loc& at, int32_t width, const DeclSpec* ds,
                 const AttrList* dattrs);
  void checkRecord(RecordDecl* rd, const Loc& at, size_t base);
  bool transparentUnionHolds(const RecordDecl* rd) const;
  struct MemberInfo;
  // The member checks of checkRecord() (flexible arrays, duplicate names; the nesting depth).
  void checkMembers(const RecordDecl* rd, const MemberInfo* info, size_t n, uint32_t& depth);
  bool sameType(const Type* a, const Type* b) const;
  bool compatibleFunction(const FunctionType* a, const FunctionType* b) const;
  void handleTagOnlyDecl(DeclSpec& ds);

  // constant expressions
  Value parseExpr(bool eval);
  Value parseAssign(bool eval);
  Value parseConditional(bool eval);
  Value parseBinary(int min_prec, bool eval);
  Value parseCast(bool eval);
  Value parseUnary(bool eval);
  Value parsePostfix(bool eval);
  Value parsePostfixOps(Value v, bool eval); // the postfix operators after the operand v
  Value parsePrimary(bool eval);
  Value parseOffsetof(const Loc& at);
  Value parseSizeofAlignof(Kw which, const Loc& at, bool eval);
  Value parseGeneric(bool eval);
  Value intValue(const Type* t, unsigned __int128 v, bool known = true);
  Value rvalue(const Value& v, const Loc& at);
  Value convert(const Value& v, const Type* to, const Loc& at, bool explicit_cast);
  Value arith(Tok op, const Value& a, const Value& b, const Loc& at, bool eval);
  Value memberAccess(Value base, Ident* name, const Loc& at, bool arrow);
  const Type* promote(const Type* t);
  const Type* usualArith(const Type* a, const Type* b);
  unsigned intBits(const Type* t) const;
  bool intSigned(const Type* t) const;
  // The arithmetic of integer type `t` (of a type that is not an integer: 128-bit, no wrap).
  IntArith intArith(const Type* t) const;
  unsigned __int128 truncate(unsigned __int128 v, const Type* t) const;
  __int128 signedValue(const Value& v) const;
  bool isZero(const Value& v) const;
  int64_t evalInt(const char* what, const Loc& at, bool strict, __int128* wide = nullptr,
                  const Type** type = nullptr);
  Value literalNumber(const Token& t);
  Value literalChar(const Token& t);
  Value literalString();
  uint64_t sizeOf(const Type* t, const Loc& at, const char* op);
  uint32_t alignOf(const Type* t, const Loc& at, bool preferred);
  bool findField(const RecordDecl* rd, Ident* name, const Type*& type, uint64_t& bit_offset,
                 bool& bitfield, unsigned depth = 0);
  // findField() for a member access or offsetof at `at`: an error naming `owner` (the record's
  // type as written) when `rd` has no member `name`.
  void memberOf(const RecordDecl* rd, Ident* name, const Type* owner, const Loc& at,
                const Type*& type, uint64_t& bit, bool& bitfield);

  TypeContext& ctx_;
  const LayoutEngine& layout_;
  Preprocessor& pp_;
  IdentTable& ids_;
  Language lang_;
  TranslationUnit tu_;

  Token tok_;
  // What the parser needs of the previous token (its end, for "expected ';' after" messages).
  struct PrevToken {
    Loc loc;
    uint32_t len = 0;
    Tok kind = Tok::Eof;
  } prev_;
  Token la_[4];
  unsigned nla_ = 0;

  std::vector<size_t> scope_marks_;
  struct Undo {
    Ident* id;
    bool tag;
    void* old;
  };
  std::vector<Undo> undo_;
  std::deque<Symbol> symbols_;

  std::unordered_map<const TypedefDecl*, uint32_t> typedef_as_;
  std::unordered_map<const Ident*, uint32_t> as_keywords_;
  /// The address space an address-space keyword names. Among declaration specifiers, `generic`
  /// fails at `at` where the OpenCL C version has no generic address space; after a `*` clang
  /// takes it in every version, and so does abikit.
  uint32_t addressSpaceKeyword(const Ident* id, const Loc& at, bool specifier);
  std::vector<const Ident*> no_generic_; // `generic`, `__generic` where the version lacks them
  std::string openclVersionText() const; // "OpenCL C version 1.2"
  uint8_t cl_features_ = 0;              // openclFeatures() of the context's language
  std::unordered_map<const Ident*, OpenCLKind> cl_types_;
  std::unordered_map<const Ident*, IntKind> cxx_char_types_;
  std::unordered_map<std::string_view, FunctionDecl*> functions_;
  std::vector<RecordDecl*> pending_anon_; // anonymous records that a typedef may still name
  std::vector<std::pair<const Type*, Loc>> tentative_; // file-scope objects of incomplete type
  // Members of the records being defined (a stack: nested definitions append after their
  // parent's members and are cut off when complete).
  std::vector<FieldDecl> member_stack_;
  struct MemberInfo {
    Loc loc;     // where errors about the member are reported
    Ident* name; // nullptr for unnamed members
  };
  std::vector<MemberInfo> member_info_; // parallel to member_stack_
  // Both vectors are used up to member_n_ (their size is the storage: no per-member push_back).
  size_t member_n_ = 0;
  // The next slot of both vectors, for the caller to fill in place (every field: the slot may
  // hold a member of a record completed earlier).
  // A member read by fastMembers() (no attributes, no _Alignas, a name): what addMember() does
  // for it, with the usual case (a complete object type, not a bit-field) written here, and the
  // body's duplicate-name marks, incomplete-array flag and depth kept up to date.
  // Returns whether the member is of the kind written in place (when there is room).
  bool addFastMember(const QType& t, Ident* name, const Loc& at, int32_t width, BodyState& body) {
    bool incomplete_array = false;
    bool plain = width < 0 && !t.has_as && plainType(t.t, incomplete_array);
    if (incomplete_array) body.clean = false;
    body.add(name, depthOf(t.t));
    if (plain && member_n_ < member_stack_.size())
      writePlainMember(t.t, name, at);
    else
      addMember(t, name, at, width, nullptr, nullptr);
    return plain;
  }
  // A member type addMember() has nothing to check or change in: a complete object type that is
  // not an array of unknown size (`incomplete_array` tells that one).
  static bool plainType(const Type* t, bool& incomplete_array) {
    const Type* c = stripTypedefs(t);
    switch (c->kind) {
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Pointer:
    case TypeKind::Vector:
    case TypeKind::Complex:
    case TypeKind::Atomic:
      return true;
    case TypeKind::Array:
      incomplete_array = static_cast<const ArrayType*>(c)->incomplete;
      return !incomplete_array;
    case TypeKind::Record:
      return static_cast<const RecordType*>(c)->decl->complete;
    case TypeKind::Enum:
      return static_cast<const EnumType*>(c)->decl->complete;
    default:
      return false;
    }
  }
  // What addMember() does for a member of plainType(), into the next member slot (there is one).
  void writePlainMember(const Type* t, Ident* name, const Loc& at) {
    MemberInfo& info = member_info_[member_n_];
    info.loc = at;
    info.name = name;
    FieldDecl& f = member_stack_[member_n_++]; // every field written: it may hold an old member
    f.name = intern(name);
    f.type = t;
    f.bit_width = -1;
    f.aligned = 0;
    f.packed = false;
    f.loc = srcLoc(at);
  }
  FieldDecl& pushMember(const Loc& loc, Ident* name) {
    if (member_n_ == member_stack_.size()) {
      size_t n = std::max<size_t>(64, member_n_ * 2);
      member_stack_.resize(n);
      member_info_.resize(n);
    }
    MemberInfo& info = member_info_[member_n_];
    info.loc = loc;
    info.name = name;
    return member_stack_[member_n_++];
  }
  uint32_t mark_ = 0;
  // Nesting depth of the composite types built so far (scalars and enums are 0): Type::nesting.
  static uint32_t depthOf(const Type* t) {
    const Type* u = t->unqualified;
    switch (u->kind) {
    case TypeKind::Void:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Enum:
      return 0;
    default:
      return u->nesting;
    }
  }
  void checkDepth(uint32_t d, const Loc& at) const {
    if (d > kMaxTypeDepth)
      fail(at, "type nested too deeply (more than " + std::to_string(kMaxTypeDepth) +
                   " levels of arrays, pointers, typedefs, records and functions)");
  }
  // The nesting depth of a pointer to `pointee` (checked against the limit).
  uint32_t pointerDepth(const Type* pointee, const Loc& at) const {
    uint32_t d = depthOf(pointee) + 1;
    checkDepth(d, at);
    return d;
  }
  static void setDepth(const Type* t, uint32_t d) {
    if (d) t->unqualified->nesting = uint16_t(d); // d <= kMaxTypeDepth (checkDepth)
  }
  // Direct-mapped caches in front of the TypeContext's interning tables.
  struct PtrCacheEntry {
    const Type* pointee = nullptr;
    uint32_t as = 0;
    const Type* result = nullptr;
  };
  std::vector<PtrCacheEntry> ptr_cache_ = std::vector<PtrCacheEntry>(4096);
  const Type* pointerTo(const Type* pointee, uint32_t as) {
    size_t h = ((reinterpret_cast<uintptr_t>(pointee) >> 4) ^ as) & 4095;
    PtrCacheEntry& e = ptr_cache_[h];
    if (e.pointee == pointee && e.as == as && e.result) return e.result;
    e.pointee = pointee;
    e.as = as;
    e.result = ctx_.pointerTo(pointee, as);
    return e.result;
  }
  // Complete array types made by applyArray() (element, count): one made once passes its checks
  // again (a complete element stays complete; the size is the same).
  struct ArrCacheEntry {
    const Type* element = nullptr;
    uint64_t count = 0;
    const Type* result = nullptr;
  };
  std::vector<ArrCacheEntry> arr_cache_ = std::vector<ArrCacheEntry>(1024);
  // Every recursive descent of the parser enters through one guard (NestGuard, shared with the
  // #if evaluator): one counter of the levels entered, one limit (kMaxNesting), so that no mix of
  // constructs (typeof in _Alignas in a parameter list in an enum's underlying type...) can nest
  // deeper and the stack stays bounded.
  class Nest : NestGuard {
  public:
    Nest(Parser& p, const Loc& at, const char* what) : NestGuard(p.nesting_, kMaxNesting) {
      if (tooDeep()) p.fail(at, std::string(what) + " nested too deeply");
    }
  };
  // f() (a subexpression's parse) one expression level deeper.
  template <class F> auto nested(const Loc& at, F&& f) {
    Nest nest(*this, at, "expression");
    return f();
  }
  unsigned nesting_ = 0;
  const Type* size_type_ = nullptr;
  const Type* ptrdiff_type_ = nullptr;
  const Type* int_ = nullptr;
  unsigned int_bits_ = 32; // of int_
};

} // namespace abikit::detail
