// Differential test of the layout engine: random records (layout_gen) laid out by abikit and by
// the real compiler of each ABI, field by field.
//
//  * clang (riscv32 ilp32/ilp32f/ilp32d, riscv64 lp64/lp64f/lp64d, nvptx64, amdgcn), every
//    version abikit models for the target and finds installed (clang-14, clang-19, clang-22;
//    the same cases for each): the record layouts clang dumps with -fdump-record-layouts-simple
//    (size, alignment and the bit offset of every field, nested anonymous records included).
//    A case both reject (clang 19 and later: an array element whose size is not a multiple of
//    its alignment) agrees.
//  * CUDA and HIP device compilations (nvptx/nvptx64 and amdgcn as `.cu`/`.hip` device code) with
//    each host abikit knows as --host-target: clang's -x cuda/-x hip --cuda-device-only with
//    that host as --target, whose data model the device shares (docs/offload.md).
//  * riscv64-unknown-elf-gcc -march=rv32e -mabi=ilp32e (clang-14 has no ilp32e): constants the
//    compiler writes into the assembly (sizeof, _Alignof, offsetof of every named member) and,
//    for every named bit-field, the bytes of a static object where only that bit-field is set.
//
// Every disagreement is shrunk to a minimal record and printed with both answers. For the
// clang ABIs the `--emit-c-asserts` output for the same records is compiled too.
//
// ABIKIT_DIFF_COUNT (default 2000 cases per ABI) and ABIKIT_DIFF_SEED (default 1) size the run;
// tests/differential/run sets them.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/layout.h"
#include "batch.h"
#include "layout_gen.h"
#include "oracle.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

namespace {

using namespace abikit;
using namespace abikit::difftest;

struct BaseAbi {
  const char* name; // test name
  const char* triple;
  const char* march;
  const char* mabi;
  const char* mcpu;
  OracleKind oracle;
  const char* host = ""; // a CUDA (nvptx) or HIP (amdgcn) device compilation for this host
};

const BaseAbi kBaseAbis[] = {
    {"riscv32_ilp32", "riscv32-unknown-elf", "rv32imac", "ilp32", "", OracleKind::Clang},
    {"riscv32_ilp32f", "riscv32-unknown-elf", "rv32imafc", "ilp32f", "", OracleKind::Clang},
    {"riscv32_ilp32d", "riscv32-unknown-elf", "rv32imafdc", "ilp32d", "", OracleKind::Clang},
    {"riscv32_ilp32e", "riscv32-unknown-elf", "rv32e", "ilp32e", "", OracleKind::Gcc},
    {"riscv64_lp64", "riscv64-unknown-elf", "rv64imac", "lp64", "", OracleKind::Clang},
    {"riscv64_lp64f", "riscv64-unknown-elf", "rv64imafc", "lp64f", "", OracleKind::Clang},
    {"riscv64_lp64d", "riscv64-unknown-elf", "rv64gc", "lp64d", "", OracleKind::Clang},
    {"nvptx64", "nvptx64-nvidia-cuda", "", "", "sm_70", OracleKind::Clang},
    {"amdgcn", "amdgcn-amd-amdhsa", "", "", "gfx906", OracleKind::Clang},
    {"x86_64", "x86_64-linux-gnu", "", "", "", OracleKind::Clang},
    {"i386", "i386-linux-gnu", "", "", "", OracleKind::Clang},
    {"aarch64", "aarch64-linux-gnu", "", "", "", OracleKind::Clang},
    {"x86_64_msvc", "x86_64-pc-windows-msvc", "", "", "", OracleKind::Clang},
    {"x86_64_mingw", "x86_64-w64-windows-gnu", "", "", "", OracleKind::Clang},
    {"x86_64_gcc", "x86_64-linux-gnu", "", "", "", OracleKind::Gcc},
    {"i386_gcc", "i386-linux-gnu", "", "", "", OracleKind::Gcc},
    {"cuda_x86_64", "nvptx64-nvidia-cuda", "", "", "sm_70", OracleKind::Clang, "x86_64-linux-gnu"},
    {"cuda_aarch64", "nvptx64-nvidia-cuda", "", "", "sm_70", OracleKind::Clang,
     "aarch64-linux-gnu"},
    {"cuda_i386", "nvptx-nvidia-cuda", "", "", "sm_70", OracleKind::Clang, "i386-linux-gnu"},
    {"cuda_msvc", "nvptx64-nvidia-cuda", "", "", "sm_70", OracleKind::Clang,
     "x86_64-pc-windows-msvc"},
    {"hip_x86_64", "amdgcn-amd-amdhsa", "", "", "gfx906", OracleKind::Clang, "x86_64-linux-gnu"},
    {"hip_aarch64", "amdgcn-amd-amdhsa", "", "", "gfx906", OracleKind::Clang, "aarch64-linux-gnu"},
    {"hip_msvc", "amdgcn-amd-amdhsa", "", "", "gfx906", OracleKind::Clang,
     "x86_64-pc-windows-msvc"},
    {"hip_mingw", "amdgcn-amd-amdhsa", "", "", "gfx906", OracleKind::Clang,
     "x86_64-w64-windows-gnu"},
};

/// One ABI with one compiler: the clang ABIs run against every clang abikit models for them
/// that is installed (the same generated cases for each), ilp32e against GCC.
struct Abi {
  std::string name; // test name: "riscv64_lp64d_clang22"
  const char* base; // the ABI's name: it seeds the cases
  const char* triple;
  const char* march;
  const char* mabi;
  const char* mcpu;
  OracleKind oracle;
  const char* host;
  std::string compiler; // "clang-22"; "" for GCC (abikit's default compiler)
  std::vector<std::string> modelled;

