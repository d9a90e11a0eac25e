// The preprocessor of the C declaration front-end: directives, macro expansion (object- and
// function-like, variadic, # and ##, __VA_OPT__, rescanning without self-recursion), #include
// with the built-in headers, #if expressions, and #pragma pack/once/push_macro/pop_macro.
#include "cparse_pp.h"

#include "abikit/diag.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace abikit::detail {

namespace {
constexpr size_t kMaxIncludeDepth = 200;
constexpr unsigned kMaxExpandDepth = 256;
constexpr uint64_t kMaxExpansionTokens = uint64_t(1) << 22;
// Tokens held at once by the macro invocations being expanded: their arguments and the copies
// made to pre-expand them, across every nesting level (F(F(F(...))) holds the rest of the line
// once per level). Bounds the memory of expansion whatever the nesting (2^21 tokens: 80 MB).
constexpr uint64_t kMaxHeldTokens = uint64_t(1) << 21;
constexpr uint64_t kMaxIncludedFiles = 100000;
constexpr unsigned kMaxExprDepth = 512;
} // namespace

// ----- set-up ---------------------------------------------------------------------------------

Preprocessor::Preprocessor(TypeContext& ctx, const ParseOptions& options, IdentTable& idents,
                           StringArena& arena, PpQueries queries)
    : ctx_(ctx), options_(options), idents_(idents), arena_(arena), queries_(std::move(queries)) {
  auto id = [&](const char* s) { return idents_.get(s); };
  id_defined_ = id("defined");
  id_defined_->pp_special = kPpDefined;
  id_va_args_ = id("__VA_ARGS__");
  id_va_args_->pp_special = kPpVaArgs;
  id_va_opt_ = id("__VA_OPT__");
  id_va_opt_->pp_special = kPpVaOpt;
  id_define_ = id("define");
  id_undef_ = id("undef");
  id_include_ = id("include");
  id_include_next_ = id("include_next");
  id_import_ = id("import");
  id_if_ = id("if");
  id_ifdef_ = id("ifdef");
  id_ifndef_ = id("ifndef");
  id_elif_ = id("elif");
  id_elifdef_ = id("elifdef");
  id_elifndef_ = id("elifndef");
  id_else_ = id("else");
  id_endif_ = id("endif");
  id_line_ = id("line");
  id_error_ = id("error");
  id_warning_ = id("warning");
  id_pragma_ = id("pragma");
  id_ident_ = id("ident");
  id_sccs_ = id("sccs");
  id_once_ = id("once");
  id_pack_ = id("pack");
  id_push_ = id("push");
  id_pop_ = id("pop");
  id_show_ = id("show");
  id_push_macro_ = id("push_macro");
  id_pop_macro_ = id("pop_macro");
  id_clang_ = id("clang");
  id_attribute_ = id("attribute");
  id_ms_struct_ = id("ms_struct");
  id_on_ = id("on");
  id_GCC_ = id("GCC");
  id_poison_ = id("poison");
  id_STDC_ = id("STDC");

  defineBuiltin("__FILE__", kPpFile);
  defineBuiltin("__LINE__", kPpLine);
  defineBuiltin("__COUNTER__", kPpCounter);
  defineBuiltin("__INCLUDE_LEVEL__", kPpIncludeLevel);
  defineBuiltin("__BASE_FILE__", kPpBaseFile);
  defineBuiltin("__DATE__", kPpDate);
  defineBuiltin("__TIME__", kPpTime);
  defineBuiltin("__TIMESTAMP__", kPpTimestamp);
  defineBuiltin("_Pragma", kPpPragmaOp);
  defineBuiltin("__has_include", kPpHasInclude);
  defineBuiltin("__has_include_next", kPpHasIncludeNext);
  defineBuiltin("__has_attribute", kPpHasAttribute);
  defineBuiltin("__has_c_attribute", kPpHasCAttribute);
  defineBuiltin("__has_declspec_attribute", kPpHasDeclspecAttribute);
  defineBuiltin("__has_builtin", kPpHasBuiltin);
  defineBuiltin("__has_feature", kPpHasFeature);
  defineBuiltin("__has_extension", kPpHasExtension);
  defineBuiltin("__has_warning", kPpHasWarning);
  defineBuiltin("__is_identifier", kPpIsIdentifier);
  defineBuiltin("__building_module", kPpBuildingModule);
}

Preprocessor::~Preprocessor() = default;

Macro* Preprocessor::defineBuiltin(const char* name, uint8_t kind) {
  Macro& m = macros_.emplace_back();
  m.name = idents_.get(name);
  m.builtin = kind;
  idents_.setMacro(m.name, &m);
  return &m;
}

uint32_t Preprocessor::wcharBits() const {
  return ctx_.data().of(ctx_.data().wchar_type).size * 8u;
}

int Preprocessor::addBorrowedBuffer(std::string path, std::string_view padded, bool builtin) {
  auto b = std::make_unique<SourceBuffer>();
  b->file_id = ctx_.addFile(path);
  size_t slash = path.rfind('/');
  b->dir = slash == std::string::npos ? std::string() : path.substr(0, slash);
  if (slash == 0) b->dir = "/";
  b->path = std::move(path);
  b->size = padded.size();
  b->data = padded.data();
  b->builtin = builtin;
  buffers_.push_back(std::move(b));
  return int(buffers_.size() - 1);
}

int Preprocessor::addBuffer(std::string path, std::string text, bool builtin) {
  int index = addBorrowedBuffer(std::move(path), {}, builtin);
  SourceBuffer* b = buffers_[size_t(index)].get();
  b->size = text.size();
  if (text.capacity() >= text.size() + kLexPadding) {
    b->text = std::move(text); // the padding fits: no copy
  } else {
    // An exact allocation (appending to a full string would double its capacity).
    b->text.reserve(text.size() + kLexPadding);
    b->text.append(text);
  }
  b->text.append(kLexPadding, '\0');
  b->data = b->text.data();
  return index;
}

void Preprocessor::enterBuffer(int buf) {
  if (files_.size() >= kMaxIncludeDepth)
    error(files_.back()->lexer.locAt(files_.back()->lexer.cur()),
          "#include nested too deeply (more than 200 levels)");
  if (++included_files_ > kMaxIncludedFiles)
    error(files_.back()->lexer.locAt(files_.back()->lexer.cur()),
          "too many #include directives (more than 100000 files entered)");
  buffers_[size_t(buf)]->entered = true;
  files_.push_back(
      std::make_unique<FileState>(*buffers_[size_t(buf)], buf, idents_, arena_, conds_.size()));
}

void Preprocessor::setupPredefines(std::string& out) {
  out.reserve(32768);
  for (const auto& [name, value] : predefinedMacros(ctx_.target(), ctx_.language())) {
    out += "#define ";
    out += name;
    out += ' ';
    out += value;
    out += '\n';
  }
  out += languagePrelude(ctx_);
  out += "# 1 \"<command line>\"\n";
  for (const auto& [name, value] : options_.defines) {
    out += "#define ";
    out += name;
    out += ' ';
    out += value ? *value : std::string("1");
    out += '\n';
  }
  for (const std::string& name : options_.undefines) {
    out += "#undef ";
    out += name;
    out += '\n';
  }
}

void Preprocessor::enterMainFile(std::string path, std::string text) {
  main_path_ = path;
  enterMain(addBuffer(std::move(path), std::move(text), false));
}

void Preprocessor::enterMainFileBorrowed(std::string path, std::string_view padded) {
  main_path_ = path;
  enterMain(addBorrowedBuffer(std::move(path), padded, false));
}

void Preprocessor::enterTextAfterEnd(std::string name, std::string text) {
  int buf = addBuffer(std::move(name), std::move(text), false);
  files_.back() =
      std::make_unique<FileState>(*buffers_[size_t(buf)], buf, idents_, arena_, conds_.size());
  files_.back()->no_directives = true;
  files_.back()->guard = FileState::kInvalid;
}

void Preprocessor::enterMain(int main_buf) {
  text_bytes_ = buffers_[size_t(main_buf)]->size;
  std::string pre;
  setupPredefines(pre);
  int pre_buf = addBuffer("<built-in>", std::move(pre), true);
  // The predefines are read first, then the main file.
  buffers_[size_t(main_buf)]->entered = true;
  files_.push_back(
      std::make_unique<FileState>(*buffers_[size_t(main_buf)], main_buf, idents_, arena_, 0));
  enterBuffer(pre_buf);
}

// ----- diagnostics ----------------------------------------------------------------------------

