// The evaluator and the debug-information reader against gdb-multiarch: generated C programs
// (common/cprog_gen.h) are built by clang-14, clang-19 and clang-22 (and GCC 12) at -O1 and -O2
// with -g for riscv64 and riscv32, run under qemu-user with gdb attached (common/riscv_gdb.h),
// and at every breakpoint:
//  - the CFA: abikit's CFI row for the pc (.eh_frame or .debug_frame), its CFA rule evaluated in
//    the captured registers, must be gdb's "frame at"; every register gdb says is saved must have
//    an offset rule putting it at gdb's address, and no other register may have one;
//  - every variable gdb lists: abikit's variablesAt() must list it; its location there (an
//    exprloc or the matching list entry) is evaluated in the captured registers and memory with
//    the frame base and the CFA, and the bytes read must be gdb's bytes (those gdb knows). Where
//    gdb says optimized out, abikit must find no location, an undefined one, or fail to read.
// Outcomes that are not comparisons are counted and printed, not hidden: gdb errors (gdb 13
// rejects the mixed typed/untyped stacks clang emits, llvm#102294, docs/dwarf.md), and
// DW_OP_entry_value, which needs the caller's frame that gdb finds through call-site DIEs and
// this machine state does not have.
// A second test writes the debugging information itself: generated DWARF 5 expressions (and
// ill-typed ones, which gdb and abikit must both reject) as the locations of a leaf function's
// variables, compared the same way (GeneratedExpressionsMatchGdb).
// Sample: ABIKIT_DIFF_COUNT programs per build (default 1 in CI: 16 builds), seed
// ABIKIT_DIFF_SEED. Tools that are not installed make the test skip.
#include "../support/cfi_builder.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_cfi.h"
#include "abikit/dwarf_eval.h"
#include "abikit/dwarf_info.h"
#include "abikit/elf.h"
#include "cprog_gen.h"
#include "oracle.h"
#include "riscv_gdb.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <sstream>

