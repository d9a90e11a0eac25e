// The preprocessor of the C declaration front-end: directives, macro expansion (object- and
// function-like, variadic, # and ##, __VA_OPT__, rescanning without self-recursion), #include
// with the built-in headers, #if expressions, and #pragma pack/once/push_macro/pop_macro.
#include "preprocessor.h"

#include "abikit/diag.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace abikit::detail {

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
  for (const auto& [name, value] : predefinedMacros(ctx_.target(), ctx_.languageMode())) {
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

const char* binaryKind(std::string_view text) {
  if (text.starts_with("\x7f"
                       "ELF"))
    return "an ELF file";
  if (text.starts_with("!<arch>\n") || text.starts_with("!<thin>\n")) return "an ar archive";
  if (text.substr(0, 4096).find('\0') != std::string_view::npos) return "a binary file";
  return nullptr;
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
  const SourceBuffer& main = *buffers_[size_t(main_buf)];
  if (const char* kind = binaryKind(std::string_view(main.data, main.size)))
    error(files_.back()->lexer.locAt(main.data),
          "this is " + std::string(kind) + ", not C source" +
              (std::string_view(kind) != "a binary file"
                   ? " (abikit elf reads objects and archives)"
                   : ""));
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

} // namespace abikit::detail
