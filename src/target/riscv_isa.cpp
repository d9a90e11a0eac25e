// RISC-V ISA strings (-march), modelled on LLVM's RISCVISAInfo::parseArchString.
//
// Sources (see docs/targets/riscv.md for the full citation list):
//  - grammar, error wording, closure, combination and dependency checks: LLVM
//    llvm/lib/TargetParser/RISCVISAInfo.cpp and its unit test RISCVISAInfoTest.cpp;
//  - extension versions: the extension list printed by RISCVISAInfoTest.cpp (LLVM 20 line),
//    plus Q 2.2 (ISA manual; accepted by current clang);
//  - implications: LLVM llvm/lib/Target/RISCV/RISCVFeatures.td;
//  - canonical order: LLVM RISCVISAUtils::compareExtension;
//  - Snitch's xssr/xfrep/xdma: pulp-platform/llvm-project llvm/lib/Support/RISCVISAInfo.cpp.
#include "abikit/riscv_isa.h"

#include "abikit/diag.h"

#include <algorithm>
#include <array>
#include <limits>

namespace abikit {

namespace {

constexpr uint8_t kExp = 1;  // experimental
constexpr uint8_t kRv32 = 2; // rv32 only

struct ExtDef {
  std::string_view name;
  uint8_t major, minor;
  uint8_t flags;
  std::string_view implies;
};

// Sorted by name (checked at compile time below). Each entry written once.
constexpr ExtDef kExts[] = {
    {"a", 2, 1, 0, "zaamo zalrsc"},
    {"b", 1, 0, 0, "zba zbb zbs"},
    {"c", 2, 0, 0, ""},
    {"d", 2, 2, 0, "f"},
    {"e", 2, 0, 0, ""},
    {"f", 2, 2, 0, "zicsr"},
    {"h", 1, 0, 0, ""},
    {"i", 2, 1, 0, ""},
    {"m", 2, 0, 0, "zmmul"},
    {"q", 2, 2, 0, "d"},
    {"sha", 1, 0, 0, "h shcounterenw shgatpa shtvala shvsatpa shvstvala shvstvecd ssstateen"},
    {"shcounterenw", 1, 0, 0, ""},
    {"shgatpa", 1, 0, 0, ""},
    {"shtvala", 1, 0, 0, ""},
    {"shvsatpa", 1, 0, 0, ""},
    {"shvstvala", 1, 0, 0, ""},
    {"shvstvecd", 1, 0, 0, ""},
    {"smaia", 1, 0, 0, ""},
    {"smcdeleg", 1, 0, 0, ""},
    {"smcsrind", 1, 0, 0, ""},
    {"smctr", 1, 0, kExp, "sscsrind"},
    {"smepmp", 1, 0, 0, ""},
    {"smmpm", 1, 0, 0, ""},
    {"smnpm", 1, 0, 0, ""},
    {"smrnmi", 1, 0, 0, ""},
    {"smstateen", 1, 0, 0, ""},
    {"ssaia", 1, 0, 0, ""},
    {"ssccfg", 1, 0, 0, ""},
    {"ssccptr", 1, 0, 0, ""},
    {"sscofpmf", 1, 0, 0, ""},
    {"sscounterenw", 1, 0, 0, ""},
    {"sscsrind", 1, 0, 0, ""},
    {"ssctr", 1, 0, kExp, "sscsrind"},
    {"ssnpm", 1, 0, 0, ""},
    {"sspm", 1, 0, 0, ""},
    {"ssqosid", 1, 0, 0, ""},
    {"ssstateen", 1, 0, 0, ""},
    {"ssstrict", 1, 0, 0, ""},
    {"sstc", 1, 0, 0, ""},
    {"sstvala", 1, 0, 0, ""},
    {"sstvecd", 1, 0, 0, ""},
    {"ssu64xl", 1, 0, 0, ""},
    {"supm", 1, 0, 0, ""},
    {"svade", 1, 0, 0, ""},
    {"svadu", 1, 0, 0, ""},
    {"svbare", 1, 0, 0, ""},
    {"svinval", 1, 0, 0, ""},
    {"svnapot", 1, 0, 0, ""},
    {"svpbmt", 1, 0, 0, ""},
    {"svukte", 0, 3, kExp, ""},
    {"svvptc", 1, 0, 0, ""},
    {"v", 1, 0, 0, "zvl128b zve64d"},
    {"xcvalu", 1, 0, 0, ""},
    {"xcvbi", 1, 0, 0, ""},
    {"xcvbitmanip", 1, 0, 0, ""},
    {"xcvelw", 1, 0, 0, ""},
    {"xcvmac", 1, 0, 0, ""},
    {"xcvmem", 1, 0, 0, ""},
    {"xcvsimd", 1, 0, 0, ""},
    {"xdma", 0, 1, 0, ""},
    {"xfrep", 0, 1, 0, ""},
    {"xsfcease", 1, 0, 0, ""},
    {"xsfvcp", 1, 0, 0, "zve32x"},
    {"xsfvfnrclipxfqf", 1, 0, 0, "zve32f"},
    {"xsfvfwmaccqqq", 1, 0, 0, "zvfbfmin"},
    {"xsfvqmaccdod", 1, 0, 0, "zve32x"},
    {"xsfvqmaccqoq", 1, 0, 0, "zve32x"},
    {"xsifivecdiscarddlone", 1, 0, 0, ""},
    {"xsifivecflushdlone", 1, 0, 0, ""},
    {"xssr", 0, 1, 0, ""},
    {"xtheadba", 1, 0, 0, ""},
    {"xtheadbb", 1, 0, 0, ""},
    {"xtheadbs", 1, 0, 0, ""},
    {"xtheadcmo", 1, 0, 0, ""},
    {"xtheadcondmov", 1, 0, 0, ""},
    {"xtheadfmemidx", 1, 0, 0, ""},
    {"xtheadmac", 1, 0, 0, ""},
    {"xtheadmemidx", 1, 0, 0, ""},
    {"xtheadmempair", 1, 0, 0, ""},
    {"xtheadsync", 1, 0, 0, ""},
    {"xtheadvdot", 1, 0, 0, "v"},
    {"xventanacondops", 1, 0, 0, ""},
    {"xwchc", 2, 2, kRv32, "zca"},
    {"za128rs", 1, 0, 0, ""},
    {"za64rs", 1, 0, 0, ""},
    {"zaamo", 1, 0, 0, ""},
    {"zabha", 1, 0, 0, ""},
    {"zacas", 1, 0, 0, ""},
    {"zalasr", 0, 1, kExp, ""},
    {"zalrsc", 1, 0, 0, ""},
    {"zama16b", 1, 0, 0, ""},
    {"zawrs", 1, 0, 0, ""},
    {"zba", 1, 0, 0, ""},
    {"zbb", 1, 0, 0, ""},
    {"zbc", 1, 0, 0, ""},
    {"zbkb", 1, 0, 0, ""},
    {"zbkc", 1, 0, 0, ""},
    {"zbkx", 1, 0, 0, ""},
    {"zbs", 1, 0, 0, ""},
    {"zca", 1, 0, 0, ""},
    {"zcb", 1, 0, 0, "zca"},
    {"zcd", 1, 0, 0, "d zca"},
    {"zce", 1, 0, 0, "zcb zcmp zcmt"},
    {"zcf", 1, 0, kRv32, "f zca"},
    {"zcmop", 1, 0, 0, "zca"},
    {"zcmp", 1, 0, 0, "zca"},
    {"zcmt", 1, 0, 0, "zca zicsr"},
    {"zdinx", 1, 0, 0, "zfinx"},
    {"zfa", 1, 0, 0, "f"},
    {"zfbfmin", 1, 0, 0, "f"},
    {"zfh", 1, 0, 0, "zfhmin"},
    {"zfhmin", 1, 0, 0, "f"},
    {"zfinx", 1, 0, 0, "zicsr"},
    {"zhinx", 1, 0, 0, "zhinxmin"},
    {"zhinxmin", 1, 0, 0, "zfinx"},
    {"zic64b", 1, 0, 0, ""},
    {"zicbom", 1, 0, 0, ""},
    {"zicbop", 1, 0, 0, ""},
    {"zicboz", 1, 0, 0, ""},
    {"ziccamoa", 1, 0, 0, ""},
    {"ziccif", 1, 0, 0, ""},
    {"zicclsm", 1, 0, 0, ""},
    {"ziccrse", 1, 0, 0, ""},
    {"zicfilp", 1, 0, kExp, "zicsr"},
    {"zicfiss", 1, 0, kExp, "zicsr zimop"},
    {"zicntr", 2, 0, 0, "zicsr"},
    {"zicond", 1, 0, 0, ""},
    {"zicsr", 2, 0, 0, ""},
    {"zifencei", 2, 0, 0, ""},
    {"zihintntl", 1, 0, 0, ""},
    {"zihintpause", 2, 0, 0, ""},
    {"zihpm", 2, 0, 0, "zicsr"},
    {"zimop", 1, 0, 0, ""},
    {"zk", 1, 0, 0, "zkn zkr zkt"},
    {"zkn", 1, 0, 0, "zbkb zbkc zbkx zkne zknd zknh"},
    {"zknd", 1, 0, 0, ""},
    {"zkne", 1, 0, 0, ""},
    {"zknh", 1, 0, 0, ""},
    {"zkr", 1, 0, 0, ""},
    {"zks", 1, 0, 0, "zbkb zbkc zbkx zksed zksh"},
    {"zksed", 1, 0, 0, ""},
    {"zksh", 1, 0, 0, ""},
    {"zkt", 1, 0, 0, ""},
    {"zmmul", 1, 0, 0, ""},
    {"ztso", 1, 0, 0, ""},
    {"zvbb", 1, 0, 0, "zvkb"},
    {"zvbc", 1, 0, 0, "zve64x"},
    {"zvbc32e", 0, 7, kExp, "zve32x"},
    {"zve32f", 1, 0, 0, "zve32x f"},
    {"zve32x", 1, 0, 0, "zicsr zvl32b"},
    {"zve64d", 1, 0, 0, "zve64f d"},
    {"zve64f", 1, 0, 0, "zve32f zve64x"},
    {"zve64x", 1, 0, 0, "zve32x zvl64b"},
    {"zvfbfmin", 1, 0, 0, "zve32f"},
    {"zvfbfwma", 1, 0, 0, "zvfbfmin zfbfmin"},
    {"zvfh", 1, 0, 0, "zvfhmin zfhmin"},
    {"zvfhmin", 1, 0, 0, "zve32f"},
    {"zvkb", 1, 0, 0, "zve32x"},
    {"zvkg", 1, 0, 0, "zve32x"},
    {"zvkgs", 0, 7, kExp, "zvkg"},
    {"zvkn", 1, 0, 0, "zvkned zvknhb zvkb zvkt"},
    {"zvknc", 1, 0, 0, "zvkn zvbc"},
    {"zvkned", 1, 0, 0, "zve32x"},
    {"zvkng", 1, 0, 0, "zvkn zvkg"},
    {"zvknha", 1, 0, 0, "zve32x"},
    {"zvknhb", 1, 0, 0, "zve64x"},
    {"zvks", 1, 0, 0, "zvksed zvksh zvkb zvkt"},
    {"zvksc", 1, 0, 0, "zvks zvbc"},
    {"zvksed", 1, 0, 0, "zve32x"},
    {"zvksg", 1, 0, 0, "zvks zvkg"},
    {"zvksh", 1, 0, 0, "zve32x"},
    {"zvkt", 1, 0, 0, ""},
    {"zvl1024b", 1, 0, 0, "zvl512b"},
    {"zvl128b", 1, 0, 0, "zvl64b"},
    {"zvl16384b", 1, 0, 0, "zvl8192b"},
    {"zvl2048b", 1, 0, 0, "zvl1024b"},
    {"zvl256b", 1, 0, 0, "zvl128b"},
    {"zvl32768b", 1, 0, 0, "zvl16384b"},
    {"zvl32b", 1, 0, 0, ""},
    {"zvl4096b", 1, 0, 0, "zvl2048b"},
    {"zvl512b", 1, 0, 0, "zvl256b"},
    {"zvl64b", 1, 0, 0, "zvl32b"},
    {"zvl65536b", 1, 0, 0, "zvl32768b"},
    {"zvl8192b", 1, 0, 0, "zvl4096b"},
};
constexpr size_t kNumExts = std::size(kExts);

static_assert(std::is_sorted(std::begin(kExts), std::end(kExts),
                             [](const ExtDef& a, const ExtDef& b) { return a.name < b.name; }),
              "kExts must be sorted by name");

// Profiles abikit knows, with the ISA string they stand for (RISC-V Profiles specification;
// the same expansions as LLVM's RISCVProfiles.td). Sorted by name.
struct Profile {
  std::string_view name, march;
};
constexpr Profile kProfiles[] = {
    {"rva20s64", "rv64imafdc_zicsr_zicntr_ziccif_ziccrse_ziccamoa_za128rs_zicclsm_zifencei_svbare_"
                 "svade_ssccptr_sstvecd_sstvala"},
    {"rva20u64", "rv64imafdc_zicsr_zicntr_ziccif_ziccrse_ziccamoa_za128rs_zicclsm"},
    {"rva22s64", "rv64imafdc_zicsr_zicntr_ziccif_ziccrse_ziccamoa_zicclsm_za64rs_zihpm_"
                 "zihintpause_zba_zbb_zbs_zic64b_zicbom_zicbop_zicboz_zfhmin_zkt_zifencei_svbare_"
                 "svade_ssccptr_sstvecd_sstvala_sscounterenw_svpbmt_svinval"},
    {"rva22u64", "rv64imafdc_zicsr_zicntr_ziccif_ziccrse_ziccamoa_zicclsm_za64rs_zihpm_"
                 "zihintpause_zba_zbb_zbs_zic64b_zicbom_zicbop_zicboz_zfhmin_zkt"},
    {"rvi20u32", "rv32i"},
    {"rvi20u64", "rv64i"},
};
// Profiles LLVM knows that abikit does not expand (reported by name rather than as a malformed
// string).
constexpr std::string_view kUnsupportedProfiles[] = {"rva23s64", "rva23u64", "rvb23s64", "rvb23u64",
                                                     "rvm23u32"};

// Single-letter extensions in canonical order after i and e (LLVM RISCVISAUtils::AllStdExts).
constexpr std::string_view kAllStdExts = "mafdqlcbkjtpvnh";

constexpr size_t findIndex(std::string_view name) {
  size_t lo = 0, hi = kNumExts;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (kExts[mid].name < name)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (lo < kNumExts && kExts[lo].name == name) ? lo : kNumExts;
}

const ExtDef* findExt(std::string_view name) {
  size_t i = findIndex(name);
  return i < kNumExts ? &kExts[i] : nullptr;
}

// An extension named by a literal in this file, looked up at compile time (a misspelt name does
// not compile).
struct Ix {
  size_t i;
  consteval Ix(const char* name) : i(findIndex(name)) {
    if (i == kNumExts) throw "not an extension of kExts";
  }
  constexpr std::string_view name() const { return kExts[i].name; }
};

// What each extension implies, as table indices (checked at compile time: every implied name is
// in the table).
struct ImpliedTable {
  std::array<uint16_t, 256> list{};
  std::array<uint16_t, kNumExts + 1> begin{};
};
constexpr ImpliedTable makeImplied() {
  ImpliedTable t{};
  size_t n = 0;
  for (size_t i = 0; i < kNumExts; ++i) {
    t.begin[i] = uint16_t(n);
    std::string_view s = kExts[i].implies;
    size_t p = 0;
    while (p < s.size()) {
      size_t q = s.find(' ', p);
      if (q == std::string_view::npos) q = s.size();
      size_t j = findIndex(s.substr(p, q - p));
      if (j == kNumExts) throw "an implied extension is not in kExts";
      t.list[n++] = uint16_t(j);
      p = q + 1;
    }
  }
  t.begin[kNumExts] = uint16_t(n);
  return t;
}
constexpr ImpliedTable kImplied = makeImplied();

// Shorthand extensions added when every extension they imply is present (LLVM's
// CombineIntoExts), in LLVM's order.
constexpr Ix kCombinations[] = {"b",     "zk",    "zkn",  "zks",   "zvkn",
                                "zvknc", "zvkng", "zvks", "zvksc", "zvksg"};

size_t indexOf(const ExtDef* e) {
  return static_cast<size_t>(e - kExts);
}

bool isDigit(char c) {
  return c >= '0' && c <= '9';
}
bool isLower(char c) {
  return c >= 'a' && c <= 'z';
}

// Rank of a single letter in the canonical order (RISCVISAUtils::singleLetterExtensionRank).
int singleLetterRank(char c) {
  if (c == 'i') return 0;
  if (c == 'e') return 1;
  size_t pos = kAllStdExts.find(c);
  if (pos != std::string_view::npos) return int(pos) + 2;
  return 2 + int(kAllStdExts.size()) + (c - 'a');
}

// RISCVISAUtils::getExtensionRank: single letters, then z* by their second letter, then s*,
// then x*; ties broken lexicographically.
int extensionRank(std::string_view name) {
  switch (name[0]) {
  case 's':
    return 1 << 7;
  case 'z':
    return (1 << 6) | singleLetterRank(name[1]);
  case 'x':
    return 1 << 8;
  default:
    return singleLetterRank(name[0]);
  }
}

bool canonicalLess(std::string_view a, std::string_view b) {
  int ra = extensionRank(a), rb = extensionRank(b);
  if (ra != rb) return ra < rb;
  return a < b;
}

std::string_view typeDesc(std::string_view name) {
  if (name.size() > 1) {
    if (name[0] == 's') return "standard supervisor-level extension";
    if (name[0] == 'x') return "non-standard user-level extension";
  }
  return "standard user-level extension";
}

// For a multi-letter token, the position just after the name: the trailing
// `digits[p digits]` is the version (LLVM findLastNonVersionCharacter + 1).
size_t nameLength(std::string_view ext) {
  size_t pos = ext.size() - 1;
  while (pos > 0 && isDigit(ext[pos])) --pos;
  if (pos > 0 && ext[pos] == 'p' && isDigit(ext[pos - 1])) {
    --pos;
    while (pos > 0 && isDigit(ext[pos])) --pos;
  }
  return pos + 1;
}

} // namespace

// ---------------------------------------------------------------------------------------------

class RiscvISAParser {
public:
  RiscvISAParser(std::string_view user, const RiscvIsaRules& rules) : user_(user), rules_(rules) {
    origin_.fill(kAbsent);
  }