namespace {

using namespace abikit;
using oracle::GdbStop;
using oracle::GdbVariable;

class StopMachine final : public dwarf::Machine {
public:
  StopMachine(const GdbStop& s, const dwarf::DebugInfo& info, const dwarf::Unit* unit)
      : s_(s), info_(info), unit_(unit) {}
  bool readRegister(uint32_t reg, uint64_t off, std::span<uint8_t> out) override {
    const std::vector<uint8_t>* r = s_.reg(reg);
    if (!r || off > r->size() || r->size() - off < out.size()) return false;
    std::copy_n(r->begin() + ptrdiff_t(off), out.size(), out.begin());
    return true;
  }
  bool writeRegister(uint32_t, uint64_t, std::span<const uint8_t>) override { return false; }
  bool readMemory(uint32_t space, uint64_t address, std::span<uint8_t> out) override {
    std::vector<uint8_t> b;
    if (space != 0 || !s_.readMemory(address, out.size(), b)) return false;
    std::copy(b.begin(), b.end(), out.begin());
    return true;
  }
  bool writeMemory(uint32_t, uint64_t, std::span<const uint8_t>) override { return false; }
  bool debugAddr(uint64_t index, uint64_t& value) override {
    return unit_ && info_.addressAt(*unit_, index, value);
  }

private:
  const GdbStop& s_;
  const dwarf::DebugInfo& info_;
  const dwarf::Unit* unit_;
};

struct Tally {
  uint64_t stops = 0, cfa_checks = 0, saved_checks = 0;
  uint64_t value_checks = 0, optout_checks = 0, partial_checks = 0, constant_checks = 0;
  uint64_t rejected_checks = 0; // gdb and abikit both reject the expression
  uint64_t gdb_errors = 0, gdb_errors_abikit_ok = 0, entry_values = 0, no_function = 0;
  uint64_t no_cfi = 0, unknown_bytes_abikit_has = 0;
  uint64_t zero_fill_bytes = 0, mixed_types = 0, wide_pieces = 0, unknown_ops = 0;
  std::vector<std::string> problems;
  void problem(std::string s) {
    if (problems.size() < 40) problems.push_back(std::move(s));
    ++disagreements;
  }
  uint64_t disagreements = 0;
  uint64_t checks() const {
    return cfa_checks + saved_checks + value_checks + optout_checks + partial_checks +
           constant_checks + rejected_checks;
  }
};

bool hasEntryValue(const dwarf::Expression& e) {
  for (const dwarf::Operation& o : e.ops)
    if (o.op == dwarf::Op::entry_value) return true;
  return false;
}

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

/// One program run: every stop checked against the object's DWARF.
/// `strict`: where gdb fails to evaluate a location, abikit must fail too (generated expressions,
/// which avoid what gdb reads more leniently than the rules).
void checkRun(const std::string& exe, const std::vector<GdbStop>& stops, const std::string& label,
              Tally& t, bool strict = false) {
  ElfFile file = ElfFile::open(exe);
  const Target target = elfTarget(file);
  dwarf::DebugInfo info(debugSections(file));
  const dwarf::DebugSections& ds = info.sections();
  // Call frame information: .debug_frame if the program has it, else .eh_frame.
  const bool use_debug_frame = !ds.frame.bytes.empty();
  dwarf::CfiFormat cf;
  cf.section = use_debug_frame ? dwarf::CfiSectionKind::DebugFrame : dwarf::CfiSectionKind::EhFrame;
  cf.section_address = use_debug_frame ? 0 : ds.eh_frame.address;
  cf.address_size = file.header().is64() ? 8 : 4;
  std::optional<dwarf::CfiSection> cfi;
  const auto& cfi_bytes = use_debug_frame ? ds.frame.bytes : ds.eh_frame.bytes;
  if (!cfi_bytes.empty()) cfi = dwarf::parseCfi(cfi_bytes, cf);

  for (const GdbStop& s : stops) {
    ++t.stops;
    const std::string where = label + " pc " + hex(s.pc) + " (" + s.function + ")";
    dwarf::VariablesAt at = dwarf::variablesAt(info, s.pc);
    StopMachine m(s, info, at.unit);
    dwarf::Evaluator ev(target, m);
    // The CFA from the CFI row.
    std::optional<dwarf::Expression> cfa_expr;
    const dwarf::CfiFde* fde = cfi ? cfi->findFde(s.pc) : nullptr;
    if (fde) {
      dwarf::CfiTable table = dwarf::buildTable(*cfi, *fde, &target.dwarf);
      std::optional<dwarf::CfiRow> row = table.rowAt(s.pc);
      if (row) cfa_expr = dwarf::cfaExpression(*cfi, *row, cfi->cieOf(*fde), fde->dwarf64);
      if (row && cfa_expr) {
        try {
          ev.reset();
          dwarf::EvalResult r = ev.evaluate(*cfa_expr, dwarf::ResultKind::Location);
          dwarf::LocationInfo li = ev.describe(r.location);
          const uint64_t cfa = uint64_t(li.offset / 8);
          ++t.cfa_checks;
          if (li.kind != dwarf::StorageKind::Memory || cfa != s.cfa)
            t.problem(where + ": CFA " + hex(cfa) + ", gdb " + hex(s.cfa));
          // Saved registers: gdb's list against the offset rules.
          std::map<uint32_t, uint64_t> ours,
              gdbs(s.saved_registers.begin(), s.saved_registers.end());
          for (const auto& [reg, rule] : row->rules)
            if (rule.kind == dwarf::RegisterRuleKind::Offset)
              ours[uint32_t(reg)] = cfa + uint64_t(rule.offset);
          ++t.saved_checks;
          if (ours != gdbs) {
            std::string a, b;
            for (auto [r, x] : ours) a += " " + std::to_string(r) + "@" + hex(x);
            for (auto [r, x] : gdbs) b += " " + std::to_string(r) + "@" + hex(x);
            t.problem(where + ": saved registers abikit{" + a + " } gdb{" + b + " }");
          }
        } catch (const Error& e) {
          t.problem(where + ": CFA evaluation: " + e.message());
        }
      }
    } else {
      ++t.no_cfi;
    }
    if (!at.found) {
      ++t.no_function;
      if (!s.variables.empty())
        t.problem(where + ": gdb lists variables, abikit finds no function");
      continue;
    }
    const dwarf::ExprFormat fmt = dwarf::exprFormat(*at.unit, ds.endian);
    const dwarf::DisplayOptions display = dwarf::displayOptionsFor(target, fmt.encoding);
    dwarf::DebugInfoResolver dies(info, *at.unit, s.pc);
    dwarf::Evaluator evd(target, m, &dies);
    evd.options().format = fmt;
    if (at.has_frame_base) evd.options().frame_base = dwarf::decode(at.frame_base, fmt);
    evd.options().cfa = cfa_expr;
    std::map<std::string, int> count;
    for (const dwarf::VariableAt& v : at.variables) ++count[v.name];
    std::map<std::string, int> gdb_count;
    for (const GdbVariable& g : s.variables) ++gdb_count[g.name];

    for (const GdbVariable& g : s.variables) {
      if (gdb_count[g.name] != 1 || count[g.name] > 1) continue; // shadowed: ambiguous by name
      auto it = std::find_if(at.variables.begin(), at.variables.end(),
                             [&](const dwarf::VariableAt& v) { return v.name == g.name; });
      const std::string what = where + " " + g.name + " (" + oracle::statusName(g.status) + ")";
      if (it == at.variables.end()) {
        t.problem(what + ": gdb lists it, abikit does not");
        continue;
      }
      const dwarf::VariableAt& v = *it;
      if (g.status == GdbVariable::Status::Error && !strict) {
        ++t.gdb_errors;
        continue;
      }
      const size_t n = g.value.bytes.size();
      std::string text; // the location there, for messages
      if (v.kind == dwarf::VariableAt::Kind::Expression) try {
          text = " [" + dwarf::toDisplay(dwarf::decode(v.expression, fmt), display) + "]";
        } catch (const Error&) {
        }
      auto known = [&](size_t i) { return i < g.value.known.size() && g.value.known[i]; };
      // abikit's bytes, each with whether it could be read.
      std::vector<uint8_t> ours(n, 0);
      std::vector<bool> have(n, false);
      std::vector<std::string> why(n); // why abikit could not read byte i
      bool entry_value = false;
      std::string failure;
      if (v.kind == dwarf::VariableAt::Kind::Constant) {
        for (size_t i = 0; i < n && i < v.constant.size(); ++i) {
          ours[i] = v.constant[i];
          have[i] = true;
        }
      } else if (v.kind == dwarf::VariableAt::Kind::Expression) {
        try {
          dwarf::Expression e = dwarf::decode(v.expression, fmt);
          entry_value = hasEntryValue(e);
          evd.reset();
          dwarf::EvalResult r = evd.evaluate(e, dwarf::ResultKind::Location);
          std::vector<uint8_t> buf;
          try {
            evd.read(r.location, uint64_t(n) * 8, buf);
            std::copy(buf.begin(), buf.end(), ours.begin());
            std::fill(have.begin(), have.end(), true);
          } catch (const Error&) {
            for (size_t i = 0; i < n; ++i) { // byte by byte: some pieces may be readable
              try {
                dwarf::Location l = r.location;
                l.offset += dwarf::BitOffset(i) * 8;
                evd.read(l, 8, buf);
                ours[i] = buf[0];
                have[i] = true;
              } catch (const Error& e2) {
                why[i] = e2.message();
              }
            }
          }
        } catch (const Error& e) {
          failure = e.message();
          std::fill(why.begin(), why.end(), failure);
        }
      }
      if (entry_value && !failure.empty()) {
        ++t.entry_values;
        continue;
      }
      switch (g.status) {
      case GdbVariable::Status::Value:
      case GdbVariable::Status::Partial: {
        (g.status == GdbVariable::Status::Value ? t.value_checks : t.partial_checks)++;
        if (v.kind == dwarf::VariableAt::Kind::Constant) ++t.constant_checks;
        for (size_t i = 0; i < n; ++i) {
          if (!known(i)) {
            if (have[i]) ++t.unknown_bytes_abikit_has;
            continue;
          }
          if (!have[i]) {
            // The documented differences (docs/dwarf.md, "Against gdb"): gdb reads zeros past
            // a location's storage and accepts mixed types and pieces wider than their value.
            const std::string& w = why[i];
            if (w.find("goes past the end of its storage") != std::string::npos &&
                g.value.bytes[i] == 0) {
              ++t.zero_fill_bytes;
              continue;
            }
            if (w.find("have different types") != std::string::npos) {
              ++t.mixed_types;
              break;
            }
            if (w.find("does not fit its storage") != std::string::npos) {
              ++t.wide_pieces;
              break;
            }
            if (w.find("UnknownOpcode") != std::string::npos) {
              ++t.unknown_ops;
              break;
            }
          }
          if (!have[i] || ours[i] != g.value.bytes[i]) {
            std::string a, b;
            for (size_t k = 0; k < n; ++k) {
              char x[8];
              std::snprintf(x, sizeof x, "%02x", ours[k]);
              a += have[k] ? x : "??";
              std::snprintf(x, sizeof x, "%02x", g.value.bytes[k]);
              b += known(k) ? x : "??";
            }
            t.problem(what + ": abikit " + a + " gdb " + b +
                      (failure.empty() ? "" : " (" + failure + ")") + text);
            break;
          }
        }
        break;
      }
      case GdbVariable::Status::OptimizedOut: {
        ++t.optout_checks;
        // gdb calls a value optimized out when each of its members lacks a bit; abikit must
        // not have the whole of it.
        const bool all = n > 0 && std::find(have.begin(), have.end(), false) == have.end();
        if (all && v.kind != dwarf::VariableAt::Kind::Constant)
          t.problem(what + ": gdb says optimized out, abikit reads a value" + text);
        break;
      }
      case GdbVariable::Status::Error:
        ++t.rejected_checks;
        if (failure.empty())
          t.problem(what + ": gdb rejects it (" + g.message + "), abikit evaluates it" + text);
        break;
      }
    }
  }
}

struct Build {
  oracle::RiscvBuild b;
  bool fp;
};

std::vector<Build> builds() {
  std::vector<Build> out;
  for (const char* cc : {"clang-14", "clang-19", "clang-22", "gcc-12"})
    for (const char* opt : {"-O1", "-O2"})
      for (bool rv32 : {false, true}) {
        Build x;
        x.b.compiler = cc;
        x.b.opt = opt;
        x.b.rv32 = rv32;
        x.b.extra_flags = {"-g"};
        // One soft-float multilib per width: rv64imac/lp64 and rv32imac/ilp32.
        if (std::string(opt) == "-O1") {
          x.b.march = rv32 ? "rv32imac" : "rv64imac";
          x.b.mabi = rv32 ? "ilp32" : "lp64";
        }
        x.fp = x.b.march.empty();
        out.push_back(x);
      }
  return out;
}

TEST(DwarfGdb, VariablesAndFramesMatchGdb) {
  if (!oracle::riscvGdbAvailable()) GTEST_SKIP() << "gdb-multiarch or qemu-user not installed";
  const uint64_t per_build = oracle::sampleCount(1);
  const uint64_t seed0 = oracle::sampleSeed(1);
  Tally t;
  std::map<std::string, uint64_t> per_compiler;
  unsigned runs = 0, gdb_crashes = 0;
  for (const Build& x : builds()) {
    if (!oracle::riscvToolchainAvailable(x.b)) continue;
    for (uint64_t k = 0; k < per_build; ++k) {
      const uint64_t seed = seed0 * 1000 + k * 17 + runs;
      difftest::CProgOptions po;
      po.rv32 = x.b.rv32;
      po.fp = x.fp;
      difftest::CProgram prog = difftest::generateCProgram(seed, po);
      oracle::ScratchDir dir;
      std::string error;
      const std::string label = x.b.compiler + " " + x.b.opt + " " + x.b.archName() + "/" +
                                x.b.abiName() + " seed " + std::to_string(seed);
      std::string exe = oracle::buildRiscvProgram(dir, prog.source, x.b, error);
      ASSERT_FALSE(exe.empty()) << label << ": " << error;
      std::vector<GdbStop> stops = oracle::runUnderGdb(exe, x.b.rv32, prog.breakpoints, 40, error);
      if (error.find("internal-error") != std::string::npos) {
        ++gdb_crashes; // gdb 13 asserts in value_fetch_lazy on some pieces: keep what it gave
        std::printf("  gdb crashed (%s): %zu stops before it\n", label.c_str(), stops.size());
      } else {
        ASSERT_TRUE(error.empty()) << label << ": " << error;
      }
      const uint64_t before = t.checks();
      try {
        checkRun(exe, stops, label, t);
      } catch (const Error& e) {
        t.problem(label + ": " + e.format());
        std::system(("cp " + exe + " /tmp/dwarf-gdb-failed").c_str());
      }
      per_compiler[x.b.compiler] += t.checks() - before;
      ++runs;
    }
  }
  if (runs == 0) GTEST_SKIP() << "no RISC-V compiler installed";
  std::printf("dwarf-gdb: %u runs (%u ended by a gdb internal error), %llu stops; %llu checks: "
              "%llu values, %llu partial, %llu "
              "optimized out, %llu constants, %llu CFAs, %llu saved-register sets\n",
              runs, gdb_crashes, (unsigned long long)t.stops, (unsigned long long)t.checks(),
              (unsigned long long)t.value_checks, (unsigned long long)t.partial_checks,
              (unsigned long long)t.optout_checks, (unsigned long long)t.constant_checks,
              (unsigned long long)t.cfa_checks, (unsigned long long)t.saved_checks);
  for (const auto& [cc, n] : per_compiler)
    std::printf("  %s: %llu checks\n", cc.c_str(), (unsigned long long)n);
  std::printf("  not compared: %llu gdb errors, %llu entry values, %llu stops without CFI, %llu "
              "outside any function; %llu bytes gdb did not know abikit read\n",
              (unsigned long long)t.gdb_errors, (unsigned long long)t.entry_values,
              (unsigned long long)t.no_cfi, (unsigned long long)t.no_function,
              (unsigned long long)t.unknown_bytes_abikit_has);
  std::printf("  known differences: %llu bytes past a location's storage gdb reads as 0, %llu "
              "values of mixed-type operations gdb accepts, %llu pieces wider than their value "
              "gdb accepts, %llu values with a GNU operation abikit does not decode\n",
              (unsigned long long)t.zero_fill_bytes, (unsigned long long)t.mixed_types,
              (unsigned long long)t.wide_pieces, (unsigned long long)t.unknown_ops);
  for (const std::string& p : t.problems) std::printf("  DISAGREE %s\n", p.c_str());
  EXPECT_EQ(t.disagreements, 0u);
  EXPECT_GE(t.checks(), 200u);
}

// ----- generated expressions in hand-written DWARF -----------------------------------------------

// A program whose only debugging information is written here: a unit covering `probe` (a leaf
// function; the stop is at its first instruction) with variables whose locations are generated
// DWARF 5 expressions over the registers _start fills with random values, a global array `g`
// and constants; about one in eight is ill-typed (a 32-bit typed value meets a generic one), which
// gdb must reject where abikit says ill-formed. Types: "unsigned long" (the address size) and
// "unsigned int" (for DW_OP_convert).
struct ExprProgram {
  std::string source;
  unsigned variables = 0;
};

ExprProgram exprProgram(uint64_t seed, bool rv32, unsigned count) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint64_t n) { return uint64_t(rng() % n); };
  const unsigned as = rv32 ? 4 : 8;
  const char* addr_dir = rv32 ? ".word" : ".quad";
  // Unit layout (offsets are unit-relative): header 12, the CU DIE (code, low_pc, high_pc, name
  // "p.c"), then the two base types.
  const unsigned cu_die = 12, u_long = cu_die + 1 + as + 4 + 4;
  const unsigned u_int = u_long + 1 + 14 + 2; // "unsigned long\0", byte_size, encoding
  std::ostringstream src;
  src << "unsigned long g[8] = {";
  for (int i = 0; i < 8; ++i)
    src << (i ? ", " : "") << "0x" << std::hex << (rv32 ? rng() & 0xffffffffu : rng()) << "ul";
  src << std::dec << "};\n"
      << "__attribute__((noinline)) void probe(void) { __asm__ volatile(\"\" ::: \"memory\"); }\n"
      << "void _start(void) {\n  __asm__ volatile(\n";
  // Callee-saved and argument registers get random values (probe is a leaf: they stay).
  const int regs[] = {8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};
  for (int r : regs)
    src << "    \"li x" << r << ", " << (rv32 ? int64_t(int32_t(rng())) : int64_t(rng()))
        << "\\n\"\n";
  src << "    \"call probe\\n li a0, 0\\n li a7, 93\\n ecall\\n\" ::: \"memory\");\n  for (;;) "
         "{}\n}\n";
  std::ostringstream dw;
  dw << ".section .debug_abbrev,\"\",@progbits\n.Labbrev:\n"
     << ".uleb128 1, 0x11\n.byte 1\n.uleb128 0x11, 0x01, 0x12, 0x06, 0x03, 0x08, 0, 0\n"
     << ".uleb128 2, 0x24\n.byte 0\n.uleb128 0x03, 0x08, 0x0b, 0x0b, 0x3e, 0x0b, 0, 0\n"
     << ".uleb128 3, 0x2e\n.byte 1\n.uleb128 0x03, 0x08, 0x11, 0x01, 0x12, 0x06, 0, 0\n"
     << ".uleb128 4, 0x34\n.byte 0\n.uleb128 0x03, 0x08, 0x49, 0x13, 0x02, 0x18, 0, 0\n"
     << ".byte 0\n"
     << ".section .debug_info,\"\",@progbits\n.Lcu:\n.word .Lcu_end - .Lcu - 4\n.half 5\n"
     << ".byte 1, " << as << "\n.word .Labbrev\n"
     << ".uleb128 1\n"
     << addr_dir << " probe\n.word 2\n.asciz \"p.c\"\n"
     << ".uleb128 2\n.asciz \"unsigned long\"\n.byte " << as << ", 0x08\n"
     << ".uleb128 2\n.asciz \"unsigned int\"\n.byte 4, 0x08\n"
     << ".uleb128 3\n.asciz \"probe\"\n"
     << addr_dir << " probe\n.word 2\n";
  auto uleb = [](uint64_t v) { return test::CfiBuilder().uleb(v).bytes; };
  for (unsigned k = 0; k < count; ++k) {
    // Each operation: bytes, or (for DW_OP_addr) a symbolic operand.
    struct Piece {
      std::vector<uint8_t> bytes;
      std::string symbol; // DW_OP_addr's operand
    };
    std::vector<Piece> ops;
    auto op = [&](std::vector<uint8_t> b) { ops.push_back({std::move(b), ""}); };
    auto push = [&] {
      switch (pick(5)) {
      case 0:
        op({uint8_t(0x30 + pick(32))}); // lit
        break;
      case 1: {
        std::vector<uint8_t> b{0x10}; // constu
        auto l = uleb(rng() >> pick(64));
        b.insert(b.end(), l.begin(), l.end());
        op(b);
        break;
      }
      case 2: {
        std::vector<uint8_t> b{uint8_t(0x70 + regs[pick(std::size(regs))])}; // breg
        b.push_back(uint8_t(pick(128) - 64 + 0x00) & 0x7f);                  // sleb -64..63
        op(b);
        break;
      }
      case 3: // deref of g[i] (+ a byte offset for deref_size)
        ops.push_back({{0x03}, "g+" + std::to_string(as * pick(8))});
        if (pick(2))
          op({0x06});
        else
          op({0x94, uint8_t(std::array<int, 4>{1, 2, 4, 8}[pick(rv32 ? 3 : 4)])});
        break;
      default:
        op({0x0a, uint8_t(rng()), uint8_t(rng())}); // const2u
      }
    };
    unsigned depth = 0;
    const bool ill_typed = pick(8) == 0;
    const unsigned steps = 1 + unsigned(pick(10));
    push();
    ++depth;
    for (unsigned i = 0; i < steps; ++i) {
      const uint64_t c = pick(10);
      if (depth < 2 || c < 3) {
        push();
        ++depth;
      } else if (c < 8) {
        // Binary: plus minus mul and or xor; shifts by a literal below 32 (pushed here).
        static const uint8_t kBin[] = {0x22, 0x1c, 0x1e, 0x1a, 0x21, 0x27, 0x24, 0x25,
                                       0x26, 0x29, 0x2e, 0x2d, 0x2a, 0x2b, 0x2c};
        const uint8_t b = kBin[pick(std::size(kBin))];
        if (b == 0x24 || b == 0x25 || b == 0x26)
          op({uint8_t(0x30 + pick(32))}); // the count
        else
          --depth;
        op({b});
      } else if (c == 8) {
        static const uint8_t kUn[] = {0x1f, 0x20, 0x19,
                                      0x12, 0x14, 0x16}; // neg not abs dup over swap
        const uint8_t u = kUn[pick(std::size(kUn))];
        op({u});
        if (u == 0x12 || u == 0x14) ++depth;
      } else {
        std::vector<uint8_t> b{0x23}; // plus_uconst
        auto l = uleb(pick(100000));
        b.insert(b.end(), l.begin(), l.end());
        op(b);
      }
    }
    while (depth > 1) {
      op({0x22}); // plus
      --depth;
    }
    if (ill_typed) {
      // lit, DW_OP_convert <unsigned int>, then plus with the generic value: both reject.
      op({uint8_t(0x30 + pick(32)), 0xa8, uint8_t(u_int)});
      op({0x22});
    } else if (pick(4) == 0) {
      // A typed detour: convert to unsigned int and back to the generic type.
      op({0xa8, uint8_t(u_int), 0xa8, 0x00});
    }
    const bool memory = !ill_typed && pick(6) == 0;
    if (memory) { // a memory location instead: g[i]
      ops.clear();
      ops.push_back({{0x03}, "g+" + std::to_string(as * pick(8))});
    } else {
      op({0x9f}); // stack_value
    }
    size_t n = 0;
    for (const Piece& pc : ops) n += pc.bytes.size() + (pc.symbol.empty() ? 0 : as);
    dw << ".uleb128 4\n.asciz \"v" << k << "\"\n.word " << u_long << "\n.uleb128 " << n << "\n";
    for (const Piece& pc : ops) {
      dw << ".byte";
      for (size_t i = 0; i < pc.bytes.size(); ++i) dw << (i ? ", " : " ") << int(pc.bytes[i]);
      dw << "\n";
      if (!pc.symbol.empty()) dw << addr_dir << " " << pc.symbol << "\n";
    }
  }
  dw << ".byte 0\n.byte 0\n.Lcu_end:\n.text\n";
  // The DWARF goes in as top-level assembly, one line per asm statement.
  std::string asm_text = dw.str(), escaped;
  for (char ch : asm_text) {
    if (ch == '"')
      escaped += "\\\"";
    else if (ch == '\n')
      escaped += "\\n";
    else
      escaped += ch;
  }
  src << "__asm__(\"" << escaped << "\");\n";
  return {src.str(), count};
}

