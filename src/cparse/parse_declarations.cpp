// Declarations: typedefs, variables, functions, _Static_assert, linkage blocks.
#include "parser.h"

namespace abikit::detail {

// ----- declarations ---------------------------------------------------------------------------

void Parser::skipAsm() {
  consume(); // asm
  while (tok_.kind == Tok::Ident &&
         (isKw(kKwVolatile) || isKw(kKwInline) || tok_.ident->name == "goto"))
    consume();
  if (tok_.kind != Tok::LParen) failUnexpected("'(' after 'asm'");
  skipBalanced(Tok::LParen, Tok::RParen);
}

void Parser::skipInitializer() {
  Loc at = tok_.loc;
  int depth = 0;
  for (;;) {
    switch (tok_.kind) {
    case Tok::Eof:
      fail(at, "expected ';' after the initializer");
    case Tok::LParen:
    case Tok::LBracket:
    case Tok::LBrace:
      ++depth;
      break;
    case Tok::RParen:
    case Tok::RBracket:
    case Tok::RBrace:
      if (--depth < 0) failUnexpected("an expression");
      break;
    case Tok::Comma:
    case Tok::Semi:
      if (depth == 0) return;
      break;
    default:
      break;
    }
    consume();
  }
}

void Parser::skipFunctionBody() {
  Loc open = tok_.loc;
  unsigned depth = 0;
  for (;;) {
    if (tok_.kind == Tok::Eof) fail(open, "expected '}' to end the function body");
    if (tok_.kind == Tok::LBrace)
      ++depth;
    else if (tok_.kind == Tok::RBrace && --depth == 0) {
      consume();
      return;
    }
    consume();
  }
}

void Parser::parseStaticAssert() {
  Loc at = tok_.loc;
  consume();
  expect(Tok::LParen, "after '_Static_assert'");
  Loc eat = tok_.loc;
  Value v = parseConditional(true);
  v = rvalue(v, eat);
  std::string msg;
  if (tok_.kind == Tok::Comma) {
    consume();
    if (tok_.kind != Tok::String) failUnexpected("a string literal");
    while (tok_.kind == Tok::String) {
      LiteralPrefix prefix;
      std::vector<uint32_t> units;
      std::string err = decodeLiteral(tok_.text(), pp_.wcharBits(), prefix, units);
      if (!err.empty()) fail(tok_.loc, err);
      for (uint32_t u : units) msg += u < 0x80 ? char(u) : '?';
      consume();
    }
  }
  expect(Tok::RParen, "after the static assertion");
  if (v.kind != Value::Int || !v.known || v.folded)
    fail(eat, "static assertion expression is not an integral constant expression");
  if (isZero(v))
    fail(at,
         msg.empty() ? std::string("static assertion failed") : "static assertion failed: " + msg);
  if (tok_.kind != Tok::Semi) failUnexpected("';' after the static assertion");
  consume();
}

void Parser::applyFunctionAttrs(const AttrList& attrs, FunctionType* fn, const Declarator& d) {
  for (const Attr& a : attrs) {
    if (a.kind == AttrKind::Kernel) {
      if (!fn) fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
      fn->fkind = FunctionKind::Kernel;
    } else if (a.kind == AttrKind::Vertex) {
      if (!fn) fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
      fn->fkind = FunctionKind::Vertex;
    }
  }
  (void)d;
}

bool Parser::sameType(const Type* a, const Type* b) const {
  if (a == b) return true;
  if (!a || !b) return false;
  if (a->quals != b->quals) {
    // Typedef sugar may carry the qualifiers on either side.
    const Type* ca = stripTypedefs(a);
    const Type* cb = stripTypedefs(b);
    uint8_t qa = a->quals, qb = b->quals;
    for (const Type* t = a; t->unqualified->kind == TypeKind::Typedef;) {
      t = static_cast<const TypedefType*>(t->unqualified)->decl->underlying;
      qa |= t->quals;
    }
    for (const Type* t = b; t->unqualified->kind == TypeKind::Typedef;) {
      t = static_cast<const TypedefType*>(t->unqualified)->decl->underlying;
      qb |= t->quals;
    }
    if (qa != qb) return false;
    return sameType(ca, cb);
  }
  const Type* ca = stripTypedefs(a);
  const Type* cb = stripTypedefs(b);
  if (ca == cb) return true;
  if (ca->kind != cb->kind) return false;
  switch (ca->kind) {
  case TypeKind::Pointer: {
    auto* pa = static_cast<const PointerType*>(ca);
    auto* pb = static_cast<const PointerType*>(cb);
    return pa->address_space == pb->address_space && sameType(pa->pointee, pb->pointee);
  }
  case TypeKind::Array: {
    auto* aa = static_cast<const ArrayType*>(ca);
    auto* ab = static_cast<const ArrayType*>(cb);
    return aa->incomplete == ab->incomplete && aa->count == ab->count &&
           sameType(aa->element, ab->element);
  }
  case TypeKind::Vector: {
    auto* va = static_cast<const VectorType*>(ca);
    auto* vb = static_cast<const VectorType*>(cb);
    return va->count == vb->count && va->vkind == vb->vkind && sameType(va->element, vb->element);
  }
  case TypeKind::Complex:
    return sameType(static_cast<const ComplexType*>(ca)->element,
                    static_cast<const ComplexType*>(cb)->element);
  case TypeKind::Atomic:
    return sameType(static_cast<const AtomicType*>(ca)->value,
                    static_cast<const AtomicType*>(cb)->value);
  case TypeKind::Function:
    return compatibleFunction(static_cast<const FunctionType*>(ca),
                              static_cast<const FunctionType*>(cb));
  case TypeKind::Int: {
    auto* ia = static_cast<const IntType*>(ca);
    auto* ib = static_cast<const IntType*>(cb);
    return ia->ikind == ib->ikind && ia->is_bitint == ib->is_bitint && ia->bits == ib->bits &&
           ia->is_signed == ib->is_signed;
  }
  case TypeKind::OpenCL: {
    auto* oa = static_cast<const OpenCLType*>(ca);
    auto* ob = static_cast<const OpenCLType*>(cb);
    return oa->okind == ob->okind && oa->access == ob->access &&
           (oa->pipe_element == ob->pipe_element || sameType(oa->pipe_element, ob->pipe_element));
  }
  default:
    return false;
  }
}

bool Parser::compatibleFunction(const FunctionType* a, const FunctionType* b) const {
  if (!sameType(a->result->unqualified, b->result->unqualified) && !sameType(a->result, b->result))
    return false;
  if (!a->prototyped || !b->prototyped) return true;
  if (a->variadic != b->variadic || a->params.size() != b->params.size()) return false;
  auto adjust = [this](const Type* t) -> const Type* {
    const Type* c = stripTypedefs(t);
    if (auto* arr = dyn<ArrayType>(c))
      return const_cast<TypeContext&>(ctx_).pointerTo(arr->element,
                                                      ctx_.arrayParameterAddressSpace());
    if (c->kind == TypeKind::Function) return const_cast<TypeContext&>(ctx_).pointerTo(c);
    return t;
  };
  for (size_t i = 0; i < a->params.size(); ++i) {
    const Type* pa = adjust(a->params[i].type);
    const Type* pb = adjust(b->params[i].type);
    if (!sameType(pa->unqualified, pb->unqualified) &&
        !sameType(stripTypedefs(pa)->unqualified, stripTypedefs(pb)->unqualified))
      return false;
  }
  return true;
}

void Parser::declareTypedef(DeclSpec& ds, QType t, Declarator& d) {
  Ident* name = d.name;
  if (ds.has_alignas) fail(ds.alignas_loc, "'_Alignas' attribute cannot be applied to a typedef");
  if (ds.kernel) fail(ds.loc, "'kernel' can only be used with functions");
  uint32_t aligned = 0;
  bool transparent = false;
  for (const AttrList* list : {&ds.attrs, &d.attrs}) {
    for (const Attr& a : *list) {
      if (a.kind == AttrKind::Aligned)
        aligned = std::max<uint32_t>(aligned, uint32_t(attrAlignment(a)));
      else if (a.kind == AttrKind::TransparentUnion)
        transparent = true;
      else if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex)
        fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
    }
  }
  Symbol* old = lookup(name);
  if (old && old->depth == depth()) {
    if (old->kind != Symbol::Typedef)
      fail(d.name_loc,
           "redefinition of '" + std::string(name->name) + "' as different kind of symbol");
    const Type* prev = old->td->underlying;
    if (!sameType(prev, t.t) || old->type.as != t.as || old->td->aligned != aligned)
      fail(d.name_loc, "typedef redefinition with different types ('" + typeStr(t.t) + "' vs '" +
                           typeStr(prev) + "')");
    return; // C11: the same typedef may be repeated
  }
  uint32_t depth = depthOf(t.t) + 1;
  checkDepth(depth, d.name_loc);
  TypedefDecl* td = ctx_.createTypedef(intern(name), t.t, srcLoc(d.name_loc));
  td->aligned = aligned;
  td->builtin = builtinLoc(d.name_loc);
  if (t.has_as) typedef_as_[td] = t.as;
  Symbol* s = newSymbol(Symbol::Typedef, d.name_loc);
  s->td = td;
  s->type = QType{ctx_.typedefType(td), t.as, t.has_as};
  setDepth(s->type.t, depth);
  bind(name, s);
  // A typedef names the anonymous struct, union or enum it declares.
  if (ds.record && ds.tag_defined && ds.record->name.empty() && ds.record->typedef_name.empty() &&
      t.t == ctx_.recordType(ds.record)) {
    ds.record->typedef_name = td->name;
    ds.record->typedef_type = s->type.t;
    auto it = std::find(pending_anon_.begin(), pending_anon_.end(), ds.record);
    if (it != pending_anon_.end()) {
      pending_anon_.erase(it);
      tu_.records.push_back(ds.record);
    }
  }
  if (ds.enum_ && ds.tag_defined && ds.enum_->name.empty() && ds.enum_->typedef_name.empty() &&
      t.t == ctx_.enumType(ds.enum_))
    ds.enum_->typedef_name = td->name;
  if (transparent) {
    auto* rt = dyn<RecordType>(stripTypedefs(t.t));
    if (rt && rt->decl->is_union && rt->decl->complete && transparentUnionHolds(rt->decl))
      rt->decl->transparent_union = true;
  }
  if (!td->builtin) tu_.typedefs.push_back(td);
}

