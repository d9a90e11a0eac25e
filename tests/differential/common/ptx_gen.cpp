#include "ptx_gen.h"

#include <random>

namespace abikit::difftest {

namespace {

class Gen {
public:
  Gen(uint64_t seed, const std::string& prefix, const Target& target, const PtxGenOptions& o)
      : rng_(seed), prefix_(prefix), o_(o), d_(dataModelFor(target, Language::C)) {
    c_.types = generateCase(seed ^ 0x5bd1e995u, prefix, target,
                            o.nvcc ? OracleKind::Gcc : OracleKind::Clang);
    for (size_t r = 0; r < c_.types.records.size(); ++r)
      if (c_.types.isNamed(int(r))) named_.push_back(recordSpelling(c_.types.records[r]));
    for (const GEnum& e : c_.types.enums) named_.push_back("enum " + e.name);
    for (const GTypedef& t : c_.types.typedefs) {
      // Array typedefs (also through other typedefs) decay as parameters and cannot be
      // returned.
      const GTypedef* u = &t;
      while (u->dims.empty() && u->vec == GTypedef::None && u->base.kind == GBase::Typedef)
        u = &c_.types.typedefs[size_t(u->base.ref)];
      (u->dims.empty() ? named_ : array_typedefs_).push_back(t.name);
    }
  }

  PtxCase run() {
    for (unsigned i = 0; i < o_.protos; ++i) {
      PtxProto p;
      p.name = prefix_ + (chance(25) ? "k" : "f") + std::to_string(i);
      p.kernel = p.name[prefix_.size()] == 'k';
      p.definition = p.kernel || chance(50);
      p.is_static = !o_.nvcc && !p.kernel && p.definition && chance(20);
      p.ret = p.kernel || chance(15) ? "void" : pickType(false);
      size_t n = below(100) < 8 ? 0 : 1 + below(6);
      for (size_t k = 0; k < n; ++k) p.params.push_back(pickType(true));
      if (o_.variadic && !p.kernel && !p.params.empty() && chance(20)) {
        p.variadic = true;
        if (!p.definition) { // called: the extra arguments of the call
          size_t m = below(5);
          while (p.extra.size() < m) {
            std::string t = pickType(false);
            if (t != "__fp16") p.extra.push_back(t); // not a parameter type of the caller
          }
        }
      }
      c_.protos.push_back(std::move(p));
    }
    return std::move(c_);
  }

private:
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
  template <class T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

  std::string newTypedef(const std::string& decl_before_name, const std::string& after = "") {
    std::string name = prefix_ + "x" + std::to_string(counter_++);
    c_.typedefs.push_back("typedef " + decl_before_name + " " + name + after + ";");
    return name;
  }

  std::string intSpelling() {
    size_t n = d_.of(IntKind::Int128).supported() ? kNumIntKinds : size_t(IntKind::Int128);
    return intKindName(IntKind(below(n)));
  }

  std::string bitInt() {
    unsigned bits;
    unsigned r = unsigned(below(100));
    if (r < 50)
      bits = 2 + unsigned(below(15)); // 2..16
    else if (r < 85)
      bits = r < 62 ? 32 : r < 74 ? 64 : 128;
    else
      bits = 17 + unsigned(below(111)); // mostly widths llc-14 cannot handle
    bool is_signed = bits == 1 ? false : chance(50);
    if (chance(5)) {
      bits = 1;
      is_signed = false;
    }
    return std::string(is_signed ? "" : "unsigned ") + "_BitInt(" + std::to_string(bits) + ")";
  }

  std::string vectorType() {
    static const char* const kElems[] = {"char",           "signed char", "unsigned char", "short",
                                         "unsigned short", "int",         "unsigned int",  "long",
                                         "unsigned long",  "long long",   "float",         "double",
                                         "__fp16"};
    std::string elem = kElems[below(std::size(kElems))];
    if (chance(3) && d_.of(IntKind::Int128).supported()) elem = "__int128"; // rejected
    static const unsigned kCounts[] = {1, 2, 3, 4, 5, 6, 8, 16};
    unsigned count = kCounts[below(std::size(kCounts))];
    uint64_t esize = elem == "char" || elem == "signed char" || elem == "unsigned char" ? 1
                     : elem == "short" || elem == "unsigned short" || elem == "__fp16"  ? 2
                     : elem == "int" || elem == "unsigned int" || elem == "float"       ? 4
                     : elem == "__int128"                                               ? 16
                     : elem == "long" || elem == "unsigned long" ? d_.of(IntKind::Long).size
                                                                 : 8;
    while (count > 1 && esize * count > 128 && !chance(10)) count /= 2;
    if (chance(50))
      return newTypedef(elem, " __attribute__((ext_vector_type(" + std::to_string(count) + ")))");
    return newTypedef(elem, " __attribute__((vector_size(" + std::to_string(count) + " * sizeof(" +
                                elem + "))))");
  }

