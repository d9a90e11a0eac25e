// Unix `ar` archives (`.a`): the members, with GNU (`/`, `//`, `/N`) and BSD (`#1/N`,
// `__.SYMDEF`) conventions for symbol tables and long names, as llvm-ar and GNU ar write them.
#include "abikit/diag.h"
#include "abikit/elf.h"

#include <cstring>

namespace abikit {

namespace {

constexpr char kMagic[] = "!<arch>\n";
constexpr char kThinMagic[] = "!<thin>\n";
constexpr size_t kMagicSize = 8;
constexpr size_t kHeaderSize = 60;
constexpr size_t kMaxNameSize = 4096; // a longer member name is refused (bounds the lookups)

std::string_view field(std::span<const uint8_t> bytes, uint64_t at, size_t size) {
  return {reinterpret_cast<const char*>(bytes.data()) + at, size};
}

std::string_view trimRight(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// A decimal field of a header (blank-padded on the right); nullopt when it is not one.
std::optional<uint64_t> decimal(std::string_view s) {
  s = trimRight(s);
  if (s.empty() || s.size() > 19) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + uint64_t(c - '0');
  }
  return v;
}

} // namespace

bool isArchive(std::span<const uint8_t> bytes) {
  return bytes.size() >= kMagicSize && (std::memcmp(bytes.data(), kMagic, kMagicSize) == 0 ||
                                        std::memcmp(bytes.data(), kThinMagic, kMagicSize) == 0);
}

std::vector<ArchiveMember> archiveMembers(std::span<const uint8_t> bytes, const std::string& name) {
  auto fail = [&](std::string message, uint64_t offset) {
    throw Error::atOffset(std::move(message), name, offset);
  };
  if (bytes.size() >= kMagicSize && std::memcmp(bytes.data(), kThinMagic, kMagicSize) == 0)
    fail("thin archives are not supported (their members are separate files: name those)", 0);
  if (!isArchive(bytes)) fail("not an archive (no !<arch> magic)", 0);
  std::vector<ArchiveMember> out;
  std::string_view long_names; // the GNU "//" member
  uint64_t long_names_at = 0;
  uint64_t at = kMagicSize;
  while (at < bytes.size()) {
    if (bytes.size() - at < kHeaderSize)
      fail("truncated archive member header: " + std::to_string(bytes.size() - at) +
               " bytes left, a header needs 60",
           at);
    if (field(bytes, at + 58, 2) != "`\n")
      fail("bad archive member header (its last two bytes are not \"`\\n\")", at + 58);
    std::optional<uint64_t> size = decimal(field(bytes, at + 48, 10));
    if (!size) fail("bad archive member size (not a decimal number)", at + 48);
    const uint64_t data = at + kHeaderSize;
    if (*size > bytes.size() - data)
      fail("archive member of " + std::to_string(*size) + " bytes runs past the end of the file",
           at + 48);
    std::string_view raw = field(bytes, at, 16);
    std::string member;
    uint64_t body = data, body_size = *size;
    bool skip = false;
    if (raw.substr(0, 1) == "/") {
      std::string_view rest = trimRight(raw.substr(1));
      if (rest.empty() || rest == "SYM64/") {
        skip = true; // the symbol table
      } else if (rest == "/") {
        long_names = field(bytes, data, size_t(*size)); // the long-name table
        long_names_at = data;
        skip = true;
      } else {
        std::optional<uint64_t> off = decimal(rest);
        if (!off) fail("bad archive member name '" + std::string(trimRight(raw)) + "'", at);
        if (*off >= long_names.size())
          fail("archive member name at offset " + std::to_string(*off) +
                   " is outside the long-name table (" + std::to_string(long_names.size()) +
                   " bytes)",
               at);
        std::string_view n = long_names.substr(size_t(*off), kMaxNameSize + 2);
        size_t end = n.find('\n');
        if (end == std::string_view::npos)
          fail("unterminated or too long member name in the long-name table", long_names_at + *off);
        n = n.substr(0, end);
        if (!n.empty() && n.back() == '/') n.remove_suffix(1);
        member = std::string(n);
      }
    } else if (raw.substr(0, 3) == "#1/") {
      std::optional<uint64_t> len = decimal(raw.substr(3));
      if (!len || *len > *size || *len > kMaxNameSize)
        fail("bad BSD archive member name '" + std::string(trimRight(raw)) + "'", at);
      std::string_view n = field(bytes, data, size_t(*len));
      member = std::string(n.substr(0, n.find('\0')));
      body += *len;
      body_size -= *len;
      skip = member.rfind("__.SYMDEF", 0) == 0;
    } else {
      std::string_view n = trimRight(raw);
      if (!n.empty() && n.back() == '/') n.remove_suffix(1); // GNU short name
      member = std::string(n);
      skip = member.rfind("__.SYMDEF", 0) == 0;
    }
    if (!skip) {
      for (char& c : member)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
      out.push_back({std::move(member), body, bytes.subspan(size_t(body), size_t(body_size))});
    }
    at = data + *size + (*size & 1); // members start at even offsets
  }
  return out;
}

} // namespace abikit
