#include "kernarg_gen.h"

#include <iterator>
#include <random>
#include <set>
#include <sstream>

namespace abikit::difftest {

namespace {

// Names YAML (and LLVM's msgpack YAML reader) take for something other than a string.
constexpr const char* kTrickyNames[] = {
    "n",   "y",   "on",  "off", "yes",      "no",   "N",     "Y",  "ON",  "OFF",  "null", "Null",
    "inf", "nan", "NaN", "Inf", "infinity", "True", "FALSE", "No", "Yes", "TRUE", "False"};

class KGen {
public:
  KGen(uint64_t seed, const std::string& prefix, bool hip, uint16_t cl_version)
      : rng_(seed), prefix_(prefix), hip_(hip), cl2_(cl_version == 200) {
    k_.seed = seed;
    k_.hip = hip;
    k_.name = prefix + "k";
  }

  KernelCase run() {
    size_t n = below(11);
    std::set<std::string> used;
    for (size_t i = 0; i < n; ++i) {
      std::string name = "p" + std::to_string(i);
      if (chance(12)) {
        std::string t = kTrickyNames[below(std::size(kTrickyNames))];
        if (!used.count(t)) name = t;
      }
      used.insert(name);
      k_.params.push_back(hip_ ? hipParam(name) : clParam(name));
    }
    return std::move(k_);
  }

private:
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  bool chance(unsigned pct) { return below(100) < pct; }
  template <class T, size_t N> const T& pick(const T (&a)[N]) { return a[below(N)]; }
  std::string fresh(const char* kind) { return prefix_ + kind + std::to_string(counter_++); }
  uint32_t pickAlign() { return 1u << below(6); }

  // ----- types shared by parameters and record fields

  std::string scalar() {
    if (hip_) {
      static constexpr const char* kHip[] = {"bool",        "char",
                                             "signed char", "unsigned char",
                                             "short",       "unsigned short",
                                             "int",         "unsigned int",
                                             "long",        "unsigned long",
                                             "long long",   "unsigned long long",
                                             "__int128",    "unsigned __int128",
                                             "float",       "double",
                                             "_Float16"};
      return pick(kHip);
    }
    static constexpr const char* kCl[] = {"char",          "uchar",
                                          "short",         "ushort",
                                          "int",           "uint",
                                          "long",          "ulong",
                                          "float",         "double",
                                          "half",          "signed char",
                                          "unsigned char", "unsigned short",
                                          "unsigned int",  "unsigned long",
                                          "__int128",      "unsigned __int128"};
    return pick(kCl);
  }

  std::string vector() {
    static constexpr const char* kElems[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                             "long", "ulong", "float", "double", "half"};
    static constexpr const char* kHipElems[] = {"char",  "unsigned char", "short",
                                                "int",   "unsigned int",  "long",
                                                "float", "double",        "_Float16"};
    static constexpr unsigned kCounts[] = {2, 3, 4, 8, 16};
    unsigned n = pick(kCounts);
    if (!hip_ && chance(75)) return std::string(pick(kElems)) + std::to_string(n);
    std::string name = fresh("v");
    std::string elem = hip_ ? pick(kHipElems) : pick(kElems);
    k_.decls += "typedef " + elem + " " + name + " __attribute__((ext_vector_type(" +
                std::to_string(n) + ")));\n";
    return name;
  }

  std::string enumType() {
    std::string name = fresh("e");
    static constexpr const char* kValues[] = {"1", "-1", "0x7fffffff", "0xffffffffu", "200"};
    k_.decls += "enum " + name + " { " + name + "_a = " + pick(kValues) + ", " + name +
                "_b = " + pick(kValues) + " };\n";
    return "enum " + name;
  }

  std::string fieldType(int depth) {
    unsigned r = unsigned(below(100));
    if (r < 45) return scalar();
    if (r < 65) return vector();
    if (r < 72) return enumType();
    if (r < 85 && depth < 2) return record(depth + 1);
    if (hip_ && r < 92) {
      static constexpr const char* kPtrs[] = {"int *", "const char *", "void *",
                                              "__attribute__((address_space(3))) float *"};
      return pick(kPtrs);
    }
    return scalar();
  }

