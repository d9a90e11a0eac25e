// Differential test of the RISC-V calling convention: random prototypes (callconv_gen) lowered
// by abikit and compiled by the real compiler of each ABI, every argument and return bit
// followed through the generated assembly (callconv_riscv_asm).
//
//  * clang-14 -O1 (ilp32, ilp32f, ilp32d, lp64, lp64f, lp64d): probe callees (each parameter
//    stored to abk_out, the return value loaded from abk_in) and probe callers (each argument,
//    the extra arguments of variadic calls included, loaded from abk_in and passed). The
//    callee shows where each parameter byte arrives and how the value is returned; the caller
//    shows where each argument byte is put, how narrow integers are extended, and the pointer
//    to a copy for indirect arguments.
//  * riscv64-unknown-elf-gcc 12 -O1: ilp32e (clang-14 has no E ABI) and a second opinion on the
//    standard ABIs. The generator leaves out what GCC 12 cannot compile (_Float16, _BitInt,
//    ext_vector_type) and the comparison leaves out the differences between clang-14 and GCC
//    that docs/targets/riscv.md lists (abikit follows clang-14).
//
// Every disagreement is shrunk to a minimal prototype and printed with both answers.
// ABIKIT_DIFF_COUNT (default 1000 prototypes per ABI) and ABIKIT_DIFF_SEED (default 1) size the
// run.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "batch.h"
#include "callconv_gen.h"
#include "callconv_oracle.h"
#include "callconv_riscv_asm.h"
#include "oracle.h"

#include <algorithm>
#include <cstdio>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace {

using namespace abikit;
using namespace abikit::difftest;

struct BaseAbi {
  const char* name;
  const char* triple;
  const char* march; // abikit's -march and the compiler's
  const char* mabi;
  OracleKind oracle;
  uint64_t default_count;
};

const BaseAbi kBaseAbis[] = {
    {"ilp32", "riscv32-unknown-elf", "rv32imac", "ilp32", OracleKind::Clang, 1000},
    {"ilp32f", "riscv32-unknown-elf", "rv32imafc", "ilp32f", OracleKind::Clang, 1000},
    {"ilp32d", "riscv32-unknown-elf", "rv32imafdc", "ilp32d", OracleKind::Clang, 1000},
    {"lp64", "riscv64-unknown-elf", "rv64imafdc", "lp64", OracleKind::Clang, 1000},
    {"lp64f", "riscv64-unknown-elf", "rv64imafc", "lp64f", OracleKind::Clang, 1000},
    {"lp64d", "riscv64-unknown-elf", "rv64imafdc", "lp64d", OracleKind::Clang, 1000},
    {"gcc_ilp32e", "riscv32-unknown-elf", "rv32em", "ilp32e", OracleKind::Gcc, 1000},
    {"gcc_ilp32", "riscv32-unknown-elf", "rv32imac", "ilp32", OracleKind::Gcc, 300},
    {"gcc_ilp32d", "riscv32-unknown-elf", "rv32imafdc", "ilp32d", OracleKind::Gcc, 300},
    {"gcc_lp64", "riscv64-unknown-elf", "rv64imac", "lp64", OracleKind::Gcc, 300},
    {"gcc_lp64f", "riscv64-unknown-elf", "rv64imafc", "lp64f", OracleKind::Gcc, 300},
    {"gcc_lp64d", "riscv64-unknown-elf", "rv64imafdc", "lp64d", OracleKind::Gcc, 300},
};

/// One ABI with one compiler. The clang ABIs run against every clang abikit models that is
/// installed (the same prototypes for each); the GCC ones compare GCC 12 with abikit's clang-14
/// answers, leaving out the differences docs/targets/riscv.md lists between those two.
struct Abi {
  std::string name; // "lp64d_clang22", "gcc_lp64d"
  const char* base; // seeds the prototypes
  const char* triple;
  const char* march;
  const char* mabi;
  OracleKind oracle;
  uint64_t default_count;
  std::string compiler; // abikit's --compiler, and the oracle for the clang ABIs
  std::vector<std::string> modelled;
};

std::vector<Abi> allAbis() {
  std::vector<Abi> out;
  for (const BaseAbi& b : kBaseAbis) {
    Abi a{b.name, b.name, b.triple, b.march, b.mabi, b.oracle, b.default_count, "clang-14", {}};
    if (b.oracle == OracleKind::Gcc) {
      out.push_back(a);
      continue;
    }
    oracle::appendPerCompiler(out, a, oracle::modelledClangs(b.triple, b.march, b.mabi));
  }
  return out;
}

