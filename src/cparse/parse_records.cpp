// struct, union and enum specifiers and bodies.
#include "parser.h"

namespace abikit::detail {

// ----- struct, union, enum --------------------------------------------------------------------

namespace {
const char* tagKindName(Kw kw) {
  return kw == kKwStruct ? "struct" : kw == kKwUnion ? "union" : "enum";
}
std::string unterminatedRecord(const RecordDecl* rd) {
  std::string s = std::string("unterminated ") + (rd->is_union ? "union" : "struct");
  if (!rd->name.empty()) s += " '" + std::string(rd->name) + "'";
  return s + " (missing '}')";
}
} // namespace

void Parser::parseTagSpecifier(DeclSpec& ds, DeclContext dc) {
  const Loc kw_loc = tok_.loc;
  Kw kw = Kw(tok_.ident->keyword);
  AttrList attrs;
  Ident* name = nullptr;
  Loc name_loc = kw_loc;
  if (!(fast_paths && kw != kKwEnum && fastTagHead(name, name_loc, false))) {
    consume();
    // Attributes between the keyword and the name (or the body) are the type's. Attributes
    // after the name are not: they belong to the declaration specifiers, and apply to what is
    // declared (`typedef struct S __attribute__((aligned(16))) T;` aligns T, not S), as with
    // clang and GCC; a body after them is an error there too.
    parseAttributes(attrs);
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
      name = tok_.ident;
      name_loc = tok_.loc;
      consume();
    }
  }
  startTagSpec(ds, kw_loc);

  // enum E : T (C23 / clang extension). In a member, `enum E : 3` is a bit-field instead, but
  // not in C++ (CUDA, HIP), where it must name a type.
  const IntType* fixed = nullptr;
  if (kw == kKwEnum && tok_.kind == Tok::Colon && dc == DeclContext::Member && isCxx(lang_) &&
      !startsTypeName(peekTok(0)))
    fail(tok_.loc, "ISO C++ only allows ':' in member enumeration declaration to introduce a "
                   "fixed underlying type, not an anonymous bit-field");
  if (kw == kKwEnum && tok_.kind == Tok::Colon &&
      (dc != DeclContext::Member || startsTypeName(peekTok(0)))) {
    consume();
    Loc at = tok_.loc;
    QType ft = parseTypeName(at);
    const Type* c = stripTypedefs(ft.t);
    if (c->kind == TypeKind::Enum) c = static_cast<const EnumType*>(c)->decl->underlying;
    if (!c || c->kind != TypeKind::Int || static_cast<const IntType*>(c)->is_bitint)
      fail(at, "non-integral type '" + typeStr(ft.t) + "' is an invalid underlying type");
    fixed = static_cast<const IntType*>(c->unqualified);
  }

  bool body = tok_.kind == Tok::LBrace;
  if (!name && !body) {
    if (fixed) fail(kw_loc, "declaration of anonymous enum must be a definition");
    failUnexpected((std::string("an identifier or '{' after '") + tagKindName(kw) + "'").c_str());
  }
  TagSym::Kind want = kw == kKwStruct  ? TagSym::Struct
                      : kw == kKwUnion ? TagSym::Union
                                       : TagSym::Enum;
  TagSym* prev = name ? lookupTag(name) : nullptr;
  bool forward =
      !body && tok_.kind == Tok::Semi && dc != DeclContext::Param && dc != DeclContext::TypeName;
  if (prev && prev->kind != want && (body || forward ? prev->depth == depth() : true))
    fail(name_loc, "use of '" + std::string(name->name) +
                       "' with tag type that does not match previous declaration");

