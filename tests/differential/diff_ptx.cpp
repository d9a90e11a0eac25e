// Differential test of the NVPTX calling convention and of `abikit ptx`: random prototypes
// (ptx_gen: device functions and kernels over every scalar, vector and record kind) printed by
// abikit and by the real compilers.
//
//  * Device functions: clang-14 -target nvptx64-nvidia-cuda -S -O1 (and nvptx-nvidia-cuda) on
//    C text where each prototype is either defined (static ones `noinline, used`) or declared
//    and called from a definition (so that llc prints its `.extern .func` declaration). Every
//    prototype abikit prints is compared byte for byte with llc's; nothing is normalised.
//  * Kernels: the same types compiled as CUDA (`extern "C" __attribute__((global))`, clang-14
//    --cuda-device-only -nocudainc -nocudalib for the target's default host, x86_64-linux-gnu or
//    i386-linux-gnu), compared with abikit's output for the same CUDA text (its C++ layouts and
//    the host's data model: docs/offload.md); a kernel abikit refuses as CUDA is counted.
//  * The IR-level decisions: signext/zeroext/byval/align of every parameter and of the return
//    value in clang-14's -emit-llvm output against abikit's lowering (kind, extension, byval
//    alignment), and the `call` parts (.param names and sizes) against llc's declarations.
//  * Every prototype abikit rejects is compiled on its own: clang-14/llc-14 or ptxas must fail.
//  * `--module` output for the accepted prototypes is assembled by ptxas -arch=sm_75 -c (skipped
//    with a message when /usr/local/cuda/bin/ptxas is absent).
//  * --ptx-style=nvcc against nvcc 13 (`nvcc -arch=sm_75 --ptx -rdc=true`), when installed.
//
// ABIKIT_DIFF_COUNT (default 80 cases of 6 prototypes per target) and ABIKIT_DIFF_SEED size the
// run.
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "oracle.h"
#include "ptx_gen.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace {

using namespace abikit;
using namespace abikit::difftest;

const char* const kPtxas = "/usr/local/cuda/bin/ptxas";
const char* const kNvcc = "/usr/local/cuda/bin/nvcc";
constexpr size_t kBatch = 12;      // cases per compiler invocation
constexpr size_t kMaxReported = 8; // failures printed per test

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

Target makeTarget(const char* triple, const char* mcpu = "", const std::string& compiler = "") {
  TargetOptions o;
  o.triple = triple;
  o.mcpu = mcpu;
  o.compiler = compiler;
  return resolveTarget(o);
}

// ----- PTX text -------------------------------------------------------------------------------

/// The prototype blocks of a PTX file, keyed "name#def" (the lines llc prints before a
/// definition's body) or "name#decl" (a declaration, through its `;` line).
std::map<std::string, std::string> extractBlocks(const std::string& ptx) {
  std::map<std::string, std::string> out;
  std::vector<std::string> lines;
  std::istringstream in(ptx);
  for (std::string l; std::getline(in, l);) {
    // LLVM 15 and later end lines with `// @name` and `// -- Begin function` comments, and put
    // such comments on lines of their own: prototypes are compared without them.
    size_t c = l.find("//");
    if (c != std::string::npos) {
      if (l.find_first_not_of(" \t") == c) continue;
      l.erase(c);
      l.erase(l.find_last_not_of(" \t") + 1);
    }
    lines.push_back(l);
  }
  static const char* const kStarts[] = {".visible .func", ".visible .entry", ".extern .func",
                                        ".func",          ".entry",          ".weak .func"};
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    bool start = false;
    for (const char* s : kStarts) start = start || l.rfind(s, 0) == 0;
    if (!start) continue;
    // The name: after the optional " (return) ", up to '(' or the end of the line.
    std::string rest = l;
    size_t p = rest.find(".func ");
    if (p == std::string::npos) p = rest.find(".entry ");
    rest = rest.substr(rest.find(' ', p) + 1);
    if (rest.rfind(" (", 0) == 0) rest = rest.substr(rest.find(") ") + 2);
    std::string name = rest.substr(0, rest.find('('));
    std::string block;
    size_t j = i;
    bool decl = false;
    for (; j < lines.size(); ++j) {
      block += lines[j] + "\n";
      const std::string& x = lines[j];
      if (x == ")" || (x.size() >= 2 && x.compare(x.size() - 2, 2, "()") == 0)) break;
    }
    if (j + 1 < lines.size() && lines[j + 1] == ";") {
      block += ";\n";
      decl = true;
      ++j;
    }
    out[name + (decl ? "#decl" : "#def")] = block;
    i = j;
  }
  return out;
}

// ----- IR signatures --------------------------------------------------------------------------

struct IrValue {
  bool signext = false, zeroext = false, byval = false, sret = false;
  uint32_t align = 0;
};
struct IrSig {
  IrValue ret;
  std::vector<IrValue> params;
};

IrValue irAttrs(const std::string& s) {
  IrValue v;
  auto word = [&](const char* w) {
    size_t p = s.find(w);
    while (p != std::string::npos) {
      size_t e = p + std::strlen(w);
      bool left = p == 0 || s[p - 1] == ' ';
      bool right = e == s.size() || s[e] == ' ' || s[e] == '(';
      if (left && right) return p;
      p = s.find(w, p + 1);
    }
    return std::string::npos;
  };
  v.signext = word("signext") != std::string::npos;
  v.zeroext = word("zeroext") != std::string::npos;
  v.byval = word("byval") != std::string::npos;
  v.sret = word("sret") != std::string::npos;
  size_t a = word("align");
  if (a != std::string::npos) v.align = uint32_t(std::stoul(s.substr(a + 6)));
  return v;
}

/// `define`/`declare` lines of an -emit-llvm file: attributes of the return and each parameter.
std::map<std::string, IrSig> parseIr(const std::string& ll) {
  std::map<std::string, IrSig> out;
  std::istringstream in(ll);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("define ", 0) != 0 && l.rfind("declare ", 0) != 0) continue;
    size_t at = l.find(" @");
    if (at == std::string::npos) continue;
    size_t open = l.find('(', at);
    std::string name = l.substr(at + 2, open - at - 2);
    if (!name.empty() && name.front() == '"') name = name.substr(1, name.size() - 2);
    IrSig sig;
    sig.ret = irAttrs(l.substr(0, at));
    int depth = 0;
    std::string cur;
    for (size_t i = open + 1; i < l.size(); ++i) {
      char c = l[i];
      if (depth == 0 && (c == ',' || c == ')')) {
        if (cur.find_first_not_of(' ') != std::string::npos && cur.find("...") == std::string::npos)
          sig.params.push_back(irAttrs(cur));
        cur.clear();
        if (c == ')') break;
        continue;
      }
      if (c == '(' || c == '{' || c == '[' || c == '<') ++depth;
      if (c == ')' || c == '}' || c == ']' || c == '>') --depth;
      cur += c;
    }
    out[name] = sig;
  }
  return out;
}

