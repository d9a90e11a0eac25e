// The C front-end on real headers: the Linux UAPI headers installed on this machine
// (/usr/include/linux/*.h), and two C libraries for RISC-V: picolibc (Debian's
// picolibc-riscv64-unknown-elf, /usr/lib/picolibc/riscv64-unknown-elf/include) and glibc
// (libc6-dev-riscv64-cross, /usr/riscv64-linux-gnu/include): <stdio.h>, <sys/types.h>, ...,
// and for the x86 hosts the machine's own glibc (libc6-dev; libc6-dev-i386 for i386), Vulkan
// (libvulkan-dev), zlib (zlib1g-dev) and SDL2 (libsdl2-dev, unpacked) headers,
// which include <stddef.h> with __need_size_t, their own <stdint.h> and <limits.h>, and the
// compiler's through #include_next. For each clang abikit models that is installed (clang-22,
// clang-19, clang-14), each header that clang accepts on its own for the target is parsed by
// abikit with that --compiler; its records become the static assertions of `abikit layout
// --emit-c-asserts` (sizeof, alignment, offsetof and size of every named non-bit-field member,
// members of anonymous members included), its named enums and object typedefs assertions of
// their size and alignment, and that clang must accept them all for the same target. Headers are
// sampled (ABIKIT_DIFF_COUNT, default 120 per set; tests/differential/run --count 5000 covers
// all of them).
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "oracle.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <random>
#include <sstream>

using namespace abikit;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> includeDirs() {
  std::vector<std::string> dirs = {"/usr/include"};
  // <asm/...> lives in a multiarch directory on Debian-like systems.
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/include", ec))
    if (e.is_directory() && fs::exists(e.path() / "asm" / "types.h"))
      dirs.push_back(e.path().string());
  return dirs;
}

// A set of headers: where they are, how a file includes one, the -I directories they need.
struct HeaderSet {
  std::string name;
  std::vector<std::string> headers; // as written between <...>
  std::vector<std::string> dirs;
};

HeaderSet uapiHeaders() {
  HeaderSet set{"uapi", {}, includeDirs()};
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/include/linux", ec))
    if (e.is_regular_file() && e.path().extension() == ".h")
      set.headers.push_back("linux/" + e.path().filename().string());
  std::sort(set.headers.begin(), set.headers.end());
  return set;
}

constexpr const char* kPicolibcIncludes = "/usr/lib/picolibc/riscv64-unknown-elf/include";
constexpr const char* kGlibcRiscv64Includes = "/usr/riscv64-linux-gnu/include";
constexpr const char* kGlibcAarch64Includes = "/usr/aarch64-linux-gnu/include";

// The public headers a Debian package installs under /usr/include and its multiarch directory
// (`<bits/...>` and `<gnu/...>` are internal: they refuse to be included alone).
HeaderSet packageHeaders(const std::string& name, const std::string& package,
                         const std::string& multiarch) {
  HeaderSet set{name, {}, {"/usr/include/" + multiarch, "/usr/include"}};
  std::ifstream list("/var/lib/dpkg/info/" + package + ".list");
  std::string line;
  while (std::getline(list, line)) {
    if (line.size() < 3 || line.compare(line.size() - 2, 2, ".h") != 0) continue;
    std::string rel;
    const std::string ma = "/usr/include/" + multiarch + "/";
    if (line.rfind(ma, 0) == 0)
      rel = line.substr(ma.size());
    else if (line.rfind("/usr/include/", 0) == 0)
      rel = line.substr(13);
    else
      continue;
    if (rel.rfind("bits/", 0) == 0 || rel.rfind("gnu/", 0) == 0 ||
        rel.find("-linux-gnu/") != std::string::npos)
      continue;
    set.headers.push_back(rel);
  }
  std::sort(set.headers.begin(), set.headers.end());
  set.headers.erase(std::unique(set.headers.begin(), set.headers.end()), set.headers.end());
  return set;
}

// Every header under `root`, which is the one -I directory.
HeaderSet treeHeaders(const std::string& name, const std::string& root) {
  HeaderSet set{name, {}, {root}};
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".h")
      set.headers.push_back(fs::relative(it->path(), root).generic_string());
  std::sort(set.headers.begin(), set.headers.end());
  return set;
}

