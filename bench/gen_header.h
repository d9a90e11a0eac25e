// The generated header of the layout and compat benchmarks: `records` structs and unions with
// scalars, pointers, arrays, nested records, enums, typedefs, bit-fields, packed/aligned
// attributes and #pragma pack, the same for a given count.
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

namespace abikit::bench {

// A small deterministic generator (no dependence on the standard library's distributions).
struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  uint64_t below(uint64_t n) { return next() % n; }
  bool chance(unsigned pct) { return below(100) < pct; }
};

inline std::string generateHeader(size_t records) {
  static const char* const kScalars[] = {"char",
                                         "signed char",
                                         "unsigned char",
                                         "short",
                                         "unsigned short",
                                         "int",
                                         "unsigned",
                                         "long",
                                         "unsigned long",
                                         "long long",
                                         "unsigned long long",
                                         "float",
                                         "double",
                                         "_Bool",
                                         "void *",
                                         "char *",
                                         "const char *",
                                         "size_t",
                                         "uint8_t",
                                         "uint16_t",
                                         "uint32_t",
                                         "uint64_t",
                                         "int32_t",
                                         "int64_t"};
  static const char* const kBitTypes[] = {"unsigned",      "int",      "unsigned short",
                                          "unsigned char", "uint32_t", "_Bool"};
  Rng rng{0x2545F4914F6CDD1Dull};
  std::string h = "#include <stddef.h>\n#include <stdint.h>\n\n";
  h.reserve(records * 220);
  size_t enums = 0;
  std::vector<bool> unions(records);
  auto tag = [&](size_t r) {
    return std::string(unions[r] ? "union r" : "struct r") + std::to_string(r);
  };
  for (size_t r = 0; r < records; ++r) {
    if (r % 50 == 0) {
      h += "enum e" + std::to_string(enums) + " { E" + std::to_string(enums) + "_A, E" +
           std::to_string(enums) + "_B = " + std::to_string(rng.below(1000)) + " };\n";
      ++enums;
    }
    bool is_union = unions[r] = rng.chance(10);
    bool pack = rng.chance(5);
    if (pack) h += "#pragma pack(push, " + std::to_string(1u << rng.below(3)) + ")\n";
    h += is_union ? "union" : "struct";
    if (rng.chance(8)) h += " __attribute__((packed))";
    if (rng.chance(5)) h += " __attribute__((aligned(" + std::to_string(4u << rng.below(3)) + ")))";
    h += " r" + std::to_string(r) + " {\n";
    size_t fields = 3 + rng.below(8);
    for (size_t f = 0; f < fields; ++f) {
      h += "  ";
      unsigned k = unsigned(rng.below(100));
      std::string name = "m" + std::to_string(f);
      if (k < 50) {
        h += std::string(kScalars[rng.below(std::size(kScalars))]) + " " + name;
      } else if (k < 62) {
        h += std::string(kScalars[rng.below(std::size(kScalars))]) + " " + name + "[" +
             std::to_string(1 + rng.below(16)) + "]";
      } else if (k < 80 && !is_union) {
        const char* t = kBitTypes[rng.below(std::size(kBitTypes))];
        unsigned limit = std::strcmp(t, "_Bool") == 0            ? 1
                         : std::strcmp(t, "unsigned char") == 0  ? 8
                         : std::strcmp(t, "unsigned short") == 0 ? 16
                                                                 : 32;
        h += std::string(t) + " " + name + " : " + std::to_string(1 + rng.below(limit));
      } else if (k < 90 && r > 0) {
        h += tag(rng.below(r)) + " *" + name;
      } else if (k < 95 && enums) {
        h += "enum e" + std::to_string(rng.below(enums)) + " " + name;
      } else {
        h += "double " + name + " __attribute__((aligned(" + std::to_string(8u << rng.below(2)) +
             ")))";
      }
      h += ";\n";
    }
    h += "};\n";
    if (pack) h += "#pragma pack(pop)\n";
    if (r % 10 == 9) h += "typedef " + tag(r) + " t" + std::to_string(r) + ";\n";
  }
  return h;
}

} // namespace abikit::bench
