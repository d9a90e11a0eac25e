#include "amdgpu_callgen.h"

#include <algorithm>
#include <random>

namespace abikit::difftest {

namespace {

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t x = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}

// LLVM 14 passes pointers into address spaces 0, 1, 3, 4 and 5 only (2 and 6 differ in size
// between clang's C and LLVM's data layout; 7 and up are experimental): records keep to those.
void sanitizeSpaces(GProgram& p) {
  auto fix = [](GBase& b) {
    if (b.kind == GBase::Pointer && b.address_space != 0 && b.address_space != 1 &&
        b.address_space != 3 && b.address_space != 4 && b.address_space != 5)
      b.address_space = 1;
  };
  for (GRecord& r : p.records)
    for (GField& f : r.fields) fix(f.base);
  for (GTypedef& t : p.typedefs) fix(t.base);
}

class ProtoGen {
public:
  ProtoGen(uint64_t seed, const std::string& prefix, const Target& target) : rng_(seed) {
    c_.seed = seed;
    c_.prefix = prefix;
    c_.decls = generateCase(mix(seed, 1), prefix, target, OracleKind::Clang);
    sanitizeSpaces(c_.decls);
    for (size_t i = 0; i < c_.decls.records.size(); ++i)
      if (!c_.decls.records[i].name.empty()) named_.push_back(int(i));
  }

  ProtoCase run() {
    if (chance(12)) {
      // Many arguments: the VGPRs run out and the rest goes to the stack.
      size_t n = 18 + below(24);
      for (size_t i = 0; i < n; ++i) c_.params.push_back(chance(75) ? busyScalar() : type());
    } else {
      size_t n = below(9);
      for (size_t i = 0; i < n; ++i) c_.params.push_back(type());
    }
    if (!chance(25)) c_.ret = type();
    return std::move(c_);
  }

private:
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
  template <class T, size_t N> const T& pick(const T (&a)[N]) { return a[below(N)]; }

  std::string fresh(const char* kind) {
    return c_.prefix + "x" + kind + std::to_string(counter_++);
  }

  std::string busyScalar() {
    static constexpr const char* kBusy[] = {"int",           "char",      "double",
                                            "long",          "float",     "short",
                                            "unsigned char", "long long", "_Float16"};
    return pick(kBusy);
  }

  std::string vectorType() {
    static constexpr const char* kElems[] = {"char",   "unsigned char", "short", "unsigned short",
                                             "int",    "unsigned int",  "long",  "float",
                                             "double", "_Float16"};
    static constexpr unsigned kElemBytes[] = {1, 1, 2, 2, 4, 4, 8, 4, 8, 2};
    size_t e = below(std::size(kElems));
    std::string name = fresh("v");
    if (chance(60)) {
      static constexpr unsigned kCounts[] = {1, 2, 3, 4, 4, 8, 16};
      unsigned n = pick(kCounts);
      while (n > 1 && n * kElemBytes[e] > 64) n /= 2;
      c_.extra += "typedef " + std::string(kElems[e]) + " " + name +
                  " __attribute__((ext_vector_type(" + std::to_string(n) + ")));\n";
    } else {
      unsigned bytes = kElemBytes[e] << below(4);
      c_.extra += "typedef " + std::string(kElems[e]) + " " + name +
                  " __attribute__((vector_size(" + std::to_string(bytes) + ")));\n";
    }
    return name;
  }

  std::string pointerType() {
    switch (below(7)) {
    case 0:
      return "void *";
    case 1:
      return "char *";
    case 2:
      return "__attribute__((address_space(1))) int *";
    case 3:
      return "__attribute__((address_space(3))) short *";
    case 4:
      return "__attribute__((address_space(4))) const char *";
    case 5:
      return "__attribute__((address_space(5))) double *";
    default: {
      std::string name = fresh("fp");
      c_.extra += "typedef int (*" + name + ")(int);\n";
      return name;
    }
    }
  }

  std::string unionType() {
    std::string name = fresh("u");
    static constexpr const char* kBodies[] = {"int a; unsigned int b;", "long a; void *b;",
                                              "char *a; void *b;", "float a; int b;",
                                              "unsigned int a; float b;"};
    c_.extra +=
        "union " + name + " { " + pick(kBodies) + " } __attribute__((transparent_union));\n";
    return "union " + name;
  }

