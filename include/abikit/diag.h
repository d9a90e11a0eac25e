// abikit — diagnostics.
//
// Every failure the library reports is an abikit::Error. It carries what went wrong and where:
// a source position (file, line, column, and the text of that line for the caret display), a
// byte offset into a binary file, or a character position inside an option value such as
// `-march`. The CLI prints it with Error::format(); library users can read the fields.
#pragma once

#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

namespace abikit {

enum class ErrorKind : uint8_t {
  Target,      // unknown triple/CPU/ABI, malformed -march, invalid combination
  Input,       // malformed or unsupported C declaration text
  Unsupported, // well-formed input the target (or abikit) cannot express
  Elf,         // malformed or hostile object file
};

class Error : public std::exception {
public:
  /// A message with no position (target errors without a position, generic failures).
  Error(ErrorKind kind, std::string message);

  /// A message about a position in C source text. `source_line` is the whole line (without the
  /// newline); the error keeps a window of at most kMaxShownLine bytes of it around the column,
  /// with control bytes shown as '?', so that the caret display works after the buffer is gone
  /// and costs the same for a line of any length.
  static Error atSource(ErrorKind kind, std::string message, std::string file, uint32_t line,
                        uint32_t column, std::string_view source_line);
  /// The same, with the line read again from the file `file` names (for errors found after the
  /// text is gone: layout, lowering). No line is shown for standard input, in-memory or built-in
  /// text ("<...>" names) or a file that cannot be read.
  static Error atSourceFile(ErrorKind kind, std::string message, std::string file, uint32_t line,
                            uint32_t column);
  static constexpr size_t kMaxShownLine = 512;
  /// Messages are cut to this many bytes (a message may quote the input).
  static constexpr size_t kMaxMessage = 4096;

  /// A message about a byte offset in a binary file.
  static Error atOffset(std::string message, std::string file, uint64_t offset);
  /// A message about a byte offset in bytes that are no file (a DWARF expression given as hex):
  /// hasOffset() and offset() tell where; the message itself names the position, so format()
  /// prints "abikit: error: MSG".
  static Error atBufferOffset(ErrorKind kind, std::string message, uint64_t offset);

  /// A message about a character inside an option value, e.g. `-march=rv32izbam`:
  /// `option` is "-march", `value` the whole value and `index` the 0-based character position.
  static Error atOption(std::string message, std::string option, std::string value, size_t index);

  ErrorKind kind() const { return kind_; }
  const std::string& message() const { return message_; }
  const std::string& file() const { return file_; }
  uint32_t line() const { return line_; }
  uint32_t column() const { return column_; }
  /// The shown part of the source line ("..." where it was cut) and the caret's 0-based index in
  /// it.
  const std::string& sourceLine() const { return source_line_; }
  size_t caretIndex() const { return caret_; }
  bool hasSourcePosition() const { return line_ != 0; }
  bool hasOffset() const { return has_offset_; }
  uint64_t offset() const { return offset_; }
  bool hasOptionPosition() const { return !option_.empty(); }
  const std::string& option() const { return option_; }
  const std::string& optionValue() const { return option_value_; }
  size_t optionIndex() const { return option_index_; }

  const char* what() const noexcept override { return message_.c_str(); }

  /// The text the CLI prints (no trailing newline):
  ///  - source:  "FILE:LINE:COL: error: MSG\n<source line>\n<spaces>^"
  ///  - offset:  "FILE: error: MSG (at byte offset N)" (atBufferOffset: "abikit: error: MSG")
  ///  - option:  "abikit: error: MSG (in '-march=VALUE' at character N)"
  ///  - plain:   "abikit: error: MSG"
  std::string format() const;

private:
  static Error atSourcePart(ErrorKind kind, std::string message, std::string file, uint32_t line,
                            uint32_t column, std::string_view part, size_t part_begin,
                            size_t line_size);
  ErrorKind kind_;
  std::string message_;
  std::string file_;
  std::string source_line_;
  std::string option_;
  std::string option_value_;
  uint64_t offset_ = 0;
  size_t option_index_ = 0;
  size_t caret_ = 0;
  uint32_t line_ = 0;
  uint32_t column_ = 0;
  bool has_offset_ = false;
  bool offset_in_message_ = false;
};

} // namespace abikit