std::string_view Preprocessor::sourceLine(const Loc& loc) const {
  if (loc.buf >= buffers_.size()) return {};
  std::string_view text(buffers_[loc.buf]->data, buffers_[loc.buf]->size);
  size_t off = std::min<size_t>(loc.offset, text.size());
  size_t begin = off == 0 ? std::string_view::npos : text.rfind('\n', off - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  size_t end = text.find('\n', off);
  if (end == std::string_view::npos) end = text.size();
  return text.substr(begin, end - begin);
}

void Preprocessor::error(const Loc& loc, std::string message, bool unsupported) const {
  throw SourceError{loc, std::move(message), unsupported};
}

// ----- token sources --------------------------------------------------------------------------

std::vector<Token>* Preprocessor::takeVector() {
  if (!pool_.empty()) {
    std::vector<Token>* v = pool_.back();
    pool_.pop_back();
    v->clear();
    return v;
  }
  all_vectors_.push_back(std::make_unique<std::vector<Token>>());
  return all_vectors_.back().get();
}

void Preprocessor::giveVector(std::vector<Token>* v) {
  pool_.push_back(v);
}

void Preprocessor::pushTokens(std::vector<Token>* toks, Macro* macro) {
  if (macro) macro->disabled = true;
  exp_.push_back({toks->data(), uint32_t(toks->size()), 0, macro, toks});
}

void Preprocessor::popContext() {
  ExpCtx& c = exp_.back();
  if (c.macro) c.macro->disabled = false;
  if (c.storage) giveVector(c.storage);
  exp_.pop_back();
}

void Preprocessor::pushBack(const Token& t) {
  std::vector<Token>* v = takeVector();
  v->push_back(t);
  pushTokens(v, nullptr);
}

void Preprocessor::lexUnexpanded(Token& t) {
  while (!exp_.empty()) {
    ExpCtx& c = exp_.back();
    if (c.i < c.n) {
      t = c.toks[c.i++];
      return;
    }
    popContext();
  }
  expanded_tokens_ = 0;
  lexFile(t);
}

void Preprocessor::lexFile(Token& t) {
  for (;;) {
    FileState& f = *files_.back();
    f.lexer.lex(t);
    if ((t.kind == Tok::Hash || t.kind == Tok::Eof) && !fileToken(t)) continue;
    if (!f.lexer.in_directive && f.guard != FileState::kInGuard) f.guard = FileState::kInvalid;
    return;
  }
}

bool Preprocessor::fileToken(Token& t) {
  FileState& f = *files_.back();
  if (t.kind == Tok::Hash) {
    if ((t.flags & kTokAtLineStart) && !f.lexer.in_directive && !f.no_directives) {
      handleDirective(t);
      return false;
    }
    return true;
  }
  // End of a file.
  if (conds_.size() > f.cond_base) {
    const Cond& c = conds_.back();
    error(c.loc, std::string("unterminated ") + c.what + " (missing #endif)");
  }
  if (f.guard == FileState::kAfterEndif) buffers_[size_t(f.buf)]->guard = f.guard_macro;
  if (files_.size() == 1) return true;
  files_.pop_back();
  return false;
}

// ----- expansion ------------------------------------------------------------------------------

void Preprocessor::nextSlow(Token& t, bool lexed) {
  for (;;) {
    if (lexed || exp_.empty()) {
      FileState& f = *files_.back();
      if (!lexed) f.lexer.lex(t);
      lexed = false;
      if (t.kind == Tok::Ident) {
        if (f.guard != FileState::kInvalid && f.guard != FileState::kInGuard &&
            !f.lexer.in_directive)
          f.guard = FileState::kInvalid;
        if (!t.ident->macro) return;
        expanded_tokens_ = 0;
      } else {
        if (t.kind == Tok::Hash || t.kind == Tok::Eof) {
          if (fileToken(t)) return;
          continue;
        }
        if (f.guard != FileState::kInvalid && f.guard != FileState::kInGuard &&
            !f.lexer.in_directive)
          f.guard = FileState::kInvalid;
        return;
      }
    } else {
      lexUnexpanded(t);
      if (t.kind != Tok::Ident) return;
    }
    Macro* m = t.ident->macro;
    if (!m || (t.flags & kTokNoExpand)) return;
    if (m->disabled) {
      t.flags |= kTokNoExpand;
      return;
    }
    if (m->builtin) {
      if (expandBuiltin(m, t)) return;
      continue;
    }
    if (!m->function_like) {
      ObjectLike r = expandObjectLike(m, t);
      if (r == ObjectLike::Token) return;
      if (r == ObjectLike::Pushed) continue;
    }
    if (!expandMacro(m, t)) return;
  }
}

// An object-like macro whose body has no '##' between two tokens expands to its body with every
// token placed at the use, marked as coming from a macro, the first one with the name's
// spacing: what expandMacro() computes for it, without the substitution machinery. A body of
// one token that needs no rescan (not an identifier naming a macro) is returned directly,
// without an expansion context.
Preprocessor::ObjectLike Preprocessor::expandObjectLike(Macro* m, Token& name) {
  const size_t n = m->body.size();
  if (expand_depth_ >= kMaxExpandDepth) return ObjectLike::NotHandled; // expandMacro reports it
  const Token* body = m->body.data();
  for (size_t i = 1; i + 1 < n; ++i)
    if (body[i].kind == Tok::HashHash) return ObjectLike::NotHandled;
  const Loc use = name.loc;
  const uint8_t lead = name.flags & kTokLeadingSpace;
  if (n == 0) return ObjectLike::Pushed; // nothing to push: read on
  expanded_tokens_ += n;
  if (expanded_tokens_ > kMaxExpansionTokens)
    error(use, "macro expansion of '" + std::string(m->name->name) +
                   "' produces too many tokens (more than 4194304)");
  if (n == 1 && (body[0].kind != Tok::Ident || !body[0].ident->macro)) {
    name = body[0];
    name.loc = use;
    name.flags = uint8_t(kTokFromMacro | lead);
    return ObjectLike::Token;
  }
  std::vector<Token>* out = takeVector();
  out->assign(body, body + n);
  for (Token& t : *out) {
    t.loc = use;
    t.flags = uint8_t((t.flags & kTokLeadingSpace) | kTokFromMacro);
  }
  (*out)[0].flags = uint8_t(kTokFromMacro | lead);
  pushTokens(out, m);
  return ObjectLike::Pushed;
}

void Preprocessor::makeToken(Token& t, std::string_view text, const Loc& loc) {
  std::string_view stored = arena_.copy(text);
  Lexer lx(stored.data(), stored.data() + stored.size(), loc.buf, loc.file, idents_, arena_);
  uint8_t flags = t.flags;
  lx.lex(t);
  t.loc = loc;
  t.flags = uint8_t((flags & kTokLeadingSpace) | kTokFromMacro);
}

namespace {

std::string escapeString(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

} // namespace

bool Preprocessor::expandMacro(Macro* m, Token& name) {
  const Loc use = name.loc;
  std::vector<Token>* args = nullptr;
  std::vector<uint32_t> bounds; // arg i is [bounds[2i], bounds[2i+1])
  if (m->function_like) {
    Token peek;
    lexUnexpanded(peek);
    if (peek.kind != Tok::LParen) {
      pushBack(peek);
      return false;
    }
    args = takeVector();
    int depth = 0;
    size_t nparams = m->params.size();
    uint32_t start = 0;
    for (;;) {
      Token a;
      lexUnexpanded(a);
      if (a.kind == Tok::Eof || a.kind == Tok::Eod || a.kind == Tok::ArgEnd) {
        if (a.kind != Tok::Eof) pushBack(a);
        giveVector(args);
        error(use, "unterminated function-like macro invocation of '" + std::string(m->name->name) +
                       "'");
      }
      if (a.kind == Tok::LParen) {
        ++depth;
      } else if (a.kind == Tok::RParen) {
        if (depth == 0) break;
        --depth;
      } else if (a.kind == Tok::Comma && depth == 0 &&
                 !(m->variadic && bounds.size() / 2 + 1 >= nparams)) {
        bounds.push_back(start);
        bounds.push_back(uint32_t(args->size()));
        start = uint32_t(args->size());
        continue;
      }
      if (a.flags & kTokAtLineStart)
        a.flags = uint8_t((a.flags & ~kTokAtLineStart) | kTokLeadingSpace);
      args->push_back(a);
      if (held_tokens_ + args->size() > kMaxHeldTokens) tooManyHeld(use, m);
    }
    bounds.push_back(start);
    bounds.push_back(uint32_t(args->size()));
    size_t given = bounds.size() / 2;
    if (nparams == 0) {
      if (given > 1 || bounds[1] != bounds[0]) {
        giveVector(args);
        error(use, "too many arguments provided to function-like macro invocation of '" +
                       std::string(m->name->name) + "'");
      }
      given = 0;
      bounds.clear();
    } else if (given < nparams) {
      // A variadic macro may omit the variadic argument entirely.
      if (!(m->variadic && given + 1 == nparams)) {
        giveVector(args);
        error(use, "too few arguments provided to function-like macro invocation of '" +
                       std::string(m->name->name) + "'");
      }
      bounds.push_back(uint32_t(args->size()));
      bounds.push_back(uint32_t(args->size()));
    } else if (given > nparams) {
      giveVector(args);
      error(use, "too many arguments provided to function-like macro invocation of '" +
                     std::string(m->name->name) + "'");
    }
  }

  if (++expand_depth_ > kMaxExpandDepth) error(use, "macro expansion nested too deeply");
  const size_t held = args ? args->size() : 0;
  held_tokens_ += held;
  std::vector<Token>* out = takeVector();
  Subst st{m, args, &bounds, {}, use};
  st.expanded.assign(m->params.size(), nullptr);
  substitute(st, 0, m->body.size(), *out);
  // Drop placemarkers and mark the result.
  size_t k = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    Token& t = (*out)[i];
    if (t.kind == Tok::Placemarker) continue;
    t.flags = uint8_t((t.flags & ~kTokAtLineStart) | kTokFromMacro);
    (*out)[k++] = t;
  }
  out->resize(k);
  if (!out->empty())
    (*out)[0].flags =
        uint8_t(((*out)[0].flags & ~kTokLeadingSpace) | (name.flags & kTokLeadingSpace));
  for (auto* e : st.expanded)
    if (e) {
      held_tokens_ -= e->size();
      giveVector(e);
    }
  if (args) giveVector(args);
  held_tokens_ -= held;
  --expand_depth_;
  expanded_tokens_ += out->size();
  if (expanded_tokens_ > kMaxExpansionTokens)
    error(use, "macro expansion of '" + std::string(m->name->name) +
                   "' produces too many tokens (more than 4194304)");
  if (out->empty()) {
    giveVector(out);
    return true;
  }
  pushTokens(out, m);
  return true;
}

std::vector<Token>& Preprocessor::preExpandedArg(Subst& st, int p) {
  if (!st.expanded[size_t(p)]) {
    st.expanded[size_t(p)] = takeVector();
    preExpand(st.argBegin(p), st.argSize(p), *st.expanded[size_t(p)], st.use, st.m);
    held_tokens_ += st.expanded[size_t(p)]->size();
  }
  return *st.expanded[size_t(p)];
}

void Preprocessor::substitute(Subst& st, size_t from, size_t to, std::vector<Token>& out) {
  const Macro& m = *st.m;
  const std::vector<Token>& body = m.body;
  const int va_param = m.variadic ? int(m.params.size()) - 1 : -1;
  auto paramOf = [&](size_t i) { return m.param_of.empty() ? -1 : int(m.param_of[i]); };
  auto placemarker = [&]() {
    Token pm;
    pm.kind = Tok::Placemarker;
    pm.loc = st.use;
    out.push_back(pm);
  };
  bool pasting = false; // the previous body token was ##
  for (size_t i = from; i < to; ++i) {
    const Token& bt = body[i];
    if (bt.kind == Tok::HashHash && i > from && i + 1 < to) {
      pasting = true;
      continue;
    }
    size_t before = out.size();
    int p = paramOf(i);
    if (m.function_like && bt.kind == Tok::Hash && i + 1 < to && paramOf(i + 1) >= 0) {
      int q = paramOf(i + 1);
      Token s;
      s.flags = bt.flags;
      stringize(st.argBegin(q), st.argSize(q), st.use, s);
      out.push_back(s);
      ++i;
    } else if (bt.kind == Tok::Ident && bt.ident == id_va_opt_ && m.variadic) {
      // __VA_OPT__( content ): the content when the variadic argument is not empty.
      size_t close = to;
      int depth = 0;
      for (size_t j = i + 1; j < to; ++j) {
        if (body[j].kind == Tok::LParen) ++depth;
        if (body[j].kind == Tok::RParen && --depth == 0) {
          close = j;
          break;
        }
      }
      if (i + 1 >= to || body[i + 1].kind != Tok::LParen || close == to)
        error(st.use,
              "unterminated __VA_OPT__ in the expansion of '" + std::string(m.name->name) + "'");
      if (!preExpandedArg(st, va_param).empty()) substitute(st, i + 2, close, out);
      if (out.size() == before) placemarker();
      i = close;
    } else if (p >= 0) {
      bool next_is_paste = i + 1 < to && body[i + 1].kind == Tok::HashHash;
      if (pasting && p == va_param && i >= from + 2 && body[i - 2].kind == Tok::Comma &&
          !out.empty() && out.back().kind == Tok::Comma) {
        // GNU `, ## __VA_ARGS__`: the comma goes when the variadic argument is empty;
        // otherwise the (expanded) arguments follow it without pasting.
        if (st.argSize(p) == 0) {
          out.pop_back();
        } else {
          auto& e = preExpandedArg(st, p);
          out.insert(out.end(), e.begin(), e.end());
        }
        pasting = false;
        continue;
      }
      if (pasting || next_is_paste) {
        if (st.argSize(p) == 0)
          placemarker();
        else
          out.insert(out.end(), st.argBegin(p), st.argBegin(p) + st.argSize(p));
      } else {
        auto& e = preExpandedArg(st, p);
        out.insert(out.end(), e.begin(), e.end());
      }
      if (out.size() > before && out[before].kind != Tok::Placemarker) {
        // The first token of a substituted argument takes the parameter's spacing.
        out[before].flags =
            uint8_t((out[before].flags & ~kTokLeadingSpace) | (bt.flags & kTokLeadingSpace));
      }
    } else {
      Token t = bt;
      t.loc = st.use;
      t.flags = uint8_t((t.flags & kTokLeadingSpace) | kTokFromMacro);
      out.push_back(t);
    }
    if (pasting) {
      pasting = false;
      if (before == 0 || out.size() == before) continue;
      Token& left = out[before - 1];
      Token right = out[before];
      if (right.kind == Tok::Placemarker) {
        out.erase(out.begin() + ptrdiff_t(before));
      } else if (left.kind == Tok::Placemarker) {
        right.flags = uint8_t((right.flags & ~kTokLeadingSpace) | (left.flags & kTokLeadingSpace));
        left = right;
        out.erase(out.begin() + ptrdiff_t(before));
      } else {
        if (!paste(left, right, st.use))
          error(st.use, "pasting formed '" + std::string(left.text()) + std::string(right.text()) +
                            "', an invalid preprocessing token");
        out.erase(out.begin() + ptrdiff_t(before));
      }
    }
  }
}

void Preprocessor::tooManyHeld(const Loc& use, const Macro* m) const {
  error(use, "macro invocation of '" + std::string(m->name->name) +
                 "' is too large: its arguments, with those of the invocations it is nested in, "
                 "exceed " +
                 std::to_string(kMaxHeldTokens) + " tokens");
}

void Preprocessor::preExpand(const Token* toks, size_t n, std::vector<Token>& out, const Loc& use,
                             const Macro* m) {
  if (n == 0) return;
  held_tokens_ += n; // the copy below, while it is read
  if (held_tokens_ > kMaxHeldTokens) tooManyHeld(use, m);
  size_t base = exp_.size();
  std::vector<Token>* v = takeVector();
  v->assign(toks, toks + n);
  Token end;
  end.kind = Tok::ArgEnd;
  end.loc = toks[n - 1].loc;
  v->push_back(end);
  pushTokens(v, nullptr);
  for (;;) {
    Token t;
    next(t);
    if (t.kind == Tok::ArgEnd) break;
    out.push_back(t);
    if (held_tokens_ + out.size() > kMaxHeldTokens) tooManyHeld(use, m);
  }
  while (exp_.size() > base) popContext();
  held_tokens_ -= n;
}

void Preprocessor::stringize(const Token* toks, size_t n, const Loc& loc, Token& out) {
  std::string s = "\"";
  for (size_t i = 0; i < n; ++i) {
    const Token& t = toks[i];
    if (i > 0 && (t.flags & kTokLeadingSpace)) s += ' ';
    if (t.kind == Tok::String || t.kind == Tok::Char ||
        (t.kind == Tok::Unknown && (t.flags & kTokUnterminated)))
      s += escapeString(t.text());
    else
      s += t.text();
  }
  s += '"';
  out.flags &= kTokLeadingSpace;
  makeToken(out, s, loc);
}

bool Preprocessor::paste(Token& left, const Token& right, const Loc& loc) {
  std::string s;
  s.reserve(left.len + right.len);
  s.append(left.ptr, left.len);
  s.append(right.ptr, right.len);
  std::string_view stored = arena_.copy(s);
  Lexer lx(stored.data(), stored.data() + stored.size(), loc.buf, loc.file, idents_, arena_);
  Token t;
  try {
    lx.lex(t);
  } catch (const SourceError&) {
    return false; // e.g. "/" ## "*"
  }
  if (t.kind == Tok::Eof || lx.cur() != stored.data() + stored.size() ||
      (t.flags & kTokUnterminated) || t.flags & kTokLeadingSpace)
    return false;
  t.loc = loc;
  t.flags = uint8_t((left.flags & kTokLeadingSpace) | kTokFromMacro);
  left = t;
  return true;
}

// ----- built-in macros ------------------------------------------------------------------------

bool Preprocessor::readParenIdentifier(Token& at, Ident*& out, std::string* scope) {
  Token t;
  lexUnexpanded(t);
  if (t.kind != Tok::LParen) error(t.loc, "missing '(' after '" + std::string(at.text()) + "'");
  lexUnexpanded(t);
  out = nullptr;
  if (t.kind == Tok::Ident) {
    out = t.ident;
    lexUnexpanded(t);
    if (scope && t.kind == Tok::ColonColon) {
      *scope = std::string(out->name);
      lexUnexpanded(t);
      if (t.kind != Tok::Ident) error(t.loc, "expected an identifier after '::'");
      out = t.ident;
      lexUnexpanded(t);
    }
  } else if (t.kind != Tok::RParen) {
    // Skip a malformed argument (e.g. a string) up to ')'.
    out = nullptr;
  }
  int depth = 0;
  while (!(t.kind == Tok::RParen && depth == 0)) {
    if (t.kind == Tok::Eof || t.kind == Tok::Eod || t.kind == Tok::ArgEnd)
      error(at.loc, "missing ')' after '" + std::string(at.text()) + "'");
    if (t.kind == Tok::LParen) ++depth;
    if (t.kind == Tok::RParen) --depth;
    lexUnexpanded(t);
  }
  return out != nullptr;
}

bool Preprocessor::hasInclude(Token& at, bool next_search) {
  Token t;
  lexUnexpanded(t);
  if (t.kind != Tok::LParen) error(t.loc, "missing '(' after '" + std::string(at.text()) + "'");
  next(t);
  std::string name;
  bool angled = false;
  if (t.kind == Tok::String && t.len >= 2 && t.ptr[0] == '"') {
    name.assign(t.ptr + 1, t.len - 2);
    next(t);
  } else if (t.kind == Tok::Less) {
    angled = true;
    for (;;) {
      next(t);
      if (t.kind == Tok::Greater) break;
      if (t.kind == Tok::Eof || t.kind == Tok::Eod || t.kind == Tok::ArgEnd ||
          t.kind == Tok::RParen)
        error(t.loc, "expected '>' in '" + std::string(at.text()) + "'");
      if (!name.empty() && (t.flags & kTokLeadingSpace)) name += ' ';
      name.append(t.ptr, t.len);
    }
    next(t);
  } else {
    error(t.loc, "expected \"FILENAME\" or <FILENAME> in '" + std::string(at.text()) + "'");
  }
  if (t.kind != Tok::RParen) error(t.loc, "missing ')' after '" + std::string(at.text()) + "'");
  bool builtin = false;
  return findInclude(name, angled, next_search, at.loc, builtin) >= 0;
}

namespace {

bool knownFeature(std::string_view f, bool extension) {
  static constexpr std::string_view kFeatures[] = {
      "c_alignas", "c_alignof", "c_static_assert", "attribute_packed", "enumerator_attributes",
  };
  for (std::string_view k : kFeatures)
    if (f == k) return true;
  (void)extension;
  return false;
}

} // namespace

bool Preprocessor::expandBuiltin(Macro* m, Token& t) {
  Loc loc = t.loc;
  std::string text;
  switch (m->builtin) {
  case kPpFile:
  case kPpBaseFile: {
    std::string_view path = m->builtin == kPpFile ? ctx_.fileName(loc.file) : main_path_;
    text = "\"" + escapeString(path) + "\"";
    break;
  }
  case kPpLine:
    text = std::to_string(loc.line);
    break;
  case kPpCounter:
    text = std::to_string(counter_++);
    break;
  case kPpIncludeLevel:
    text = std::to_string(files_.size() > 0 ? files_.size() - 1 : 0);
    break;
  case kPpDate:
    text = "\"??? ?? ????\"";
    break;
  case kPpTime:
    text = "\"??:??:??\"";
    break;
  case kPpTimestamp:
    text = "\"??? ??? ?? ??:??:?? ????\"";
    break;
  case kPpPragmaOp:
    pragmaOperator(t);
    return false;
  case kPpHasInclude:
  case kPpHasIncludeNext:
    text = hasInclude(t, m->builtin == kPpHasIncludeNext) ? "1" : "0";
    break;
  case kPpHasAttribute:
  case kPpHasCAttribute:
  case kPpHasDeclspecAttribute: {
    Ident* id = nullptr;
    std::string scope;
    readParenIdentifier(t, id, &scope);
    int v = 0;
    if (id && m->builtin != kPpHasDeclspecAttribute && queries_.has_attribute)
      v = queries_.has_attribute(scope, id->name, m->builtin == kPpHasCAttribute);
    text = std::to_string(v);
    break;
  }
  case kPpHasBuiltin: {
    Ident* id = nullptr;
    readParenIdentifier(t, id, nullptr);
    bool v = id && (id->name == "__builtin_offsetof" || id->name == "__builtin_va_list");
    text = v ? "1" : "0";
    break;
  }
  case kPpHasFeature:
  case kPpHasExtension: {
    Ident* id = nullptr;
    readParenIdentifier(t, id, nullptr);
    std::string_view f = id ? id->name : std::string_view();
    if (f.size() > 4 && f.substr(0, 2) == "__" && f.substr(f.size() - 2) == "__")
      f = f.substr(2, f.size() - 4);
    text = id && knownFeature(f, m->builtin == kPpHasExtension) ? "1" : "0";
    break;
  }
  case kPpHasWarning: {
    Ident* id = nullptr;
    readParenIdentifier(t, id, nullptr);
    text = "0";
    break;
  }
  case kPpIsIdentifier: {
    Ident* id = nullptr;
    readParenIdentifier(t, id, nullptr);
    text = id && id->keyword == 0 ? "1" : "0";
    break;
  }
  case kPpBuildingModule: {
    Ident* id = nullptr;
    readParenIdentifier(t, id, nullptr);
    text = "0";
    break;
  }
  default:
    return true;
  }
  uint8_t flags = t.flags;
  makeToken(t, text, loc);
  t.flags = uint8_t((flags & kTokLeadingSpace) | kTokFromMacro);
  return true;
}

void Preprocessor::pragmaOperator(Token& at) {
  // _Pragma ( string-literal )
  Token t;
  next(t);
  if (t.kind != Tok::LParen) error(at.loc, "_Pragma takes a parenthesized string literal");
  next(t);
  if (t.kind != Tok::String) error(at.loc, "_Pragma takes a parenthesized string literal");
  Token str = t;
  next(t);
  if (t.kind != Tok::RParen) error(at.loc, "_Pragma takes a parenthesized string literal");
  // Destringize: drop the prefix and quotes, unescape \" and \\.
  std::string_view s = str.text();
  size_t q = s.find('"');
  std::string text;
  for (size_t i = q + 1; i + 1 < s.size(); ++i) {
    if (s[i] == '\\' && i + 2 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) ++i;
    text += s[i];
  }
  // Run it as a #pragma line in a buffer of its own.
  int buf = addBuffer(std::string(ctx_.fileName(at.loc.file)), "pragma " + text + "\n", true);
  buffers_[size_t(buf)]->file_id = at.loc.file;
  files_.push_back(
      std::make_unique<FileState>(*buffers_[size_t(buf)], buf, idents_, arena_, conds_.size()));
  FileState& f = file();
  f.lexer.in_directive = true;
  Token kw;
  f.lexer.lex(kw);
  // Contexts that are still active (the _Pragma came from a macro) must not feed the pragma:
  // park them while the pragma line is read.
  std::vector<ExpCtx> saved;
  saved.swap(exp_);
  try {
    doPragma(at);
  } catch (...) {
    exp_.swap(saved);
    throw;
  }
  exp_.swap(saved);
  files_.pop_back();
}

// ----- directives -----------------------------------------------------------------------------

void Preprocessor::lexDirectiveRaw(Token& t) {
  file().lexer.lex(t);
}

void Preprocessor::finishDirective() {
  FileState& f = file();
  if (f.lexer.in_directive) {
    // The usual end, blanks and a newline: the lexer stops before the newline, as lexing the
    // end of the directive would leave it.
    const char* p = lexchars::skipBlanks(f.lexer.cur());
    if (*p == '\n' && p < f.lexer.end()) {
      f.lexer.skipTo(p);
      f.lexer.in_directive = false;
      while (!exp_.empty()) popContext();
      return;
    }
    Token t;
    do {
      f.lexer.lex(t);
    } while (t.kind != Tok::Eod);
    f.lexer.in_directive = false;
  }
  while (!exp_.empty()) popContext();
}

void Preprocessor::expectEndOfDirective(std::string_view) {
  // Extra tokens after a directive are a warning in clang: ignore them.
  finishDirective();
}

void Preprocessor::handleDirective(Token& hash) {
  FileState& f = file();
  f.lexer.in_directive = true;
  Token name;
  f.lexer.lex(name);
  if (name.kind == Tok::Eod) { // the null directive
    finishDirective();
    return;
  }
  if (name.kind == Tok::Number) {
    doLine(name, true);
    return;
  }
  if (name.kind != Tok::Ident) error(name.loc, "invalid preprocessing directive");
  Ident* d = name.ident;
  // Include-guard detection: the file must start with #ifndef X / #if !defined(X) and end
  // with the matching #endif.
  if (f.guard == FileState::kStart && d != id_ifndef_ && d != id_if_)
    f.guard = FileState::kInvalid;
  else if (f.guard == FileState::kAfterEndif)
    f.guard = FileState::kInvalid;

  if (d == id_define_) return doDefine();
  if (d == id_undef_) return doUndef();
  if (d == id_include_) return doInclude(hash, false);
  if (d == id_include_next_) return doInclude(hash, true);
  if (d == id_if_) return doIf(name, 0);
  if (d == id_ifdef_) return doIf(name, 1);
  if (d == id_ifndef_) return doIf(name, 2);
  if (d == id_elif_) return doElse(name, 1);
  if (d == id_elifdef_) return doElse(name, 2);
  if (d == id_elifndef_) return doElse(name, 3);
  if (d == id_else_) return doElse(name, 0);
  if (d == id_endif_) return doEndif(name);
  if (d == id_line_) {
    Token t;
    next(t);
    return doLine(t, false);
  }
  if (d == id_error_) {
    std::string_view msg = f.lexer.restOfLine();
    while (!msg.empty() && (msg.front() == ' ' || msg.front() == '\t')) msg.remove_prefix(1);
    while (!msg.empty() && (msg.back() == ' ' || msg.back() == '\t' || msg.back() == '\r'))
      msg.remove_suffix(1);
    error(hash.loc, msg.empty() ? std::string("#error") : "#error " + std::string(msg));
  }
  if (d == id_warning_ || d == id_ident_ || d == id_sccs_) {
    f.lexer.restOfLine();
    finishDirective();
    return;
  }
  if (d == id_pragma_) {
    doPragma(hash);
    return;
  }
  if (d == id_import_)
    error(name.loc, "#import is an Objective-C directive and is not supported", true);
  error(name.loc, "unknown preprocessing directive '#" + std::string(name.text()) + "'");
}

void Preprocessor::doDefine() {
  Token name;
  lexDirectiveRaw(name);
  if (name.kind == Tok::Eod) error(name.loc, "macro name missing");
  if (name.kind != Tok::Ident) error(name.loc, "macro name must be an identifier");
  if (name.ident == id_defined_) error(name.loc, "'defined' cannot be used as a macro name");
  Macro& m = macros_.emplace_back();
  m.name = name.ident;
  m.loc = name.loc;
  Token t;
  lexDirectiveRaw(t);
  if (t.kind == Tok::LParen && !(t.flags & kTokLeadingSpace)) {
    m.function_like = true;
    lexDirectiveRaw(t);
    if (t.kind != Tok::RParen) {
      for (;;) {
        if (t.kind == Tok::Ellipsis) {
          m.variadic = true;
          m.params.push_back(id_va_args_);
          lexDirectiveRaw(t);
          if (t.kind != Tok::RParen) error(t.loc, "missing ')' in macro parameter list");
          break;
        }
        if (t.kind != Tok::Ident) {
          if (t.kind == Tok::Eod) error(t.loc, "missing ')' in macro parameter list");
          error(t.loc, "invalid token in macro parameter list");
        }
        if (t.ident == id_va_args_)
          error(t.loc, "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro");
        if (std::find(m.params.begin(), m.params.end(), t.ident) != m.params.end())
          error(t.loc, "duplicate macro parameter name '" + std::string(t.text()) + "'");
        if (m.params.size() >= 10000) error(t.loc, "too many macro parameters");
        m.params.push_back(t.ident);
        lexDirectiveRaw(t);
        if (t.kind == Tok::Ellipsis) { // GNU named variadic parameter: args...
          m.variadic = true;
          lexDirectiveRaw(t);
          if (t.kind != Tok::RParen) error(t.loc, "missing ')' in macro parameter list");
          break;
        }
        if (t.kind == Tok::RParen) break;
        if (t.kind != Tok::Comma) error(t.loc, "expected comma in macro parameter list");
        lexDirectiveRaw(t);
      }
    }
    lexDirectiveRaw(t);
  }
  // The body is gathered in scratch vectors and copied once, at its size.
  std::vector<Token>& body = define_body_;
  std::vector<int16_t>& param_of = define_param_of_;
  body.clear();
  param_of.clear();
  bool first = true;
  while (t.kind != Tok::Eod) {
    t.flags &= uint8_t(~kTokAtLineStart);
    if (first) t.flags &= uint8_t(~kTokLeadingSpace);
    first = false;
    body.push_back(t);
    if (m.function_like) {
      int16_t p = -1;
      if (t.kind == Tok::Ident) {
        for (size_t i = 0; i < m.params.size(); ++i)
          if (m.params[i] == t.ident) p = int16_t(i);
      }
      param_of.push_back(p);
    }
    lexDirectiveRaw(t);
  }
  finishDirective();
  m.body.assign(body.begin(), body.end());
  m.param_of.assign(param_of.begin(), param_of.end());
  if (!m.body.empty()) {
    if (m.body.front().kind == Tok::HashHash)
      error(m.body.front().loc, "'##' cannot appear at either end of a macro expansion");
    if (m.body.back().kind == Tok::HashHash)
      error(m.body.back().loc, "'##' cannot appear at either end of a macro expansion");
  }
  if (m.function_like) {
    for (size_t i = 0; i < m.body.size(); ++i) {
      if (m.body[i].kind != Tok::Hash) continue;
      bool ok = i + 1 < m.body.size() && m.param_of[i + 1] >= 0;
      if (!ok) error(m.body[i].loc, "'#' is not followed by a macro parameter");
    }
  }
  idents_.setMacro(name.ident, &m);
}

void Preprocessor::doUndef() {
  Token name;
  lexDirectiveRaw(name);
  if (name.kind == Tok::Eod) error(name.loc, "macro name missing");
  if (name.kind != Tok::Ident) error(name.loc, "macro name must be an identifier");
  if (name.ident == id_defined_) error(name.loc, "'defined' cannot be used as a macro name");
  idents_.setMacro(name.ident, nullptr);
  finishDirective();
}

void Preprocessor::doInclude(const Token& directive, bool next_search) {
  FileState& f = file();
  Token t;
  f.lexer.lexIncludeName(t);
  std::string name;
  bool angled = false;
  Loc at = t.loc;
  if (t.kind == Tok::HeaderName) {
    name.assign(t.ptr + 1, t.len - 2);
    angled = true;
  } else if (t.kind == Tok::String && t.len >= 2 && t.ptr[0] == '"') {
    name.assign(t.ptr + 1, t.len - 2);
  } else if (t.kind == Tok::Ident) {
    // #include MACRO: expand the line.
    pushBack(t);
    Token e;
    next(e);
    at = e.loc;
    if (e.kind == Tok::String && e.len >= 2 && e.ptr[0] == '"') {
      name.assign(e.ptr + 1, e.len - 2);
    } else if (e.kind == Tok::Less) {
      angled = true;
      for (;;) {
        next(e);
        if (e.kind == Tok::Greater) break;
        if (e.kind == Tok::Eod || e.kind == Tok::Eof)
          error(at, "expected '>' to end the #include file name");
        if (!name.empty() && (e.flags & kTokLeadingSpace)) name += ' ';
        name.append(e.ptr, e.len);
      }
    } else {
      error(at, "expected \"FILENAME\" or <FILENAME>");
    }
  } else {
    if (t.kind == Tok::Unknown && t.len && t.ptr[0] == '<')
      error(at, "expected '>' to end the #include file name");
    error(at, "expected \"FILENAME\" or <FILENAME>");
  }
  finishDirective();
  if (name.empty()) error(at, "empty filename in #include");
  bool builtin = false;
  int buf = findInclude(name, angled, next_search, at, builtin);
  if (buf < 0) error(at, "'" + name + "' file not found");
  SourceBuffer& b = *buffers_[size_t(buf)];
  if (b.entered && b.once) return;
  if (b.guard && b.guard->macro) return;
  (void)directive;
  enterBuffer(buf);
}

int Preprocessor::builtinHeader(std::string_view name) {
  auto it = builtin_cache_.find(std::string(name));
  if (it != builtin_cache_.end()) return it->second;
  std::string text;
  if (!builtinHeaderText(ctx_, name, text)) return -1;
  int buf = addBuffer("<built-in>/" + std::string(name), std::move(text), true);
  builtin_cache_.emplace(std::string(name), buf);
  return buf;
}

int Preprocessor::loadFile(const std::string& path, int search_index, const Loc& at) {
  auto cached = path_cache_.find(path);
  if (cached != path_cache_.end()) return cached->second;
  int buf = loadFileUncached(path, search_index, at);
  path_cache_.emplace(path, buf);
  return buf;
}

int Preprocessor::loadFileUncached(const std::string& path, int search_index, const Loc& at) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(path);
  if (!fs::is_regular_file(p, ec) || ec) return -1;
  fs::path canon = fs::weakly_canonical(p, ec);
  std::string key = ec ? path : canon.string();
  auto it = file_cache_.find(key);
  if (it != file_cache_.end()) return it->second;
  // The text of a translation unit, the main file and every file it includes, is bounded as a
  // whole (ParseOptions::max_input_bytes): files are read while they fit.
  uint64_t limit = options_.max_input_bytes;
  uint64_t left = limit - std::min(limit, text_bytes_);
  std::string text;
  try {
    text = readSourceFile(path, left, kLexPadding); // addBuffer() pads it in place
  } catch (const Error& e) {
    if (fs::is_regular_file(p, ec) && fs::file_size(p, ec) > left)
      error(at, "the source text read reaches the input size limit of " + std::to_string(limit) +
                    " bytes (--max-input-size) with '" + path + "'");
    return -1; // unreadable: as if not there
  }
  text_bytes_ += text.size();
  int buf = addBuffer(path, std::move(text), false);
  buffers_[size_t(buf)]->search_index = search_index;
  file_cache_.emplace(std::move(key), buf);
  return buf;
}

