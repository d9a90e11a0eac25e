// The one reader of ELF bytes (src/elf/bytes.h): both byte orders, at an offset and advancing,
// ELF-class words, ULEB128/SLEB128 at their 64-bit limits, strings, sub-slices, and the error of
// a read past the end (at the file offset of the read).
#include "../../src/elf/bytes.h"
#include "abikit/diag.h"

#include <gtest/gtest.h>
#include <vector>

namespace {

using abikit::detail::EndianSlice;
using Leb = EndianSlice::Leb;

const std::vector<uint8_t> kBytes = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09};

TEST(ElfBytes, BothOrders) {
  EndianSlice le(kBytes, false), be(kBytes, true);
  EXPECT_EQ(le.u16At(0), 0x0201);
  EXPECT_EQ(be.u16At(0), 0x0102);
  EXPECT_EQ(le.u32At(1), 0x05040302u);
  EXPECT_EQ(be.u32At(1), 0x02030405u);
  EXPECT_EQ(le.u64At(1), 0x0908070605040302ull);
  EXPECT_EQ(be.u64At(0), 0x0102030405060708ull);
  EXPECT_EQ(le.wordAt(0, false), 0x04030201u);
  EXPECT_EQ(be.wordAt(0, true), 0x0102030405060708ull);
  EXPECT_EQ(le.uintAt(0, 3), 0x030201u);
  EXPECT_EQ(be.uintAt(0, 3), 0x010203u);
  EXPECT_EQ(le.uintAt(0, 0), 0u);
}

TEST(ElfBytes, Advancing) {
  EndianSlice s(kBytes, false, "f.o", 100);
  EXPECT_EQ(s.u8(), 1);
  EXPECT_EQ(s.u16(), 0x0302);
  EXPECT_EQ(s.offset(), 103u);
  EXPECT_EQ(s.u32(), 0x07060504u);
  EXPECT_EQ(s.remaining(), 2u);
  EndianSlice t = s.take(1);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.offset(), 107u);
  EXPECT_EQ(t.u8(), 8);
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(s.u8(), 9);
  EXPECT_TRUE(s.empty());
}

TEST(ElfBytes, ReadPastTheEndIsAnErrorAtItsOffset) {
  EndianSlice s(kBytes, false, "f.o", 100);
  try {
    (void)s.u32At(6);
    FAIL() << "no error";
  } catch (const abikit::Error& e) {
    EXPECT_EQ(e.file(), "f.o");
    EXPECT_TRUE(e.hasOffset());
    EXPECT_EQ(e.offset(), 106u);
  }
  EXPECT_THROW((void)s.sub(8, 2), abikit::Error);
  EXPECT_THROW(s.skip(10), abikit::Error);
  EXPECT_EQ(s.position(), 0u);
  EXPECT_TRUE(s.hasAt(9, 0));
  EXPECT_FALSE(s.hasAt(10, 0));
  EXPECT_FALSE(s.hasAt(1, ~uint64_t(0)));
}

// One LEB128 value from `b`: the position moves past it when it is read, else stays.
template <class T> Leb readLeb(const std::vector<uint8_t>& b, T& v, Leb (EndianSlice::*read)(T&)) {
  EndianSlice s(b, false);
  Leb r = (s.*read)(v);
  EXPECT_EQ(s.position(), r == Leb::Ok ? b.size() : 0u);
  return r;
}

TEST(ElfBytes, Uleb) {
  auto read = [](std::vector<uint8_t> b, uint64_t& v) { return readLeb(b, v, &EndianSlice::uleb); };
  uint64_t v = 0;
  EXPECT_EQ(read({0x00}, v), Leb::Ok);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(read({0xe5, 0x8e, 0x26}, v), Leb::Ok);
  EXPECT_EQ(v, 624485u);
  std::vector<uint8_t> max(9, 0xff);
  max.push_back(0x01);
  EXPECT_EQ(read(max, v), Leb::Ok);
  EXPECT_EQ(v, ~uint64_t(0));
  max.back() = 0x02; // bit 64
  EXPECT_EQ(read(max, v), Leb::TooBig);
  EXPECT_EQ(read({0x80, 0x80}, v), Leb::Truncated);
  EXPECT_EQ(read({}, v), Leb::Truncated);
}

TEST(ElfBytes, Sleb) {
  auto read = [](std::vector<uint8_t> b, int64_t& v) { return readLeb(b, v, &EndianSlice::sleb); };
  int64_t v = 0;
  EXPECT_EQ(read({0x02}, v), Leb::Ok);
  EXPECT_EQ(v, 2);
  EXPECT_EQ(read({0x7e}, v), Leb::Ok);
  EXPECT_EQ(v, -2);
  EXPECT_EQ(read({0xc0, 0xbb, 0x78}, v), Leb::Ok);
  EXPECT_EQ(v, -123456);
  std::vector<uint8_t> min(9, 0x80);
  min.push_back(0x7f); // INT64_MIN
  EXPECT_EQ(read(min, v), Leb::Ok);
  EXPECT_EQ(v, INT64_MIN);
  std::vector<uint8_t> max(9, 0xff);
  max.push_back(0x00); // INT64_MAX
  EXPECT_EQ(read(max, v), Leb::Ok);
  EXPECT_EQ(v, INT64_MAX);
  max.back() = 0x01; // bit 64 differs from the sign
  EXPECT_EQ(read(max, v), Leb::TooBig);
  EXPECT_EQ(read({0xff}, v), Leb::Truncated);
}

TEST(ElfBytes, Strings) {
  const std::vector<uint8_t> b = {'a', 'b', 0, 'c'};
  EndianSlice s(b, false);
  EXPECT_EQ(s.cstr(), "ab");
  EXPECT_EQ(s.position(), 3u);
  EXPECT_EQ(s.cstr(), std::nullopt);
  EXPECT_EQ(s.position(), 3u);
}

} // namespace
