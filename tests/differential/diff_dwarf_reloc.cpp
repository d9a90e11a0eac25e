// abikit's reading of relocatable objects' DWARF (the relocations of .rela.debug_* applied by
// abikit::debugSections) against llvm-dwarfdump-22's, which applies them with LLVM's own
// relocation resolver. Generated C programs (common/cprog_gen.h) and one OpenCL kernel are
// compiled `-c -g` by clang-14 and clang-22 for riscv64 (rv64gc, lp64d, linker relaxation on:
// ADD/SUB and SET_ULEB128/SUB_ULEB128 pairs), riscv32 (rv32imac, ilp32) and amdgcn (gfx90a),
// DWARF 4 and 5, -O0 and -O2. For every DIE of every object, compared with what
// `llvm-dwarfdump-22 --debug-info` prints:
//   * every attribute of class address (DW_AT_low_pc, DW_AT_call_return_pc, ...: .debug_info or
//     .debug_addr through R_*_32/64),
//   * the code ranges (DW_AT_high_pc, DW_AT_ranges: .debug_rnglists / .debug_ranges),
//   * every location-list entry's range (DW_AT_location: .debug_loclists / .debug_loc),
//   * DW_AT_name (.debug_str_offsets / .debug_str offsets).
// ABIKIT_DIFF_COUNT scales the number of programs, ABIKIT_DIFF_SEED the first seed.
#include "abikit/dwarf_info.h"
#include "abikit/elf.h"
#include "cprog_gen.h"
#include "oracle.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace abikit;
using namespace abikit::dwarf;

struct LlvmDie {
  std::map<std::string, std::string> attrs;          // "DW_AT_name" -> "(\"x\")"
  std::map<std::string, std::vector<PcRange>> lists; // entries under an attribute
};

// The DIEs of `llvm-dwarfdump-22 --debug-info`, by .debug_info offset.
std::map<uint64_t, LlvmDie> parseLlvm(const std::string& text) {
  std::map<uint64_t, LlvmDie> out;
  std::istringstream in(text);
  std::string line, attr;
  LlvmDie* die = nullptr;
  while (std::getline(in, line)) {
    size_t p = line.find_first_not_of(' ');
    if (p == std::string::npos) continue;
    if (line.compare(0, 2, "0x") == 0 && line.find(" DW_TAG_") != std::string::npos) {
      die = &out[std::strtoull(line.c_str(), nullptr, 16)];
      attr.clear();
    } else if (die && line.compare(p, 6, "DW_AT_") == 0) {
      size_t tab = line.find('\t', p);
      if (tab == std::string::npos) continue;
      attr = line.substr(p, tab - p);
      die->attrs[attr] = line.substr(tab + 1);
    } else if (die && !attr.empty() && line.compare(p, 3, "[0x") == 0) {
      PcRange r;
      char* end = nullptr;
      r.begin = std::strtoull(line.c_str() + p + 1, &end, 16);
      if (!end || end[0] != ',') continue;
      r.end = std::strtoull(end + 2, nullptr, 16);
      die->lists[attr].push_back(r);
    }
  }
  return out;
}

// The hexadecimal number that starts an attribute's printed value "(0x...)", or nullopt.
std::optional<uint64_t> printedNumber(const std::string& v) {
  if (v.compare(0, 3, "(0x") != 0) return std::nullopt;
  return std::strtoull(v.c_str() + 1, nullptr, 16);
}

struct Counts {
  size_t objects = 0, dies = 0, addresses = 0, ranges = 0, loc_entries = 0, names = 0;
};

std::string rangesText(const std::vector<PcRange>& v) {
  std::ostringstream s;
  for (const PcRange& r : v) s << "[0x" << std::hex << r.begin << ", 0x" << r.end << ") ";
  return s.str();
}