int Preprocessor::findInclude(std::string_view name, bool angled, bool next_search, const Loc& at,
                              bool& builtin) {
  builtin = false;
  std::string n(name);
  if (!n.empty() && n[0] == '/') return loadFile(n, -1, at);
  const SourceBuffer& cur = *buffers_[size_t(file().buf)];
  int start = 0;
  if (next_search && cur.search_index >= 0) start = cur.search_index + 1;
  if (!angled && !(next_search && cur.search_index >= 0)) {
    std::string p = cur.dir.empty() ? n : (cur.dir == "/" ? "/" + n : cur.dir + "/" + n);
    if (!cur.builtin) {
      int b = loadFile(p, cur.search_index, at);
      if (b >= 0) return b;
    }
  }
  for (size_t i = size_t(start); i < options_.include_dirs.size(); ++i) {
    const std::string& dir = options_.include_dirs[i];
    std::string p = dir.empty() ? n : (dir.back() == '/' ? dir + n : dir + "/" + n);
    int b = loadFile(p, int(i), at);
    if (b >= 0) return b;
  }
  // The built-in headers come last, where clang's own headers are: a C library's <stdint.h> or
  // <limits.h> in an -I directory is the one used, and its #include_next reaches ours. Nothing
  // comes after them.
  if (!(next_search && cur.builtin)) {
    int b = builtinHeader(n);
    if (b >= 0) {
      builtin = true;
      return b;
    }
  }
  return -1;
}