std::string irCheck(const FunctionLowering& fl, const IrSig& sig) {
  std::string err;
  auto one = [&](const ArgLowering& a, const IrValue& v, const std::string& what) {
    bool sext = a.kind == ArgKind::Extend && a.extend == ExtendKind::Sign;
    bool zext = a.kind == ArgKind::Extend && a.extend == ExtendKind::Zero;
    bool byval = a.kind == ArgKind::Indirect && a.byval;
    if (sext != v.signext || zext != v.zeroext || byval != v.byval || v.sret)
      err += what + ": abikit " +
             (sext    ? "signext"
              : zext  ? "zeroext"
              : byval ? "byval"
                      : "plain") +
             ", clang " +
             (v.signext   ? "signext"
              : v.zeroext ? "zeroext"
              : v.byval   ? "byval"
              : v.sret    ? "sret"
                          : "plain") +
             "\n";
    if (byval && v.byval && a.align != v.align)
      err += what + ": byval align abikit " + std::to_string(a.align) + ", clang " +
             std::to_string(v.align) + "\n";
  };
  if (fl.ret.kind != ArgKind::Ignore) one(fl.ret, sig.ret, "return");
  if (sig.params.size() != fl.params.size()) {
    err += "parameter count: abikit " + std::to_string(fl.params.size()) + ", clang " +
           std::to_string(sig.params.size()) + "\n";
    return err;
  }
  for (size_t k = 0; k < fl.params.size(); ++k)
    one(fl.params[k], sig.params[k], "parameter " + std::to_string(k));
  return err;
}

/// The `call` parts against llc's declaration: one part per value, named as llc names the
/// .param, as large as its byte array (or, for a scalar .param, as the C value).
std::string partsCheck(const FunctionLowering& fl, const std::string& block) {
  std::string err;
  auto arraySize = [&](const std::string& param) -> int64_t {
    size_t p = block.find(" " + param + "[");
    if (p == std::string::npos) return -1;
    return std::stoll(block.substr(p + param.size() + 2));
  };
  auto one = [&](const ArgLowering& a, const std::string& expect) {
    if (a.parts.size() != 1 || a.parts[0].loc.kind != ArgLocation::Kind::Param ||
        a.parts[0].loc.param != expect) {
      err += "parts of " + expect + " do not name it\n";
      return;
    }
    if (block.find(" " + expect) == std::string::npos) err += expect + " not in llc's text\n";
    int64_t n = arraySize(expect);
    if (n >= 0 && uint64_t(n) != a.parts[0].size)
      err += expect + ": part size " + std::to_string(a.parts[0].size) + ", llc array [" +
             std::to_string(n) + "]\n";
  };
  if (fl.ret.kind != ArgKind::Ignore) one(fl.ret, "func_retval0");
  for (size_t k = 0; k < fl.params.size(); ++k)
    one(fl.params[k], std::string(fl.name) + "_param_" + std::to_string(k));
  return err;
}

// ----- the variadic buffer (LLVM's ExpandVariadics) -------------------------------------------

/// Sizes of IR types under NVPTX's data layout, for the frame struct types ExpandVariadics makes
/// (`%NAME.vararg = type <{ ... }>`): named struct types are read from the same module.
class IrSizer {
public:
  IrSizer(const std::string& ll, bool is64) : is64_(is64) {
    std::istringstream in(ll);
    for (std::string l; std::getline(in, l);) {
      size_t eq = l.find(" = type ");
      if (l.empty() || l[0] != '%' || eq == std::string::npos) continue;
      defs_[l.substr(0, eq)] = l.substr(eq + 8);
    }
  }

  /// The (offset, alloc size) of each element of the named struct type; empty when absent.
  std::vector<std::pair<uint64_t, uint64_t>> elements(const std::string& name) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    auto d = defs_.find(name);
    if (d == defs_.end()) return out;
    const std::string& t = d->second;
    size_t i = 0;
    bool packed = t.rfind("<{", 0) == 0;
    i = packed ? 2 : 1;
    uint64_t off = 0;
    for (;;) {
      skip(t, i);
      if (t[i] == '}') break;
      auto [size, align] = type(t, i);
      if (!packed) off = (off + align - 1) / align * align;
      out.emplace_back(off, size);
      off += size;
      skip(t, i);
      if (t[i] == ',') ++i;
    }
    return out;
  }

