#include "callconv_oracle.h"

#include <algorithm>

namespace abikit::difftest {

// ----- tables ---------------------------------------------------------------------------------

SymTables::SymTables(std::vector<std::string> register_names)
    : registers_(std::move(register_names)) {
  bases_.push_back({MemBase::Stack, "", {}});
}

int SymTables::global(std::string_view name) {
  int id = findGlobal(name);
  if (id >= 0) return id;
  bases_.push_back({MemBase::Global, std::string(name), {}});
  return int(bases_.size() - 1);
}

int SymTables::findGlobal(std::string_view name) const {
  for (size_t i = 0; i < bases_.size(); ++i)
    if (bases_[i].kind == MemBase::Global && bases_[i].name == name) return int(i);
  return -1;
}

int SymTables::pointer(const std::vector<Sym>& key) {
  int id = findPointer(key);
  if (id >= 0) return id;
  bases_.push_back({MemBase::Pointer, "", key});
  return int(bases_.size() - 1);
}

int SymTables::findPointer(const std::vector<Sym>& key) const {
  for (size_t i = 0; i < bases_.size(); ++i)
    if (bases_[i].kind == MemBase::Pointer && bases_[i].key == key) return int(i);
  return -1;
}

int SymTables::frame() {
  bases_.push_back({MemBase::Frame, "", {}});
  return int(bases_.size() - 1);
}

int SymTables::address(int base, int64_t offset) {
  auto [it, fresh] = address_ids_.try_emplace({base, offset}, int(addresses_.size()));
  if (fresh) addresses_.push_back({base, offset});
  return it->second;
}

int SymTables::registerId(std::string_view name) const {
  for (size_t i = 0; i < registers_.size(); ++i)
    if (registers_[i] == name) return int(i);
  return -1;
}

std::string SymTables::describe(const Sym& s) const {
  switch (s.kind) {
  case Sym::Unknown:
    return "unknown";
  case Sym::Zero:
    return "0";
  case Sym::One:
    return "1";
  case Sym::Reg:
    return registerName(int(s.id)) + " bit " + std::to_string(s.bit);
  case Sym::Addr: {
    const Address& a = addressAt(s.id);
    return "bit " + std::to_string(s.bit) + " of an address (base " + std::to_string(a.base) +
           " + " + std::to_string(a.offset) + ")";
  }
  case Sym::Mem: {
    const MemBase& b = base(s.id);
    std::string where = b.kind == MemBase::Stack   ? "incoming stack"
                        : b.kind == MemBase::Frame ? "realigned frame"
                        : b.kind == MemBase::Global
                            ? b.name
                            : "memory at pointer <" +
                                  (b.key.empty() ? std::string("?") : describe(b.key[0])) +
                                  ", ...>";
    return where + " byte " + std::to_string(s.bit >> 3) + " bit " + std::to_string(s.bit & 7);
  }
  }
  return "?";
}

ByteSyms Memory::read(int base, int64_t offset, const SymTables& tables) const {
  if (const ByteSyms* w = written(base, offset)) return *w;
  ByteSyms b;
  if (tables.base(base).kind == MemBase::Frame) return b;
  if (base == SymTables::kStack && offset < 0) return b; // below sp on entry: unknown
  // Memory can also belong to the function's own (realigned) frame.
  for (int k = 0; k < 8; ++k) b[size_t(k)] = Sym{Sym::Mem, base, offset * 8 + k};
  return b;
}

const ByteSyms* Memory::written(int base, int64_t offset) const {
  auto it = bytes_.find({base, offset});
  return it == bytes_.end() ? nullptr : &it->second;
}

// ----- data bits (declared in callconv_oracle.h)
// ----------------------------------------------------------------------------

namespace {

/// The alignment of the IR type clang gives `t` (it differs from the C alignment for _BitInt
/// wider than 64 bits: LLVM aligns i65..i128 like i128 on 64-bit targets).
uint64_t irAlign(const Type* t, const LayoutEngine& layout) {
  const Type* c = stripTypedefs(t);
  if (auto* it = dyn<IntType>(c); it && it->is_bitint) {
    unsigned n = it->bits;
    return n <= 8                                      ? 1
           : n <= 16                                   ? 2
           : n <= 32                                   ? 4
           : n <= 64                                   ? 8
           : layout.context().data().pointer.size == 8 ? 16
                                                       : 8;
  }
  if (auto* at = dyn<ArrayType>(c); at && !at->incomplete) return irAlign(at->element, layout);
  return layout.of(c).align;
}

void markData(const Type* t, const LayoutEngine& layout, uint64_t bit, std::vector<uint8_t>& out) {
  const Type* c = stripTypedefs(t);
  auto set = [&](uint64_t from, uint64_t n) {
    for (uint64_t i = 0; i < n && from + i < out.size(); ++i) out[from + i] = 1;
  };
  switch (c->kind) {
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(c);
    if (it->is_bitint)
      set(bit, it->bits);
    else if (it->ikind == IntKind::Bool)
      set(bit, 1);
    else
      set(bit, layout.of(c).size * 8);
    return;
  }
  case TypeKind::Enum:
    markData(static_cast<const EnumType*>(c)->decl->underlying, layout, bit, out);
    return;
  case TypeKind::Float:
  case TypeKind::Pointer:
    set(bit, layout.of(c).size * 8);
    return;
  case TypeKind::Complex: {
    const Type* e = static_cast<const ComplexType*>(c)->element;
    uint64_t es = layout.of(e).size * 8;
    markData(e, layout, bit, out);
    markData(e, layout, bit + es, out);
    return;
  }
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(c);
    uint64_t es = layout.of(vt->element).size * 8;
    for (uint32_t i = 0; i < vt->count; ++i) markData(vt->element, layout, bit + i * es, out);
    return;
  }
  case TypeKind::Array: {
    auto* at = static_cast<const ArrayType*>(c);
    if (at->incomplete) return;
    uint64_t es = layout.of(at->element).size * 8;
    for (uint64_t i = 0; i < at->count; ++i) markData(at->element, layout, bit + i * es, out);
    return;
  }
  case TypeKind::Record: {
    const RecordDecl& rd = *static_cast<const RecordType*>(c)->decl;
    const RecordLayout& rl = layout.of(rd);
    for (size_t i = 0; i < rd.fields.size(); ++i) {
      const FieldDecl& fd = rd.fields[i];
      uint64_t at = bit + rl.fields[i].bit_offset;
      if (fd.isBitField()) {
        if (!fd.name.empty()) set(at, uint64_t(fd.bit_width));
        continue;
      }
      markData(fd.type, layout, at, out);
    }
    if (!rd.is_union) return;
    // clang represents a union by one member's IR type (the first with the largest alignment,
    // then size) followed by padding bytes; copying a union keeps only what that member's IR
    // type holds in its first bytes. Bits other members have there are not compared.
    const FieldDecl* storage = nullptr;
    uint64_t s_align = 0, s_size = 0;
    for (const FieldDecl& fd : rd.fields) {
      if (fd.isBitField() && fd.bit_width == 0) continue;
      uint64_t a, n;
      if (fd.isBitField()) {
        uint64_t w = std::min<uint64_t>(uint64_t(fd.bit_width), layout.of(fd.type).size * 8);
        n = w <= 8 ? 1 : w <= 16 ? 2 : w <= 32 ? 4 : w <= 64 ? 8 : 16;
        a = n;
      } else {
        TypeLayout tl = layout.of(fd.type);
        a = irAlign(fd.type, layout);
        n = tl.size;
      }
      if (!storage || a > s_align || (a == s_align && n > s_size)) {
        storage = &fd;
        s_align = a;
        s_size = n;
      }
    }
    if (!storage) return;
    std::vector<uint8_t> keep(out.size(), 0);
    if (storage->isBitField()) {
      uint64_t w =
          std::min<uint64_t>(uint64_t(storage->bit_width), layout.of(storage->type).size * 8);
      for (uint64_t b = 0; b < w && bit + b < keep.size(); ++b) keep[bit + b] = 1;
    } else {
      markData(storage->type, layout, bit, keep);
    }
    for (uint64_t b = bit; b < bit + s_size * 8 && b < out.size(); ++b) out[b] = out[b] && keep[b];
    return;
  }
  default:
    return;
  }
}

} // namespace

