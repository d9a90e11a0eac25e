// Fuzzes the DWARF expression codec: the decoder on raw bytes and the canonical-text parser on the
// same input read as text. The first byte picks the format (extension encoding, address size,
// offset size, byte order). Every input must decode or throw abikit::dwarf::ExprError; what
// decodes must print, encode and decode again to the same text; text that parses must print
// back to text that parses to the same, and encode or report Unencodable. Anything else (a
// crash, another exception, a hang, an out-of-bounds access) is a bug.
#include "abikit/dwarf.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace abikit::dwarf;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  ExprFormat f;
  f.encoding = ExtEncoding(data[0] % 3);
  f.address_size = data[0] & 4 ? 4 : 8;
  f.offset_size = data[0] & 8 ? 8 : 4;
  f.endian = data[0] & 16 ? abikit::Endian::Big : abikit::Endian::Little;
  std::span<const uint8_t> bytes(data + 1, size - 1);
  try {
    Expression e = decode(bytes, f);
    std::string text = toText(e);
    DisplayOptions d;
    d.encoding = f.encoding;
    (void)toDisplay(e, d);
    if (toText(decode(encode(e, f), f)) != text) __builtin_trap();
    if (toText(parseText(text)) != text) __builtin_trap();
  } catch (const ExprError&) {
  }
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    Expression e = parseText(text);
    std::string canon = toText(e);
    if (toText(parseText(canon)) != canon) __builtin_trap();
    try {
      std::vector<uint8_t> b = encode(e, f);
      if (toText(decode(b, f)) != canon) __builtin_trap();
    } catch (const ExprError& err) {
      if (err.exprKind() != ExprErrorKind::Unencodable) __builtin_trap();
    }
  } catch (const ExprError& err) {
    if (err.exprKind() != ExprErrorKind::Syntax) __builtin_trap();
  }
  return 0;
}