void Preprocessor::doIf(const Token& directive, int kind) {
  FileState& f = file();
  bool value;
  Ident* guard_candidate = nullptr;
  if (kind == 0) {
    // Recognise `#if !defined(X)` / `#if !defined X` as an include guard.
    const char* p = f.lexer.cur();
    value = evalCondition(directive);
    if (f.guard == FileState::kStart) {
      std::string_view line(p, size_t(f.lexer.cur() - p));
      size_t i = line.find_first_not_of(" \t");
      if (i != std::string_view::npos && line[i] == '!') {
        std::string_view rest = line.substr(i + 1);
        size_t j = rest.find_first_not_of(" \t");
        if (j != std::string_view::npos && rest.substr(j, 7) == "defined") {
          rest = rest.substr(j + 7);
          std::string ident;
          for (char c : rest) {
            if (c == ' ' || c == '\t' || c == '(' || c == ')') {
              if (!ident.empty() && c != ' ' && c != '\t' && c != ')') break;
              if (!ident.empty()) break;
              continue;
            }
            ident += c;
          }
          // Only a plain `!defined X` / `!defined(X)` line qualifies.
          std::string norm;
          for (char c : line)
            if (c != ' ' && c != '\t' && c != '\r') norm += c;
          if (!ident.empty() && (norm == "!defined" + ident || norm == "!defined(" + ident + ")"))
            guard_candidate = idents_.getCopy(ident);
        }
      }
    }
  } else {
    Token n;
    lexDirectiveRaw(n);
    if (n.kind == Tok::Eod) error(n.loc, "macro name missing");
    if (n.kind != Tok::Ident) error(n.loc, "macro name must be an identifier");
    value = (n.ident->macro != nullptr) == (kind == 1);
    if (kind == 2) guard_candidate = n.ident;
  }
  finishDirective();
  if (f.guard == FileState::kStart) {
    if (guard_candidate) {
      f.guard = FileState::kInGuard;
      f.guard_macro = guard_candidate;
      f.guard_cond = conds_.size();
    } else {
      f.guard = FileState::kInvalid;
    }
  }
  static const char* const kWhat[] = {"#if", "#ifdef", "#ifndef"};
  conds_.push_back({directive.loc, kWhat[kind], value, false});
  if (!value) skipGroup();
}