constexpr size_t kBatch = 200;
constexpr size_t kMaxReported = 5;
constexpr size_t kShrinkBudget = 250;

std::vector<std::string> compilerCommand(const Abi& abi) {
  if (abi.oracle == OracleKind::Gcc)
    return {"riscv64-unknown-elf-gcc",
            std::string("-march=") + abi.march,
            std::string("-mabi=") + abi.mabi,
            "-O1",
            "-S",
            "-w",
            "-fno-toplevel-reorder"};
  return {abi.compiler,
          std::string("--target=") + abi.triple,
          std::string("-march=") + abi.march,
          std::string("-mabi=") + abi.mabi,
          "-O1",
          "-S",
          "-w",
          "-fno-asynchronous-unwind-tables"};
}

// ----- known differences between GCC 12 and clang-14 (docs/targets/riscv.md) -----------------
//
// abikit follows clang-14. A prototype with one of these constructs is not compared with GCC;
// the test counts them per kind.

bool isEmptyRecordC(const Type* t, const LayoutEngine& layout);

bool isEmptyFieldC(const FieldDecl& fd, const LayoutEngine& layout) {
  if (fd.isUnnamedBitField()) return true;
  const Type* t = stripTypedefs(fd.type);
  while (auto* at = dyn<ArrayType>(t)) {
    if (at->incomplete) return false;
    if (at->count == 0) return true;
    t = stripTypedefs(at->element);
  }
  return isEmptyRecordC(t, layout);
}

bool isEmptyRecordC(const Type* t, const LayoutEngine& layout) {
  auto* rt = dyn<RecordType>(stripTypedefs(t));
  if (!rt || layout.of(*rt->decl).has_flexible_array) return false;
  for (const FieldDecl& fd : rt->decl->fields)
    if (!isEmptyFieldC(fd, layout)) return false;
  return true;
}

/// What GCC 12 and clang-14 both see when they flatten a struct for the FP convention, with
/// the constructs they treat differently noted as `quirk`: zero-width bit-fields (clang-14
/// rejects two fields with one before the second, GCC ignores them), zero-length arrays and
/// arrays of empty records (GCC rejects two fields with one), empty unions (GCC rejects),
/// complex integers (clang-14 flattens them into two integer fields, GCC does not) and nested
/// records of only unnamed bit-fields (clang-14 ignores them).
struct Flattening {
  int fp = 0, ints = 0;
  bool quirk = false, bad = false;
};

void flattenForGcc(const Type* t, const LayoutEngine& layout, unsigned xlen, unsigned flen,
                   Flattening& f, int depth = 0) {
  const Type* c = stripTypedefs(t);
  if (depth > 6 || f.fp + f.ints > 2) {
    f.bad = true;
    return;
  }
  auto bitsOf = [&] { return layout.of(c).size * 8; };
  switch (c->kind) {
  case TypeKind::Int:
  case TypeKind::Enum:
    f.bad = f.bad || bitsOf() > xlen;
    ++f.ints;
    return;
  case TypeKind::Float:
    f.bad = f.bad || bitsOf() > flen;
    ++f.fp;
    return;
  case TypeKind::Complex: {
    const Type* e = stripTypedefs(static_cast<const ComplexType*>(c)->element);
    if (e->kind == TypeKind::Float) {
      f.bad = f.bad || bitsOf() / 2 > flen;
      f.fp += 2;
    } else {
      f.ints += 2;
      f.quirk = true;
    }
    return;
  }
  case TypeKind::Array: {
    auto* at = static_cast<const ArrayType*>(c);
    if (at->incomplete) {
      f.bad = true;
      return;
    }
    if (at->count == 0 || isEmptyRecordC(at->element, layout)) {
      f.quirk = true;
      return;
    }
    for (uint64_t i = 0; i < at->count && !f.bad; ++i)
      flattenForGcc(at->element, layout, xlen, flen, f, depth + 1);
    return;
  }
  case TypeKind::Record: {
    const RecordDecl& rd = *static_cast<const RecordType*>(c)->decl;
    if (isEmptyRecordC(c, layout)) {
      // Only a member-less struct is ignored by both.
      if (rd.is_union || layout.of(c).size > 0 || !rd.fields.empty()) f.quirk = true;
      return;
    }
    if (rd.is_union) {
      f.bad = true;
      return;
    }
    for (const FieldDecl& fd : rd.fields) {
      if (fd.isBitField() && fd.bit_width == 0) {
        f.quirk = true;
        continue;
      }
      if (fd.isBitField() && unsigned(fd.bit_width) <= xlen) {
        ++f.ints;
        continue;
      }
      flattenForGcc(fd.type, layout, xlen, flen, f, depth + 1);
      if (f.bad) return;
    }
    return;
  }
  default:
    f.bad = true;
    return;
  }
}