  if (kw == kKwEnum) {
    EnumDecl* ed = nullptr;
    const Type* type = nullptr;
    if (prev && (!(body || forward || fixed) || prev->depth == depth())) {
      ed = prev->ed;
      type = prev->type;
      if (body && ed->complete && !(ed->fixed_underlying && ed->enumerators.empty() && fixed))
        fail(name_loc, "redefinition of 'enum " + std::string(name->name) + "'");
      if (fixed && ed->fixed_underlying && ed->underlying != fixed)
        fail(name_loc, "enumeration redeclared with different underlying type");
    } else {
      ed = ctx_.createEnum(name ? intern(name) : std::string_view(), srcLoc(name_loc));
      type = ctx_.enumType(ed);
      TagSym* ts = newTag(want, name, name_loc);
      ts->ed = ed;
      ts->type = type;
    }
    if (fixed) {
      ed->fixed_underlying = true;
      ed->underlying = fixed;
      ed->complete = true;
    }
    for (const Attr& a : attrs) {
      if (a.kind == AttrKind::Packed)
        ed->packed = true;
      else if (a.kind != AttrKind::Ignored)
        fail(a.loc, "'" + std::string(a.name) + "' attribute cannot be applied to an enum");
    }
    if (body) {
      parseEnumBody(ed, kw_loc);
      AttrList after;
      parseAttributes(after);
      for (const Attr& a : after) {
        if (a.kind == AttrKind::Packed)
          ed->packed = true;
        else if (a.kind != AttrKind::Ignored)
          fail(a.loc, "'" + std::string(a.name) + "' attribute cannot be applied to an enum");
      }
      finishEnum(ed, kw_loc);
      ds.tag_defined = true;
    } else if (!ed->complete && !fixed && !forward && dc != DeclContext::Param &&
               dc != DeclContext::TypeName) {
      // Referring to a never-defined enum is fine until its size is needed.
    }
    ds.tag_forward = !body;
    ds.enum_ = ed;
    ds.named = QType{type};
    return;
  }

  TagSym* ts = prev;
  if (prev && (!(body || forward) || prev->depth == depth())) {
    if (body && prev->rd->complete)
      fail(name_loc, "redefinition of '" + std::string(tagKindName(kw)) + " " +
                         std::string(name->name) + "'");
  } else {
    ts = newRecord(kw, name, name_loc);
  }
  RecordDecl* rd = ts->rd;
  // Attributes on a later declaration of a completed record are ignored (clang warns).
  applyRecordAttrs(rd, kw, attrs, !rd->complete);
  if (body) defineRecord(rd, kw, kw_loc);
  endRecordSpec(ds, ts, body);
}

void Parser::startTagSpec(DeclSpec& ds, const Loc& kw_loc) {
  ds.tag_decl = true;
  ds.setNamed(ds.named, kw_loc);
}

void Parser::endRecordSpec(DeclSpec& ds, const TagSym* ts, bool body) {
  ds.tag_defined |= body;
  ds.tag_forward = !body;
  ds.record = ts->rd;
  ds.named = QType{ts->type};
}

TagSym* Parser::newTag(TagSym::Kind want, Ident* name, const Loc& name_loc) {
  // In the context's storage, next to the record or enum just made there (TagSym is trivially
  // destructible): one stream of new memory rather than two.
  static_assert(std::is_trivially_destructible_v<TagSym>);
  TagSym& ts = *new (ctx_.allocate(sizeof(TagSym), alignof(TagSym))) TagSym();
  ts.kind = want;
  ts.depth = depth();
  ts.loc = name_loc;
  if (name) bindTag(name, &ts);
  return &ts;
}

TagSym* Parser::newRecord(Kw kw, Ident* name, const Loc& name_loc) {
  RecordDecl* rd =
      ctx_.createRecord(name ? intern(name) : std::string_view(), kw == kKwUnion, srcLoc(name_loc));
  TagSym* ts = newTag(kw == kKwUnion ? TagSym::Union : TagSym::Struct, name, name_loc);
  ts->rd = rd;
  ts->type = ctx_.recordType(rd);
  return ts;
}

void Parser::applyRecordAttrs(RecordDecl* rd, Kw kw, const AttrList& list, bool allow) {
  for (const Attr& a : list) {
    switch (a.kind) {
    case AttrKind::Packed:
      if (allow) rd->packed = true;
      break;
    case AttrKind::Aligned:
      if (allow) rd->aligned = std::max<uint32_t>(rd->aligned, uint32_t(attrAlignment(a)));
      break;
    case AttrKind::TransparentUnion:
      if (allow) rd->transparent_union = true;
      break;
    case AttrKind::MsStruct:
      if (allow) rd->ms_struct = true;
      break;
    case AttrKind::GccStruct:
      if (allow) rd->gcc_struct = true;
      break;
    case AttrKind::Ignored:
      break;
    default:
      fail(a.loc,
           "'" + std::string(a.name) + "' attribute cannot be applied to a " + tagKindName(kw));
    }
  }
}

