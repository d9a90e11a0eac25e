#include "layout_gen.h"

#include <algorithm>
#include <bit>
#include <random>

namespace abikit::difftest {

namespace {

constexpr IntKind kAllInts[] = {
    IntKind::Bool,     IntKind::Char,      IntKind::SChar,  IntKind::UChar,  IntKind::Short,
    IntKind::UShort,   IntKind::Int,       IntKind::UInt,   IntKind::Long,   IntKind::ULong,
    IntKind::LongLong, IntKind::ULongLong, IntKind::Int128, IntKind::UInt128};
constexpr FloatKind kAllFloats[] = {FloatKind::Fp16,    FloatKind::Float16, FloatKind::BFloat16,
                                    FloatKind::Float,   FloatKind::Double,  FloatKind::LongDouble,
                                    FloatKind::Float128};

unsigned activeBits(uint64_t v) {
  return 64u - unsigned(std::countl_zero(v));
}
unsigned minSignedBits(int64_t v) {
  uint64_t u = v < 0 ? ~uint64_t(v) : uint64_t(v);
  return 65u - unsigned(std::countl_zero(u));
}

class Generator {
public:
  Generator(uint64_t seed, const std::string& prefix, const Target& target, OracleKind oracle,
            bool ms_struct, Language lang, bool atomics)
      : rng_(seed), atomic_rng_(seed ^ 0xA7031C5EEDull), d_(dataModelFor(target, lang)),
        oracle_(oracle), atomics_(atomics && oracle == OracleKind::Clang &&
                                  d_.max_atomic_promote_bits != kAtomicLayoutUnknown),
        gcc_i386_(oracle == OracleKind::Gcc && target.arch == "i386"),
        ms_struct_(ms_struct && oracle == OracleKind::Clang), cxx_(isCxx(lang)) {
    p_.seed = seed;
    p_.prefix = prefix;
    for (IntKind k : kAllInts)
      if (d_.of(k).supported()) ints_.push_back(k);
    for (FloatKind k : kAllFloats) {
      if (!d_.of(k).supported()) continue;
      if (oracle_ == OracleKind::Gcc &&
          (k == FloatKind::Fp16 || k == FloatKind::Float16 || k == FloatKind::BFloat16))
        continue;
      floats_.push_back(k);
    }
    for (const AddressSpaceInfo& as : target.address_spaces)
      if (as.number != 0 && as.pointer_bits && as.pointer_bits % 8 == 0)
        spaces_.push_back(as.number);
  }

  GProgram run() {
    genRecord(0, false, 0, false);
    return std::move(p_);
  }

private:
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
  template <class T, size_t N> T pick(const T (&a)[N]) { return a[below(N)]; }
  template <class T> T pick(const std::vector<T>& v) { return v[below(v.size())]; }

  std::string fieldName() { return "f" + std::to_string(field_counter_++); }

  bool clang() const { return oracle_ == OracleKind::Clang; }

  // Width in bits of an integer-like base (the limit on a bit-field's width).
  uint64_t valueWidth(const GBase& b) const {
    switch (b.kind) {
    case GBase::Int:
      return b.ik == IntKind::Bool ? 1 : d_.of(b.ik).size * 8u;
    case GBase::BitInt:
      return b.bits;
    case GBase::Enum:
      return d_.of(p_.enums[size_t(b.ref)].underlying).size * 8u;
    case GBase::Typedef:
      return valueWidth(p_.typedefs[size_t(b.ref)].base);
    default:
      return 0;
    }
  }

  // Is `b` (through typedefs) a typedef whose aligned attribute may exceed the size?
  bool hasAlignedTypedef(const GBase& b) const {
    if (b.kind != GBase::Typedef) return false;
    const GTypedef& t = p_.typedefs[size_t(b.ref)];
    return t.aligned || hasAlignedTypedef(t.base);
  }

  IntKind pickInt() { return pick(ints_); }

  int genEnum() {
    if (!p_.enums.empty() && chance(25)) return int(below(p_.enums.size()));
    GEnum e;
    e.name = p_.prefix + "e" + std::to_string(p_.enums.size());
    e.packed = chance(30);
    size_t n = 1 + below(4);
    unsigned mode = unsigned(below(10));
    for (size_t i = 0; i < n; ++i) {
      int64_t v;
      if (mode < 4)
        v = int64_t(below(100));
      else if (mode < 7)
        v = int64_t(below(300)) - 150;
      else if (mode == 7)
        v = int64_t(below(uint64_t(1) << 40));
      else if (mode == 8)
        v = -int64_t(below(uint64_t(1) << 40));
      else
        v = int64_t(0x80000000u + below(0x7fffffffu));
      if (i == 0 && mode < 4 && chance(30)) v = int64_t(below(70000));
      e.values.push_back(v);
    }
    e.underlying = enumUnderlying(e.values, e.packed, d_);
    p_.enums.push_back(std::move(e));
    p_.order.push_back({GDecl::Enum, int(p_.enums.size() - 1)});
    return int(p_.enums.size() - 1);
  }

