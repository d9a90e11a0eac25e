#include "callconv_gen.h"

#include <algorithm>
#include <random>

namespace abikit::difftest {

namespace {

constexpr IntKind kInts[] = {
    IntKind::Bool,     IntKind::Char,      IntKind::SChar,  IntKind::UChar,  IntKind::Short,
    IntKind::UShort,   IntKind::Int,       IntKind::UInt,   IntKind::Long,   IntKind::ULong,
    IntKind::LongLong, IntKind::ULongLong, IntKind::Int128, IntKind::UInt128};
constexpr IntKind kVecInts[] = {IntKind::Char, IntKind::UChar, IntKind::Short, IntKind::UShort,
                                IntKind::Int,  IntKind::UInt,  IntKind::Long,  IntKind::LongLong};

class ProtoGen {
public:
  ProtoGen(uint64_t seed, int index, const Target& target, const ProtoOptions& o)
      : rng_(seed), target_(target), d_(dataModelFor(target, Language::C)), o_(o) {
    p_.seed = seed;
    p_.index = index;
    p_.prefix = "p" + std::to_string(index) + "_";
    for (IntKind k : kInts) {
      if (!d_.of(k).supported()) continue;
      if (!o_.allow_int128 && (k == IntKind::Int128 || k == IntKind::UInt128)) continue;
      ints_.push_back(k);
    }
    floats_.push_back(FloatKind::Float);
    floats_.push_back(FloatKind::Double);
    if (o_.allow_long_double && d_.of(FloatKind::LongDouble).supported())
      floats_.push_back(FloatKind::LongDouble);
    if (o_.allow_float16 && d_.of(FloatKind::Float16).supported())
      floats_.push_back(FloatKind::Float16);
  }

  Proto run() {
    // A mode biases the mix: plain, FP-heavy (exhausts fa0-fa7), integer-heavy (exhausts
    // a0-a7, pairs split between a7 and the stack), variadic.
    unsigned mode = unsigned(below(100));
    fp_heavy_ = mode >= 45 && mode < 70;
    int_heavy_ = mode >= 70 && mode < 85;
    bool variadic = mode >= 85 || chance(12);
    size_t n;
    if (fp_heavy_ || int_heavy_)
      n = 5 + below(std::max<unsigned>(o_.max_params, 6) - 4);
    else
      n = below(o_.max_params + 1);
    if (variadic && n == 0) n = 1;
    p_.ret = chance(25) ? PType{} : type(false);
    for (size_t i = 0; i < n; ++i) p_.params.push_back(type(false));
    p_.variadic = variadic;
    if (variadic) {
      size_t k = below(7);
      for (size_t i = 0; i < k; ++i) p_.extra.push_back(type(true));
    }
    return std::move(p_);
  }

private:
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
  template <class T> T pick(const std::vector<T>& v) { return v[below(v.size())]; }
  template <class T, size_t N> T pick(const T (&a)[N]) { return a[below(N)]; }
  bool clang() const { return o_.oracle == OracleKind::Clang; }
  uint32_t pickAlign(unsigned n) { return 1u << below(n); }

  // ----- small records ----------------------------------------------------------------------

  int addEnum(GProgram& g) {
    GEnum e;
    e.name = g.prefix + "e" + std::to_string(g.enums.size());
    e.packed = chance(30);
    size_t n = 1 + below(3);
    for (size_t i = 0; i < n; ++i)
      e.values.push_back(chance(70) ? int64_t(below(200)) : int64_t(below(1u << 20)) - 1000);
    e.underlying = enumUnderlying(e.values, e.packed, d_);
    g.enums.push_back(std::move(e));
    g.order.push_back({GDecl::Enum, int(g.enums.size() - 1)});
    return int(g.enums.size() - 1);
  }