void Parser::defineRecord(RecordDecl* rd, Kw kw, const Loc& kw_loc) {
  rd->max_field_align = pp_.packAlignment();
  rd->ms_struct = pp_.msStructOn();
  size_t base = member_n_;
  parseRecordBody(rd, kw_loc);
  AttrList after;
  parseAttributes(after);
  applyRecordAttrs(rd, kw, after, true);
  checkRecord(rd, kw_loc, base);
  member_n_ = base;
}

void Parser::parseRecordBody(RecordDecl* rd, const Loc& open) {
  Nest nest(*this, open, "structs");
  size_t base = member_n_;
  BodyState body;
  body.rd = rd;
  body.stamp = ++mark_;
  body.clean = fast_paths;
  if (!(fast_paths && fastMembers(body, true))) consume(); // {
  for (;;) {
    if (tok_.kind == Tok::RBrace) break;
    if (tok_.kind == Tok::Eof) fail(open, unterminatedRecord(rd));
    if (tok_.kind == Tok::Semi) {
      consume();
      continue;
    }
    if (fast_paths && tok_.kind == Tok::Ident && fastMembers(body)) continue;
    body.clean = false;
    if (isKw(kKwStaticAssert)) {
      parseStaticAssert();
      continue;
    }
    parseMember(rd);
  }
  if (!(fast_paths && fastSemiToken())) consume(); // }
  rd->fields =
      FieldList(member_stack_.begin() + ptrdiff_t(base),
                member_stack_.begin() + ptrdiff_t(member_n_), DeclAllocator<FieldDecl>(&ctx_));
  last_body_ = body;
}

