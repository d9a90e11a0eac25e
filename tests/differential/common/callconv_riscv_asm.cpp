#include "callconv_riscv_asm.h"

#include <cstdlib>

namespace abikit::difftest {

namespace {

const char* const kRegNames[64] = {
    "zero", "ra",  "sp",  "gp",  "tp",  "t0",  "t1",   "t2",   "s0",  "s1",  "a0",   "a1",  "a2",
    "a3",   "a4",  "a5",  "a6",  "a7",  "s2",  "s3",   "s4",   "s5",  "s6",  "s7",   "s8",  "s9",
    "s10",  "s11", "t3",  "t4",  "t5",  "t6",  "ft0",  "ft1",  "ft2", "ft3", "ft4",  "ft5", "ft6",
    "ft7",  "fs0", "fs1", "fa0", "fa1", "fa2", "fa3",  "fa4",  "fa5", "fa6", "fa7",  "fs2", "fs3",
    "fs4",  "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

int regIndex(std::string_view n) {
  for (int i = 0; i < 64; ++i)
    if (n == kRegNames[i]) return i;
  if (n == "fp") return 8;
  if (n.size() >= 2 && (n[0] == 'x' || n[0] == 'f')) {
    int v = 0;
    for (size_t i = 1; i < n.size(); ++i) {
      if (n[i] < '0' || n[i] > '9') return -1;
      v = v * 10 + (n[i] - '0');
    }
    if (v < 32) return n[0] == 'x' ? v : 32 + v;
  }
  return -1;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool parseInt(std::string_view s, int64_t& v) {
  s = trim(s);
  if (s.empty()) return false;
  std::string t(s);
  char* end = nullptr;
  long long x = std::strtoll(t.c_str(), &end, 0);
  if (end == t.c_str() || *end) return false;
  v = x;
  return true;
}

/// "sym", "sym+8", "sym-8"
bool parseSymbol(std::string_view s, std::string& sym, int64_t& off) {
  s = trim(s);
  size_t k = s.find_first_of("+-", 1);
  off = 0;
  if (k == std::string_view::npos) {
    sym = std::string(s);
    return !sym.empty();
  }
  sym = std::string(s.substr(0, k));
  int64_t v = 0;
  if (!parseInt(s.substr(k + 1), v)) return false;
  off = s[k] == '-' ? -v : v;
  return true;
}

/// "%hi(x)" / "%lo(x)": the inside, or empty.
std::string_view reloc(std::string_view s, std::string_view name) {
  s = trim(s);
  if (s.size() < name.size() + 3 || s.substr(0, name.size()) != name || s[name.size()] != '(' ||
      s.back() != ')')
    return {};
  return s.substr(name.size() + 1, s.size() - name.size() - 2);
}

using Bits = std::array<Sym, 64>;

constexpr Sym kUnknown{};
constexpr Sym kZero{Sym::Zero, 0, 0};
constexpr Sym kOne{Sym::One, 0, 0};

Bits constBits(uint64_t v) {
  Bits b;
  for (int k = 0; k < 64; ++k) b[size_t(k)] = (v >> k) & 1 ? kOne : kZero;
  return b;
}

Bits unknownBits() {
  return Bits{};
}

class Machine {
public:
  Machine(unsigned xlen, std::string_view target, Trace& t) : xlen_(xlen), target_(target), t_(t) {
    t_.xlen = xlen;
    for (int i = 0; i < 64; ++i)
      for (int k = 0; k < 64; ++k)
        r_[size_t(i)][size_t(k)] =
            i < 32 && unsigned(k) >= xlen ? kUnknown : Sym{Sym::Reg, i, int64_t(k)};
    r_[0] = constBits(0);
    r_[2] = addrBits(t_.tables.address(SymTables::kStack, 0));
  }

  void run(const std::vector<std::string_view>& lines) {
    t_.ok = true;
    labels_.clear();
    for (size_t i = 0; i < lines.size(); ++i)
      if (!lines[i].empty() && lines[i].back() == ':')
        labels_[std::string(lines[i].substr(0, lines[i].size() - 1))] = i;
    // Straight-line code, and loops whose branches depend only on constants and addresses
    // (GCC expands large copies into counted loops).
    size_t pc = 0, steps = 0;
    while (pc < lines.size() && !done_) {
      if (++steps > 2000000) {
        t_.ok = false;
        t_.error = "too many steps (a loop the reader cannot bound)";
        return;
      }
      jump_ = -1;
      if (!step(lines[pc])) {
        t_.ok = false;
        if (t_.error.empty()) t_.error = "cannot follow '" + std::string(lines[pc]) + "'";
        return;
      }
      pc = jump_ >= 0 ? size_t(jump_) : pc + 1;
    }
  }

private:
  // ----- helpers ------------------------------------------------------------------------------

  Bits addrBits(int id) const {
    Bits b;
    for (unsigned k = 0; k < 64; ++k) b[k] = k < xlen_ ? Sym{Sym::Addr, id, int64_t(k)} : kUnknown;
    return b;
  }

  bool constOf(const Bits& b, uint64_t& v) const {
    v = 0;
    for (unsigned k = 0; k < xlen_; ++k) {
      if (b[k].kind == Sym::One)
        v |= uint64_t(1) << k;
      else if (b[k].kind != Sym::Zero)
        return false;
    }
    if (xlen_ == 32 && (v >> 31 & 1)) v |= ~uint64_t(0) << 32; // sign-extend
    return true;
  }

  Bits fromConst(uint64_t v) const {
    Bits b = constBits(v);
    normalize(b);
    return b;
  }

  void normalize(Bits& b) const {
    for (unsigned k = xlen_; k < 64; ++k) b[k] = kUnknown;
  }

  /// The address a register value stands for: an address the function computed, or a pointer
  /// it received (any value made only of entry bits).
  bool asAddress(const Bits& b, Address& a) {
    if (b[0].kind == Sym::Addr) {
      int id = b[0].id;
      for (unsigned k = 0; k < xlen_; ++k)
        if (!(b[k] == Sym{Sym::Addr, id, int64_t(k)})) return false;
      a = t_.tables.addressAt(id);
      return true;
    }
    std::vector<Sym> key(b.begin(), b.begin() + xlen_);
    for (const Sym& s : key)
      if (s.kind != Sym::Reg && s.kind != Sym::Mem) return false;
    a = Address{t_.tables.pointer(key), 0};
    return true;
  }

  void setX(int rd, Bits b) {
    if (rd <= 0 || rd >= 32) return;
    normalize(b);
    r_[size_t(rd)] = b;
  }

public:
  static std::vector<std::string_view> operandsOf(std::string_view s) { return operands(s); }

private:
  static std::vector<std::string_view> operands(std::string_view s) {
    std::vector<std::string_view> out;
    s = trim(s);
    if (s.empty()) return out;
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '(') ++depth;
      if (s[i] == ')') --depth;
      if (s[i] == ',' && depth == 0) {
        out.push_back(trim(s.substr(start, i - start)));
        start = i + 1;
      }
    }
    out.push_back(trim(s.substr(start)));
    return out;
  }

  /// "imm(reg)", "%lo(sym+N)(reg)".
  bool memOperand(std::string_view op, Address& a) {
    size_t open = op.rfind('(');
    if (open == std::string_view::npos || op.back() != ')') return false;
    int base = regIndex(trim(op.substr(open + 1, op.size() - open - 2)));
    std::string_view expr = trim(op.substr(0, open));
    if (std::string_view lo = reloc(expr, "%lo"); !lo.empty()) {
      std::string sym;
      int64_t off;
      if (!parseSymbol(lo, sym, off)) return false;
      a = Address{t_.tables.global(sym), off};
      return true;
    }
    int64_t imm = 0;
    if (!expr.empty() && !parseInt(expr, imm)) return false;
    if (base < 0 || base >= 32) return false;
    if (!asAddress(r_[size_t(base)], a)) {
      t_.error = "a memory access through " + std::string(kRegNames[base]) +
                 ", which holds no known address";
      return false;
    }
    a.offset += imm;
    return true;
  }

  bool immOrLo(std::string_view op, int64_t& imm, bool& is_lo, Address& lo_addr) {
    is_lo = false;
    if (std::string_view lo = reloc(op, "%lo"); !lo.empty()) {
      std::string sym;
      int64_t off;
      if (!parseSymbol(lo, sym, off)) return false;
      is_lo = true;
      lo_addr = Address{t_.tables.global(sym), off};
      return true;
    }
    return parseInt(op, imm);
  }

  // ----- arithmetic on bits ------------------------------------------------------------------

  Bits add(const Bits& a, const Bits& b, int64_t extra = 0) {
    uint64_t ca, cb;
    bool ka = constOf(a, ca), kb = constOf(b, cb);
    if (ka && kb) return fromConst(ca + cb + uint64_t(extra));
    if (ka || kb) {
      const Bits& v = ka ? b : a;
      uint64_t c = (ka ? ca : cb) + uint64_t(extra);
      if (c == 0) return v;
      Address ad;
      if (asAddress(v, ad)) return addrBits(t_.tables.address(ad.base, ad.offset + int64_t(c)));
      return unknownBits();
    }
    if (extra != 0) return unknownBits();
    // Disjoint bits (one side 0 at every position): a carry-free add, i.e. an or.
    Bits out;
    for (unsigned k = 0; k < xlen_; ++k) {
      if (a[k].kind == Sym::Zero)
        out[k] = b[k];
      else if (b[k].kind == Sym::Zero)
        out[k] = a[k];
      else
        return unknownBits();
    }
    return out;
  }

  Bits bitwise(char op, const Bits& a, const Bits& b) const {
    Bits out;
    for (unsigned k = 0; k < xlen_; ++k) {
      const Sym &x = a[k], &y = b[k];
      Sym r = kUnknown;
      if (op == '&') {
        if (x.kind == Sym::Zero || y.kind == Sym::Zero)
          r = kZero;
        else if (x.kind == Sym::One)
          r = y;
        else if (y.kind == Sym::One)
          r = x;
        else if (x == y)
          r = x;
      } else if (op == '|') {
        if (x.kind == Sym::One || y.kind == Sym::One)
          r = kOne;
        else if (x.kind == Sym::Zero)
          r = y;
        else if (y.kind == Sym::Zero)
          r = x;
        else if (x == y)
          r = x;
      } else { // ^
        if (x.kind == Sym::Zero)
          r = y;
        else if (y.kind == Sym::Zero)
          r = x;
        else if (x.isConst() && y.isConst())
          r = x.kind == y.kind ? kZero : kOne;
      }
      out[k] = r;
    }
    return out;
  }

  Bits shift(const Bits& a, int kind, unsigned n, bool word) const {
    // kind: 0 left, 1 logical right, 2 arithmetic right.
    unsigned w = word ? 32 : xlen_;
    Bits out;
    for (unsigned k = 0; k < w; ++k) {
      if (kind == 0)
        out[k] = k >= n ? a[k - n] : kZero;
      else if (k + n < w)
        out[k] = a[k + n];
      else
        out[k] = kind == 2 ? a[w - 1] : kZero;
    }
    if (word)
      for (unsigned k = 32; k < xlen_; ++k) out[k] = out[31];
    return out;
  }

  Bits signExtendWord(const Bits& a) const {
    Bits out = a;
    for (unsigned k = 32; k < xlen_; ++k) out[k] = a[31];
    return out;
  }

  /// Compares two values known as constants or as addresses with the same base: -1, 0, 1, or 2
  /// when it cannot be decided.
  int compare(const Bits& a, const Bits& b) {
    uint64_t ca, cb;
    if (constOf(a, ca) && constOf(b, cb)) {
      int64_t x = int64_t(ca), y = int64_t(cb);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    if (a[0].kind == Sym::Addr && b[0].kind == Sym::Addr) {
      Address x = t_.tables.addressAt(a[0].id), y = t_.tables.addressAt(b[0].id);
      if (x.base != y.base) return 2;
      return x.offset < y.offset ? -1 : x.offset > y.offset ? 1 : 0;
    }
    if (a[0].kind == Sym::Addr && constOf(b, cb) && cb == 0) return 1; // an address is not 0
    return 2;
  }

  bool jumpTo(std::string_view label) {
    auto it = labels_.find(std::string(label));
    if (it == labels_.end()) {
      t_.error = "a jump to an unknown label '" + std::string(label) + "'";
      return false;
    }
    jump_ = int64_t(it->second);
    return true;
  }

  // ----- memory -------------------------------------------------------------------------------

  Bits load(const Address& a, unsigned bytes, bool sign, bool fp) const {
    Bits out;
    for (unsigned i = 0; i < bytes; ++i) {
      ByteSyms b = t_.memory.read(a.base, a.offset + int64_t(i), t_.tables);
      for (unsigned k = 0; k < 8; ++k) out[i * 8 + k] = b[k];
    }
    unsigned width = fp ? 64 : xlen_;
    for (unsigned k = bytes * 8; k < width; ++k)
      out[k] = fp ? kOne : sign ? out[bytes * 8 - 1] : kZero;
    return out;
  }

  void store(const Address& a, const Bits& v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) {
      ByteSyms b;
      for (unsigned k = 0; k < 8; ++k) b[k] = v[i * 8 + k];
      t_.memory.write(a.base, a.offset + int64_t(i), b);
    }
  }

  // ----- calls --------------------------------------------------------------------------------

  void clobber() {
    static const int kCallerSaved[] = {1,  5,  6,  7,  10, 11, 12, 13, 14, 15, 16, 17,
                                       28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                                       42, 43, 44, 45, 46, 47, 48, 49, 60, 61, 62, 63};
    for (int i : kCallerSaved) r_[size_t(i)] = unknownBits();
  }

  bool call(std::string_view target, bool tail) {
    size_t at = target.find('@');
    if (at != std::string_view::npos) target = target.substr(0, at);
    if (!target_.empty() && target == target_) {
      snapshot();
      done_ = true;
      return true;
    }
    if (target == "memcpy" || target == "memmove" || target == "memset") {
      Address dst, src;
      uint64_t n = 0, byte = 0;
      if (!asAddress(r_[10], dst) || !constOf(r_[12], n) || n > (1u << 20)) {
        t_.error = "a call to " + std::string(target) + " with unknown operands";
        return false;
      }
      if (target == "memset") {
        if (!constOf(r_[11], byte)) {
          t_.error = "memset with an unknown byte";
          return false;
        }
        ByteSyms b;
        for (unsigned k = 0; k < 8; ++k) b[k] = (byte >> k) & 1 ? kOne : kZero;
        for (uint64_t i = 0; i < n; ++i) t_.memory.write(dst.base, dst.offset + int64_t(i), b);
      } else {
        if (!asAddress(r_[11], src)) {
          t_.error = "a call to " + std::string(target) + " with an unknown source";
          return false;
        }
        std::vector<ByteSyms> tmp;
        for (uint64_t i = 0; i < n; ++i)
          tmp.push_back(t_.memory.read(src.base, src.offset + int64_t(i), t_.tables));
        for (uint64_t i = 0; i < n; ++i) t_.memory.write(dst.base, dst.offset + int64_t(i), tmp[i]);
      }
      Bits keep = r_[10];
      clobber();
      r_[10] = keep;
    } else {
      clobber();
    }
    if (tail) {
      // A tail call to memcpy (LLVM 15 and later end a callee that copies its argument so) is
      // the copy followed by the return.
      bool mem = target == "memcpy" || target == "memmove" || target == "memset";
      if (mem && target_.empty()) snapshot();
      done_ = true;
    }
    return true;
  }

  void snapshot() {
    t_.reached = true;
    t_.regs.assign(r_.begin(), r_.end());
    Address sp;
    if (asAddress(r_[2], sp)) t_.sp = sp;
  }

  // ----- one instruction ---------------------------------------------------------------------

  bool step(std::string_view line) {
    line = trim(line);
    size_t sp = line.find_first_of(" \t");
    std::string_view m = line.substr(0, sp);
    std::vector<std::string_view> ops =
        operands(sp == std::string_view::npos ? std::string_view() : line.substr(sp));
    auto R = [&](size_t i) { return i < ops.size() ? regIndex(ops[i]) : -1; };
    auto need = [&](size_t n) { return ops.size() == n; };
    auto X = [&](size_t i) -> const Bits& {
      int r = R(i);
      return r >= 0 ? r_[size_t(r)] : none_;
    };

    if (m == "nop" || m.back() == ':') return true;
    if (m == "ret" || m == "jr" || m == "call" || m == "tail" || m == "jal" || m == "j" ||
        m[0] == 'b') {
      // handled below
    } else {
      // Every register operand must be a register the reader knows.
      for (size_t i = 0; i < ops.size(); ++i) {
        bool memory = ops[i].find('(') != std::string_view::npos;
        bool number =
            !ops[i].empty() && (ops[i][0] == '-' || (ops[i][0] >= '0' && ops[i][0] <= '9'));
        if (!memory && !number && ops[i][0] != '%' && R(i) < 0) {
          t_.error = "unknown operand '" + std::string(ops[i]) + "' in '" + std::string(line) + "'";
          return false;
        }
      }
    }
    if (m == "ret" || (m == "jr" && need(1) && R(0) == 1)) {
      if (target_.empty()) snapshot();
      done_ = true;
      return true;
    }
    if (m == "call" || m == "tail") {
      if (ops.empty()) return false;
      return call(ops.back(), m == "tail");
    }
    if (m == "jal" && need(1)) return call(ops[0], false);
    if (m == "jal" && need(2) && R(0) == 1) return call(ops[1], false);

    // Loads and stores.
    struct Mem {
      std::string_view name;
      unsigned bytes;
      bool sign, store, fp;
    };
    static const Mem kMem[] = {{"lb", 1, true, false, false},  {"lbu", 1, false, false, false},
                               {"lh", 2, true, false, false},  {"lhu", 2, false, false, false},
                               {"lw", 4, true, false, false},  {"lwu", 4, false, false, false},
                               {"ld", 8, true, false, false},  {"sb", 1, false, true, false},
                               {"sh", 2, false, true, false},  {"sw", 4, false, true, false},
                               {"sd", 8, false, true, false},  {"flw", 4, false, false, true},
                               {"fld", 8, false, false, true}, {"fsw", 4, false, true, true},
                               {"fsd", 8, false, true, true},  {"flh", 2, false, false, true},
                               {"fsh", 2, false, true, true}};
    for (const Mem& mm : kMem) {
      if (m != mm.name) continue;
      if (!need(2)) return false;
      int reg = R(0);
      Address a;
      if (reg < 0 || !memOperand(ops[1], a)) return false;
      if (mm.store) {
        store(a, r_[size_t(reg)], mm.bytes);
      } else if (mm.fp) {
        r_[size_t(reg)] = load(a, mm.bytes, false, true);
      } else {
        setX(reg, load(a, mm.bytes, mm.sign, false));
      }
      return true;
    }

    int rd = R(0);
    if (m == "lui" && need(2)) {
      if (std::string_view hi = reloc(ops[1], "%hi"); !hi.empty()) {
        std::string sym;
        int64_t off;
        if (!parseSymbol(hi, sym, off)) return false;
        setX(rd, addrBits(t_.tables.address(t_.tables.global(sym), off)));
        return true;
      }
      int64_t imm;
      if (!parseInt(ops[1], imm)) return false;
      setX(rd, fromConst(uint64_t(int64_t(int32_t(uint32_t(imm) << 12)))));
      return true;
    }
    if (m == "li" && need(2)) {
      int64_t imm;
      if (!parseInt(ops[1], imm)) return false;
      setX(rd, fromConst(uint64_t(imm)));
      return true;
    }
    if (m == "mv" && need(2)) {
      setX(rd, X(1));
      return true;
    }
    if ((m == "addi" || m == "addiw") && need(3)) {
      int64_t imm = 0;
      bool is_lo;
      Address lo;
      if (!immOrLo(ops[2], imm, is_lo, lo)) return false;
      if (is_lo) {
        setX(rd, addrBits(t_.tables.address(lo.base, lo.offset)));
        return true;
      }
      const Bits& a = X(1);
      if (m == "addiw") {
        uint64_t c;
        if (constOf(a, c)) {
          setX(rd, fromConst(uint64_t(int64_t(int32_t(uint32_t(c + uint64_t(imm)))))));
          return true;
        }
        setX(rd, imm == 0 ? signExtendWord(a) : unknownBits());
        return true;
      }
      setX(rd, add(a, constBits(0), imm));
      return true;
    }
    if (m == "sext.w" && need(2)) {
      setX(rd, signExtendWord(X(1)));
      return true;
    }
    if ((m == "add" || m == "addw") && need(3)) {
      Bits v = add(X(1), X(2));
      if (m == "addw") v = signExtendWord(v);
      setX(rd, v);
      return true;
    }
    if ((m == "sub" || m == "subw") && need(3)) {
      uint64_t c;
      if (constOf(X(2), c)) {
        Bits v = add(X(1), constBits(0), -int64_t(c));
        setX(rd, m == "subw" ? signExtendWord(v) : v);
      } else {
        setX(rd, unknownBits());
      }
      return true;
    }
    if ((m == "andi" || m == "ori" || m == "xori") && need(3)) {
      int64_t imm;
      if (!parseInt(ops[2], imm)) return false;
      // Stack realignment: `andi sp, sp, -64` gives a frame base of its own.
      if (m == "andi" && imm < 0 && (uint64_t(-imm) & uint64_t(-imm - 1)) == 0 &&
          X(1)[0].kind == Sym::Addr) {
        setX(rd, addrBits(t_.tables.address(t_.tables.frame(), 0)));
        return true;
      }
      setX(rd, bitwise(m[0] == 'a'   ? '&'
                       : m[0] == 'o' ? '|'
                                     : '^',
                       X(1), constBits(uint64_t(imm))));
      return true;
    }
    if ((m == "and" || m == "or" || m == "xor") && need(3)) {
      setX(rd, bitwise(m[0] == 'a' ? '&' : m[0] == 'o' ? '|' : '^', X(1), X(2)));
      return true;
    }
    struct Shift {
      std::string_view name;
      int kind;
      bool word;
    };
    static const Shift kShifts[] = {{"slli", 0, false}, {"srli", 1, false}, {"srai", 2, false},
                                    {"slliw", 0, true}, {"srliw", 1, true}, {"sraiw", 2, true}};
    for (const Shift& s : kShifts) {
      if (m != s.name) continue;
      int64_t n;
      if (!need(3) || !parseInt(ops[2], n)) return false;
      setX(rd, shift(X(1), s.kind, unsigned(n), s.word));
      return true;
    }
    if ((m == "sll" || m == "srl" || m == "sra" || m == "sllw" || m == "srlw" || m == "sraw") &&
        need(3)) {
      uint64_t n;
      if (!constOf(X(2), n)) {
        setX(rd, unknownBits());
        return true;
      }
      bool word = m.size() == 4;
      unsigned amount = unsigned(n & (word ? 31 : xlen_ - 1));
      setX(rd, shift(X(1), m[2] == 'l' && m[1] == 'l' ? 0 : m[2] == 'l' ? 1 : 2, amount, word));
      return true;
    }

    // Moves between and within the register files.
    if ((m == "fmv.x.w" || m == "fmv.x.s") && need(2)) {
      Bits v = X(1);
      for (unsigned k = 32; k < 64; ++k) v[k] = v[31];
      setX(rd, v);
      return true;
    }
    if ((m == "fmv.w.x" || m == "fmv.s.x") && need(2) && rd >= 32) {
      Bits v = X(1);
      for (unsigned k = 32; k < 64; ++k) v[k] = kOne;
      r_[size_t(rd)] = v;
      return true;
    }
    if (m == "fmv.x.d" && need(2)) {
      setX(rd, X(1));
      return true;
    }
    if (m == "fmv.d.x" && need(2) && rd >= 32) {
      r_[size_t(rd)] = X(1);
      return true;
    }
    if ((m == "fmv.s" || m == "fmv.d") && need(2) && rd >= 32) {
      r_[size_t(rd)] = X(1);
      return true;
    }
    if ((m == "fsgnj.s" || m == "fsgnj.d") && need(3) && rd >= 32 && R(1) == R(2)) {
      r_[size_t(rd)] = X(1);
      return true;
    }

    // Branches the reader can decide.
    if (m == "j" && need(1)) return jumpTo(ops[0]);
    if (m[0] == 'b') {
      int cmp = 2; // -1/0/1, 2 = undecidable
      std::string_view cond = m.substr(1);
      bool zero_form = cond.size() > 1 && cond.back() == 'z';
      if (zero_form) cond.remove_suffix(1);
      if (zero_form && need(2))
        cmp = compare(X(0), constBits(0));
      else if (!zero_form && need(3))
        cmp = compare(X(0), X(1));
      if (cmp != 2) {
        bool taken = cond == "eq"                    ? cmp == 0
                     : cond == "ne"                  ? cmp != 0
                     : cond == "lt" || cond == "ltu" ? cmp < 0
                     : cond == "ge" || cond == "geu" ? cmp >= 0
                     : cond == "gt" || cond == "gtu" ? cmp > 0
                     : cond == "le" || cond == "leu" ? cmp <= 0
                                                     : (cmp = 2, false);
        if (cmp != 2) return taken ? jumpTo(ops.back()) : true;
      }
    }
    // Control flow the reader does not follow.
    if (m[0] == 'b' || m == "j" || m == "jal" || m == "jalr" || m == "jr") {
      t_.error = "control flow ('" + std::string(line) + "')";
      return false;
    }
    // Anything else computes a value the probe cannot follow.
    if (rd >= 0) {
      if (rd >= 32)
        r_[size_t(rd)] = unknownBits();
      else
        setX(rd, unknownBits());
      return true;
    }
    t_.error = "unknown instruction '" + std::string(line) + "'";
    return false;
  }

  unsigned xlen_;
  std::string target_;
  Trace& t_;
  std::array<Bits, 64> r_;
  Bits none_{};
  bool done_ = false;
  std::map<std::string, size_t> labels_;
  int64_t jump_ = -1;
};

} // namespace

std::map<std::string, std::vector<std::string_view>> splitRiscvFunctions(std::string_view text) {
  std::map<std::string, std::vector<std::string_view>> out;
  std::vector<std::string_view>* cur = nullptr;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line.empty()) continue;
    if (line[0] != ' ' && line[0] != '\t') {
      std::string_view l = trim(line);
      // LLVM 15 and later follow a label with a comment (`g:    # @g`).
      if (size_t hash = l.find('#'); hash != std::string_view::npos)
        l = trim(l.substr(0, hash)); // and write block comments (`# %bb.0:`)
      if (!l.empty() && l.back() == ':' && l[0] != '.' && l[0] != '#')
        cur = &out[std::string(l.substr(0, l.size() - 1))];
      else if (!l.empty() && l.back() == ':' && cur)
        cur->push_back(l); // a local label: the reader refuses branches anyway
      continue;
    }
    std::string_view l = trim(line);
    if (l.empty() || l[0] == '.' || l[0] == '#') continue;
    size_t comment = l.find('#');
    if (comment != std::string_view::npos) l = trim(l.substr(0, comment));
    if (cur && !l.empty()) cur->push_back(l);
  }
  return out;
}

