// The amdgcn byte-flow tracer (see amdgpu_asm.h).
#include "amdgpu_asm.h"

#include <array>
#include <cctype>
#include <optional>
#include <set>
#include <sstream>

namespace abikit::difftest::amdgcn {

std::string ByteSrc::text() const {
  switch (kind) {
  case Unknown:
    return "unknown";
  case Const:
    return "const " + std::to_string(offset);
  case Arg:
    return "v" + std::to_string(reg) + " byte " + std::to_string(byte);
  case Ret:
    return "returned v" + std::to_string(reg) + " byte " + std::to_string(byte);
  case Stack:
    return "stack " + std::to_string(offset);
  case Frame:
    return "frame " + std::to_string(offset);
  }
  return "?";
}

namespace {

using Bytes = std::array<ByteSrc, 4>;

ByteSrc unknown() {
  return ByteSrc{};
}
ByteSrc constByte(uint8_t v) {
  ByteSrc b;
  b.kind = ByteSrc::Const;
  b.offset = v;
  return b;
}
bool isZero(const ByteSrc& b) {
  return b.kind == ByteSrc::Const && b.offset == 0;
}
Bytes constBytes(uint32_t v) {
  Bytes r;
  for (int i = 0; i < 4; ++i) r[size_t(i)] = constByte(uint8_t(v >> (8 * i)));
  return r;
}
Bytes allUnknown() {
  return Bytes{};
}
std::optional<uint32_t> constValue(const Bytes& b) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    if (b[size_t(i)].kind != ByteSrc::Const) return std::nullopt;
    v |= uint32_t(b[size_t(i)].offset & 0xff) << (8 * i);
  }
  return v;
}

// ----- operands -------------------------------------------------------------------------------

