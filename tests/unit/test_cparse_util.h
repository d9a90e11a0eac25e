// Helpers for the C front-end tests: parse text for a target and look at the result.
#pragma once

#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <memory>
#include <string>
#include <unistd.h>

namespace abikit::cparse_test {

/// A parsed translation unit with everything it refers to kept alive.
struct Parsed {
  std::unique_ptr<Target> target;
  std::unique_ptr<TypeContext> ctx;
  std::unique_ptr<LayoutEngine> layout;
  TranslationUnit tu;

  const RecordDecl* record(std::string_view name) const {
    const RecordDecl* rd = tu.findRecord(name, *ctx);
    EXPECT_NE(rd, nullptr) << "no record " << name;
    return rd;
  }
  uint64_t sizeOf(std::string_view record_name) const {
    const RecordDecl* rd = record(record_name);
    return rd ? layout->of(*rd).size : 0;
  }
  uint64_t alignOf(std::string_view record_name) const {
    const RecordDecl* rd = record(record_name);
    return rd ? layout->of(*rd).align : 0;
  }
  /// Byte offset of a named field (looking into anonymous members).
  uint64_t offsetOf(std::string_view record_name, std::string_view field) const {
    const RecordDecl* rd = record(record_name);
    if (!rd) return ~uint64_t(0);
    uint64_t off = 0;
    if (findField(*rd, field, off)) return off / 8;
    ADD_FAILURE() << "no field " << field << " in " << record_name;
    return ~uint64_t(0);
  }
  const FieldDecl* field(std::string_view record_name, std::string_view field) const {
    const RecordDecl* rd = record(record_name);
    if (!rd) return nullptr;
    for (const FieldDecl& f : rd->fields)
      if (f.name == field) return &f;
    ADD_FAILURE() << "no field " << field << " in " << record_name;
    return nullptr;
  }
  std::string fieldType(std::string_view record_name, std::string_view name) const {
    const FieldDecl* f = field(record_name, name);
    return f ? typeName(f->type, *ctx) : std::string();
  }
  const TypedefDecl* typedefNamed(std::string_view name) const {
    for (const TypedefDecl* td : tu.typedefs)
      if (td->name == name) return td;
    ADD_FAILURE() << "no typedef " << name;
    return nullptr;
  }
  const FunctionDecl* function(std::string_view name) const {
    const FunctionDecl* fd = tu.findFunction(name);
    EXPECT_NE(fd, nullptr) << "no function " << name;
    return fd;
  }
  const EnumDecl* enumNamed(std::string_view name) const {
    for (const EnumDecl* ed : tu.enums)
      if (ed->name == name || ed->typedef_name == name) return ed;
    ADD_FAILURE() << "no enum " << name;
    return nullptr;
  }

private:
  bool findField(const RecordDecl& rd, std::string_view name, uint64_t& bit) const {
    const RecordLayout& rl = layout->of(rd);
    for (size_t i = 0; i < rd.fields.size(); ++i) {
      const FieldDecl& f = rd.fields[i];
      if (f.name == name) {
        bit += rl.fields[i].bit_offset;
        return true;
      }
      if (f.name.empty() && !f.isBitField()) {
        if (auto* rt = dyn<RecordType>(stripTypedefs(f.type))) {
          uint64_t inner = 0;
          if (findField(*rt->decl, name, inner)) {
            bit += rl.fields[i].bit_offset + inner;
            return true;
          }
        }
      }
    }
    return false;
  }
};

/// `triple`, optionally followed by the compiler: "riscv64-unknown-elf clang-14".
inline Target targetFor(const std::string& triple) {
  TargetOptions o;
  o.triple = triple.substr(0, triple.find(' '));
  if (triple.find(' ') != std::string::npos) o.compiler = triple.substr(triple.find(' ') + 1);
  return resolveTarget(o);
}

inline Parsed parse(std::string_view text, const std::string& triple = "riscv64-unknown-elf",
                    LanguageMode lang = Language::C, const ParseOptions& options = {},
                    std::string_view name = "test.h") {
  Parsed p;
  p.target = std::make_unique<Target>(targetFor(triple));
  p.ctx = std::make_unique<TypeContext>(*p.target, lang);
  p.layout = std::make_unique<LayoutEngine>(*p.ctx);
  p.tu = parseSource(*p.ctx, *p.layout, name, text, options);
  return p;
}

/// The formatted error (all three lines), or "" when the text parses.
inline std::string parseError(std::string_view text,
                              const std::string& triple = "riscv64-unknown-elf",
                              LanguageMode lang = Language::C, const ParseOptions& options = {},
                              std::string_view name = "test.h") {
  try {
    parse(text, triple, lang, options, name);
  } catch (const Error& e) {
    return e.format();
  }
  return {};
}

/// The first line of the formatted error ("FILE:LINE:COL: error: MESSAGE").
inline std::string errorLine(std::string_view text,
                             const std::string& triple = "riscv64-unknown-elf",
                             LanguageMode lang = Language::C, const ParseOptions& options = {}) {
  std::string e = parseError(text, triple, lang, options);
  return e.substr(0, e.find('\n'));
}

/// A temporary directory with files in it, removed at the end of the test.
class TempDir {
public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("abikit_cparse_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                .string();
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string write(const std::string& name, const std::string& text) const {
    std::filesystem::path p = std::filesystem::path(path_) / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

private:
  std::string path_;
};

} // namespace abikit::cparse_test