std::vector<uint8_t> dataBits(const Type* t, const LayoutEngine& layout) {
  std::vector<uint8_t> out(layout.of(t).size * 8, 0);
  markData(t, layout, 0, out);
  return out;
}

// ----- comparison -----------------------------------------------------------------------------

namespace {

const ArgPart* partAt(const ArgLowering& a, uint64_t byte) {
  for (const ArgPart& p : a.parts)
    if (byte >= p.offset && byte < uint64_t(p.offset) + p.size) return &p;
  return nullptr;
}

std::string locText(const ArgLocation& l) {
  if (l.kind == ArgLocation::Kind::Register) return std::string(l.reg);
  return "stack+" + std::to_string(l.stack_offset);
}

std::string argName(const FunctionLowering& fl, size_t i) {
  if (i == size_t(-1)) return "the return value";
  const ArgLowering& a = fl.params[i];
  return (a.variadic ? "extra argument #" : "parameter #") + std::to_string(i) +
         (a.name.empty() ? "" : " '" + std::string(a.name) + "'");
}

struct Reporter {
  std::string out;
  int budget = 6;
  void add(const std::string& what, const FunctionLowering& fl, size_t arg, uint64_t bit,
           const std::string& expected, const std::string& observed) {
    if (budget-- <= 0) return;
    out += "    " + argName(fl, arg) + " " + what + " bit " + std::to_string(bit) + " (byte " +
           std::to_string(bit / 8) + "): abikit expects " + expected + ", compiler has " +
           observed + "\n";
  }
  void say(const std::string& s) {
    if (budget-- > 0) out += "    " + s + "\n";
  }
};

/// abikit says (in a note) that clang-14 leaves some bytes of an argument out.
bool declaresLoss(const FunctionLowering& fl) {
  for (const std::string& n : fl.notes)
    if (n.find("not passed") != std::string::npos) return true;
  return false;
}

/// The bits of the pointer a function received in `loc` (callee view).
std::vector<Sym> entryPointerKey(const Trace& t, const ArgLocation& loc) {
  std::vector<Sym> key;
  for (unsigned k = 0; k < t.xlen; ++k) {
    if (loc.kind == ArgLocation::Kind::Register)
      key.push_back(Sym{Sym::Reg, t.tables.registerId(loc.reg), int64_t(k)});
    else
      key.push_back(Sym{Sym::Mem, SymTables::kStack, loc.stack_offset * 8 + int64_t(k)});
  }
  return key;
}

/// The symbol a callee sees for value bit `bit` of an argument lowered as `a`.
Sym calleeExpect(const Trace& t, const ArgLowering& a, uint64_t bit, const ArgPart* p) {
  if (a.kind == ArgKind::Indirect) {
    int base = t.tables.findPointer(entryPointerKey(t, a.parts[0].loc));
    if (base < 0) return Sym{Sym::Unknown, -1, 0};
    return Sym{Sym::Mem, base, int64_t(bit)};
  }
  int64_t rel = int64_t(bit) - int64_t(p->offset) * 8;
  if (p->loc.kind == ArgLocation::Kind::Register)
    return Sym{Sym::Reg, t.tables.registerId(p->loc.reg), rel};
  return Sym{Sym::Mem, SymTables::kStack, p->loc.stack_offset * 8 + rel};
}

std::vector<Sym> inputBits(const Trace& t, const ProbeValue& v, const LayoutEngine& layout) {
  int in = t.tables.findGlobal("abk_in");
  uint64_t n = layout.of(v.type).size * 8;
  uint64_t src = layout.of(v.source).size * 8;
  std::vector<Sym> bits(n);
  bool sign = false;
  if (auto* it = dyn<IntType>(stripTypedefs(v.source))) sign = it->is_signed;
  if (auto* et = dyn<EnumType>(stripTypedefs(v.source))) sign = et->decl->underlying->is_signed;
  for (uint64_t b = 0; b < n; ++b) {
    if (b < src)
      bits[b] = in < 0 ? Sym{Sym::Unknown, -1, 0} : Sym{Sym::Mem, in, int64_t(v.offset * 8 + b)};
    else // a promoted narrow integer: the caller extended it
      bits[b] = sign ? bits[src - 1] : Sym{Sym::Zero, 0, 0};
  }
  return bits;
}

std::vector<uint8_t> promotedData(const ProbeValue& v, const LayoutEngine& layout) {
  std::vector<uint8_t> d = dataBits(v.type, layout);
  if (v.source != v.type) {
    std::vector<uint8_t> s = dataBits(v.source, layout);
    for (size_t i = 0; i < d.size(); ++i) d[i] = i < s.size() ? s[i] : 1;
  }
  return d;
}

/// Width in bits of the value an extension starts from (_BitInt(N): N).
uint64_t valueWidth(const Type* t, const LayoutEngine& layout) {
  const Type* c = stripTypedefs(t);
  if (auto* et = dyn<EnumType>(c)) c = et->decl->underlying;
  if (auto* it = dyn<IntType>(c); it && it->is_bitint) return it->bits;
  return layout.of(c).size * 8;
}

/// The extension of an Extend value: every bit of its registers (or XLEN stack slots) above
/// the value's width is a copy of its top bit (sign) or zero, up to the end of the last one
/// (clang-22 extends a _BitInt over both registers of a pair). `bitsOf` gives the 64 bits of
/// the location of one part.
template <typename BitsOf>
void checkExtension(const Trace& t, const ArgLowering& a, BitsOf bitsOf,
                    const std::vector<Sym>& value, uint64_t width, Reporter& rep,
                    const FunctionLowering& fl, size_t arg) {
  if (a.kind != ArgKind::Extend || width == 0) return;
  Sym top = value[width - 1];
  for (const ArgPart& p : a.parts) {
    uint64_t start = uint64_t(p.offset) * 8;
    if (start + t.xlen <= width) continue;
    std::array<Sym, 64> reg = bitsOf(p);
    for (uint64_t b = std::max(width, start); b < start + t.xlen; ++b) {
      Sym want = a.extend == ExtendKind::Sign ? top : Sym{Sym::Zero, 0, 0};
      if (!(reg[b - start] == want)) {
        rep.add(std::string(a.extend == ExtendKind::Sign ? "sign" : "zero") + " extension", fl, arg,
                b, t.tables.describe(want), t.tables.describe(reg[b - start]));
        return;
      }
    }
  }
}

} // namespace