  GBase scalarMember(GProgram& g) {
    GBase b;
    unsigned r = unsigned(below(100));
    if (r < 45) {
      b.kind = GBase::Float;
      b.fk = pick(floats_);
      if (b.fk == FloatKind::LongDouble && chance(60)) b.fk = FloatKind::Float;
      return b;
    }
    if (r < 75) {
      b.kind = GBase::Int;
      b.ik = pick(ints_);
      return b;
    }
    if (r < 80) {
      b.kind = GBase::Enum;
      b.ref = addEnum(g);
      return b;
    }
    if (r < 85 && clang() && o_.allow_bitint) {
      b.kind = GBase::BitInt;
      b.is_signed = chance(50);
      b.bits = uint16_t(2 + below(chance(70) ? 63 : d_.bitint_max_width - 1));
      return b;
    }
    if (r < 92) {
      b.kind = GBase::ComplexFloat;
      b.fk = chance(50) ? FloatKind::Float : FloatKind::Double;
      if (clang() && o_.allow_float16 && chance(10)) b.fk = FloatKind::Float16;
      return b;
    }
    if (r < 95) {
      static constexpr IntKind kC[] = {IntKind::Char, IntKind::Short, IntKind::Int,
                                       IntKind::LongLong};
      b.kind = GBase::ComplexInt;
      b.ik = pick(kC);
      return b;
    }
    if (r < 98) {
      b.kind = GBase::Pointer;
      return b;
    }
    b.kind = GBase::Int;
    b.ik = IntKind::Bool;
    return b;
  }

  GField bitField(GProgram& g) {
    GField f;
    f.base.kind = GBase::Int;
    unsigned r = unsigned(below(10));
    if (r < 7) {
      f.base.ik = pick(ints_);
    } else if (r < 8) {
      f.base.kind = GBase::Enum;
      f.base.ref = addEnum(g);
    } else if (r < 9 && clang() && o_.allow_bitint) {
      f.base.kind = GBase::BitInt;
      f.base.is_signed = chance(50);
      f.base.bits = uint16_t(2 + below(chance(70) ? 63 : d_.bitint_max_width - 1));
    } else {
      f.base.ik = IntKind::Bool;
    }
    uint64_t limit = f.base.kind == GBase::BitInt ? f.base.bits
                     : f.base.kind == GBase::Enum
                         ? d_.of(g.enums[size_t(f.base.ref)].underlying).size * 8u
                     : f.base.ik == IntKind::Bool ? 1
                                                  : d_.of(f.base.ik).size * 8u;
    f.bit_width = int(chance(40) ? limit : 1 + below(limit));
    f.name = "m" + std::to_string(field_++);
    if (chance(10)) f.packed = true;
    return f;
  }

  // A record built for the flattening rules; returns its index in g.records.
  int smallRecord(GProgram& g, int depth, bool anonymous, uint32_t inherited_pack = 0) {
    int idx = int(g.records.size());
    g.records.emplace_back();
    {
      GRecord& r = g.records.back();
      if (!anonymous) r.name = g.prefix + "r" + std::to_string(record_++);
      r.is_union = chance(depth == 0 ? 6 : 10);
      r.packed = chance(12);
      if (chance(8)) r.aligned = pickAlign(6);
      r.pack = anonymous ? inherited_pack : chance(5) ? pickAlign(4) : 0;
    }
    const uint32_t pack = g.records[size_t(idx)].pack;
    std::vector<GField> fields;
    size_t n = chance(4) ? 0 : chance(25) ? 1 : chance(70) ? 2 : 3;
    for (size_t i = 0; i < n; ++i) {
      unsigned r = unsigned(below(100));
      GField f;
      f.name = "m" + std::to_string(field_++);
      if (r < 62) {
        f.base = scalarMember(g);
      } else if (r < 74) {
        f = bitField(g);
      } else if (r < 84) {
        f.base = scalarMember(g);
        if (f.base.kind == GBase::Pointer) f.base.kind = GBase::Int;
        f.dims.push_back(chance(10) ? 0 : 1 + below(2));
      } else if (r < 94 && depth < 2) {
        if (chance(25)) {
          f.name.clear();
          f.anon = smallRecord(g, depth + 1, true, pack);
        } else {
          f.base.kind = GBase::Record;
          f.base.ref = smallRecord(g, depth + 1, false);
          if (chance(15)) f.dims.push_back(1 + below(2));
        }
      } else {
        f.base = scalarMember(g);
      }
      if (f.bit_width < 0 && f.anon < 0) {
        if (chance(7)) f.aligned = pickAlign(5);
        if (chance(5)) f.packed = true;
      }
      fields.push_back(std::move(f));
    }
    // Extras the flattening rules treat specially.
    auto insertAt = [&](GField f) {
      size_t at = below(fields.size() + 1);
      fields.insert(fields.begin() + long(at), std::move(f));
    };
    if (chance(14)) { // zero-width bit-field
      GField f;
      f.base.kind = GBase::Int;
      f.base.ik = pick(ints_);
      if (f.base.ik == IntKind::Bool) f.base.ik = IntKind::Int;
      f.bit_width = 0;
      insertAt(std::move(f));
    }
    if (chance(5)) { // unnamed bit-field
      GField f;
      f.base.kind = GBase::Int;
      f.base.ik = chance(50) ? IntKind::Int : IntKind::Char;
      f.bit_width = int(1 + below(8));
      insertAt(std::move(f));
    }
    if (chance(8) && depth < 2) { // an empty struct member (or an array of them)
      GField f;
      f.name = "m" + std::to_string(field_++);
      f.base.kind = GBase::Record;
      int e = int(g.records.size());
      g.records.emplace_back();
      g.records.back().name = g.prefix + "r" + std::to_string(record_++);
      g.order.push_back({GDecl::Record, e});
      f.base.ref = e;
      if (chance(30)) f.dims.push_back(below(3));
      insertAt(std::move(f));
    }
    if (chance(4)) { // zero-length array
      GField f;
      f.name = "m" + std::to_string(field_++);
      f.base.kind = GBase::Float;
      f.base.fk = FloatKind::Float;
      f.dims.push_back(0);
      insertAt(std::move(f));
    }
    if (anonymous && std::none_of(fields.begin(), fields.end(),
                                  [](const GField& f) { return !f.name.empty(); })) {
      GField f;
      f.name = "m" + std::to_string(field_++);
      f.base.kind = GBase::Float;
      f.base.fk = FloatKind::Float;
      fields.push_back(std::move(f));
    }
    g.records[size_t(idx)].fields = std::move(fields);
    if (!anonymous) g.order.push_back({GDecl::Record, idx});
    return idx;
  }