  GBase vectorElement() {
    GBase b;
    if (chance(30) && !floats_.empty()) {
      static constexpr FloatKind kVecFloats[] = {FloatKind::Float, FloatKind::Double};
      b.kind = GBase::Float;
      b.fk = pick(kVecFloats);
      return b;
    }
    static constexpr IntKind kVecInts[] = {IntKind::Char,     IntKind::SChar,    IntKind::UChar,
                                           IntKind::Short,    IntKind::UShort,   IntKind::Int,
                                           IntKind::UInt,     IntKind::Long,     IntKind::ULong,
                                           IntKind::LongLong, IntKind::ULongLong};
    b.kind = GBase::Int;
    b.ik = pick(kVecInts);
    return b;
  }

  int genTypedef(int depth, bool integer_only) {
    GTypedef t;
    t.name = p_.prefix + "t" + std::to_string(typedef_counter_++);
    if (integer_only) {
      t.base.kind = GBase::Int;
      t.base.ik = pickInt();
      // GCC places a bit-field of an aligned typedef at the typedef's alignment; clang does
      // not (docs/targets/riscv.md). abikit follows clang, so GCC is not asked.
      if (clang() && chance(60)) t.aligned = pickAlign(5);
    } else if (chance(35)) {
      t.base = vectorElement();
      bool ext = clang() && chance(40);
      t.vec = ext ? GTypedef::ExtVector : GTypedef::VectorSize;
      if (oracle_ == OracleKind::Gcc || chance(50))
        t.vec_count = pickAlign(5);
      else
        t.vec_count = 1 + uint32_t(below(8));
      uint64_t elem = t.base.kind == GBase::Float ? d_.of(t.base.fk).size : d_.of(t.base.ik).size;
      // GCC caps vector alignment at 16 bytes on RISC-V, clang does not (docs/targets/riscv.md).
      uint64_t max_bytes = clang() ? 128 : 16;
      while (t.vec_count > 1 && elem * t.vec_count > max_bytes) t.vec_count /= 2;
      // GCC aligns i386's 8-byte vectors to 4, clang to 8 (docs/targets/x86.md).
      if (gcc_i386_ && elem * t.vec_count == 8) t.vec_count *= 2;
    } else {
      t.base = valueBase(depth + 1, /*allow_typedef=*/depth < 2);
      if (chance(70)) t.aligned = pickAlign(5);
      if (chance(12) && !(oracle_ == OracleKind::Gcc && hasAlignedTypedef(t.base)))
        t.dims.push_back(1 + below(3));
    }
    p_.typedefs.push_back(std::move(t));
    p_.order.push_back({GDecl::Typedef, int(p_.typedefs.size() - 1)});
    return int(p_.typedefs.size() - 1);
  }

  // What _Atomic may be applied to (C11 6.7.2.4; clang also refuses every _BitInt).
  bool atomicValue(const GBase& b) const {
    const GBase* v = &b;
    while (v->kind == GBase::Typedef) {
      const GTypedef& td = p_.typedefs[size_t(v->ref)];
      if (!td.dims.empty()) return false;
      v = &td.base;
    }
    return v->kind != GBase::BitInt;
  }

