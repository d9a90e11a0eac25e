// `abikit call`: text and JSON views of calling-convention lowering.
#include "abikit/emit.h"

#include <cstdio>
#include <nlohmann/json.hpp>

namespace abikit {

using nlohmann::ordered_json;

namespace {

const char* kindName(ArgKind k) {
  switch (k) {
  case ArgKind::Direct:
    return "direct";
  case ArgKind::Extend:
    return "extend";
  case ArgKind::Indirect:
    return "indirect";
  case ArgKind::Ignore:
    return "ignore";
  }
  return "?";
}

ordered_json locationJson(const ArgLocation& loc) {
  switch (loc.kind) {
  case ArgLocation::Kind::Register:
    return {{"reg", std::string(loc.reg)}};
  case ArgLocation::Kind::Stack:
    return {{"stack", loc.stack_offset}};
  case ArgLocation::Kind::Param:
    return {{"param", loc.param}};
  case ArgLocation::Kind::Kernarg:
    return {{"kernarg", loc.stack_offset}};
  }
  return {};
}

ordered_json argJson(const ArgLowering& a, const TypeContext& ctx, bool is_return) {
  ordered_json j;
  if (!is_return) j["name"] = std::string(a.name);
  j["type"] = typeName(a.type, ctx);
  j["kind"] = kindName(a.kind);
  if (a.kind == ArgKind::Extend) j["extend"] = a.extend == ExtendKind::Sign ? "sign" : "zero";
  if (a.kind == ArgKind::Indirect) {
    if (is_return)
      j["sret"] = a.sret;
    else
      j["byval"] = a.byval;
    j["align"] = a.align;
  }
  if (a.variadic) j["variadic"] = true;
  ordered_json parts = ordered_json::array();
  for (const ArgPart& p : a.parts)
    parts.push_back({{"offset", p.offset}, {"size", p.size}, {"loc", locationJson(p.loc)}});
  j["parts"] = std::move(parts);
  return j;
}

std::string whereText(const ArgLowering& a) {
  if (a.kind == ArgKind::Ignore) return "(nothing)";
  std::string s;
  for (const ArgPart& p : a.parts) {
    if (!s.empty()) s += " + ";
    switch (p.loc.kind) {
    case ArgLocation::Kind::Register:
      s += std::string(p.loc.reg);
      break;
    case ArgLocation::Kind::Stack:
      s += "stack[" + std::to_string(p.loc.stack_offset) + "]";
      break;
    case ArgLocation::Kind::Param:
      s += p.loc.param;
      break;
    case ArgLocation::Kind::Kernarg:
      s += "kernarg[" + std::to_string(p.loc.stack_offset) + "]";
      break;
    }
    if (a.parts.size() > 1)
      s += " (bytes " + std::to_string(p.offset) + ".." + std::to_string(p.offset + p.size - 1) +
           ")";
  }
  if (a.kind == ArgKind::Indirect) s = "pointer in " + s;
  return s;
}

std::string kindText(const ArgLowering& a) {
  std::string k = kindName(a.kind);
  if (a.kind == ArgKind::Extend) k += a.extend == ExtendKind::Sign ? " (sign)" : " (zero)";
  if (a.kind == ArgKind::Indirect) {
    if (a.sret) k += " sret";
    if (a.byval) k += " byval";
    k += " align " + std::to_string(a.align);
  }
  return k;
}

} // namespace

std::string callJson(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions) {
  ordered_json doc;
  doc["schema"] = "abikit/1";
  doc["target"] = target.spelling;
  ordered_json list = ordered_json::array();
  for (const FunctionLowering& f : functions) {
    ordered_json j;
    j["name"] = std::string(f.name);
    j["variadic"] = f.variadic;
    j["return"] = argJson(f.ret, ctx, true);
    ordered_json params = ordered_json::array();
    for (const ArgLowering& a : f.params) params.push_back(argJson(a, ctx, false));
    j["params"] = std::move(params);
    j["stack_bytes"] = f.stack_bytes;
    if (!f.notes.empty()) j["notes"] = f.notes;
    list.push_back(std::move(j));
  }
  doc["functions"] = std::move(list);
  return doc.dump(2) + "\n";
}

std::string callText(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions) {
  std::string out = "target: " + target.spelling + "\n";
  for (const FunctionLowering& f : functions) {
    out += "\n" + std::string(f.name) + (f.variadic ? " (variadic)" : "") + "\n";
    struct Row {
      std::string arg, type, kind, where;
    };
    std::vector<Row> rows;
    rows.push_back({"argument", "type", "kind", "where"});
    rows.push_back({"return", typeName(f.ret.type, ctx), kindText(f.ret), whereText(f.ret)});
    for (size_t i = 0; i < f.params.size(); ++i) {
      const ArgLowering& a = f.params[i];
      std::string name = a.name.empty() ? "#" + std::to_string(i) : std::string(a.name);
      if (a.variadic) name = "... #" + std::to_string(i);
      rows.push_back({name, typeName(a.type, ctx), kindText(a), whereText(a)});
    }
    size_t w[3] = {0, 0, 0};
    for (const Row& r : rows) {
      w[0] = std::max(w[0], r.arg.size());
      w[1] = std::max(w[1], r.type.size());
      w[2] = std::max(w[2], r.kind.size());
    }
    for (const Row& r : rows) {
      std::string line = "  " + r.arg + std::string(w[0] - r.arg.size() + 2, ' ') + r.type +
                         std::string(w[1] - r.type.size() + 2, ' ') + r.kind +
                         std::string(w[2] - r.kind.size() + 2, ' ') + r.where;
      out += line + "\n";
    }
    out += "  outgoing stack arguments: " + std::to_string(f.stack_bytes) + " bytes\n";
    for (const std::string& n : f.notes) out += "  note: " + n + "\n";
  }
  return out;
}

} // namespace abikit
