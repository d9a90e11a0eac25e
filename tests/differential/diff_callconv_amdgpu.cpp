// Differential test of the AMDGPU device-function calling convention against clang-14 + llc-14
// (gfx906).
//
// For every random prototype `R f(P0, ..., Pn)` (amdgpu_callgen) the oracle file defines
//  * a callee `f` that copies every byte of every parameter into one global buffer with volatile
//    byte stores (and returns a value read from the buffer), and
//  * for a non-void R, a caller `c` that calls an external `R r(void)` and copies every byte of
//    the result into the buffer the same way.
// clang-14 -O1 turns the file into IR (whose signatures give the sign/zero extensions, byval and
// sret attributes), llc-14 -O1 into gfx906 assembly; the tracer (amdgpu_asm) follows each stored
// byte back to an incoming VGPR byte, an incoming stack offset (s32 + k) or a returned VGPR byte.
// abikit's lowering of the same prototype says where each byte of each value is; every byte any
// abikit part covers must come from exactly that place. sret and demoted returns are checked
// through the stores the callee makes through v[0:1] (a flat sret pointer) or v0 (a private one).
//
// ABIKIT_DIFF_COUNT (default 1200 prototypes) and ABIKIT_DIFF_SEED (default 1) size the run;
// ABIKIT_DIFF_SHARD=k/n runs the k-th of n interleaved shards of it (for long local runs),
// ABIKIT_DIFF_ONLY=i only case i, ABIKIT_DIFF_KEEP=DIR keeps the oracle files.
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "amdgpu_asm.h"
#include "amdgpu_callgen.h"
#include "batch.h"
#include "oracle.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>