std::string compareCallee(const FunctionLowering& fl, const Trace& t, const LayoutEngine& layout,
                          const std::vector<ProbeValue>& params, const ProbeValue& ret) {
  Reporter rep;
  if (!t.ok) return "    the callee could not be followed: " + t.error + "\n";
  if (!t.reached) return "    the callee's return was not reached\n";
  int out = t.tables.findGlobal("abk_out");
  for (size_t i = 0; i < params.size() && i < fl.params.size(); ++i) {
    const ArgLowering& a = fl.params[i];
    if (a.variadic) break;
    std::vector<uint8_t> data = dataBits(a.type, layout);
    for (uint64_t b = 0; b < data.size(); ++b) {
      const ByteSyms* w =
          out < 0 ? nullptr : t.memory.written(out, int64_t(params[i].offset + b / 8));
      if (!w) continue; // not stored: nothing to compare (the caller check covers it)
      Sym seen = (*w)[b % 8];
      // A padding bit is compared only when the callee stored something it received there.
      bool padding = !data[b];
      if (padding && seen.kind != Sym::Reg && seen.kind != Sym::Mem) continue;
      if (a.kind == ArgKind::Ignore) {
        if (padding) continue;
        rep.add("(ignored by abikit)", fl, i, b, "nothing", t.tables.describe(seen));
        break;
      }
      const ArgPart* p = a.kind == ArgKind::Indirect ? &a.parts[0] : partAt(a, b / 8);
      if (!p) {
        if (padding || declaresLoss(fl)) continue;
        rep.add("", fl, i, b, "(no part covers it)", t.tables.describe(seen));
        break;
      }
      Sym want = calleeExpect(t, a, b, p);
      // A padding bit may repeat the value's top bit below it (clang-22 stores a _BitInt
      // sign- or zero-extended over its padding).
      if (!(want == seen) && padding) {
        uint64_t top = b;
        while (top > 0 && !data[top - 1]) --top;
        const ArgPart* q = top == 0                      ? nullptr
                           : a.kind == ArgKind::Indirect ? &a.parts[0]
                                                         : partAt(a, (top - 1) / 8);
        if (q && calleeExpect(t, a, top - 1, q) == seen) continue;
      }
      // Bits abikit says clang-14 loses arrive as constants or undefined.
      if (!(want == seen) && declaresLoss(fl) && seen.kind != Sym::Reg && seen.kind != Sym::Mem)
        continue;
      if (!(want == seen)) {
        rep.add(padding ? "(padding)" : "", fl, i, b,
                a.kind == ArgKind::Indirect ? "memory at the pointer in " + locText(p->loc)
                                            : t.tables.describe(want),
                t.tables.describe(seen));
        break;
      }
    }
  }
  // The return value.
  const ArgLowering& r = fl.ret;
  if (ret.type && stripTypedefs(ret.type)->kind != TypeKind::Void) {
    std::vector<Sym> value = inputBits(t, ret, layout);
    std::vector<uint8_t> data = dataBits(ret.type, layout);
    if (r.kind == ArgKind::Indirect) {
      int base = t.tables.findPointer(entryPointerKey(t, r.parts[0].loc));
      for (uint64_t b = 0; b < data.size(); ++b) {
        if (!data[b]) continue;
        const ByteSyms* w = base < 0 ? nullptr : t.memory.written(base, int64_t(b / 8));
        Sym seen = w ? (*w)[b % 8] : Sym{};
        if (!w || !(seen == value[b])) {
          rep.add("(returned through the pointer in " + locText(r.parts[0].loc) + ")", fl,
                  size_t(-1), b, t.tables.describe(value[b]),
                  w ? t.tables.describe(seen) : std::string("no store through that pointer"));
          break;
        }
      }
    } else if (r.kind != ArgKind::Ignore) {
      for (uint64_t b = 0; b < data.size(); ++b) {
        if (!data[b]) continue;
        const ArgPart* p = partAt(r, b / 8);
        if (!p && declaresLoss(fl)) continue;
        if (!p || p->loc.kind != ArgLocation::Kind::Register) {
          rep.add("", fl, size_t(-1), b, "(no register part covers it)", "-");
          break;
        }
        int id = t.tables.registerId(p->loc.reg);
        Sym seen = t.regs[size_t(id)][size_t(b - p->offset * 8ull)];
        if (!(seen == value[b]) && declaresLoss(fl) && seen.kind != Sym::Mem &&
            seen.kind != Sym::Reg)
          continue;
        if (!(seen == value[b])) {
          rep.add("in " + locText(p->loc), fl, size_t(-1), b, t.tables.describe(value[b]),
                  t.tables.describe(seen));
          break;
        }
      }
      if (r.kind == ArgKind::Extend && !r.parts.empty()) {
        auto regOf = [&](const ArgPart& p) {
          int id = t.tables.registerId(p.loc.reg);
          return id < 0 ? std::array<Sym, 64>{} : t.regs[size_t(id)];
        };
        checkExtension(t, r, regOf, value, valueWidth(ret.type, layout), rep, fl, size_t(-1));
      }
    } else {
      for (uint64_t b = 0; b < data.size(); ++b)
        if (data[b]) {
          rep.say("abikit ignores the return value but it has data");
          break;
        }
    }
  }
  return rep.out;
}