  bool offload() const { return *host != 0; }
  Language language() const {
    return !offload()                                   ? Language::C
           : std::string(triple).rfind("nvptx", 0) == 0 ? Language::CUDA
                                                        : Language::HIP;
  }
  Target resolve() const {
    TargetOptions o;
    o.triple = triple;
    o.march = march;
    o.mabi = mabi;
    o.mcpu = mcpu;
    o.compiler = compiler;
    o.host_triple = host;
    return resolveTarget(o);
  }
};

std::vector<Abi> allAbis() {
  std::vector<Abi> out;
  for (const BaseAbi& b : kBaseAbis) {
    Abi a{b.name, b.name, b.triple, b.march, b.mabi, b.mcpu, b.oracle, b.host, "", {}};
    if (b.oracle == OracleKind::Gcc) {
      out.push_back(a);
      continue;
    }
    std::vector<std::string> modelled = oracle::modelledClangs(b.triple, b.march, b.mabi, b.mcpu);
    // A device whose host a compiler's model refuses (clang-19/22 with an MSVC host) is left out.
    std::erase_if(modelled, [&](const std::string& cc) {
      Abi x = a;
      x.compiler = cc;
      try {
        x.resolve();
        return false;
      } catch (const Error&) {
        return true;
      }
    });
    oracle::appendPerCompiler(out, a, modelled);
  }
  return out;
}

constexpr size_t kBatch = 250;        // cases per compiler invocation
constexpr size_t kMaxReported = 5;    // disagreements shrunk and printed per ABI
constexpr size_t kShrinkBudget = 300; // compiler runs per shrink

std::vector<std::string> compilerCommand(const Abi& abi) {
  std::vector<std::string> cmd;
  if (abi.oracle == OracleKind::Gcc) {
    // The RISC-V cross GCC, or the native GCC 12 for the x86 hosts (-m64, -m32).
    const bool x86 = std::string(abi.triple).rfind("riscv", 0) != 0;
    if (x86)
      cmd = {"gcc-12", std::string(abi.triple).rfind("x86_64", 0) == 0 ? "-m64" : "-m32"};
    else
      cmd = {"riscv64-unknown-elf-gcc", std::string("-march=") + abi.march,
             std::string("-mabi=") + abi.mabi};
    for (const char* a : {"-S", "-O0", "-w", "-fno-toplevel-reorder"}) cmd.push_back(a);
    return cmd;
  }
  if (abi.offload()) {
    // The device compilation of a CUDA/HIP source for this host (the driver picks the device
    // triple from the host's pointer size).
    // The generator writes C's _Bool; C++ spells it bool (abikit's front-end gets the same -D).
    cmd = {abi.compiler, std::string("--target=") + abi.host, "-w", "-fsyntax-only",
           "-D_Bool=bool"};
    if (abi.language() == Language::CUDA)
      for (const char* a : {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                            "-Wno-unknown-cuda-version"})
        cmd.push_back(a);
    else
      for (const char* a : {"-x", "hip", "--cuda-device-only", "-nogpuinc", "-nogpulib"})
        cmd.push_back(a);
    cmd.push_back((abi.language() == Language::CUDA ? "--cuda-gpu-arch=" : "--offload-arch=") +
                  std::string(abi.mcpu));
    return cmd;
  }
  cmd = {abi.compiler, std::string("--target=") + abi.triple, "-w", "-fsyntax-only"};
  if (*abi.march) cmd.push_back(std::string("-march=") + abi.march);
  if (*abi.mabi) cmd.push_back(std::string("-mabi=") + abi.mabi);
  if (std::string(abi.triple).rfind("amdgcn", 0) == 0) {
    cmd.push_back("-nogpulib");
    cmd.push_back(std::string("-mcpu=") + abi.mcpu);
  }
  return cmd;
}

// ----- one record's facts, from either side -----------------------------------------------------

struct Facts {
  bool present = false;
  uint64_t size_bits = 0, align_bits = 0;
  std::vector<uint64_t> offsets; // clang: bit offset of every field; gcc: probe values
};

std::string factsText(const Facts& f, bool gcc) {
  if (!f.present) return "(none)";
  std::ostringstream s;
  if (gcc) {
    s << "[";
    for (size_t i = 0; i < f.offsets.size(); ++i) s << (i ? ", " : "") << f.offsets[i];
    s << "]";
    return s.str();
  }
  s << "size " << f.size_bits / 8 << ", align " << f.align_bits / 8 << ", field bit offsets [";
  for (size_t i = 0; i < f.offsets.size(); ++i) s << (i ? ", " : "") << f.offsets[i];
  s << "]";
  return s.str();
}

// ----- the clang oracle -----------------------------------------------------------------------

// Parses -fdump-record-layouts-simple. Keys: "struct NAME" for named records, "@LINE:COL" for
// anonymous ones.
std::map<std::string, Facts> parseClangDump(const std::string& text) {
  std::map<std::string, Facts> out;
  std::istringstream in(text);
  std::string line, key;
  Facts cur;
  auto number = [](const std::string& l) { return std::stoull(l.substr(l.find(':') + 1)); };
  while (std::getline(in, line)) {
    if (line.rfind("Type: ", 0) == 0) {
      std::string t = line.substr(6);
      size_t a = t.rfind("(anonymous at ");
      size_t skip = 14;
      if (a == std::string::npos) {
        a = t.rfind("(unnamed at ");
        skip = 12;
      }
      if (a != std::string::npos) {
        std::string loc = t.substr(a + skip);
        loc = loc.substr(0, loc.find(')'));
        size_t c2 = loc.rfind(':');
        size_t c1 = loc.rfind(':', c2 - 1);
        key = "@" + loc.substr(c1 + 1);
      } else {
        key = t;
      }
      cur = Facts{};
      cur.present = true;
    } else if (line.find("  Size:") == 0) {
      cur.size_bits = number(line);
    } else if (line.find("  Alignment:") == 0) {
      cur.align_bits = number(line);
    } else if (line.find("  FieldOffsets: [") == 0) {
      std::string list = line.substr(line.find('[') + 1);
      list = list.substr(0, list.find(']'));
      std::istringstream ls(list);
      std::string item;
      while (std::getline(ls, item, ','))
        if (item.find_first_not_of(' ') != std::string::npos)
          cur.offsets.push_back(std::stoull(item));
      out[key] = cur;
    }
  }
  return out;
}

// ----- the GCC oracle: data in the assembly -------------------------------------------------

// Label -> bytes of the data that follows it (little-endian).
std::map<std::string, std::vector<uint8_t>> parseAsmData(const std::string& text) {
  std::map<std::string, std::vector<uint8_t>> out;
  std::istringstream in(text);
  std::string line;
  std::vector<uint8_t>* cur = nullptr;
  auto put = [&](unsigned __int128 v, int bytes) {
    for (int i = 0; i < bytes; ++i) cur->push_back(uint8_t(v >> (8 * i)));
  };
  while (std::getline(in, line)) {
    size_t b = line.find_first_not_of(" \t");
    if (b == std::string::npos) continue;
    line = line.substr(b);
    if (line.back() == ':' && line[0] != '.') {
      cur = &out[line.substr(0, line.size() - 1)];
      continue;
    }
    if (!cur || line[0] != '.') continue;
    std::istringstream ls(line);
    std::string dir;
    ls >> dir;
    std::string rest;
    std::getline(ls, rest);
    int width = dir == ".byte"                                                            ? 1
                : dir == ".half" || dir == ".2byte" || dir == ".short" || dir == ".value" ? 2
                : dir == ".word" || dir == ".4byte" || dir == ".long"                     ? 4
                : dir == ".dword" || dir == ".8byte" || dir == ".quad"                    ? 8
                                                                                          : 0;
    if (width) {
      std::istringstream vs(rest);
      std::string item;
      while (std::getline(vs, item, ','))
        put((unsigned __int128)std::stoll(item, nullptr, 0), width);
    } else if (dir == ".zero" || dir == ".skip") {
      size_t n = std::stoull(rest);
      cur->insert(cur->end(), n, 0);
    } else if (dir == ".ascii" || dir == ".string") {
      size_t q = rest.find('"');
      for (size_t i = q + 1; i < rest.size() && rest[i] != '"'; ++i) {
        if (rest[i] != '\\') {
          cur->push_back(uint8_t(rest[i]));
          continue;
        }
        ++i;
        if (rest[i] >= '0' && rest[i] <= '7') {
          int v = 0, k = 0;
          while (k < 3 && rest[i] >= '0' && rest[i] <= '7') v = v * 8 + (rest[i++] - '0'), ++k;
          --i;
          cur->push_back(uint8_t(v));
        } else {
          char c = rest[i];
          cur->push_back(uint8_t(c == 'n' ? '\n' : c == 't' ? '\t' : c));
        }
      }
      if (dir == ".string") cur->push_back(0);
    } else if (dir == ".size" || dir == ".type" || dir == ".globl" || dir == ".section" ||
               dir == ".align" || dir == ".p2align" || dir == ".text" || dir == ".data" ||
               dir == ".bss" || dir == ".ident" || dir == ".file" || dir == ".option" ||
               dir == ".attribute") {
      if (dir == ".section" || dir == ".text" || dir == ".data" || dir == ".bss") cur = nullptr;
    }
  }
  return out;
}

// The members checked through the GCC probes: every named member, through anonymous members.
struct Member {
  std::string name;
  bool bitfield = false;
  uint64_t bit = 0; // abikit: absolute bit offset
  int width = -1;   // abikit: bit-field width
};

void collectMembers(const GProgram& p, int rec, const RecordDecl& rd, const LayoutEngine& eng,
                    uint64_t base, std::vector<Member>& out) {
  const RecordLayout& rl = eng.of(rd);
  const GRecord& g = p.records[size_t(rec)];
  for (size_t i = 0; i < g.fields.size(); ++i) {
    const GField& f = g.fields[i];
    uint64_t bit = base + rl.fields[i].bit_offset;
    if (f.anon >= 0) {
      auto* rt = static_cast<const RecordType*>(stripTypedefs(rd.fields[i].type));
      collectMembers(p, f.anon, *rt->decl, eng, bit, out);
      continue;
    }
    if (f.name.empty()) continue;
    out.push_back({f.name, f.bit_width >= 0, bit, f.bit_width});
  }
}

// ----- one batch ---------------------------------------------------------------------------

struct Verdict {
  std::string abikit_error; // abikit rejected the case
  bool oracle_rejected = false;
  std::string oracle_message;
  bool disagree = false;
  std::string detail; // both answers, record by record
};

class Runner {
public:
  Runner(const Abi& abi, const Target& target) : abi_(abi), target_(target) {}

