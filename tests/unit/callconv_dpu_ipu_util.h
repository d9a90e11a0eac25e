// Test helpers shared by the DPU and IPU calling-convention unit tests: lowering C text for a
// target, formatting parts, and the invariants every lowering must satisfy (registers from the
// target's table with an argument or return role, no register unit used twice, stack pieces
// aligned, disjoint and inside the outgoing area, values covered from byte 0 without gaps).
#pragma once

#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/layout.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace abikit::test {

/// A target with a context and layout engine, lowering functions declared in C text.
class Lowerer {
public:
  explicit Lowerer(const TargetOptions& o)
      : target_(resolveTarget(o)), ctx_(target_, Language::C), layout_(ctx_) {}

  const Target& target() const { return target_; }
  TypeContext& ctx() { return ctx_; }
  const LayoutEngine& layout() const { return layout_; }

  TranslationUnit parse(const std::string& src) {
    return parseSource(ctx_, layout_, "test.h", src, ParseOptions{});
  }

  /// Lowers a function of a parsed unit; `probe` (may be null) is a prototype whose parameter
  /// types are the extra arguments of the call.
  FunctionLowering lowerDecl(const FunctionDecl& f, const FunctionDecl* probe = nullptr) {
    std::vector<const Type*> types;
    if (probe)
      for (const ParamDecl& p : probe->type->params) types.push_back(p.type);
    LowerOptions options;
    options.variadic_args = types;
    return lowerFunction(ctx_, layout_, f, options);
  }

  /// Parses `src` and lowers `fn`; `extra` are the extra argument types of a variadic call.
  FunctionLowering lower(const std::string& src, const std::string& fn,
                         const std::vector<std::string>& extra = {}) {
    std::string text = src;
    if (!extra.empty()) {
      text += "\nvoid __extra_probe(";
      for (size_t i = 0; i < extra.size(); ++i) text += (i ? ", " : "") + extra[i];
      text += ");\n";
    }
    TranslationUnit tu = parseSource(ctx_, layout_, "test.h", text, ParseOptions{});
    const FunctionDecl* f = tu.findFunction(fn);
    if (!f) throw Error(ErrorKind::Input, "no function " + fn);
    std::vector<const Type*> types;
    if (!extra.empty())
      for (const ParamDecl& p : tu.findFunction("__extra_probe")->type->params)
        types.push_back(p.type);
    LowerOptions options;
    options.variadic_args = types;
    return lowerFunction(ctx_, layout_, *f, options);
  }

  /// The message of the Unsupported error lowering `fn` throws, or "(no error)".
  std::string error(const std::string& src, const std::string& fn,
                    const std::vector<std::string>& extra = {}) {
    try {
      lower(src, fn, extra);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.message();
      return e.message();
    }
    return "(no error)";
  }

private:
  Target target_;
  TypeContext ctx_;
  LayoutEngine layout_;
};

inline std::string locText(const ArgPart& p) {
  switch (p.loc.kind) {
  case ArgLocation::Kind::Register:
    return std::string(p.loc.reg);
  case ArgLocation::Kind::Stack:
    return "stack:" + std::to_string(p.loc.stack_offset);
  default:
    return "?";
  }
}

/// "r0" for one part covering the value; "$m1[0,4] $m2[4,4]" for several.
inline std::string partsText(const ArgLowering& a) {
  if (a.parts.size() == 1 && a.parts[0].offset == 0) return locText(a.parts[0]);
  std::string s;
  for (const ArgPart& p : a.parts) {
    if (!s.empty()) s += " ";
    s += locText(p) + "[" + std::to_string(p.offset) + "," + std::to_string(p.size) + "]";
  }
  return s;
}

/// The 32-bit register units a register name stands for ("d2" -> r2 r3, "$a0:3" -> $a0..$a3).
inline std::vector<std::string> units(const Target& t, std::string_view reg) {
  const RegisterInfo* ri = t.findRegister(reg);
  std::vector<std::string> out;
  if (!ri) return out;
  if (ri->components.empty()) {
    out.emplace_back(reg);
    return out;
  }
  std::istringstream in{std::string(ri->components)};
  std::string u;
  while (in >> u) out.push_back(u);
  return out;
}

/// Checks the invariants of one lowering (see the file comment).
inline void checkInvariants(const Target& t, const LayoutEngine& layout,
                            const FunctionLowering& f) {
  std::set<std::string> arg_units, ret_units;
  std::vector<std::pair<int64_t, int64_t>> stack; // [begin, end) of every stack piece
  auto visit = [&](const ArgLowering& a, bool is_return) {
    SCOPED_TRACE(is_return ? std::string("return") : "param " + std::string(a.name));
    if (a.kind == ArgKind::Ignore) {
      EXPECT_TRUE(a.parts.empty());
      return;
    }
    uint64_t size = a.kind == ArgKind::Indirect ? 4 : layout.of(a.type).size;
    uint32_t expect_offset = 0;
    for (const ArgPart& p : a.parts) {
      EXPECT_EQ(p.offset, expect_offset) << "parts cover the value from byte 0 without gaps";
      expect_offset = p.offset + p.size;
      EXPECT_GT(p.size, 0u);
      if (p.loc.kind == ArgLocation::Kind::Register) {
        const RegisterInfo* ri = t.findRegister(p.loc.reg);
        ASSERT_NE(ri, nullptr) << p.loc.reg << " is not in the target's register table";
        bool return_reg = is_return && !a.sret;
        EXPECT_TRUE(ri->roles & (return_reg ? kRoleReturn : kRoleArgument)) << p.loc.reg;
        for (const std::string& u : units(t, p.loc.reg))
          EXPECT_TRUE((return_reg ? ret_units : arg_units).insert(u).second) << u << " used twice";
      } else {
        ASSERT_EQ(p.loc.kind, ArgLocation::Kind::Stack);
        EXPECT_GE(p.loc.stack_offset, 0);
        EXPECT_EQ(p.loc.stack_offset % 4, 0) << "stack pieces are at least word-aligned";
        stack.push_back({p.loc.stack_offset, p.loc.stack_offset + int64_t(p.size)});
      }
    }
    EXPECT_LE(expect_offset, size);
  };
  visit(f.ret, true);
  for (const ArgLowering& a : f.params) visit(a, false);
  std::sort(stack.begin(), stack.end());
  for (size_t i = 0; i < stack.size(); ++i) {
    EXPECT_LE(uint64_t(stack[i].second), f.stack_bytes) << "inside the outgoing area";
    if (i) {
      EXPECT_LE(stack[i - 1].second, stack[i].first) << "stack pieces overlap";
    }
  }
}

} // namespace abikit::test