void Parser::declareFunction(DeclSpec& ds, QType t, Declarator& d, FunctionType* fn,
                             bool is_definition) {
  (void)t;
  if (ds.kernel) fn->fkind = FunctionKind::Kernel;
  applyFunctionAttrs(ds.attrs, fn, d);
  applyFunctionAttrs(d.attrs, fn, d);
  applyFunctionAttrs(d.chunk_attrs, fn, d);
  if (ds.has_alignas) fail(ds.alignas_loc, "'_Alignas' attribute cannot be applied to a function");
  Ident* name = d.name;
  Symbol* old = lookup(name);
  if (old && old->depth == depth()) {
    if (old->kind != Symbol::Func)
      fail(d.name_loc,
           "redefinition of '" + std::string(name->name) + "' as different kind of symbol");
    FunctionDecl* fd = old->fd;
    if (!compatibleFunction(fd->type, fn))
      fail(d.name_loc, "conflicting types for '" + std::string(name->name) + "'");
    if (is_definition && fd->is_definition)
      fail(d.name_loc, "redefinition of '" + std::string(name->name) + "'");
    if (fn->fkind == FunctionKind::Normal && fd->type->fkind != FunctionKind::Normal)
      fn->fkind = fd->type->fkind;
    // Keep the most informative type: a prototype over none, a definition's names.
    if (is_definition || !fd->type->prototyped) {
      if (!fn->prototyped && fd->type->prototyped) {
        // K&R definition after a prototype: the prototype decides the calling convention.
      } else {
        fd->type = fn;
      }
    }
    if (is_definition) fd->is_definition = true;
    if (ds.storage == kKwStatic) fd->is_static = true;
    return;
  }
  FunctionDecl* fd = ctx_.createFunction(intern(name), fn, srcLoc(d.name_loc));
  fd->is_definition = is_definition;
  fd->is_static = ds.storage == kKwStatic;
  Symbol* s = newSymbol(Symbol::Func, d.name_loc);
  s->fd = fd;
  s->type = QType{fn};
  bind(name, s);
  if (!builtinLoc(d.name_loc)) tu_.functions.push_back(fd);
}

