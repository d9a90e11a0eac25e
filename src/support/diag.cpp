#include "abikit/diag.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <utility>

namespace abikit {

namespace {

bool isContinuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The length of the printable UTF-8 character at s[i]: 0 for a control character other than
// newline and tab, DEL, or a byte that does not start a well-formed sequence.
size_t printableLength(std::string_view s, size_t i) {
  auto isCont = [&](size_t k) { return k < s.size() && isContinuation(s[k]); };
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = 0;
  if (c >= 0x20 && c < 0x7f)
    n = 1;
  else if (c == '\n' || c == '\t')
    n = 1;
  else if (c >= 0xC2 && c <= 0xDF && isCont(i + 1))
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF && isCont(i + 1) && isCont(i + 2) &&
           !(c == 0xE0 && static_cast<unsigned char>(s[i + 1]) < 0xA0) &&
           !(c == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0))
    n = 3;
  else if (c >= 0xF0 && c <= 0xF4 && isCont(i + 1) && isCont(i + 2) && isCont(i + 3) &&
           !(c == 0xF0 && static_cast<unsigned char>(s[i + 1]) < 0x90) &&
           !(c == 0xF4 && static_cast<unsigned char>(s[i + 1]) >= 0x90))
    n = 4;
  return n;
}

// `s` with every byte a terminal should not receive written as \xNN: control characters other
// than newline and tab, DEL, and bytes that are not part of well-formed UTF-8 (a name read from
// a binary file, say).
std::string printable(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (size_t n = printableLength(s, i)) {
      out.append(s, i, n);
      i += n;
      continue;
    }
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
    ++i;
  }
  return out;
}

// `s` cut to at most `max` bytes at a UTF-8 character boundary, "..." appended when cut.
std::string bounded(std::string s, size_t max) {
  if (s.size() <= max) return s;
  size_t end = max;
  while (end > 0 && isContinuation(s[end])) --end;
  s.resize(end);
  s += "...";
  return s;
}

// Part of line `line` of the file at `path` (cold path: an error's caret display): the bytes from
// `from` on, at most `keep` of them (`from` is lowered to the line's length); empty when the file
// cannot be read. At most 64 MiB are scanned.
std::string readLine(const std::string& path, uint32_t line, size_t& from, size_t keep) {
  if (line == 0 || path.empty() || path.front() == '<') return {};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  constexpr size_t kMaxRead = size_t(64) << 20;
  std::string text;
  uint32_t current = 1;
  size_t read = 0, col = 0;
  char buf[4096];
  while (in && read < kMaxRead) {
    in.read(buf, sizeof buf);
    size_t n = size_t(in.gcount());
    read += n;
    for (size_t i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        if (current == line) {
          from = std::min(from, col);
          return text;
        }
        ++current;
        continue;
      }
      if (current != line) continue;
      if (col >= from && text.size() < keep) text += buf[i];
      ++col;
    }
    if (n == 0) break;
  }
  from = std::min(from, col);
  return current == line ? text : std::string();
}

} // namespace

Error::Error(ErrorKind kind, std::string message)
    : kind_(kind), message_(bounded(std::move(message), kMaxMessage)) {}

Error Error::atSource(ErrorKind kind, std::string message, std::string file, uint32_t line,
                      uint32_t column, std::string_view source_line) {
  return atSourcePart(kind, std::move(message), std::move(file), line, column, source_line, 0,
                      source_line.size());
}

Error Error::atSourcePart(ErrorKind kind, std::string message, std::string file, uint32_t line,
                          uint32_t column, std::string_view part, size_t part_begin,
                          size_t line_size) {
  Error e(kind, std::move(message));
  e.file_ = std::move(file);
  e.line_ = line == 0 ? 1 : line;
  e.column_ = column == 0 ? 1 : column;
  // `part` is the line's bytes [part_begin, part_begin + part.size()) of line_size in all. Shown:
  // a window of at most kMaxShownLine bytes around the column (the whole line when short).
  if (part_begin + part.size() == line_size && !part.empty() && part.back() == '\r') {
    part.remove_suffix(1);
    --line_size;
  }
  size_t caret = e.column_ - 1;
  size_t begin = part_begin, end = part_begin + part.size();
  if (line_size > kMaxShownLine) {
    size_t want = caret > kMaxShownLine / 2 ? caret - kMaxShownLine / 2 : 0;
    begin = std::clamp(want, part_begin, end);
    end = std::min(end, begin + kMaxShownLine);
    while (begin < end && isContinuation(part[begin - part_begin])) ++begin;
    while (end < part_begin + part.size() && end > begin && isContinuation(part[end - part_begin]))
      --end;
  }
  std::string shown;
  if (begin > 0) shown = "...";
  size_t lead = shown.size();
  // One '?' per byte that is no printable character (the caret stays over its column).
  for (size_t i = begin; i < end;) {
    size_t n = part[i - part_begin] == '\n' ? 0 : printableLength(part, i - part_begin);
    if (n == 0 || i + n > end) {
      shown += '?';
      ++i;
    } else {
      shown.append(part.substr(i - part_begin, n));
      i += n;
    }
  }
  if (end < line_size) shown += "...";
  e.source_line_ = std::move(shown);
  e.caret_ = lead + (caret >= begin ? caret - begin : 0);
  return e;
}

Error Error::atSourceFile(ErrorKind kind, std::string message, std::string file, uint32_t line,
                          uint32_t column) {
  size_t from = column > kMaxShownLine / 2 ? column - 1 - kMaxShownLine / 2 : 0;
  std::string text = readLine(file, line, from, kMaxShownLine + 8);
  // The line's length is not known past the part read: one byte more than read means "cut".
  size_t size = from + text.size() + (text.size() == kMaxShownLine + 8 ? 1 : 0);
  return atSourcePart(kind, std::move(message), std::move(file), line, column, text, from, size);
}

Error Error::atOffset(std::string message, std::string file, uint64_t offset) {
  Error e(ErrorKind::Elf, std::move(message));
  e.file_ = std::move(file);
  e.offset_ = offset;
  e.has_offset_ = true;
  return e;
}

Error Error::atBufferOffset(ErrorKind kind, std::string message, uint64_t offset) {
  Error e(kind, std::move(message));
  e.offset_ = offset;
  e.has_offset_ = true;
  e.offset_in_message_ = true;
  return e;
}

Error Error::atOption(std::string message, std::string option, std::string value, size_t index) {
  Error e(ErrorKind::Target, std::move(message));
  e.option_ = std::move(option);
  e.option_value_ = bounded(std::move(value), kMaxMessage);
  e.option_index_ = index;
  return e;
}

std::string Error::format() const {
  std::string out;
  const std::string message = printable(message_);
  const std::string file = printable(file_);
  if (hasSourcePosition()) {
    out =
        file + ":" + std::to_string(line_) + ":" + std::to_string(column_) + ": error: " + message;
    out += '\n';
    out += source_line_;
    out += '\n';
    // Keep tabs so that the caret lines up with the printed source line.
    for (size_t i = 0; i < caret_; ++i)
      out += i < source_line_.size() && source_line_[i] == '\t' ? '\t' : ' ';
    out += '^';
    return out;
  }
  if (offset_in_message_) return "abikit: error: " + message;
  if (has_offset_)
    return file + ": error: " + message + " (at byte offset " + std::to_string(offset_) + ")";
  if (!option_.empty())
    return "abikit: error: " + message + " (in '" + printable(option_) + "=" +
           printable(option_value_) + "' at character " + std::to_string(option_index_ + 1) + ")";
  return "abikit: error: " + message;
}

} // namespace abikit