  // Lays out `programs` with abikit and the oracle; one verdict per program.
  std::vector<Verdict> run(std::vector<GProgram>& programs) {
    std::vector<Verdict> verdicts(programs.size());
    oracle::compileDroppingRejected(
        programs,
        [&](std::vector<GProgram>& batch, const std::vector<size_t>& ids,
            std::vector<size_t>& rejected) { return runOnce(batch, ids, verdicts, rejected); },
        [&](size_t i) { verdicts[i].oracle_rejected = true; });
    return verdicts;
  }

  /// Compiles the --emit-c-asserts output for `programs` with clang; "" when it is accepted.
  std::string checkCAsserts(std::vector<GProgram> programs) {
    std::string text = render(programs);
    TypeContext ctx(target_, abi_.language());
    LayoutEngine eng(ctx);
    uint32_t file = ctx.addFile("cases.c");
    std::vector<const RecordDecl*> named;
    for (const GProgram& p : programs) {
      std::vector<RecordDecl*> rds = build(p, ctx, file);
      for (size_t r = 0; r < rds.size(); ++r)
        if (p.isNamed(int(r)) && rds[r]->complete) named.push_back(rds[r]);
    }
    std::string asserts;
    try {
      asserts = layoutCAsserts(eng, named, text);
    } catch (const Error& e) {
      return "abikit failed: " + e.format();
    }
    oracle::ScratchDir dir;
    dir.write("asserts.c", asserts);
    std::vector<std::string> cmd = compilerCommand(abi_);
    std::replace(cmd.begin(), cmd.end(), std::string("-S"), std::string("-fsyntax-only"));
    cmd.push_back(dir.file("asserts.c"));
    oracle::RunResult r = oracle::run(cmd);
    if (r.exit_code == 0) return "";
    return r.err.substr(0, 4000);
  }

private:
  // false when the oracle rejected the batch; `rejected` then lists the cases it named.
  bool runOnce(std::vector<GProgram>& batch, const std::vector<size_t>& ids,
               std::vector<Verdict>& verdicts, std::vector<size_t>& rejected) {
    std::string text = render(batch);
    std::string probes;
    TypeContext ctx(target_, abi_.language());
    LayoutEngine eng(ctx);
    uint32_t file = ctx.addFile("cases.c");
    struct Built {
      std::vector<RecordDecl*> rds;
      std::string abikit_error;
    };
    std::vector<Built> built(batch.size());
    for (size_t k = 0; k < batch.size(); ++k) {
      built[k].rds = build(batch[k], ctx, file);
      try {
        for (size_t r = 0; r < batch[k].records.size(); ++r)
          if (batch[k].isNamed(int(r)) && built[k].rds[r]->complete) eng.of(*built[k].rds[r]);
      } catch (const Error& e) {
        built[k].abikit_error = e.format();
      }
      verdicts[ids[k]].abikit_error = built[k].abikit_error;
      for (size_t r = 0; r < batch[k].records.size(); ++r) {
        if (!batch[k].isNamed(int(r)) || !built[k].rds[r]->complete) continue;
        const GRecord& g = batch[k].records[r];
        std::string spell = recordSpelling(g);
        if (abi_.oracle == OracleKind::Clang) {
          probes += "int probe_" + g.name + " = sizeof(" + spell + ");\n";
          continue;
        }
        probes += "const unsigned int probe_" + g.name + "[] = {sizeof(" + spell + "), _Alignof(" +
                  spell + ")";
        std::vector<std::string> bitfields;
        gccMembers(batch[k], int(r), [&](const std::string& name, bool bitfield) {
          if (bitfield)
            bitfields.push_back(name);
          else
            probes += ", offsetof(" + spell + ", " + name + ")";
        });
        probes += "};\n";
        for (const std::string& bf : bitfields)
          probes += "const " + spell + " bits_" + g.name + "_" + bf + " = {." + bf + " = " +
                    (isBoolField(batch[k], int(r), bf) ? "1" : "-1") + "};\n";
      }
    }
    oracle::ScratchDir dir;
    // The case text comes first so that compiler messages carry render()'s line numbers.
    std::string source = text;
    if (abi_.oracle == OracleKind::Gcc) source += "#include <stddef.h>\n";
    source += probes;
    dir.write("cases.c", source);
    std::vector<std::string> cmd = compilerCommand(abi_);
    if (abi_.oracle == OracleKind::Gcc) {
      cmd.push_back("-o");
      cmd.push_back(dir.file("cases.s"));
    } else {
      cmd.push_back("-Xclang");
      cmd.push_back("-fdump-record-layouts-simple");
    }
    cmd.push_back(dir.file("cases.c"));
    oracle::RunResult res = oracle::run(cmd);
    if (res.exit_code != 0) {
      // Which cases did the compiler complain about?
      std::istringstream es(res.err);
      std::string l;
      std::string tag = dir.file("cases.c") + ":";
      while (std::getline(es, l)) {
        if (l.rfind(tag, 0) != 0 || l.find("error") == std::string::npos) continue;
        uint32_t line = uint32_t(std::stoul(l.substr(tag.size())));
        for (size_t k = 0; k < batch.size(); ++k)
          if (line >= batch[k].first_line && line <= batch[k].last_line) {
            if (std::find(rejected.begin(), rejected.end(), ids[k]) == rejected.end())
              rejected.push_back(ids[k]);
            verdicts[ids[k]].oracle_rejected = true;
            verdicts[ids[k]].oracle_message += l + "\n";
          }
      }
      if (rejected.empty())
        for (size_t k = 0; k < batch.size(); ++k) {
          verdicts[ids[k]].oracle_rejected = true;
          verdicts[ids[k]].oracle_message = res.err.substr(0, 2000);
        }
      return false;
    }

    std::map<std::string, Facts> clang_facts;
    std::map<std::string, std::vector<uint8_t>> data;
    if (abi_.oracle == OracleKind::Clang)
      clang_facts = parseClangDump(res.out);
    else
      data = parseAsmData(oracle::readFile(dir.file("cases.s")));

    for (size_t k = 0; k < batch.size(); ++k) {
      Verdict& v = verdicts[ids[k]];
      const GProgram& p = batch[k];
      if (!built[k].abikit_error.empty()) {
        v.disagree = true;
        v.detail =
            "abikit rejected a record the compiler accepts:\n" + built[k].abikit_error + "\n";
        continue;
      }
      for (size_t r = 0; r < p.records.size(); ++r) {
        const GRecord& g = p.records[r];
        const RecordDecl& rd = *built[k].rds[r];
        if (!rd.complete) continue; // dropped by shrinking
        if (abi_.oracle == OracleKind::Clang) {
          std::string key = g.name.empty()
                                ? "@" + std::to_string(g.line) + ":" + std::to_string(g.col)
                                : recordSpelling(g);
          auto it = clang_facts.find(key);
          Facts theirs = it == clang_facts.end() ? Facts{} : it->second;
          const RecordLayout& rl = eng.of(rd);
          Facts ours;
          ours.present = true;
          ours.size_bits = rl.size * 8;
          ours.align_bits = uint64_t(rl.align) * 8;
          for (const FieldLayout& fl : rl.fields) ours.offsets.push_back(fl.bit_offset);
          bool same = theirs.present && theirs.size_bits == ours.size_bits &&
                      theirs.align_bits == ours.align_bits && theirs.offsets == ours.offsets;
          if (!same) {
            v.disagree = true;
            v.detail += "  " +
                        (g.name.empty() ? "anonymous record at line " + std::to_string(g.line)
                                        : recordSpelling(g)) +
                        "\n    abikit:   " + factsText(ours, false) + "\n    " + abi_.compiler +
                        ": " + factsText(theirs, false) + "\n";
          }
          continue;
        }
        if (g.name.empty()) continue; // checked through the named record that holds it
        std::vector<Member> members;
        collectMembers(p, int(r), rd, eng, 0, members);
        const RecordLayout& rl = eng.of(rd);
        Facts ours, theirs;
        ours.present = true;
        ours.offsets = {rl.size, rl.align};
        for (const Member& m : members)
          if (!m.bitfield) ours.offsets.push_back(m.bit / 8);
        auto it = data.find("probe_" + g.name);
        if (it != data.end()) {
          theirs.present = true;
          for (size_t i = 0; i + 4 <= it->second.size(); i += 4)
            theirs.offsets.push_back(uint64_t(it->second[i]) | uint64_t(it->second[i + 1]) << 8 |
                                     uint64_t(it->second[i + 2]) << 16 |
                                     uint64_t(it->second[i + 3]) << 24);
        }
        std::string bits_ours, bits_theirs;
        for (const Member& m : members) {
          if (!m.bitfield) continue;
          bits_ours += " " + m.name + "@" + std::to_string(m.bit) + ":" + std::to_string(m.width);
          auto bt = data.find("bits_" + g.name + "_" + m.name);
          std::string got = " " + m.name + "@?";
          if (bt != data.end()) {
            int64_t lo = -1, hi = -1;
            for (size_t i = 0; i < bt->second.size() * 8; ++i)
              if (bt->second[i / 8] >> (i % 8) & 1) {
                if (lo < 0) lo = int64_t(i);
                hi = int64_t(i);
              }
            got = " " + m.name + "@" + std::to_string(lo) + ":" + std::to_string(hi - lo + 1);
          }
          bits_theirs += got;
        }
        bool same = theirs.present && theirs.offsets == ours.offsets && bits_ours == bits_theirs;
        if (!same) {
          v.disagree = true;
          v.detail += "  " + recordSpelling(g) + " (sizeof, _Alignof, offsetof of named members; " +
                      "bit-field@bit:width)\n    abikit: " + factsText(ours, true) + bits_ours +
                      "\n    gcc:    " + factsText(theirs, true) + bits_theirs + "\n";
        }
      }
    }
    frontEnd(batch, ids, text, eng, built, verdicts);
    return true;
  }