  RiscvISAInfo run();

private:
  static constexpr size_t kAbsent = std::numeric_limits<size_t>::max();

  [[noreturn]] void fail(std::string message, size_t pos_in_text) const {
    throw Error::atOption(std::move(message), "-march", std::string(user_), userPos(pos_in_text));
  }
  // Maps a position in the text being parsed (a profile's expansion followed by the user's
  // suffix) back into the user's string.
  size_t userPos(size_t pos) const {
    if (pos < expansion_len_) return 0;
    return pos - expansion_len_ + user_prefix_len_;
  }

  void parseText(std::string_view text);
  /// Parses the version at text[pos..) of extension `name` (LLVM getExtensionVersion) and
  /// returns how many characters it takes. `limit` ends the version text. `name_pos` is where
  /// the name starts (for messages about the name itself).
  size_t parseVersion(std::string_view name, std::string_view text, size_t pos, size_t limit,
                      size_t name_pos) const;
  void add(const ExtDef* e, size_t origin) {
    size_t i = indexOf(e);
    if (origin_[i] == kAbsent) origin_[i] = origin;
  }
  bool has(Ix e) const { return origin_[e.i] != kAbsent; }
  size_t originOf(Ix e) const { return origin_[e.i]; }
  void closeImplications();
  void addCombinations();
  void checkDependencies(unsigned xlen) const;