std::vector<std::string> clangArgs(const std::string& clang, const std::string& triple,
                                   const std::vector<std::string>& dirs) {
  // Implicit int is not C99 or later: clang-14 accepts `int f(char *, va_list);` without a
  // va_list type as a parameter named va_list of type int (with a warning), GCC and abikit
  // report the unknown type name. picolibc's <ssp/stdio.h> is such a header; it is left out.
  std::vector<std::string> a = {
      clang, "--target=" + triple, "-fsyntax-only", "-ferror-limit=0", "-Werror=implicit-int", "-x",
      "c"};
  for (const std::string& d : dirs) a.push_back("-I" + d);
  return a;
}

struct Generated {
  std::string text;
  size_t asserts = 0;
};

// Parses a file that includes `header` with abikit and writes the assertions clang must accept.
Generated generate(const std::string& header, const Target& target,
                   const std::vector<std::string>& dirs) {
  TypeContext ctx(target, Language::C);
  LayoutEngine layout(ctx);
  ParseOptions options;
  options.include_dirs = dirs;
  std::string source = "#include <" + header + ">\n";
  TranslationUnit tu = parseSource(ctx, layout, "check.c", source, options);
  // The records' checks as `abikit layout --emit-c-asserts` writes them (sizeof, alignment,
  // offsetof and size of every named member), then the enums' and typedefs'.
  std::ostringstream out;
  out << layoutCAsserts(layout, tu.records, source);
  for (const EnumDecl* ed : tu.enums) {
    if (ed->name.empty() || !ed->complete) continue;
    TypeLayout l = layout.of(ctx.enumType(const_cast<EnumDecl*>(ed)));
    std::string ref = "enum " + std::string(ed->name);
    out << "_Static_assert(sizeof(" << ref << ") == " << l.size << ", \"\");\n";
  }
  for (const TypedefDecl* td : tu.typedefs) {
    const Type* c = stripTypedefs(td->underlying);
    if (c->kind == TypeKind::Function || c->kind == TypeKind::Void) continue;
    if (auto* rt = dyn<RecordType>(c); rt && !rt->decl->complete) continue;
    if (auto* et = dyn<EnumType>(c); et && !et->decl->complete) continue;
    if (auto* at = dyn<ArrayType>(c); at && at->incomplete) continue;
    TypeLayout l = layout.of(ctx.typedefType(const_cast<TypedefDecl*>(td)));
    std::string ref(td->name);
    out << "_Static_assert(sizeof(" << ref << ") == " << l.size << " && _Alignof(" << ref
        << ") == " << l.align << ", \"\");\n";
  }
  std::string text = out.str();
  size_t n = 0;
  for (size_t at = text.find("_Static_assert("); at != std::string::npos;
       at = text.find("_Static_assert(", at + 1))
    ++n;
  return {std::move(text), n};
}

void checkTarget(const HeaderSet& set, const std::string& triple, const std::string& clang,
                 const std::vector<std::string>& modelled, uint64_t base_count) {
  std::vector<std::string> headers = set.headers;
  ASSERT_FALSE(headers.empty());
  uint64_t count = oracle::sampleCountFor(base_count, modelled, clang);
  if (count < headers.size()) {
    std::mt19937_64 rng(oracle::sampleSeed(20260501));
    std::shuffle(headers.begin(), headers.end(), rng);
    headers.resize(count);
    std::sort(headers.begin(), headers.end());
  }
  TargetOptions to;
  to.triple = triple;
  to.compiler = clang;
  Target target = resolveTarget(to);
  oracle::ScratchDir dir;
  std::vector<std::string> base = clangArgs(clang, triple, set.dirs);

  size_t accepted = 0, total_asserts = 0;
  for (const std::string& h : headers) {
    // Only headers clang accepts on their own (some need others included first).
    dir.write("probe.c", "#include <" + h + ">\n");
    std::vector<std::string> probe = base;
    probe.push_back(dir.file("probe.c"));
    if (oracle::run(probe).exit_code != 0) continue;
    ++accepted;
    Generated g;
    try {
      g = generate(h, target, set.dirs);
    } catch (const Error& e) {
      ADD_FAILURE() << h << ": " << clang << " accepts it but abikit reports:\n" << e.format();
      continue;
    }
    total_asserts += g.asserts;
    // Check each header's assertions on their own: headers that clang accepts alone may still
    // conflict with each other.
    dir.write("check.c", g.text);
    std::vector<std::string> check = base;
    check.push_back(dir.file("check.c"));
    oracle::RunResult r = oracle::run(check);
    EXPECT_EQ(r.exit_code, 0) << h << ": " << clang << " rejects abikit's layout facts:\n" << r.err;
  }
  EXPECT_GT(accepted, headers.size() / 2) << "clang accepted too few headers to compare";
  EXPECT_GT(total_asserts, accepted) << "no layout facts were compared";
  std::cout << "[ " << set.name << " ] " << triple << " " << clang << ": " << accepted << " of "
            << headers.size() << " headers, " << total_asserts << " static assertions\n";
}