/// The kind of known GCC 12 / clang-14 difference the prototype touches, or "".
std::string gccKnownDifference(const BuiltProto& b, const FunctionLowering& fl,
                               const LayoutEngine& layout, unsigned xlen, unsigned flen) {
  for (const std::string& n : fl.notes)
    if (n.find("not from its own offset") != std::string::npos)
      return "a flattened field clang-14 reads from its IR offset, not its own (GCC uses its "
             "own)";
  std::vector<const Type*> types = b.params;
  types.insert(types.end(), b.extra.begin(), b.extra.end());
  types.push_back(b.ret);
  for (const Type* t : types) {
    const Type* c = stripTypedefs(t);
    if (c->kind != TypeKind::Record) continue;
    if (isEmptyRecordC(c, layout) && layout.of(c).size > 0)
      return "a record of only unnamed bit-fields or empty members (clang-14 ignores it, GCC "
             "passes it)";
    if (isEmptyRecordC(c, layout) && layout.of(t).align > xlen / 8)
      return "an empty record aligned to more than XLEN (clang-14 ignores it, GCC aligns the "
             "stack offset to it)";
    if (layout.of(t).align != layout.of(c).align)
      return "a record whose typedef changes its alignment (clang-14 passes the record's own "
             "type, GCC honours the typedef)";
    if (layout.of(c).size == 0 && !isEmptyRecordC(c, layout))
      return "a zero-sized record with a flexible array member (clang-14 gives it a register, "
             "GCC ignores it)";
    if (!flen || static_cast<const RecordType*>(c)->decl->is_union) continue;
    Flattening f;
    flattenForGcc(c, layout, xlen, flen, f);
    if (f.quirk && !f.bad && f.fp + f.ints <= 2 && (f.fp > 0 || f.ints == 2))
      return "FP flattening of a struct with a zero-width bit-field, a zero-length array, an "
             "array of empty records, an empty union or a complex integer";
  }
  return "";
}

struct Verdict {
  bool rejected = false; // the compiler or abikit refused the case
  bool crashed = false;  // the compiler crashed on it (an internal compiler error)
  std::string message;
  bool disagree = false;
  bool abikit_rejected = false; // the disagreement is abikit refusing the prototype
  std::string known;            // a known GCC/clang-14 difference: not compared
  std::string detail;
};

class Runner {
public:
  Runner(const Abi& abi, const Target& target) : abi_(abi), target_(target) {}

  std::vector<Verdict> run(std::vector<Proto> protos) {
    std::vector<Verdict> verdicts(protos.size());
    oracle::compileDroppingRejected(
        protos,
        [&](std::vector<Proto>& batch, const std::vector<size_t>& ids, std::vector<size_t>& bad) {
          return runOnce(batch, ids, verdicts, bad);
        },
        [&](size_t i) { verdicts[i].rejected = true; });
    return verdicts;
  }

  // Coverage of the compared cases.
  uint64_t params = 0, extra = 0, indirect = 0, ignored = 0, fpr_parts = 0, stack_parts = 0,
           split = 0, extended = 0, sret = 0, variadic = 0, flattened = 0;

private:
  bool compile(const std::string& file, const std::string& out, std::string& err) {
    std::vector<std::string> cmd = compilerCommand(abi_);
    cmd.push_back("-o");
    cmd.push_back(out);
    cmd.push_back(file);
    oracle::RunResult r = oracle::run(cmd);
    err = r.err;
    return r.exit_code == 0;
  }