  GBase valueBase(int depth, bool allow_typedef = true) {
    GBase b;
    for (;;) {
      unsigned r = unsigned(below(100));
      if (r < 30) {
        b.kind = GBase::Int;
        b.ik = pickInt();
        return b;
      }
      if (r < 40) {
        if (floats_.empty()) continue;
        b.kind = GBase::Float;
        b.fk = pick(floats_);
        return b;
      }
      if (r < 46) {
        b.kind = GBase::Pointer;
        b.char_pointee = chance(50);
        if (!spaces_.empty() && chance(50)) b.address_space = pick(spaces_);
        return b;
      }
      if (r < 49) {
        b.kind = GBase::FuncPointer;
        return b;
      }
      if (r < 56) {
        b.kind = GBase::Enum;
        b.ref = genEnum();
        return b;
      }
      if (r < 67) {
        if (!allow_typedef) continue;
        b.kind = GBase::Typedef;
        b.ref = genTypedef(depth, false);
        return b;
      }
      if (r < 72) {
        if (chance(60)) {
          static constexpr FloatKind kCplx[] = {FloatKind::Float, FloatKind::Double,
                                                FloatKind::LongDouble};
          b.kind = GBase::ComplexFloat;
          b.fk = pick(kCplx);
          if (!d_.of(b.fk).supported()) continue;
        } else {
          static constexpr IntKind kCplx[] = {IntKind::Char, IntKind::Short, IntKind::Int,
                                              IntKind::UInt, IntKind::LongLong};
          b.kind = GBase::ComplexInt;
          b.ik = pick(kCplx);
        }
        return b;
      }
      if (r < 76) {
        if (!clang() || d_.bitint_max_width == 0) continue;
        b.kind = GBase::BitInt;
        b.is_signed = chance(50);
        b.bits = uint16_t(chance(60) ? 2 + below(63) : 2 + below(d_.bitint_max_width - 1));
        return b;
      }
      if (depth >= 3) continue;
      b.kind = GBase::Record;
      size_t named = 0;
      for (const GRecord& rec : p_.records) named += !rec.name.empty();
      if (named > 1 && chance(25)) {
        // Reuse an earlier named record that is already complete (not an ancestor).
        std::vector<int> done;
        for (const GDecl& dcl : p_.order)
          if (dcl.kind == GDecl::Record) done.push_back(dcl.index);
        if (!done.empty()) {
          b.ref = pick(done);
          return b;
        }
      }
      b.ref = genRecord(depth + 1, false, 0, false);
      return b;
    }
  }

  GBase bitFieldBase() {
    GBase b;
    unsigned r = unsigned(below(100));
    if (r < 70) {
      b.kind = GBase::Int;
      b.ik = pickInt();
    } else if (r < 82) {
      b.kind = GBase::Enum;
      b.ref = genEnum();
    } else if (r < 90 && clang() && d_.bitint_max_width) {
      b.kind = GBase::BitInt;
      b.is_signed = chance(50);
      b.bits = uint16_t(chance(70) ? 2 + below(63) : 2 + below(d_.bitint_max_width - 1));
    } else {
      b.kind = GBase::Typedef;
      b.ref = genTypedef(0, /*integer_only=*/true);
    }
    return b;
  }

  GField genField(int depth, bool bitfield_heavy, uint32_t pack, bool ms_struct) {
    GField f;
    f.name = fieldName();
    if (chance(bitfield_heavy ? 55 : 12)) {
      f.base = bitFieldBase();
      // ms_struct units wider than 255 bits are refused by abikit (clang wraps them).
      if ((ms_struct || d_.ms_bitfields) && valueWidth(f.base) > 128) {
        f.base = GBase{};
        f.base.kind = GBase::Int;
        f.base.ik = IntKind::Int;
      }
      uint64_t limit = valueWidth(f.base);
      bool unnamed = chance(22);
      uint64_t w;
      if (unnamed && chance(45))
        w = 0;
      else {
        unsigned r = unsigned(below(4));
        w = r == 0   ? 1
            : r == 1 ? limit
            : r == 2 ? 1 + below(std::min<uint64_t>(limit, 8))
                     : 1 + below(limit);
      }
      // C++ reads `enum E : 3` as an enum with an underlying type: such bit-fields keep a name.
      if (unnamed && cxx_ && f.base.kind == GBase::Enum) {
        unnamed = false;
        w = std::max<uint64_t>(w, 1);
      }
      if (unnamed) f.name.clear();
      f.bit_width = int(w);
      // GCC and clang disagree on aligned bit-fields (docs/targets/riscv.md): clang only.
      if (clang() && chance(6)) f.aligned = pickAlign(5);
      if (chance(8)) f.packed = true;
      return f;
    }
    if (depth < 3 && chance(7)) {
      f.name.clear();
      f.anon = genRecord(depth + 1, true, pack, ms_struct);
      return f;
    }
    f.base = valueBase(depth);
    f.base.atomic = atomics_ && atomic_rng_() % 10 == 0 && atomicValue(f.base);
    if (chance(15) && !(oracle_ == OracleKind::Gcc && hasAlignedTypedef(f.base))) {
      size_t n = 1 + below(2);
      for (size_t i = 0; i < n; ++i) f.dims.push_back(chance(6) ? 0 : 1 + below(4));
    }
    if (chance(8)) f.aligned = pickAlign(5);
    if (chance(8)) f.packed = true;
    return f;
  }

