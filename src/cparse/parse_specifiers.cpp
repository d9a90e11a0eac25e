// Declaration specifiers.
#include "parser.h"

namespace abikit::detail {

// ----- declaration specifiers -----------------------------------------------------------------

// A type specifier `t` that cannot follow the ones before it; right after a struct, union or enum
// body, the ';' that should have ended it is what is missing.
void Parser::failSpecConflict(const DeclSpec& ds, const Token& t) {
  if (ds.tag_defined && prev_.kind == Tok::RBrace) {
    Loc after = prev_.loc;
    after.col += prev_.len;
    after.offset += prev_.len;
    const char* what = ds.record ? (ds.record->is_union ? "union" : "struct") : "enum";
    fail(after, std::string("expected ';' after ") + what);
  }
  fail(t.loc, "cannot combine '" + std::string(t.text()) + "' with the previous type specifiers");
}

void Parser::addTypeSpec(DeclSpec& ds, const Token& t) {
  bool first = !ds.anyType();
  if (!ds.spec.add(t.ident->keyword)) failSpecConflict(ds, t);
  if (first) ds.type_loc = t.loc;
  ds.any = true;
}

void Parser::parseDeclSpec(DeclSpec& ds, DeclContext dc) {
  ds.loc = tok_.loc;
  parseDeclSpecRest(ds, dc);
}

void Parser::parseDeclSpecRest(DeclSpec& ds, DeclContext dc) {
  for (;;) {
    if (atAttribute()) {
      parseAttributes(ds.attrs);
      ds.any = true;
      continue;
    }
    if (tok_.kind != Tok::Ident) break;
    Ident* id = tok_.ident;
    Kw kw = Kw(id->keyword);
    const Token& t = tok_; // only read before the token is consumed
    switch (kw) {
    case kKwTypedef:
    case kKwExtern:
    case kKwStatic:
    case kKwAuto:
    case kKwRegister:
      if (dc == DeclContext::Member || dc == DeclContext::TypeName)
        fail(t.loc, "type name does not allow storage class to be specified");
      if (ds.storage != kKwNone && !(ds.storage == kw))
        fail(t.loc,
             "cannot combine with previous '" + std::string(t.text()) + "' declaration specifier");
      ds.storage = kw;
      ds.storage_loc = t.loc;
      ds.any = true;
      consume();
      if (kw == kKwExtern && tok_.kind == Tok::String && isCxx(lang_)) {
        // extern "C" in CUDA/HIP sources.
        if (tok_.text() != "\"C\"" && tok_.text() != "\"C++\"")
          fail(tok_.loc, "unknown linkage language " + std::string(tok_.text()));
        consume();
        ds.cxx_extern_c = true;
      }
      continue;
    case kKwThreadLocal:
      ds.thread_local_ = true;
      ds.any = true;
      consume();
      continue;
    case kKwInline:
      ds.inline_ = true;
      ds.any = true;
      consume();
      continue;
    case kKwNoreturn:
      ds.noreturn = true;
      ds.any = true;
      consume();
      continue;
    case kKwExtension:
      consume();
      continue;
    case kKwConst:
    case kKwVolatile:
    case kKwRestrict:
      ds.spec.quals |= kTypeSpecs[kw].qual;
      ds.any = true;
      consume();
      continue;
    case kKwNullability:
      consume();
      continue;
    case kKwAtomic:
      if (peekTok(0).kind == Tok::LParen) { // C11 6.7.2.4: then a type specifier
        if (ds.anyType()) failSpecConflict(ds, t);
        parseAtomicSpecifier(ds);
        continue;
      }
      if (!ds.atomic) ds.atomic_loc = t.loc;
      ds.atomic = true;
      ds.any = true;
      consume();
      continue;
    case kKwAddrSpace: {
      uint32_t as = addressSpaceKeyword(id, t.loc, true);
      if (ds.has_as && ds.as != as) fail(t.loc, "multiple address spaces specified for type");
      ds.has_as = true;
      ds.as = as;
      ds.any = true;
      consume();
      continue;
    }
    case kKwCxxOnly:
      fail(t.loc, "C++ '" + std::string(t.text()) + "' is not supported (C declarations only)",
           true);
    case kKwAutoType:
      fail(t.loc, "'__auto_type' is not supported", true);
    case kKwImaginary:
      fail(t.loc, "_Imaginary is not supported", true);
    case kKwKernel:
      ds.kernel = true;
      ds.any = true;
      consume();
      continue;
    case kKwReadOnly:
    case kKwWriteOnly:
    case kKwReadWrite: {
      AccessQual q = kw == kKwReadOnly    ? AccessQual::ReadOnly
                     : kw == kKwWriteOnly ? AccessQual::WriteOnly
                                          : AccessQual::ReadWrite;
      if (ds.access != AccessQual::None && ds.access != q)
        fail(t.loc, "multiple access qualifiers");
      ds.access = q;
      ds.access_loc = t.loc;
      ds.any = true;
      consume();
      continue;
    }
    case kKwPipe:
      if (!(cl_features_ & kClPipes))
        fail(t.loc, openclVersionText() + " does not support the 'pipe' type qualifier");
      ds.pipe = true;
      ds.any = true;
      consume();
      continue;
    case kKwAlignas:
      parseAlignas(ds);
      ds.any = true;
      continue;
    case kKwVoid:
    case kKwChar:
    case kKwInt:
    case kKwFloat:
    case kKwDouble:
    case kKwBool:
    case kKwInt128:
    case kKwInt64:
    case kKwFloat16:
    case kKwFp16:
    case kKwHalf:
    case kKwBf16:
    case kKwFloat128:
    case kKwShort:
    case kKwLong:
    case kKwSigned:
    case kKwUnsigned:
    case kKwComplex:
      addTypeSpec(ds, t);
      consume();
      continue;
    case kKwBitInt: {
      addTypeSpec(ds, t);
      consume();
      expect(Tok::LParen, "after '_BitInt'");
      Loc at = tok_.loc;
      __int128 v = 0;
      evalInt("_BitInt width", at, false, &v);
      if (v < 1 || v > 0xFFFF) fail(at, "_BitInt width must be between 1 and 65535");
      ds.bitint_bits = unsigned(v);
      expect(Tok::RParen, "after the _BitInt width");
      continue;
    }
    case kKwStruct:
    case kKwUnion:
    case kKwEnum:
      if (ds.anyType()) failSpecConflict(ds, t);
      parseTagSpecifier(ds, dc);
      continue;
    case kKwTypeof:
    case kKwTypeofUnqual:
      if (ds.anyType()) failSpecConflict(ds, t);
      parseTypeof(ds, kw == kKwTypeofUnqual);
      continue;
    case kKwCLType:
      if (ds.anyType()) failSpecConflict(ds, t);
      ds.setNamed(QType{ctx_.openclType(cl_types_[id])}, t.loc);
      consume();
      continue;
    case kKwCxxCharType:
      if (ds.anyType()) failSpecConflict(ds, t);
      ds.setNamed(QType{ctx_.intType(cxx_char_types_[id])}, t.loc);
      consume();
      continue;
    case kKwNone: {
      if (ds.anyType()) break; // the declarator's name
      Symbol* s = lookup(id);
      if (s && s->kind == Symbol::Typedef) {
        ds.setNamed(s->type, t.loc);
        ds.is_typedef_name = true;
        consume();
        continue;
      }
      if (!s && isCxx(lang_)) {
        if (TagSym* tg = lookupTag(id)) {
          ds.setNamed(QType{tg->type}, t.loc);
          consume();
          continue;
        }
      }
      // An unknown identifier where a type is expected.
      const Token& n = peekTok(0);
      bool looks_like_type = n.kind == Tok::Ident ||
                             (n.kind == Tok::Star && dc != DeclContext::TypeName) ||
                             (dc == DeclContext::Param && !s && n.kind != Tok::Comma &&
                              n.kind != Tok::RParen && n.kind != Tok::LBracket) ||
                             (dc == DeclContext::TypeName);
      if (!s && looks_like_type &&
          !(n.kind == Tok::Ident && n.ident->keyword != kKwNone &&
            n.ident->keyword != kKwAttribute && n.ident->keyword != kKwCallConv &&
            n.ident->keyword != kKwAsm && !startsTypeName(n)))
        failUnknownTypeName(); // at t, which is tok_
      break;
    }
    default:
      break;
    }
    break;
  }
}

const IntType* Parser::intTypeFor(const DeclSpec& ds, const Loc& at) {
  const DataModel& d = ctx_.data();
  uint32_t bits = ds.spec.bits;
  bool unsigned_ = bits & kSpecUnsigned;
  IntKind k;
  if (bits & kSpecChar) {
    if (bits & (kSpecShort | kSpecLong))
      fail(at, "'char' cannot be combined with 'short' or 'long'");
    k = bits & kSpecSigned ? IntKind::SChar : unsigned_ ? IntKind::UChar : IntKind::Char;
  } else if (bits & kSpecInt128) {
    if (bits & (kSpecShort | kSpecLong))
      fail(at, "'__int128' cannot be combined with 'short' or 'long'");
    k = unsigned_ ? IntKind::UInt128 : IntKind::Int128;
  } else {
    k = bits & kSpecShort      ? IntKind::Short
        : bits & kSpecLongLong ? IntKind::LongLong
        : bits & kSpecLong     ? IntKind::Long
                               : IntKind::Int;
    if (unsigned_) k = unsignedIntKind(k);
  }
  if (!d.of(k).supported()) {
    if (k == IntKind::Int128 || k == IntKind::UInt128)
      fail(at, "__int128 is not supported on this target", true);
    fail(at,
         "'" + std::string(k == IntKind::LongLong ? "long long" : "this integer type") +
             "' is not supported on this target",
         true);
  }
  return ctx_.intType(k);
}

// The one mapping from a set of type specifiers to the type.
QType Parser::finishDeclSpec(DeclSpec& ds, DeclContext dc) {
  // The common case first: a typedef or tag name alone (what the code below returns for it).
  if (namedAlone(ds)) return ds.named;
  const DataModel& d = ctx_.data();
  uint32_t bits = ds.spec.bits;
  Loc at = ds.anyType() ? ds.type_loc : ds.loc;
  QType r;
  if (!ds.anyType()) {
    if (!ds.any) {
      if (dc == DeclContext::Member) failUnexpected("a type name");
      fail(tok_.loc, "expected a type specifier");
    }
    // C89 implicit int (clang warns).
    if (lang_ != Language::C) fail(at, "a type specifier is required for all declarations");
    r.t = int_;
  } else {
    bool intlike = bits & kSpecIntLike;
    bool complex = bits & kSpecComplex;
    switch (bits & kSpecBase) {
    case 0:
      if (complex && !intlike) {
        // plain _Complex is _Complex double (clang warns)
        r.t = ctx_.complexOf(ctx_.floatType(FloatKind::Double));
        complex = false;
        break;
      }
      r.t = intTypeFor(ds, at);
      break;
    case kSpecInt:
    case kSpecChar:
    case kSpecInt128:
      r.t = intTypeFor(ds, at);
      break;
    case kSpecVoid:
      if (intlike) fail(at, "'void' cannot be combined with other type specifiers");
      r.t = ctx_.voidType();
      break;
    case kSpecBool:
      if (intlike) fail(at, "'_Bool' cannot be combined with other type specifiers");
      r.t = ctx_.intType(IntKind::Bool);
      break;
    case kSpecBitInt: {
      if (bits & (kSpecShort | kSpecLong))
        fail(at, "'_BitInt' cannot be combined with 'short' or 'long'");
      bool sgn = !(bits & kSpecUnsigned);
      if (d.bitint_max_width == 0) fail(at, "_BitInt is not supported on this target", true);
      if (ds.bitint_bits > d.bitint_max_width)
        fail(at, std::string(sgn ? "signed" : "unsigned") + " _BitInt of bit sizes greater than " +
                     std::to_string(d.bitint_max_width) + " not supported");
      if (sgn && ds.bitint_bits < 2) fail(at, "signed _BitInt must have a bit size of at least 2");
      r.t = ctx_.bitIntType(ds.bitint_bits, sgn);
      break;
    }
    case kSpecFloat:
    case kSpecDouble:
    case kSpecFloat16:
    case kSpecFp16:
    case kSpecBf16:
    case kSpecFloat128: {
      bool double_ = bits & kSpecDouble;
      if (bits & (kSpecSigned | kSpecUnsigned | kSpecShort | kSpecLongLong) ||
          (bits & kSpecLong && !double_))
        fail(at, "invalid combination of floating-point type specifiers");
      FloatKind fk = bits & kSpecFloat ? FloatKind::Float
                     : double_ ? (bits & kSpecLong ? FloatKind::LongDouble : FloatKind::Double)
                     : bits & kSpecFloat16 ? FloatKind::Float16
                     : bits & kSpecFp16    ? FloatKind::Fp16
                     : bits & kSpecBf16    ? FloatKind::BFloat16
                                           : FloatKind::Float128;
      if (!d.of(fk).supported()) {
        const char* names[] = {"__fp16", "_Float16",    "__bf16",    "float",
                               "double", "long double", "__float128"};
        fail(at, std::string(names[size_t(fk)]) + " is not supported on this target", true);
      }
      r.t = ctx_.floatType(fk);
      break;
    }
    case kSpecNamed:
      if (intlike || complex) fail(at, "cannot combine a type name with other type specifiers");
      r = ds.named;
      break;
    }
    if (complex) {
      const Type* e = stripTypedefs(r.t);
      if (e->kind != TypeKind::Float && e->kind != TypeKind::Int)
        fail(at, "_Complex requires an arithmetic element type");
      r.t = ctx_.complexOf(r.t);
    }
  }
  if (ds.pipe) {
    r.t = ctx_.openclType(OpenCLKind::Pipe,
                          ds.access == AccessQual::None ? AccessQual::ReadOnly : ds.access, r.t);
  } else if (ds.access != AccessQual::None) {
    auto* ot = dyn<OpenCLType>(stripTypedefs(r.t));
    if (!ot || ot->okind > OpenCLKind::Image3d)
      fail(ds.access_loc, "access qualifier can only be used for pipe and image type");
    if (ds.access == AccessQual::ReadWrite && !(cl_features_ & kClReadWriteImages))
      fail(ds.access_loc, "access qualifier 'read_write' cannot be used for images in " +
                              openclVersionText() +
                              " (2.0 has it, 3.0 with __opencl_c_read_write_images)");
    r.t = ctx_.openclType(ot->okind, ds.access);
  } else if (auto* ot = dyn<OpenCLType>(r.t)) {
    if (ot->okind <= OpenCLKind::Image3d && ot->access == AccessQual::None)
      r.t = ctx_.openclType(ot->okind, AccessQual::ReadOnly); // images default to read_only
  }
  if (ds.atomic) r.t = atomicOf(r.t, ds.atomic_loc);
  if (ds.spec.quals) r.t = ctx_.qualified(r.t, ds.spec.quals);
  if (ds.has_as) {
    if (r.has_as && r.as != ds.as) fail(ds.loc, "multiple address spaces specified for type");
    r.as = ds.as;
    r.has_as = true;
  }
  // Type attributes written among the specifiers apply to this type.
  for (const Attr& a : ds.attrs) {
    if (a.kind == AttrKind::VectorSize || a.kind == AttrKind::AddressSpace ||
        a.kind == AttrKind::OpenCLAddrSpace)
      r = applyTypeAttr(a, r, ds.storage == kKwTypedef);
  }
  return r;
}

void Parser::parseTypeof(DeclSpec& ds, bool unqual) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after 'typeof'");
  QType r;
  if (startsTypeName(tok_)) {
    r = parseTypeName(at);
  } else {
    Nest nest(*this, at, "expression");
    Value v = parseExpr(false);
    if (!v.type) fail(at, "cannot take the type of this expression");
    r.t = v.type;
  }
  expect(Tok::RParen, "after the typeof operand");
  if (unqual) r.t = r.t->unqualified;
  ds.setNamed(r, at);
}