private:
  static void skip(const std::string& t, size_t& i) {
    while (i < t.size() && t[i] == ' ') ++i;
  }
  static uint64_t num(const std::string& t, size_t& i) {
    uint64_t v = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
      v = v * 10 + (t[i++] - '0');
    return v;
  }
  static uint64_t roundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
  static uint64_t intAlign(uint64_t bits) {
    for (auto [b, a] : {std::pair<uint64_t, uint64_t>{1, 1}, {8, 1}, {16, 2}, {32, 4}, {64, 8}})
      if (bits <= b) return a;
    return 16;
  }
  /// (alloc size, ABI alignment) of the type at t[i], advancing i past it.
  std::pair<uint64_t, uint64_t> type(const std::string& t, size_t& i) {
    skip(t, i);
    auto word = [&](const char* w) {
      if (t.compare(i, std::strlen(w), w) != 0) return false;
      i += std::strlen(w);
      return true;
    };
    if (t[i] == 'i') {
      ++i;
      uint64_t bits = num(t, i);
      uint64_t a = intAlign(bits);
      return {roundUp((bits + 7) / 8, a), a};
    }
    if (word("half") || word("bfloat")) return {2, 2};
    if (word("float")) return {4, 4};
    if (word("double")) return {8, 8};
    if (word("fp128")) return {16, 16};
    if (word("ptr")) {
      if (word(" addrspace(")) {
        num(t, i);
        ++i;
      }
      return is64_ ? std::pair<uint64_t, uint64_t>{8, 8} : std::pair<uint64_t, uint64_t>{4, 4};
    }
    if (t[i] == '[' || t[i] == '<') {
      const bool vec = t[i] == '<';
      if (vec && t[i + 1] == '{') { // a packed literal struct
        std::string name = "%lit" + std::to_string(lit_++);
        size_t end = t.find("}>", i);
        defs_[name] = t.substr(i, end + 2 - i);
        i = end + 2;
        return structOf(name);
      }
      ++i;
      uint64_t n = num(t, i);
      i += 3; // " x "
      size_t at = i;
      auto [es, ea] = type(t, i);
      ++i; // ']' or '>'
      if (!vec) return {n * es, ea};
      // A vector: the elements' bits, naturally aligned (v16:16-v32:32 and the defaults agree).
      uint64_t ebits = t[at] == 'i' ? std::stoull(t.substr(at + 1)) : es * 8;
      uint64_t bytes = (n * ebits + 7) / 8, a = 1;
      while (a < bytes) a *= 2;
      return {roundUp(bytes, a), a};
    }
    if (t[i] == '{') {
      std::string name = "%lit" + std::to_string(lit_++);
      int depth = 0;
      size_t b = i;
      for (; i < t.size(); ++i) {
        if (t[i] == '{') ++depth;
        if (t[i] == '}' && --depth == 0) break;
      }
      defs_[name] = t.substr(b, ++i - b);
      return structOf(name);
    }
    if (t[i] == '%') {
      size_t b = i;
      while (i < t.size() && t[i] != ',' && t[i] != ' ' && t[i] != '}' && t[i] != ']' &&
             t[i] != '>')
        ++i;
      return structOf(t.substr(b, i - b));
    }
    throw std::runtime_error("unknown IR type at: " + t.substr(i));
  }
  std::pair<uint64_t, uint64_t> structOf(const std::string& name) {
    const std::string& t = defs_.at(name);
    bool packed = t.rfind("<{", 0) == 0;
    uint64_t align = 1, end = 0;
    for (auto [off, size] : elements(name)) end = off + size;
    if (!packed) {
      size_t i = 1;
      for (;;) {
        skip(t, i);
        if (t[i] == '}') break;
        align = std::max(align, type(t, i).second);
        skip(t, i);
        if (t[i] == ',') ++i;
      }
    }
    return {roundUp(end, align), align};
  }

  bool is64_;
  std::map<std::string, std::string> defs_;
  unsigned lit_ = 0;
};

/// abikit's buffer as tiles (offset, size): its parts in order, with the gaps between them.
std::vector<std::pair<uint64_t, uint64_t>> bufferTiles(const FunctionLowering& fl) {
  std::vector<std::pair<uint64_t, uint64_t>> parts, out;
  for (const ArgLowering& a : fl.params)
    for (const ArgPart& p : a.parts)
      if (p.loc.kind == ArgLocation::Kind::Stack) parts.emplace_back(p.loc.stack_offset, p.size);
  std::sort(parts.begin(), parts.end());
  uint64_t end = 0;
  for (auto [off, size] : parts) {
    if (off > end) out.emplace_back(end, off - end);
    out.emplace_back(off, size);
    end = off + size;
  }
  return out;
}

std::string tilesText(const std::vector<std::pair<uint64_t, uint64_t>>& t) {
  std::string s;
  for (auto [off, size] : t) s += " " + std::to_string(off) + "+" + std::to_string(size);
  return s.empty() ? " (none)" : s;
}

// ----- the C and CUDA texts -------------------------------------------------------------------

std::string argList(const PtxProto& p) {
  std::string s;
  for (size_t k = 0; k < p.params.size(); ++k) s += (k ? ", a" : "a") + std::to_string(k);
  return s;
}

/// A device prototype as clang sees it: defined, or declared and called.
std::string deviceText(const PtxProto& p) {
  std::string body = p.ret == "void"
                         ? "{}"
                         : "{ " + p.ret + " r; __builtin_memset(&r, 0, sizeof r); " + "return r; }";
  if (p.definition)
    return std::string(p.is_static ? "static __attribute__((noinline, used)) " : "") +
           ptxSignature(p, p.name) + " " + body + "\n";
  // The caller reads the extra arguments of a variadic call through pointers of its own (as
  // values they would make its prototype one that some compilers cannot call).
  PtxProto caller = p;
  caller.variadic = false;
  std::string call = p.name + "(" + argList(p);
  for (size_t k = 0; k < p.extra.size(); ++k) {
    caller.params.push_back(p.extra[k] + " *");
    call += (call.back() == '(' ? "*a" : ", *a") + std::to_string(p.params.size() + k);
  }
  call += ")";
  return ptxSignature(p, p.name) + ";\n" + ptxSignature(caller, p.name + "_call") +
         (p.ret == "void" ? " { " + call + "; }\n" : " { return " + call + "; }\n");
}

/// A kernel as C for the IR route: defined, and marked as a kernel in the IR afterwards.
std::string kernelIrC(const PtxProto& p) {
  return ptxSignature(p, p.name) + " {}\n";
}

std::string kernelC(const PtxProto& p) {
  return "__attribute__((nvptx_kernel)) " + ptxSignature(p, p.name) + ";\n";
}

/// The types as C++ sees them: `_Bool` is spelled bool, and an unnamed bit-field of enum type
/// (`enum E : 0;`) would read as an enum base, so its type is written through __typeof__.
std::string cudaTypes(const std::string& types) {
  std::string out = "#define _Bool bool\n";
  std::istringstream in(types);
  for (std::string l; std::getline(in, l);) {
    size_t b = l.find_first_not_of(' ');
    if (b != std::string::npos && l.compare(b, 5, "enum ") == 0) {
      size_t name_end = l.find(' ', b + 5);
      if (name_end != std::string::npos && l.compare(name_end, 3, " : ") == 0)
        l = l.substr(0, b) + "__typeof__(" + l.substr(b, name_end - b) + ")" + l.substr(name_end);
    }
    out += l + "\n";
  }
  return out;
}

std::string kernelCuda(const PtxProto& p) {
  return "extern \"C\" __attribute__((global)) " + ptxSignature(p, p.name) + " {}\n";
}

// ----- one target ---------------------------------------------------------------------------