  std::string enumType() {
    std::string name = fresh("e");
    static constexpr const char* kValues[] = {"1",           "-1",          "0x7fffffff",
                                              "0xffffffffu", "0x100000000", "-0x100000000"};
    c_.extra += "enum " + name + " { " + name + "_a = " + pick(kValues) + ", " + name +
                "_b = " + pick(kValues) + " };\n";
    return "enum " + name;
  }

  std::string emptyType() {
    std::string name = fresh("z");
    static constexpr const char* kBodies[] = {"", "int : 0;", "int x[0];", "char : 3;"};
    c_.extra += "struct " + name + " { " + pick(kBodies) + " };\n";
    return "struct " + name;
  }

  std::string type() {
    for (;;) {
      unsigned r = unsigned(below(100));
      if (r < 22) {
        return intKindName(IntKind(below(kNumIntKinds)));
      }
      if (r < 30) {
        static constexpr const char* kFloats[] = {"float", "double", "long double", "_Float16"};
        return pick(kFloats);
      }
      if (r < 34) {
        bool sign = chance(50);
        unsigned bits = unsigned(chance(60) ? 1 + below(40) : 1 + below(128));
        if (sign && bits < 2) bits = 2;
        return std::string(sign ? "" : "unsigned ") + "_BitInt(" + std::to_string(bits) + ")";
      }
      if (r < 41) return pointerType();
      if (r < 52) return vectorType();
      if (r < 57) {
        static constexpr const char* kComplex[] = {
            "float _Complex", "double _Complex",    "_Complex char",    "_Complex short",
            "_Complex int",   "_Complex long long", "_Complex _Float16"};
        return pick(kComplex);
      }
      if (r < 59) return unionType();
      if (r < 62) return enumType();
      if (r < 64) return emptyType();
      if (named_.empty()) continue;
      int rec = chance(60) ? named_.front() : named_[below(named_.size())];
      return recordSpelling(c_.decls.records[size_t(rec)]);
    }
  }

  std::mt19937_64 rng_;
  ProtoCase c_;
  std::vector<int> named_;
  unsigned counter_ = 0;
};

} // namespace

ProtoCase generateProto(uint64_t seed, const std::string& prefix, const Target& target) {
  return ProtoGen(seed, prefix, target).run();
}

std::vector<ProtoCase> shrinkProto(const ProtoCase& c, const DataModel& d) {
  std::vector<ProtoCase> out;
  for (size_t i = 0; i < c.params.size(); ++i) {
    ProtoCase s = c;
    s.params.erase(s.params.begin() + long(i));
    out.push_back(std::move(s));
  }
  if (c.ret != "void") {
    ProtoCase s = c;
    s.ret = "void";
    out.push_back(std::move(s));
  }
  for (size_t i = 0; i < c.params.size(); ++i)
    if (c.params[i] != "int") {
      ProtoCase s = c;
      s.params[i] = "int";
      out.push_back(std::move(s));
    }
  // Record simplifications that keep every record the prototype names declared.
  auto declared = [](const GProgram& p, const std::string& spelling) {
    for (const GDecl& dcl : p.order)
      if (dcl.kind == GDecl::Record && recordSpelling(p.records[size_t(dcl.index)]) == spelling)
        return true;
    return false;
  };
  for (GProgram& g : shrinkCandidates(c.decls, d)) {
    bool ok = true;
    for (const std::string& t : c.params)
      if (t.rfind("struct " + c.prefix, 0) == 0 || t.rfind("union " + c.prefix, 0) == 0)
        ok = ok && (c.extra.find(t.substr(t.find(' ') + 1) + " {") != std::string::npos ||
                    declared(g, t));
    if (c.ret.rfind("struct " + c.prefix, 0) == 0 || c.ret.rfind("union " + c.prefix, 0) == 0)
      ok = ok && (c.extra.find(c.ret.substr(c.ret.find(' ') + 1) + " {") != std::string::npos ||
                  declared(g, c.ret));
    if (!ok) continue;
    ProtoCase s = c;
    s.decls = std::move(g);
    out.push_back(std::move(s));
  }
  return out;
}

std::string renderDecls(std::vector<ProtoCase>& cases) {
  std::vector<GProgram> programs;
  programs.reserve(cases.size());
  for (ProtoCase& c : cases) programs.push_back(c.decls);
  std::string text = render(programs);
  for (size_t i = 0; i < cases.size(); ++i) cases[i].decls = std::move(programs[i]);
  for (const ProtoCase& c : cases) text += c.extra;
  return text;
}

} // namespace abikit::difftest