void Preprocessor::doElse(const Token& directive, int kind) {
  FileState& f = file();
  static const char* const kNames[] = {"#else", "#elif", "#elifdef", "#elifndef"};
  if (conds_.size() <= f.cond_base)
    error(directive.loc, std::string(kNames[kind]) + " without #if");
  Cond& c = conds_.back();
  if (c.in_else) error(directive.loc, std::string(kNames[kind]) + " after #else");
  if (kind == 0) c.in_else = true;
  if (f.guard == FileState::kInGuard && conds_.size() - 1 == f.guard_cond)
    f.guard = FileState::kInvalid;
  // We were in an included group, so the rest of the chain is skipped (without evaluating).
  finishDirective();
  skipGroup();
}

void Preprocessor::doEndif(const Token& directive) {
  FileState& f = file();
  if (conds_.size() <= f.cond_base) error(directive.loc, "#endif without #if");
  conds_.pop_back();
  finishDirective();
  if (f.guard == FileState::kInGuard && conds_.size() == f.guard_cond)
    f.guard = FileState::kAfterEndif;
}

void Preprocessor::skipGroup() {
  FileState& f = file();
  size_t depth = 0;
  for (;;) {
    if (!f.lexer.skipToNextDirectiveLine()) {
      error(conds_.back().loc,
            std::string("unterminated ") + conds_.back().what + " (missing #endif)");
    }
    f.lexer.in_directive = true;
    Token hash, name;
    f.lexer.lex(hash);
    f.lexer.lex(name);
    if (name.kind == Tok::Ident) {
      Ident* d = name.ident;
      if (d == id_if_ || d == id_ifdef_ || d == id_ifndef_) {
        ++depth;
      } else if (d == id_endif_) {
        if (depth == 0) {
          conds_.pop_back();
          finishDirective();
          if (f.guard == FileState::kInGuard && conds_.size() == f.guard_cond)
            f.guard = FileState::kAfterEndif;
          return;
        }
        --depth;
      } else if (depth == 0 && d == id_else_) {
        Cond& c = conds_.back();
        if (c.in_else) error(name.loc, "#else after #else");
        c.in_else = true;
        if (f.guard == FileState::kInGuard && conds_.size() - 1 == f.guard_cond)
          f.guard = FileState::kInvalid;
        if (!c.taken) {
          c.taken = true;
          finishDirective();
          return;
        }
      } else if (depth == 0 && (d == id_elif_ || d == id_elifdef_ || d == id_elifndef_)) {
        Cond& c = conds_.back();
        if (c.in_else) error(name.loc, "#elif after #else");
        if (f.guard == FileState::kInGuard && conds_.size() - 1 == f.guard_cond)
          f.guard = FileState::kInvalid;
        if (!c.taken) {
          bool v;
          if (d == id_elif_) {
            v = evalCondition(hash);
          } else {
            Token n;
            f.lexer.lex(n);
            if (n.kind != Tok::Ident) error(n.loc, "macro name must be an identifier");
            v = (n.ident->macro != nullptr) == (d == id_elifdef_);
          }
          if (v) {
            conds_.back().taken = true;
            finishDirective();
            return;
          }
        }
      }
    }
    // Skip the rest of the directive line without interpreting it.
    Token t;
    do {
      f.lexer.lex(t);
    } while (t.kind != Tok::Eod);
    f.lexer.in_directive = false;
  }
}

