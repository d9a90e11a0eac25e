#include "abikit/diag.h"

#include <utility>

namespace abikit {

Error::Error(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}

Error Error::atSource(ErrorKind kind, std::string message, std::string file, uint32_t line,
                      uint32_t column, std::string source_line) {
  Error e(kind, std::move(message));
  e.file_ = std::move(file);
  e.line_ = line == 0 ? 1 : line;
  e.column_ = column == 0 ? 1 : column;
  e.source_line_ = std::move(source_line);
  return e;
}

Error Error::atOffset(std::string message, std::string file, uint64_t offset) {
  Error e(ErrorKind::Elf, std::move(message));
  e.file_ = std::move(file);
  e.offset_ = offset;
  e.has_offset_ = true;
  return e;
}

Error Error::atOption(std::string message, std::string option, std::string value, size_t index) {
  Error e(ErrorKind::Target, std::move(message));
  e.option_ = std::move(option);
  e.option_value_ = std::move(value);
  e.option_index_ = index;
  return e;
}

std::string Error::format() const {
  std::string out;
  if (hasSourcePosition()) {
    out = file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
          ": error: " + message_;
    out += '\n';
    out += source_line_;
    out += '\n';
    // Keep tabs so that the caret lines up with the printed source line.
    for (uint32_t i = 1; i < column_; ++i)
      out += (i - 1 < source_line_.size() && source_line_[i - 1] == '\t') ? '\t' : ' ';
    out += '^';
    return out;
  }
  if (has_offset_)
    return file_ + ": error: " + message_ + " (at byte offset " + std::to_string(offset_) + ")";
  if (!option_.empty())
    return "abikit: error: " + message_ + " (in '" + option_ + "=" + option_value_ +
           "' at character " + std::to_string(option_index_ + 1) + ")";
  return "abikit: error: " + message_;
}

} // namespace abikit