  int genRecord(int depth, bool anonymous, uint32_t inherited_pack, bool inherited_ms) {
    int idx = int(p_.records.size());
    p_.records.emplace_back();
    {
      GRecord& r = p_.records.back();
      if (!anonymous) r.name = p_.prefix + "s" + std::to_string(record_counter_++);
      r.is_union = chance(20);
      r.packed = chance(12);
      if (chance(10)) r.aligned = pickAlign(6);
      r.pack = anonymous ? inherited_pack : (chance(12) ? pickAlign(5) : 0);
      // ms_struct (clang on every target; GCC only on x86).
      r.ms_struct = anonymous ? inherited_ms : ms_struct_ && chance(10);
    }
    uint32_t pack = p_.records[size_t(idx)].pack;
    bool ms = p_.records[size_t(idx)].ms_struct;
    bool heavy = chance(40);
    size_t n = chance(2) ? 0 : 1 + below(7);
    std::vector<GField> fields;
    for (size_t i = 0; i < n; ++i) fields.push_back(genField(depth, heavy, pack, ms));
    bool is_union = p_.records[size_t(idx)].is_union;
    bool named = std::any_of(fields.begin(), fields.end(),
                             [](const GField& f) { return !(f.bit_width >= 0 && f.name.empty()); });
    if (anonymous && !std::any_of(fields.begin(), fields.end(),
                                  [](const GField& f) { return !f.name.empty(); })) {
      // An anonymous member without a named member declares nothing.
      GField f;
      f.name = fieldName();
      f.base.kind = GBase::Int;
      f.base.ik = pickInt();
      fields.push_back(std::move(f));
      named = true;
    }
    if (!anonymous && !is_union && named && chance(10)) {
      GField f;
      f.name = fieldName();
      f.base = valueBase(depth + 1);
      if (oracle_ == OracleKind::Gcc && hasAlignedTypedef(f.base)) f.base = GBase{};
      f.flexible = true;
      if (chance(10) && !(oracle_ == OracleKind::Gcc && hasAlignedTypedef(f.base)))
        f.dims.push_back(1 + below(3));
      if (chance(6)) f.aligned = pickAlign(5);
      fields.push_back(std::move(f));
    }
    p_.records[size_t(idx)].fields = std::move(fields);
    if (!anonymous) p_.order.push_back({GDecl::Record, idx});
    return idx;
  }

  uint32_t pickAlign(unsigned n) { return 1u << below(n); } // 1, 2, 4, ... 2^(n-1)