void Parser::parseMember(RecordDecl* rd) {
  DeclSpec ds;
  bool basic = false; // the specifiers are basic type keywords and const/volatile only
  Loc start = tok_.loc;
  Symbol* s =
      tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone ? lookup(tok_.ident) : nullptr;
  if (s && s->kind == Symbol::Typedef) {
    // A member whose type is a typedef name: what parseDeclSpec() does for that name; a '*' or
    // the member's name after it ends the specifiers, anything else goes to the general loop.
    ds.loc = start;
    ds.setNamed(s->type, start);
    ds.is_typedef_name = true;
    consume();
    if (tok_.kind != Tok::Star && !(tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone))
      parseDeclSpecRest(ds, DeclContext::Member);
  } else if (tok_.kind == Tok::Ident) {
    // Basic type keywords and const/volatile, with what parseDeclSpec() does for each; a
    // keyword that conflicts with the ones before and anything else go to the general loop,
    // which reads on from the same state (and reports the conflict).
    ds.loc = start;
    while (tok_.kind == Tok::Ident) {
      bool first = !ds.anyType();
      SpecSet::Step step = ds.spec.addBasic(tok_.ident->keyword);
      if (step == SpecSet::Other) break; // not handled here (or a conflict)
      if (step == SpecSet::TypeSpecifier && first) ds.type_loc = tok_.loc;
      ds.any = true;
      consume();
    }
    if (!(ds.anyType() &&
          (tok_.kind == Tok::Star || (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone))))
      parseDeclSpecRest(ds, DeclContext::Member);
    else
      basic = true;
  } else {
    parseDeclSpec(ds, DeclContext::Member);
  }
  if (!ds.any) {
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) failUnknownTypeName();
    if (tok_.kind == Tok::Eof) fail(start, unterminatedRecord(rd));
    failUnexpected("a member declaration");
  }
  if (ds.kernel) fail(start, "'kernel' can only be used with functions");
  QType base = namedAlone(ds) ? ds.named : finishDeclSpec(ds, DeclContext::Member);
  if (basic) {
    if (basic_types_.empty()) basic_types_.resize(kBasicKeys);
    basic_types_[ds.spec.basicKey()] = base;
  }
  if (tok_.kind == Tok::Semi) {
    // An anonymous struct or union member, or a declaration that declares no member.
    if (ds.record && ds.tag_defined && ds.record->name.empty() && ds.record != rd) {
      FieldDecl f;
      f.type = base.t;
      f.loc = srcLoc(ds.type_loc);
      for (const Attr& a : ds.attrs) {
        if (a.kind == AttrKind::Packed) f.packed = true;
        if (a.kind == AttrKind::Aligned)
          f.aligned = std::max<uint32_t>(f.aligned, uint32_t(attrAlignment(a)));
      }
      if (ds.has_alignas && ds.alignas_)
        f.aligned = std::max<uint32_t>(f.aligned, uint32_t(ds.alignas_));
      pushMember(ds.type_loc, nullptr) = f;
    }
    consume();
    return;
  }
  for (;;) {
    Declarator d;
    d.loc = tok_.loc;
    if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
      // A declarator that starts with its name: what parseDeclarator() does for it.
      d.name = tok_.ident;
      d.name_loc = tok_.loc;
      consume();
      if (tok_.kind == Tok::LBracket || tok_.kind == Tok::LParen)
        parseDeclaratorSuffixes(d, d.chunks, DeclContext::Member, 0);
    } else if (tok_.kind == Tok::Star) {
      // Pointers, then (usually) the name: the same steps as parseDeclarator().
      parsePointers(d, d.chunks);
      if (tok_.kind == Tok::Ident && tok_.ident->keyword == kKwNone) {
        d.name = tok_.ident;
        d.name_loc = tok_.loc;
        consume();
        if (tok_.kind == Tok::LBracket || tok_.kind == Tok::LParen)
          parseDeclaratorSuffixes(d, d.chunks, DeclContext::Member, 0);
      } else {
        parseDirectDeclarator(d, d.chunks, DeclContext::Member, false, 0);
      }
    } else if (tok_.kind != Tok::Colon) {
      parseDeclarator(d, DeclContext::Member, false);
    }
    parseAttributes(d.attrs);
    int32_t width = -1;
    Loc width_loc;
    // clang reports bit-field errors at the name (at the type for an unnamed bit-field).
    const Loc field_at = d.name ? d.name_loc : ds.type_loc;
    if (tok_.kind == Tok::Colon) {
      consume();
      width_loc = tok_.loc;
      __int128 w = 0;
      const Type* wt = nullptr;
      evalInt("bit-field width", width_loc, false, &w, &wt);
      auto fname = [&]() {
        return d.name ? "'" + std::string(d.name->name) + "' " : std::string();
      };
      if (w < 0) {
        std::string ws =
            w < -(__int128(1) << 62) ? std::string("huge") : std::to_string(int64_t(w));
        fail(field_at, "bit-field " + fname() + "has negative width (" + ws + ")");
      }
      if (w > 0x7FFFFFFF) fail(field_at, "bit-field " + fname() + "is too wide");
      width = int32_t(w);
      parseAttributes(d.attrs);
    }
    FunctionType* fn = nullptr;
    // A plain name has the specifiers' type (buildType() returns it at once).
    QType t = d.chunks.empty() && ds.attrs.empty() && d.attrs.empty()
                  ? base
                  : buildType(ds, base, d, DeclContext::Member, &fn);
    addMember(t, d.name, field_at, width, &ds, &d.attrs);
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::Semi) {
      consume();
      return;
    }
    if (tok_.kind == Tok::Eof) fail(prev_.loc, unterminatedRecord(rd));
    failUnexpected("';' at end of declaration list");
  }
}

