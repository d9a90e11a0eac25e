// DWARF expressions against llvm-dwarfdump-22: seeded generated expressions (every DWARF 5
// operation and every DW_OP_LLVM_user sub-operation 1-12, LEB128 edge values, 32- and 64-bit
// DWARF, address sizes 4 and 8) are placed as DW_AT_location exprlocs in a .debug_info that
// llvm-mc-22 assembles into riscv32/riscv64/amdgcn objects; llvm-dwarfdump-22 prints them and
// abikit's display form must be the same text, operation by operation. Malformed byte strings:
// abikit must fail where llvm-dwarfdump-22 reports a decoding error, at the same byte.
//
// Where llvm-dwarfdump-22 is known to differ (docs/dwarf.md, "Divergences"), the comparison
// checks the difference is exactly the known one and counts it:
//  - it has no decoder for DW_OP_const_type, deref_type, xderef_type and reinterpret: it prints
//    "<decoding error>" and the remaining bytes there, and stops;
//  - it reads the DW_OP_LLVM_aspace_bregx displacement as a ULEB128 (abikit: SLEB128); the two
//    agree for 0..63; past 64 bits as a ULEB128 it misreads the rest of the expression;
//  - it loses the ")" of a DW_OP_entry_value whose nested expression has several operations (the
//    comparison is over the flat list of operations, parentheses dropped).
// CI: 2,000 expressions and 300 malformed strings; tests/differential/run --count N for more.
#include "../support/dwarf_expr_asm.h"
#include "../support/dwarf_expr_gen.h"
#include "abikit/dwarf.h"
#include "oracle.h"

#include <gtest/gtest.h>
#include <sstream>