  std::string record(int depth) {
    std::string tag = fresh("s");
    bool is_union = chance(20);
    std::string body;
    size_t n = chance(20) ? 1 : 1 + below(5);
    for (size_t i = 0; i < n; ++i) {
      std::string t = fieldType(depth);
      std::string f = "f" + std::to_string(i);
      std::string dims;
      if (chance(15)) dims = "[" + std::to_string(1 + below(4)) + "]";
      std::string attr;
      if (chance(8)) attr = " __attribute__((aligned(" + std::to_string(pickAlign()) + ")))";
      body += "  " + t + " " + f + dims + attr + ";\n";
    }
    std::string attrs;
    if (chance(10)) attrs += " __attribute__((packed))";
    if (chance(8)) attrs += " __attribute__((aligned(" + std::to_string(pickAlign()) + ")))";
    std::string kw = is_union ? "union " : "struct ";
    if (chance(25)) {
      std::string td = fresh("t");
      k_.decls += "typedef " + kw + "{\n" + body + "}" + attrs + " " + td + ";\n";
      return td;
    }
    k_.decls += kw + tag + " {\n" + body + "}" + attrs + ";\n";
    return kw + tag;
  }

  // ----- OpenCL parameters

  std::string clPointee() {
    unsigned r = unsigned(below(100));
    if (r < 40) return scalar();
    if (r < 55) return vector();
    if (r < 75) return record(0);
    if (r < 82) return enumType();
    return "void";
  }

  std::string clSpace() {
    static constexpr const char* kSpaces[] = {"__global", "__global", "__constant", "__local"};
    return pick(kSpaces);
  }

  std::string clParam(const std::string& name) {
    unsigned r = unsigned(below(100));
    if (r < 22) return (chance(8) ? "const " : "") + scalar() + " " + name;
    if (r < 33) return vector() + " " + name;
    if (r < 60) {
      std::string q;
      if (chance(20)) q += "const ";
      if (chance(10)) q += "volatile ";
      std::string pointee = clPointee();
      std::string space = clSpace();
      unsigned k = unsigned(below(100));
      if (k < 6) {
        std::string td = fresh("pt");
        k_.decls += "typedef " + space + " " + q + pointee + " *" + td + ";\n";
        return td + " " + name;
      }
      if (k < 11 && cl2_) {
        // A pointer to a pointer (OpenCL 2.0); the inner pointer points into named memory.
        return space + " " + q + pointee + " * " + clSpace() + " *" + name;
      }
      if (k < 14) {
        return space + " " + q + scalar() + " (*" + name + ")[" + std::to_string(1 + below(4)) +
               "]";
      }
      std::string post;
      if (chance(20)) post += " restrict";
      if (chance(8)) post += " const";
      return space + " " + q + pointee + " *" + post + " " + name;
    }
    if (r < 70) {
      static constexpr const char* kImages[] = {
          "image1d_t",       "image1d_array_t", "image1d_buffer_t",      "image2d_t",
          "image2d_array_t", "image2d_depth_t", "image2d_array_depth_t", "image3d_t"};
      static constexpr const char* kAccess[] = {"", "read_only ", "write_only ", "read_write ",
                                                "__read_only "};
      std::string access = pick(kAccess);
      if (access == "read_write " && !cl2_) access.clear(); // read_write images: OpenCL 2.0
      return access + pick(kImages) + " " + name;
    }
    if (r < 73) return "sampler_t " + name;
    if (!cl2_ && r < 82) return record(0) + " " + name; // device enqueue and pipes: 2.0
    if (r < 75) return "queue_t " + name;
    if (r < 77) return "clk_event_t " + name;
    if (r < 82) {
      static constexpr const char* kAccess[] = {"read_only ", "write_only ", ""};
      std::string elem = chance(70) ? scalar() : chance(50) ? vector() : record(0);
      return std::string(pick(kAccess)) + "pipe " + elem + " " + name;
    }
    if (r < 85) return enumType() + " " + name;
    return record(0) + " " + name;
  }

  // ----- HIP parameters

  std::string hipParam(const std::string& name) {
    unsigned r = unsigned(below(100));
    if (r < 30) return scalar() + " " + name;
    if (r < 33) return "long double " + name;
    if (r < 50) {
      static constexpr const char* kPtrs[] = {"int *",
                                              "const char *",
                                              "void *",
                                              "double *",
                                              "__attribute__((address_space(1))) int *",
                                              "__attribute__((address_space(3))) float *",
                                              "__attribute__((address_space(4))) const int *",
                                              "__attribute__((address_space(5))) char *"};
      return std::string(pick(kPtrs)) + name;
    }
    if (r < 58) return vector() + " " + name;
    if (r < 62) {
      static constexpr const char* kComplex[] = {"float _Complex", "double _Complex",
                                                 "_Complex int"};
      return std::string(pick(kComplex)) + " " + name;
    }
    if (r < 66) return enumType() + " " + name;
    if (r < 72) {
      // A single-element wrapper (passed as its element; pointers become global).
      std::string tag = fresh("w");
      static constexpr const char* kElems[] = {
          "int *", "float", "char", "double *", "bool", "__attribute__((address_space(3))) int *"};
      k_.decls += "struct " + tag + " { " + pick(kElems) + " x; };\n";
      return "struct " + tag + " " + name;
    }
    return record(0) + " " + name;
  }