  std::string_view user_;
  RiscvIsaRules rules_;
  size_t expansion_len_ = 0;   // length of a profile's expansion at the start of the text
  size_t user_prefix_len_ = 0; // length of the profile name in the user's string
  unsigned xlen_ = 0;
  std::array<size_t, kNumExts> origin_; // where each present extension came from, or kAbsent
};

size_t RiscvISAParser::parseVersion(std::string_view name, std::string_view text, size_t pos,
                                    size_t limit, size_t name_pos) const {
  size_t p = pos;
  while (p < limit && isDigit(text[p])) ++p;
  std::string_view major_str = text.substr(pos, p - pos);
  std::string_view minor_str;
  size_t consumed = major_str.size();
  if (!major_str.empty() && p < limit && text[p] == 'p') {
    size_t q = p + 1;
    while (q < limit && isDigit(text[q])) ++q;
    minor_str = text.substr(p + 1, q - p - 1);
    if (minor_str.empty())
      fail("minor version number missing after 'p' for extension '" + std::string(name) + "'", p);
    consumed += minor_str.size() + 1;
  }
  auto toNumber = [&](std::string_view digits, const char* which, unsigned& out) {
    unsigned long long v = 0;
    for (char c : digits) {
      v = v * 10 + unsigned(c - '0');
      if (v > std::numeric_limits<unsigned>::max())
        fail(std::string("Failed to parse ") + which + " version number for extension '" +
                 std::string(name) + "'",
             pos);
    }
    out = unsigned(v);
  };
  unsigned major = 0, minor = 0;
  toNumber(major_str, "major", major);
  toNumber(minor_str, "minor", minor);
  bool given = !major_str.empty();
  auto versionText = [&] {
    std::string s(major_str);
    if (!minor_str.empty()) s += "." + std::string(minor_str);
    return s;
  };

  if (name == "g") {
    if (given) fail("version not supported for 'g'", pos);
    return 0;
  }
  const ExtDef* e = findExt(name);
  if (e && (e->flags & kExp)) {
    if (!given)
      fail("experimental extension requires explicit version number `" + std::string(name) + "`",
           name_pos);
    if (major != e->major || minor != e->minor)
      fail("unsupported version number " + versionText() + " for experimental extension '" +
               std::string(name) + "' (this compiler supports " + std::to_string(e->major) + "." +
               std::to_string(e->minor) + ")",
           pos);
    return consumed;
  }
  if (!given) return 0; // the default version; an unknown name is reported by the caller
  if (e && e->major == major && e->minor == minor) return consumed;
  if (!e) {
    if (name.size() == 1)
      fail("unsupported standard user-level extension '" + std::string(name) + "'", name_pos);
    fail("unsupported " + std::string(typeDesc(name)) + " '" + std::string(name) + "'", name_pos);
  }
  fail("unsupported version number " + versionText() + " for extension '" + std::string(name) + "'",
       pos);
}

void RiscvISAParser::parseText(std::string_view text) {
  // Base: rv32/rv64, then i, e or g.
  xlen_ = text[2] == '3' ? 32 : 64;
  size_t pos = 4;
  if (pos >= text.size())
    fail("string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0);
  char base = text[pos];
  if (base != 'i' && base != 'e' && base != 'g')
    fail("first letter after 'rv" + std::to_string(xlen_) + "' should be 'e', 'i' or 'g'", pos);
  size_t limit = text.find('_', pos);
  if (limit == std::string_view::npos) limit = text.size();
  if (base == 'g') {
    parseVersion("g", text, pos + 1, limit, pos);
    for (Ix g : {Ix("i"), Ix("m"), Ix("a"), Ix("f"), Ix("d"), Ix("zicsr"), Ix("zifencei")})
      add(&kExts[g.i], pos);
    pos += 1;
  } else {
    std::string_view name = text.substr(pos, 1);
    size_t consumed = parseVersion(name, text, pos + 1, limit, pos);
    add(findExt(name), pos);
    pos += 1 + consumed;
  }

  while (pos < text.size()) {
    if (text[pos] == '_') {
      if (pos + 1 == text.size() || text[pos + 1] == '_')
        fail("extension name missing after separator '_'", pos);
      ++pos;
    }
    size_t end = text.find('_', pos);
    if (end == std::string_view::npos) end = text.size();
    // One token up to the next '_': single letters (each with an optional version), possibly
    // followed by one multi-letter extension that runs to the end of the token.
    while (pos < end) {
      char c = text[pos];
      std::string_view name;
      size_t name_pos = pos;
      size_t consumed = 0;
      if (kAllStdExts.find(c) != std::string_view::npos) {
        name = text.substr(pos, 1);
        consumed = parseVersion(name, text, pos + 1, end, name_pos);
        pos += 1 + consumed;
      } else if (c == 'z' || c == 's' || c == 'x') {
        std::string_view token = text.substr(pos, end - pos);
        size_t len = nameLength(token);
        name = token.substr(0, len);
        if (name.size() == 1) {
          const char* what = c == 'z'   ? "standard user-level extension"
                             : c == 's' ? "standard supervisor-level extension"
                                        : "non-standard user-level extension";
          fail(std::string(what) + " name missing after '" + std::string(1, c) + "'", name_pos);
        }
        parseVersion(name, text, pos + len, end, name_pos);
        pos = end;
      } else {
        fail("invalid standard user-level extension '" + std::string(1, c) + "'", pos);
      }
      const ExtDef* e = findExt(name);
      if (!e) {
        if (name.size() == 1)
          fail("unsupported standard user-level extension '" + std::string(name) + "'", name_pos);
        fail("unsupported " + std::string(typeDesc(name)) + " '" + std::string(name) + "'",
             name_pos);
      }
      if (origin_[indexOf(e)] != kAbsent)
        fail("duplicated " + std::string(typeDesc(name)) + " '" + std::string(name) + "'",
             name_pos);
      add(e, name_pos);
    }
  }
}

void RiscvISAParser::closeImplications() {
  if (!has("i") && !has("e")) origin_[Ix("i").i] = 0;
  // Worklist closure to a fixpoint; each implied extension inherits the position of the
  // extension that brought it in (for error messages).
  if (rules_.c_implies_zca && has("c")) {
    size_t c = originOf("c");
    if (!has("zca")) origin_[Ix("zca").i] = c;
    if (has("d") && !has("zcd")) origin_[Ix("zcd").i] = c;
    if (xlen_ == 32 && has("f") && !has("zcf")) origin_[Ix("zcf").i] = c;
  }
  std::array<uint16_t, kNumExts> work{};
  size_t n = 0;
  for (size_t i = 0; i < kNumExts; ++i)
    if (origin_[i] != kAbsent) work[n++] = uint16_t(i);
  while (n > 0) {
    size_t i = work[--n];
    if (i == Ix("a").i && !rules_.a_implies_zaamo_zalrsc) continue; // LLVM 19: A implies nothing
    for (size_t k = kImplied.begin[i]; k < kImplied.begin[i + 1]; ++k) {
      size_t j = kImplied.list[k];
      if (origin_[j] == kAbsent) {
        origin_[j] = origin_[i];
        work[n++] = uint16_t(j);
      }
    }
  }
  // Zce with F on RV32 also brings Zcf.
  if (xlen_ == 32 && has("zce") && has("f") && !has("zcf")) origin_[Ix("zcf").i] = originOf("zce");
}

void RiscvISAParser::addCombinations() {
  bool changed;
  do {
    changed = false;
    for (Ix combo : kCombinations) {
      if (has(combo) || (combo.i == Ix("b").i && !rules_.combine_b)) continue;
      bool all = true;
      size_t origin = 0;
      for (size_t k = kImplied.begin[combo.i]; k < kImplied.begin[combo.i + 1] && all; ++k) {
        size_t o = origin_[kImplied.list[k]];
        if (o == kAbsent)
          all = false;
        else
          origin = std::max(origin, o);
      }
      if (all) {
        origin_[combo.i] = origin;
        changed = true;
      }
    }
  } while (changed);
}

void RiscvISAParser::checkDependencies(unsigned xlen) const {
  auto later = [&](Ix a, Ix b) { return std::max(originOf(a), originOf(b)); };
  if (has("i") && has("e")) fail("'i' and 'e' extensions are incompatible", later("i", "e"));
  if (has("f") && has("zfinx"))
    fail("'f' and 'zfinx' extensions are incompatible", later("f", "zfinx"));
  if (!has("zve32x")) {
    size_t first = kAbsent;
    for (size_t i = 0; i < kNumExts; ++i)
      if (origin_[i] != kAbsent && kExts[i].name.substr(0, 3) == "zvl")
        first = std::min(first, origin_[i]);
    if (first != kAbsent)
      fail("'zvl*b' requires 'v' or 'zve*' extension to also be specified", first);
  }
  if ((has("zcmt") || has("zcmp")) && has("d") && (has("c") || has("zcd"))) {
    Ix which = has("zcmt") ? Ix("zcmt") : Ix("zcmp");
    Ix other = has("c") ? Ix("c") : Ix("zcd");
    fail("'" + std::string(which.name()) + "' extension is incompatible with '" +
             std::string(other.name()) + "' extension when 'd' extension is enabled",
         std::max(originOf(which), std::max(originOf(other), originOf("d"))));
  }
  if (xlen != 32 && has("zcf")) fail("'zcf' is only supported for 'rv32'", originOf("zcf"));
  if (!has("a") && !has("zaamo"))
    for (Ix ext : {Ix("zacas"), Ix("zabha")})
      if (has(ext))
        fail("'" + std::string(ext.name()) +
                 "' requires 'a' or 'zaamo' extension to also be specified",
             originOf(ext));
  if (has("xwchc")) {
    if (xlen != 32) fail("'xwchc' is only supported for 'rv32'", originOf("xwchc"));
    if (has("d")) fail("'d' and 'xwchc' extensions are incompatible", later("d", "xwchc"));
    if (has("zcb")) fail("'xwchc' and 'zcb' extensions are incompatible", later("xwchc", "zcb"));
  }
}

RiscvISAInfo RiscvISAParser::run() {
  std::string_view text = user_;
  for (size_t i = 0; i < text.size(); ++i)
    if (!isDigit(text[i]) && !isLower(text[i]) && text[i] != '_')
      fail("string may only contain [a-z0-9_]", i);

  std::string expanded; // a profile's expansion followed by the user's extra extensions
  if (text.substr(0, 4) != "rv32" && text.substr(0, 4) != "rv64") {
    const Profile* found = nullptr;
    for (const Profile& p : kProfiles)
      if (text.substr(0, p.name.size()) == p.name) found = &p;
    if (!found) {
      for (std::string_view p : kUnsupportedProfiles)
        if (text.substr(0, p.size()) == p)
          fail("profile '" + std::string(p) +
                   "' is not supported (known profiles: rvi20u32, rvi20u64, rva20u64, rva20s64, "
                   "rva22u64, rva22s64)",
               0);
      fail("string must begin with rv32{i,e,g}, rv64{i,e,g}, or a supported profile name", 0);
    }
    std::string_view rest = text.substr(found->name.size());
    if (!rest.empty() && rest[0] != '_')
      fail("additional extensions must be after separator '_'", found->name.size());
    expanded = std::string(found->march) + std::string(rest);
    expansion_len_ = found->march.size();
    user_prefix_len_ = found->name.size();
    text = expanded;
  }

  parseText(text);
  closeImplications();
  addCombinations();

  RiscvISAInfo info;
  info.xlen_ = xlen_;
  if (has("q"))
    info.flen_ = 128;
  else if (has("d"))
    info.flen_ = 64;
  else if (has("f"))
    info.flen_ = 32;
  if (has("v")) info.max_elen_ = info.max_elen_fp_ = 64;
  for (size_t i = 0; i < kNumExts; ++i) {
    if (origin_[i] == kAbsent) continue;
    std::string_view n = kExts[i].name;
    if (n.substr(0, 3) == "zve") {
      unsigned elen = (n[3] - '0') * 10u + unsigned(n[4] - '0');
      info.max_elen_ = std::max(info.max_elen_, elen);
      if (n[5] == 'f') info.max_elen_fp_ = std::max(info.max_elen_fp_, 32u);
      if (n[5] == 'd') info.max_elen_fp_ = std::max(info.max_elen_fp_, 64u);
    } else if (n.substr(0, 3) == "zvl") {
      unsigned v = 0;
      for (size_t k = 3; k < n.size() && isDigit(n[k]); ++k) v = v * 10 + unsigned(n[k] - '0');
      info.min_vlen_ = std::max(info.min_vlen_, v);
    }
  }
  checkDependencies(xlen_);

  std::array<uint16_t, kNumExts> order;
  size_t count = 0;
  for (size_t i = 0; i < kNumExts; ++i)
    if (origin_[i] != kAbsent) order[count++] = uint16_t(i);
  std::sort(order.begin(), order.begin() + count,
            [](uint16_t a, uint16_t b) { return canonicalLess(kExts[a].name, kExts[b].name); });
  info.exts_.reserve(count);
  for (size_t k = 0; k < count; ++k) {
    const ExtDef& e = kExts[order[k]];
    info.exts_.push_back({std::string(e.name), e.major, e.minor});
  }
  return info;
}

// ---------------------------------------------------------------------------------------------

RiscvISAInfo RiscvISAInfo::parse(std::string_view march, const RiscvIsaRules& rules) {
  return RiscvISAParser(march, rules).run();
}

std::span<const RiscvKnownExtension> RiscvISAInfo::knownExtensions() {
  static const std::array<RiscvKnownExtension, kNumExts> kTable = [] {
    std::array<RiscvKnownExtension, kNumExts> t{};
    for (size_t i = 0; i < kNumExts; ++i)
      t[i] = {kExts[i].name,
              kExts[i].major,
              kExts[i].minor,
              (kExts[i].flags & kExp) != 0,
              (kExts[i].flags & kRv32) != 0,
              kExts[i].implies};
    return t;
  }();
  return kTable;
}

bool RiscvISAInfo::has(std::string_view ext) const {
  for (const RiscvExtension& e : exts_)
    if (e.name == ext) return true;
  return false;
}

std::string RiscvISAInfo::toString() const {
  std::string out = "rv" + std::to_string(xlen_);
  for (size_t i = 0; i < exts_.size(); ++i) {
    out += i ? "_" : "";
    out += exts_[i].name;
    out += std::to_string(exts_[i].major) + "p" + std::to_string(exts_[i].minor);
  }
  return out;
}

std::string_view RiscvISAInfo::defaultAbi() const {
  bool e = has("e"), d = has("d"), f = has("f");
  if (xlen_ == 32) return e ? "ilp32e" : d ? "ilp32d" : f ? "ilp32f" : "ilp32";
  return e ? "lp64e" : d ? "lp64d" : f ? "lp64f" : "lp64";
}

} // namespace abikit