// The checks and the FieldDecl of one member declarator of type `t` (`name` null for an unnamed
// bit-field or member; `width` -1 if not a bit-field), errors reported at `at`. `ds` and `dattrs`
// (the specifiers and the declarator's attributes) may be null: none.
void Parser::addMember(const QType& t, Ident* name, const Loc& at, int32_t width,
                       const DeclSpec* ds, const AttrList* dattrs) {
  auto shown = [&]() { return name ? "'" + std::string(name->name) + "' " : std::string(); };
  if (t.has_as) fail(at, "field may not be qualified with an address space");
  const Type* c = stripTypedefs(t.t);
  if (c->kind == TypeKind::Function) fail(at, "field " + shown() + "declared as a function");
  if (c->kind == TypeKind::Void) fail(at, "field " + shown() + "has incomplete type 'void'");
  if (auto* r = dyn<RecordType>(c); r && !r->decl->complete)
    fail(at, "field " + shown() + "has incomplete type '" + typeStr(t.t) + "'");
  if (auto* e = dyn<EnumType>(c); e && !e->decl->complete)
    fail(at, "field " + shown() + "has incomplete type '" + typeStr(t.t) + "'");
  if (c->kind == TypeKind::OpenCL)
    fail(at, "the OpenCL type '" + typeStr(t.t) + "' cannot be used for a field");
  uint32_t aligned = 0;
  bool packed = false;
  if (width >= 0) {
    if (c->kind != TypeKind::Int && c->kind != TypeKind::Enum)
      fail(at, "bit-field " + shown() + "has non-integral type '" + typeStr(t.t) + "'");
    unsigned bits = intBits(c);
    if (c->kind == TypeKind::Int && static_cast<const IntType*>(c)->ikind == IntKind::Bool &&
        !static_cast<const IntType*>(c)->is_bitint)
      bits = 1;
    if (unsigned(width) > bits)
      fail(at, "bit-field " + shown() + "is wider than its type (" + std::to_string(width) +
                   " bits > " + std::to_string(bits) + ")");
    if (width == 0 && name)
      fail(at, "named bit-field '" + std::string(name->name) + "' has zero width");
  }
  if ((ds && !ds->attrs.empty()) || (dattrs && !dattrs->empty()))
    for (const AttrList* list : {ds ? &ds->attrs : nullptr, dattrs}) {
      if (!list || list->empty()) continue;
      for (const Attr& a : *list) {
        switch (a.kind) {
        case AttrKind::Packed:
          packed = true;
          break;
        case AttrKind::Aligned:
          aligned = std::max<uint32_t>(aligned, uint32_t(attrAlignment(a)));
          break;
        case AttrKind::Kernel:
        case AttrKind::Vertex:
          fail(a.loc, "'" + std::string(a.name) + "' attribute only applies to functions");
        case AttrKind::TransparentUnion:
          fail(a.loc, "'transparent_union' attribute only applies to unions and typedefs");
        default:
          break;
        }
      }
    }
  if (ds && ds->has_alignas) {
    if (width >= 0) fail(ds->alignas_loc, "'_Alignas' attribute cannot be applied to a bit-field");
    if (ds->alignas_) {
      uint32_t natural = alignOf(t.t, ds->alignas_loc, false);
      if (ds->alignas_ < natural)
        fail(ds->alignas_loc, "requested alignment is less than minimum alignment of " +
                                  std::to_string(natural) + " for type '" + typeStr(t.t) + "'");
      aligned = std::max<uint32_t>(aligned, uint32_t(ds->alignas_));
    }
  }
  FieldDecl& f = pushMember(at, name); // every field written: the slot may hold an old member
  f.name = name ? intern(name) : std::string_view();
  f.type = t.t;
  f.bit_width = width;
  f.aligned = aligned;
  f.packed = packed;
  f.loc = srcLoc(at);
}

// transparent_union: clang drops it (with a warning) unless `rd` is a union with members, every
// member has the first member's size and at most its alignment, and the first member is not
// floating-point.
bool Parser::transparentUnionHolds(const RecordDecl* rd) const {
  if (!rd->is_union || rd->fields.empty()) return false;
  const Type* first = stripTypedefs(rd->fields[0].type);
  if (first->kind == TypeKind::Float || first->kind == TypeKind::Vector) return false;
  bool keep = true;
  TypeLayout fl = layout_.of(rd->fields[0].type);
  for (const FieldDecl& f : rd->fields) { // every member's layout asked for (it may fail)
    TypeLayout l = layout_.of(f.type);
    if (l.size != fl.size || l.align > fl.align) keep = false;
  }
  return keep;
}