namespace {

using namespace abikit;
using namespace abikit::difftest;

constexpr size_t kBatch = 100;
constexpr size_t kMaxReported = 5;
constexpr size_t kShrinkBudget = 150;
constexpr int64_t kStride = 16384;      // buffer bytes per case
constexpr int64_t kCallerBase = 8192;   // the caller's stores, within the case's stride
constexpr int64_t kReturnSource = 6144; // where the callee reads its return value
constexpr uint64_t kMaxBytes = 96;      // bytes checked per value (byval: 8 at each end)

std::string fname(size_t i) {
  return "f_" + std::to_string(i);
}

// ----- IR signatures ------------------------------------------------------------------------

struct IrSignature {
  bool found = false;
  std::string ret_ext;              // "signext", "zeroext" or ""
  std::vector<std::string> markers; // per IR parameter with one: "sret", "signext", "zeroext",
                                    // "byval align N"
};

std::vector<std::string> splitTop(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

IrSignature irSignature(const std::string& ir, const std::string& name) {
  IrSignature sig;
  std::istringstream in(ir);
  std::string line;
  std::string key = " @" + name + "(";
  while (std::getline(in, line)) {
    if (line.rfind("define ", 0) != 0) continue;
    size_t at = line.find(key);
    if (at == std::string::npos) continue;
    sig.found = true;
    std::string head = line.substr(0, at) + " ";
    if (head.find(" signext ") != std::string::npos) sig.ret_ext = "signext";
    if (head.find(" zeroext ") != std::string::npos) sig.ret_ext = "zeroext";
    size_t open = at + key.size();
    int depth = 1;
    size_t close = open;
    for (; close < line.size() && depth; ++close) {
      if (line[close] == '(') ++depth;
      if (line[close] == ')') --depth;
    }
    for (std::string p : splitTop(line.substr(open, close - open - 1))) {
      p = " " + p + " ";
      if (p.find(" sret(") != std::string::npos) sig.markers.push_back("sret");
      if (p.find(" signext ") != std::string::npos) sig.markers.push_back("signext");
      if (p.find(" zeroext ") != std::string::npos) sig.markers.push_back("zeroext");
      size_t bv = p.find(" byval(");
      if (bv != std::string::npos) {
        size_t al = p.find(" align ", bv);
        std::string n = al == std::string::npos ? "?" : p.substr(al + 7);
        sig.markers.push_back("byval align " + n.substr(0, n.find(' ')));
      }
    }
    break;
  }
  return sig;
}

// ----- one case as abikit sees it ---------------------------------------------------------

struct Expect {
  std::string error; // abikit rejected the prototype
  FunctionLowering fn;
  std::vector<uint64_t> sizes; // sizeof each parameter
  uint64_t ret_size = 0;
};

/// Where abikit says byte `b` of a value is, or Unknown when no part covers it.
amdgcn::ByteSrc expected(const ArgLowering& a, uint64_t b, bool ret) {
  amdgcn::ByteSrc s;
  if (a.kind == ArgKind::Ignore || a.kind == ArgKind::Indirect) return s;
  for (const ArgPart& p : a.parts) {
    if (b < p.offset || b >= uint64_t(p.offset) + p.size) continue;
    uint64_t k = b - p.offset;
    if (p.loc.kind == ArgLocation::Kind::Register) {
      s.kind = ret ? amdgcn::ByteSrc::Ret : amdgcn::ByteSrc::Arg;
      s.reg = uint16_t(std::stoi(std::string(p.loc.reg.substr(1))));
      s.byte = uint8_t(k);
    } else if (p.loc.kind == ArgLocation::Kind::Stack) {
      s.kind = amdgcn::ByteSrc::Stack;
      s.offset = p.loc.stack_offset + int64_t(k);
    }
    return s;
  }
  return s;
}

std::vector<uint64_t> checkedBytes(uint64_t size, bool byval) {
  std::vector<uint64_t> v;
  if (byval) {
    for (uint64_t b = 0; b < size && b < 8; ++b) v.push_back(b);
    for (uint64_t b = size > 8 ? std::max<uint64_t>(size - 8, 8) : size; b < size; ++b)
      v.push_back(b);
    return v;
  }
  for (uint64_t b = 0; b < size && b < kMaxBytes; ++b) v.push_back(b);
  return v;
}

std::string partsText(const ArgLowering& a) {
  std::string s;
  switch (a.kind) {
  case ArgKind::Direct:
    s = a.byval ? "byval" : "direct";
    break;
  case ArgKind::Extend:
    s = a.extend == ExtendKind::Sign ? "signext" : "zeroext";
    break;
  case ArgKind::Indirect:
    s = a.sret ? "sret" : "indirect";
    break;
  case ArgKind::Ignore:
    return "ignore";
  }
  for (const ArgPart& p : a.parts) {
    s += " [" + std::to_string(p.offset) + "+" + std::to_string(p.size) + " ";
    if (p.loc.kind == ArgLocation::Kind::Register)
      s += std::string(p.loc.reg);
    else
      s += "stack " + std::to_string(p.loc.stack_offset);
    s += "]";
  }
  return s;
}

struct Verdict {
  bool oracle_rejected = false;
  std::string oracle_message;
  bool disagree = false;
  std::string detail;
  uint64_t bytes = 0, stack_bytes = 0, params = 0, byval = 0, sret = 0, demoted = 0, ret_bytes = 0;
};

class Runner {
public:
  explicit Runner(const Target& target) : target_(target) {}

  std::vector<Verdict> run(std::vector<ProtoCase>& cases) {
    std::vector<Verdict> verdicts(cases.size());
    oracle::compileDroppingRejected(
        cases,
        [&](std::vector<ProtoCase>& batch, const std::vector<size_t>& ids,
            std::vector<size_t>& rejected) { return runOnce(batch, ids, verdicts, rejected); },
        [&](size_t i) { verdicts[i].oracle_rejected = true; });
    return verdicts;
  }

  static std::string caseText(ProtoCase c) {
    std::vector<ProtoCase> one{std::move(c)};
    std::string text = renderDecls(one);
    const ProtoCase& p = one[0];
    text += p.ret + " f(";
    for (size_t k = 0; k < p.params.size(); ++k) text += (k ? ", " : "") + p.params[k];
    text += p.params.empty() ? "void);\n" : ");\n";
    return text;
  }

private:
  std::string prototype(const ProtoCase& c, const std::string& name, bool names) const {
    std::string s = c.ret + " " + name + "(";
    for (size_t k = 0; k < c.params.size(); ++k) {
      if (k) s += ", ";
      s += c.params[k];
      if (names) s += " a" + std::to_string(k);
    }
    if (c.params.empty()) s += "void";
    return s + ")";
  }

  // abikit's view of the prototypes `names` declared in `text`.
  std::vector<Expect> expect(const std::string& text, const std::vector<std::string>& names) {
    std::vector<Expect> out(names.size());
    TypeContext ctx(target_, Language::C);
    LayoutEngine layout(ctx);
    TranslationUnit tu;
    try {
      tu = parseSource(ctx, layout, "cases.c", text, {});
    } catch (const Error& e) {
      for (Expect& x : out) x.error = "abikit could not parse the declarations: " + e.format();
      return out;
    }
    for (size_t i = 0; i < names.size(); ++i) {
      const FunctionDecl* f = tu.findFunction(names[i]);
      if (!f) {
        out[i].error = "abikit lost the prototype";
        continue;
      }
      try {
        out[i].fn = lowerFunction(ctx, layout, *f);
        for (const ParamDecl& p : f->type->params) out[i].sizes.push_back(layout.of(p.type).size);
        if (stripTypedefs(f->type->result)->kind != TypeKind::Void)
          out[i].ret_size = layout.of(f->type->result).size;
      } catch (const Error& e) {
        out[i].error = e.format();
      }
    }
    return out;
  }

  // abikit's view of every case of the batch: one parse of all declarations and prototypes, or
  // case by case when that fails (so that one case abikit rejects does not hide the others).
  std::vector<Expect> expectations(std::vector<ProtoCase>& batch, const std::string& decls) {
    std::string text = decls;
    std::vector<std::string> names;
    for (size_t i = 0; i < batch.size(); ++i) {
      text += prototype(batch[i], fname(i), true) + ";\n";
      names.push_back(fname(i));
    }
    std::vector<Expect> out = expect(text, names);
    if (out.empty() || out[0].error.rfind("abikit could not parse", 0) != 0) return out;
    for (size_t i = 0; i < batch.size(); ++i) {
      std::vector<ProtoCase> one{batch[i]};
      std::string t = renderDecls(one) + prototype(batch[i], fname(i), true) + ";\n";
      out[i] = std::move(expect(t, {fname(i)})[0]);
    }
    return out;
  }

  static std::string storeByte(int64_t at, const std::string& value, uint64_t b) {
    return "  *(volatile __attribute__((address_space(1))) unsigned char *)(G + " +
           std::to_string(at) + ") = ((unsigned char *)&" + value + ")[" + std::to_string(b) +
           "];\n";
  }

  bool runOnce(std::vector<ProtoCase>& batch, const std::vector<size_t>& ids,
               std::vector<Verdict>& verdicts, std::vector<size_t>& rejected) {
    std::string decls = renderDecls(batch);
    std::vector<Expect> ex = expectations(batch, decls);

    // The oracle file, with the line range each case owns (for compiler diagnostics).
    std::string text = "extern __attribute__((address_space(1))) unsigned char G[1 << 24];\n";
    uint32_t line = 2;
    const uint32_t decl_start = line;
    for (char ch : decls) line += ch == '\n';
    // Each case owns the lines of its records, of its extra declarations and of its functions.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> own(batch.size());
    {
      std::vector<GProgram> programs;
      for (const ProtoCase& c : batch) programs.push_back(c.decls);
      std::string rendered = render(programs);
      uint32_t l = decl_start;
      for (char ch : rendered) l += ch == '\n';
      for (size_t i = 0; i < batch.size(); ++i) {
        own[i].push_back(
            {decl_start + programs[i].first_line - 1, decl_start + programs[i].last_line - 1});
        uint32_t extra_lines = 0;
        for (char ch : batch[i].extra) extra_lines += ch == '\n';
        own[i].push_back({l, l + extra_lines - 1});
        l += extra_lines;
      }
    }
    text += decls;
    for (size_t i = 0; i < batch.size(); ++i) {
      const ProtoCase& c = batch[i];
      const Expect& e = ex[i];
      std::string body = prototype(c, fname(i), true) + " {\n";
      int64_t base = int64_t(i) * kStride;
      if (e.error.empty()) {
        int64_t at = base;
        for (size_t k = 0; k < c.params.size() && k < e.sizes.size(); ++k) {
          const ArgLowering& a = e.fn.params[k];
          // The checked bytes of a parameter go to consecutive buffer bytes (a large byval
          // object's tail must not land where the next parameter's bytes go).
          std::vector<uint64_t> checked = checkedBytes(e.sizes[k], a.byval);
          for (size_t j = 0; j < checked.size(); ++j)
            body += storeByte(at + int64_t(j), "a" + std::to_string(k), checked[j]);
          at += int64_t((checked.size() + 15) / 16 * 16);
        }
      }
      if (c.ret != "void") {
        // The result is assembled byte by byte (an sret callee stores each byte through the
        // pointer; llc-14 cannot select some whole-value loads, e.g. of <1 x i8>).
        body += "  " + c.ret + " rv;\n";
        if (e.error.empty())
          for (uint64_t b : checkedBytes(e.ret_size, false))
            body += "  ((unsigned char *)&rv)[" + std::to_string(b) +
                    "] = *(volatile __attribute__((address_space(1))) unsigned char *)(G + " +
                    std::to_string(base + kReturnSource + int64_t(b)) + ");\n";
        body += "  return rv;\n";
      }
      body += "}\n";
      if (c.ret != "void") {
        body += c.ret + " r_" + std::to_string(i) + "(void);\n";
        body += "void c_" + std::to_string(i) + "(void) {\n  " + c.ret + " v = r_" +
                std::to_string(i) + "();\n";
        if (e.error.empty())
          for (uint64_t b : checkedBytes(e.ret_size, false))
            body += storeByte(base + kCallerBase + int64_t(b), "v", b);
        body += "}\n";
      }
      uint32_t first = line;
      for (char ch : body) line += ch == '\n';
      own[i].push_back({first, line - 1});
      text += body;
    }

    oracle::ScratchDir dir;
    dir.write("cases.c", text);
    oracle::RunResult cr = oracle::run(
        {"clang-14", "-target", "amdgcn-amd-amdhsa", "-mcpu=" + target_.cpu, "-nogpulib", "-O1",
         "-S", "-emit-llvm", "-w", "-x", "c", dir.file("cases.c"), "-o", dir.file("cases.ll")});
    if (cr.exit_code != 0) {
      std::istringstream es(cr.err);
      std::string l;
      std::string tag = dir.file("cases.c") + ":";
      while (std::getline(es, l)) {
        if (l.rfind(tag, 0) != 0 || l.find("error") == std::string::npos) continue;
        uint32_t n = uint32_t(std::stoul(l.substr(tag.size())));
        for (size_t k = 0; k < batch.size(); ++k)
          if (std::any_of(own[k].begin(), own[k].end(),
                          [&](const auto& r) { return n >= r.first && n <= r.second; })) {
            if (std::find(rejected.begin(), rejected.end(), ids[k]) == rejected.end())
              rejected.push_back(ids[k]);
            verdicts[ids[k]].oracle_rejected = true;
            verdicts[ids[k]].oracle_message += l + "\n";
          }
      }
      if (rejected.empty())
        for (size_t k = 0; k < batch.size(); ++k) {
          verdicts[ids[k]].oracle_rejected = true;
          verdicts[ids[k]].oracle_message = cr.err.substr(0, 2000);
        }
      return false;
    }
    if (const char* keep = std::getenv("ABIKIT_DIFF_KEEP")) {
      // Keep the oracle files for inspection.
      for (const char* f : {"cases.c", "cases.ll"})
        oracle::run({"cp", dir.file(f), std::string(keep) + "/" + f});
    }
    std::string ir = oracle::readFile(dir.file("cases.ll"));
    oracle::RunResult lr =
        oracle::run({"llc-14", "-O1", "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + target_.cpu,
                     dir.file("cases.ll"), "-o", dir.file("cases.s")});
    if (lr.exit_code != 0) {
      for (size_t k = 0; k < batch.size(); ++k) {
        verdicts[ids[k]].oracle_rejected = true;
        verdicts[ids[k]].oracle_message = "llc-14: " + lr.err.substr(0, 2000);
      }
      return true;
    }
    if (const char* keep = std::getenv("ABIKIT_DIFF_KEEP"))
      oracle::run({"cp", dir.file("cases.s"), std::string(keep) + "/cases.s"});
    std::map<std::string, amdgcn::FunctionTrace> traces =
        amdgcn::traceFunctions(oracle::readFile(dir.file("cases.s")), "G");

    for (size_t i = 0; i < batch.size(); ++i) {
      Verdict& v = verdicts[ids[i]];
      const Expect& e = ex[i];
      const ProtoCase& c = batch[i];
      if (!e.error.empty()) {
        v.disagree = true;
        v.detail = "abikit rejected a prototype clang-14 and llc-14 accept:\n  " + e.error + "\n";
        continue;
      }
      std::string detail;
      const amdgcn::FunctionTrace& ft = traces[fname(i)];
      int64_t base = int64_t(i) * kStride;
      int64_t at = base;
      for (size_t k = 0; k < c.params.size(); ++k) {
        const ArgLowering& a = e.fn.params[k];
        ++v.params;
        if (a.byval) ++v.byval;
        std::string mismatch;
        std::vector<uint64_t> checked = checkedBytes(e.sizes[k], a.byval);
        for (size_t j = 0; j < checked.size(); ++j) {
          uint64_t b = checked[j];
          amdgcn::ByteSrc want = expected(a, b, false);
          if (want.kind == amdgcn::ByteSrc::Unknown) continue;
          auto it = ft.stores.find(at + int64_t(j));
          amdgcn::ByteSrc got = it == ft.stores.end() ? amdgcn::ByteSrc{} : it->second;
          ++v.bytes;
          if (want.kind == amdgcn::ByteSrc::Stack) ++v.stack_bytes;
          if (!(got == want) && mismatch.size() < 600)
            mismatch += "    byte " + std::to_string(b) + ": abikit " + want.text() + ", llc-14 " +
                        (it == ft.stores.end() ? "(not stored)" : got.text()) + "\n";
        }
        if (!mismatch.empty())
          detail += "  parameter " + std::to_string(k) + " (" + c.params[k] + "): abikit " +
                    partsText(a) + "\n" + mismatch;
        at += int64_t((checked.size() + 15) / 16 * 16);
      }
      // The return value.
      const ArgLowering& r = e.fn.ret;
      if (r.kind == ArgKind::Indirect) {
        bool demoted = r.parts.size() == 1;
        ++(demoted ? v.demoted : v.sret);
        bool through = demoted ? ft.stores_through_v0_private : ft.stores_through_v0v1;
        // A zero-sized result (a record of a flexible array member only) stores nothing.
        if (!through && e.ret_size > 0)
          detail += std::string("  return: abikit says ") +
                    (demoted ? "demoted to a private pointer in v0" : "sret pointer in v[0:1]") +
                    ", but the callee stores no result through it\n";
      } else if (ft.stores_through_v0v1 || ft.stores_through_v0_private) {
        detail += "  return: abikit " + partsText(r) +
                  ", but the callee stores its result through a pointer argument\n";
      }
      if (c.ret != "void") {
        const amdgcn::FunctionTrace& ct = traces["c_" + std::to_string(i)];
        std::string mismatch;
        for (uint64_t b : checkedBytes(e.ret_size, false)) {
          auto it = ct.stores.find(base + kCallerBase + int64_t(b));
          amdgcn::ByteSrc got = it == ct.stores.end() ? amdgcn::ByteSrc{} : it->second;
          if (r.kind == ArgKind::Indirect) {
            if (got.kind == amdgcn::ByteSrc::Ret && mismatch.size() < 600)
              mismatch += "    byte " + std::to_string(b) + ": abikit returns it in memory, " +
                          "llc-14 " + got.text() + "\n";
            continue;
          }
          amdgcn::ByteSrc want = expected(r, b, true);
          if (want.kind == amdgcn::ByteSrc::Unknown) continue;
          ++v.ret_bytes;
          if (!(got == want) && mismatch.size() < 600)
            mismatch += "    byte " + std::to_string(b) + ": abikit " + want.text() + ", llc-14 " +
                        (it == ct.stores.end() ? "(not stored)" : got.text()) + "\n";
        }
        if (!mismatch.empty())
          detail += "  return (" + c.ret + "): abikit " + partsText(r) + "\n" + mismatch;
      }
      // Attributes of the IR signature.
      IrSignature sig = irSignature(ir, fname(i));
      std::vector<std::string> want;
      std::string want_ret;
      if (r.kind == ArgKind::Indirect && r.parts.size() == 2) want.push_back("sret");
      if (r.kind == ArgKind::Extend)
        want_ret = r.extend == ExtendKind::Sign ? "signext" : "zeroext";
      for (const ArgLowering& a : e.fn.params) {
        if (a.kind == ArgKind::Extend)
          want.push_back(a.extend == ExtendKind::Sign ? "signext" : "zeroext");
        if (a.byval) want.push_back("byval align " + std::to_string(a.align));
      }
      if (!sig.found) {
        detail += "  the IR has no definition of " + fname(i) + "\n";
      } else if (sig.markers != want || sig.ret_ext != want_ret) {
        auto join = [](const std::vector<std::string>& xs) {
          std::string s;
          for (const std::string& x : xs) s += (s.empty() ? "" : ", ") + x;
          return "[" + s + "]";
        };
        detail += "  IR attributes: abikit " + join(want) + " return '" + want_ret +
                  "', clang-14 " + join(sig.markers) + " return '" + sig.ret_ext + "'\n";
      }
      if (!detail.empty()) {
        v.disagree = true;
        v.detail = detail;
        if (!ft.unknown.empty()) {
          v.detail += "  (instructions the tracer does not model:";
          for (const std::string& u : ft.unknown) v.detail += " " + u;
          v.detail += ")\n";
        }
      }
    }
    return true;
  }

  const Target& target_;
};

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

uint64_t firstIndex(const std::string& prefix) {
  return std::strtoull(prefix.c_str() + 1, nullptr, 10);
}

ProtoCase shrink(Runner& runner, ProtoCase c, const DataModel& d, Verdict& last) {
  size_t budget = kShrinkBudget;
  bool progress = true;
  while (progress && budget) {
    progress = false;
    for (ProtoCase& cand : shrinkProto(c, d)) {
      if (!budget--) break;
      std::vector<ProtoCase> one{cand};
      Verdict v = runner.run(one)[0];
      if (!v.oracle_rejected && v.disagree) {
        c = std::move(cand);
        last = v;
        progress = true;
        break;
      }
    }
  }
  return c;
}

TEST(DiffCallconvAmdgpu, Gfx906AgreesWithClangAndLlc) {
  for (const char* tool : {"clang-14", "llc-14"})
    ASSERT_FALSE(oracle::findProgram(tool).empty()) << tool << " is not installed";
  TargetOptions o;
  o.triple = "amdgcn-amd-amdhsa";
  o.mcpu = "gfx906";
  Target target = resolveTarget(o);
  DataModel d = dataModelFor(target, Language::C);
  uint64_t count = oracle::sampleCount(1200);
  uint64_t seed = oracle::sampleSeed(1);
  Runner runner(target);
  uint64_t disagreements = 0, rejected = 0, reported = 0;
  Verdict total;
  // ABIKIT_DIFF_SHARD=k/n runs every n-th batch starting with the k-th, so that a long local
  // run can use several processes.
  uint64_t shard = 0, shards = 1;
  if (const char* sh = std::getenv("ABIKIT_DIFF_SHARD")) {
    char* end = nullptr;
    shard = std::strtoull(sh, &end, 10);
    if (end && *end == '/') shards = std::max<uint64_t>(1, std::strtoull(end + 1, nullptr, 10));
  }
  for (uint64_t first = 0; first < count; first += kBatch) {
    if ((first / kBatch) % shards != shard) continue;
    std::vector<ProtoCase> batch;
    const char* only = std::getenv("ABIKIT_DIFF_ONLY"); // one case index, for debugging
    for (uint64_t k = first; k < std::min<uint64_t>(count, first + kBatch); ++k)
      if (!only || std::to_string(k) == only)
        batch.push_back(generateProto(mix(seed, k), "c" + std::to_string(k) + "_", target));
    if (batch.empty()) continue;
    std::vector<Verdict> verdicts = runner.run(batch);
    for (size_t i = 0; i < batch.size(); ++i) {
      const Verdict& v = verdicts[i];
      total.bytes += v.bytes;
      total.stack_bytes += v.stack_bytes;
      total.params += v.params;
      total.byval += v.byval;
      total.sret += v.sret;
      total.demoted += v.demoted;
      total.ret_bytes += v.ret_bytes;
      if (v.oracle_rejected) {
        ++rejected;
        if (reported++ < kMaxReported)
          ADD_FAILURE() << "clang-14 rejected generated case (seed " << batch[i].seed << "):\n"
                        << Runner::caseText(batch[i]) << v.oracle_message;
        continue;
      }
      if (!v.disagree) continue;
      ++disagreements;
      if (reported++ >= kMaxReported) {
        // One line for each further disagreement, to see what kinds there are.
        if (reported < 60) {
          std::string first = v.detail.substr(0, v.detail.find('\n', v.detail.find('\n') + 1));
          std::printf("[ callconv ] also case %llu (seed %llu):%s\n",
                      (unsigned long long)(firstIndex(batch[i].prefix)),
                      (unsigned long long)batch[i].seed, first.c_str());
        }
        continue;
      }
      Verdict last = v;
      ProtoCase small = shrink(runner, batch[i], d, last);
      ADD_FAILURE() << "disagreement (case seed " << batch[i].seed << "), minimal case:\n"
                    << Runner::caseText(small) << last.detail;
    }
  }
  std::printf("[ callconv ] amdgcn gfx906: %llu prototypes, %llu parameters (%llu byval), "
              "%llu sret and %llu demoted returns; %llu argument bytes checked (%llu on the "
              "stack), %llu returned bytes; %llu disagreements, %llu rejected by clang-14\n",
              (unsigned long long)count, (unsigned long long)total.params,
              (unsigned long long)total.byval, (unsigned long long)total.sret,
              (unsigned long long)total.demoted, (unsigned long long)total.bytes,
              (unsigned long long)total.stack_bytes, (unsigned long long)total.ret_bytes,
              (unsigned long long)disagreements, (unsigned long long)rejected);
  EXPECT_EQ(disagreements, 0u);
  EXPECT_EQ(rejected, 0u);
}

} // namespace
