// The preprocessor's directives: #define/#undef, #include (with the built-in headers and the
// translation unit's size limit), conditional groups, #line, #error, and #pragma.
#include "abikit/diag.h"
#include "preprocessor.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace abikit::detail {

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
  if (const char* kind = binaryKind(text))
    error(at, "'" + path + "' is " + kind + ", not C source");
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
    // clang: `on` makes the records defined after it ms_struct, `off` and `reset` stop that;
    // anything else is ignored with a warning.
    Token s;
    lexDirectiveRaw(s);
    if (s.kind == Tok::Ident && s.ident == id_on_)
      ms_struct_on_ = true;
    else if (s.kind == Tok::Ident && (s.ident->name == "off" || s.ident->name == "reset"))
      ms_struct_on_ = false;
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
