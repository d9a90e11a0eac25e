// Archives and machine names against llvm-readobj-22: every member of real `.a` files (Debian's
// static libraries for x86-64, and for RISC-V Linux where the cross libc is installed) and of
// archives llvm-ar-22 writes in GNU and BSD format with long member names. abikit must list the
// same members in the same order ("FILE(MEMBER)") with the same e_machine names, and label the
// RISC-V glibc objects (shared library and archive members with a .note.ABI-tag) as Linux ones.
//
// ABIKIT_DIFF_COUNT (default 12 archives per directory) bounds the run.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "oracle.h"

#include <algorithm>
#include <dirent.h>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace {

using namespace abikit;

const char* const kReadobj = "llvm-readobj-22";

// (file, machine name) of each object llvm-readobj reads, in order.
std::vector<std::pair<std::string, std::string>> theirs(const std::string& path) {
  oracle::RunResult r = oracle::run({kReadobj, "--file-headers", path});
  EXPECT_EQ(r.exit_code, 0) << path << ": " << r.err;
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("File: ", 0) == 0) out.push_back({line.substr(6), ""});
    size_t m = line.find("Machine: ");
    if (m != std::string::npos && !out.empty()) {
      std::string v = line.substr(m + 9);
      out.back().second = v.substr(0, v.find(' '));
    }
  }
  return out;
}

// Regular `.a` files of a directory, smallest first (at most `count`, each under 8 MiB).
std::vector<std::string> archivesIn(const std::string& dir, size_t count) {
  std::vector<std::pair<off_t, std::string>> found;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d)) {
      std::string n = e->d_name;
      if (n.size() < 3 || n.compare(n.size() - 2, 2, ".a") != 0) continue;
      struct stat st;
      std::string p = dir + "/" + n;
      if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 8 ||
          st.st_size >= (8 << 20))
        continue;
      // Some are linker scripts (libm.a, libc.a on Debian's x86-64): archives only.
      std::string head = oracle::readFile(p).substr(0, 8);
      if (head == "!<arch>\n") found.push_back({st.st_size, p});
    }
    ::closedir(d);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < found.size() && out.size() < count; ++i)
    out.push_back(found[i * std::max<size_t>(1, found.size() / count)].second);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void compare(const std::string& path, size_t& members) {
  std::vector<std::pair<std::string, std::string>> want = theirs(path);
  std::vector<ElfFile> ours;
  try {
    ours = ElfFile::openAll(path);
  } catch (const Error& e) {
    ADD_FAILURE() << path << ": " << e.format();
    return;
  }
  ASSERT_EQ(ours.size(), want.size()) << path;
  for (size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(ours[i].name(), want[i].first) << path;
    EXPECT_EQ(std::string(elfMachineName(ours[i].header().machine)), want[i].second)
        << ours[i].name();
  }
  members += ours.size();
}

class ElfArchive : public ::testing::Test {
protected:
  void SetUp() override {
    if (oracle::findProgram(kReadobj).empty()) GTEST_SKIP() << kReadobj << " is not installed";
  }
};

TEST_F(ElfArchive, DebianStaticLibraries) {
  const size_t count = oracle::sampleCount(12);
  size_t archives = 0, members = 0;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/riscv64-linux-gnu/lib"})
    for (const std::string& a : archivesIn(dir, count)) {
      compare(a, members);
      ++archives;
    }
  EXPECT_GT(archives, 0u);
  std::printf("[ elf-archive ] %zu Debian archives, %zu members, 0 disagreements\n", archives,
              members);
}

TEST_F(ElfArchive, LlvmArFormats) {
  if (oracle::findProgram("llvm-ar-22").empty() || oracle::findProgram("clang-22").empty())
    GTEST_SKIP() << "llvm-ar-22 or clang-22 is not installed";
  oracle::ScratchDir dir;
  std::vector<std::string> objects;
  const char* const kObjects[][2] = {
      {"a.o", "x86_64-linux-gnu"},
      {"a_member_with_a_name_longer_than_sixteen_bytes.o", "riscv64-unknown-elf"},
      {"odd.o", "aarch64-linux-gnu"},
      {"another_quite_long_member_name_here.o", "i386-linux-gnu"}};
  dir.write("x.c", "int x = 1; int f(void) { return x; }\n");
  for (const auto& [name, triple] : kObjects) {
    oracle::RunResult r =
        oracle::run({"clang-22", "-target", triple, "-c", dir.file("x.c"), "-o", dir.file(name)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    objects.push_back(dir.file(name));
  }
  size_t members = 0;
  for (const char* format : {"gnu", "bsd"}) {
    std::string archive = dir.file(std::string("lib_") + format + ".a");
    std::vector<std::string> argv = {"llvm-ar-22", "rcs", std::string("--format=") + format,
                                     archive};
    argv.insert(argv.end(), objects.begin(), objects.end());
    oracle::RunResult r = oracle::run(argv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    compare(archive, members);
  }
  EXPECT_EQ(members, 8u);
}

// The RISC-V glibc (Debian's libc6-riscv64-cross): its objects say they are for Linux.
TEST_F(ElfArchive, RiscvLinuxObjectsAreLabelledLinux) {
  const std::string so = "/usr/riscv64-linux-gnu/lib/libc.so.6";
  struct stat st;
  if (::stat(so.c_str(), &st) != 0) GTEST_SKIP() << so << " is not installed";
  ElfFile f = ElfFile::open(so);
  EXPECT_EQ(f.flagsInfo().target, "riscv64-unknown-linux-gnu");
}

} // namespace