  std::mt19937_64 rng_;
  std::mt19937_64 atomic_rng_; // which fields are _Atomic
  DataModel d_;
  OracleKind oracle_;
  const bool atomics_;
  const bool gcc_i386_;  // the oracle is GCC -m32
  const bool ms_struct_; // records may be under #pragma ms_struct on
  const bool cxx_;       // C++ (CUDA, HIP) device code
  GProgram p_;
  std::vector<IntKind> ints_;
  std::vector<FloatKind> floats_;
  std::vector<uint32_t> spaces_;
  unsigned field_counter_ = 0, typedef_counter_ = 0, record_counter_ = 0;
};

// ----- rendering ------------------------------------------------------------------------------

std::string baseSpelling(const GProgram& p, const GBase& b) {
  switch (b.kind) {
  case GBase::Int:
    return intKindName(b.ik);
  case GBase::BitInt:
    return std::string(b.is_signed ? "" : "unsigned ") + "_BitInt(" + std::to_string(b.bits) + ")";
  case GBase::Float:
    return floatKindName(b.fk);
  case GBase::ComplexInt:
    return std::string("_Complex ") + intKindName(b.ik);
  case GBase::ComplexFloat:
    return std::string("_Complex ") + floatKindName(b.fk);
  case GBase::Pointer: {
    std::string s;
    if (b.address_space)
      s = "__attribute__((address_space(" + std::to_string(b.address_space) + "))) ";
    return s + (b.char_pointee ? "char" : "void");
  }
  case GBase::FuncPointer:
    return "void";
  case GBase::Enum:
    return "enum " + p.enums[size_t(b.ref)].name;
  case GBase::Record:
    return recordSpelling(p.records[size_t(b.ref)]);
  case GBase::Typedef:
    return p.typedefs[size_t(b.ref)].name;
  }
  return "int";
}

// "base declarator" for a name with array dimensions (and the pointer/function-pointer forms).
std::string declaration(const GProgram& p, const GBase& b, const std::string& name,
                        const std::vector<uint64_t>& dims, bool flexible) {
  std::string d = name;
  if (flexible) d += "[]";
  for (uint64_t n : dims) d += "[" + std::to_string(n) + "]";
  if (b.atomic) {
    if (b.kind == GBase::Pointer) return "_Atomic(" + baseSpelling(p, b) + " *) " + d;
    if (b.kind == GBase::FuncPointer) return "_Atomic(void (*)(void)) " + d;
    return "_Atomic(" + baseSpelling(p, b) + ") " + d;
  }
  if (b.kind == GBase::Pointer) return baseSpelling(p, b) + " *" + d;
  if (b.kind == GBase::FuncPointer) return "void (*" + d + ")(void)";
  return baseSpelling(p, b) + " " + d;
}

struct Writer {
  std::string out;
  uint32_t line = 1;
  void put(const std::string& s) {
    out += s;
    line += uint32_t(std::count(s.begin(), s.end(), '\n'));
  }
};

std::string attrs(bool packed, uint32_t aligned) {
  std::string a;
  if (packed) a = "packed";
  if (aligned) a += std::string(a.empty() ? "" : ", ") + "aligned(" + std::to_string(aligned) + ")";
  return a.empty() ? "" : "__attribute__((" + a + "))";
}

void renderRecord(Writer& w, GProgram& p, int idx, int indent) {
  std::string pad(size_t(indent) * 2, ' ');
  GRecord& r = p.records[size_t(idx)];
  r.line = w.line;
  r.col = uint32_t(pad.size()) + 1;
  std::string head = pad + (r.is_union ? "union" : "struct");
  std::string a = attrs(r.packed, r.aligned);
  if (!a.empty()) head += " " + a;
  if (!r.name.empty()) head += " " + r.name;
  w.put(head + " {\n");
  for (size_t i = 0; i < p.records[size_t(idx)].fields.size(); ++i) {
    const GField& f = p.records[size_t(idx)].fields[i];
    if (f.anon >= 0) {
      renderRecord(w, p, f.anon, indent + 1);
      w.put(";\n");
      continue;
    }
    std::string s = pad + "  " + declaration(p, f.base, f.name, f.dims, f.flexible);
    if (f.bit_width >= 0) {
      if (f.name.empty()) s.pop_back(); // "int " -> "int"
      s += " : " + std::to_string(f.bit_width);
    }
    std::string fa = attrs(f.packed, f.aligned);
    if (!fa.empty()) s += " " + fa;
    w.put(s + ";\n");
  }
  w.put(pad + "}");
}

} // namespace

IntKind enumUnderlying(const std::vector<int64_t>& values, bool packed, const DataModel& d) {
  if (d.ms_enums) return IntKind::Int;
  unsigned neg = 0, pos = 0;
  for (int64_t v : values) {
    if (v < 0)
      neg = std::max(neg, minSignedBits(v));
    else
      pos = std::max(pos, activeBits(uint64_t(v)));
  }
  unsigned cw = 8, sw = d.of(IntKind::Short).size * 8u, iw = d.of(IntKind::Int).size * 8u,
           lw = d.of(IntKind::Long).size * 8u;
  if (neg) {
    if (packed && neg <= cw && pos < cw) return IntKind::SChar;
    if (packed && neg <= sw && pos < sw) return IntKind::Short;
    if (neg <= iw && pos < iw) return IntKind::Int;
    if (neg <= lw && pos < lw) return IntKind::Long;
    return IntKind::LongLong;
  }
  if (packed && pos <= cw) return IntKind::UChar;
  if (packed && pos <= sw) return IntKind::UShort;
  if (pos <= iw) return IntKind::UInt;
  if (pos <= lw) return IntKind::ULong;
  return IntKind::ULongLong;
}

GProgram generateCase(uint64_t seed, const std::string& prefix, const Target& target,
                      OracleKind oracle, bool ms_struct, Language lang, bool atomics) {
  return Generator(seed, prefix, target, oracle, ms_struct, lang, atomics).run();
}

std::string recordSpelling(const GRecord& r) {
  return std::string(r.is_union ? "union " : "struct ") + r.name;
}

std::string render(std::vector<GProgram>& programs) {
  Writer w;
  for (GProgram& p : programs) {
    p.first_line = w.line;
    for (const GDecl& d : p.order) {
      switch (d.kind) {
      case GDecl::Enum: {
        const GEnum& e = p.enums[size_t(d.index)];
        std::string s = "enum ";
        if (e.packed) s += "__attribute__((packed)) ";
        s += e.name + " {";
        for (size_t i = 0; i < e.values.size(); ++i)
          s += (i ? ", " : " ") + e.name + "_" + std::to_string(i) + " = " +
               std::to_string(e.values[i]) + "LL";
        w.put(s + " };\n");
        break;
      }
      case GDecl::Typedef: {
        const GTypedef& t = p.typedefs[size_t(d.index)];
        std::string s = "typedef " + declaration(p, t.base, t.name, t.dims, false);
        if (t.vec == GTypedef::VectorSize) {
          // vector_size takes bytes: count * sizeof(element).
          s += " __attribute__((vector_size(" + std::to_string(t.vec_count) + " * sizeof(" +
               baseSpelling(p, t.base) + "))))";
        } else if (t.vec == GTypedef::ExtVector) {
          s += " __attribute__((ext_vector_type(" + std::to_string(t.vec_count) + ")))";
        }
        if (t.aligned) s += " __attribute__((aligned(" + std::to_string(t.aligned) + ")))";
        w.put(s + ";\n");
        break;
      }
      case GDecl::Record: {
        const GRecord& r = p.records[size_t(d.index)];
        if (r.pack) w.put("#pragma pack(push, " + std::to_string(r.pack) + ")\n");
        if (r.ms_struct) w.put("#pragma ms_struct on\n");
        renderRecord(w, p, d.index, 0);
        w.put(";\n");
        if (r.ms_struct) w.put("#pragma ms_struct off\n");
        if (r.pack) w.put("#pragma pack(pop)\n");
        break;
      }
      }
    }
    p.last_line = w.line - 1;
  }
  return w.out;
}

// ----- building into a TypeContext ------------------------------------------------------------

namespace {

struct Builder {
  const GProgram& p;
  TypeContext& ctx;
  uint32_t file;
  std::vector<EnumDecl*> enums;
  std::vector<TypedefDecl*> typedefs;
  std::vector<RecordDecl*> records;