void Parser::checkRecord(RecordDecl* rd, const Loc& at, size_t base) {
  const MemberInfo* info = member_info_.data() + base;
  size_t n = rd->fields.size();
  uint32_t depth = 0;
  // The common case in one pass: no flexible array member, no anonymous struct/union member,
  // no duplicate name. Anything else (before an error can be reported) goes to the checks
  // below, which report the same first error as always.
  bool checked = false;
  if (last_body_.rd == rd && last_body_.clean) {
    // Every member came through the fast path, which has made these checks.
    checked = true;
    depth = last_body_.depth;
    last_body_.rd = nullptr;
  } else if (fast_paths) {
    uint32_t stamp = ++mark_;
    const FieldDecl* fields = rd->fields.data();
    size_t i = 0;
    for (; i < n; ++i) {
      const FieldDecl& f = fields[i];
      const Type* u = f.type->unqualified;
      if (u->kind == TypeKind::Array || u->kind == TypeKind::Typedef) {
        auto* arr = dyn<ArrayType>(stripTypedefs(f.type));
        if (arr && arr->incomplete) break;
      }
      Ident* id = info[i].name;
      if (id) {
        if (id->mark == stamp) break;
        id->mark = stamp;
      } else if (f.name.empty() && f.bit_width < 0) {
        break;
      }
      depth = std::max(depth, depthOf(f.type));
    }
    checked = i == n;
  }
  if (!checked) checkMembers(rd, info, n, depth);
  checkDepth(depth + 1, at);
  setDepth(ctx_.recordType(rd), depth + 1);
  rd->complete = true;
  if (rd->transparent_union) {
    rd->transparent_union = transparentUnionHolds(rd);
  }
  if (!rd->name.empty() && !builtinLoc(at))
    tu_.records.push_back(rd);
  else if (rd->name.empty() && !builtinLoc(at))
    pending_anon_.push_back(rd);
}

void Parser::checkMembers(const RecordDecl* rd, const MemberInfo* info, size_t n, uint32_t& depth) {
  // Flexible array members.
  for (size_t i = 0; i < n; ++i) {
    const FieldDecl& f = rd->fields[i];
    if (f.type->unqualified->kind != TypeKind::Array &&
        f.type->unqualified->kind != TypeKind::Typedef)
      continue;
    auto* arr = dyn<ArrayType>(stripTypedefs(f.type));
    if (!arr || !arr->incomplete) continue;
    std::string fname = std::string(f.name);
    const Loc& l = info[i].loc;
    // clang 19 and later accept one in a union (anywhere) or alone in a struct (GNU), and so
    // does C++ (CUDA, HIP).
    const bool anywhere =
        compilerInfo(ctx_.target().compiler).flexible_array_anywhere || isCxx(lang_);
    if (rd->is_union && !anywhere)
      fail(l, "flexible array member '" + fname + "' in a union is not allowed");
    if (rd->is_union) continue;
    if (i + 1 != n)
      fail(l, "flexible array member '" + fname + "' with type '" + typeStr(f.type) +
                  "' is not at the end of " + rd->displayName(ctx_));
    bool others = false;
    for (size_t j = 0; j < i; ++j)
      if (!rd->fields[j].isUnnamedBitField()) others = true;
    if (!others && !anywhere)
      fail(l, "flexible array member '" + fname + "' not allowed in otherwise empty " +
                  std::string(rd->is_union ? "union" : "struct"));
  }
  // Duplicate member names, looking through anonymous members: each name's Ident is marked
  // with this record's stamp.
  uint32_t stamp = ++mark_;
  auto seen = [&](Ident* id, size_t i) {
    if (id->mark == stamp) fail(info[i].loc, "duplicate member '" + std::string(id->name) + "'");
    id->mark = stamp;
  };
  for (size_t i = 0; i < n; ++i) {
    const FieldDecl& f = rd->fields[i];
    if (info[i].name) {
      seen(info[i].name, i);
      continue;
    }
    if (!f.name.empty() || f.bit_width >= 0) continue;
    auto* rt = dyn<RecordType>(stripTypedefs(f.type));
    if (!rt) continue;
    std::vector<const RecordDecl*> stack{rt->decl};
    while (!stack.empty()) {
      const RecordDecl* r = stack.back();
      stack.pop_back();
      for (const FieldDecl& g : r->fields) {
        if (!g.name.empty())
          seen(ids_.get(g.name), i);
        else if (g.bit_width < 0)
          if (auto* inner = dyn<RecordType>(stripTypedefs(g.type))) stack.push_back(inner->decl);
      }
    }
  }
  depth = 0;
  for (const FieldDecl& f : rd->fields) depth = std::max(depth, depthOf(f.type));
}