namespace {

using namespace abikit;
using namespace abikit::dwarf;

struct Config {
  const char* name;
  const char* triple;
  const char* mcpu; // "" for none
  uint8_t address_size;
  bool dwarf64;
};

const Config kConfigs[] = {
    {"riscv64", "riscv64", "", 8, false},
    {"riscv64-dwarf64", "riscv64", "", 8, true},
    {"riscv32", "riscv32", "", 4, false},
    {"riscv32-dwarf64", "riscv32", "", 4, true},
    {"gfx90a", "amdgcn-amd-amdhsa", "gfx90a", 8, false},
    {"gfx1030-dwarf64", "amdgcn-amd-amdhsa", "gfx1030", 8, true},
};

Target targetOf(const Config& c) {
  TargetOptions o;
  o.triple = std::string(c.triple) == "riscv64"   ? "riscv64-unknown-elf"
             : std::string(c.triple) == "riscv32" ? "riscv32-unknown-elf"
                                                  : c.triple;
  o.mcpu = c.mcpu;
  return resolveTarget(o);
}

// llvm-dwarfdump-22's text of every DW_AT_location, in order.
std::vector<std::string> dumpLocations(const Config& c,
                                       const std::vector<std::vector<uint8_t>>& exprs) {
  oracle::ScratchDir dir;
  dir.write("e.s", test::exprlocAssembly(c.address_size, c.dwarf64, exprs));
  std::vector<std::string> mc = {
      "llvm-mc-22",   "-triple=" + std::string(c.triple), "-filetype=obj", dir.file("e.s"), "-o",
      dir.file("e.o")};
  if (*c.mcpu) mc.push_back("-mcpu=" + std::string(c.mcpu));
  oracle::RunResult r = oracle::run(mc);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = oracle::run({"llvm-dwarfdump-22", "--debug-info", dir.file("e.o")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> out;
  std::istringstream in(r.out);
  std::string line;
  const std::string key = "DW_AT_location\t(";
  while (std::getline(in, line)) {
    size_t p = line.find(key);
    if (p == std::string::npos) continue;
    std::string text = line.substr(p + key.size());
    if (!text.empty() && text.back() == ')') text.pop_back();
    out.push_back(text);
  }
  return out;
}

// The flat list of operations in llvm-dwarfdump's text: split at ", ", "DW_OP_entry_value(" split
// from what follows it, unbalanced ")" dropped.
std::vector<std::string> llvmTokens(const std::string& text) {
  std::vector<std::string> out;
  if (text == "<empty>") return out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(", ", start);
    std::string tok =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::string ev = "DW_OP_entry_value(";
    while (tok.rfind(ev, 0) == 0) {
      out.push_back("DW_OP_entry_value");
      tok = tok.substr(ev.size());
    }
    auto count = [&](char ch) { return std::count(tok.begin(), tok.end(), ch); };
    while (!tok.empty() && tok.back() == ')' && count(')') > count('(')) tok.pop_back();
    if (!tok.empty()) out.push_back(tok);
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return out;
}

// abikit's display of each operation on its own (entry_value without its nested operations).
std::vector<std::string> abikitTokens(const Expression& e, const DisplayOptions& d) {
  std::vector<std::string> out;
  for (size_t i = 0; i < e.ops.size(); ++i)
    out.push_back(e.ops[i].op == Op::entry_value ? "DW_OP_entry_value" : opDisplay(e, i, d));
  return out;
}

std::string hexFrom(const std::vector<uint8_t>& b, size_t from) {
  std::string s;
  char buf[4];
  for (size_t i = from; i < b.size(); ++i) {
    std::snprintf(buf, sizeof buf, " %02x", unsigned(b[i]));
    s += buf;
  }
  return s;
}

// What llvm-dwarfdump-22 prints for DW_OP_LLVM_aspace_bregx: the displacement's bytes read as a
// ULEB128; false when that does not fit in 64 bits (it then misreads what follows).
bool llvmAspaceBregx(const Operation& op, const std::vector<uint8_t>& bytes,
                     const DisplayOptions& d, std::string& text) {
  // The displacement is the operation's last LEB128: from after the register's ULEB128.
  size_t p = op.offset + 2; // e9 09
  while (bytes[p] & 0x80) ++p;
  ++p;
  uint64_t v = 0;
  unsigned shift = 0;
  for (;; ++p) {
    uint64_t g = bytes[p] & 0x7f;
    if (shift >= 64 ? g != 0 : shift > 57 && (g >> (64 - shift)) != 0) return false;
    if (shift < 64) v |= g << shift;
    shift += 7;
    if (!(bytes[p] & 0x80)) break;
  }
  std::string name = registerDisplayName(d.registers, op.u[0]);
  char buf[64];
  if (!name.empty())
    std::snprintf(buf, sizeof buf, "%+lld", static_cast<long long>(int64_t(v)));
  else
    std::snprintf(buf, sizeof buf, "0x%llx 0x%llx", static_cast<unsigned long long>(op.u[0]),
                  static_cast<unsigned long long>(v));
  text = "DW_OP_LLVM_user DW_OP_LLVM_aspace_bregx " + (name.empty() ? "" : name) + buf;
  return true;
}

struct Tally {
  size_t expressions = 0, operations = 0, agreed_ops = 0;
  size_t llvm_cannot_decode = 0, aspace_bregx_unsigned = 0, aspace_bregx_misread = 0;
  size_t malformed = 0, malformed_agreed = 0;
  std::vector<std::string> failures;
};

// Compares one expression; returns the number of leading operations compared.
void compare(const std::vector<uint8_t>& bytes, const Expression& e, const std::string& llvm,
             const DisplayOptions& d, Tally& t) {
  std::vector<std::string> ours = abikitTokens(e, d), theirs = llvmTokens(llvm);
  ++t.expressions;
  for (size_t i = 0; i < ours.size(); ++i) {
    const Operation& op = e.ops[i];
    std::string want = ours[i];
    std::string got = i < theirs.size() ? theirs[i] : "<missing>";
    ++t.operations;
    if (got == want) {
      ++t.agreed_ops;
      continue;
    }
    // LLVM decodes neither these DWARF 5 operations nor GCC's GNU forms of the typed ones.
    bool no_decoder = op.op == Op::const_type || op.op == Op::deref_type ||
                      op.op == Op::xderef_type || op.op == Op::reinterpret ||
                      op.op == Op::GNU_implicit_pointer || op.op == Op::GNU_const_type ||
                      op.op == Op::GNU_regval_type || op.op == Op::GNU_deref_type ||
                      op.op == Op::GNU_convert || op.op == Op::GNU_reinterpret ||
                      op.op == Op::GNU_parameter_ref;
    if (no_decoder && got == "<decoding error>" + hexFrom(bytes, op.offset) &&
        i + 1 == theirs.size()) {
      ++t.llvm_cannot_decode;
      return;
    }
    if (op.op == Op::LLVM_aspace_bregx && (op.s < 0 || op.s > 63)) {
      std::string predicted;
      if (!llvmAspaceBregx(op, bytes, d, predicted)) {
        ++t.aspace_bregx_misread; // LLVM's reading goes astray here: nothing more to compare
        return;
      }
      if (got == predicted) {
        ++t.aspace_bregx_unsigned;
        continue;
      }
      want = predicted;
    }
    if (t.failures.size() < 20)
      t.failures.push_back("bytes" + hexFrom(bytes, 0) + "\n  operation " + std::to_string(i) +
                           ": abikit '" + want + "'\n  llvm-dwarfdump-22 '" + got +
                           "'\n  whole: " + llvm);
    return;
  }
  if (theirs.size() != ours.size() && t.failures.size() < 20)
    t.failures.push_back("bytes" + hexFrom(bytes, 0) + ": llvm-dwarfdump-22 printed more: " + llvm);
}

void expectOracles() {
  for (const char* tool : {"llvm-mc-22", "llvm-dwarfdump-22"})
    ASSERT_FALSE(oracle::findProgram(tool).empty())
        << tool << " is not installed (scripts/deps.sh test installs llvm-22)";
}

TEST(DiffDwarfExpr, DisplayAgreesWithLlvmDwarfdump22) {
  expectOracles();
  const uint64_t total = oracle::sampleCount(2000);
  const uint64_t seed = oracle::sampleSeed(1);
  const size_t per = size_t((total + std::size(kConfigs) - 1) / std::size(kConfigs));
  Tally t;
  for (size_t ci = 0; ci < std::size(kConfigs); ++ci) {
    const Config& c = kConfigs[ci];
    SCOPED_TRACE(c.name);
    Target target = targetOf(c);
    test::ExprGenOptions o;
    o.format.address_size = c.address_size;
    o.format.offset_size = c.dwarf64 ? 8 : 4;
    std::vector<uint64_t> bases = test::exprlocBaseTypeOffsets(c.dwarf64);
    o.base_types = bases;
    test::ExprGenerator gen(seed * 1000 + ci, o);
    DisplayOptions d = displayOptionsFor(target, ExtEncoding::User);
    for (size_t done = 0; done < per;) {
      size_t n = std::min<size_t>(per - done, 2000);
      std::vector<Expression> exprs;
      std::vector<std::vector<uint8_t>> bytes;
      for (size_t i = 0; i < n; ++i) {
        exprs.push_back(gen.next());
        bytes.push_back(encode(exprs.back(), o.format));
      }
      std::vector<std::string> dumped = dumpLocations(c, bytes);
      ASSERT_EQ(dumped.size(), n);
      for (size_t i = 0; i < n; ++i) compare(bytes[i], decode(bytes[i], o.format), dumped[i], d, t);
      done += n;
    }
  }
  for (const std::string& f : t.failures) ADD_FAILURE() << f;
  std::printf("dwarf-expr display: %zu expressions, %zu operations: %zu equal; known divergences: "
              "%zu with no llvm-dwarfdump-22 decoder (const_type/deref_type/xderef_type/"
              "reinterpret and GCC's typed DW_OP_GNU_*), %zu aspace_bregx displacements read as "
              "unsigned, %zu read past 64 "
              "bits\n",
              t.expressions, t.operations, t.agreed_ops, t.llvm_cannot_decode,
              t.aspace_bregx_unsigned, t.aspace_bregx_misread);
  EXPECT_GE(t.expressions, total);
}

// Bytes no decoder knows in the user encoding, neither abikit nor llvm-dwarfdump-22 (which also
// decodes a few GNU and WASM operations abikit leaves out of scope: 0xe0, 0xed, 0xf2, 0xf3, 0xfb,
// 0xfc).
std::vector<std::vector<uint8_t>> badOperations() {
  std::vector<std::vector<uint8_t>> out;
  for (int b : {0x00, 0x01, 0x02, 0x04, 0x05, 0x07, 0xaa, 0xc0, 0xdf, 0xe1,
                0xe5, 0xe8, 0xea, 0xec, 0xee, 0xf0, 0xf1, 0xf8, 0xfd, 0xff})
    out.push_back({uint8_t(b)});
  out.push_back({0xe9, 0x00});
  for (int s : {0x0d, 0x0e, 0x40, 0x7f}) out.push_back({0xe9, uint8_t(s)});
  out.push_back({0xe9, 0x80, 0x01});
  return out;
}

TEST(DiffDwarfExpr, MalformedBytesFailWhereLlvmDwarfdump22Does) {
  expectOracles();
  const uint64_t total = oracle::sampleCount(2000) * 3 / 20; // 300 at the CI default
  const Config& c = kConfigs[0];
  Target target = targetOf(c);
  test::ExprGenOptions o;
  o.format.address_size = c.address_size;
  std::vector<uint64_t> bases = test::exprlocBaseTypeOffsets(false);
  o.base_types = bases;
  // Prefixes llvm-dwarfdump-22 decodes as abikit does.
  for (Op op : test::encodableOps(o.format))
    if (op != Op::const_type && op != Op::deref_type && op != Op::xderef_type &&
        op != Op::reinterpret && op != Op::LLVM_aspace_bregx)
      o.only.push_back(op);
  o.max_ops = 4;
  test::ExprGenerator gen(oracle::sampleSeed(1) + 77, o);
  std::vector<std::vector<uint8_t>> bad = badOperations();
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<size_t> at;
  for (uint64_t i = 0; i < total; ++i) {
    std::vector<uint8_t> b = encode(gen.next(), o.format);
    // Only at the top level: inside an entry_value the bad byte would be nested.
    Expression pre = decode(b, o.format);
    bool nested = false;
    for (const Operation& op : pre.ops) nested = nested || op.op == Op::entry_value;
    if (nested) b.clear();
    at.push_back(b.size());
    const auto& x = bad[gen.rng()() % bad.size()];
    b.insert(b.end(), x.begin(), x.end());
    for (int k = int(gen.rng()() % 4); k > 0; --k) b.push_back(uint8_t(gen.rng()()));
    inputs.push_back(std::move(b));
  }
  std::vector<std::string> dumped = dumpLocations(c, inputs);
  ASSERT_EQ(dumped.size(), inputs.size());
  DisplayOptions d = displayOptionsFor(target, ExtEncoding::User);
  size_t agreed = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE("bytes" + hexFrom(inputs[i], 0) + " llvm-dwarfdump-22: " + dumped[i]);
    // llvm-dwarfdump-22 reports the error at the bad operation and prints the bytes from there.
    std::vector<std::string> theirs = llvmTokens(dumped[i]);
    ASSERT_FALSE(theirs.empty());
    EXPECT_EQ(theirs.back(), "<decoding error>" + hexFrom(inputs[i], at[i]));
    try {
      decode(inputs[i], o.format);
      ADD_FAILURE() << "abikit decoded it";
    } catch (const ExprError& e) {
      EXPECT_EQ(e.position(), at[i]) << e.what();
      EXPECT_TRUE(e.exprKind() == ExprErrorKind::UnknownOpcode ||
                  e.exprKind() == ExprErrorKind::ReservedSubOpcode ||
                  e.exprKind() == ExprErrorKind::UnknownSubOpcode)
          << e.what();
      // And the operations before it print the same.
      std::vector<uint8_t> prefix(inputs[i].begin(), inputs[i].begin() + std::ptrdiff_t(at[i]));
      std::vector<std::string> ours = abikitTokens(decode(prefix, o.format), d);
      ASSERT_EQ(ours.size() + 1, theirs.size());
      for (size_t k = 0; k < ours.size(); ++k) EXPECT_EQ(ours[k], theirs[k]);
      ++agreed;
    }
  }
  std::printf("dwarf-expr malformed: %zu byte strings, %zu fail at the same operation as "
              "llvm-dwarfdump-22\n",
              inputs.size(), agreed);
}

} // namespace
