// Internal: the preprocessor of the C declaration front-end.
//
// It pulls tokens from a stack of file lexers and macro-expansion contexts and hands fully
// expanded tokens to the parser, one at a time. Directives are handled when the file lexer
// meets a '#' at the start of a line; #pragma pack state is kept here for the parser.
#pragma once

#include "abikit/cparse.h"
#include "lexer.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace abikit::detail {

/// Built-in macros and preprocessor-level names (Ident::pp_special).
enum PpSpecial : uint8_t {
  kPpNone = 0,
  kPpDefined,
  kPpVaArgs,
  kPpVaOpt,
  // built-in macros (Macro::builtin)
  kPpFile,
  kPpLine,
  kPpCounter,
  kPpIncludeLevel,
  kPpBaseFile,
  kPpDate,
  kPpTime,
  kPpTimestamp,
  kPpPragmaOp, // _Pragma
  kPpHasInclude,
  kPpHasIncludeNext,
  kPpHasAttribute,
  kPpHasCAttribute,
  kPpHasDeclspecAttribute,
  kPpHasBuiltin,
  kPpHasFeature,
  kPpHasExtension,
  kPpHasWarning,
  kPpIsIdentifier,
  kPpBuildingModule,
};

struct Macro {
  Ident* name = nullptr;
  std::vector<Token> body;
  std::vector<int16_t> param_of; // per body token: parameter index, or -1
  std::vector<Ident*> params;    // the variadic parameter, if any, is last
  Loc loc;
  bool function_like = false;
  bool variadic = false;
  bool disabled = false; // being expanded
  uint8_t builtin = 0;   // PpSpecial of a built-in macro
  // The parser's cache of the body's value as an int constant expression (see
  // Preprocessor::macroIntValue): 0 not computed yet, 1 `int_value` holds it, 2 not such a body.
  uint8_t int_state = 0;
  int32_t int_value = 0;
};

// The preprocessor's limits (errors past them, never crashes or unbounded memory).
constexpr size_t kMaxIncludeDepth = 200;
constexpr unsigned kMaxExpandDepth = 256;
constexpr uint64_t kMaxExpansionTokens = uint64_t(1) << 22;
// Tokens held at once by the macro invocations being expanded: their arguments and the copies
// made to pre-expand them, across every nesting level (F(F(F(...))) holds the rest of the line
// once per level). Bounds the memory of expansion whatever the nesting (2^21 tokens: 80 MB).
constexpr uint64_t kMaxHeldTokens = uint64_t(1) << 21;
constexpr uint64_t kMaxIncludedFiles = 100000;
constexpr unsigned kMaxExprDepth = 512;

/// One text the preprocessor has read (a file, a built-in header, the predefines).
struct SourceBuffer {
  std::string path;           // as shown in diagnostics
  std::string dir;            // directory for #include "..." ("" = current directory)
  std::string text;           // the contents followed by kLexPadding NULs (unless borrowed)
  const char* data = nullptr; // the contents: text.data(), or a caller's padded bytes
  size_t size = 0;            // of the contents
  uint32_t file_id = 0;
  bool builtin = false;   // built-in header or predefines: its declarations are built-in
  bool once = false;      // #pragma once
  bool entered = false;   // has been entered at least once
  Ident* guard = nullptr; // include guard (multiple-include optimisation)
  int search_index = -1;  // index in the -I list it was found through (#include_next)
};

/// Answers questions the preprocessor asks the parser (__has_attribute and friends).
struct PpQueries {
  std::function<int(std::string_view scope, std::string_view name, bool c2x)> has_attribute;
};

class Preprocessor {
public:
  Preprocessor(TypeContext& ctx, const ParseOptions& options, IdentTable& idents,
               StringArena& arena, PpQueries queries);
  ~Preprocessor();
  Preprocessor(const Preprocessor&) = delete;
  Preprocessor& operator=(const Preprocessor&) = delete;

  /// Sets up the predefines and the main file. `path` names it in diagnostics.
  void enterMainFile(std::string path, std::string text);
  /// The same for a main file the caller holds, followed by kLexPadding NULs, for as long as
  /// this preprocessor lives (not copied).
  void enterMainFileBorrowed(std::string path, std::string_view padded);
  /// After the main file's end (Tok::Eof): `text`, named `name` in diagnostics, is read as what
  /// follows, with no directives ('#' is an ordinary token) and then Tok::Eof again.
  void enterTextAfterEnd(std::string name, std::string text);
  /// The next fully expanded token (Tok::Eof at the end of the main file).
  inline void next(Token& t);

  /// The current file's lexer when the tokens after the last one returned would come straight
  /// from it (no macro expansion in progress, not in a directive, include-guard detection
  /// settled); nullptr otherwise. A caller may scan the bytes ahead itself while no identifier
  /// it passes names a macro, then move the lexer with Lexer::skipTo().
  inline Lexer* directLexer();