  bool runOnce(std::vector<Proto>& batch, const std::vector<size_t>& ids,
               std::vector<Verdict>& verdicts, std::vector<size_t>& bad) {
    std::string decls = renderDeclarations(batch);
    TypeContext ctx(target_, Language::C);
    LayoutEngine layout(ctx);
    uint32_t file = ctx.addFile("cases.c");
    struct Case {
      BuiltProto built;
      FunctionLowering fl;
      ProbeLayout probe;
      std::string error;
    };
    std::vector<Case> cases(batch.size());
    std::vector<ProbeLayout> probes(batch.size());
    for (size_t k = 0; k < batch.size(); ++k) {
      Case& c = cases[k];
      c.built = buildProto(batch[k], ctx, file);
      try {
        c.probe = probeLayout(c.built, layout);
        LowerOptions o;
        o.variadic_args = c.built.extra;
        c.fl = lowerFunction(ctx, layout, *c.built.fn, o);
      } catch (const Error& e) {
        c.error = e.format();
      }
      // A case abikit rejected still needs offsets for the probe text.
      c.probe.param_offsets.resize(batch[k].params.size() + batch[k].extra.size(), 0);
      probes[k] = c.probe;
    }
    oracle::ScratchDir dir;
    LineRanges callee_lines, caller_lines;
    dir.write("callees.c", renderCallees(batch, decls, probes, callee_lines));
    dir.write("callers.c", renderCallers(batch, decls, probes, caller_lines));
    std::string err1, err2;
    bool ok1 = compile(dir.file("callees.c"), dir.file("callees.s"), err1);
    bool ok2 = ok1 && compile(dir.file("callers.c"), dir.file("callers.s"), err2);
    if (!ok1 || !ok2) {
      std::string err = ok1 ? err2 : err1;
      std::string tag = ok1 ? dir.file("callers.c") + ":" : dir.file("callees.c") + ":";
      std::istringstream es(err);
      std::string l;
      while (std::getline(es, l)) {
        if (l.rfind(tag, 0) != 0 || l.find("error") == std::string::npos) continue;
        uint32_t line = uint32_t(std::stoul(l.substr(tag.size())));
        size_t hit = protoAtLine(batch, ok1 ? caller_lines : callee_lines, line);
        if (hit < batch.size()) {
          if (std::find(bad.begin(), bad.end(), ids[hit]) == bad.end()) bad.push_back(ids[hit]);
          verdicts[ids[hit]].rejected = true;
          verdicts[ids[hit]].abikit_rejected = !cases[hit].error.empty(); // both refuse it
          verdicts[ids[hit]].crashed |= l.find("internal compiler error") != std::string::npos;
          verdicts[ids[hit]].message += l + "\n";
        }
      }
      if (bad.empty())
        for (size_t k = 0; k < batch.size(); ++k) {
          verdicts[ids[k]].rejected = true;
          verdicts[ids[k]].message = err.substr(0, 3000);
        }
      return false;
    }
    std::string callees = oracle::readFile(dir.file("callees.s"));
    std::string callers = oracle::readFile(dir.file("callers.s"));
    auto fcallee = splitRiscvFunctions(callees);
    auto fcaller = splitRiscvFunctions(callers);
    AsmData dcallee = parseRiscvData(callees), dcaller = parseRiscvData(callers);
    const unsigned xlen = target_.riscv().xlen;
    for (size_t k = 0; k < batch.size(); ++k) {
      Verdict& v = verdicts[ids[k]];
      Case& c = cases[k];
      const Proto& p = batch[k];
      if (!c.error.empty()) {
        v.disagree = true;
        v.abikit_rejected = true;
        v.detail = "    abikit rejected a prototype the compiler accepts: " + c.error + "\n";
        continue;
      }
      if (abi_.oracle == OracleKind::Gcc) {
        v.known = gccKnownDifference(c.built, c.fl, layout, target_.riscv().xlen,
                                     target_.riscv().abi_flen);
        if (!v.known.empty()) continue;
      }
      std::vector<ProbeValue> values;
      for (size_t i = 0; i < c.fl.params.size(); ++i) {
        const Type* src = i < c.built.params.size() ? c.built.params[i]
                                                    : c.built.extra[i - c.built.params.size()];
        values.push_back({c.fl.params[i].type, src, c.probe.param_offsets[i]});
      }
      ProbeValue ret{c.built.ret, c.built.ret, c.probe.ret_offset};
      std::string report;
      auto ce = fcallee.find(p.callee());
      if (ce == fcallee.end()) {
        report += "    no callee in the assembly\n";
      } else {
        Trace t = followRiscv(ce->second, xlen, "", &dcallee);
        report += compareCallee(c.fl, t, layout, values, ret);
      }
      auto cr = fcaller.find(p.caller());
      if (cr == fcaller.end()) {
        report += "    no caller in the assembly\n";
      } else {
        Trace t = followRiscv(cr->second, xlen, p.callee(), &dcaller);
        report += compareCaller(c.fl, t, layout, values);
      }
      if (!report.empty()) {
        v.disagree = true;
        v.detail = "  abikit:\n" + describe(c.fl, ctx) + "  compiler:\n" + report;
        std::string asm_text;
        if (ce != fcallee.end()) asm_text += join(p.callee(), ce->second);
        if (cr != fcaller.end()) asm_text += join(p.caller(), cr->second);
        v.detail += "  assembly:\n" + asm_text;
      }
      count(c.fl);
    }
    return true;
  }

  static std::string join(const std::string& name, const std::vector<std::string_view>& lines) {
    std::string s = "    " + name + ":\n";
    for (std::string_view l : lines) s += "      " + std::string(l) + "\n";
    return s;
  }

