// `abikit dwarf --debug-info`, `--debug-line` and `--debug-names` against llvm-dwarfdump: every
// line equal (unit
// headers, DIE offsets, tags and nesting, null entries, attribute names and decoded values,
// expressions with the target's register names, location-list entries, range lists, type names).
//  - RISC-V: generated C programs (common/cprog_gen.h) built and linked by clang-14 and clang-22
//    for riscv64 (rv64gc, lp64d) and riscv32 (rv32imac, ilp32), at -O0 and -O2, with -gdwarf-4,
//    -gdwarf-5 and (clang-22, riscv64) -gdwarf64;
//    and, compiled -c, as relocatable objects (riscv64 with linker relaxation);
//  - AMDGPU: generated OpenCL kernels (structs by value, global and local pointers, loops) for
//    gfx90a (wave64), gfx1030 (wave32) and gfx1030 with -mwavefrontsize64 by clang-22 and
//    clang-14, DWARF 4 and 5: -O2 linked into code objects, -O0 relocatable objects.
// Each object is compared with llvm-dwarfdump-22, and those clang-14 built also with
// llvm-dwarfdump-14 (the two print these objects alike). Sample: ABIKIT_DIFF_COUNT programs per
// build (default 2: 90 objects in CI), seed ABIKIT_DIFF_SEED; missing tools skip their builds.
#include "abikit/dwarf_info.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "cprog_gen.h"
#include "oracle.h"
#include "riscv_gdb.h"

#include <cctype>
#include <gtest/gtest.h>
#include <random>
#include <sstream>