  /// #pragma pack value in effect (bytes, 0 = none).
  uint32_t packAlignment() const { return pack_current_; }
  /// Whether `#pragma ms_struct on` is in effect.
  bool msStructOn() const { return ms_struct_on_; }
  /// True for tokens that come from a built-in header or the predefines.
  bool isBuiltin(const Loc& loc) const {
    return loc.buf < buffers_.size() && buffers_[loc.buf]->builtin;
  }

  /// The text of the line that holds `loc` (for the caret display).
  std::string_view sourceLine(const Loc& loc) const;
  [[noreturn]] void error(const Loc& loc, std::string message, bool unsupported = false) const;

  TypeContext& context() { return ctx_; }
  uint32_t wcharBits() const;
  /// The value of an object-like macro whose body is an integer constant expression the parser
  /// would evaluate in int, every literal an int without suffix and every operation staying in
  /// int (what the parser computes for it, through the #if evaluator); false for any other body.
  bool macroIntValue(const Macro& m, int64_t& value) const;

private:
  struct FileState;
  void nextSlow(Token& t, bool lexed); // lexed: t was just lexed from the current file
  struct ExpCtx {
    const Token* toks;
    uint32_t n;
    uint32_t i;
    Macro* macro;                // re-enabled when this context is popped
    std::vector<Token>* storage; // returned to the pool when popped
  };
  struct Cond {
    Loc loc;
    const char* what; // "#if", "#ifdef", "#ifndef"
    bool taken;       // some group of this #if chain was (or is being) included
    bool in_else;     // after #else
  };

  // Token sources.
  void lexUnexpanded(Token& t);
  void lexFile(Token& t);
  bool fileToken(Token& t); // a '#' or end of file from the file lexer; false: read on
  void pushTokens(std::vector<Token>* toks, Macro* macro);
  void popContext();
  void pushBack(const Token& t);
  std::vector<Token>* takeVector();
  void giveVector(std::vector<Token>* v);

  // Macro expansion.
  struct Subst {
    Macro* m;
    std::vector<Token>* args;
    const std::vector<uint32_t>* bounds; // argument i is [bounds[2i], bounds[2i+1])
    std::vector<std::vector<Token>*> expanded;
    Loc use;
    const Token* argBegin(int p) const { return args->data() + (*bounds)[size_t(p) * 2]; }
    size_t argSize(int p) const {
      return size_t((*bounds)[size_t(p) * 2 + 1] - (*bounds)[size_t(p) * 2]);
    }
  };
  bool expandMacro(Macro* m, Token& name);
  enum class ObjectLike : uint8_t { NotHandled, Token, Pushed };
  ObjectLike expandObjectLike(Macro* m, Token& name);
  void substitute(Subst& st, size_t from, size_t to, std::vector<Token>& out);
  std::vector<Token>& preExpandedArg(Subst& st, int p);
  bool expandBuiltin(Macro* m, Token& t);
  void preExpand(const Token* toks, size_t n, std::vector<Token>& out, const Loc& use,
                 const Macro* m);
  [[noreturn]] void tooManyHeld(const Loc& use, const Macro* m) const;
  void stringize(const Token* toks, size_t n, const Loc& loc, Token& out);
  bool paste(Token& left, const Token& right, const Loc& loc);
  void makeToken(Token& t, std::string_view text, const Loc& loc);

  // Directives.
  void handleDirective(Token& hash);
  void lexDirectiveRaw(Token& t);
  void finishDirective(); // consume up to the end of the directive line
  void expectEndOfDirective(std::string_view directive);
  void doDefine();
  void doUndef();
  void doInclude(const Token& directive, bool next);
  void doIf(const Token& directive, int kind);
  void doElse(const Token& directive, int kind);
  void doEndif(const Token& directive);
  void doLine(Token& first, bool gnu_marker);
  void doPragma(const Token& directive);
  void doPragmaPack(const Token& at);
  void skipGroup();
  bool evalCondition(const Token& directive);
  long long evalHasBuiltinQuery(Ident* which, Token& at, bool in_directive);
  bool readParenIdentifier(Token& at, Ident*& out, std::string* scope);
  bool hasInclude(Token& at, bool next);
  void pragmaOperator(Token& t);

  // Files.
  int findInclude(std::string_view name, bool angled, bool next, const Loc& at, bool& builtin);
  int loadFile(const std::string& path, int search_index, const Loc& at);
  int loadFileUncached(const std::string& path, int search_index, const Loc& at);
  int builtinHeader(std::string_view name);
  void enterBuffer(int buf);
  int addBuffer(std::string path, std::string text, bool builtin);
  int addBorrowedBuffer(std::string path, std::string_view padded, bool builtin);
  void enterMain(int main_buf);
  FileState& file() { return *files_.back(); }

  Macro* defineBuiltin(const char* name, uint8_t kind);
  void setupPredefines(std::string& out);