  // The same text through abikit's C front-end must give the same layouts as the records built
  // directly (this is what `abikit layout` does with a header).
  template <class Built>
  void frontEnd(const std::vector<GProgram>& batch, const std::vector<size_t>& ids,
                const std::string& text, const LayoutEngine& eng, const std::vector<Built>& built,
                std::vector<Verdict>& verdicts) {
    TypeContext ctx(target_, abi_.language());
    LayoutEngine fe(ctx);
    TranslationUnit tu;
    try {
      ParseOptions options;
      if (abi_.offload()) options.defines.emplace_back("_Bool", "bool");
      tu = parseSource(ctx, fe, "cases.c", text, options);
    } catch (const Error& e) {
      // Blame the case that holds the position.
      for (size_t k = 0; k < batch.size(); ++k)
        if (e.line() >= batch[k].first_line && e.line() <= batch[k].last_line) {
          verdicts[ids[k]].disagree = true;
          verdicts[ids[k]].detail +=
              "  abikit's front-end rejected the text:\n" + e.format() + "\n";
          return;
        }
      for (size_t k = 0; k < batch.size(); ++k) {
        verdicts[ids[k]].disagree = true;
        verdicts[ids[k]].detail += "  abikit's front-end rejected the text:\n" + e.format() + "\n";
      }
      return;
    }
    for (size_t k = 0; k < batch.size(); ++k) {
      if (!built[k].abikit_error.empty()) continue;
      for (size_t r = 0; r < batch[k].records.size(); ++r) {
        if (!batch[k].isNamed(int(r)) || !built[k].rds[r]->complete) continue;
        std::string spell = recordSpelling(batch[k].records[r]);
        const RecordDecl* parsed = tu.findRecord(spell, ctx);
        std::string why;
        try {
          if (!parsed)
            why = "not found";
          else if (!sameLayout(eng, *built[k].rds[r], fe, *parsed))
            why = "different layout: " + describe(fe, *parsed) + " instead of " +
                  describe(eng, *built[k].rds[r]);
        } catch (const Error& e) {
          why = e.format();
        }
        if (!why.empty()) {
          verdicts[ids[k]].disagree = true;
          verdicts[ids[k]].detail += "  " + spell + " through abikit's front-end: " + why + "\n";
        }
      }
    }
  }