void Parser::parseEnumBody(EnumDecl* ed, const Loc& open) {
  consume(); // {
  __int128 next = 0;
  bool first = true;
  const __int128 kMin = -(__int128(1) << 63);
  const __int128 kMax = (__int128(1) << 64) - 1;
  for (;;) {
    if (tok_.kind == Tok::RBrace) break;
    if (tok_.kind == Tok::Eof) fail(open, "unterminated enum (missing '}')");
    if (tok_.kind != Tok::Ident || tok_.ident->keyword != kKwNone)
      failUnexpected("an enumerator name");
    Ident* name = tok_.ident;
    Loc at = tok_.loc;
    consume();
    AttrList attrs;
    parseAttributes(attrs);
    __int128 value;
    const Type* vt = nullptr;
    if (tok_.kind == Tok::Equal) {
      consume();
      Loc eat = tok_.loc;
      evalInt("enumerator value", eat, false, &value, &vt);
      if (ed->fixed_underlying) {
        unsigned bits = intBits(ed->underlying);
        bool sgn = ed->underlying->is_signed;
        __int128 lo = sgn ? -(__int128(1) << (bits - 1)) : 0;
        __int128 hi = sgn ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
        if (value < lo || value > hi)
          fail(eat, "enumerator value is not representable in the underlying type '" +
                        typeStr(ed->underlying) + "'");
      }
    } else {
      value = first ? 0 : next;
      if (value > kMax) fail(at, "enumerator value is not representable in any integer type");
      if (ed->fixed_underlying) {
        unsigned bits = intBits(ed->underlying);
        bool sgn = ed->underlying->is_signed;
        __int128 hi = sgn ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
        if (value > hi) fail(at, "enumerator value is not representable in the underlying type");
      } else if (!first && value == (__int128(1) << 31) && vt == nullptr) {
        // clang C: the value after INT_MAX overflows int ("overflow in enumeration value").
      }
    }
    if (value < kMin || value > kMax)
      fail(at, "enumerator value is not representable in any integer type");
    first = false;
    next = value + 1;
    Symbol* old = lookup(name);
    if (old && old->depth == depth()) {
      if (old->kind == Symbol::EnumConst)
        fail(at, "redefinition of enumerator '" + std::string(name->name) + "'");
      fail(at, "redefinition of '" + std::string(name->name) + "' as different kind of symbol");
    }
    Symbol* s = newSymbol(Symbol::EnumConst, at);
    s->value = value;
    // While the enum is being defined an enumerator has the type of its value.
    const DataModel& d = ctx_.data();
    auto fits = [&](IntKind k) {
      unsigned bits = d.of(k).size * 8u;
      bool sgn = k == IntKind::Int || k == IntKind::Long || k == IntKind::LongLong;
      __int128 lo = sgn ? -(__int128(1) << (bits - 1)) : 0;
      __int128 hi = sgn ? (__int128(1) << (bits - 1)) - 1 : (__int128(1) << bits) - 1;
      return value >= lo && value <= hi;
    };
    const Type* st = int_;
    if (ed->fixed_underlying)
      st = ed->underlying;
    else if (!fits(IntKind::Int)) {
      for (IntKind k : {IntKind::Long, IntKind::LongLong, IntKind::ULongLong})
        if (fits(k)) {
          st = ctx_.intType(k);
          break;
        }
    }
    s->type = QType{st};
    bind(name, s);
    ed->enumerators.push_back({intern(name), value, srcLoc(at)});
    if (tok_.kind == Tok::Comma) {
      consume();
      continue;
    }
    if (tok_.kind == Tok::RBrace) break;
    if (tok_.kind == Tok::Eof) fail(open, "unterminated enum (missing '}')");
    failUnexpected("',' or '}' after an enumerator");
  }
  consume(); // }
  if (ed->enumerators.empty()) fail(open, "use of empty enum");
}

