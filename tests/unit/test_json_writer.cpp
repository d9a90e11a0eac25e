// detail::JsonWriter, the one JSON writer of the emitters: its pretty style is byte for byte what
// nlohmann-json's dump(2, ' ', false, replace) writes (targets, describe and kernarg were written
// with it); the line style breaks where it is told; the compact style streamed into an
// OutputSink hands full chunks on and keeps only what has not been handed on.
#include "../../src/emit/json_writer.h"
#include "abikit/emit.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <random>

namespace {

using abikit::detail::JsonWriter;
using abikit::detail::kJsonCompact;
using abikit::detail::kJsonLines;
using abikit::detail::kJsonPretty;
using abikit::detail::TextBuffer;
using nlohmann::ordered_json;

// Random text, biased towards the bytes that are escaped or replaced.
std::string randomText(std::mt19937& rng) {
  static const unsigned char kBytes[] = {'a',  'Z',  ' ',  '"',  '\\', '/',  0x00, 0x08, 0x09,
                                         0x0a, 0x0b, 0x0c, 0x0d, 0x1f, 0x7f, 0x80, 0xbf, 0xc3,
                                         0xa9, 0xe2, 0x82, 0xac, 0xed, 0xa0, 0xf0, 0x9f, 0xff};
  std::string s(rng() % 10, '\0');
  for (char& c : s) c = char(rng() % 2 ? kBytes[rng() % sizeof kBytes] : rng() % 256);
  return s;
}

// Writes a random value to both; `depth` bounds the nesting.
template <class W> ordered_json randomValue(std::mt19937& rng, W& w, int depth) {
  switch (rng() % (depth > 0 ? 8 : 6)) {
  case 0: {
    std::string s = randomText(rng);
    w.value(s);
    return s;
  }
  case 1: {
    uint64_t v = rng() % 3 ? rng() % 1000 : (uint64_t(rng()) << 32 | rng());
    w.value(v);
    return v;
  }
  case 2: {
    int64_t v = -int64_t(rng() % 100000) - 1;
    w.value(v);
    return v;
  }
  case 3: {
    bool b = rng() % 2;
    w.value(b);
    return b;
  }
  case 4:
    w.null();
    return nullptr;
  case 5: {
    std::vector<std::string> list(rng() % 3);
    for (std::string& s : list) s = randomText(rng);
    w.value(list);
    return list;
  }
  case 6: {
    ordered_json o = ordered_json::object();
    w.beginObject();
    for (size_t n = rng() % 4, i = 0; i < n; ++i) {
      std::string k = randomText(rng) + std::to_string(i); // distinct keys
      w.key(k);
      o[k] = randomValue(rng, w, depth - 1);
    }
    w.endObject();
    return o;
  }
  default: {
    ordered_json a = ordered_json::array();
    w.beginArray();
    for (size_t n = rng() % 4, i = 0; i < n; ++i) a.push_back(randomValue(rng, w, depth - 1));
    w.endArray();
    return a;
  }
  }
}

TEST(JsonWriter, PrettyIsNlohmannDump2) {
  std::mt19937 rng(11);
  for (int i = 0; i < 3000; ++i) {
    TextBuffer out;
    JsonWriter<kJsonPretty> w(out);
    ordered_json doc = randomValue(rng, w, 4);
    std::string theirs = doc.dump(2, ' ', false, ordered_json::error_handler_t::replace);
    ASSERT_EQ(out.take(), theirs);
  }
}

TEST(JsonWriter, Styles) {
  auto write = [](auto& w) {
    w.beginObject();
    w.field("a", 1);
    w.breakLine(1);
    w.key("list");
    w.beginArray();
    for (int i = 0; i < 2; ++i) {
      w.breakLine(3);
      w.beginObject();
      w.field("s", std::string("x\n\b\"", 4));
      w.field("neg", -5);
      w.key("e");
      w.beginArray();
      w.endArray();
      w.endObject();
    }
    w.endArray();
    w.endObject();
  };
  TextBuffer lines;
  JsonWriter<kJsonLines> l(lines);
  write(l);
  EXPECT_EQ(lines.take(),
            "{\"a\": 1,\n \"list\": [\n   {\"s\": \"x\\u000a\\u0008\\\"\", \"neg\": -5, "
            "\"e\": []},\n   {\"s\": \"x\\u000a\\u0008\\\"\", \"neg\": -5, \"e\": []}]}");
}

TEST(JsonWriter, CompactNumbersAndEscapes) {
  TextBuffer out;
  JsonWriter<kJsonCompact> w(out);
  w.beginArray();
  w.value(std::string("\t\r\n\b\f\x01", 6));
  w.value(0.5);
  w.value(1e300 * 1e300);
  w.value(uint64_t(18446744073709551615ull));
  w.value(int64_t(-9223372036854775807ll - 1));
  w.endArray();
  EXPECT_EQ(out.take(), "[\"\\t\\r\\n\\u0008\\u000c\\u0001\",0.5,\"inf\",18446744073709551615,"
                        "-9223372036854775808]");
}

// Strings longer than the writer's piece are escaped a piece at a time: the pieces must not cut
// a UTF-8 sequence, valid or not.
TEST(JsonWriter, LongStringsAsOnePiece) {
  std::mt19937 rng(5);
  const std::string kBits[] = {"a",        "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                               "\xE2\x82", "\x80",     "\xF0\x9F",     "\n",
                               "\""};
  for (int i = 0; i < 200; ++i) {
    std::string s;
    while (s.size() < 8192 * 3 + 100) s += kBits[rng() % std::size(kBits)];
    TextBuffer out;
    JsonWriter<kJsonCompact> w(out);
    w.beginObject();
    w.field("k", s);
    w.key(s);
    w.value(std::string_view(s));
    w.endObject();
    std::string one;
    abikit::detail::appendJsonString<abikit::detail::kShortEscapesLines>(one, s);
    ASSERT_EQ(out.take(), "{\"k\":" + one + "," + one + ":" + one + "}");
  }
}

// A sink that records each chunk it is handed and the largest buffer it saw.
class ChunkSink : public abikit::OutputSink {
public:
  explicit ChunkSink(size_t chunk) : OutputSink("<", chunk) {}
  void flush() override {
    largest = std::max(largest, buffer_.size());
    text += buffer_;
    buffer_.clear();
    ++chunks;
  }
  std::string text;
  size_t chunks = 0, largest = 0;
};

TEST(JsonWriter, SinkChunks) {
  // The same rows, drained after each, into a sink of 1000-byte chunks and into one buffer.
  auto rows = [](JsonWriter<kJsonCompact>& w, abikit::OutputSink* sink) {
    w.beginArray();
    for (int i = 0; i < 5000; ++i) {
      w.beginObject();
      w.field("index", i);
      w.field("name", "symbol_" + std::to_string(i));
      w.endObject();
      w.drain();
      if (sink) {
        ASSERT_LT(sink->buffer().capacity(), 256u << 10);
      }
    }
    w.endArray();
  };
  ChunkSink sink(1000);
  {
    TextBuffer out(sink);
    JsonWriter<kJsonCompact> w(out);
    rows(w, &sink);
  }
  sink.flush();
  TextBuffer whole;
  JsonWriter<kJsonCompact> w(whole);
  rows(w, nullptr);
  EXPECT_EQ(sink.text, "<" + whole.take());
  EXPECT_GT(sink.chunks, 100u);
  EXPECT_LT(sink.largest, 1100u); // the chunk and one item
}

} // namespace