  static bool sameLayout(const LayoutEngine& ea, const RecordDecl& a, const LayoutEngine& eb,
                         const RecordDecl& b) {
    const RecordLayout& la = ea.of(a);
    const RecordLayout& lb = eb.of(b);
    if (la.size != lb.size || la.align != lb.align || la.fields.size() != lb.fields.size())
      return false;
    for (size_t i = 0; i < la.fields.size(); ++i) {
      if (la.fields[i].bit_offset != lb.fields[i].bit_offset ||
          la.fields[i].size != lb.fields[i].size ||
          la.fields[i].bit_width != lb.fields[i].bit_width)
        return false;
      auto* ra = dyn<RecordType>(stripTypedefs(a.fields[i].type));
      auto* rb = dyn<RecordType>(stripTypedefs(b.fields[i].type));
      if (ra && rb && ra->decl->name.empty() && !sameLayout(ea, *ra->decl, eb, *rb->decl))
        return false;
    }
    return true;
  }

  static std::string describe(const LayoutEngine& e, const RecordDecl& rd) {
    const RecordLayout& l = e.of(rd);
    std::string s = "size " + std::to_string(l.size) + ", align " + std::to_string(l.align) + " [";
    for (size_t i = 0; i < l.fields.size(); ++i)
      s += (i ? ", " : "") + std::to_string(l.fields[i].bit_offset);
    return s + "]";
  }