AsmData parseRiscvData(std::string_view text) {
  AsmData out;
  std::vector<uint8_t>* cur = nullptr;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = trim(text.substr(pos, nl - pos));
    pos = nl + 1;
    if (size_t hash = line.find('#'); hash != std::string_view::npos && hash > 0)
      line = trim(line.substr(0, hash));
    if (line.empty()) continue;
    if (line.back() == ':') {
      cur = &out[std::string(line.substr(0, line.size() - 1))];
      continue;
    }
    if (!cur || line[0] != '.') {
      cur = nullptr; // an instruction: the label was code
      continue;
    }
    size_t sp = line.find_first_of(" \t");
    std::string_view dir = line.substr(0, sp);
    std::string_view rest = sp == std::string_view::npos ? std::string_view() : line.substr(sp);
    int width = dir == ".byte"                                         ? 1
                : dir == ".half" || dir == ".2byte" || dir == ".short" ? 2
                : dir == ".word" || dir == ".4byte" || dir == ".long"  ? 4
                : dir == ".dword" || dir == ".8byte" || dir == ".quad" ? 8
                                                                       : 0;
    if (width) {
      for (std::string_view item : Machine::operandsOf(rest)) {
        int64_t v = 0;
        if (!parseInt(item, v)) {
          cur = nullptr;
          break;
        }
        for (int i = 0; i < width; ++i) cur->push_back(uint8_t(uint64_t(v) >> (8 * i)));
      }
    } else if (dir == ".zero") {
      int64_t n = 0;
      if (parseInt(rest, n) && n > 0 && n < (1 << 20)) cur->insert(cur->end(), size_t(n), 0);
    }
  }
  for (auto it = out.begin(); it != out.end();)
    it = it->second.empty() ? out.erase(it) : std::next(it);
  return out;
}

Trace followRiscv(const std::vector<std::string_view>& lines, unsigned xlen,
                  std::string_view call_target, const AsmData* data) {
  std::vector<std::string> names(kRegNames, kRegNames + 64);
  Trace t;
  t.tables = SymTables(std::move(names));
  if (data)
    for (const auto& [label, bytes] : *data) {
      int base = t.tables.global(label);
      for (size_t i = 0; i < bytes.size(); ++i) {
        ByteSyms b;
        for (unsigned k = 0; k < 8; ++k) b[k] = (bytes[i] >> k) & 1 ? kOne : kZero;
        t.memory.write(base, int64_t(i), b);
      }
    }
  Machine m(xlen, call_target, t);
  m.run(lines);
  return t;
}

} // namespace abikit::difftest