  const Type* base(const GBase& b) {
    const Type* t = value(b);
    return b.atomic ? ctx.atomicOf(t) : t;
  }

  const Type* value(const GBase& b) {
    switch (b.kind) {
    case GBase::Int:
      return ctx.intType(b.ik);
    case GBase::BitInt:
      return ctx.bitIntType(b.bits, b.is_signed);
    case GBase::Float:
      return ctx.floatType(b.fk);
    case GBase::ComplexInt:
      return ctx.complexOf(ctx.intType(b.ik));
    case GBase::ComplexFloat:
      return ctx.complexOf(ctx.floatType(b.fk));
    case GBase::Pointer:
      return ctx.pointerTo(b.char_pointee ? static_cast<const Type*>(ctx.intType(IntKind::Char))
                                          : ctx.voidType(),
                           b.address_space);
    case GBase::FuncPointer: {
      FunctionType* ft = ctx.createFunctionType();
      ft->result = ctx.voidType();
      return ctx.pointerTo(ft);
    }
    case GBase::Enum:
      return ctx.enumType(enums[size_t(b.ref)]);
    case GBase::Record:
      return ctx.recordType(records[size_t(b.ref)]);
    case GBase::Typedef:
      return ctx.typedefType(typedefs[size_t(b.ref)]);
    }
    return ctx.intType(IntKind::Int);
  }

  const Type* withDims(const Type* t, const std::vector<uint64_t>& dims, bool flexible) {
    for (size_t i = dims.size(); i-- > 0;) t = ctx.arrayOf(t, dims[i]);
    if (flexible) t = ctx.incompleteArrayOf(t);
    return t;
  }

