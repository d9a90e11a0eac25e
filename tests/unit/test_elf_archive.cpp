// Unix `ar` archives: GNU and BSD member names, the symbol and long-name tables, padding, and the
// errors for malformed archives (each at its byte offset). Real archives are compared with
// llvm-ar in tests/differential/diff_elf_archive.cpp.
#include "abikit/diag.h"
#include "abikit/elf.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace {

using namespace abikit;

// One member header: name (16), date (12), uid (6), gid (6), mode (8), size (10), "`\n".
std::string header(const std::string& name, size_t size, const std::string& magic = "`\n") {
  auto pad = [](std::string s, size_t n) {
    s.resize(n, ' ');
    return s;
  };
  return pad(name, 16) + pad("0", 12) + pad("0", 6) + pad("0", 6) + pad("644", 8) +
         pad(std::to_string(size), 10) + magic;
}

std::string member(const std::string& name, const std::string& data) {
  std::string m = header(name, data.size()) + data;
  if (data.size() % 2) m += '\n';
  return m;
}

std::span<const uint8_t> bytesOf(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::vector<std::string> names(const std::string& archive) {
  std::vector<std::string> out;
  for (const ArchiveMember& m : archiveMembers(bytesOf(archive), "t.a")) out.push_back(m.name);
  return out;
}

std::string errorOf(const std::string& archive) {
  try {
    archiveMembers(bytesOf(archive), "t.a");
  } catch (const Error& e) {
    return e.format();
  }
  return "";
}

} // namespace

TEST(ElfArchive, GnuNames) {
  const std::string long_name = "a_member_name_longer_than_sixteen.o";
  std::string a = "!<arch>\n" + member("/", std::string(12, '\0')) +
                  member("//", long_name + "/\n" + "second_long_member_name.o/\n") +
                  member("short.o/", "abc") + member("/0", "ELFDATA") + member("/37", "x");
  EXPECT_TRUE(isArchive(bytesOf(a)));
  std::vector<ArchiveMember> m = archiveMembers(bytesOf(a), "t.a");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "short.o");
  EXPECT_EQ(std::string(m[0].bytes.begin(), m[0].bytes.end()), "abc");
  EXPECT_EQ(m[1].name, long_name);
  EXPECT_EQ(std::string(m[1].bytes.begin(), m[1].bytes.end()), "ELFDATA");
  EXPECT_EQ(m[1].offset % 2, 0u); // after the odd-sized "abc" and its padding byte
  EXPECT_EQ(m[2].name, "second_long_member_name.o");
  // The 64-bit symbol table is not a member either.
  EXPECT_EQ(names("!<arch>\n" + member("/SYM64/", "12345678") + member("x.o/", "")),
            std::vector<std::string>{"x.o"});
}

TEST(ElfArchive, BsdNames) {
  std::string a = "!<arch>\n" + member("#1/12", std::string("__.SYMDEF\0\0\0", 12) + "tbl") +
                  member("#1/20", std::string("long_bsd_name.o\0\0\0\0\0", 20) + "DATA") +
                  member("plain.o", "z");
  std::vector<ArchiveMember> m = archiveMembers(bytesOf(a), "t.a");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "long_bsd_name.o");
  EXPECT_EQ(std::string(m[0].bytes.begin(), m[0].bytes.end()), "DATA");
  EXPECT_EQ(m[1].name, "plain.o");
  EXPECT_EQ(names("!<arch>\n"), std::vector<std::string>{});
}

TEST(ElfArchive, MalformedArchives) {
  EXPECT_EQ(errorOf("!<thin>\n"), "t.a: error: thin archives are not supported (their members "
                                  "are separate files: name those) (at byte offset 0)");
  EXPECT_EQ(errorOf("!<arch>\n" + header("x.o/", 4).substr(0, 30)),
            "t.a: error: truncated archive member header: 30 bytes left, a header needs 60 (at "
            "byte offset 8)");
  EXPECT_EQ(errorOf("!<arch>\n" + header("x.o/", 0, "!!")),
            "t.a: error: bad archive member header (its last two bytes are not \"`\\n\") (at byte "
            "offset 66)");
  EXPECT_EQ(errorOf("!<arch>\n" + header("x.o/", 100) + "abc"),
            "t.a: error: archive member of 100 bytes runs past the end of the file (at byte "
            "offset 56)");
  std::string bad_size = "!<arch>\n" + header("x.o/", 0);
  bad_size.replace(8 + 48, 3, "1x2");
  EXPECT_NE(errorOf(bad_size).find("bad archive member size"), std::string::npos);
  EXPECT_NE(errorOf("!<arch>\n" + member("//", "name/\n") + member("/99", ""))
                .find("outside the long-name table"),
            std::string::npos);
  // A long-name entry without its newline (and longer than any name) is refused, not scanned.
  EXPECT_NE(errorOf("!<arch>\n" + member("//", std::string(10000, 'n')) + member("/0", ""))
                .find("unterminated or too long member name"),
            std::string::npos);
  EXPECT_NE(errorOf("!<arch>\n" + member("#1/99", "short")).find("bad BSD archive member name"),
            std::string::npos);
  EXPECT_NE(errorOf("!<arch>\n" + member("/abc", "")).find("bad archive member name '/abc'"),
            std::string::npos);
  EXPECT_NE(errorOf("ELF").find("not an archive"), std::string::npos);
  // Control bytes in a name are not printed as they are.
  EXPECT_EQ(names("!<arch>\n" + member("a\x1b[2J.o/", "")), std::vector<std::string>{"a?[2J.o"});
}