namespace {

using namespace abikit;

struct Tally {
  uint64_t objects = 0, lines = 0, dies = 0, location_entries = 0, compared_with_14 = 0;
  uint64_t line_tables = 0, line_rows = 0; // --debug-line, against llvm-dwarfdump-22
  uint64_t name_indexes = 0, names = 0;    // --debug-names, against llvm-dwarfdump-22
  uint64_t version_differences = 0;        // lines llvm-dwarfdump-14 prints otherwise (normalize14)
  uint64_t unrelocated_addrs = 0;          // DW_OP_addr llvm-dwarfdump leaves unrelocated in a .o
  std::vector<std::string> problems;
};

std::vector<std::string> linesOf(const std::string& s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// What llvm-dwarfdump prints from ".debug_info contents:" on.
std::string infoSection(const std::string& out) {
  size_t at = out.find(".debug_info contents:");
  return at == std::string::npos ? std::string() : out.substr(at);
}

// What llvm-dwarfdump-14 prints otherwise than 22 (docs/dwarf.md "Dumping sections"): 16-bit
// register names for AMDGPU registers (SGPR33_LO16), DW_CC_LLVM_OpenCLKernel for 0xc7 (22:
// DW_CC_LLVM_DeviceKernel), no name after DW_AT_call_origin. Applied to both lines; true when it
// changed one.
bool normalize14(std::string& theirs, std::string& ours) {
  const std::string before = theirs + '\n' + ours;
  for (size_t at; (at = theirs.find("_LO16")) != std::string::npos;) theirs.erase(at, 5);
  if (size_t at = theirs.find("DW_CC_LLVM_OpenCLKernel"); at != std::string::npos)
    theirs.replace(at, 23, "DW_CC_LLVM_DeviceKernel");
  if (ours.find("DW_AT_call_origin\t(") != std::string::npos && ours.size() > theirs.size() &&
      ours.starts_with(theirs.substr(0, theirs.size() - 1)))
    ours = theirs;
  return before != theirs + '\n' + ours;
}

// In a relocatable object llvm-dwarfdump reads the bytes of an expression unrelocated: a
// DW_OP_addr there prints 0x0 (its relocation's addend) where abikit prints the address the
// relocation makes. True when that is the only difference.
bool unrelocatedAddr(const std::string& theirs, const std::string& ours) {
  const std::string op = "DW_OP_addr 0x";
  std::string o = ours;
  for (size_t at = 0; (at = o.find(op, at)) != std::string::npos;) {
    size_t e = at + op.size();
    while (e < o.size() && std::isxdigit(static_cast<unsigned char>(o[e]))) ++e;
    o.replace(at + op.size(), e - at - op.size(), "0");
    at += op.size();
  }
  return o == theirs;
}

// "LABEL line N:\n  theirs\n  ours" for the first line where two dumps differ.
std::string firstDifference(const std::string& label, const std::string& theirs,
                            const std::string& ours) {
  std::vector<std::string> x = linesOf(theirs), y = linesOf(ours);
  size_t i = 0;
  while (i < x.size() && i < y.size() && x[i] == y[i]) ++i;
  return label + " line " + std::to_string(i + 1) + ":\n  " + (i < x.size() ? x[i] : "<none>") +
         "\n  " + (i < y.size() ? y[i] : "<none>");
}

// One whole-section dump (`option`: --debug-line, --debug-names) against abikit's text from
// its "HEADING contents:" line on. True when they are equal; else the first difference is a
// problem.
bool compareSection(const std::string& label, const std::string& path, const std::string& dumper,
                    const std::string& option, const std::string& heading, const std::string& ours,
                    Tally& t) {
  oracle::RunResult r = oracle::run({dumper, option, path});
  if (r.exit_code != 0 || !r.err.empty()) {
    t.problems.push_back(label + ": " + dumper + " " + option + ": " + r.err);
    return false;
  }
  const size_t at = r.out.find(heading);
  const std::string theirs = at == std::string::npos ? std::string() : r.out.substr(at);
  if (theirs == ours) return true;
  t.problems.push_back(firstDifference(label + " (" + dumper + " " + option + ")", theirs, ours));
  return false;
}

void compare(const std::string& label, const std::string& path, const std::string& dumper,
             Tally& t) {
  const bool v14 = dumper.ends_with("-14");
  const bool object = path.ends_with(".o");
  std::string ours, ours_lines, ours_names;
  size_t tables = 0, rows = 0, indexes = 0, names = 0;
  try {
    ElfFile file = ElfFile::open(path);
    dwarf::DebugInfo info(debugSections(file));
    ours = dwarfInfoText(elfTarget(file), info, DwarfDumpOptions{});
    // Line tables and name indexes against llvm-dwarfdump-22 only (14 has no OpIndex column).
    if (!v14) {
      const std::vector<dwarf::LineTable> lt = dwarf::readLineTables(info);
      ours_lines = ".debug_line contents:\n" + dwarfLineText(lt);
      tables = lt.size();
      for (const dwarf::LineTable& x : lt) rows += x.rows.size();
      const std::vector<dwarf::NameIndex> ni = dwarf::readNameIndexes(info);
      if (!ni.empty()) ours_names = ".debug_names contents:\n" + dwarfNamesText(ni);
      indexes = ni.size();
      for (const dwarf::NameIndex& x : ni) names += x.names.size();
    }
  } catch (const Error& e) {
    t.problems.push_back(label + ": abikit: " + e.what());
    return;
  }
  oracle::RunResult r = oracle::run({dumper, "--debug-info", path});
  if (r.exit_code != 0 || !r.err.empty()) {
    t.problems.push_back(label + ": " + dumper + ": " + r.err);
    return;
  }
  if (indexes && compareSection(label, path, dumper, "--debug-names",
                                ".debug_names contents:", ours_names, t)) {
    t.name_indexes += indexes;
    t.names += names;
  }
  if (!v14 &&
      compareSection(label, path, dumper, "--debug-line", ".debug_line contents:", ours_lines, t)) {
    t.line_tables += tables;
    t.line_rows += rows;
  }
  std::vector<std::string> a = linesOf(infoSection(r.out)), b = linesOf(ours);
  size_t shown = 0;
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    std::string x = i < a.size() ? a[i] : std::string("<none>");
    std::string y = i < b.size() ? b[i] : std::string("<none>");
    if (x == y) continue;
    if (v14 && normalize14(x, y) && x == y) {
      ++t.version_differences;
      continue;
    }
    if (object && unrelocatedAddr(x, y)) {
      ++t.unrelocated_addrs;
      continue;
    }
    // The files of DW_AT_decl_file / DW_AT_call_file come from the line table.
    if (x.find("DW_AT_decl_file") != std::string::npos ||
        x.find("DW_AT_call_file") != std::string::npos)
      continue;
    if (shown++ < 4)
      t.problems.push_back(label + " (" + dumper + ") line " + std::to_string(i + 1) + ":\n  " + x +
                           "\n  " + y);
  }
  t.lines += a.size();
  for (const std::string& l : a) {
    if (l.starts_with("0x") && l.find(": ") != std::string::npos &&
        l.find("Compile Unit") == std::string::npos)
      ++t.dies;
    if (l.find("): DW_OP") != std::string::npos || l.find("): <") != std::string::npos)
      ++t.location_entries;
  }
}

// A seeded OpenCL kernel: a struct passed by value, global and local pointers, a loop.
std::string generateKernel(uint64_t seed) {
  std::mt19937_64 g(seed);
  static const char* kTypes[] = {"char",  "short",  "int",  "long",
                                 "float", "double", "uint", "uchar"};
  std::ostringstream s;
  const int fields = 1 + int(g() % 5);
  s << "typedef struct {\n";
  for (int i = 0; i < fields; ++i) {
    s << "  " << kTypes[g() % 8] << " f" << i;
    if (g() % 3 == 0) s << "[" << 1 + g() % 4 << "]";
    s << ";\n";
  }
  s << "} S" << seed % 100 << ";\n";
  s << "__kernel void k(__global int *out, S" << seed % 100 << " s, __local float *l, int n) {\n";
  s << "  int i = __builtin_amdgcn_workitem_id_x();\n";
  s << "  int acc = (int)s.f0"
    << ""
    << ";\n";
  s << "  for (int j = 0; j < n; ++j) {\n    float t = l[(i + j) & 63] * " << 1 + g() % 7
    << ".0f;\n    acc += (int)t ^ j;\n  }\n";
  s << "  out[i] = acc;\n}\n";
  std::string src = s.str();
  // s.f0 may be an array: index it then.
  if (src.find(" f0[") != std::string::npos) src.replace(src.find("(int)s.f0"), 9, "(int)s.f0[0]");
  return src;
}

TEST(DwarfDump, DebugInfoMatchesLlvmDwarfdump) {
  const std::string d22 = oracle::findProgram("llvm-dwarfdump-22");
  if (d22.empty()) GTEST_SKIP() << "llvm-dwarfdump-22 is not installed";
  const std::string d14 = oracle::findProgram("llvm-dwarfdump-14");
  const uint64_t count = oracle::sampleCount(2), seed = oracle::sampleSeed(11);
  Tally t;

  struct Build {
    oracle::RiscvBuild b;
    std::string label;
  };
  std::vector<Build> builds;
  for (const char* compiler : {"clang-22", "clang-14"})
    for (bool rv32 : {false, true})
      for (const char* opt : {"-O0", "-O2"})
        for (const char* dw : {"-gdwarf-4", "-gdwarf-5"}) {
          Build x;
          x.b.compiler = compiler;
          x.b.rv32 = rv32;
          if (rv32) {
            x.b.march = "rv32imac";
            x.b.mabi = "ilp32";
          }
          x.b.opt = opt;
          x.b.extra_flags = {dw};
          x.label = std::string(compiler) + " " + x.b.archName() + " " + opt + " " + dw;
          builds.push_back(x);
        }
  {
    Build x;
    x.b.compiler = "clang-22";
    x.b.opt = "-O2";
    x.b.extra_flags = {"-gdwarf-5", "-gdwarf64", "-gpubnames"};
    x.label = "clang-22 rv64gc -O2 -gdwarf64 -gpubnames";
    builds.push_back(x);
  }
  // Relocatable objects (read with their relocations applied, as llvm-dwarfdump reads them;
  // riscv64 with linker relaxation: ADD/SUB and ULEB128 pairs).
  for (const char* compiler : {"clang-22", "clang-14"})
    for (bool rv32 : {false, true})
      for (const char* dw : {"-gdwarf-4", "-gdwarf-5"}) {
        Build x;
        x.b.compiler = compiler;
        x.b.rv32 = rv32;
        if (rv32) {
          x.b.march = "rv32imac";
          x.b.mabi = "ilp32";
        }
        x.b.opt = "-O2";
        x.b.extra_flags = {dw};
        if (std::string(dw) == "-gdwarf-5") x.b.extra_flags.push_back("-gpubnames"); // .debug_names
        x.b.object_only = true;
        x.label = std::string(compiler) + " " + x.b.archName() + " -O2 " + dw + " -c";
        builds.push_back(x);
      }
  for (const Build& x : builds) {
    if (!oracle::riscvToolchainAvailable(x.b)) continue;
    for (uint64_t k = 0; k < count; ++k) {
      difftest::CProgOptions po;
      po.rv32 = x.b.rv32;
      po.fp = !x.b.rv32;
      difftest::CProgram prog = difftest::generateCProgram(seed + k, po);
      oracle::ScratchDir dir;
      std::string error;
      std::string exe = oracle::buildRiscvProgram(dir, prog.source, x.b, error);
      if (exe.empty()) {
        t.problems.push_back(x.label + ": build failed: " + error);
        continue;
      }
      const std::string label = x.label + " seed " + std::to_string(seed + k);
      ++t.objects;
      compare(label, exe, d22, t);
      if (x.b.compiler == "clang-14" && !d14.empty()) {
        compare(label, exe, d14, t);
        ++t.compared_with_14;
      }
    }
  }

  struct Gpu {
    const char* compiler;
    const char* mcpu;
    const char* extra;
  };
  static const Gpu kGpus[] = {{"clang-22", "gfx90a", ""},
                              {"clang-22", "gfx1030", ""},
                              {"clang-22", "gfx1030", "-mwavefrontsize64"},
                              {"clang-14", "gfx90a", ""},
                              {"clang-14", "gfx1030", ""}};
  for (const Gpu& gpu : kGpus) {
    const std::string cc = oracle::findProgram(gpu.compiler);
    if (cc.empty()) continue;
    for (const char* opt : {"-O0", "-O2"})
      for (const char* dw : {"-gdwarf-4", "-gdwarf-5"})
        for (uint64_t k = 0; k < count; ++k) {
          oracle::ScratchDir dir;
          dir.write("k.cl", generateKernel(seed + k));
          // -O0: a relocatable object (R_AMDGPU_ABS32/ABS64 applied); -O2: a linked code object.
          const bool object = std::string(opt) == "-O0";
          const std::string out = dir.file(object ? "k.o" : "k.so");
          std::vector<std::string> argv = {cc,
                                           "-x",
                                           "cl",
                                           "-target",
                                           "amdgcn-amd-amdhsa",
                                           std::string("-mcpu=") + gpu.mcpu,
                                           "-nogpulib",
                                           opt,
                                           dw,
                                           dir.file("k.cl"),
                                           "-o",
                                           out};
          if (object) argv.push_back("-c");
          if (*gpu.extra) argv.push_back(gpu.extra);
          oracle::RunResult r = oracle::run(argv);
          const std::string label = std::string(gpu.compiler) + " " + gpu.mcpu + " " + gpu.extra +
                                    " " + opt + " " + dw + " seed " + std::to_string(seed + k);
          if (r.exit_code != 0) {
            t.problems.push_back(label + ": build failed: " + r.err);
            continue;
          }
          ++t.objects;
          compare(label, out, d22, t);
          if (std::string(gpu.compiler) == "clang-14" && !d14.empty()) {
            compare(label, out, d14, t);
            ++t.compared_with_14;
          }
        }
  }

  std::printf(
      "[dwarf dump] %llu objects (%llu also against llvm-dwarfdump-14), %llu lines, %llu "
      "DIEs, %llu location-list entries, %llu line tables with %llu rows, %llu name indexes "
      "with %llu names (every line equal); "
      "%llu lines llvm-dwarfdump-14 prints otherwise "
      "(normalized); %llu DW_OP_addr operands llvm-dwarfdump leaves unrelocated in "
      "objects; %zu problems\n",
      static_cast<unsigned long long>(t.objects),
      static_cast<unsigned long long>(t.compared_with_14), static_cast<unsigned long long>(t.lines),
      static_cast<unsigned long long>(t.dies), static_cast<unsigned long long>(t.location_entries),
      static_cast<unsigned long long>(t.line_tables), static_cast<unsigned long long>(t.line_rows),
      static_cast<unsigned long long>(t.name_indexes), static_cast<unsigned long long>(t.names),
      static_cast<unsigned long long>(t.version_differences),
      static_cast<unsigned long long>(t.unrelocated_addrs), t.problems.size());
  for (size_t i = 0; i < t.problems.size() && i < 20; ++i) ADD_FAILURE() << t.problems[i];
  if (t.objects == 0) GTEST_SKIP() << "no compiler built an object";
}

} // namespace