  static std::string describe(const FunctionLowering& fl, const TypeContext& ctx) {
    auto one = [&](const ArgLowering& a) {
      std::string s = typeName(a.type, ctx) + ": ";
      static const char* kKinds[] = {"direct", "extend", "indirect", "ignore"};
      s += kKinds[int(a.kind)];
      if (a.kind == ArgKind::Extend) s += a.extend == ExtendKind::Sign ? " sign" : " zero";
      for (const ArgPart& p : a.parts) {
        s += " [" + std::to_string(p.offset) + "+" + std::to_string(p.size) + " ";
        s += p.loc.kind == ArgLocation::Kind::Register
                 ? std::string(p.loc.reg)
                 : "stack " + std::to_string(p.loc.stack_offset);
        s += "]";
      }
      return s;
    };
    std::string s = "    return " + one(fl.ret) + "\n";
    for (size_t i = 0; i < fl.params.size(); ++i)
      s += "    " + std::string(fl.params[i].variadic ? "extra " : "param ") + std::to_string(i) +
           " " + one(fl.params[i]) + "\n";
    return s;
  }

  void count(const FunctionLowering& fl) {
    variadic += fl.variadic;
    if (fl.ret.sret) ++sret;
    for (const ArgLowering& a : fl.params) {
      (a.variadic ? extra : params)++;
      indirect += a.kind == ArgKind::Indirect;
      ignored += a.kind == ArgKind::Ignore;
      extended += a.kind == ArgKind::Extend;
      bool reg = false, stk = false, fpr = false, gpr = false;
      for (const ArgPart& p : a.parts) {
        if (p.loc.kind == ArgLocation::Kind::Stack) {
          stk = true;
          ++stack_parts;
        } else {
          reg = true;
          (p.loc.reg[0] == 'f' ? fpr : gpr) = true;
          fpr_parts += p.loc.reg[0] == 'f';
        }
      }
      split += reg && stk;
      flattened += isRecord(a.type) && fpr;
      (void)gpr;
    }
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

uint64_t salt(const char* name) {
  uint64_t h = 1469598103934665603ull;
  for (const char* c = name; *c; ++c) h = (h ^ uint8_t(*c)) * 1099511628211ull;
  return h;
}

Proto shrink(Runner& runner, Proto p, const DataModel& d, Verdict& last) {
  size_t budget = kShrinkBudget;
  bool progress = true;
  while (progress && budget) {
    progress = false;
    for (Proto& c : shrinkProto(p, d)) {
      if (!budget--) break;
      Verdict v = runner.run({c})[0];
      // Keep the kind of failure: a mismatch must not shrink into a rejection.
      if (!v.rejected && v.disagree && v.abikit_rejected == last.abikit_rejected) {
        p = std::move(c);
        last = v;
        progress = true;
        break;
      }
    }
  }
  return p;
}

ProtoOptions optionsFor(const Abi& abi) {
  ProtoOptions o;
  o.oracle = abi.oracle;
  if (abi.oracle == OracleKind::Gcc) {
    o.allow_float16 = false;
    o.allow_bitint = false;
  }
  return o;
}

class DiffCallconvRiscv : public ::testing::TestWithParam<Abi> {};

TEST_P(DiffCallconvRiscv, AgreesWithCompiler) {
  const Abi& abi = GetParam();
  std::vector<std::string> cmd = compilerCommand(abi);
  ASSERT_FALSE(oracle::findProgram(cmd[0]).empty()) << cmd[0] << " is not installed";
  TargetOptions to;
  to.triple = abi.triple;
  to.march = abi.march;
  to.mabi = abi.mabi;
  to.compiler = abi.compiler;
  Target target = resolveTarget(to);
  DataModel d = dataModelFor(target, Language::C);
  uint64_t count = abi.oracle == OracleKind::Gcc
                       ? oracle::sampleCount(abi.default_count)
                       : oracle::sampleCountFor(abi.default_count, abi.modelled, abi.compiler);
  uint64_t seed = oracle::sampleSeed(1);
  Runner runner(abi, target);
  ProtoOptions options = optionsFor(abi);

  uint64_t disagreements = 0, rejected = 0, both_rejected = 0, crashed = 0;
  std::map<std::string, uint64_t> known;
  size_t reported = 0;
  for (uint64_t first = 0; first < count; first += kBatch) {
    std::vector<Proto> batch;
    for (uint64_t k = first; k < std::min<uint64_t>(count, first + kBatch); ++k)
      batch.push_back(generateProto(mix(mix(seed, salt(abi.base)), k), int(k), target, options));
    std::vector<Verdict> verdicts = runner.run(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      const Verdict& v = verdicts[i];
      if (v.crashed) {
        ++crashed;
        std::printf("[ callconv ] %s: %s crashed on prototype seed %llu (not compared)\n",
                    abi.name.c_str(), cmd[0].c_str(), (unsigned long long)batch[i].seed);
        continue;
      }
      if (v.rejected && v.abikit_rejected && !v.crashed) {
        ++both_rejected; // clang-19/22's array element rule: abikit refuses it too
        continue;
      }
      if (v.rejected) {
        ++rejected;
        if (reported++ < kMaxReported)
          ADD_FAILURE() << abi.name << ": the compiler rejected a generated prototype (seed "
                        << batch[i].seed << "):\n"
                        << protoText(batch[i]) << v.message;
        continue;
      }
      if (!v.known.empty()) ++known[v.known];
      if (!v.disagree) continue;
      ++disagreements;
      if (reported++ >= kMaxReported) continue;
      Verdict last = v;
      Proto small = shrink(runner, batch[i], d, last);
      ADD_FAILURE() << abi.name << ": disagreement (prototype seed " << batch[i].seed
                    << "), minimal prototype:\n"
                    << protoText(small) << last.detail;
    }
  }
  std::printf("[ callconv ] %s: %llu prototypes vs %s: %llu disagreements, %llu rejected by the "
              "compiler alone, %llu by both\n",
              abi.name.c_str(), (unsigned long long)count, cmd[0].c_str(),
              (unsigned long long)disagreements, (unsigned long long)rejected,
              (unsigned long long)both_rejected);
  std::printf("[ callconv ] %s coverage: %llu params, %llu extra arguments, %llu variadic calls, "
              "%llu indirect, %llu ignored, %llu extended, %llu sret returns, %llu FPR parts, "
              "%llu stack parts, %llu split register/stack, %llu records in FPRs\n",
              abi.name.c_str(), (unsigned long long)runner.params, (unsigned long long)runner.extra,
              (unsigned long long)runner.variadic, (unsigned long long)runner.indirect,
              (unsigned long long)runner.ignored, (unsigned long long)runner.extended,
              (unsigned long long)runner.sret, (unsigned long long)runner.fpr_parts,
              (unsigned long long)runner.stack_parts, (unsigned long long)runner.split,
              (unsigned long long)runner.flattened);
  for (const auto& [what, n] : known)
    std::printf("[ callconv ] %s: %llu prototypes not compared (known GCC 12 / clang-14 "
                "difference: %s)\n",
                abi.name.c_str(), (unsigned long long)n, what.c_str());
  EXPECT_EQ(disagreements, 0u);
  EXPECT_EQ(rejected, 0u);
}

// ----- the hand-checked cases of tests/unit/test_callconv_riscv.cpp, through the compiler ----

struct Case {
  const char* abi; // a name of kAbis
  const char* source;
  const char* extra; // extra argument types of the call, comma separated
};

const Case kCases[] = {
    {"ilp32d",
     "struct P{float a; int b;}; struct Q{long long x,y,z;};"
     "void f(int, long long, struct P, double, struct Q, ...);",
     ""},
    {"lp64",
     "void f(char, signed char, unsigned char, short, unsigned short, _Bool, int,"
     " unsigned int);",
     ""},
    {"ilp32",
     "void f(char, signed char, unsigned char, short, unsigned short, _Bool, int,"
     " unsigned int);",
     ""},
    {"lp64", "enum E { A = 1, B = 0xffffffffu }; enum E f(enum E);", ""},
    {"lp64", "void f(int, int, int, int, int, int, int, int, unsigned char, short);", ""},
    {"lp64d", "void f(int, long double);", ""},
    {"lp64", "void f(int, __int128);", ""},
    {"ilp32", "void f(int, int, int, int, int, int, int, long long);", ""},
    {"ilp32", "void f(int, int, int, int, int, int, int, double);", ""},
    {"ilp32", "void f(int, int, int, int, int, int, int, int, int, long long, int);", ""},
    {"lp64", "void f(long, long, long, long, long, long, long, long, long, __int128);", ""},
    {"ilp32d", "long double f(long double);", ""},
    {"ilp32",
     "struct S1 { char c; }; struct S2 { int a, b; }; struct S3 { int a, b, c; };"
     "struct S4 { long long x; }; struct S5 { char c[6]; };"
     "void f(struct S1, struct S2, struct S3, struct S4, struct S5);",
     ""},
    {"lp64",
     "struct S1 { char c; }; struct S2 { int a, b; }; struct S3 { int a, b, c; };"
     "struct S4 { long long x; }; struct S5 { char c[6]; };"
     "void f(struct S1, struct S2, struct S3, struct S4, struct S5);",
     ""},
    {"ilp32", "struct S { int a, b; }; void f(int, int, int, int, int, int, int, struct S);", ""},
    {"lp64",
     "struct S { int a, b, c; }; void f(long, long, long, long, long, long, long, long,"
     " char, struct S, int);",
     ""},
    {"lp64", "struct E {}; struct E f(struct E, int, struct E);", ""},
    {"ilp32", "struct T { int a, b, c; }; struct T f(int);", ""},
    {"lp64", "struct T { int a, b, c; }; struct T f(int);", ""},
    {"ilp32f", "void f(float, float, float, float, float, float, float, float, float, float);", ""},
    {"lp64d", "void f(int, int, int, int, int, int, int, int, double);", ""},
    {"ilp32f", "double f(double, float);", ""},
    {"lp64f", "double f(double, float);", ""},
    {"ilp32f", "_Float16 f(_Float16);", ""},
    {"lp64d", "struct H { _Float16 a; int b; }; void f(struct H);", ""},
    {"lp64d", "struct H { _Complex _Float16 c; }; void f(struct H);", ""},
    {"lp64d", "struct S { float a; double b; }; void f(struct S);", ""},
    {"ilp32d", "struct S { double d; int i; }; struct S f(struct S);", ""},
    {"lp64f", "struct S { char c; float f; }; void f(struct S);", ""},
    {"ilp32f", "struct In { float f[1]; }; struct S { struct In a[2]; }; void f(struct S);", ""},
    {"lp64d", "struct __attribute__((packed)) S { char c; float f; }; void f(struct S);", ""},
    {"lp64d", "struct S { float a; float b __attribute__((aligned(8))); }; void f(struct S);", ""},
    {"lp64f", "struct S { _Complex int c; }; void f(struct S);", ""},
    {"ilp32f", "struct S { long long x : 20; float f; }; void f(struct S);", ""},
    {"lp64d", "struct E {}; struct S { struct E e[1]; float f; }; void f(struct S);", ""},
    {"lp64d", "struct S { int : 0; float f; int : 0; }; void f(struct S);", ""},
    {"lp64d", "struct S { float a; int : 0; float b; }; void f(struct S);", ""},
    {"lp64d",
     "struct S { float a, b; };"
     "void f(double, double, double, double, double, double, double, struct S);",
     ""},
    {"lp64d",
     "struct S { float a; int b; };"
     "void f(long, long, long, long, long, long, long, long, struct S);",
     ""},
    {"ilp32d", "double _Complex f(double _Complex);", ""},
    {"ilp32", "double _Complex f(double _Complex);", ""},
    {"ilp32f", "double _Complex f(float _Complex);", ""},
    {"lp64d", "void f(_Complex int, _Complex short);", ""},
    {"ilp32f", "struct __attribute__((packed)) P { int a : 8; float f; }; void f(struct P);", ""},
    {"ilp32d", "int f(int, ...);", "double"},
    {"ilp32", "int f(int, ...);", "long long, int"},
    {"lp64d", "int f(int, ...);", "long double"},
    {"lp64d", "int f(int, ...);", "char, double"},
    {"ilp32", "struct A { long long x; }; struct B { int a, b; }; int f(int, ...);",
     "struct A, struct B"},
    {"ilp32", "int f(int, int, int, int, int, int, int, ...);", "long long, int"},
    {"lp64d", "int f(double, ...);", "double"},
    {"lp64",
     "void f(unsigned _BitInt(17), unsigned _BitInt(9), _BitInt(33),"
     " unsigned _BitInt(40));",
     ""},
    {"lp64", "void f(_BitInt(64), _BitInt(65), _BitInt(128));", ""},
    {"ilp32", "void f(_BitInt(40), _BitInt(65));", ""},
    {"lp64", "union __attribute__((transparent_union)) U { int i; unsigned u; }; void f(union U);",
     ""},
    {"lp64d",
     "typedef int v4 __attribute__((vector_size(16)));"
     "typedef char v8 __attribute__((vector_size(8))); void f(v4, v8, ...);",
     "v4"},
    {"ilp32d",
     "typedef int v4 __attribute__((vector_size(16)));"
     "typedef char v8 __attribute__((vector_size(8))); void f(v4, v8, ...);",
     ""},
    // The E ABIs, against GCC (reference/riscv.md §4.10 D1-D9).
    {"gcc_ilp32e", "void f(int, int, int, int, int, int, int);", ""},
    {"gcc_ilp32e", "void f(int, int, int, int, int, long long);", ""},
    {"gcc_ilp32e", "void f(int, int, int, int, int, int, long long);", ""},
    {"gcc_ilp32e", "void f(int, int, int, int, int, int, int, long long);", ""},
    {"gcc_ilp32e", "void f(int, int, int, int, int, int, int, double);", ""},
    {"gcc_ilp32e", "int f(int, ...);", "double"},
    {"gcc_ilp32e", "int f(int, ...);", "long double"},
    {"gcc_ilp32e", "struct T { int a, b, c; }; struct T f(int, int, int, int, int, int);", ""},
    {"gcc_ilp32e", "long long f(void);", ""},
    {"gcc_ilp32e", "float f(float);", ""},
    {"gcc_ilp32e", "int f(int, int, int, int, int, ...);", "long long"},
};

TEST(DiffCallconvRiscvCases, HandCheckedCasesAgreeWithCompiler) {
  size_t compared = 0;
  const std::vector<Abi> abis = allAbis();
  for (const Case& k : kCases) {
    bool found = false;
    for (const Abi& each : abis) {
      if (std::string(each.base) != k.abi) continue;
      found = true;
      const Abi* abi = &each;
      TargetOptions to;
      to.triple = abi->triple;
      to.march = abi->march;
      to.mabi = abi->mabi;
      to.compiler = abi->compiler;
      Target target = resolveTarget(to);
      TypeContext ctx(target, Language::C);
      LayoutEngine layout(ctx);
      std::string text = k.source;
      if (*k.extra) text += std::string("\nvoid probe__(") + k.extra + ");\n";
      TranslationUnit tu = parseSource(ctx, layout, "case.h", text, ParseOptions{});
      const FunctionDecl* fn = tu.findFunction("f");
      ASSERT_NE(fn, nullptr) << k.source;
      BuiltProto b;
      for (const ParamDecl& pd : fn->type->params) b.params.push_back(pd.type);
      if (const FunctionDecl* p = tu.findFunction("probe__"))
        for (const ParamDecl& pd : p->type->params) b.extra.push_back(pd.type);
      b.ret = fn->type->result;
      LowerOptions o;
      o.variadic_args = b.extra;
      FunctionLowering fl = lowerFunction(ctx, layout, *fn, o);
      ProbeLayout l = probeLayout(b, layout);
      oracle::ScratchDir dir;
      dir.write("callee.c",
                std::string(k.source) + "\n" + probeHeader() + renderCalleeFor(*fn, ctx, l));
      dir.write("caller.c", std::string(k.source) + "\n" + probeHeader() +
                                renderCallerFor(*fn, b.extra, ctx, l, "c"));
      std::string out[2];
      for (int side = 0; side < 2; ++side) {
        std::vector<std::string> cmd = compilerCommand(*abi);
        std::string name = side == 0 ? "callee" : "caller";
        cmd.insert(cmd.end(), {"-o", dir.file(name + ".s"), dir.file(name + ".c")});
        oracle::RunResult r = oracle::run(cmd);
        ASSERT_EQ(r.exit_code, 0) << k.source << "\n" << r.err;
        out[side] = oracle::readFile(dir.file(name + ".s"));
      }
      std::vector<ProbeValue> values;
      for (size_t i = 0; i < fl.params.size(); ++i) {
        const Type* src = i < b.params.size() ? b.params[i] : b.extra[i - b.params.size()];
        values.push_back({fl.params[i].type, src, l.param_offsets[i]});
      }
      ProbeValue ret{b.ret, b.ret, l.ret_offset};
      auto callee = splitRiscvFunctions(out[0]);
      auto caller = splitRiscvFunctions(out[1]);
      AsmData d0 = parseRiscvData(out[0]), d1 = parseRiscvData(out[1]);
      const unsigned xlen = target.riscv().xlen;
      std::string report =
          compareCallee(fl, followRiscv(callee["f"], xlen, "", &d0), layout, values, ret) +
          compareCaller(fl, followRiscv(caller["c"], xlen, "f", &d1), layout, values);
      EXPECT_EQ(report, "") << abi->name << ": " << k.source << " (" << k.extra << ")";
      ++compared;
    }
    EXPECT_TRUE(found) << k.abi;
  }
  std::printf("[ callconv ] %zu hand-checked cases compared with every modelled clang / GCC\n",
              compared);
}

INSTANTIATE_TEST_SUITE_P(Abis, DiffCallconvRiscv, ::testing::ValuesIn(allAbis()),
                         [](const ::testing::TestParamInfo<Abi>& info) { return info.param.name; });

} // namespace