  PType recordType() {
    PType t;
    t.kind = PType::Record;
    int prog = int(p_.decls.size());
    if (chance(o_.layout_gen_pct)) {
      std::string prefix = p_.prefix + "g" + std::to_string(prog) + "_";
      p_.decls.push_back(generateCase(rng_(), prefix, target_, o_.oracle));
      t.prog = prog;
      t.ref = 0;
      return t;
    }
    if (!p_.decls.empty() && chance(15)) { // reuse a record of this prototype
      int k = int(below(p_.decls.size()));
      for (const GDecl& dcl : p_.decls[size_t(k)].order)
        if (dcl.kind == GDecl::Record && chance(60)) {
          t.prog = k;
          t.ref = dcl.index;
        }
      if (t.prog >= 0) return t;
    }
    GProgram g;
    g.seed = p_.seed;
    g.prefix = p_.prefix + "s" + std::to_string(prog) + "_";
    int idx = smallRecord(g, 0, false);
    p_.decls.push_back(std::move(g));
    t.prog = prog;
    t.ref = idx;
    return t;
  }

  PType scalar(bool extra) {
    PType t;
    for (;;) {
      unsigned r = unsigned(below(100));
      if (r < 34) {
        t.kind = PType::Int;
        t.ik = pick(ints_);
        if (extra && chance(50) &&
            (t.ik == IntKind::Bool || t.ik == IntKind::Char || t.ik == IntKind::Short))
          t.ik = IntKind::Int;
        return t;
      }
      if (r < 70) {
        t.kind = PType::Float;
        t.fk = pick(floats_);
        // An extra float argument is converted to double by the caller: its bits are not
        // the bits in memory, so the probe cannot follow them. Doubles cover that slot.
        if (extra && t.fk == FloatKind::Float) t.fk = FloatKind::Double;
        return t;
      }
      if (r < 76) {
        if (!clang() || !o_.allow_bitint) continue;
        t.kind = PType::BitInt;
        t.is_signed = chance(50);
        t.bits = uint16_t(chance(50) ? 2 + below(63) : 2 + below(d_.bitint_max_width - 1));
        return t;
      }
      if (r < 84) {
        t.kind = PType::ComplexFloat;
        static constexpr FloatKind kC[] = {FloatKind::Float, FloatKind::Double,
                                           FloatKind::LongDouble};
        t.fk = pick(kC);
        if (t.fk == FloatKind::LongDouble && !o_.allow_long_double) t.fk = FloatKind::Double;
        if (clang() && o_.allow_float16 && chance(8)) t.fk = FloatKind::Float16;
        return t;
      }
      if (r < 88) {
        static constexpr IntKind kC[] = {IntKind::Char, IntKind::Short, IntKind::Int, IntKind::UInt,
                                         IntKind::LongLong};
        t.kind = PType::ComplexInt;
        t.ik = pick(kC);
        return t;
      }
      if (r < 95) {
        t.kind = PType::Pointer;
        return t;
      }
      t.kind = PType::Enum;
      GEnum e;
      e.name = p_.prefix + "e" + std::to_string(p_.enums.size());
      e.packed = !extra && chance(40);
      size_t n = 1 + below(3);
      unsigned mode = unsigned(below(4));
      for (size_t i = 0; i < n; ++i)
        e.values.push_back(mode == 0   ? int64_t(below(100))
                           : mode == 1 ? int64_t(below(300)) - 150
                           : mode == 2 ? int64_t(0x80000000u + below(1000))
                                       : -int64_t(below(uint64_t(1) << 40)));
      e.underlying = enumUnderlying(e.values, e.packed, d_);
      t.ref = int(p_.enums.size());
      p_.enums.push_back(std::move(e));
      return t;
    }
  }