void Parser::finishEnum(EnumDecl* ed, const Loc& at) {
  const DataModel& d = ctx_.data();
  if (!ed->fixed_underlying && d.ms_enums) {
    // The Microsoft ABI: every enum is an int, and each value is converted to int (clang warns
    // and keeps the low 32 bits, as MSVC does).
    for (Enumerator& e : ed->enumerators)
      e.value = int32_t(uint32_t(uint64_t(e.value) & 0xffffffffu));
    ed->underlying = ctx_.intType(IntKind::Int);
  } else if (!ed->fixed_underlying) {
    unsigned neg_bits = 0, pos_bits = 0;
    for (const Enumerator& e : ed->enumerators) {
      __int128 v = e.value;
      if (v >= 0) {
        unsigned b = 0;
        for (unsigned __int128 u = (unsigned __int128)v; u; u >>= 1) ++b;
        pos_bits = std::max(pos_bits, b);
      } else {
        // minimum signed bits: bits of ~v plus the sign bit
        unsigned b = 1;
        for (unsigned __int128 u = (unsigned __int128)(~v); u; u >>= 1) ++b;
        neg_bits = std::max(neg_bits, b);
      }
    }
    const unsigned cw = 8, sw = d.of(IntKind::Short).size * 8u, iw = d.of(IntKind::Int).size * 8u,
                   lw = d.of(IntKind::Long).size * 8u, llw = d.of(IntKind::LongLong).size * 8u;
    IntKind k;
    bool packed = ed->packed;
    if (neg_bits) {
      if (packed && neg_bits <= cw && pos_bits < cw)
        k = IntKind::SChar;
      else if (packed && neg_bits <= sw && pos_bits < sw)
        k = IntKind::Short;
      else if (neg_bits <= iw && pos_bits < iw)
        k = IntKind::Int;
      else if (neg_bits <= lw && pos_bits < lw)
        k = IntKind::Long;
      else {
        if (neg_bits > llw || pos_bits >= llw)
          fail(at, "enumeration values exceed the range of the largest integer type");
        k = IntKind::LongLong;
      }
    } else {
      if (packed && pos_bits <= cw)
        k = IntKind::UChar;
      else if (packed && pos_bits <= sw)
        k = IntKind::UShort;
      else if (pos_bits <= iw)
        k = IntKind::UInt;
      else if (pos_bits <= lw)
        k = IntKind::ULong;
      else if (pos_bits <= llw)
        k = IntKind::ULongLong;
      else
        fail(at, "enumeration values exceed the range of the largest integer type");
    }
    ed->underlying = ctx_.intType(k);
  }
  ed->complete = true;
  // Enumerator types after the definition: C gives int when the value fits, else the enum's
  // integer type; C++ gives the enum type itself; a fixed type gives that type.
  bool cxx = isCxx(lang_);
  unsigned iw = ctx_.data().of(IntKind::Int).size * 8u;
  for (const Enumerator& e : ed->enumerators) {
    Ident* id = ids_.get(e.name);
    Symbol* s = lookup(id);
    if (!s || s->kind != Symbol::EnumConst) continue;
    s->value = e.value;
    bool fits_int = e.value >= -(__int128(1) << (iw - 1)) && e.value < (__int128(1) << (iw - 1));
    if (cxx)
      s->type = QType{ctx_.enumType(ed)};
    else if (ed->fixed_underlying)
      s->type = QType{ed->underlying};
    else
      s->type = QType{fits_int ? int_ : static_cast<const Type*>(ed->underlying)};
  }
  if (!builtinLoc(at)) tu_.enums.push_back(ed);
}

} // namespace abikit::detail