// Every clang abikit models for the target that is installed, each with its own sample of
// `base_count` headers (the default run's size; ABIKIT_DIFF_COUNT overrides it).
void checkEveryClang(const HeaderSet& set, const std::string& triple, uint64_t base_count = 120) {
  std::vector<std::string> modelled = oracle::modelledClangs(triple);
  if (modelled.empty()) GTEST_SKIP() << "no clang abikit models for " << triple << " installed";
  for (const std::string& clang : modelled) {
    SCOPED_TRACE(clang);
    checkTarget(set, triple, clang, modelled, base_count);
  }
}

void checkUapi(const std::string& triple, uint64_t base_count = 120) {
  if (!fs::is_directory("/usr/include/linux"))
    GTEST_SKIP() << "no Linux UAPI headers in /usr/include/linux on this machine";
  checkEveryClang(uapiHeaders(), triple, base_count);
}

void checkPackage(const std::string& name, const std::string& package, const std::string& multiarch,
                  const std::string& triple) {
  HeaderSet set = packageHeaders(name, package, multiarch);
  if (set.headers.empty())
    GTEST_SKIP() << "no " << name << " headers installed (Debian: " << package << ")";
  checkEveryClang(set, triple, 24);
}

void checkLibrary(const std::string& name, const char* root, const char* package,
                  const std::string& triple) {
  if (!fs::is_directory(root))
    GTEST_SKIP() << "no " << name << " headers in " << root << " (Debian: " << package << ")";
  checkEveryClang(treeHeaders(name, root), triple);
}

} // namespace

TEST(UapiHeaders, Riscv64MatchesClang) {
  checkUapi("riscv64-unknown-elf");
}

TEST(UapiHeaders, Riscv32MatchesClang) {
  checkUapi("riscv32-unknown-elf");
}

TEST(PicolibcHeaders, Riscv64MatchesClang) {
  checkLibrary("picolibc", kPicolibcIncludes, "picolibc-riscv64-unknown-elf",
               "riscv64-unknown-elf");
}

TEST(PicolibcHeaders, Riscv32MatchesClang) {
  checkLibrary("picolibc", kPicolibcIncludes, "picolibc-riscv64-unknown-elf",
               "riscv32-unknown-elf");
}

// glibc's headers for riscv64 Linux (lp64d: <gnu/stubs.h> has no other ABI's stubs).
TEST(GlibcHeaders, Riscv64LinuxMatchesClang) {
  checkLibrary("glibc", kGlibcRiscv64Includes, "libc6-dev-riscv64-cross",
               "riscv64-unknown-linux-gnu");
}

// The x86 hosts: the UAPI headers, and glibc, Vulkan and zlib as this machine installs them
// (smaller default samples: the RISC-V runs above already cover the same UAPI headers).
TEST(UapiHeaders, X86_64MatchesClang) {
  checkUapi("x86_64-linux-gnu", 24);
}

TEST(UapiHeaders, I386MatchesClang) {
  checkUapi("i386-linux-gnu", 24);
}

TEST(GlibcHeaders, X86_64MatchesClang) {
  checkPackage("glibc", "libc6-dev:amd64", "x86_64-linux-gnu", "x86_64-linux-gnu");
}

// i386 reads the same headers (they branch on __x86_64__); libc6-dev-i386 adds <gnu/stubs-32.h>.
TEST(GlibcHeaders, I386MatchesClang) {
  if (!fs::exists("/usr/include/x86_64-linux-gnu/gnu/stubs-32.h"))
    GTEST_SKIP() << "no 32-bit glibc stubs (Debian: libc6-dev-i386)";
  checkPackage("glibc", "libc6-dev:amd64", "x86_64-linux-gnu", "i386-linux-gnu");
}