  PType vector() {
    PType t;
    t.kind = PType::Vector;
    t.ext_vector = clang() && chance(40);
    t.elem_float = chance(35);
    if (t.elem_float) {
      t.fk = chance(60) ? FloatKind::Float : FloatKind::Double;
    } else {
      t.ik = pick(kVecInts);
    }
    uint64_t elem = t.elem_float ? d_.of(t.fk).size : d_.of(t.ik).size;
    if (t.ext_vector)
      t.count = uint32_t(1 + below(8));
    else
      t.count = uint32_t(1) << below(5);
    while (t.count > 1 && elem * t.count > 64) t.count /= 2;
    return t;
  }

  PType type(bool extra) {
    PType t;
    unsigned r = unsigned(below(100));
    if (fp_heavy_ && r < 45) {
      if (chance(75)) {
        t.kind = PType::Float;
        t.fk = chance(50) ? FloatKind::Float : FloatKind::Double;
        if (extra) t.fk = FloatKind::Double;
      } else {
        t = recordType();
      }
    } else if (int_heavy_ && r < 45) {
      t.kind = PType::Int;
      static constexpr IntKind kI[] = {IntKind::Int, IntKind::LongLong, IntKind::Char,
                                       IntKind::Long, IntKind::UInt};
      t.ik = pick(kI);
      if (extra && t.ik == IntKind::Char) t.ik = IntKind::Int;
    } else if (r < 55) {
      t = scalar(extra);
    } else if (r < 95) {
      t = recordType();
    } else {
      t = vector();
    }
    if (chance(4) && t.kind != PType::Void) t.typedef_align = pickAlign(5);
    return t;
  }