struct Stats {
  uint64_t protos = 0, kernels = 0, accepted = 0, compared = 0, compared_kernels = 0,
           compared_cuda = 0, rejected = 0, rejected_confirmed = 0, rejected_unverifiable = 0,
           refused_cuda = 0, modules = 0, ir_checked = 0, module_rejected = 0, variadic_calls = 0,
           rejected_unmodelled = 0, cases_rejected_by_both = 0, cuda_batches_rejected_by_both = 0,
           variadic_unmodelled = 0;
  std::map<std::string, uint64_t> reasons;
};

std::string reasonKey(const std::string& msg) {
  static const char* const kKeys[] = {"half-precision",
                                      "_BitInt",
                                      "vector",
                                      "IR type holds",
                                      ".align",
                                      "empty",
                                      "long double",
                                      "zero-width",
                                      "unnamed bit-field",
                                      "aligned attribute",
                                      "typedef",
                                      "flexible or zero-length",
                                      "mangling",
                                      "floating types only",
                                      "wider than 64 bits",
                                      "bit-fields",
                                      "__fp16"};
  for (const char* k : kKeys)
    if (msg.find(k) != std::string::npos) return k;
  return msg;
}

class Runner {
public:
  Runner(const char* triple, const std::string& compiler)
      : triple_(triple), cc_(compiler), llc_("llc-" + compiler.substr(6)),
        opt_("opt-" + compiler.substr(6)), target_(makeTarget(triple, "", compiler)),
        is64_(target_.nvptx().is64) {}

  void batch(std::vector<PtxCase>& all) {
    // A case whose declarations abikit cannot parse is reported and left out of the batch.
    std::vector<PtxCase> cases;
    for (PtxCase& c : all) {
      std::vector<PtxCase> one{c};
      std::string text = renderPtxTypes(one);
      TypeContext ctx(target_, Language::C);
      LayoutEngine layout(ctx);
      try {
        parseSource(ctx, layout, "case.c", text, ParseOptions{});
        cases.push_back(std::move(c));
      } catch (const Error& e) {
        // clang 19 and later reject some generated records too (docs/compilers.md).
        oracle::ScratchDir dir;
        dir.write("t.c", text);
        if (oracle::run({cc_, "-target", triple_, "-fsyntax-only", "-w", dir.file("t.c")})
                .exit_code != 0) {
          ++stats_.cases_rejected_by_both;
          continue;
        }
        fail("abikit could not parse a generated case: " + e.format() + "\n" + text);
      }
    }
    std::string types = renderPtxTypes(cases);
    types_ = types;
    std::string abikit_text = types;
    for (const PtxCase& c : cases)
      for (const PtxProto& p : c.protos) abikit_text += p.kernel ? kernelC(p) : deviceText(p);

    TypeContext ctx(target_, Language::C);
    LayoutEngine layout(ctx);
    TranslationUnit tu;
    try {
      tu = parseSource(ctx, layout, "cases.c", abikit_text, ParseOptions{});
    } catch (const Error& e) {
      fail("abikit could not parse the generated text: " + e.format() + "\n" + abikit_text);
      return;
    }

    struct Item {
      const PtxProto* proto;
      std::string name; // the function printed (the caller for declarations is separate)
      const FunctionDecl* fn;
      std::string ours;
      FunctionLowering lowering;
    };
    std::vector<Item> device, kernels, kernels_cuda;
    std::vector<const PtxProto*> kernels_cuda_protos;
    std::vector<const PtxProto*> rejected_device, rejected_kernels;
    std::string device_src = types, ir_src = types, cuda_src = cudaTypes(types);
    for (const PtxCase& c : cases)
      for (const PtxProto& p : c.protos) {
        ++stats_.protos;
        stats_.kernels += p.kernel;
        std::vector<std::string> names{p.name};
        if (!p.kernel && !p.definition) names.push_back(p.name + "_call");
        std::vector<Item> items;
        std::string why;
        for (const std::string& n : names) {
          const FunctionDecl* fd = tu.findFunction(n);
          if (!fd) {
            fail("abikit did not declare " + n);
            return;
          }
          try {
            Item it{&p, n, fd, printOne(ctx, layout, fd, false), lowerFunction(ctx, layout, *fd)};
            items.push_back(std::move(it));
          } catch (const Error& e) {
            why = e.message();
            break;
          }
        }
        if (!why.empty()) {
          ++stats_.rejected;
          ++stats_.reasons[reasonKey(why)];
          (p.kernel ? rejected_kernels : rejected_device).push_back(&p);
          rejected_why_[&p] = why;
          continue;
        }
        ++stats_.accepted;
        if (!p.kernel) {
          device_src += deviceText(p);
          for (Item& it : items) device.push_back(std::move(it));
          continue;
        }
        ir_src += kernelIrC(p);
        cuda_src += kernelCuda(p);
        kernels_cuda_protos.push_back(&p);
        for (Item& it : items) kernels.push_back(std::move(it));
      }

    compareAll(device, device_src, types, Route::Device);
    variadicCheck(ctx, layout, tu, device, device_src);
    compareAll(kernels, ir_src, types, Route::KernelIr);
    // The kernels as CUDA too, through abikit's CUDA front-end: the device compilation for the
    // default host of the target (C++ layouts, the host's data model).
    TypeContext cuda_ctx(target_, Language::CUDA);
    LayoutEngine cuda_layout(cuda_ctx);
    TranslationUnit cuda_tu;
    bool cuda_ok = true;
    try {
      cuda_tu = parseSource(cuda_ctx, cuda_layout, "cases.cu", cuda_src, ParseOptions{});
    } catch (const Error& e) {
      // The host's data model can make a generated type one that clang 19 and later reject
      // (an array whose element size is not a multiple of its alignment): so must clang.
      cuda_ok = false;
      if (compile(cuda_src, Route::Cuda, false).exit_code != 0)
        ++stats_.cuda_batches_rejected_by_both;
      else
        fail("abikit could not parse the CUDA text: " + e.format() + "\n" + cuda_src);
    }
    for (const PtxProto* p : cuda_ok ? kernels_cuda_protos : std::vector<const PtxProto*>{}) {
      const FunctionDecl* fd = cuda_tu.findFunction(p->name);
      try {
        kernels_cuda.push_back({p, p->name, fd, printOne(cuda_ctx, cuda_layout, fd, false),
                                lowerFunction(cuda_ctx, cuda_layout, *fd)});
      } catch (const Error& e) {
        ++stats_.refused_cuda; // accepted as C, refused as CUDA (the reason is counted)
        ++stats_.reasons[reasonKey(e.message())];
      }
    }
    compareAll(kernels_cuda, cuda_src, cudaTypes(types), Route::Cuda);

    // --module through ptxas.
    if (is64_ && hasPtxas()) {
      std::vector<std::pair<std::string, const PtxProto*>> names;
      for (const Item& it : device) names.emplace_back(it.name, it.proto);
      for (const Item& it : kernels) names.emplace_back(it.name, it.proto);
      moduleCheck(names, abikit_text, types);
    }

    for (const PtxProto* p : rejected_device) confirmRejected(*p, types, Route::Device);
    for (const PtxProto* p : rejected_kernels) confirmRejected(*p, types, Route::KernelIr);
  }