static void checkVulkanZlib(const std::string& triple) {
  HeaderSet set{"vulkan+zlib", {}, {"/usr/include/x86_64-linux-gnu", "/usr/include"}};
  for (const char* h : {"vulkan/vulkan_core.h", "vulkan/vulkan.h", "zlib.h", "zconf.h"})
    if (fs::exists(std::string("/usr/include/") + h)) set.headers.push_back(h);
  if (set.headers.size() < 4)
    GTEST_SKIP() << "Vulkan or zlib headers missing (Debian: libvulkan-dev, zlib1g-dev)";
  checkEveryClang(set, triple);
}

// SDL2's headers (libsdl2-dev): installed, or unpacked by scripts/deps.sh without the package's
// dependencies. Headers that need X11, OpenGL or Vulkan first are the ones clang refuses alone.
static void checkSdl(const std::string& triple) {
  std::string root;
  for (const char* r : {"", "/var/cache/abikit/sdl2"})
    if (root.empty() && fs::exists(std::string(r) + "/usr/include/SDL2/SDL.h")) root = r;
  if (root.empty() && !fs::exists("/usr/include/SDL2/SDL.h"))
    GTEST_SKIP() << "no SDL2 headers (Debian: libsdl2-dev; scripts/deps.sh test unpacks it)";
  HeaderSet set{"sdl2",
                {},
                {root + "/usr/include/x86_64-linux-gnu", root + "/usr/include",
                 "/usr/include/x86_64-linux-gnu", "/usr/include"}};
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root + "/usr/include/SDL2", ec))
    if (e.is_regular_file() && e.path().extension() == ".h")
      set.headers.push_back("SDL2/" + e.path().filename().string());
  std::sort(set.headers.begin(), set.headers.end());
  checkEveryClang(set, triple, 24);
}

TEST(SdlHeaders, X86_64MatchesClang) {
  checkSdl("x86_64-linux-gnu");
}

TEST(SdlHeaders, I386MatchesClang) {
  checkSdl("i386-linux-gnu");
}

TEST(VulkanZlibHeaders, X86_64MatchesClang) {
  checkVulkanZlib("x86_64-linux-gnu");
}

TEST(VulkanZlibHeaders, I386MatchesClang) {
  checkVulkanZlib("i386-linux-gnu");
}

TEST(VulkanZlibHeaders, Aarch64MatchesClang) {
  checkVulkanZlib("aarch64-linux-gnu");
}

// The Windows hosts: Vulkan alone (its <vk_platform.h> takes the _WIN32 branch, __stdcall
// included); zlib needs a C library's <sys/types.h>, which no Windows target has here.
static void checkVulkanWindows(const std::string& triple) {
  HeaderSet set{"vulkan", {}, {"/usr/include"}};
  for (const char* h : {"vulkan/vulkan_core.h", "vulkan/vulkan.h"})
    if (fs::exists(std::string("/usr/include/") + h)) set.headers.push_back(h);
  if (set.headers.size() < 2) GTEST_SKIP() << "Vulkan headers missing (Debian: libvulkan-dev)";
  checkEveryClang(set, triple);
}

TEST(VulkanHeaders, WindowsMsvcMatchesClang) {
  checkVulkanWindows("x86_64-pc-windows-msvc");
}

TEST(VulkanHeaders, WindowsMingwMatchesClang) {
  checkVulkanWindows("x86_64-w64-windows-gnu");
}

TEST(UapiHeaders, Aarch64MatchesClang) {
  checkUapi("aarch64-linux-gnu", 24);
}

// glibc's AArch64 headers as the cross package installs them (their own <asm/...> included).
TEST(GlibcHeaders, Aarch64LinuxMatchesClang) {
  if (!fs::is_directory(kGlibcAarch64Includes))
    GTEST_SKIP() << "no glibc headers in " << kGlibcAarch64Includes
                 << " (Debian: libc6-dev-arm64-cross)";
  checkEveryClang(treeHeaders("glibc", kGlibcAarch64Includes), "aarch64-linux-gnu", 24);
}