  std::mt19937_64 rng_;
  const Target& target_;
  DataModel d_;
  ProtoOptions o_;
  Proto p_;
  std::vector<IntKind> ints_;
  std::vector<FloatKind> floats_;
  bool fp_heavy_ = false, int_heavy_ = false;
  unsigned field_ = 0, record_ = 0;
};

std::string baseTypeSpelling(const Proto& p, const PType& t) {
  switch (t.kind) {
  case PType::Void:
    return "void";
  case PType::Int:
    return intKindName(t.ik);
  case PType::BitInt:
    return std::string(t.is_signed ? "" : "unsigned ") + "_BitInt(" + std::to_string(t.bits) + ")";
  case PType::Float:
    return floatKindName(t.fk);
  case PType::ComplexFloat:
    return std::string("_Complex ") + floatKindName(t.fk);
  case PType::ComplexInt:
    return std::string("_Complex ") + intKindName(t.ik);
  case PType::Pointer:
    return "void *";
  case PType::Enum:
    return "enum " + p.enums[size_t(t.ref)].name;
  case PType::Record:
    return recordSpelling(p.decls[size_t(t.prog)].records[size_t(t.ref)]);
  case PType::Vector:
    return "";
  }
  return "int";
}

bool needsTypedef(const PType& t) {
  return t.kind == PType::Vector || t.typedef_align != 0;
}

} // namespace

Proto generateProto(uint64_t seed, int index, const Target& target, const ProtoOptions& options) {
  return ProtoGen(seed, index, target, options).run();
}

std::string typeSpelling(const Proto& p, const PType& t, size_t position) {
  if (needsTypedef(t)) return p.prefix + "t" + std::to_string(position);
  return baseTypeSpelling(p, t);
}

namespace {

void forEachType(const Proto& p, auto&& f) {
  f(p.ret, size_t(0));
  for (size_t i = 0; i < p.params.size(); ++i) f(p.params[i], 1 + i);
  for (size_t i = 0; i < p.extra.size(); ++i) f(p.extra[i], 1 + p.params.size() + i);
}

std::string prototypeText(const Proto& p) {
  std::string s = typeSpelling(p, p.ret, 0) + " " + p.callee() + "(";
  for (size_t i = 0; i < p.params.size(); ++i)
    s += (i ? ", " : "") + typeSpelling(p, p.params[i], 1 + i) + " a" + std::to_string(i);
  if (p.variadic) s += p.params.empty() ? "..." : ", ...";
  if (p.params.empty() && !p.variadic) s += "void";
  return s + ")";
}

std::string typedefsText(const Proto& p) {
  std::string out;
  for (const GEnum& e : p.enums) {
    std::string s = "enum ";
    if (e.packed) s += "__attribute__((packed)) ";
    s += e.name + " {";
    for (size_t i = 0; i < e.values.size(); ++i)
      s += (i ? ", " : " ") + e.name + "_" + std::to_string(i) + " = " +
           std::to_string(e.values[i]) + "LL";
    out += s + " };\n";
  }
  forEachType(p, [&](const PType& t, size_t pos) {
    if (!needsTypedef(t)) return;
    std::string name = p.prefix + "t" + std::to_string(pos);
    if (t.kind == PType::Vector) {
      std::string elem = t.elem_float ? floatKindName(t.fk) : intKindName(t.ik);
      if (t.ext_vector)
        out += "typedef " + elem + " " + name + " __attribute__((ext_vector_type(" +
               std::to_string(t.count) + ")))";
      else
        out += "typedef " + elem + " " + name + " __attribute__((vector_size(" +
               std::to_string(t.count) + " * sizeof(" + elem + "))))";
    } else {
      out += "typedef " + baseTypeSpelling(p, t) + " " + name;
    }
    if (t.typedef_align)
      out += " __attribute__((aligned(" + std::to_string(t.typedef_align) + ")))";
    out += ";\n";
  });
  return out;
}

} // namespace

std::string renderDeclarations(std::vector<Proto>& protos) {
  std::vector<GProgram> all;
  for (const Proto& p : protos)
    for (const GProgram& g : p.decls) all.push_back(g);
  std::string text = render(all);
  size_t k = 0;
  for (Proto& p : protos)
    for (GProgram& g : p.decls) g = std::move(all[k++]);
  uint32_t line = 1 + uint32_t(std::count(text.begin(), text.end(), '\n'));
  for (Proto& p : protos) {
    std::string own = typedefsText(p) + prototypeText(p) + ";\n";
    p.first_line = line;
    line += uint32_t(std::count(own.begin(), own.end(), '\n'));
    p.last_line = line - 1;
    text += own;
  }
  return text;
}

size_t protoAtLine(const std::vector<Proto>& protos, const LineRanges& bodies, uint32_t line) {
  for (size_t k = 0; k < protos.size(); ++k) {
    const Proto& p = protos[k];
    if (line >= p.first_line && line <= p.last_line) return k;
    for (const GProgram& g : p.decls)
      if (line >= g.first_line && line <= g.last_line) return k;
    if (k < bodies.size() && line >= bodies[k].first && line <= bodies[k].second) return k;
  }
  return protos.size();
}

std::string protoText(const Proto& p) {
  std::vector<Proto> one{p};
  return renderDeclarations(one);
}

namespace {

/// _BitInt(N) values are read through an ordinary integer of the same size and converted, so
/// that the bits above N are what the conversion makes them (a compiler assumes a _BitInt in
/// memory has them extended already).
std::string carrier(const PType& t) {
  if (t.kind != PType::BitInt || t.bits > 64) return "";
  std::string u = t.is_signed ? "signed " : "unsigned ";
  return u + (t.bits <= 8 ? "char" : t.bits <= 16 ? "short" : t.bits <= 32 ? "int" : "long long");
}

std::string loadValue(const Proto& p, const PType& t, size_t pos, const std::string& var,
                      uint64_t offset) {
  std::string c = carrier(t);
  std::string at = "abk_in + " + std::to_string(offset);
  if (c.empty()) return "__builtin_memcpy(&" + var + ", " + at + ", sizeof(" + var + "));";
  return "{ " + c + " c_; __builtin_memcpy(&c_, " + at + ", sizeof(c_)); " + var + " = (" +
         typeSpelling(p, t, pos) + ")c_; }";
}

const char* kProbeHeader = "extern char abk_out[1048576] __attribute__((aligned(64)));\n"
                           "extern char abk_in[1048576] __attribute__((aligned(64)));\n";
} // namespace

namespace {
uint32_t lineCount(const std::string& s) {
  return uint32_t(std::count(s.begin(), s.end(), '\n'));
}
} // namespace

std::string renderCallees(const std::vector<Proto>& protos, const std::string& declarations,
                          const std::vector<ProbeLayout>& layouts, LineRanges& lines) {
  std::string s = declarations + kProbeHeader;
  lines.clear();
  for (size_t k = 0; k < protos.size(); ++k) {
    uint32_t first = lineCount(s) + 1;
    const Proto& p = protos[k];
    const ProbeLayout& l = layouts[k];
    s += prototypeText(p) + " {\n";
    for (size_t i = 0; i < p.params.size(); ++i)
      s += "  __builtin_memcpy(abk_out + " + std::to_string(l.param_offsets[i]) + ", &a" +
           std::to_string(i) + ", sizeof(a" + std::to_string(i) + "));\n";
    if (p.ret.kind != PType::Void) {
      s += "  " + typeSpelling(p, p.ret, 0) + " r;\n  " +
           loadValue(p, p.ret, 0, "r", l.ret_offset) + "\n  return r;\n";
    }
    s += "}\n";
    lines.emplace_back(first, lineCount(s));
  }
  return s;
}

std::string renderCallers(const std::vector<Proto>& protos, const std::string& declarations,
                          const std::vector<ProbeLayout>& layouts, LineRanges& lines) {
  std::string s = declarations + kProbeHeader;
  lines.clear();
  for (size_t k = 0; k < protos.size(); ++k) {
    uint32_t first = lineCount(s) + 1;
    const Proto& p = protos[k];
    const ProbeLayout& l = layouts[k];
    s += "void " + p.caller() + "(void) {\n";
    std::string args;
    size_t n = p.params.size() + p.extra.size();
    for (size_t i = 0; i < n; ++i) {
      const PType& t = i < p.params.size() ? p.params[i] : p.extra[i - p.params.size()];
      std::string v = "v" + std::to_string(i);
      s += "  " + typeSpelling(p, t, 1 + i) + " " + v + ";\n  " +
           loadValue(p, t, 1 + i, v, l.param_offsets[i]) + "\n";
      args += (i ? ", " : "") + v;
    }
    s += "  " + p.callee() + "(" + args + ");\n}\n";
    lines.emplace_back(first, lineCount(s));
  }
  return s;
}

namespace {

/// Loads a value of type `t` from abk_in (through an integer carrier for _BitInt, as above).
std::string loadTyped(const Type* t, const TypeContext& ctx, const std::string& var,
                      uint64_t offset) {
  std::string at = "abk_in + " + std::to_string(offset);
  if (auto* it = dyn<IntType>(stripTypedefs(t)); it && it->is_bitint && it->bits <= 64) {
    std::string c =
        std::string(it->is_signed ? "signed " : "unsigned ") + (it->bits <= 8    ? "char"
                                                                : it->bits <= 16 ? "short"
                                                                : it->bits <= 32 ? "int"
                                                                                 : "long long");
    return "{ " + c + " c_; __builtin_memcpy(&c_, " + at + ", sizeof(c_)); " + var + " = (" +
           typeName(t, ctx) + ")c_; }";
  }
  return "__builtin_memcpy(&" + var + ", " + at + ", sizeof(" + var + "));";
}

} // namespace

std::string renderCalleeFor(const FunctionDecl& fn, const TypeContext& ctx, const ProbeLayout& l) {
  const FunctionType* ft = fn.type;
  std::string s = typeName(ft->result, ctx) + " " + std::string(fn.name) + "(";
  for (size_t i = 0; i < ft->params.size(); ++i)
    s += (i ? ", " : "") + typeName(ft->params[i].type, ctx) + " a" + std::to_string(i);
  if (ft->variadic) s += ft->params.empty() ? "..." : ", ...";
  if (ft->params.empty() && !ft->variadic) s += "void";
  s += ") {\n";
  for (size_t i = 0; i < ft->params.size(); ++i)
    s += "  __builtin_memcpy(abk_out + " + std::to_string(l.param_offsets[i]) + ", &a" +
         std::to_string(i) + ", sizeof(a" + std::to_string(i) + "));\n";
  if (stripTypedefs(ft->result)->kind != TypeKind::Void)
    s += "  " + typeName(ft->result, ctx) + " r;\n  " +
         loadTyped(ft->result, ctx, "r", l.ret_offset) + "\n  return r;\n";
  return s + "}\n";
}

std::string renderCallerFor(const FunctionDecl& fn, const std::vector<const Type*>& extra,
                            const TypeContext& ctx, const ProbeLayout& l,
                            const std::string& caller) {
  const FunctionType* ft = fn.type;
  std::string s = "void " + caller + "(void) {\n", args;
  size_t n = ft->params.size() + extra.size();
  for (size_t i = 0; i < n; ++i) {
    const Type* t = i < ft->params.size() ? ft->params[i].type : extra[i - ft->params.size()];
    std::string v = "v" + std::to_string(i);
    s += "  " + typeName(t, ctx) + " " + v + ";\n  " + loadTyped(t, ctx, v, l.param_offsets[i]) +
         "\n";
    args += (i ? ", " : "") + v;
  }
  return s + "  " + std::string(fn.name) + "(" + args + ");\n}\n";
}

std::string probeHeader() {
  return kProbeHeader;
}

// ----- building into a TypeContext ----------------------------------------------------------

BuiltProto buildProto(const Proto& p, TypeContext& ctx, uint32_t file) {
  std::vector<std::vector<RecordDecl*>> records;
  for (const GProgram& g : p.decls) records.push_back(build(g, ctx, file));
  std::vector<const Type*> enums;
  for (const GEnum& e : p.enums) {
    EnumDecl* ed = ctx.createEnum(ctx.intern(e.name), SourceLoc{file, 0, 0});
    ed->packed = e.packed;
    ed->underlying = ctx.intType(e.underlying);
    for (size_t i = 0; i < e.values.size(); ++i)
      ed->enumerators.push_back(
          {ctx.intern(e.name + "_" + std::to_string(i)), e.values[i], SourceLoc{}});
    ed->complete = true;
    enums.push_back(ctx.enumType(ed));
  }
  auto typeOf = [&](const PType& t, size_t pos) -> const Type* {
    const Type* base = nullptr;
    switch (t.kind) {
    case PType::Void:
      base = ctx.voidType();
      break;
    case PType::Int:
      base = ctx.intType(t.ik);
      break;
    case PType::BitInt:
      base = ctx.bitIntType(t.bits, t.is_signed);
      break;
    case PType::Float:
      base = ctx.floatType(t.fk);
      break;
    case PType::ComplexFloat:
      base = ctx.complexOf(ctx.floatType(t.fk));
      break;
    case PType::ComplexInt:
      base = ctx.complexOf(ctx.intType(t.ik));
      break;
    case PType::Pointer:
      base = ctx.pointerTo(ctx.voidType());
      break;
    case PType::Enum:
      base = enums[size_t(t.ref)];
      break;
    case PType::Record:
      base = ctx.recordType(records[size_t(t.prog)][size_t(t.ref)]);
      break;
    case PType::Vector: {
      const Type* elem = t.elem_float ? static_cast<const Type*>(ctx.floatType(t.fk))
                                      : static_cast<const Type*>(ctx.intType(t.ik));
      base = ctx.vectorOf(elem, t.count, t.ext_vector ? VectorKind::Ext : VectorKind::Generic);
      break;
    }
    }
    if (!needsTypedef(t)) return base;
    TypedefDecl* td = ctx.createTypedef(ctx.intern(p.prefix + "t" + std::to_string(pos)), base,
                                        SourceLoc{file, 0, 0});
    td->aligned = t.typedef_align;
    return ctx.typedefType(td);
  };
  BuiltProto b;
  FunctionType* ft = ctx.createFunctionType();
  b.ret = typeOf(p.ret, 0);
  ft->result = b.ret;
  for (size_t i = 0; i < p.params.size(); ++i) {
    ParamDecl pd;
    pd.name = ctx.intern("a" + std::to_string(i));
    pd.type = typeOf(p.params[i], 1 + i);
    ft->params.push_back(pd);
    b.params.push_back(pd.type);
  }
  ft->variadic = p.variadic;
  for (size_t i = 0; i < p.extra.size(); ++i)
    b.extra.push_back(typeOf(p.extra[i], 1 + p.params.size() + i));
  b.fn = ctx.createFunction(ctx.intern(p.callee()), ft, SourceLoc{file, 0, 0});
  return b;
}

ProbeLayout probeLayout(const BuiltProto& b, const LayoutEngine& layout) {
  ProbeLayout l;
  auto place = [&](const Type* t, uint64_t& cursor) {
    TypeLayout tl = layout.of(t);
    uint64_t a = std::max<uint64_t>(16, tl.align);
    cursor = (cursor + a - 1) / a * a;
    uint64_t at = cursor;
    cursor += std::max<uint64_t>(tl.size, 1);
    return at;
  };
  uint64_t out = 0, in = 0;
  for (const Type* t : b.params) {
    l.param_offsets.push_back(place(t, in));
    place(t, out);
  }
  for (const Type* t : b.extra) l.param_offsets.push_back(place(t, in));
  if (stripTypedefs(b.ret)->kind != TypeKind::Void) l.ret_offset = place(b.ret, in);
  // The callee stores parameters at the same offsets in abk_out as the caller reads them from
  // abk_in.
  l.out_size = out;
  l.in_size = in;
  return l;
}

// ----- shrinking ----------------------------------------------------------------------------

std::vector<Proto> shrinkProto(const Proto& p, const DataModel& d) {
  std::vector<Proto> out;
  auto add = [&](auto&& edit) {
    Proto c = p;
    if (edit(c)) out.push_back(std::move(c));
  };
  for (size_t i = 0; i < p.params.size(); ++i)
    add([&](Proto& c) {
      if (c.variadic && c.params.size() == 1) return false;
      c.params.erase(c.params.begin() + long(i));
      return true;
    });
  for (size_t i = 0; i < p.extra.size(); ++i)
    add([&](Proto& c) { return c.extra.erase(c.extra.begin() + long(i)), true; });
  if (p.variadic && p.extra.empty()) add([&](Proto& c) { return c.variadic = false, true; });
  if (p.ret.kind != PType::Void) add([&](Proto& c) { return c.ret = PType{}, true; });
  auto simplify = [&](auto member) {
    for (size_t i = 0; i < (p.*member).size(); ++i) {
      const PType& t = (p.*member)[i];
      if (t.typedef_align) add([&](Proto& c) { return (c.*member)[i].typedef_align = 0, true; });
      if (!(t.kind == PType::Int && t.ik == IntKind::Int))
        add([&](Proto& c) {
          (c.*member)[i] = PType{};
          (c.*member)[i].kind = PType::Int;
          return true;
        });
    }
  };
  simplify(&Proto::params);
  simplify(&Proto::extra);
  // Declaration programs no type refers to any more.
  std::vector<uint8_t> used(p.decls.size(), 0);
  auto mark = [&](const PType& t) {
    if (t.kind == PType::Record) used[size_t(t.prog)] = 1;
  };
  mark(p.ret);
  for (const PType& t : p.params) mark(t);
  for (const PType& t : p.extra) mark(t);
  for (size_t g = 0; g < p.decls.size(); ++g)
    if (!used[g] && !p.decls[g].order.empty())
      add([&](Proto& c) {
        c.decls[g].order.clear();
        return true;
      });
  for (size_t g = 0; g < p.decls.size(); ++g)
    if (used[g])
      for (GProgram& s : shrinkCandidates(p.decls[g], d))
        add([&](Proto& c) { return c.decls[g] = s, true; });
  return out;
}

} // namespace abikit::difftest