  template <class F> void gccMembers(const GProgram& p, int rec, F&& f) {
    for (const GField& fd : p.records[size_t(rec)].fields) {
      if (fd.anon >= 0) {
        gccMembers(p, fd.anon, f);
        continue;
      }
      if (fd.name.empty()) continue;
      f(fd.name, fd.bit_width >= 0);
    }
  }

  bool isBoolField(const GProgram& p, int rec, const std::string& name) {
    for (const GField& fd : p.records[size_t(rec)].fields) {
      if (fd.anon >= 0 && isBoolField(p, fd.anon, name)) return true;
      if (fd.name != name) continue;
      const GBase* b = &fd.base;
      while (b->kind == GBase::Typedef) b = &p.typedefs[size_t(b->ref)].base;
      return b->kind == GBase::Int && b->ik == IntKind::Bool;
    }
    return false;
  }

  const Abi& abi_;
  const Target& target_;
};

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

uint64_t abiSalt(const char* name) {
  uint64_t h = 1469598103934665603ull;
  for (const char* c = name; *c; ++c) h = (h ^ uint8_t(*c)) * 1099511628211ull;
  return h;
}

// Shrinks a failing case to a minimal one that still shows a disagreement.
GProgram shrink(Runner& runner, GProgram p, const DataModel& d, Verdict& last) {
  size_t budget = kShrinkBudget;
  bool progress = true;
  while (progress && budget) {
    progress = false;
    for (GProgram& c : shrinkCandidates(p, d)) {
      if (!budget--) break;
      std::vector<GProgram> one{c};
      Verdict v = runner.run(one)[0];
      if (!v.oracle_rejected && v.disagree) {
        p = std::move(c);
        last = v;
        progress = true;
        break;
      }
    }
  }
  return p;
}

class DiffLayout : public ::testing::TestWithParam<Abi> {};

TEST_P(DiffLayout, AgreesWithCompiler) {
  const Abi& abi = GetParam();
  std::vector<std::string> cmd = compilerCommand(abi);
  ASSERT_FALSE(oracle::findProgram(cmd[0]).empty()) << cmd[0] << " is not installed";
  Target target = abi.resolve();
  DataModel d = dataModelFor(target, abi.language());
  uint64_t count = oracle::sampleCountFor(2000, abi.modelled, abi.compiler);
  uint64_t seed = oracle::sampleSeed(1);
  Runner runner(abi, target);

  uint64_t records = 0, disagreements = 0, rejected = 0, both_rejected = 0, assert_files = 0;
  Coverage coverage;
  size_t reported = 0;
  for (uint64_t first = 0; first < count; first += kBatch) {
    std::vector<GProgram> batch;
    for (uint64_t k = first; k < std::min<uint64_t>(count, first + kBatch); ++k) {
      uint64_t case_seed = mix(mix(seed, abiSalt(abi.base)), k);
      batch.push_back(generateCase(case_seed, "c" + std::to_string(k) + "_", target, abi.oracle,
                                   true, abi.language(), true));
      for (const GRecord& r : batch.back().records) records += !r.name.empty();
      coverage.add(batch.back());
    }
    std::vector<Verdict> verdicts = runner.run(batch);
    bool batch_clean = true;
    std::vector<GProgram> accepted; // the cases neither side rejected
    for (size_t i = 0; i < batch.size(); ++i) {
      const Verdict& v = verdicts[i];
      if (v.oracle_rejected && !v.abikit_error.empty()) {
        ++both_rejected; // e.g. clang-19/22's array element rule: abikit rejects it too
        continue;
      }
      accepted.push_back(batch[i]);
      if (v.oracle_rejected) {
        ++rejected;
        batch_clean = false;
        if (reported++ < kMaxReported) {
          std::vector<GProgram> one{batch[i]};
          ADD_FAILURE() << abi.name << ": the compiler rejected generated case (seed "
                        << batch[i].seed << "):\n"
                        << render(one) << "\n"
                        << v.oracle_message;
        }
        continue;
      }
      if (!v.disagree) continue;
      ++disagreements;
      batch_clean = false;
      if (reported++ >= kMaxReported) continue;
      Verdict last = v;
      GProgram small = shrink(runner, batch[i], d, last);
      std::vector<GProgram> one{small};
      ADD_FAILURE() << abi.name << ": disagreement (case seed " << batch[i].seed
                    << "), minimal record:\n"
                    << render(one) << last.detail;
    }
    if (batch_clean) {
      std::string err = runner.checkCAsserts(accepted);
      ++assert_files;
      EXPECT_EQ(err, "") << abi.name << ": --emit-c-asserts output rejected by " << cmd[0];
    }
  }
  std::printf("[ layout  ] %s: %llu cases, %llu records vs %s: %llu disagreements, %llu rejected "
              "by the compiler alone, %llu by both; %llu c-assert files compiled\n",
              abi.name.c_str(), (unsigned long long)count, (unsigned long long)records,
              abi.oracle == OracleKind::Gcc ? compilerCommand(abi)[0].c_str()
                                            : abi.compiler.c_str(),
              (unsigned long long)disagreements, (unsigned long long)rejected,
              (unsigned long long)both_rejected, (unsigned long long)assert_files);
  std::printf("[ layout  ] %s coverage: %s\n", abi.name.c_str(), coverage.text().c_str());
  EXPECT_EQ(disagreements, 0u);
  EXPECT_EQ(rejected, 0u);
}

// The bundled example header (examples/example.h) through the whole pipeline: abikit's
// front-end and layout against the compiler's record layouts, and its --emit-c-asserts output
// compiled by the compiler.
class DiffLayoutExample : public ::testing::TestWithParam<Abi> {};

void compareRecord(const LayoutEngine& eng, const TypeContext& ctx, const RecordDecl& rd,
                   const std::string& key, const std::map<std::string, Facts>& theirs,
                   size_t& compared) {
  const RecordLayout& rl = eng.of(rd);
  Facts ours;
  ours.present = true;
  ours.size_bits = rl.size * 8;
  ours.align_bits = uint64_t(rl.align) * 8;
  for (const FieldLayout& fl : rl.fields) ours.offsets.push_back(fl.bit_offset);
  auto it = theirs.find(key);
  Facts t = it == theirs.end() ? Facts{} : it->second;
  EXPECT_TRUE(t.present && t.size_bits == ours.size_bits && t.align_bits == ours.align_bits &&
              t.offsets == ours.offsets)
      << rd.displayName(ctx) << "\n  abikit:   " << factsText(ours, false)
      << "\n  compiler: " << factsText(t, false);
  ++compared;
  for (const FieldDecl& fd : rd.fields) {
    auto* rt = dyn<RecordType>(stripTypedefs(fd.type));
    if (rt && rt->decl->name.empty() && rt->decl->typedef_name.empty())
      compareRecord(eng, ctx, *rt->decl,
                    "@" + std::to_string(rt->decl->loc.line) + ":" +
                        std::to_string(rt->decl->loc.col),
                    theirs, compared);
  }
}

TEST_P(DiffLayoutExample, AgreesWithCompiler) {
  const Abi& abi = GetParam();
  Target target = abi.resolve();
  TypeContext ctx(target, abi.language());
  LayoutEngine eng(ctx);
  std::string path = std::string(ABIKIT_SOURCE_DIR) + "/examples/example.h";
  std::string text = oracle::readFile(path);
  ASSERT_FALSE(text.empty()) << path;
  ParseOptions options;
  if (abi.offload()) options.defines.emplace_back("_Bool", "bool");
  TranslationUnit tu = parseSource(ctx, eng, path, text, options);
  ASSERT_GE(tu.records.size(), 10u);

  oracle::ScratchDir dir;
  std::vector<std::string> cmd = compilerCommand(abi);
  std::replace(cmd.begin(), cmd.end(), std::string("-S"), std::string("-fsyntax-only"));
  cmd.push_back("-ffreestanding");
  // The C assertions must be accepted.
  dir.write("asserts.c", layoutCAsserts(eng, tu.records, "#include \"" + path + "\"\n"));
  std::vector<std::string> acmd = cmd;
  acmd.push_back(dir.file("asserts.c"));
  oracle::RunResult ar = oracle::run(acmd);
  EXPECT_EQ(ar.exit_code, 0) << ar.err;
  if (abi.oracle != OracleKind::Clang) return;
  // Every record and nested unnamed record against clang's dump.
  std::string probes = text;
  for (size_t i = 0; i < tu.records.size(); ++i)
    probes +=
        "int probe_" + std::to_string(i) + " = sizeof(" + tu.records[i]->displayName(ctx) + ");\n";
  dir.write("example.c", probes);
  cmd.push_back("-Xclang");
  cmd.push_back("-fdump-record-layouts-simple");
  cmd.push_back(dir.file("example.c"));
  oracle::RunResult r = oracle::run(cmd);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, Facts> theirs = parseClangDump(r.out);
  size_t compared = 0;
  for (const RecordDecl* rd : tu.records)
    compareRecord(eng, ctx, *rd, rd->displayName(ctx), theirs, compared);
  std::printf("[ layout  ] example.h on %s: %zu records agree with %s\n", abi.name.c_str(),
              compared, abi.compiler.c_str());
}

INSTANTIATE_TEST_SUITE_P(Abis, DiffLayoutExample, ::testing::ValuesIn(allAbis()),
                         [](const ::testing::TestParamInfo<Abi>& info) { return info.param.name; });

INSTANTIATE_TEST_SUITE_P(Abis, DiffLayout, ::testing::ValuesIn(allAbis()),
                         [](const ::testing::TestParamInfo<Abi>& info) { return info.param.name; });

} // namespace
