// Declarators: pointers, arrays, functions and their parameters.
#include "parser.h"

namespace abikit::detail {

// ----- declarators ----------------------------------------------------------------------------

void Parser::parseDeclarator(Declarator& d, DeclContext dc, bool abstract_ok, unsigned level) {
  d.loc = tok_.loc;
  parseDeclaratorLevel(d, d.chunks, dc, abstract_ok, level);
}

bool Parser::nestedDeclaratorFollows(DeclContext dc, bool abstract_ok) const {
  // tok_ is '('.
  if (!abstract_ok) return true;
  const Token& n = const_cast<Parser*>(this)->peekTok(0);
  switch (n.kind) {
  case Tok::Star:
  case Tok::Caret:
  case Tok::LBracket:
    return true;
  case Tok::LParen:
    return true;
  case Tok::Ident:
    if (n.ident->keyword == kKwAttribute || n.ident->keyword == kKwCallConv) return true;
    if (startsDeclSpec(n)) return false;
    return dc != DeclContext::TypeName;
  default:
    return false;
  }
}

void Parser::parseDeclaratorLevel(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                                  bool abstract_ok, unsigned level) {
  // The chunks of this level go to `out` in the order they apply to the base type: the
  // pointers left to right, then the suffixes right to left, then the nested declarator's.
  (void)level;
  Nest nest(*this, tok_.loc, "declarator");
  parsePointers(d, out);
  parseDirectDeclarator(d, out, dc, abstract_ok, level);
}

void Parser::parsePointers(Declarator& d, SmallVec<Chunk, 4>& out) {
  while (tok_.kind == Tok::Star || tok_.kind == Tok::Caret) {
    if (tok_.kind == Tok::Caret) fail(tok_.loc, "blocks ('^') are not supported", true);
    if (out.size() > 4 * kMaxNesting) fail(tok_.loc, "declarator nested too deeply");
    Chunk c;
    c.kind = Chunk::Pointer;
    c.loc = tok_.loc;
    consume();
    for (;;) {
      if (atAttribute()) {
        AttrList attrs;
        parseAttributes(attrs);
        for (const Attr& a : attrs) {
          if (a.kind == AttrKind::AddressSpace || a.kind == AttrKind::OpenCLAddrSpace) {
            c.has_as = true;
            c.as = a.kind == AttrKind::AddressSpace ? uint32_t(a.value) : a.as;
          } else if (a.kind == AttrKind::VectorSize || a.kind == AttrKind::Mode ||
                     a.kind == AttrKind::ExtVectorType) {
            fail(a.loc, "'" + std::string(a.name) + "' attribute cannot be applied to a pointer");
          } else if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex) {
            d.chunk_attrs.push_back(a);
          }
        }
        continue;
      }
      if (tok_.kind != Tok::Ident) break;
      Kw kw = Kw(tok_.ident->keyword);
      if (kTypeSpecs[kw].qual)
        c.quals |= kTypeSpecs[kw].qual;
      else if (kw == kKwNullability || kw == kKwExtension) {
      } else if (kw == kKwAtomic) {
        c.atomic = true;
        c.atomic_loc = tok_.loc;
      } else if (kw == kKwAddrSpace) {
        c.has_as = true;
        c.as = addressSpaceKeyword(tok_.ident, tok_.loc, false);
      } else {
        break;
      }
      consume();
    }
    out.push_back(c);
  }
}

void Parser::parseDirectDeclarator(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                                   bool abstract_ok, unsigned level) {
  std::unique_ptr<SmallVec<Chunk, 4>> inner; // only for a parenthesised declarator
  if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone && dc != DeclContext::TypeName) {
    d.name = tok_.ident;
    d.name_loc = tok_.loc;
    consume();
  } else if (tok_.kind == Tok::LParen && nestedDeclaratorFollows(dc, abstract_ok)) {
    Loc open = tok_.loc;
    consume();
    AttrList attrs;
    parseAttributes(attrs); // e.g. void (__attribute__((noreturn)) *f)(void)
    for (const Attr& a : attrs)
      if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex) d.chunk_attrs.push_back(a);
    inner = std::make_unique<SmallVec<Chunk, 4>>();
    parseDeclaratorLevel(d, *inner, dc, abstract_ok, level + 1);
    if (tok_.kind != Tok::RParen) {
      if (tok_.kind == Tok::Eof) fail(open, "expected ')' to match this '('");
      failUnexpected("')'");
    }
    consume();
  } else if (!abstract_ok) {
    if (tok_.kind == Tok::Ident && tok_.ident->keyword != kKwNone)
      fail(tok_.loc, "expected identifier or '(' (found the keyword '" +
                         std::string(tok_.ident->name) + "')");
    failUnexpected("an identifier or '('");
  }
  parseDeclaratorSuffixes(d, out, dc, level);
  if (inner)
    for (size_t i = 0; i < inner->size(); ++i) out.push_back((*inner)[i]);
}