void Preprocessor::doLine(Token& first, bool gnu_marker) {
  FileState& f = file();
  if (first.kind != Tok::Number) error(first.loc, "#line directive requires a positive integer");
  uint64_t n = 0;
  for (char c : first.text()) {
    if (c < '0' || c > '9') error(first.loc, "#line directive requires a simple digit sequence");
    n = n * 10 + uint64_t(c - '0');
    if (n > 2147483647ull) error(first.loc, "line number out of range");
  }
  Token t;
  if (gnu_marker)
    lexDirectiveRaw(t);
  else
    next(t);
  uint32_t file_id = f.lexer.file;
  if (t.kind == Tok::String) {
    std::string_view s = t.text();
    if (s.size() >= 2 && s[0] == '"')
      file_id = ctx_.addFile(std::string(s.substr(1, s.size() - 2)));
    else
      error(t.loc, "invalid filename for #line directive");
  } else if (t.kind != Tok::Eod) {
    error(t.loc, "invalid filename for #line directive");
  }
  finishDirective();
  // The line after this directive has number n.
  f.lexer.line_delta = uint32_t(n) - f.lexer.physicalLine() - 1;
  f.lexer.file = file_id;
}

// ----- #if expressions ------------------------------------------------------------------------

namespace {

struct PPVal {
  uint64_t v = 0;
  bool is_unsigned = false;
};

struct PPExpr {
  const std::vector<Token>& toks;
  size_t i = 0;
  const Preprocessor& pp;
  unsigned wchar_bits;
  bool char_signed;
  unsigned depth = 0;