  const Stats& stats() const { return stats_; }
  const std::string& triple() const { return triple_; }

private:
  static bool hasPtxas() { return !oracle::findProgram(kPtxas).empty(); }

  void fail(const std::string& msg) {
    if (std::getenv("ABIKIT_DIFF_DUMP")) // the batch's types, to reproduce a failure by hand
      std::fprintf(stderr, "--- the types of this batch ---\n%s", types_.c_str());
    ++failures_;
    if (failures_ <= kMaxReported) ADD_FAILURE() << triple_ << ": " << msg;
  }

  std::string printOne(TypeContext& ctx, const LayoutEngine& layout, const FunctionDecl* fd,
                       bool module, PtxStyle style = PtxStyle::Llvm) {
    PtxOptions o;
    o.module = module;
    o.style = style;
    const FunctionDecl* one[] = {fd};
    return ptxPrototypes(ctx, layout, one, o);
  }

  /// How a prototype reaches llc-14: C device functions; kernels as C whose IR marks them with
  /// the ptx_kernel calling convention (what LLVM's NVPTX back end reads, besides
  /// !nvvm.annotations; newer clang's nvptx_kernel sets it); kernels as CUDA __global__.
  enum class Route : uint8_t { Device, KernelIr, Cuda };

  static std::string text(const PtxProto& p, Route route) {
    return route == Route::Device ? deviceText(p)
           : route == Route::Cuda ? kernelCuda(p)
                                  : kernelIrC(p);
  }

  /// Compiles `src` along `route`: the PTX (or, with `ir`, the LLVM IR) on stdout.
  oracle::RunResult compile(const std::string& src, Route route, bool ir) const {
    oracle::ScratchDir dir;
    std::vector<std::string> cmd = {cc_};
    if (route == Route::Cuda) {
      dir.write("s.cu", src);
      // The device compilation for the target's default host (i386 for nvptx-nvidia-cuda).
      cmd.push_back(is64_ ? "--target=x86_64-linux-gnu" : "--target=i386-linux-gnu");
      cmd.insert(cmd.end(), {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                             "-Wno-unknown-cuda-version", "--cuda-gpu-arch=sm_75"});
      cmd.insert(cmd.end(), {"-w", "-S", "-O1"});
      if (ir) cmd.push_back("-emit-llvm");
      cmd.insert(cmd.end(), {dir.file("s.cu"), "-o", "-"});
      return oracle::run(cmd);
    }
    dir.write("s.c", src);
    cmd.insert(cmd.end(), {"-target", triple_, "-w", "-S", "-O1"});
    if (route == Route::Device) {
      if (ir) cmd.push_back("-emit-llvm");
      cmd.insert(cmd.end(), {dir.file("s.c"), "-o", "-"});
      return oracle::run(cmd);
    }
    cmd.insert(cmd.end(), {"-emit-llvm", dir.file("s.c"), "-o", "-"});
    oracle::RunResult r = oracle::run(cmd);
    if (r.exit_code != 0) return r;
    // Every function defined here is a kernel: give it the ptx_kernel calling convention.
    std::string ll;
    std::istringstream in(r.out);
    for (std::string l; std::getline(in, l);) {
      if (l.rfind("define dso_local void @", 0) == 0)
        l = "define dso_local ptx_kernel void @" + l.substr(23);
      ll += l + "\n";
    }
    if (ir) {
      r.out = ll;
      return r;
    }
    dir.write("s.ll", ll);
    return oracle::run({llc_, "-O1", "--asm-verbose=false", dir.file("s.ll"), "-o", "-"});
  }

  template <class Items>
  void compareAll(Items& items, const std::string& src, const std::string& head, Route route) {
    if (items.empty()) return;
    oracle::RunResult r = compile(src, route, false);
    if (r.exit_code != 0) {
      // Find the prototypes the compiler cannot build on their own; compare the others.
      std::set<const PtxProto*> bad;
      for (auto& it : items) {
        if (bad.count(it.proto) || it.name != it.proto->name) continue;
        oracle::RunResult r1 = compile(head + text(*it.proto, route), route, false);
        if (r1.exit_code == 0) continue;
        bad.insert(it.proto);
        fail("the compiler cannot build " + it.proto->name + ", which abikit accepts:\n" +
             text(*it.proto, route) + "exit " + std::to_string(r1.exit_code) + "\n" +
             r1.err.substr(0, 1500));
      }
      if (bad.empty()) {
        fail("the compiler rejected the batch:\n" + r.err.substr(0, 3000));
        return;
      }
      std::string again = head;
      Items kept;
      std::set<const PtxProto*> added;
      for (auto& it : items) {
        if (bad.count(it.proto)) continue;
        if (added.insert(it.proto).second) again += text(*it.proto, route);
        kept.push_back(it);
      }
      compareAll(kept, again, head, route);
      return;
    }
    std::map<std::string, std::string> blocks = extractBlocks(r.out);
    std::map<std::string, IrSig> sigs = parseIr(compile(src, route, true).out);
    for (auto& it : items) {
      bool is_def = it.fn->is_definition || route != Route::Device;
      std::string key = it.name + (is_def ? "#def" : "#decl");
      auto b = blocks.find(key);
      std::string theirs = b == blocks.end() ? "(none)\n" : b->second;
      (route == Route::Device ? stats_.compared
       : route == Route::Cuda ? stats_.compared_cuda
                              : stats_.compared_kernels) += 1;
      if (theirs != it.ours)
        fail("prototype differs for " + it.name + "\n--- source ---\n" + text(*it.proto, route) +
             "--- abikit ---\n" + it.ours + "--- " + llc_ + " ---\n" + theirs);
      auto sg = sigs.find(it.name);
      if (sg == sigs.end()) {
        fail("no IR signature for " + it.name);
      } else {
        ++stats_.ir_checked;
        std::string e = irCheck(it.lowering, sg->second);
        if (!e.empty()) fail("IR attributes differ for " + it.name + ":\n" + e + theirs);
      }
      if (b != blocks.end()) {
        std::string e = partsCheck(it.lowering, theirs);
        if (!e.empty()) fail("call parts differ for " + it.name + ":\n" + e + theirs);
      }
    }
  }

