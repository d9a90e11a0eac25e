// Every JSON writer writes valid UTF-8 whatever the bytes of a name: valid UTF-8 as it is, control
// characters escaped, and each maximal subpart of an ill-formed sequence as one U+FFFD (the rule
// of nlohmann-json's error_handler_t::replace and Python's errors='replace'). The command line's
// documents are checked in tests/cli/test_json_utf8_cli.cpp.
#include "../../src/emit/json_writer.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>

namespace {

using nlohmann::json;

std::string escaped(std::string_view s) {
  std::string out;
  abikit::detail::appendJsonString(out, s);
  return out;
}

// A string value through the JSON writer (in a TextBuffer).
std::string viaWriter(std::string_view s) {
  abikit::detail::TextBuffer b;
  abikit::detail::JsonWriter<abikit::detail::kJsonLines> w(b);
  w.value(s);
  return b.take();
}

// The decoded value of the JSON string literal `lit`; fails the test when it does not parse.
std::string decode(const std::string& lit) {
  json j = json::parse(lit, nullptr, false);
  EXPECT_TRUE(j.is_string()) << lit;
  return j.is_string() ? j.get<std::string>() : std::string();
}

const std::string kFFFD = "\xEF\xBF\xBD";

TEST(JsonUtf8, ValidTextUnchanged) {
  EXPECT_EQ(escaped("field_1"), "\"field_1\"");
  EXPECT_EQ(escaped(""), "\"\"");
  // Two-, three- and four-byte characters, the first and last of each length.
  for (std::string s : {"caf\xC3\xA9", "\xC2\x80", "\xDF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF",
                        "\xEE\x80\x80", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF",
                        "\xE6\x97\xA5\xE6\x9C\xAC_\xF0\x9F\x98\x80_long_enough_for_words"}) {
    EXPECT_EQ(escaped(s), "\"" + s + "\"");
    EXPECT_EQ(viaWriter(s), "\"" + s + "\"");
    EXPECT_EQ(decode(escaped(s)), s);
  }
}

TEST(JsonUtf8, Escapes) {
  EXPECT_EQ(escaped("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(escaped(std::string("\x01\n\x1f\x7f", 4)), "\"\\u0001\\u000a\\u001f\x7f\"");
  EXPECT_EQ(escaped(std::string("a\0b", 3)), "\"a\\u0000b\"");
  // The eight-byte fast path stops at any special byte, wherever it is in the word.
  for (size_t at = 0; at < 17; ++at)
    for (char c : {'"', '\\', '\n', '\x80', '\x1f'}) {
      std::string s(17, 'x');
      s[at] = c;
      std::string e = escaped(s);
      EXPECT_EQ(e, viaWriter(s));
      std::string expect = s;
      if (c == '\x80') expect.replace(at, 1, kFFFD);
      EXPECT_EQ(decode(e), expect) << at;
    }
}

TEST(JsonUtf8, IllFormed) {
  struct Case {
    std::string in, out;
  };
  const Case cases[] = {
      {"n\xFF\xFE", "n" + kFFFD + kFFFD},                  // bytes that never occur
      {"\x80x", kFFFD + "x"},                              // a lone continuation byte
      {"g\xE2\x82", "g" + kFFFD},                          // truncated at the end: one U+FFFD
      {"\xE2\x82x", kFFFD + "x"},                          // truncated before ASCII
      {"\xF0\x9F\x98", kFFFD},                             // truncated four-byte sequence
      {"\xC0\xAF", kFFFD + kFFFD},                         // overlong '/'
      {"\xE0\x80\xAF", kFFFD + kFFFD + kFFFD},             // overlong, three bytes
      {"\xF0\x80\x80\xAF", kFFFD + kFFFD + kFFFD + kFFFD}, // overlong, four bytes
      {"\xED\xA0\x80", kFFFD + kFFFD + kFFFD},             // a surrogate (U+D800)
      {"\xF4\x90\x80\x80", kFFFD + kFFFD + kFFFD + kFFFD}, // U+110000
      {"\xF5\x80", kFFFD + kFFFD},                         // lead byte past U+10FFFF
      {"\xC3\xA9\xC3", "\xC3\xA9" + kFFFD},                // valid, then truncated
  };
  for (const Case& c : cases) {
    EXPECT_EQ(escaped(c.in), "\"" + c.out + "\"")
        << json(c.in).dump(-1, ' ', true, json::error_handler_t::replace);
    EXPECT_EQ(viaWriter(c.in), escaped(c.in));
  }
}

// Random bytes, biased towards the interesting ones: the writers agree with each other and with
// nlohmann-json's replace handler, and the result always parses.
TEST(JsonUtf8, AgreesWithNlohmannReplace) {
  std::mt19937 rng(7);
  const unsigned char kBytes[] = {'a',  '"',  '\\', 0x00, 0x1f, 0x7f, 0x80, 0x8f, 0x90, 0x9f,
                                  0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed,
                                  0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff};
  for (int i = 0; i < 20000; ++i) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) c = char(rng() % 3 ? kBytes[rng() % sizeof kBytes] : rng() % 256);
    std::string e = escaped(s);
    ASSERT_EQ(e, viaWriter(s));
    std::string mine = decode(e);
    std::string theirs = json(s).dump(-1, ' ', false, json::error_handler_t::replace);
    ASSERT_EQ(mine, decode(theirs)) << theirs;
  }
}

} // namespace