void Parser::declare(DeclSpec& ds, QType t, Declarator& d, bool is_definition) {
  if (!d.name) fail(d.loc, "declaration does not declare anything");
  FunctionType* fn = dyn<FunctionType>(stripTypedefs(t.t))
                         ? const_cast<FunctionType*>(dyn<FunctionType>(stripTypedefs(t.t)))
                         : nullptr;
  if (ds.storage == kKwTypedef) {
    declareTypedef(ds, t, d);
    return;
  }
  if (fn) {
    if (fn != dyn<FunctionType>(t.t)) {
      // Declared through a typedef of a function type: copy it so the declaration owns it.
      FunctionType* copy = ctx_.createFunctionType();
      copy->result = fn->result;
      copy->params = fn->params;
      copy->variadic = fn->variadic;
      copy->prototyped = fn->prototyped;
      copy->fkind = fn->fkind;
      fn = copy;
    }
    declareFunction(ds, t, d, fn, is_definition);
    return;
  }
  if (ds.kernel) fail(ds.loc, "'kernel' can only be used with functions");
  for (const AttrList* list : {&ds.attrs, &d.attrs, &d.chunk_attrs})
    for (const Attr& a : *list)
      if (a.kind == AttrKind::Kernel || a.kind == AttrKind::Vertex)
        fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
  Symbol* old = lookup(d.name);
  if (old && old->depth == depth() && old->kind != Symbol::Var)
    fail(d.name_loc,
         "redefinition of '" + std::string(d.name->name) + "' as different kind of symbol");
  if (old && old->depth == depth()) {
    // A compatible redeclaration completes an incomplete array type.
    if (auto* a = dyn<ArrayType>(stripTypedefs(old->type.t)); a && a->incomplete) old->type = t;
    return;
  }
  Symbol* s = newSymbol(Symbol::Var, d.name_loc);
  s->type = t;
  bind(d.name, s);
  if (ds.storage != kKwExtern && depth() == 0) {
    const Type* c = stripTypedefs(t.t);
    if ((c->kind == TypeKind::Record && !static_cast<const RecordType*>(c)->decl->complete) ||
        (c->kind == TypeKind::Enum && !static_cast<const EnumType*>(c)->decl->complete))
      tentative_.emplace_back(t.t, d.name_loc);
  }
}