std::string compareCaller(const FunctionLowering& fl, const Trace& t, const LayoutEngine& layout,
                          const std::vector<ProbeValue>& args) {
  Reporter rep;
  if (!t.ok) return "    the caller could not be followed: " + t.error + "\n";
  if (!t.reached) return "    the call was not reached\n";
  auto stackByte = [&](int64_t offset) {
    return t.memory.read(t.sp.base, t.sp.offset + offset, t.tables);
  };
  auto locBits = [&](const ArgLocation& loc, int64_t byte_in_part) {
    // 64 bits starting at byte `byte_in_part` of the location.
    std::array<Sym, 64> bits{};
    if (loc.kind == ArgLocation::Kind::Register) {
      int id = t.tables.registerId(loc.reg);
      if (id < 0) return bits;
      for (int64_t k = 0; k + byte_in_part * 8 < 64; ++k)
        bits[size_t(k)] = t.regs[size_t(id)][size_t(k + byte_in_part * 8)];
      return bits;
    }
    for (int64_t k = 0; k < 8; ++k) {
      ByteSyms b = stackByte(loc.stack_offset + byte_in_part + k);
      for (int j = 0; j < 8; ++j) bits[size_t(k * 8 + j)] = b[size_t(j)];
    }
    return bits;
  };
  for (size_t i = 0; i < args.size() && i < fl.params.size(); ++i) {
    const ArgLowering& a = fl.params[i];
    std::vector<uint8_t> data = promotedData(args[i], layout);
    if (a.kind == ArgKind::Ignore) {
      if (std::find(data.begin(), data.end(), 1) != data.end())
        rep.say(argName(fl, i) + ": abikit ignores a value that has data");
      continue;
    }
    std::vector<Sym> value = inputBits(t, args[i], layout);
    if (a.kind == ArgKind::Indirect) {
      if (a.parts.empty()) {
        rep.say(argName(fl, i) + ": indirect without a pointer part");
        continue;
      }
      std::array<Sym, 64> ptr = locBits(a.parts[0].loc, 0);
      int addr = ptr[0].kind == Sym::Addr ? ptr[0].id : -1;
      for (unsigned k = 0; k < t.xlen && addr >= 0; ++k)
        if (!(ptr[k] == Sym{Sym::Addr, addr, int64_t(k)})) addr = -1;
      if (addr < 0) {
        rep.say(argName(fl, i) + ": abikit passes a pointer in " + locText(a.parts[0].loc) +
                " but it holds " + t.tables.describe(ptr[0]) + ", ...");
        continue;
      }
      const Address& ad = t.tables.addressAt(addr);
      for (uint64_t b = 0; b < data.size(); ++b) {
        if (!data[b]) continue;
        Sym seen = t.memory.read(ad.base, ad.offset + int64_t(b / 8), t.tables)[b % 8];
        if (!(seen == value[b])) {
          rep.add("(through the pointer in " + locText(a.parts[0].loc) + ")", fl, i, b,
                  t.tables.describe(value[b]), t.tables.describe(seen));
          break;
        }
      }
      continue;
    }
    // Every bit abikit places must be there (padding bits: unless the compiler left the
    // location undefined or constant), and every data bit must be placed.
    int in = t.tables.findGlobal("abk_in");
    bool bad = false;
    for (const ArgPart& p : a.parts) {
      for (uint64_t rel = 0; rel < uint64_t(p.size) * 8 && !bad; ++rel) {
        uint64_t b = p.offset * 8ull + rel;
        if (b >= value.size()) break;
        std::array<Sym, 64> bits = locBits(p.loc, int64_t(rel / 8));
        Sym seen = bits[rel % 8];
        bool padding = b >= data.size() || !data[b];
        if (padding && !(seen.kind == Sym::Mem && seen.id == in)) continue;
        // Bits abikit says clang-14 loses arrive as constants or undefined.
        if (!padding && declaresLoss(fl) && seen.kind != Sym::Mem && seen.kind != Sym::Reg)
          continue;
        // A padding bit may repeat a lower bit of the same value (an extension).
        if (padding && seen.bit >= int64_t(args[i].offset * 8) &&
            seen.bit < int64_t(args[i].offset * 8 + b))
          continue;
        if (padding && !(seen == value[b])) {
          uint64_t top = b;
          while (top > 0 && top <= data.size() && !data[top - 1]) --top;
          if (top > 0 && top <= data.size() && seen == value[top - 1]) continue;
        }
        if (!(seen == value[b])) {
          rep.add("in " + locText(p.loc) + (padding ? " (padding)" : ""), fl, i, b,
                  t.tables.describe(value[b]), t.tables.describe(seen));
          bad = true;
        }
      }
    }
    for (uint64_t b = 0; b < data.size() && !bad; ++b)
      if (data[b] && !partAt(a, b / 8) && !declaresLoss(fl)) {
        rep.add("", fl, i, b, "(no part covers it)", "-");
        bad = true;
      }
    if (a.kind == ArgKind::Extend && !a.parts.empty()) {
      auto partBits = [&](const ArgPart& p) { return locBits(p.loc, 0); };
      checkExtension(t, a, partBits, value, valueWidth(args[i].type, layout), rep, fl, i);
    }
  }
  if (fl.ret.kind == ArgKind::Indirect && !fl.ret.parts.empty()) {
    std::array<Sym, 64> ptr = locBits(fl.ret.parts[0].loc, 0);
    if (ptr[0].kind != Sym::Addr)
      rep.say("abikit passes the return buffer's address in " + locText(fl.ret.parts[0].loc) +
              " but it holds " + t.tables.describe(ptr[0]));
  }
  return rep.out;
}

} // namespace abikit::difftest
