// The values of literals: integer and floating constants (suffixes, bases, overflow), character
// constants and string literals (escapes, prefixes).
#include "lexer.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace abikit::detail {

// ----- literals -------------------------------------------------------------------------------

std::string parseIntegerLiteral(std::string_view s, unsigned __int128& value,
                                IntLiteralInfo& info) {
  info = IntLiteralInfo();
  value = 0;
  size_t i = 0;
  unsigned base = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    i = 2;
  } else if (s.size() >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    i = 2;
  } else if (!s.empty() && s[0] == '0') {
    base = 8;
  }
  info.is_decimal = base == 10;
  // Floating constants are recognised, not parsed.
  for (size_t k = 0; k < s.size(); ++k) {
    char c = s[k];
    if (c == '.') {
      info.is_float = true;
      return {};
    }
    if (base == 16 && k >= 2 && (c == 'p' || c == 'P')) {
      info.is_float = true;
      return {};
    }
    if (base != 16 && base != 2 && (c == 'e' || c == 'E')) {
      // 1e5 is floating; in 0x1e5 'e' is a digit.
      info.is_float = true;
      return {};
    }
  }
  size_t digits_start = i;
  const unsigned __int128 kMax = ~(unsigned __int128)0;
  bool overflow = false;
  uint64_t small = 0;
  bool wide = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9')
      d = unsigned(c - '0');
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = unsigned(c - 'a' + 10);
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = unsigned(c - 'A' + 10);
    else
      break;
    if (d >= base) {
      if (base == 8) return "invalid digit '" + std::string(1, c) + "' in octal constant";
      if (base == 2) return "invalid digit '" + std::string(1, c) + "' in binary constant";
      break;
    }
    if (!wide && small < (uint64_t(1) << 59)) {
      small = small * base + d; // no 128-bit arithmetic while the value is small
      continue;
    }
    if (!wide) {
      value = small;
      wide = true;
    }
    if (value > (kMax - d) / base) overflow = true;
    value = value * base + d;
  }
  if (!wide) value = small;
  if (i == digits_start && base != 8) return "invalid integer constant '" + std::string(s) + "'";
  std::string_view suffix = s.substr(i);
  // u, l, ll in either order and case (ll must not mix cases).
  std::string_view rest = suffix;
  auto take = [&](std::string_view a) {
    if (rest.substr(0, a.size()) == a) {
      rest.remove_prefix(a.size());
      return true;
    }
    return false;
  };
  bool u = false;
  uint8_t longs = 0;
  if (take("u") || take("U")) u = true;
  if (take("ll") || take("LL"))
    longs = 2;
  else if (take("l") || take("L"))
    longs = 1;
  if (!u && (take("u") || take("U"))) u = true;
  if (!rest.empty()) return "invalid suffix '" + std::string(suffix) + "' on integer constant";
  if (overflow) return "integer literal is too large to be represented in any integer type";
  info.is_unsigned = u;
  info.longs = longs;
  return {};
}