void Parser::handleTagOnlyDecl(DeclSpec& ds) {
  // `struct S;`, `enum E {...};`, or a declaration that declares nothing (clang warns).
  (void)ds;
}

void Parser::parseExternalDeclaration() {
  if (tok_.kind == Tok::Semi) {
    consume();
    return;
  }
  if (isKw(kKwStaticAssert)) {
    parseStaticAssert();
    return;
  }
  if (isKw(kKwAsm)) {
    skipAsm();
    if (tok_.kind != Tok::Semi) failUnexpected("';' after top-level asm");
    consume();
    return;
  }
  if (isCxx(lang_) && isKw(kKwExtern) && peekTok(0).kind == Tok::String &&
      peekTok(1).kind == Tok::LBrace) {
    consume();
    if (tok_.text() != "\"C\"" && tok_.text() != "\"C++\"")
      fail(tok_.loc, "unknown linkage language " + std::string(tok_.text()));
    consume();
    Loc open = tok_.loc;
    consume();
    Nest nest(*this, open, "linkage specifications");
    while (tok_.kind != Tok::RBrace) {
      if (tok_.kind == Tok::Eof) fail(open, "expected '}' to end the linkage specification");
      parseExternalDeclaration();
    }
    consume();
    return;
  }
  if (fast_paths && isKw(kKwTypedef) && fastTypedefTag()) return;
  if (fast_paths && tok_.kind == Tok::Ident && fastRecordDefinition()) return;
  DeclSpec ds;
  parseDeclSpec(ds, DeclContext::File);
  finishExternalDeclaration(ds);
}