  const Token& peek() const { return toks[std::min(i, toks.size() - 1)]; }
  bool at(Tok k) const { return i < toks.size() - 1 && toks[i].kind == k; }

  [[noreturn]] void fail(const Token& t, const std::string& msg) const { pp.error(t.loc, msg); }

  PPVal primary(bool eval) {
    NestGuard nest(depth, kMaxExprDepth);
    if (nest.tooDeep()) fail(peek(), "#if expression nested too deeply");
    const Token& t = peek();
    PPVal r;
    switch (t.kind) {
    case Tok::Number: {
      ++i;
      unsigned __int128 v = 0;
      IntLiteralInfo info;
      std::string err = parseIntegerLiteral(t.text(), v, info);
      if (!err.empty()) fail(t, err);
      if (info.is_float) fail(t, "floating point literal in preprocessor expression");
      if (v > UINT64_MAX)
        fail(t, "integer literal is too large to be represented in any integer type");
      r.v = uint64_t(v);
      r.is_unsigned = info.is_unsigned || v > uint64_t(INT64_MAX);
      break;
    }
    case Tok::Char: {
      ++i;
      LiteralPrefix prefix;
      std::vector<uint32_t> units;
      std::string err = decodeLiteral(t.text(), wchar_bits, prefix, units);
      if (!err.empty()) fail(t, err);
      if (units.empty()) fail(t, "empty character constant");
      if (prefix == LiteralPrefix::None) {
        // int value; one char is sign-extended when char is signed.
        uint32_t v = 0;
        for (uint32_t u : units) v = (v << 8) | (u & 0xFF);
        if (units.size() == 1 && char_signed && (v & 0x80))
          r.v = uint64_t(int64_t(int8_t(v)));
        else
          r.v = uint64_t(int64_t(int32_t(v)));
      } else {
        r.v = units.back();
      }
      break;
    }
    case Tok::Ident:
      ++i;
      r.v = 0; // identifiers left after expansion are 0 (true/false too in C)
      break;
    case Tok::LParen: {
      ++i;
      r = expr(eval);
      if (!at(Tok::RParen)) fail(peek(), "missing ')' in preprocessor expression");
      ++i;
      break;
    }
    case Tok::Plus:
      ++i;
      r = primary(eval);
      break;
    case Tok::Minus:
      ++i;
      r = primary(eval);
      r.v = 0 - r.v;
      break;
    case Tok::Tilde:
      ++i;
      r = primary(eval);
      r.v = ~r.v;
      break;
    case Tok::Excl:
      ++i;
      r = primary(eval);
      r.v = r.v == 0;
      r.is_unsigned = false;
      break;
    case Tok::Eod:
    case Tok::Eof:
      fail(t, "expected value in preprocessor expression");
    case Tok::String:
      fail(t, "string literal in preprocessor expression");
    default:
      fail(t, "invalid token at start of a preprocessor expression");
    }
    return r;
  }

  static int prec(Tok k) {
    switch (k) {
    case Tok::Star:
    case Tok::Slash:
    case Tok::Percent:
      return 10;
    case Tok::Plus:
    case Tok::Minus:
      return 9;
    case Tok::LShift:
    case Tok::RShift:
      return 8;
    case Tok::Less:
    case Tok::Greater:
    case Tok::LessEq:
    case Tok::GreaterEq:
      return 7;
    case Tok::EqEq:
    case Tok::NotEq:
      return 6;
    case Tok::Amp:
      return 5;
    case Tok::Caret:
      return 4;
    case Tok::Pipe:
      return 3;
    case Tok::AmpAmp:
      return 2;
    case Tok::PipePipe:
      return 1;
    default:
      return -1;
    }
  }

  PPVal binary(int min_prec, bool eval) {
    PPVal lhs = primary(eval);
    for (;;) {
      const Token& op = peek();
      int p = i < toks.size() - 1 ? prec(op.kind) : -1;
      if (p < min_prec || p < 0) return lhs;
      ++i;
      if (op.kind == Tok::AmpAmp || op.kind == Tok::PipePipe) {
        bool lv = lhs.v != 0;
        bool short_circuit = op.kind == Tok::AmpAmp ? !lv : lv;
        PPVal rhs = binary(p + 1, eval && !short_circuit);
        lhs.v = op.kind == Tok::AmpAmp ? (lv && rhs.v) : (lv || rhs.v);
        lhs.is_unsigned = false;
        continue;
      }
      PPVal rhs = binary(p + 1, eval);
      bool u = lhs.is_unsigned || rhs.is_unsigned;
      int64_t a = int64_t(lhs.v), b = int64_t(rhs.v);
      PPVal r;
      r.is_unsigned = u;
      switch (op.kind) {
      case Tok::Star:
        r.v = lhs.v * rhs.v;
        break;
      case Tok::Slash:
      case Tok::Percent:
        if (rhs.v == 0) {
          if (eval)
            fail(op, op.kind == Tok::Slash ? "division by zero in preprocessor expression"
                                           : "remainder by zero in preprocessor expression");
          r.v = 0;
          break;
        }
        if (u)
          r.v = op.kind == Tok::Slash ? lhs.v / rhs.v : lhs.v % rhs.v;
        else if (a == INT64_MIN && b == -1)
          r.v = op.kind == Tok::Slash ? lhs.v : 0;
        else
          r.v = uint64_t(op.kind == Tok::Slash ? a / b : a % b);
        break;
      case Tok::Plus:
        r.v = lhs.v + rhs.v;
        break;
      case Tok::Minus:
        r.v = lhs.v - rhs.v;
        break;
      case Tok::LShift:
      case Tok::RShift: {
        r.is_unsigned = lhs.is_unsigned;
        bool neg = !rhs.is_unsigned && b < 0;
        uint64_t s = rhs.v;
        if (neg || s >= 64) {
          // clang warns and folds: shifting out every bit.
          bool left = op.kind == Tok::LShift;
          if (neg) left = !left, s = uint64_t(-b);
          if (s >= 64)
            r.v = (!left && !lhs.is_unsigned && a < 0) ? uint64_t(-1) : 0;
          else
            r.v = left ? lhs.v << s : (lhs.is_unsigned ? lhs.v >> s : uint64_t(a >> s));
          break;
        }
        if (op.kind == Tok::LShift)
          r.v = lhs.v << s;
        else
          r.v = lhs.is_unsigned ? lhs.v >> s : uint64_t(a >> s);
        break;
      }
      case Tok::Less:
        r.v = u ? lhs.v < rhs.v : a < b;
        r.is_unsigned = false;
        break;
      case Tok::Greater:
        r.v = u ? lhs.v > rhs.v : a > b;
        r.is_unsigned = false;
        break;
      case Tok::LessEq:
        r.v = u ? lhs.v <= rhs.v : a <= b;
        r.is_unsigned = false;
        break;
      case Tok::GreaterEq:
        r.v = u ? lhs.v >= rhs.v : a >= b;
        r.is_unsigned = false;
        break;
      case Tok::EqEq:
        r.v = lhs.v == rhs.v;
        r.is_unsigned = false;
        break;
      case Tok::NotEq:
        r.v = lhs.v != rhs.v;
        r.is_unsigned = false;
        break;
      case Tok::Amp:
        r.v = lhs.v & rhs.v;
        break;
      case Tok::Caret:
        r.v = lhs.v ^ rhs.v;
        break;
      case Tok::Pipe:
        r.v = lhs.v | rhs.v;
        break;
      default:
        break;
      }
      lhs = r;
    }
  }

