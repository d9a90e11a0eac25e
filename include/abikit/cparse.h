// abikit — the C declaration front-end.
//
// A self-contained preprocessor and parser for the declaration subset of C11/C2x that headers
// use (plus OpenCL C and CUDA/HIP kernel declarations). It builds types in a TypeContext and
// returns what the text declared. Function bodies and other definitions are skipped. Anything
// outside the supported subset is an abikit::Error with FILE:LINE:COL naming the construct.
#pragma once

#include "abikit/layout.h"
#include "abikit/types.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit {

struct ParseOptions {
  std::vector<std::string> include_dirs; // -I, searched for #include "..." after the
                                         // including file's directory
  /// -D NAME[=VALUE] (no value: defined as 1) and -U NAME, applied in order after the
  /// predefined macros.
  std::vector<std::pair<std::string, std::optional<std::string>>> defines;
  std::vector<std::string> undefines;
  /// Reads common member declarations (a type and a name, pointers, one array dimension, a
  /// bit-field width) straight from the text instead of through the general parser. The result,
  /// errors included, is the same either way; false exists to test that it is.
  bool fast_paths = true;
  /// Type names, comma separated, read after the file in its scope (e.g. `--variadic-args
  /// int,struct S*`): TranslationUnit::type_list. They are parsed as type names from a text of
  /// their own (no directives, nothing else), never spliced into the file's text; `origin` names
  /// that text in diagnostics.
  struct TypeList {
    std::string text;
    std::string origin;
  };
  std::optional<TypeList> type_list;
  /// The most bytes of source text read: the main file and its #includes together
  /// (--max-input-size).
  uint64_t max_input_bytes = uint64_t(1) << 30;
};

/// The language a file is written in, from its name: .cl -> OpenCL, .cu -> CUDA, .hip -> HIP,
/// anything else (.h, .c, "-") -> C.
Language languageForPath(std::string_view path);

/// Parses a file ("-" reads standard input). The context's language decides the dialect;
/// `layout` answers sizeof/_Alignof in constant expressions.
TranslationUnit parseFile(TypeContext& ctx, const LayoutEngine& layout, const std::string& path,
                          const ParseOptions& options);

/// Parses text held in memory; `name` is used in diagnostics and for relative #include.
TranslationUnit parseSource(TypeContext& ctx, const LayoutEngine& layout, std::string_view name,
                            std::string_view text, const ParseOptions& options);

/// Spare capacity after the text that lets parseOwnedSource() lex a string in place: reserve
/// size + kSourcePadding bytes before filling it.
inline constexpr size_t kSourcePadding = 8;

/// The one reader of source text: the whole of `path` ("-" reads standard input) into a string
/// with at least `padding` bytes of spare capacity after the text. A regular file or a pipe
/// (read once, as it comes); a directory, device or socket is refused with an Input error, and
/// so is text longer than `max_bytes` (the error names the limit), before more than `max_bytes`
/// are held.
std::string readSourceFile(const std::string& path, uint64_t max_bytes, size_t padding);
/// The error for an input larger than `max_bytes` ("-" is standard input).
[[noreturn]] void failInputTooLarge(const std::string& path, uint64_t max_bytes);

/// parseSource() on text it takes over. When text.capacity() is at least
/// text.size() + kSourcePadding, the front-end lexes the string's own buffer: a large input is
/// held once, not copied. Otherwise the text is copied once, as parseSource() does.
TranslationUnit parseOwnedSource(TypeContext& ctx, const LayoutEngine& layout,
                                 std::string_view name, std::string&& text,
                                 const ParseOptions& options);

/// parseSource() on text followed in memory by kSourcePadding NUL bytes (text.data()[text.size()]
/// up to text.data()[text.size() + kSourcePadding - 1]): the front-end lexes it where it is, with
/// no copy. The bytes must stay valid and unchanged during the call only.
TranslationUnit parsePaddedSource(TypeContext& ctx, const LayoutEngine& layout,
                                  std::string_view name, std::string_view text,
                                  const ParseOptions& options);

} // namespace abikit