TEST(DwarfGdb, GeneratedExpressionsMatchGdb) {
  if (!oracle::riscvGdbAvailable()) GTEST_SKIP() << "gdb-multiarch or qemu-user not installed";
  const uint64_t programs = oracle::sampleCount(1) * 4;
  const uint64_t seed0 = oracle::sampleSeed(1);
  Tally t;
  unsigned runs = 0;
  for (uint64_t k = 0; k < programs; ++k) {
    const bool rv32 = k % 2;
    oracle::RiscvBuild b;
    b.compiler = "clang-22";
    b.rv32 = rv32;
    b.opt = "-O2";
    b.extra_flags = {"-g0"};
    if (!oracle::riscvToolchainAvailable(b)) b.compiler = "clang-14";
    if (!oracle::riscvToolchainAvailable(b)) GTEST_SKIP() << "no clang for RISC-V";
    const uint64_t seed = seed0 * 7919 + k;
    ExprProgram prog = exprProgram(seed, rv32, 60);
    oracle::ScratchDir dir;
    std::string error;
    const std::string label =
        std::string(rv32 ? "rv32" : "rv64") + " exprs seed " + std::to_string(seed);
    std::string exe = oracle::buildRiscvProgram(dir, prog.source, b, error);
    ASSERT_FALSE(exe.empty()) << label << ": " << error;
    std::vector<GdbStop> stops = oracle::runUnderGdb(exe, rv32, {"*probe"}, 1, error);
    ASSERT_TRUE(error.empty()) << label << ": " << error;
    ASSERT_EQ(stops.size(), 1u) << label;
    EXPECT_EQ(stops[0].variables.size(), prog.variables) << label;
    try {
      checkRun(exe, stops, label, t, true);
    } catch (const Error& e) {
      t.problem(label + ": " + e.format());
    }
    ++runs;
  }
  std::printf("dwarf-gdb generated expressions: %u programs, %llu checks: %llu values, %llu "
              "rejected by both; %llu not compared (gdb errors)\n",
              runs, (unsigned long long)(t.value_checks + t.rejected_checks + t.optout_checks),
              (unsigned long long)t.value_checks, (unsigned long long)t.rejected_checks,
              (unsigned long long)t.gdb_errors);
  for (const std::string& p : t.problems) std::printf("  DISAGREE %s\n", p.c_str());
  EXPECT_EQ(t.disagreements, 0u);
  EXPECT_GE(t.value_checks + t.rejected_checks, 200u);
}

} // namespace
