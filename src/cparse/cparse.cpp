// The public entry points of the C declaration front-end (include/abikit/cparse.h).
#include "abikit/cparse.h"

#include "abikit/diag.h"
#include "parse.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

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

void failInputTooLarge(const std::string& path, uint64_t max_bytes) {
  throw Error(ErrorKind::Input, "'" + std::string(path == "-" ? "<stdin>" : path) +
                                    "' is larger than the input size limit of " +
                                    std::to_string(max_bytes) + " bytes (--max-input-size)");
}

std::string readSourceFile(const std::string& path, uint64_t max_bytes, size_t padding) {
  namespace fs = std::filesystem;
  std::string shown = path == "-" ? "<stdin>" : path;
  std::FILE* f = stdin;
  uint64_t expected = 0;
  if (path != "-") {
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw Error(ErrorKind::Input, "'" + path + "' file not found");
    if (fs::is_directory(st)) throw Error(ErrorKind::Input, "'" + path + "' is a directory");
    if (!fs::is_regular_file(st) && !fs::is_fifo(st))
      throw Error(ErrorKind::Input, "'" + path + "' is not a regular file");
    if (fs::is_regular_file(st)) {
      expected = fs::file_size(path, ec);
      if (ec) expected = 0;
      if (expected > max_bytes) failInputTooLarge(path, max_bytes);
    }
    f = std::fopen(path.c_str(), "rb");
    if (!f) throw Error(ErrorKind::Input, "cannot open '" + path + "'");
  }
  struct Closer {
    std::FILE* f;
    ~Closer() {
      if (f != stdin) std::fclose(f);
    }
  } closer{f};
  // A regular file is read with one call into one allocation of its size (it may still grow or
  // shrink while it is read); a pipe into a string that grows, never past the limit.
  std::string text;
  text.reserve(size_t(expected) + padding);
  text.resize(size_t(expected));
  text.resize(std::fread(text.data(), 1, text.size(), f));
  char buf[1 << 16];
  size_t n;
  while (!std::ferror(f) && (n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    if (n > max_bytes - std::min<uint64_t>(max_bytes, text.size()))
      failInputTooLarge(path, max_bytes);
    if (text.capacity() < text.size() + n + padding)
      text.reserve(std::max(text.capacity() * 2, text.size() + n + padding));
    text.append(buf, n);
  }
  if (std::ferror(f)) throw Error(ErrorKind::Input, "cannot read '" + shown + "'");
  return text;
}

TranslationUnit parseFile(TypeContext& ctx, const LayoutEngine& layout, const std::string& path,
                          const ParseOptions& options) {
  std::string text = readSourceFile(path, options.max_input_bytes, detail::kLexPadding);
  return detail::runParser(ctx, layout, path == "-" ? "<stdin>" : path, std::move(text), options);
}

} // namespace abikit