void compareObject(const std::string& path, const std::string& what, Counts& n) {
  oracle::RunResult d = oracle::run({"llvm-dwarfdump-22", "--debug-info", path});
  ASSERT_EQ(d.exit_code, 0) << what << ": " << d.err;
  EXPECT_EQ(d.err, "") << what;
  const std::map<uint64_t, LlvmDie> llvm = parseLlvm(d.out);
  ElfFile f = ElfFile::open(path);
  ASSERT_EQ(f.header().type, kEtRel);
  std::optional<DebugInfo> info;
  try {
    info.emplace(debugSections(f));
  } catch (const Error& e) {
    FAIL() << what << ": " << e.format();
  }
  ++n.objects;
  std::vector<AttrValue> attrs;
  std::vector<PcRange> ranges;
  std::vector<LocEntry> entries;
  for (const Unit& u : info->units())
    for (const Die& die : u.dies) {
      auto it = llvm.find(die.offset);
      if (it == llvm.end()) {
        ADD_FAILURE() << what << ": llvm-dwarfdump has no DIE at 0x" << std::hex << die.offset;
        continue;
      }
      const LlvmDie& l = it->second;
      ++n.dies;
      const std::string at = what + " DIE 0x" + [&] {
        std::ostringstream s;
        s << std::hex << die.offset;
        return s.str();
      }();
      info->attributes(u, die, attrs);
      for (const AttrValue& a : attrs) {
        const std::string name(attrName(a.name));
        auto la = l.attrs.find(name);
        if (la == l.attrs.end()) continue;
        if (a.kind == AttrValue::Kind::Address) {
          std::optional<uint64_t> v = printedNumber(la->second);
          EXPECT_TRUE(v) << at << " " << name << " " << la->second;
          if (v) {
            EXPECT_EQ(a.u, *v) << at << " " << name << " llvm: " << la->second;
          }
          ++n.addresses;
        } else if (a.name == DW_AT_name && a.kind == AttrValue::Kind::String &&
                   la->second.find('\\') == std::string::npos) {
          EXPECT_EQ("(\"" + std::string(a.str) + "\")", la->second) << at;
          ++n.names;
        } else if (a.name == DW_AT_location &&
                   (a.kind == AttrValue::Kind::SecOffset || a.kind == AttrValue::Kind::LocListX)) {
          info->locationList(u, a, entries);
          std::vector<PcRange> ours;
          for (const LocEntry& e : entries)
            if (!e.is_default) ours.push_back({e.begin, e.end});
          auto ll = l.lists.find(name);
          const std::vector<PcRange> theirs =
              ll == l.lists.end() ? std::vector<PcRange>{} : ll->second;
          EXPECT_EQ(rangesText(ours), rangesText(theirs)) << at << " location list";
          n.loc_entries += ours.size();
        }
      }
      // Code ranges: DW_AT_low_pc + DW_AT_high_pc, or DW_AT_ranges.
      std::vector<PcRange> theirs;
      auto lo = l.attrs.find("DW_AT_low_pc"), hi = l.attrs.find("DW_AT_high_pc");
      auto rl = l.lists.find("DW_AT_ranges");
      if (rl != l.lists.end()) {
        theirs = rl->second;
      } else if (lo != l.attrs.end() && hi != l.attrs.end()) {
        std::optional<uint64_t> b = printedNumber(lo->second), e = printedNumber(hi->second);
        if (!b || !e) continue;
        theirs.push_back({*b, *e});
      } else {
        continue;
      }
      info->pcRanges(u, die, ranges);
      std::vector<PcRange> ours;
      for (const PcRange& r : ranges)
        if (r.begin < r.end || rl == l.lists.end()) ours.push_back(r);
      std::vector<PcRange> nonempty;
      for (const PcRange& r : theirs)
        if (r.begin < r.end || rl == l.lists.end()) nonempty.push_back(r);
      EXPECT_EQ(rangesText(ours), rangesText(nonempty)) << at << " code ranges";
      n.ranges += ours.size();
    }
}

struct Build {
  const char* name;
  std::vector<std::string> flags;
  bool rv32;
};

TEST(DiffDwarfReloc, RiscvAndAmdgpuObjectsReadAsLlvmDwarfdumpReadsThem) {
  if (oracle::findProgram("llvm-dwarfdump-22").empty())
    GTEST_SKIP() << "llvm-dwarfdump-22 not installed";
  const uint64_t programs = oracle::sampleCount(3);
  const uint64_t seed0 = oracle::sampleSeed(1);
  const std::vector<Build> builds = {
      {"rv64", {"--target=riscv64-unknown-elf", "-march=rv64gc", "-mabi=lp64d", "-mrelax"}, false},
      {"rv32", {"--target=riscv32-unknown-elf", "-march=rv32imac", "-mabi=ilp32", "-mrelax"}, true},
  };
  Counts n;
  oracle::ScratchDir dir;
  size_t ran = 0;
  for (const char* cc : {"clang-14", "clang-22"}) {
    if (oracle::findProgram(cc).empty()) continue;
    for (uint64_t i = 0; i < programs; ++i)
      for (const Build& b : builds) {
        difftest::CProgOptions po;
        po.rv32 = b.rv32;
        po.fp = !b.rv32;
        po.functions = 3;
        const uint64_t seed = seed0 + i;
        difftest::CProgram prog = difftest::generateCProgram(seed, po);
        dir.write("prog.c", prog.source);
        for (const char* dwarf : {"-gdwarf-4", "-gdwarf-5"})
          for (const char* opt : {"-O0", "-O2"}) {
            std::vector<std::string> argv = {cc, "-c", "-g", dwarf, opt, "-ffreestanding"};
            argv.insert(argv.end(), b.flags.begin(), b.flags.end());
            argv.insert(argv.end(), {dir.file("prog.c"), "-o", dir.file("prog.o")});
            oracle::RunResult r = oracle::run(argv);
            ASSERT_EQ(r.exit_code, 0) << cc << " " << b.name << ": " << r.err;
            ++ran;
            compareObject(dir.file("prog.o"),
                          std::string(cc) + " " + b.name + " " + dwarf + " " + opt + " seed " +
                              std::to_string(seed),
                          n);
          }
      }
    // An OpenCL kernel for gfx90a (R_AMDGPU_ABS32 / ABS64).
    dir.write("k.cl", "__kernel void k(__global int* out, int n) {\n"
                      "  int acc = 0;\n"
                      "  for (int i = 0; i < n; ++i) acc += i * n;\n"
                      "  out[get_global_id(0)] = acc;\n"
                      "}\n"
                      "__kernel void k2(__global float* a, float s) { a[0] = a[1] * s; }\n");
    for (const char* dwarf : {"-gdwarf-4", "-gdwarf-5"}) {
      oracle::RunResult r =
          oracle::run({cc, "-x", "cl", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx90a", "-nogpulib",
                       "-g", dwarf, "-O2", "-c", dir.file("k.cl"), "-o", dir.file("k.o")});
      ASSERT_EQ(r.exit_code, 0) << cc << " amdgcn: " << r.err;
      ++ran;
      compareObject(dir.file("k.o"), std::string(cc) + " amdgcn " + dwarf, n);
    }
  }
  if (ran == 0) GTEST_SKIP() << "neither clang-14 nor clang-22 installed";
  std::printf("objects %zu, DIEs %zu, addresses %zu, code ranges %zu, location-list entries %zu, "
              "names %zu\n",
              n.objects, n.dies, n.addresses, n.ranges, n.loc_entries, n.names);
  EXPECT_GT(n.addresses, 0u);
  EXPECT_GT(n.loc_entries, 0u);
}

} // namespace