  PPVal conditional(bool eval) {
    NestGuard nest(depth, kMaxExprDepth);
    if (nest.tooDeep()) fail(peek(), "#if expression nested too deeply");
    PPVal c = binary(1, eval);
    if (at(Tok::Question)) {
      ++i;
      bool cv = c.v != 0;
      PPVal a = expr(eval && cv);
      if (!at(Tok::Colon)) fail(peek(), "expected ':' in preprocessor expression");
      ++i;
      PPVal b = conditional(eval && !cv);
      c.v = cv ? a.v : b.v;
      c.is_unsigned = a.is_unsigned || b.is_unsigned;
    }
    return c;
  }

  PPVal expr(bool eval) {
    PPVal v = conditional(eval);
    while (at(Tok::Comma)) {
      ++i;
      v = conditional(eval);
    }
    return v;
  }
};

} // namespace

bool Preprocessor::evalCondition(const Token& directive) {
  std::vector<Token> toks;
  in_if_expression_ = true;
  for (;;) {
    Token t;
    next(t);
    if (t.kind == Tok::Eod) {
      toks.push_back(t);
      break;
    }
    if (t.kind == Tok::Ident && t.ident == id_defined_) {
      Token n;
      lexUnexpanded(n);
      bool paren = n.kind == Tok::LParen;
      if (paren) lexUnexpanded(n);
      if (n.kind != Tok::Ident) error(n.loc, "macro name must be an identifier");
      bool v = n.ident->macro != nullptr;
      if (paren) {
        Token c;
        lexUnexpanded(c);
        if (c.kind != Tok::RParen) error(c.loc, "missing ')' after 'defined'");
      }
      Token r = t;
      makeToken(r, v ? "1" : "0", t.loc);
      toks.push_back(r);
      continue;
    }
    toks.push_back(t);
    if (toks.size() > (size_t(1) << 24)) error(directive.loc, "#if expression is too long");
  }
  in_if_expression_ = false;
  while (!exp_.empty()) popContext();
  if (toks.size() == 1) error(toks[0].loc, "#if with no expression");
  PPExpr e{toks, 0, *this, wcharBits(), ctx_.data().char_signed};
  PPVal v = e.expr(true);
  if (e.i != toks.size() - 1)
    error(toks[e.i].loc, "token is not a valid binary operator in a preprocessor subexpression");
  return v.v != 0;
}

// ----- #pragma --------------------------------------------------------------------------------

void Preprocessor::doPragma(const Token& directive) {
  Token t;
  lexDirectiveRaw(t);
  if (t.kind != Tok::Ident) {
    finishDirective();
    return;
  }
  Ident* p = t.ident;
  if (p == id_once_) {
    buffers_[size_t(file().buf)]->once = true;
    finishDirective();
    return;
  }
  if (p == id_pack_) {
    doPragmaPack(t);
    finishDirective();
    return;
  }
  if (p == id_push_macro_ || p == id_pop_macro_) {
    Token a, s, b;
    lexDirectiveRaw(a);
    lexDirectiveRaw(s);
    lexDirectiveRaw(b);
    if (a.kind == Tok::LParen && s.kind == Tok::String && b.kind == Tok::RParen && s.len >= 2 &&
        s.ptr[0] == '"') {
      Ident* name = idents_.getCopy(std::string_view(s.ptr + 1, s.len - 2));
      auto& stack = pushed_macros_[name];
      if (p == id_push_macro_) {
        stack.push_back(name->macro);
      } else if (!stack.empty()) {
        idents_.setMacro(name, stack.back());
        stack.pop_back();
      }
    }
    finishDirective();
    return;
  }
  if (p == id_GCC_) {
    Token s;
    lexDirectiveRaw(s);
    if (s.kind == Tok::Ident && s.ident->name == "error") {
      std::string_view msg = file().lexer.restOfLine();
      while (!msg.empty() && (msg.front() == ' ' || msg.front() == '\t')) msg.remove_prefix(1);
      error(directive.loc, "#pragma GCC error " + std::string(msg));
    }
    finishDirective();
    return;
  }
  if (p == id_clang_) {
    Token s;
    lexDirectiveRaw(s);
    if (s.kind == Tok::Ident && s.ident == id_attribute_)
      error(s.loc, "'#pragma clang attribute' is not supported (it can change layouts)", true);
    finishDirective();
    return;
  }
  if (p == id_ms_struct_) {
    Token s;
    lexDirectiveRaw(s);
    if (s.kind == Tok::Ident && s.ident == id_on_)
      error(t.loc, "'#pragma ms_struct on' is not supported (Microsoft record layout)", true);
    finishDirective();
    return;
  }
  // Every other pragma (GCC, clang diagnostic, STDC, OPENCL, omp, weak, ...) does not change
  // layouts or calling conventions: ignored.
  finishDirective();
}

void Preprocessor::doPragmaPack(const Token& at) {
  // clang: malformed or invalid #pragma pack is ignored with a warning.
  (void)at;
  Token t;
  next(t);
  if (t.kind != Tok::LParen) return;
  enum { kSet = 1, kPush = 2, kPop = 4 };
  int action = 0;
  std::string_view label;
  bool have_value = false;
  uint64_t value = 0;
  auto readValue = [&](const Token& n) -> bool {
    unsigned __int128 v = 0;
    IntLiteralInfo info;
    if (!parseIntegerLiteral(n.text(), v, info).empty() || info.is_float) return false;
    if (v > 1024) return false;
    value = uint64_t(v);
    have_value = true;
    return true;
  };
  next(t);
  if (t.kind == Tok::RParen) {
    action = kSet; // pack(): back to the default
  } else if (t.kind == Tok::Number) {
    if (!readValue(t)) return;
    action = kSet;
    next(t);
    if (t.kind != Tok::RParen) return;
  } else if (t.kind == Tok::Ident) {
    if (t.ident == id_show_) return;
    if (t.ident == id_push_)
      action = kPush;
    else if (t.ident == id_pop_)
      action = kPop;
    else
      return;
    next(t);
    while (t.kind == Tok::Comma) {
      next(t);
      if (t.kind == Tok::Ident && label.empty() && !have_value) {
        label = t.ident->name;
      } else if (t.kind == Tok::Number && !have_value) {
        if (!readValue(t)) return;
        action |= kSet;
      } else {
        return;
      }
      next(t);
    }
    if (t.kind != Tok::RParen) return;
  } else {
    return;
  }
  if (have_value &&
      !(value == 0 || value == 1 || value == 2 || value == 4 || value == 8 || value == 16))
    return;
  if (action & kPush) {
    pack_stack_.emplace_back(label, pack_current_);
  } else if (action & kPop) {
    if (!label.empty()) {
      for (size_t i = pack_stack_.size(); i-- > 0;) {
        if (pack_stack_[i].first == label) {
          pack_current_ = pack_stack_[i].second;
          pack_stack_.resize(i);
          break;
        }
      }
    } else if (!pack_stack_.empty()) {
      pack_current_ = pack_stack_.back().second;
      pack_stack_.pop_back();
    }
  }
  if (action & kSet) pack_current_ = have_value ? uint32_t(value) : 0;
}

} // namespace abikit::detail
