// libFuzzer target over the C declaration front-end (lexer, preprocessor, parser, constant
// expressions, built-in headers) and the layout of everything it declares. The first byte picks
// the target and the dialect; the rest is the source text. Anything but an abikit::Error
// escaping, a crash, a hang or an out-of-bounds access (ASan/UBSan) is a bug; so is any
// difference between the parse with the front-end's fast paths and the one without them
// (records, fields, types, layouts, locations, or the error and where it is).
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Config {
  const char* triple;
  abikit::Language lang;
};

constexpr Config kConfigs[] = {
    {"riscv64-unknown-elf", abikit::Language::C},
    {"riscv32-unknown-elf", abikit::Language::C},
    {"amdgcn-amd-amdhsa", abikit::Language::OpenCL},
    {"nvptx64-nvidia-cuda", abikit::Language::CUDA},
    {"dpu-upmem-dpurte", abikit::Language::C},
    {"colossus-graphcore-elf", abikit::Language::C},
    {"nvptx-nvidia-cuda", abikit::Language::OpenCL},
    {"amdgcn-amd-amdhsa", abikit::Language::HIP},
};

const std::vector<abikit::Target>& targets() {
  static const std::vector<abikit::Target> all = [] {
    std::vector<abikit::Target> v;
    for (const Config& c : kConfigs) {
      abikit::TargetOptions o;
      o.triple = c.triple;
      v.push_back(abikit::resolveTarget(o));
    }
    return v;
  }();
  return all;
}

// Everything the parse produced, as text: each record's fields (name, type, location,
// bit-field width, attributes) and layout, typedefs and functions; or the error.
std::string summary(const abikit::Target& target, abikit::Language lang, std::string_view text,
                    bool fast) {
  abikit::TypeContext ctx(target, lang);
  abikit::LayoutEngine layout(ctx);
  abikit::ParseOptions options;
  options.defines = {{"FUZZ", std::nullopt}, {"N", "4"}};
  options.fast_paths = fast;
  std::string out;
  auto num = [&](uint64_t v) {
    out += std::to_string(v);
    out += ' ';
  };
  try {
    // A directory that does not exist: relative #includes find nothing.
    abikit::TranslationUnit tu =
        abikit::parseSource(ctx, layout, "/nonexistent-abikit-fuzz/fuzz.h", text, options);
    for (const abikit::RecordDecl* rd : tu.records) {
      out += rd->displayName(ctx) + "\n";
      for (const abikit::FieldDecl& f : rd->fields) {
        out += std::string(f.name) + ' ' + abikit::typeName(f.type, ctx) + ' ';
        num(f.loc.file);
        num(f.loc.line);
        num(f.loc.col);
        num(uint64_t(int64_t(f.bit_width)));
        num(f.aligned);
        num(f.packed);
        out += '\n';
      }
      try {
        const abikit::RecordLayout& l = layout.of(*rd);
        num(l.size);
        num(l.align);
        for (const abikit::FieldLayout& f : l.fields) num(f.bit_offset);
      } catch (const abikit::Error& e) {
        out += e.format();
      }
      out += '\n';
    }
    for (const abikit::TypedefDecl* td : tu.typedefs) out += abikit::typeName(td->underlying, ctx);
    for (const abikit::FunctionDecl* fd : tu.functions) out += abikit::typeName(fd->type, ctx);
  } catch (const abikit::Error& e) {
    out += "error: " + e.format();
  }
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t which = data[0] % (sizeof(kConfigs) / sizeof(kConfigs[0]));
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  const abikit::Target& target = targets()[which];
  std::string fast = summary(target, kConfigs[which].lang, text, true);
  std::string general = summary(target, kConfigs[which].lang, text, false);
  if (fast != general) {
    std::fprintf(stderr,
                 "fast paths differ from the general parser:\n--- fast\n%s\n--- general\n%s\n",
                 fast.c_str(), general.c_str());
    std::abort();
  }
  return 0;
}