void Parser::parseAtomicSpecifier(DeclSpec& ds) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Atomic'");
  QType r = parseTypeName(at);
  expect(Tok::RParen, "after the _Atomic type name");
  r.t = atomicOf(r.t, at, true);
  ds.setNamed(r, at);
}

const Type* Parser::atomicOf(const Type* t, const Loc& at, bool specifier) {
  const Type* c = stripTypedefs(t);
  auto refuse = [&](const char* what) {
    fail(at, std::string("_Atomic cannot be applied to ") + what + " type '" + typeStr(t) + "'");
  };
  if (c->kind == TypeKind::Array) refuse("array");
  if (c->kind == TypeKind::Function) refuse("function");
  if (c->kind == TypeKind::Atomic) refuse("atomic");
  // The specifier refuses qualifiers a typedef carries too; the qualifier takes such a typedef
  // (clang-14/19/22 alike).
  for (const Type* q = t;; q = static_cast<const TypedefType*>(q->unqualified)->decl->underlying) {
    if (q->quals) refuse("qualified");
    if (!specifier || q->unqualified->kind != TypeKind::Typedef) break;
  }
  if (auto* it = dyn<IntType>(c); it && it->is_bitint) refuse("integer"); // any width
  if (c->kind == TypeKind::Void) refuse("incomplete");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete) refuse("incomplete");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete) refuse("incomplete");
  if (c->kind == TypeKind::OpenCL) refuse("the OpenCL");
  if (ctx_.data().max_atomic_promote_bits == kAtomicLayoutUnknown)
    fail(at,
         "_Atomic types are not supported on " + ctx_.target().spelling +
             " (the layout its compiler gives them is not documented)",
         true);
  return ctx_.atomicOf(t);
}

void Parser::parseAlignas(DeclSpec& ds) {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Alignas'");
  uint64_t a;
  if (startsTypeName(tok_)) {
    QType t = parseTypeName(at);
    a = alignOf(t.t, at, false);
  } else {
    Loc eat = tok_.loc;
    __int128 v = 0;
    evalInt("alignment", eat, false, &v);
    if (v < 0) fail(eat, "requested alignment is not a power of 2");
    if (v != 0 && (v & (v - 1))) fail(eat, "requested alignment is not a power of 2");
    if (v > (__int128(1) << 32))
      fail(eat, "requested alignment must be 4294967296 bytes or smaller");
    if (v > (__int128(1) << 31))
      fail(eat, "requested alignment of " + std::to_string(uint64_t(v)) + " bytes is not supported",
           true);
    a = uint64_t(v);
  }
  expect(Tok::RParen, "after the _Alignas operand");
  if (a > ds.alignas_) ds.alignas_ = a;
  if (!ds.has_alignas) ds.alignas_loc = at;
  ds.has_alignas = true;
}

} // namespace abikit::detail