std::string decodeLiteral(std::string_view s, unsigned wchar_bits, LiteralPrefix& prefix,
                          std::vector<uint32_t>& units) {
  units.clear();
  size_t i = 0;
  prefix = LiteralPrefix::None;
  if (s.size() > 0 && s[0] == 'L') {
    prefix = LiteralPrefix::Wide;
    i = 1;
  } else if (s.size() > 1 && s[0] == 'u' && s[1] == '8') {
    prefix = LiteralPrefix::Utf8;
    i = 2;
  } else if (s.size() > 0 && s[0] == 'u') {
    prefix = LiteralPrefix::Utf16;
    i = 1;
  } else if (s.size() > 0 && s[0] == 'U') {
    prefix = LiteralPrefix::Utf32;
    i = 1;
  }
  if (i >= s.size()) return "malformed literal";
  char quote = s[i++];
  if (s.size() < i + 1 || s.back() != quote) return "malformed literal";
  size_t end = s.size() - 1;
  unsigned bits = 8;
  if (prefix == LiteralPrefix::Wide) bits = wchar_bits;
  if (prefix == LiteralPrefix::Utf16) bits = 16;
  if (prefix == LiteralPrefix::Utf32) bits = 32;
  uint64_t max = bits >= 32 ? 0xFFFFFFFFull : ((1ull << bits) - 1);
  bool decode_utf8 = prefix == LiteralPrefix::Wide || prefix == LiteralPrefix::Utf16 ||
                     prefix == LiteralPrefix::Utf32;
  while (i < end) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c != '\\') {
      uint32_t cp = c;
      size_t n = 1;
      if (decode_utf8 && c >= 0x80) {
        // Decode one UTF-8 sequence; malformed bytes are taken one by one.
        int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        if (extra && i + size_t(extra) < end + 1) {
          cp = c & (0x3F >> extra);
          bool ok = true;
          for (int k = 1; k <= extra; ++k) {
            unsigned char d = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((d & 0xC0) != 0x80) ok = false;
            cp = (cp << 6) | (d & 0x3F);
          }
          if (ok)
            n = size_t(extra) + 1;
          else
            cp = c;
        }
      }
      if (bits == 16 && cp > 0xFFFF) {
        cp -= 0x10000;
        units.push_back(0xD800 + (cp >> 10));
        units.push_back(0xDC00 + (cp & 0x3FF));
      } else {
        units.push_back(cp);
      }
      i += n;
      continue;
    }
    if (++i >= end) return "malformed escape sequence";
    char e = s[i++];
    uint64_t v = 0;
    switch (e) {
    case 'n':
      v = '\n';
      break;
    case 't':
      v = '\t';
      break;
    case 'r':
      v = '\r';
      break;
    case 'a':
      v = 7;
      break;
    case 'b':
      v = 8;
      break;
    case 'f':
      v = 12;
      break;
    case 'v':
      v = 11;
      break;
    case 'e':
    case 'E':
      v = 27;
      break;
    case '\\':
    case '\'':
    case '"':
    case '?':
      v = static_cast<unsigned char>(e);
      break;
    case 'x': {
      size_t digits = 0;
      while (i < end && std::isxdigit(static_cast<unsigned char>(s[i]))) {
        char d = s[i++];
        unsigned dv = d <= '9' ? unsigned(d - '0') : unsigned((d | 0x20) - 'a' + 10);
        if (v > (max >> 4)) return "hex escape sequence out of range";
        v = (v << 4) | dv;
        ++digits;
      }
      if (!digits) return "\\x used with no following hex digits";
      break;
    }
    case 'u':
    case 'U': {
      size_t want = e == 'u' ? 4 : 8;
      for (size_t k = 0; k < want; ++k) {
        if (i >= end || !std::isxdigit(static_cast<unsigned char>(s[i])))
          return "incomplete universal character name";
        char d = s[i++];
        v = (v << 4) | (d <= '9' ? unsigned(d - '0') : unsigned((d | 0x20) - 'a' + 10));
      }
      if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return "invalid universal character";
      if (bits == 8) {
        // Encoded as UTF-8 in a narrow literal.
        uint32_t cp = uint32_t(v);
        if (cp < 0x80) {
          units.push_back(cp);
        } else if (cp < 0x800) {
          units.push_back(0xC0 | (cp >> 6));
          units.push_back(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
          units.push_back(0xE0 | (cp >> 12));
          units.push_back(0x80 | ((cp >> 6) & 0x3F));
          units.push_back(0x80 | (cp & 0x3F));
        } else {
          units.push_back(0xF0 | (cp >> 18));
          units.push_back(0x80 | ((cp >> 12) & 0x3F));
          units.push_back(0x80 | ((cp >> 6) & 0x3F));
          units.push_back(0x80 | (cp & 0x3F));
        }
        continue;
      }
      if (bits == 16 && v > 0xFFFF) {
        v -= 0x10000;
        units.push_back(uint32_t(0xD800 + (v >> 10)));
        units.push_back(uint32_t(0xDC00 + (v & 0x3FF)));
        continue;
      }
      break;
    }
    default:
      if (e >= '0' && e <= '7') {
        v = unsigned(e - '0');
        for (int k = 0; k < 2 && i < end && s[i] >= '0' && s[i] <= '7'; ++k)
          v = (v << 3) | unsigned(s[i++] - '0');
        if (v > max) return "octal escape sequence out of range";
        break;
      }
      // Unknown escapes keep the character (clang warns).
      v = static_cast<unsigned char>(e);
      break;
    }
    units.push_back(uint32_t(v));
  }
  return {};
}

} // namespace abikit::detail