  std::mt19937_64 rng_;
  std::string prefix_;
  bool hip_;
  bool cl2_; // OpenCL C 2.0: pipes, device enqueue, read_write images, pointers to pointers
  KernelCase k_;
  unsigned counter_ = 0;
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a);
}

} // namespace

KernelCase generateKernel(uint64_t seed, const std::string& prefix, bool hip, uint16_t cl_version) {
  return KGen(seed, prefix, hip, cl_version).run();
}

std::vector<KernelCase> shrinkKernel(const KernelCase& k) {
  std::vector<KernelCase> out;
  for (size_t i = 0; i < k.params.size(); ++i) {
    KernelCase s = k;
    s.params.erase(s.params.begin() + long(i));
    out.push_back(std::move(s));
  }
  return out;
}

std::string renderKernels(const std::vector<KernelCase>& kernels) {
  bool hip = !kernels.empty() && kernels.front().hip;
  std::string text = hip ? "#define __global__ __attribute__((global))\n"
                         : "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  for (const KernelCase& k : kernels) {
    text += k.decls;
    text += hip ? "extern \"C\" __global__ void " : "__kernel void ";
    text += k.name + "(";
    for (size_t i = 0; i < k.params.size(); ++i) text += (i ? ", " : "") + k.params[i];
    text += hip && k.params.empty() ? ") {}\n" : k.params.empty() ? "void) {}\n" : ") {}\n";
  }
  return text;
}

// ----- the metadata reader --------------------------------------------------------------------

std::vector<MdKernel> readAmdgpuMetadata(const std::string& text) {
  static const std::set<std::string> kKnown = {
      ".args",     ".kernarg_segment_align", ".kernarg_segment_size",
      ".language", ".language_version",      ".name",
      ".symbol"};
  std::vector<MdKernel> out;
  std::istringstream in(text);
  std::string line;
  bool in_doc = false, in_kernels = false;
  std::string kernel_key; // the current kernel key (for list and .args children)
  bool keep = false;      // the current kernel key is one abikit writes
  bool first_kept = true;
  auto split = [](const std::string& s) {
    size_t c = s.find(':');
    std::string key = s.substr(0, c);
    std::string value = c == std::string::npos ? "" : trim(s.substr(c + 1));
    return std::make_pair(key, value);
  };
  auto emit = [&](MdKernel& k, const std::string& l, bool first_line_of_key) {
    if (!keep) return;
    std::string body = l;
    if (first_line_of_key) {
      // The first kept key of an entry carries the "  - " sequence marker.
      body = (first_kept ? "  - " : "    ") + l.substr(4);
      first_kept = false;
    }
    k.text += body + "\n";
  };
  while (std::getline(in, line)) {
    if (!in_doc) {
      if (line == "---") in_doc = true;
      continue;
    }
    if (line == "..." || line.find(".end_amdgpu_metadata") != std::string::npos) break;
    if (line.empty()) continue;
    if (line[0] != ' ') {
      in_kernels = line.rfind("amdhsa.kernels:", 0) == 0;
      continue;
    }
    if (!in_kernels) continue;
    if (line.rfind("  - ", 0) == 0) {
      out.emplace_back();
      first_kept = true;
      auto [key, value] = split(line.substr(4));
      kernel_key = key;
      keep = kKnown.count(key) > 0;
      if (!value.empty() && value != "[]") out.back().keys[key] = value;
      emit(out.back(), line, true);
      continue;
    }
    if (out.empty()) continue;
    MdKernel& k = out.back();
    if (line.rfind("    .", 0) == 0) {
      auto [key, value] = split(line.substr(4));
      kernel_key = key;
      keep = kKnown.count(key) > 0;
      if (!value.empty()) k.keys[key] = value;
      if (key == ".name") k.name = value;
      emit(k, line, true);
      continue;
    }
    if (line.rfind("      - ", 0) == 0) {
      if (kernel_key == ".args") {
        k.args.emplace_back();
        k.args.back().push_back(split(line.substr(8)));
      } else {
        k.keys[kernel_key] += (k.keys[kernel_key].empty() ? "" : ",") + trim(line.substr(8));
      }
      emit(k, line, false);
      continue;
    }
    if (line.rfind("        ", 0) == 0 && kernel_key == ".args" && !k.args.empty()) {
      k.args.back().push_back(split(line.substr(8)));
      emit(k, line, false);
    }
  }
  return out;
}

} // namespace abikit::difftest