  std::string pointerType() {
    unsigned r = unsigned(below(6));
    if (r == 0) return "void *";
    if (r == 1) return "char *";
    if (r == 2 && !named_.empty()) return pick(named_) + " *";
    if (r == 3) {
      static const unsigned kSpaces[] = {1, 3, 4, 5};
      return newTypedef("__attribute__((address_space(" + std::to_string(kSpaces[below(4)]) +
                        "))) int *");
    }
    if (r == 4) return newTypedef("int (*", ")(int, double)");
    return "const double *";
  }

  std::string complexType() {
    static const char* const k[] = {"float", "double",        "long double", "char",
                                    "short", "int",           "long long",   "unsigned int",
                                    "float", "unsigned char", "long"};
    // nvcc (C++) accepts _Complex of floating types only.
    return std::string("_Complex ") + k[below(o_.nvcc ? 3 : std::size(k))];
  }

  std::string specialRecord() {
    unsigned r = unsigned(below(4));
    std::string name = prefix_ + "r" + std::to_string(counter_++);
    if (r == 0 && !o_.nvcc) { // empty: [0] .params
      c_.typedefs.push_back("struct " + name + " {};");
      return "struct " + name;
    }
    if (r == 1) { // the seed's example: 12 bytes of data, sizeof 16
      c_.typedefs.push_back("struct " + name + " { double dbl; char c[4]; };");
      return "struct " + name;
    }
    if (r == 2) { // over-aligned record, sometimes beyond what ptxas accepts
      static const unsigned kAligns[] = {8, 16, 32, 64, 128, 256};
      unsigned a = kAligns[below(std::size(kAligns))];
      c_.typedefs.push_back("struct " + name + " { char c; short s; } __attribute__((aligned(" +
                            std::to_string(a) + ")));");
      return "struct " + name;
    }
    // Bit-fields whose storage clang clips, or not.
    static const char* const kBodies[] = {
        "{ char a; int b:20; }", "{ int b:20; char c; }", "{ unsigned a:8, b:8, c:16; }",
        "{ long long a:33; }",   "{ char a:3; char b; }", "{ short a:7; short b:9; int c; }"};
    c_.typedefs.push_back("struct " + name + " " + kBodies[below(std::size(kBodies))] + ";");
    return "struct " + name;
  }

  std::string pickType(bool param) {
    for (;;) {
      unsigned r = unsigned(below(100));
      if (r < 24) return intSpelling();
      if (r < 30) {
        static const char* const kFloats[] = {"float", "double", "long double", "_Float16",
                                              "__bf16"};
        const std::string f = kFloats[below(std::size(kFloats))];
        if ((f == "_Float16" && !d_.of(FloatKind::Float16).supported()) ||
            (f == "__bf16" && !d_.of(FloatKind::BFloat16).supported()))
          continue;
        return f;
      }
      if (r < 32) {
        if (o_.nvcc || !chance(40)) continue;
        return "__fp16"; // rejected by clang-14 as a parameter or return type
      }
      if (r < 38) {
        if (o_.nvcc) continue;
        return bitInt();
      }
      if (r < 45) {
        if (o_.nvcc) continue;
        return vectorType();
      }
      if (r < 52) return pointerType();
      if (r < 56) return complexType();
      if (r < 62) return specialRecord();
      if (r < 66 && param && !array_typedefs_.empty()) return pick(array_typedefs_);
      if (named_.empty()) continue;
      const std::string& t = pick(named_);
      if (chance(10) && t.rfind("enum ", 0) != 0) {
        static const unsigned kAligns[] = {1, 2, 4, 8, 16, 32};
        return newTypedef(t, " __attribute__((aligned(" +
                                 std::to_string(kAligns[below(std::size(kAligns))]) + ")))");
      }
      return t;
    }
  }

  std::mt19937_64 rng_;
  std::string prefix_;
  PtxGenOptions o_;
  DataModel d_;
  PtxCase c_;
  std::vector<std::string> named_;          // records, enums, typedefs
  std::vector<std::string> array_typedefs_; // typedefs of array types
  unsigned counter_ = 0;
};

} // namespace

PtxCase generatePtxCase(uint64_t seed, const std::string& prefix, const Target& target,
                        const PtxGenOptions& options) {
  return Gen(seed, prefix, target, options).run();
}

std::string renderPtxTypes(std::vector<PtxCase>& cases) {
  std::vector<GProgram> programs;
  programs.reserve(cases.size());
  for (PtxCase& c : cases) programs.push_back(c.types);
  std::string text = render(programs);
  for (size_t i = 0; i < cases.size(); ++i) {
    cases[i].types = std::move(programs[i]);
    for (const std::string& t : cases[i].typedefs) text += t + "\n";
  }
  return text;
}

std::string ptxSignature(const PtxProto& p, const std::string& name) {
  std::string s = p.ret + " " + name + "(";
  if (p.params.empty()) s += "void";
  for (size_t k = 0; k < p.params.size(); ++k) {
    if (k) s += ", ";
    s += p.params[k] + " a" + std::to_string(k);
  }
  return s + (p.variadic ? ", ...)" : ")");
}

} // namespace abikit::difftest