  void record(int idx) {
    const GRecord& g = p.records[size_t(idx)];
    RecordDecl* rd = records[size_t(idx)];
    rd->packed = g.packed;
    rd->aligned = g.aligned;
    rd->max_field_align = g.pack;
    rd->ms_struct = g.ms_struct;
    for (const GField& f : g.fields) {
      FieldDecl fd;
      fd.loc = {file, g.line, g.col};
      if (f.anon >= 0) {
        record(f.anon);
        fd.type = ctx.recordType(records[size_t(f.anon)]);
      } else {
        fd.name = ctx.intern(f.name);
        fd.type = withDims(base(f.base), f.dims, f.flexible);
        fd.bit_width = f.bit_width;
        fd.aligned = f.aligned;
        fd.packed = f.packed;
      }
      rd->fields.push_back(fd);
    }
    rd->complete = true;
  }
};

} // namespace

std::vector<RecordDecl*> build(const GProgram& p, TypeContext& ctx, uint32_t file) {
  Builder b{p, ctx, file, {}, {}, {}};
  for (const GRecord& r : p.records)
    b.records.push_back(
        ctx.createRecord(ctx.intern(r.name), r.is_union, SourceLoc{file, r.line, r.col}));
  for (const GEnum& e : p.enums) {
    EnumDecl* ed = ctx.createEnum(ctx.intern(e.name), SourceLoc{file, 0, 0});
    ed->packed = e.packed;
    ed->underlying = ctx.intType(e.underlying);
    for (size_t i = 0; i < e.values.size(); ++i)
      ed->enumerators.push_back(
          {ctx.intern(e.name + "_" + std::to_string(i)), e.values[i], SourceLoc{}});
    ed->complete = true;
    b.enums.push_back(ed);
  }
  b.typedefs.resize(p.typedefs.size());
  for (const GDecl& d : p.order) {
    if (d.kind == GDecl::Typedef) {
      const GTypedef& t = p.typedefs[size_t(d.index)];
      const Type* u = b.withDims(b.base(t.base), t.dims, false);
      if (t.vec != GTypedef::None)
        u = ctx.vectorOf(u, t.vec_count,
                         t.vec == GTypedef::ExtVector ? VectorKind::Ext : VectorKind::Generic);
      TypedefDecl* td = ctx.createTypedef(ctx.intern(t.name), u, SourceLoc{file, 0, 0});
      td->aligned = t.aligned;
      b.typedefs[size_t(d.index)] = td;
    } else if (d.kind == GDecl::Record) {
      b.record(d.index);
    }
  }
  return b.records;
}

// ----- shrinking ------------------------------------------------------------------------------

namespace {
void clearPack(GProgram& c, size_t r) {
  c.records[r].pack = 0;
  for (const GField& f : c.records[r].fields)
    if (f.anon >= 0) clearPack(c, size_t(f.anon));
}
void clearMsStruct(GProgram& c, size_t r) {
  c.records[r].ms_struct = false;
  for (const GField& f : c.records[r].fields)
    if (f.anon >= 0) clearMsStruct(c, size_t(f.anon));
}
} // namespace

std::vector<GProgram> shrinkCandidates(const GProgram& p, const DataModel& d) {
  std::vector<GProgram> out;
  auto add = [&](auto&& edit) {
    GProgram c = p;
    if (edit(c)) out.push_back(std::move(c));
  };
  for (size_t r = 0; r < p.records.size(); ++r) {
    const GRecord& rec = p.records[r];
    for (size_t i = 0; i < rec.fields.size(); ++i) {
      add([&](GProgram& c) {
        c.records[r].fields.erase(c.records[r].fields.begin() + long(i));
        return true;
      });
      const GField& f = rec.fields[i];
      if (f.aligned) add([&](GProgram& c) { return c.records[r].fields[i].aligned = 0, true; });
      if (f.packed) add([&](GProgram& c) { return c.records[r].fields[i].packed = false, true; });
      if (!f.dims.empty())
        add([&](GProgram& c) { return c.records[r].fields[i].dims.clear(), true; });
      if (f.flexible)
        add([&](GProgram& c) { return c.records[r].fields[i].flexible = false, true; });
      if (f.bit_width > 1)
        add([&](GProgram& c) { return c.records[r].fields[i].bit_width = 1, true; });
      if (f.base.atomic)
        add([&](GProgram& c) { return c.records[r].fields[i].base.atomic = false, true; });
      if (f.base.kind == GBase::Typedef || f.base.kind == GBase::Enum ||
          f.base.kind == GBase::Record || f.base.kind == GBase::BitInt) {
        if (f.bit_width < 0 || f.bit_width <= 8)
          add([&](GProgram& c) {
            GField& g = c.records[r].fields[i];
            g.base = GBase{};
            g.base.kind = GBase::Int;
            g.base.ik = f.bit_width >= 0 ? IntKind::UChar : IntKind::Char;
            return true;
          });
      }
    }
    if (rec.packed) add([&](GProgram& c) { return c.records[r].packed = false, true; });
    if (rec.aligned) add([&](GProgram& c) { return c.records[r].aligned = 0, true; });
    if (rec.pack && !rec.name.empty()) add([&](GProgram& c) { return clearPack(c, r), true; });
    if (rec.ms_struct && !rec.name.empty())
      add([&](GProgram& c) { return clearMsStruct(c, r), true; });
    if (rec.is_union) add([&](GProgram& c) { return c.records[r].is_union = false, true; });
  }
  for (size_t t = 0; t < p.typedefs.size(); ++t) {
    if (p.typedefs[t].aligned) add([&](GProgram& c) { return c.typedefs[t].aligned = 0, true; });
    if (!p.typedefs[t].dims.empty())
      add([&](GProgram& c) { return c.typedefs[t].dims.clear(), true; });
  }
  // Declarations nothing else refers to.
  std::vector<uint8_t> used_enum(p.enums.size()), used_td(p.typedefs.size()),
      used_rec(p.records.size());
  auto mark = [&](const GBase& b) {
    if (b.kind == GBase::Enum) used_enum[size_t(b.ref)] = 1;
    if (b.kind == GBase::Typedef) used_td[size_t(b.ref)] = 1;
    if (b.kind == GBase::Record) used_rec[size_t(b.ref)] = 1;
  };
  std::vector<int> stack;
  for (const GDecl& d : p.order) {
    if (d.kind == GDecl::Typedef) mark(p.typedefs[size_t(d.index)].base);
    if (d.kind == GDecl::Record) stack.push_back(d.index);
  }
  while (!stack.empty()) {
    int r = stack.back();
    stack.pop_back();
    for (const GField& f : p.records[size_t(r)].fields) {
      if (f.anon >= 0)
        stack.push_back(f.anon);
      else
        mark(f.base);
    }
  }
  for (size_t i = 0; i < p.order.size(); ++i) {
    const GDecl& d = p.order[i];
    bool used = d.kind == GDecl::Enum      ? used_enum[size_t(d.index)]
                : d.kind == GDecl::Typedef ? used_td[size_t(d.index)]
                                           : used_rec[size_t(d.index)];
    if (!used) add([&](GProgram& c) { return c.order.erase(c.order.begin() + long(i)), true; });
  }
  for (size_t e = 0; e < p.enums.size(); ++e)
    if (p.enums[e].packed)
      add([&](GProgram& c) {
        c.enums[e].packed = false;
        c.enums[e].underlying = enumUnderlying(c.enums[e].values, false, d);
        return true;
      });
  return out;
}

// ----- coverage -------------------------------------------------------------------------------

void Coverage::add(const GProgram& p) {
  auto base = [&](const GBase& b) {
    if (b.kind == GBase::ComplexInt || b.kind == GBase::ComplexFloat) ++complex;
    if (b.kind == GBase::BitInt) ++bitints;
    if (b.kind == GBase::Pointer && b.address_space) ++address_space_pointers;
    if (b.kind == GBase::FuncPointer) ++function_pointers;
    if (b.kind == GBase::Int && (b.ik == IntKind::Int128 || b.ik == IntKind::UInt128)) ++int128;
    if (b.atomic) ++atomics;
  };
  for (const GDecl& d : p.order) {
    if (d.kind == GDecl::Enum) {
      ++enums;
      packed_enums += p.enums[size_t(d.index)].packed;
    } else if (d.kind == GDecl::Typedef) {
      const GTypedef& t = p.typedefs[size_t(d.index)];
      aligned_typedefs += t.aligned != 0;
      vectors += t.vec == GTypedef::VectorSize;
      ext_vectors += t.vec == GTypedef::ExtVector;
      arrays += !t.dims.empty();
      base(t.base);
    }
  }
  for (const GRecord& r : p.records) {
    ++records;
    unions += r.is_union;
    packed_records += r.packed;
    aligned_records += r.aligned != 0;
    pragma_pack += r.pack != 0 && !r.name.empty();
    ms_struct += r.ms_struct && !r.name.empty();
    for (const GField& f : r.fields) {
      ++fields;
      if (f.anon >= 0) {
        ++anonymous_members;
        continue;
      }
      base(f.base);
      if (f.bit_width >= 0) {
        ++bitfields;
        zero_width += f.bit_width == 0;
        unnamed_bitfields += f.name.empty();
      }
      packed_fields += f.packed;
      aligned_fields += f.aligned != 0;
      flexible_arrays += f.flexible;
      arrays += !f.dims.empty();
    }
  }
}

std::string Coverage::text() const {
  std::string s;
  auto item = [&](const char* name, uint64_t n) {
    s += std::string(s.empty() ? "" : ", ") + name + " " + std::to_string(n);
  };
  item("records", records);
  item("unions", unions);
  item("packed", packed_records);
  item("aligned", aligned_records);
  item("#pragma pack", pragma_pack);
  item("#pragma ms_struct", ms_struct);
  item("anonymous members", anonymous_members);
  item("fields", fields);
  item("bit-fields", bitfields);
  item("zero-width", zero_width);
  item("unnamed bit-fields", unnamed_bitfields);
  item("packed fields", packed_fields);
  item("aligned fields", aligned_fields);
  item("flexible arrays", flexible_arrays);
  item("arrays", arrays);
  item("vector_size", vectors);
  item("ext_vector_type", ext_vectors);
  item("_Complex", complex);
  item("enums", enums);
  item("packed enums", packed_enums);
  item("_BitInt", bitints);
  item("__int128", int128);
  item("_Atomic", atomics);
  item("aligned typedefs", aligned_typedefs);
  item("address-space pointers", address_space_pointers);
  item("function pointers", function_pointers);
  return s;
}

} // namespace abikit::difftest