void Parser::parseDeclaratorSuffixes(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                                     unsigned level) {
  size_t suffix_start = out.size();
  bool first_dim = true;
  for (;;) {
    if (tok_.kind == Tok::LBracket && !atAttribute()) {
      parseArraySuffix(d, out, dc, first_dim);
      first_dim = false;
      if (out.size() > 4 * kMaxNesting) fail(tok_.loc, "declarator nested too deeply");
    } else if (tok_.kind == Tok::LParen) {
      Chunk c;
      c.kind = Chunk::Function;
      c.loc = tok_.loc;
      c.fn = parseParams(d, tok_.loc, level);
      out.push_back(c);
    } else {
      break;
    }
  }
  if (out.size() - suffix_start > 1) out.reverse(suffix_start);
}

void Parser::parseArraySuffix(Declarator& d, SmallVec<Chunk, 4>& out, DeclContext dc,
                              bool first_dim) {
  Chunk c;
  c.kind = Chunk::Array;
  c.loc = tok_.loc;
  consume(); // [
  if (dc == DeclContext::Param && first_dim) {
    // C99: int a[static 4], int a[const]
    for (;;) {
      if (isKw(kKwStatic))
        consume();
      else if (tok_.kind == Tok::Ident && kTypeSpecs[tok_.ident->keyword].qual)
        c.quals |= kTypeSpecs[tok_.ident->keyword].qual, consume();
      else
        break;
    }
  }
  c.size_loc = tok_.loc;
  if (tok_.kind == Tok::RBracket) {
    c.incomplete = true;
  } else if (tok_.kind == Tok::Star && peekTok(0).kind == Tok::RBracket) {
    if (dc != DeclContext::Param)
      fail(tok_.loc, "star modifier used outside of function prototype");
    consume();
    c.vla = true;
  } else {
    Nest nest(*this, c.size_loc, "expression");
    Value v = parseAssign(true);
    v = rvalue(v, c.size_loc);
    if (v.kind == Value::Float)
      fail(c.size_loc, "size of array has non-integer type '" + typeStr(v.type) + "'");
    if (v.kind != Value::Int || !v.known) {
      if (dc != DeclContext::Param)
        fail(c.size_loc, "array size is not an integer constant expression (variable length "
                         "arrays are not supported here)");
      c.vla = true;
    } else {
      __int128 n = signedValue(v);
      if (intSigned(v.type) && n < 0) {
        std::string what = d.name ? "array '" + std::string(d.name->name) + "'" : "array";
        fail(c.size_loc, what + " has negative size");
      } else {
        unsigned __int128 u = intSigned(v.type) ? (unsigned __int128)n : v.bits;
        if (u > (unsigned __int128)UINT64_MAX) fail(c.size_loc, "array is too large");
        c.count = uint64_t(u);
      }
    }
  }
  if (tok_.kind != Tok::RBracket) failUnexpected("']'");
  consume();
  out.push_back(c);
}

