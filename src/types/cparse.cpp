// The public entry points of the C declaration front-end (include/abikit/cparse.h).
#include "abikit/cparse.h"

#include "abikit/diag.h"
#include "cparse_parse.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace abikit {

Language languageForPath(std::string_view path) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() && path.substr(path.size() - ext.size()) == ext;
  };
  if (ends(".cl")) return Language::OpenCL;
  if (ends(".cu")) return Language::CUDA;
  if (ends(".hip")) return Language::HIP;
  return Language::C;
}

TranslationUnit parseSource(TypeContext& ctx, const LayoutEngine& layout, std::string_view name,
                            std::string_view text, const ParseOptions& options) {
  // One copy, with room for the lexer's padding.
  std::string copy;
  copy.reserve(text.size() + detail::kLexPadding);
  copy.append(text);
  return detail::runParser(ctx, layout, name, std::move(copy), options);
}

TranslationUnit parseOwnedSource(TypeContext& ctx, const LayoutEngine& layout,
                                 std::string_view name, std::string&& text,
                                 const ParseOptions& options) {
  static_assert(kSourcePadding >= detail::kLexPadding);
  // The preprocessor keeps the string as its buffer when the padding fits in its capacity and
  // copies it once otherwise.
  return detail::runParser(ctx, layout, name, std::move(text), options);
}

TranslationUnit parsePaddedSource(TypeContext& ctx, const LayoutEngine& layout,
                                  std::string_view name, std::string_view text,
                                  const ParseOptions& options) {
  static_assert(kSourcePadding >= detail::kLexPadding);
  return detail::runParserBorrowed(ctx, layout, name, text, options);
}

TranslationUnit parseFile(TypeContext& ctx, const LayoutEngine& layout, const std::string& path,
                          const ParseOptions& options) {
  std::string text;
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
    return detail::runParser(ctx, layout, "<stdin>", std::move(text), options);
  }
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw Error(ErrorKind::Input, "'" + path + "' file not found");
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorKind::Input, "'" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorKind::Input, "cannot open '" + path + "'");
  // Read into one allocation with room for the lexer's padding (the file may still grow or
  // shrink while it is read).
  uintmax_t expected = std::filesystem::file_size(path, ec);
  if (ec || expected > (uintmax_t(1) << 32)) expected = 0;
  text.reserve(size_t(expected) + detail::kLexPadding);
  text.resize(size_t(expected));
  in.read(text.data(), std::streamsize(expected));
  text.resize(size_t(in.gcount()));
  if (in.bad()) throw Error(ErrorKind::Input, "cannot read '" + path + "'");
  if (in) {
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw Error(ErrorKind::Input, "cannot read '" + path + "'");
    text += std::move(ss).str();
  }
  return detail::runParser(ctx, layout, path, std::move(text), options);
}

} // namespace abikit