// The rest of a file-scope declaration after its specifiers `ds`.
void Parser::finishExternalDeclaration(DeclSpec& ds) {
  if (!ds.any) {
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
      Symbol* s = lookup(tok_.ident);
      if (!s) failUnknownTypeName();
      fail(tok_.loc, "expected a declaration (found '" + std::string(tok_.ident->name) + "')");
    }
    if (tok_.kind == Tok::RBrace) fail(tok_.loc, "extraneous closing brace ('}')");
    failUnexpected("a declaration");
  }
  QType base = namedAlone(ds) ? ds.named : finishDeclSpec(ds, DeclContext::File);
  if (tok_.kind == Tok::Semi) {
    handleTagOnlyDecl(ds);
    if (!(fast_paths && fastIdentToken())) consume();
    return;
  }
  if (ds.tag_defined) {
    // After a struct/union/enum body only a declarator or ';' may follow.
    bool declarator_start =
        tok_.kind == Tok::Star || tok_.kind == Tok::LParen || tok_.kind == Tok::Caret ||
        (tok_.kind == Tok::Ident &&
         (tok_.ident->keyword == kKwNone || tok_.ident->keyword == kKwAttribute ||
          tok_.ident->keyword == kKwConst || tok_.ident->keyword == kKwVolatile)) ||
        atAttribute();
    if (!declarator_start) {
      Loc after = prev_.loc;
      after.col += prev_.len;
      after.offset += prev_.len;
      const char* what = ds.record ? (ds.record->is_union ? "union" : "struct") : "enum";
      fail(after, std::string("expected ';' after ") + what);
    }
  }
  for (;;) {
    Declarator d;
    parseDeclarator(d, DeclContext::File, false);
    for (;;) {
      if (atAttribute()) {
        parseAttributes(d.attrs);
        continue;
      }
      if (isKw(kKwAsm)) {
        skipAsm(); // asm label
        continue;
      }
      break;
    }
    FunctionType* fn = nullptr;
    QType t = buildType(ds, base, d, DeclContext::File, &fn);
    bool knr_body = fn && d.has_knr && startsDeclSpec(tok_);
    if (fn && (tok_.kind == Tok::LBrace || knr_body)) {
      if (ds.storage == kKwTypedef) fail(tok_.loc, "function definition declared 'typedef'");
      if (d.has_knr) {
        // K&R parameter declarations, then the body.
        std::vector<std::pair<Ident*, const Type*>> decls;
        while (tok_.kind != Tok::LBrace) {
          if (tok_.kind == Tok::Eof) failUnexpected("'{' to begin the function body");
          DeclSpec ps;
          parseDeclSpec(ps, DeclContext::Param);
          if (!ps.any) failUnexpected("a parameter declaration");
          QType pb = finishDeclSpec(ps, DeclContext::Param);
          for (;;) {
            Declarator pd;
            parseDeclarator(pd, DeclContext::Param, false);
            QType pt = buildType(ps, pb, pd, DeclContext::Param, nullptr);
            if (std::find(d.knr_names.begin(), d.knr_names.end(), pd.name) == d.knr_names.end())
              fail(pd.name_loc, "parameter named '" + std::string(pd.name->name) +
                                    "' is missing from the identifier list");
            decls.emplace_back(pd.name, pt.t);
            if (tok_.kind == Tok::Comma) {
              consume();
              continue;
            }
            break;
          }
          if (tok_.kind != Tok::Semi) failUnexpected("';' after the parameter declaration");
          consume();
        }
        for (Ident* n : d.knr_names) {
          const Type* pt = int_; // undeclared parameters default to int
          for (auto& [id, ty] : decls)
            if (id == n) pt = ty;
          fn->params.push_back({intern(n), pt, srcLoc(d.name_loc)});
        }
      }
      declare(ds, t, d, true);
      skipFunctionBody();
      return;
    }
    if (d.has_knr)
      fail(d.name_loc, "a parameter list without types is only allowed in a function definition");
    if (tok_.kind == Tok::Equal) {
      if (ds.storage == kKwTypedef)
        fail(tok_.loc, "illegal initializer (only variables can be initialized)");
      if (fn) fail(tok_.loc, "illegal initializer (only variables can be initialized)");
      consume();
      skipInitializer();
    }
    declare(ds, t, d, false);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::Semi) {
      consume();
      return;
    }
    if (tok_.kind == Tok::Eof || (tok_.flags & kTokAtLineStart)) {
      Loc after = prev_.loc;
      after.col += prev_.len;
      after.offset += prev_.len;
      fail(after, "expected ';' after top level declarator");
    }
    failUnexpected("';' after top level declarator");
  }
}

} // namespace abikit::detail