FunctionType* Parser::parseParams(Declarator& d, const Loc& at, unsigned level) {
  Nest nest(*this, tok_.loc, "parameter list");
  consume(); // (
  FunctionType* fn = ctx_.createFunctionType();
  if (tok_.kind == Tok::RParen) {
    consume();
    // C17: () declares a function without a prototype; C++ (CUDA/HIP): no parameters.
    fn->prototyped = isCxx(lang_) || lang_ == Language::OpenCL;
    return fn;
  }
  // K&R identifier list (only meaningful in a definition).
  if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone && !isTypeName(tok_) &&
      (peekTok(0).kind == Tok::Comma || peekTok(0).kind == Tok::RParen) && lang_ == Language::C) {
    Symbol* s = lookup(tok_.ident);
    if (!s || s->kind != Symbol::Typedef) {
      fn->prototyped = false;
      d.knr_names.clear();
      for (;;) {
        if (tok_.kind != Tok::Ident || tok_.ident->keyword != kKwNone)
          failUnexpected("an identifier in the parameter list");
        d.knr_names.push_back(tok_.ident);
        consume();
        if (tok_.kind == Tok::Comma) {
          consume();
          continue;
        }
        if (tok_.kind == Tok::RParen) break;
        failUnexpected("',' or ')' in the parameter list");
      }
      consume();
      d.has_knr = true;
      return fn;
    }
  }
  pushScope();
  for (;;) {
    if (tok_.kind == Tok::Ellipsis) {
      if (fn->params.empty()) fail(tok_.loc, "ISO C requires a named parameter before '...'");
      fn->variadic = true;
      consume();
      if (tok_.kind != Tok::RParen) failUnexpected("')' after '...'");
      break;
    }
    Loc pstart = tok_.loc;
    DeclSpec ps;
    parseDeclSpec(ps, DeclContext::Param);
    if (!ps.any) {
      if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) failUnknownTypeName();
      if (tok_.kind == Tok::Eof) fail(at, "expected ')' to match this '('");
      failUnexpected("a parameter declaration");
    }
    if (ps.storage != kKwNone && ps.storage != kKwRegister)
      fail(ps.storage_loc, "invalid storage class specifier in function declarator");
    QType pb = finishDeclSpec(ps, DeclContext::Param);
    Declarator pd;
    parseDeclarator(pd, DeclContext::Param, true, level + 1);
    parseAttributes(pd.attrs);
    FunctionType* inner_fn = nullptr;
    QType pt = buildType(ps, pb, pd, DeclContext::Param, &inner_fn);
    Loc ploc = pd.name ? pd.name_loc : pstart;
    const Type* c = stripTypedefs(pt.t);
    if (c->kind == TypeKind::Void) {
      if (fn->params.empty() && !pd.name && tok_.kind == Tok::RParen && pt.t->quals == 0 &&
          pd.chunks.empty()) {
        break; // (void)
      }
      if (pd.name) fail(ploc, "argument may not have 'void' type");
      fail(ploc, "'void' must be the first and only parameter if specified");
    }
    if (pt.has_as && c->kind != TypeKind::Array)
      fail(ploc, "parameter may not be qualified with an address space");
    ParamDecl p;
    p.name = pd.name ? intern(pd.name) : std::string_view();
    p.type = pt.t;
    p.loc = srcLoc(ploc);
    if (pd.name) {
      Symbol* old = lookup(pd.name);
      if (old && old->depth == depth())
        fail(pd.name_loc, "redefinition of parameter '" + std::string(pd.name->name) + "'");
      Symbol* s = newSymbol(Symbol::Param, pd.name_loc);
      s->type = pt;
      bind(pd.name, s);
    }
    if (fn->params.size() > 100000) fail(ploc, "too many parameters");
    fn->params.push_back(p);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::RParen) break;
    if (tok_.kind == Tok::Eof) fail(at, "expected ')' to match this '('");
    failUnexpected("',' or ')' in the parameter list");
  }
  popScope();
  consume(); // )
  return fn;
}

// One pointer declarator chunk applied to `t`.
void Parser::applyPointer(QType& t, const Chunk& c) {
  applyPointer(t, c.loc);
  t.has_as = c.has_as;
  t.as = c.as;
  if (c.atomic) t.t = atomicOf(t.t, c.atomic_loc);
  if (c.quals) t.t = ctx_.qualified(t.t, c.quals);
}

// A '*' at `at` without qualifiers or address space applied to `t`.
void Parser::applyPointer(QType& t, const Loc& at) {
  uint32_t depth = pointerDepth(t.t, at);
  t.t = pointerTo(t.t, t.has_as ? t.as : defaultAddressSpace(t.t));
  setDepth(t.t, depth);
  t.has_as = false;
  t.as = 0;
}