  TypeContext& ctx_;
  const ParseOptions& options_;
  uint64_t text_bytes_ = 0; // of the main file and the files read for #include
  IdentTable& idents_;
  StringArena& arena_;
  PpQueries queries_;

  std::vector<std::unique_ptr<SourceBuffer>> buffers_;
  std::unordered_map<std::string, int> file_cache_; // canonical path -> buffer
  // Path as looked for -> buffer, or -1: not a readable regular file. The file system is looked
  // at once per path and run (each lookup is a stat and a readlink per path component).
  std::unordered_map<std::string, int> path_cache_;
  std::vector<Token> define_body_; // doDefine()'s scratch
  std::vector<int16_t> define_param_of_;
  std::unordered_map<std::string, int> builtin_cache_; // header name -> buffer
  std::vector<std::unique_ptr<FileState>> files_;      // include stack
  std::vector<Cond> conds_;
  std::vector<ExpCtx> exp_;
  std::vector<std::vector<Token>*> pool_;
  std::vector<std::unique_ptr<std::vector<Token>>> all_vectors_;
  std::deque<Macro> macros_;
  std::unordered_map<Ident*, std::vector<Macro*>> pushed_macros_; // #pragma push_macro

  uint32_t pack_current_ = 0;
  bool ms_struct_on_ = false;
  std::vector<std::pair<std::string_view, uint32_t>> pack_stack_;

  Ident* id_defined_;
  Ident* id_va_args_;
  Ident* id_va_opt_;
  Ident *id_define_, *id_undef_, *id_include_, *id_include_next_, *id_import_, *id_if_, *id_ifdef_,
      *id_ifndef_, *id_elif_, *id_elifdef_, *id_elifndef_, *id_else_, *id_endif_, *id_line_,
      *id_error_, *id_warning_, *id_pragma_, *id_ident_, *id_sccs_;
  Ident *id_once_, *id_pack_, *id_push_, *id_pop_, *id_show_, *id_push_macro_, *id_pop_macro_,
      *id_clang_, *id_attribute_, *id_ms_struct_, *id_on_, *id_GCC_, *id_poison_, *id_STDC_;

  std::string main_path_;
  uint64_t counter_ = 0;
  unsigned expand_depth_ = 0;
  uint64_t expanded_tokens_ = 0; // since the context stack was last empty
  uint64_t held_tokens_ = 0;     // see kMaxHeldTokens
  uint64_t included_files_ = 0;
  bool in_if_expression_ = false;
};

struct Preprocessor::FileState {
  enum Guard : uint8_t { kStart, kInGuard, kAfterEndif, kInvalid };
  FileState(const SourceBuffer& b, int index, IdentTable& idents, StringArena& arena,
            size_t cond_base)
      : lexer(b.data, b.data + b.size, uint32_t(index), b.file_id, idents, arena), buf(index),
        cond_base(cond_base) {}
  Lexer lexer;
  int buf;
  size_t cond_base;
  Guard guard = kStart;
  bool no_directives = false; // see enterTextAfterEnd()
  Ident* guard_macro = nullptr;
  size_t guard_cond = 0;
};

inline Lexer* Preprocessor::directLexer() {
  if (!exp_.empty()) return nullptr;
  FileState& f = *files_.back();
  if ((f.guard != FileState::kInvalid && f.guard != FileState::kInGuard) || f.lexer.in_directive)
    return nullptr;
  return &f.lexer;
}

// The common case inline: a token straight from the current file that is not a macro name, a
// directive or the end of the file (and does not end an include-guard candidate).
inline void Preprocessor::next(Token& t) {
  if (exp_.empty()) {
    FileState& f = *files_.back();
    if (f.guard == FileState::kInvalid || f.guard == FileState::kInGuard) {
      f.lexer.lex(t);
      if ((t.kind == Tok::Ident && !t.ident->macro) ||
          (t.kind != Tok::Ident && t.kind != Tok::Hash && t.kind != Tok::Eof))
        return;
      nextSlow(t, true);
      return;
    }
  }
  nextSlow(t, false);
}

/// The text of a built-in header for this context (nullptr-like empty view if unknown):
/// <stdint.h>, <stddef.h>, <stdbool.h>, <stdalign.h>, <stdarg.h>, <limits.h>, <float.h>,
/// <uchar.h>, <assert.h>, and the target's own headers. `out` receives the text.
bool builtinHeaderText(const TypeContext& ctx, std::string_view name, std::string& out);

/// What a file that is not C source is ("an ELF file", "an ar archive", "a binary file": a NUL
/// byte among its first 4 KiB), from its text; nullptr for text.
const char* binaryKind(std::string_view text);

/// Declarations every translation unit starts with (the per-language built-in typedefs:
/// __builtin_va_list, __int128_t, OpenCL's uchar/float4/size_t/..., CUDA's attribute macros).
std::string languagePrelude(const TypeContext& ctx);

} // namespace abikit::detail