  /// Assembles the --module output of the named functions for the default processor and for
  /// sm_75. --module refuses llc's [0] arrays where ptxas rejects them (empty aggregates) and
  /// kernels with more parameter bytes than ptxas allows: each such refusal is confirmed by
  /// assembling llc-14's own output for sm_75.
  void moduleCheck(const std::vector<std::pair<std::string, const PtxProto*>>& names,
                   const std::string& text, const std::string& types) {
    if (names.empty()) return;
    for (const char* cpu : {"", "sm_75"}) {
      Target t = makeTarget(triple_.c_str(), cpu, cc_);
      TypeContext ctx(t, Language::C);
      LayoutEngine layout(ctx);
      TranslationUnit tu = parseSource(ctx, layout, "cases.c", text, ParseOptions{});
      PtxOptions o;
      o.module = true;
      std::vector<const FunctionDecl*> keep;
      for (const auto& [n, proto] : names) {
        const FunctionDecl* one[] = {tu.findFunction(n)};
        try {
          ptxPrototypes(ctx, layout, one, o);
          keep.push_back(one[0]);
        } catch (const Error& e) {
          if (e.message().find("empty") == std::string::npos &&
              e.message().find(".b128") == std::string::npos &&
              e.message().find("bytes of kernel parameters") == std::string::npos) {
            fail("--module rejected " + n + " for " + t.cpu + ": " + e.message());
          } else if (*cpu) {
            ++stats_.module_rejected;
            confirmModuleRejected(*proto, types, e.message());
          }
        }
      }
      if (keep.empty()) continue;
      std::string module;
      try {
        module = ptxPrototypes(ctx, layout, keep, o);
      } catch (const Error& e) {
        fail("--module failed: " + e.message());
        continue;
      }
      oracle::ScratchDir dir;
      dir.write("m.ptx", module);
      oracle::RunResult r =
          oracle::run({kPtxas, "-arch=sm_75", "-c", dir.file("m.ptx"), "-o", dir.file("m.o")});
      ++stats_.modules;
      if (r.exit_code != 0) fail("ptxas rejected the --module output:\n" + r.err + "\n" + module);
    }
  }

  void confirmModuleRejected(const PtxProto& p, const std::string& types, const std::string& why) {
    Route route = p.kernel ? Route::KernelIr : Route::Device;
    oracle::RunResult r = compile(types + text(p, route), route, false);
    // llc's output for the default processor names sm_20 and PTX 3.2: ptxas needs PTX 6.0 for
    // [0] parameters, so ask for sm_75's PTX by rewriting the header lines.
    std::string ptx = r.out;
    size_t v = ptx.find(".version ");
    if (v != std::string::npos) ptx.replace(v, ptx.find('\n', v) - v, ".version 6.3");
    size_t t = ptx.find(".target ");
    if (t != std::string::npos) ptx.replace(t, ptx.find('\n', t) - t, ".target sm_75");
    oracle::ScratchDir dir;
    dir.write("r.ptx", ptx);
    oracle::RunResult a =
        oracle::run({kPtxas, "-arch=sm_75", "-c", dir.file("r.ptx"), "-o", dir.file("r.o")});
    if (r.exit_code == 0 && a.exit_code == 0)
      fail("--module rejects " + p.name + " (" + why + ") but ptxas accepts " + llc_ +
           "'s output:\n" + text(p, route));
  }

  /// A prototype abikit rejects must fail in clang-14/llc-14 or in ptxas.
  void confirmRejected(const PtxProto& p, const std::string& types, Route route) {
    const std::string& why = rejected_why_[&p];
    if (why.find("does not model") != std::string::npos) {
      ++stats_.rejected_unmodelled; // said as such: a gap of abikit's, not a claim to confirm
      return;
    }
    std::string src = types + text(p, route);
    if (route == Route::Device && p.definition) {
      // Also a call of it, so that both sides of the convention are compiled.
      PtxProto decl = p;
      decl.definition = false;
      decl.is_static = false;
      decl.name = p.name + "_d";
      src += deviceText(decl);
    }
    oracle::RunResult r = compile(src, route, false);
    if (r.exit_code != 0) {
      ++stats_.rejected_confirmed;
      return;
    }
    if (!is64_ || !hasPtxas()) {
      ++stats_.rejected_unverifiable;
      return;
    }
    oracle::ScratchDir dir;
    dir.write("r.ptx", r.out);
    oracle::RunResult a =
        oracle::run({kPtxas, "-arch=sm_75", "-c", dir.file("r.ptx"), "-o", dir.file("r.o")});
    if (a.exit_code != 0) {
      ++stats_.rejected_confirmed;
      return;
    }
    fail("abikit rejects " + p.name + " (" + why + ") but " + cc_ + ", " + llc_ +
         " and ptxas accept it:\n" + src.substr(types.size()));
  }