struct Operand {
  enum Kind : uint8_t { None, VReg, SReg, Imm, Sym, Off, Other } kind = None;
  int reg = 0;
  int count = 1;
  int64_t imm = 0;
  std::string sym;
  bool hi = false; // Sym: @hi relocation
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

std::optional<int64_t> parseInt(const std::string& s) {
  if (s.empty()) return std::nullopt;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-') neg = true, i = 1;
  if (i >= s.size()) return std::nullopt;
  int base = 10;
  if (s.size() > i + 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) base = 16, i += 2;
  int64_t v = 0;
  for (; i < s.size(); ++i) {
    int d;
    char c = s[i];
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f')
      d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return std::nullopt;
    v = v * base + d;
  }
  return neg ? -v : v;
}

Operand parseOperand(const std::string& text) {
  Operand o;
  std::string s = trim(text);
  if (s.empty()) return o;
  if (s == "off") {
    o.kind = Operand::Off;
    return o;
  }
  // VCC is an SGPR pair for the scalar ALU (numbered above the real SGPRs here).
  if (s == "vcc" || s == "vcc_lo" || s == "vcc_hi") {
    o.kind = Operand::SReg;
    o.reg = s == "vcc_hi" ? 107 : 106;
    o.count = s == "vcc" ? 2 : 1;
    return o;
  }
  if ((s[0] == 'v' || s[0] == 's') && s.size() > 1) {
    bool vreg = s[0] == 'v';
    if (s[1] == '[') {
      size_t colon = s.find(':'), close = s.find(']');
      auto a = parseInt(s.substr(2, colon - 2));
      auto b = parseInt(s.substr(colon + 1, close - colon - 1));
      if (a && b && colon != std::string::npos && close != std::string::npos) {
        o.kind = vreg ? Operand::VReg : Operand::SReg;
        o.reg = int(*a);
        o.count = int(*b - *a + 1);
        return o;
      }
    } else if (auto n = parseInt(s.substr(1));
               n && std::isdigit(static_cast<unsigned char>(s[1]))) {
      o.kind = vreg ? Operand::VReg : Operand::SReg;
      o.reg = int(*n);
      return o;
    }
  }
  if (auto n = parseInt(s)) {
    o.kind = Operand::Imm;
    o.imm = *n;
    return o;
  }
  size_t at = s.find("@rel32@");
  if (at != std::string::npos) {
    o.kind = Operand::Sym;
    o.sym = s.substr(0, at);
    std::string rest = s.substr(at + 7);
    o.hi = rest.rfind("hi", 0) == 0;
    size_t plus = rest.find_first_of("+-");
    o.imm = plus == std::string::npos
                ? 0
                : parseInt(rest.substr(plus + (rest[plus] == '+'))).value_or(0);
    return o;
  }
  o.kind = Operand::Other;
  return o;
}

struct Insn {
  std::string op; // mnemonic without _e32/_e64
  bool sdwa = false;
  std::vector<Operand> ops;
  std::vector<std::string> mods; // "offset:12", "offen", "dst_sel:BYTE_0", ...
  int64_t offset = 0;            // the offset:N modifier
};

Insn parseInsn(const std::string& line) {
  Insn in;
  std::string s = trim(line);
  size_t sp = s.find_first_of(" \t");
  in.op = s.substr(0, sp);
  for (const char* suffix : {"_e32", "_e64"})
    if (in.op.size() > 4 && in.op.compare(in.op.size() - 4, 4, suffix) == 0)
      in.op = in.op.substr(0, in.op.size() - 4);
  if (in.op.size() > 5 && in.op.compare(in.op.size() - 5, 5, "_sdwa") == 0) {
    in.sdwa = true;
    in.op = in.op.substr(0, in.op.size() - 5);
  }
  if (sp == std::string::npos) return in;
  std::string rest = trim(s.substr(sp));
  std::vector<std::string> pieces;
  std::string cur;
  int depth = 0;
  for (char c : rest) {
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      pieces.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  pieces.push_back(cur);
  // Modifiers follow the last operand, separated by spaces.
  std::string last = trim(pieces.back());
  std::istringstream ls(last);
  std::string tok;
  std::vector<std::string> toks;
  while (ls >> tok) toks.push_back(tok);
  pieces.back() = toks.empty() ? "" : toks[0];
  for (size_t i = 1; i < toks.size(); ++i) in.mods.push_back(toks[i]);
  // Some operands themselves carry modifiers ("v1 dst_sel:...") only in the last position.
  for (const std::string& p : pieces) in.ops.push_back(parseOperand(p));
  for (const std::string& m : in.mods)
    if (m.rfind("offset:", 0) == 0) in.offset = parseInt(m.substr(7)).value_or(0);
  return in;
}

bool hasMod(const Insn& in, const std::string& m) {
  for (const std::string& x : in.mods)
    if (x == m) return true;
  return false;
}

std::string modValue(const Insn& in, const std::string& key) {
  for (const std::string& x : in.mods)
    if (x.rfind(key + ":", 0) == 0) return x.substr(key.size() + 1);
  return "";
}

// ----- machine state --------------------------------------------------------------------------

struct SVal {
  enum Kind : uint8_t { Unknown, Const, SymLo, SymHi, Sp } kind = Unknown;
  int64_t value = 0; // Const: value; Sym*: buffer offset; Sp: unswizzled delta from `base`
  int base = 0;      // Sp: 0 = the entry stack pointer; others = a realigned frame pointer
};

constexpr int64_t kBaseShift = int64_t(1) << 40; // scratch map key: base * kBaseShift + offset

struct VVal {
  Bytes b;
  // A symbolic value (an address half of the buffer) when the register holds one.
  SVal::Kind sym = SVal::Unknown;
  int64_t sym_value = 0;
  // A private (scratch) byte address (base * kBaseShift + offset), when known.
  bool priv = false;
  int64_t priv_value = 0;
};

class Tracer {
public:
  Tracer(const std::string& buffer, unsigned wave) : buffer_(buffer), wave_(wave) {}

  void begin(FunctionTrace* out) {
    out_ = out;
    for (int r = 0; r < 256; ++r) {
      v_[size_t(r)] = VVal{};
      for (int i = 0; i < 4; ++i) {
        ByteSrc b;
        b.kind = ByteSrc::Arg;
        b.reg = uint16_t(r);
        b.byte = uint8_t(i);
        v_[size_t(r)].b[size_t(i)] = b;
      }
    }
    for (SVal& s : s_) s = SVal{};
    s_[32].kind = SVal::Sp;
    s_[32].value = 0;
    scratch_.clear();
    lanes_.clear();
  }

  void step(const Insn& in);

private:
  Bytes readV(const Operand& o, int part = 0) const {
    if (o.kind == Operand::VReg) return v_[size_t(o.reg + part)].b;
    if (o.kind == Operand::SReg) {
      const SVal& s = s_[size_t(o.reg + part)];
      if (s.kind == SVal::Const) return constBytes(uint32_t(s.value));
      return allUnknown();
    }
    if (o.kind == Operand::Imm) return constBytes(uint32_t(uint64_t(o.imm) >> (32 * part)));
    return allUnknown();
  }
  std::optional<uint32_t> constOf(const Operand& o) const {
    if (o.kind == Operand::Imm) return uint32_t(o.imm);
    if (o.kind == Operand::SReg && s_[size_t(o.reg)].kind == SVal::Const)
      return uint32_t(s_[size_t(o.reg)].value);
    if (o.kind == Operand::VReg) return constValue(v_[size_t(o.reg)].b);
    return std::nullopt;
  }
  void writeV(const Operand& d, const Bytes& b, int part = 0) {
    if (d.kind != Operand::VReg) return;
    VVal& r = v_[size_t(d.reg + part)];
    r.b = b;
    r.sym = SVal::Unknown;
    r.priv = false;
  }
  /// The scratch byte address a MUBUF access reaches (vaddr with offen, soffset, offset:N),
  /// relative to the entry stack pointer; nullopt when it is not known.
  std::optional<int64_t> scratchAddress(const Insn& in, size_t vaddr_at) const {
    if (in.ops.size() < vaddr_at + 3) return std::nullopt;
    const Operand& vaddr = in.ops[vaddr_at];
    const Operand& soff = in.ops[vaddr_at + 2];
    int64_t at = in.offset;
    if (soff.kind == Operand::SReg) {
      const SVal& sv = s_[size_t(soff.reg)];
      if (sv.kind != SVal::Sp) return std::nullopt;
      at += sv.base * kBaseShift + sv.value / int64_t(wave_);
    } else if (!(soff.kind == Operand::Imm && soff.imm == 0)) {
      return std::nullopt;
    }
    if (hasMod(in, "offen")) {
      if (vaddr.kind != Operand::VReg) return std::nullopt;
      const VVal& va = v_[size_t(vaddr.reg)];
      if (va.priv) {
        at += va.priv_value;
      } else if (auto c = constValue(va.b); c && soff.kind == Operand::SReg) {
        at += int64_t(*c); // a constant offset from a stack pointer in soffset
      } else {
        return std::nullopt;
      }
    } else if (vaddr.kind != Operand::Off) {
      return std::nullopt;
    }
    return at;
  }
  ByteSrc scratchByte(int64_t at) const {
    auto it = scratch_.find(at);
    if (it != scratch_.end()) return it->second;
    ByteSrc b;
    if (at < 0 || at >= kBaseShift) return b; // another base: unknown contents
    b.kind = ByteSrc::Stack;
    b.offset = at;
    return b;
  }
  void clobberDest(const Insn& in) {
    if (in.ops.empty()) return;
    const Operand& d = in.ops[0];
    if (d.kind == Operand::VReg)
      for (int i = 0; i < d.count; ++i) writeV(d, allUnknown(), i);
    if (d.kind == Operand::SReg)
      for (int i = 0; i < d.count; ++i) s_[size_t(d.reg + i)] = SVal{};
  }
  void note(const std::string& op) {
    if (seen_unknown_.insert(op).second) out_->unknown.push_back(op);
  }

  static Bytes shr(const Bytes& a, int64_t k) {
    if (k % 8) return allUnknown();
    Bytes r;
    for (int i = 0; i < 4; ++i) {
      int64_t j = i + k / 8;
      r[size_t(i)] = j < 4 ? a[size_t(j)] : constByte(0);
    }
    return r;
  }
  static Bytes shl(const Bytes& a, int64_t k) {
    if (k % 8) return allUnknown();
    Bytes r;
    for (int i = 0; i < 4; ++i) {
      int64_t j = i - k / 8;
      r[size_t(i)] = j >= 0 ? a[size_t(j)] : constByte(0);
    }
    return r;
  }
  static Bytes andMask(const Bytes& a, uint32_t m) {
    Bytes r;
    for (int i = 0; i < 4; ++i) {
      uint8_t mb = uint8_t(m >> (8 * i));
      if (mb == 0)
        r[size_t(i)] = constByte(0);
      else if (a[size_t(i)].kind == ByteSrc::Const)
        r[size_t(i)] = constByte(uint8_t(a[size_t(i)].offset & mb));
      else
        r[size_t(i)] = a[size_t(i)];
    }
    return r;
  }
  static Bytes orBytes(const Bytes& a, const Bytes& b) {
    Bytes r;
    for (int i = 0; i < 4; ++i) {
      const ByteSrc &x = a[size_t(i)], &y = b[size_t(i)];
      if (isZero(x))
        r[size_t(i)] = y;
      else if (isZero(y))
        r[size_t(i)] = x;
      else if (x.kind == ByteSrc::Const && y.kind == ByteSrc::Const)
        r[size_t(i)] = constByte(uint8_t(x.offset | y.offset));
      else if (x == y)
        r[size_t(i)] = x;
      else
        r[size_t(i)] = unknown();
    }
    return r;
  }
  // SDWA source selection: the selected byte/word moved to the bottom, zero-extended.
  static Bytes sdwaSel(const Bytes& a, const std::string& sel) {
    if (sel.empty() || sel == "DWORD") return a;
    Bytes r = {constByte(0), constByte(0), constByte(0), constByte(0)};
    if (sel.rfind("BYTE_", 0) == 0) {
      r[0] = a[size_t(sel[5] - '0')];
    } else if (sel.rfind("WORD_", 0) == 0) {
      size_t w = size_t(sel[5] - '0');
      r[0] = a[2 * w];
      r[1] = a[2 * w + 1];
    } else {
      return allUnknown();
    }
    return r;
  }
  Bytes sdwaDst(const Insn& in, const Bytes& value, const Bytes& old) const {
    std::string sel = modValue(in, "dst_sel");
    std::string unused = modValue(in, "dst_unused");
    if (sel.empty() || sel == "DWORD") return value;
    Bytes r;
    bool preserve = unused == "UNUSED_PRESERVE";
    for (int i = 0; i < 4; ++i) r[size_t(i)] = preserve ? old[size_t(i)] : constByte(0);
    if (unused == "UNUSED_SEXT") r = allUnknown();
    if (sel.rfind("BYTE_", 0) == 0) {
      r[size_t(sel[5] - '0')] = value[0];
    } else if (sel.rfind("WORD_", 0) == 0) {
      size_t w = size_t(sel[5] - '0');
      r[2 * w] = value[0];
      r[2 * w + 1] = value[1];
    } else {
      return allUnknown();
    }
    return r;
  }

  void load(const Insn& in, int bytes, int dest_byte, bool keep_rest);
  void store(const Insn& in, int bytes, int src_byte);
  std::optional<int64_t> bufferOffset(const Operand& addr_lo, const Operand& saddr,
                                      int64_t imm) const;

  std::string buffer_;
  unsigned wave_;
  FunctionTrace* out_ = nullptr;
  std::array<VVal, 256> v_;
  std::array<SVal, 128> s_;
  std::map<int64_t, ByteSrc> scratch_;        // bytes this function wrote to private memory
  std::map<std::pair<int, int>, SVal> lanes_; // (VGPR, lane) -> SGPR value written there
  int next_base_ = 0;
  std::set<std::string> seen_unknown_;
};

// The buffer offset a global/flat store or load addresses, if it is the buffer.
std::optional<int64_t> Tracer::bufferOffset(const Operand& vaddr, const Operand& saddr,
                                            int64_t imm) const {
  if (saddr.kind == Operand::SReg) {
    const SVal& lo = s_[size_t(saddr.reg)];
    if (lo.kind != SVal::SymLo) return std::nullopt;
    int64_t off = lo.value + imm;
    if (vaddr.kind == Operand::VReg) {
      auto c = constValue(v_[size_t(vaddr.reg)].b);
      if (!c) return std::nullopt;
      off += int64_t(*c);
    }
    return off;
  }
  if (vaddr.kind == Operand::VReg && vaddr.count == 2) {
    const VVal& lo = v_[size_t(vaddr.reg)];
    const VVal& hi = v_[size_t(vaddr.reg + 1)];
    if (lo.sym == SVal::SymLo && hi.sym == SVal::SymHi && lo.sym_value == hi.sym_value)
      return lo.sym_value + imm;
  }
  return std::nullopt;
}

void Tracer::load(const Insn& in, int bytes, int dest_byte, bool keep_rest) {
  // buffer_load_* vdst, off|vaddr, s[0:3], soffset [offen] offset:N
  const Operand& d = in.ops[0];
  if (in.ops.size() < 4 || d.kind != Operand::VReg) {
    clobberDest(in);
    return;
  }
  std::optional<int64_t> at = scratchAddress(in, 1);
  int regs = std::max(1, (bytes + 3) / 4);
  for (int r = 0; r < regs; ++r) {
    Bytes out = keep_rest ? v_[size_t(d.reg + r)].b : constBytes(0);
    for (int i = 0; i < 4 && r * 4 + i < bytes; ++i)
      out[size_t(dest_byte + i)] = at ? scratchByte(*at + r * 4 + i) : unknown();
    if (!keep_rest && bytes < 4) {
      // Sign-extending loads leave the upper bytes unknown (they are not stored anyway).
      if (in.op.find("_sbyte") != std::string::npos || in.op.find("_sshort") != std::string::npos)
        for (int i = bytes; i < 4; ++i) out[size_t(i)] = unknown();
    }
    writeV(d, out, r);
  }
}

void Tracer::store(const Insn& in, int bytes, int src_byte) {
  const bool flat = in.op.rfind("flat_", 0) == 0;
  const bool buffer = in.op.rfind("buffer_", 0) == 0;
  if (buffer) {
    // buffer_store_* vdata, vaddr|off, s[0:3], soffset [offen] offset:N
    if (in.ops.size() >= 2 && in.ops[1].kind == Operand::VReg && hasMod(in, "offen")) {
      const Bytes& a = v_[size_t(in.ops[1].reg)].b;
      bool v0 = true;
      for (int i = 0; i < 4; ++i)
        v0 = v0 && a[size_t(i)].kind == ByteSrc::Arg && a[size_t(i)].reg == 0 &&
             a[size_t(i)].byte == i;
      if (v0) out_->stores_through_v0_private = true;
    }
    const Operand& vdata = in.ops[0];
    std::optional<int64_t> at = scratchAddress(in, 1);
    if (vdata.kind != Operand::VReg) return;
    if (!at) {
      // An unknown private address: forget everything written so far (it may be overwritten).
      scratch_.clear();
      return;
    }
    for (int i = 0; i < bytes; ++i) {
      int reg = vdata.reg + (src_byte + i) / 4;
      scratch_[*at + i] = v_[size_t(reg)].b[size_t((src_byte + i) % 4)];
    }
    return;
  }
  // global_store_* vaddr, vdata, saddr|off offset:N ; flat_store_* vaddr, vdata offset:N
  if (in.ops.size() < 2) return;
  const Operand& vaddr = in.ops[0];
  const Operand& vdata = in.ops[1];
  Operand saddr = in.ops.size() >= 3 ? in.ops[2] : Operand{};
  if (flat && vaddr.kind == Operand::VReg && vaddr.count == 2) {
    bool through = true;
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < 4; ++i) {
        const ByteSrc& b = v_[size_t(vaddr.reg + r)].b[size_t(i)];
        through = through && b.kind == ByteSrc::Arg && b.reg == r && b.byte == i;
      }
    if (through) out_->stores_through_v0v1 = true;
  }
  auto off = bufferOffset(vaddr, saddr, in.offset);
  if (!off || vdata.kind != Operand::VReg) return;
  for (int i = 0; i < bytes; ++i) {
    int reg = vdata.reg + (src_byte + i) / 4;
    int byte = (src_byte + i) % 4;
    out_->stores[*off + i] = v_[size_t(reg)].b[size_t(byte)];
  }
}

void Tracer::step(const Insn& in) {
  const std::string& op = in.op;
  if (op.empty() || op[0] == '.') return;
  // ----- scalar
  if (op == "s_getpc_b64") {
    clobberDest(in);
    return;
  }
  if (op == "s_add_u32" || op == "s_addc_u32" || op == "s_sub_u32" || op == "s_add_i32" ||
      op == "s_sub_i32" || op == "s_addk_i32") {
    if (in.ops.empty() || in.ops[0].kind != Operand::SReg) return;
    const Operand& d = in.ops[0];
    if (op == "s_addc_u32") {
      // The high half of a symbol address follows its low half.
      if (in.ops.size() >= 3 && in.ops[2].kind == Operand::Sym && in.ops[2].sym == buffer_) return;
      if (in.ops.size() >= 3 && in.ops[2].kind == Operand::Imm && in.ops[2].imm == 0 &&
          s_[size_t(d.reg)].kind == SVal::SymHi)
        return;
      s_[size_t(d.reg)] = SVal{};
      return;
    }
    const Operand& b = in.ops.size() >= 3 ? in.ops[2] : in.ops[1];
    if (op == "s_add_u32" && b.kind == Operand::Sym) {
      if (b.sym == buffer_ && !b.hi) {
        s_[size_t(d.reg)] = SVal{SVal::SymLo, b.imm - 4};
        s_[size_t(d.reg + 1)] = SVal{SVal::SymHi, b.imm - 4};
      } else {
        s_[size_t(d.reg)] = SVal{};
        s_[size_t(d.reg + 1)] = SVal{};
      }
      return;
    }
    const Operand& a = op == "s_addk_i32" ? d : in.ops[1];
    SVal av = a.kind == Operand::SReg ? s_[size_t(a.reg)] : SVal{};
    if (b.kind == Operand::Imm &&
        (av.kind == SVal::Sp || av.kind == SVal::SymLo || av.kind == SVal::Const)) {
      int64_t delta = op == "s_sub_u32" || op == "s_sub_i32" ? -b.imm : b.imm;
      SVal r = av;
      r.value += delta;
      if (av.kind == SVal::SymLo) s_[size_t(d.reg + 1)] = SVal{SVal::SymHi, r.value};
      s_[size_t(d.reg)] = r;
      return;
    }
    s_[size_t(d.reg)] = SVal{};
    return;
  }
  if (op == "s_mov_b32" || op == "s_movk_i32" || op == "s_mov_b64") {
    if (in.ops.size() < 2 || in.ops[0].kind != Operand::SReg) return;
    const Operand &d = in.ops[0], &a = in.ops[1];
    int n = op == "s_mov_b64" ? 2 : 1;
    for (int i = 0; i < n; ++i) {
      if (a.kind == Operand::SReg)
        s_[size_t(d.reg + i)] = s_[size_t(a.reg + i)];
      else if (a.kind == Operand::Imm)
        s_[size_t(d.reg + i)] =
            SVal{SVal::Const, i == 0 ? (op == "s_movk_i32" ? int64_t(int16_t(a.imm)) : a.imm)
                                     : (a.imm < 0 ? -1 : 0)};
      else
        s_[size_t(d.reg + i)] = SVal{};
    }
    return;
  }
  if ((op == "s_and_b32" || op == "s_andn2_b32") && in.ops.size() >= 3 &&
      in.ops[0].kind == Operand::SReg) {
    const Operand &a = in.ops[1], &b = in.ops[2];
    bool sp = (a.kind == Operand::SReg && s_[size_t(a.reg)].kind == SVal::Sp) ||
              (b.kind == Operand::SReg && s_[size_t(b.reg)].kind == SVal::Sp);
    if (sp) {
      // A realigned frame pointer: a base of its own.
      s_[size_t(in.ops[0].reg)] = SVal{SVal::Sp, 0, ++next_base_};
      return;
    }
  }
  if ((op == "s_brev_b32" || op == "s_not_b32") && in.ops.size() >= 2 &&
      in.ops[0].kind == Operand::SReg) {
    auto c = constOf(in.ops[1]);
    SVal r;
    if (c) {
      uint32_t v = *c, x = 0;
      if (op == "s_not_b32") {
        x = ~v;
      } else {
        for (int i = 0; i < 32; ++i) x |= ((v >> i) & 1u) << (31 - i);
      }
      r = SVal{SVal::Const, int64_t(x)};
    }
    s_[size_t(in.ops[0].reg)] = r;
    return;
  }
  if ((op == "s_bfm_b32" || op == "s_lshl_b32" || op == "s_lshr_b32" || op == "s_or_b32" ||
       op == "s_and_b32") &&
      in.ops.size() >= 3 && in.ops[0].kind == Operand::SReg) {
    auto a = constOf(in.ops[1]), b = constOf(in.ops[2]);
    SVal r;
    if (a && b) {
      uint32_t x = 0;
      if (op == "s_bfm_b32") x = ((*a & 31) == 0 ? 0u : ((1u << (*a & 31)) - 1u)) << (*b & 31);
      if (op == "s_lshl_b32") x = *a << (*b & 31);
      if (op == "s_lshr_b32") x = *a >> (*b & 31);
      if (op == "s_or_b32") x = *a | *b;
      if (op == "s_and_b32") x = *a & *b;
      r = SVal{SVal::Const, int64_t(x)};
      s_[size_t(in.ops[0].reg)] = r;
      return;
    }
  }
  if (op == "s_swappc_b64") {
    out_->has_call = true;
    for (int r = 0; r < 256; ++r) {
      VVal& x = v_[size_t(r)];
      bool preserved = r >= 40 && ((r - 40) % 16) < 8;
      if (preserved) continue;
      x = VVal{};
      if (r < 32)
        for (int i = 0; i < 4; ++i) {
          ByteSrc b;
          b.kind = ByteSrc::Ret;
          b.reg = uint16_t(r);
          b.byte = uint8_t(i);
          x.b[size_t(i)] = b;
        }
    }
    for (int r = 4; r < 32; ++r) s_[size_t(r)] = SVal{};
    return;
  }
  if (op[0] == 's') {
    // Other scalar instructions: clobber a scalar destination (not the stack pointers unless
    // written explicitly).
    if (!in.ops.empty() && in.ops[0].kind == Operand::SReg && op.find("cmp") == std::string::npos &&
        op.rfind("s_cbranch", 0) != 0 && op.rfind("s_waitcnt", 0) != 0 &&
        op.rfind("s_setpc", 0) != 0)
      clobberDest(in);
    return;
  }
  // ----- memory
  if (op.rfind("buffer_load_", 0) == 0 || op.rfind("scratch_load_", 0) == 0) {
    std::string k = op.substr(op.find("_load_") + 6);
    if (op.rfind("scratch_", 0) == 0) {
      clobberDest(in);
      note(op);
      return;
    }
    if (k == "ubyte" || k == "sbyte") return load(in, 1, 0, false);
    if (k == "ushort" || k == "sshort") return load(in, 2, 0, false);
    if (k == "dword") return load(in, 4, 0, false);
    if (k == "dwordx2") return load(in, 8, 0, false);
    if (k == "dwordx3") return load(in, 12, 0, false);
    if (k == "dwordx4") return load(in, 16, 0, false);
    if (k == "ubyte_d16" || k == "sbyte_d16") return load(in, 1, 0, true);
    if (k == "ubyte_d16_hi" || k == "sbyte_d16_hi") return load(in, 1, 2, true);
    if (k == "short_d16") return load(in, 2, 0, true);
    if (k == "short_d16_hi") return load(in, 2, 2, true);
    clobberDest(in);
    note(op);
    return;
  }
  if (op.rfind("global_store_", 0) == 0 || op.rfind("flat_store_", 0) == 0 ||
      op.rfind("buffer_store_", 0) == 0) {
    std::string k = op.substr(op.find("_store_") + 7);
    if (k == "byte") return store(in, 1, 0);
    if (k == "byte_d16_hi") return store(in, 1, 2);
    if (k == "short") return store(in, 2, 0);
    if (k == "short_d16_hi") return store(in, 2, 2);
    if (k == "dword") return store(in, 4, 0);
    if (k == "dwordx2") return store(in, 8, 0);
    if (k == "dwordx3") return store(in, 12, 0);
    if (k == "dwordx4") return store(in, 16, 0);
    note(op);
    return;
  }
  if (op.find("_load_") != std::string::npos || op.find("_atomic") != std::string::npos) {
    clobberDest(in);
    return;
  }
  // ----- lanes: SGPRs spilled into VGPR lanes and restored
  if (op == "v_writelane_b32" && in.ops.size() >= 3 && in.ops[0].kind == Operand::VReg) {
    auto lane = constOf(in.ops[2]);
    if (lane && in.ops[1].kind == Operand::SReg)
      lanes_[{in.ops[0].reg, int(*lane)}] = s_[size_t(in.ops[1].reg)];
    writeV(in.ops[0], allUnknown()); // one lane changed: the uniform value is gone
    return;
  }
  if (op == "v_readlane_b32" && in.ops.size() >= 3 && in.ops[0].kind == Operand::SReg) {
    auto lane = constOf(in.ops[2]);
    SVal r;
    if (lane && in.ops[1].kind == Operand::VReg) {
      auto it = lanes_.find({in.ops[1].reg, int(*lane)});
      if (it != lanes_.end()) r = it->second;
    }
    s_[size_t(in.ops[0].reg)] = r;
    return;
  }
  // ----- vector ALU
  if (!in.ops.empty() && in.ops[0].kind == Operand::SReg) {
    // VALU writing scalars (v_readfirstlane, compares): the destination is unknown.
    if (op.rfind("v_cmp", 0) != 0) clobberDest(in);
    return;
  }
  if (in.ops.empty() || in.ops[0].kind != Operand::VReg) return;
  const Operand& d = in.ops[0];
  auto src = [&](size_t i) -> Bytes {
    if (i >= in.ops.size()) return allUnknown();
    Bytes b = readV(in.ops[i]);
    if (in.sdwa) {
      std::string sel = modValue(in, i == 1 ? "src0_sel" : "src1_sel");
      b = sdwaSel(b, sel);
    }
    return b;
  };
  auto result = [&](const Bytes& value) {
    if (in.sdwa)
      writeV(d, sdwaDst(in, value, v_[size_t(d.reg)].b));
    else
      writeV(d, value);
  };
  if (op == "v_mov_b32") {
    const Operand& a = in.ops.size() > 1 ? in.ops[1] : Operand{};
    if (!in.sdwa && a.kind == Operand::SReg &&
        (s_[size_t(a.reg)].kind == SVal::SymLo || s_[size_t(a.reg)].kind == SVal::SymHi)) {
      VVal& r = v_[size_t(d.reg)];
      r.b = allUnknown();
      r.sym = s_[size_t(a.reg)].kind;
      r.sym_value = s_[size_t(a.reg)].value;
      return;
    }
    if (!in.sdwa && a.kind == Operand::VReg) {
      v_[size_t(d.reg)] = v_[size_t(a.reg)];
      return;
    }
    return result(src(1));
  }
  auto shiftAmount = [&](size_t i) -> std::optional<int64_t> {
    if (i >= in.ops.size()) return std::nullopt;
    auto c = constOf(in.ops[i]);
    if (!c) return std::nullopt;
    return int64_t(*c);
  };
  if (op == "v_lshrrev_b32" && !in.sdwa && in.ops.size() >= 3 && in.ops[2].kind == Operand::SReg &&
      s_[size_t(in.ops[2].reg)].kind == SVal::Sp && constOf(in.ops[1]) &&
      (1u << *constOf(in.ops[1])) == wave_) {
    // The private address of a stack pointer (unswizzled wave offset / wavefront size).
    writeV(d, allUnknown());
    v_[size_t(d.reg)].priv = true;
    const SVal& sp = s_[size_t(in.ops[2].reg)];
    v_[size_t(d.reg)].priv_value = sp.base * kBaseShift + sp.value / int64_t(wave_);
    return;
  }
  if ((op == "v_add_u32" || op == "v_add_co_u32") && !in.sdwa) {
    // v_add_u32 vD, a, b / v_add_co_u32 vD, vcc, a, b on a private address and a constant.
    size_t first = op == "v_add_co_u32" ? 2 : 1;
    if (in.ops.size() >= first + 2) {
      const Operand &a = in.ops[first], &b = in.ops[first + 1];
      auto privOf = [&](const Operand& o) {
        return o.kind == Operand::VReg && v_[size_t(o.reg)].priv;
      };
      std::optional<int64_t> pa, k;
      if (privOf(a) && constOf(b)) pa = v_[size_t(a.reg)].priv_value, k = int32_t(*constOf(b));
      if (privOf(b) && constOf(a)) pa = v_[size_t(b.reg)].priv_value, k = int32_t(*constOf(a));
      if (pa) {
        writeV(d, allUnknown());
        v_[size_t(d.reg)].priv = true;
        v_[size_t(d.reg)].priv_value = *pa + *k;
        return;
      }
    }
    return clobberDest(in);
  }
  if (op == "v_lshrrev_b32" || op == "v_lshlrev_b32" || op == "v_ashrrev_i32") {
    auto k = shiftAmount(1);
    if (!k || in.sdwa) return clobberDest(in);
    Bytes s = readV(in.ops[2]);
    int64_t sh = *k & 31;
    Bytes r = op == "v_lshlrev_b32" ? shl(s, sh) : shr(s, sh);
    if (op == "v_ashrrev_i32")
      for (int i = 4 - int(sh / 8); i < 4; ++i) r[size_t(i)] = unknown();
    return writeV(d, r);
  }
  if (op == "v_lshrrev_b16" || op == "v_lshlrev_b16") {
    if (in.sdwa) {
      auto k = shiftAmount(1);
      Bytes s = src(2);
      if (!k) return clobberDest(in);
      Bytes lo = {s[0], s[1], constByte(0), constByte(0)};
      Bytes r = op == "v_lshlrev_b16" ? shl(lo, *k & 15) : shr(lo, *k & 15);
      r[2] = r[3] = constByte(0);
      return result(r);
    }
    auto k = shiftAmount(1);
    if (!k) return clobberDest(in);
    Bytes s = readV(in.ops[2]);
    Bytes lo = {s[0], s[1], constByte(0), constByte(0)};
    Bytes r = op == "v_lshlrev_b16" ? shl(lo, *k & 15) : shr(lo, *k & 15);
    r[2] = r[3] = unknown();
    return writeV(d, r);
  }
  if (op == "v_and_b32") {
    Bytes a = src(1), b = src(2);
    if (auto m = constValue(a)) return result(andMask(b, *m));
    if (auto m = constValue(b)) return result(andMask(a, *m));
    return clobberDest(in);
  }
  if (op == "v_or_b32") return result(orBytes(src(1), src(2)));
  if (op == "v_or3_b32") {
    if (in.sdwa) return clobberDest(in);
    return writeV(d, orBytes(orBytes(readV(in.ops[1]), readV(in.ops[2])), readV(in.ops[3])));
  }
  if (op == "v_lshl_or_b32") {
    auto k = shiftAmount(2);
    if (!k || in.ops.size() < 4) return clobberDest(in);
    return writeV(d, orBytes(shl(readV(in.ops[1]), *k & 31), readV(in.ops[3])));
  }
  if (op == "v_and_or_b32") {
    auto m = in.ops.size() >= 4 ? constOf(in.ops[2]) : std::nullopt;
    if (!m) return clobberDest(in);
    return writeV(d, orBytes(andMask(readV(in.ops[1]), *m), readV(in.ops[3])));
  }
  if (op == "v_bfe_u32" || op == "v_bfe_i32") {
    auto off = in.ops.size() >= 4 ? constOf(in.ops[2]) : std::nullopt;
    auto w = in.ops.size() >= 4 ? constOf(in.ops[3]) : std::nullopt;
    if (!off || !w || *off % 8) return clobberDest(in);
    Bytes s = readV(in.ops[1]);
    Bytes r = shr(s, *off);
    int keep = int((*w + 7) / 8);
    for (int i = keep; i < 4; ++i) r[size_t(i)] = op == "v_bfe_u32" ? constByte(0) : unknown();
    return writeV(d, r);
  }
  if (op == "v_alignbit_b32" || op == "v_alignbyte_b32") {
    auto k = in.ops.size() >= 4 ? constOf(in.ops[3]) : std::nullopt;
    if (!k) return clobberDest(in);
    int64_t sh = op == "v_alignbyte_b32" ? int64_t(*k & 3) * 8 : int64_t(*k & 31);
    if (sh % 8) return clobberDest(in);
    Bytes hi = readV(in.ops[1]), lo = readV(in.ops[2]);
    Bytes r;
    for (int i = 0; i < 4; ++i) {
      int j = i + int(sh / 8);
      r[size_t(i)] = j < 4 ? lo[size_t(j)] : hi[size_t(j - 4)];
    }
    return writeV(d, r);
  }
  if (op == "v_perm_b32") {
    auto sel = in.ops.size() >= 4 ? constOf(in.ops[3]) : std::nullopt;
    if (!sel) return clobberDest(in);
    Bytes a = readV(in.ops[1]), b = readV(in.ops[2]);
    Bytes r;
    for (int i = 0; i < 4; ++i) {
      uint8_t s = uint8_t(*sel >> (8 * i));
      if (s <= 3)
        r[size_t(i)] = b[s];
      else if (s <= 7)
        r[size_t(i)] = a[size_t(s - 4)];
      else if (s == 0x0c)
        r[size_t(i)] = constByte(0);
      else if (s >= 0x0d)
        r[size_t(i)] = constByte(0xff);
      else
        r[size_t(i)] = unknown();
    }
    return writeV(d, r);
  }
  if (op == "v_lshrrev_b64" || op == "v_lshlrev_b64") {
    auto k = shiftAmount(1);
    if (!k || *k % 8 || d.count != 2) return clobberDest(in);
    Bytes lo = readV(in.ops[2], 0), hi = readV(in.ops[2], 1);
    std::array<ByteSrc, 8> all;
    for (int i = 0; i < 4; ++i) all[size_t(i)] = lo[size_t(i)], all[size_t(i + 4)] = hi[size_t(i)];
    std::array<ByteSrc, 8> r;
    int64_t sb = (*k & 63) / 8;
    for (int i = 0; i < 8; ++i) {
      int64_t j = op == "v_lshrrev_b64" ? i + sb : i - sb;
      r[size_t(i)] = j >= 0 && j < 8 ? all[size_t(j)] : constByte(0);
    }
    writeV(d, {r[0], r[1], r[2], r[3]}, 0);
    writeV(d, {r[4], r[5], r[6], r[7]}, 1);
    return;
  }
  // Anything else that writes VGPRs: the destination is unknown afterwards.
  clobberDest(in);
}

} // namespace

std::map<std::string, FunctionTrace> traceFunctions(const std::string& asm_text,
                                                    const std::string& buffer, unsigned wave) {
  std::map<std::string, FunctionTrace> out;
  std::set<std::string> functions;
  Tracer tracer(buffer, wave);
  bool in_function = false;
  std::istringstream in(asm_text);
  std::string line;
  while (std::getline(in, line)) {
    size_t c = line.find(';');
    if (c != std::string::npos) line = line.substr(0, c);
    std::string t = trim(line);
    if (t.empty()) continue;
    if (t.rfind(".type", 0) == 0 && t.find("@function") != std::string::npos) {
      std::string name = trim(t.substr(5));
      functions.insert(name.substr(0, name.find(',')));
      continue;
    }
    if (t.back() == ':' && t.find(' ') == std::string::npos) {
      std::string label = t.substr(0, t.size() - 1);
      if (functions.count(label)) {
        tracer.begin(&out[label]);
        in_function = true;
      } else if (label.rfind(".Lfunc_end", 0) == 0) {
        in_function = false;
      }
      continue;
    }
    if (!in_function || t[0] == '.') continue;
    tracer.step(parseInsn(t));
  }
  return out;
}

} // namespace abikit::difftest::amdgcn