// One array declarator chunk applied to `t` (`name`: the declarator's, for messages).
void Parser::applyArray(QType& t, const Chunk& c, const Ident* name, DeclContext dc) {
  ArrCacheEntry* cached = nullptr;
  if (!c.incomplete && !c.vla) {
    size_t h = ((reinterpret_cast<uintptr_t>(t.t) >> 4) ^ (c.count * 0x9E3779B97F4A7C15ull >> 50)) &
               (arr_cache_.size() - 1);
    cached = &arr_cache_[h];
    if (cached->element == t.t && cached->count == c.count && cached->result) {
      t.t = cached->result;
      if (c.quals && dc == DeclContext::Param) t.t = ctx_.qualified(t.t, c.quals);
      return;
    }
  }
  auto who = [&]() {
    return name ? "'" + std::string(name->name) + "'" : std::string("type name");
  };
  uint32_t depth = depthOf(t.t) + 1;
  checkDepth(depth, c.loc);
  const Type* e = stripTypedefs(t.t);
  if (e->kind == TypeKind::Function) fail(c.loc, who() + " declared as array of functions");
  if (e->kind == TypeKind::Void) fail(c.loc, "array has incomplete element type 'void'");
  if (auto* r = dyn<RecordType>(e); r && !r->decl->complete)
    fail(c.loc, "array has incomplete element type '" + typeStr(t.t) + "'");
  if (auto* en = dyn<EnumType>(e); en && !en->decl->complete)
    fail(c.loc, "array has incomplete element type '" + typeStr(t.t) + "'");
  if (auto* a = dyn<ArrayType>(e); a && a->incomplete)
    fail(c.loc, "array has incomplete element type '" + typeStr(t.t) + "'");
  if (compilerInfo(ctx_.target().compiler).array_element_size_multiple_of_align) {
    // clang 19 and later (and GCC) reject what clang-14 lays out with overlapping elements.
    sizeOf(t.t, c.loc, "array");
    try {
      layout_.arrayElement(t.t);
    } catch (const Error& e) {
      fail(c.loc, e.message());
    }
  }
  if (c.incomplete || c.vla) {
    t.t = ctx_.incompleteArrayOf(t.t);
  } else {
    if (c.count) {
      uint64_t esize = sizeOf(t.t, c.loc, "array");
      unsigned max_bits = std::min(61u, unsigned(ctx_.data().of(ctx_.data().size_type).size) * 8u);
      unsigned __int128 total = (unsigned __int128)esize * c.count;
      if (total >= ((unsigned __int128)1 << max_bits))
        fail(c.size_loc, "array is too large (" + std::to_string(c.count) + " elements)");
    }
    const Type* element = t.t;
    t.t = ctx_.arrayOf(element, c.count);
    if (cached) *cached = {element, c.count, t.t};
  }
  setDepth(t.t, depth);
  if (c.quals && dc == DeclContext::Param) {
    // int a[const 3]: the qualifiers go to the adjusted pointer; keep them on the array.
    t.t = ctx_.qualified(t.t, c.quals);
  }
}

QType Parser::buildType(const DeclSpec& ds, QType base, Declarator& d, DeclContext dc,
                        FunctionType** outer_fn) {
  if (d.chunks.empty() && ds.attrs.empty() && d.attrs.empty()) {
    // A plain name: the type is the specifiers' (what the code below returns for it).
    if (outer_fn) *outer_fn = nullptr;
    return base;
  }
  QType t = base;
  FunctionType* last_fn = nullptr;
  for (size_t i = 0; i < d.chunks.size(); ++i) {
    const Chunk& c = d.chunks[i];
    last_fn = nullptr;
    switch (c.kind) {
    case Chunk::Pointer:
      applyPointer(t, c);
      break;
    case Chunk::Array:
      applyArray(t, c, d.name, dc);
      break;
    case Chunk::Function: {
      const Type* r = stripTypedefs(t.t);
      if (r->kind == TypeKind::Function) fail(c.loc, "function cannot return function type");
      if (r->kind == TypeKind::Array) fail(c.loc, "function cannot return array type");
      if (t.has_as && t.as != 0) fail(c.loc, "return type cannot be qualified with address space");
      uint32_t depth = depthOf(t.t);
      for (const ParamDecl& pd : c.fn->params) depth = std::max(depth, depthOf(pd.type));
      checkDepth(depth + 1, c.loc);
      setDepth(c.fn, depth + 1);
      c.fn->result = t.t;
      t = QType{c.fn};
      last_fn = c.fn;
      break;
    }
    }
  }
  bool is_typedef = ds.storage == kKwTypedef;
  // Attributes after the declarator apply to the declared type (type attributes) or to the
  // declaration; mode and ext_vector_type are declaration attributes that change the type.
  for (const Attr& a : ds.attrs)
    if (a.kind == AttrKind::Mode || a.kind == AttrKind::ExtVectorType)
      t = applyTypeAttr(a, t, is_typedef);
  for (const Attr& a : d.attrs)
    if (a.kind == AttrKind::Mode || a.kind == AttrKind::ExtVectorType ||
        a.kind == AttrKind::VectorSize || a.kind == AttrKind::AddressSpace ||
        a.kind == AttrKind::OpenCLAddrSpace)
      t = applyTypeAttr(a, t, is_typedef);
  if (outer_fn) *outer_fn = last_fn;
  return t;
}

QType Parser::parseTypeName(const Loc& at) {
  Nest nest(*this, tok_.loc, "type name");
  DeclSpec ds;
  parseDeclSpec(ds, DeclContext::TypeName);
  if (!ds.any) failUnexpected("a type name");
  QType base = finishDeclSpec(ds, DeclContext::TypeName);
  Declarator d;
  parseDeclarator(d, DeclContext::TypeName, true);
  parseAttributes(d.attrs);
  (void)at;
  return buildType(ds, base, d, DeclContext::TypeName, nullptr);
}

} // namespace abikit::detail