  /// The buffer of each variadic call: abikit's parts against the frame struct LLVM's
  /// ExpandVariadics pass builds for the caller (`%NAME_call.vararg = type <{ ... }>`).
  template <class Items>
  void variadicCheck(TypeContext& ctx, const LayoutEngine& layout, const TranslationUnit& tu,
                     const Items& items, const std::string& src) {
    std::string ll;
    for (const auto& it : items) {
      const PtxProto& p = *it.proto;
      if (!p.variadic || p.definition || it.name != p.name || p.extra.empty()) continue;
      if (ll.empty()) {
        oracle::RunResult r = compile(src, Route::Device, true);
        if (r.exit_code != 0) return; // compareAll reported it
        oracle::ScratchDir dir;
        dir.write("v.ll", r.out);
        oracle::RunResult e =
            oracle::run({opt_, "-mtriple=" + triple_, "-passes=expand-variadics",
                         "-expand-variadics-override=lowering", "-S", dir.file("v.ll"), "-o", "-"});
        if (e.exit_code != 0) {
          fail(opt_ + " failed:\n" + e.err.substr(0, 2000));
          return;
        }
        ll = e.out;
      }
      const FunctionDecl* caller = tu.findFunction(p.name + "_call");
      std::vector<const Type*> extra;
      for (size_t k = p.params.size(); k < caller->type->params.size(); ++k)
        extra.push_back(
            static_cast<const PointerType*>(stripTypedefs(caller->type->params[k].type))->pointee);
      FunctionLowering fl;
      try {
        LowerOptions lo;
        lo.variadic_args = extra;
        fl = lowerFunction(ctx, layout, *it.fn, lo);
      } catch (const Error& e) {
        if (e.message().find("does not model") != std::string::npos) {
          ++stats_.variadic_unmodelled; // an extra argument abikit says it does not model
          continue;
        }
        fail("abikit cannot lower the call of " + p.name + ": " + e.message());
        continue;
      }
      IrSizer sizer(ll, is64_);
      std::vector<std::pair<uint64_t, uint64_t>> theirs;
      try {
        theirs = sizer.elements("%" + p.name + "_call.vararg");
      } catch (const std::exception& e) {
        fail(std::string("cannot size the frame of ") + p.name + ": " + e.what());
        continue;
      }
      ++stats_.variadic_calls;
      std::vector<std::pair<uint64_t, uint64_t>> ours = bufferTiles(fl);
      // ExpandVariadics never makes an empty frame: with nothing to store it is <{ [1 x i8] }>.
      if (ours.empty() && theirs == std::vector<std::pair<uint64_t, uint64_t>>{{0, 1}})
        theirs.clear();
      if (ours != theirs)
        fail("the variadic buffer of " + p.name + "_call differs:\n" + text(p, Route::Device) +
             "abikit:" + tilesText(ours) + "\n" + opt_ + ":" + tilesText(theirs) + "\n");
    }
  }

  std::string triple_;
  std::string cc_, llc_, opt_;
  std::string types_; // of the current batch
  Target target_;
  bool is64_;
  Stats stats_;
  size_t failures_ = 0;
  std::map<const PtxProto*, std::string> rejected_why_;
};

void runTarget(const char* triple, uint64_t salt, const std::string& compiler,
               const std::vector<std::string>& modelled) {
  if (oracle::findProgram(kPtxas).empty())
    std::printf("[ ptx     ] %s is not installed: --module outputs and ptxas-level rejections "
                "are not checked\n",
                kPtxas);
  uint64_t count = oracle::sampleCountFor(80, modelled, compiler);
  uint64_t seed = oracle::sampleSeed(1);
  Runner runner(triple, compiler);
  Target target = makeTarget(triple, "", compiler);
  PtxGenOptions go;
  go.variadic = target.nvptx().call.variadic_buffer;
  for (uint64_t first = 0; first < count; first += kBatch) {
    std::vector<PtxCase> cases;
    for (uint64_t k = first; k < std::min<uint64_t>(count, first + kBatch); ++k)
      cases.push_back(
          generatePtxCase(mix(mix(seed, salt), k), "c" + std::to_string(k) + "_", target, go));
    runner.batch(cases);
  }
  const Stats& s = runner.stats();
  const std::string llc = "llc-" + compiler.substr(6);
  std::printf(
      "[ ptx     ] %s %s: %llu cases whose types both reject; %llu random prototypes (%llu "
      "kernels), %llu accepted by abikit "
      "and compared byte for byte with %s: %llu device functions (and callers), %llu "
      "kernels as C with the "
      "ptx_kernel IR convention, %llu kernels as CUDA (%llu refused "
      "as CUDA, %llu batches whose CUDA text both reject); %llu IR signatures checked; %llu "
      "variadic call buffers checked (%llu not modelled); %llu --module "
      "outputs assembled by ptxas (%llu "
      "prototypes refused there: [0] arrays, kernel parameter space; confirmed); %llu "
      "rejected (%llu "
      "confirmed by %s/%s/ptxas, %llu not checkable without ptxas, %llu not modelled by "
      "abikit)\n",
      triple, compiler.c_str(), (unsigned long long)s.cases_rejected_by_both,
      (unsigned long long)s.protos, (unsigned long long)s.kernels, (unsigned long long)s.accepted,
      llc.c_str(), (unsigned long long)s.compared, (unsigned long long)s.compared_kernels,
      (unsigned long long)s.compared_cuda, (unsigned long long)s.refused_cuda,
      (unsigned long long)s.cuda_batches_rejected_by_both, (unsigned long long)s.ir_checked,
      (unsigned long long)s.variadic_calls, (unsigned long long)s.variadic_unmodelled,
      (unsigned long long)s.modules, (unsigned long long)s.module_rejected,
      (unsigned long long)s.rejected, (unsigned long long)s.rejected_confirmed, compiler.c_str(),
      llc.c_str(), (unsigned long long)s.rejected_unverifiable,
      (unsigned long long)s.rejected_unmodelled);
  std::string reasons;
  for (const auto& [k, v] : s.reasons) reasons += " " + k + ": " + std::to_string(v) + ";";
  std::printf("[ ptx     ] %s %s rejections by reason:%s\n", triple, compiler.c_str(),
              reasons.c_str());
}

// ----- --ptx-style=nvcc against nvcc 13 -----------------------------------------------------

std::string nvccDevice(const PtxProto& p) {
  std::string body = p.ret == "void"
                         ? "{}"
                         : "{ " + p.ret + " r; __builtin_memset(&r, 0, sizeof r); " + "return r; }";
  std::string sig = "extern \"C\" __device__ " + ptxSignature(p, p.name);
  if (p.definition) return sig + " " + body + "\n";
  std::string call = p.name + "(" + argList(p) + ")";
  return sig + ";\nextern \"C\" __device__ " + ptxSignature(p, p.name + "_call") +
         (p.ret == "void" ? " { " + call + "; }\n" : " { return " + call + "; }\n");
}

std::string nvccKernel(const PtxProto& p) {
  return "extern \"C\" __global__ " + ptxSignature(p, p.name) + " {}\n";
}

TEST(DiffPtx, NvccStyleAgainstNvcc) {
  if (oracle::findProgram(kNvcc).empty())
    GTEST_SKIP() << kNvcc << " is not installed: --ptx-style=nvcc is not checked";
  uint64_t count = oracle::sampleCount(80) / 2;
  uint64_t seed = oracle::sampleSeed(1);
  // nvcc's conventions do not depend on which clang abikit models; the generated types are
  // those of clang-14's data model (no _Float16 or __bf16, which nvcc spells otherwise).
  Target target = makeTarget("nvptx64-nvidia-cuda", "sm_75", "clang-14");
  PtxGenOptions go;
  go.nvcc = true;
  uint64_t protos = 0, compared = 0, rejected = 0, failures = 0;
  std::map<std::string, uint64_t> reasons;
  auto fail = [&](const std::string& m) {
    if (++failures <= kMaxReported) ADD_FAILURE() << "nvcc: " << m;
  };
  constexpr size_t kNvccBatch = 20; // nvcc is slow to start: large batches
  for (uint64_t first = 0; first < count; first += kNvccBatch) {
    std::vector<PtxCase> cases;
    for (uint64_t k = first; k < std::min<uint64_t>(count, first + kNvccBatch); ++k) {
      // nvcc (C++) has no _Complex of integer types: cases that declare one are replaced.
      for (uint64_t attempt = 0;; ++attempt) {
        std::vector<PtxCase> one{generatePtxCase(mix(mix(seed, 13 + attempt), k),
                                                 "n" + std::to_string(k) + "_", target, go)};
        std::string t = renderPtxTypes(one);
        bool int_complex = false;
        for (const char* w : {"_Complex char", "_Complex short", "_Complex int", "_Complex long",
                              "_Complex unsigned", "_Complex signed"})
          int_complex = int_complex || t.find(w) != std::string::npos;
        if (int_complex) continue;
        cases.push_back(std::move(one[0]));
        break;
      }
    }
    std::string types = renderPtxTypes(cases);
    std::string c_text = types;
    for (const PtxCase& c : cases)
      for (const PtxProto& p : c.protos) c_text += p.kernel ? kernelC(p) : deviceText(p);
    TypeContext ctx(target, Language::C);
    LayoutEngine layout(ctx);
    TranslationUnit tu;
    try {
      tu = parseSource(ctx, layout, "cases.c", c_text, ParseOptions{});
    } catch (const Error& e) {
      fail("abikit could not parse the generated text: " + e.format());
      continue;
    }
    std::string cu = cudaTypes(types);
    std::vector<std::pair<std::string, std::string>> ours; // name#form, text
    for (const PtxCase& c : cases)
      for (const PtxProto& p : c.protos) {
        ++protos;
        std::vector<std::string> names{p.name};
        if (!p.kernel && !p.definition) names.push_back(p.name + "_call");
        std::vector<std::pair<std::string, std::string>> mine;
        try {
          for (const std::string& n : names) {
            const FunctionDecl* one[] = {tu.findFunction(n)};
            PtxOptions o;
            o.style = PtxStyle::Nvcc;
            bool def = p.kernel || p.definition || n != p.name;
            mine.emplace_back(n + (def ? "#def" : "#decl"), ptxPrototypes(ctx, layout, one, o));
          }
        } catch (const Error& e) {
          ++rejected;
          ++reasons[reasonKey(e.message())];
          continue;
        }
        cu += p.kernel ? nvccKernel(p) : nvccDevice(p);
        for (auto& m : mine) ours.push_back(std::move(m));
      }
    oracle::ScratchDir dir;
    dir.write("n.cu", cu);
    if (const char* keep = std::getenv("ABIKIT_DIFF_KEEP")) // for investigating a failure
      oracle::run(
          {"cp", dir.file("n.cu"), std::string(keep) + "/nvcc_" + std::to_string(first) + ".cu"});
    oracle::RunResult r = oracle::run({kNvcc, "-arch=sm_75", "--ptx", "-rdc=true", "-w",
                                       dir.file("n.cu"), "-o", dir.file("n.ptx")});
    if (r.exit_code != 0) {
      fail("nvcc rejected prototypes abikit prints:\n" + r.err.substr(0, 3000) + "\n" +
           cu.substr(0, 4000));
      continue;
    }
    std::map<std::string, std::string> blocks = extractBlocks(oracle::readFile(dir.file("n.ptx")));
    for (const auto& [key, text] : ours) {
      ++compared;
      auto b = blocks.find(key);
      std::string theirs = b == blocks.end() ? "(none)\n" : b->second;
      if (theirs != text)
        fail("prototype differs for " + key + "\n--- abikit ---\n" + text + "--- nvcc 13 ---\n" +
             theirs);
    }
  }
  std::string why;
  for (const auto& [k, v] : reasons) why += " " + k + ": " + std::to_string(v) + ";";
  std::printf("[ ptx     ] --ptx-style=nvcc: %llu random prototypes, %llu printed declarations "
              "compared byte for byte with nvcc 13; %llu not modelled for nvcc:%s\n",
              (unsigned long long)protos, (unsigned long long)compared,
              (unsigned long long)rejected, why.c_str());
  EXPECT_EQ(failures, 0u);
}

// One test per triple and modelled clang (the IR route's llc and opt are the same version).
struct PtxRun {
  const char* triple;
  uint64_t salt;
  std::string compiler;
  std::vector<std::string> modelled;
  std::string name;
};

std::vector<PtxRun> ptxRuns() {
  std::vector<PtxRun> out;
  for (auto [triple, salt, tag] :
       {std::tuple<const char*, uint64_t, const char*>{"nvptx64-nvidia-cuda", 64, "Nvptx64"},
        {"nvptx-nvidia-cuda", 32, "Nvptx32"}}) {
    std::vector<std::string> modelled = oracle::modelledClangs(triple);
    for (const std::string& cc : modelled)
      out.push_back({triple, salt, cc, modelled, std::string(tag) + "_" + oracle::compilerTag(cc)});
  }
  return out;
}

class DiffPtxLlc : public ::testing::TestWithParam<PtxRun> {};

TEST_P(DiffPtxLlc, AgainstLlc) {
  const PtxRun& r = GetParam();
  runTarget(r.triple, r.salt, r.compiler, r.modelled);
}

INSTANTIATE_TEST_SUITE_P(Compilers, DiffPtxLlc, ::testing::ValuesIn(ptxRuns()),
                         [](const ::testing::TestParamInfo<PtxRun>& i) { return i.param.name; });

} // namespace
