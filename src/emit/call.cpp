// `abikit call`: text and JSON views of calling-convention lowering.
#include "abikit/emit.h"
#include "json_text.h"

#include <cstdio>
#include <unordered_map>

namespace abikit {

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

// Type spellings as JSON strings, computed once per (interned) type.
class JsonTypeNames {
public:
  explicit JsonTypeNames(const TypeContext& ctx) : ctx_(ctx) {}
  const std::string& operator()(const Type* t) {
    auto [it, fresh] = names_.try_emplace(t);
    if (fresh) detail::appendJsonString(it->second, typeName(t, ctx_));
    return it->second;
  }

private:
  const TypeContext& ctx_;
  std::unordered_map<const Type*, std::string> names_;
};

void locationJson(std::string& out, const ArgLocation& loc) {
  switch (loc.kind) {
  case ArgLocation::Kind::Register:
    out += "{\"reg\": ";
    detail::appendJsonString(out, loc.reg);
    break;
  case ArgLocation::Kind::Stack:
    out += "{\"stack\": ";
    detail::appendSigned(out, loc.stack_offset);
    break;
  case ArgLocation::Kind::Param:
    out += "{\"param\": ";
    detail::appendJsonString(out, loc.param);
    break;
  case ArgLocation::Kind::Kernarg:
    out += "{\"kernarg\": ";
    detail::appendSigned(out, loc.stack_offset);
    break;
  }
  out += '}';
}

// One argument (or the return value) as one JSON object on one line.
void argJson(std::string& out, const ArgLowering& a, JsonTypeNames& names, bool is_return) {
  out += '{';
  if (!is_return) {
    out += "\"name\": ";
    detail::appendJsonString(out, a.name);
    out += ", ";
  }
  out += "\"type\": ";
  out += names(a.type);
  out += ", \"kind\": \"";
  out += kindName(a.kind);
  out += '"';
  if (a.kind == ArgKind::Extend)
    out += a.extend == ExtendKind::Sign ? ", \"extend\": \"sign\"" : ", \"extend\": \"zero\"";
  if (a.kind == ArgKind::Indirect) {
    if (is_return)
      out += a.sret ? ", \"sret\": true" : ", \"sret\": false";
    else
      out += a.byval ? ", \"byval\": true" : ", \"byval\": false";
    out += ", \"align\": ";
    detail::appendNumber(out, a.align);
  }
  if (a.variadic) out += ", \"variadic\": true";
  out += ", \"parts\": [";
  for (size_t i = 0; i < a.parts.size(); ++i) {
    const ArgPart& p = a.parts[i];
    if (i) out += ", ";
    out += "{\"offset\": ";
    detail::appendNumber(out, p.offset);
    out += ", \"size\": ";
    detail::appendNumber(out, p.size);
    out += ", \"loc\": ";
    locationJson(out, p.loc);
    out += '}';
  }
  out += "]}";
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
  // Written as text, one argument per line (cli-contract.md): a header of tens of thousands of
  // functions is printed without building a document first.
  std::string out;
  out.reserve(256 + functions.size() * 512);
  JsonTypeNames names(ctx);
  out += "{\"schema\": \"abikit/1\", \"target\": ";
  detail::appendJsonString(out, target.spelling);
  out += ",\n \"functions\": [";
  for (size_t k = 0; k < functions.size(); ++k) {
    const FunctionLowering& f = functions[k];
    out += k ? ",\n  {\"name\": " : "\n  {\"name\": ";
    detail::appendJsonString(out, f.name);
    out += f.variadic ? ", \"variadic\": true" : ", \"variadic\": false";
    out += ",\n   \"return\": ";
    argJson(out, f.ret, names, true);
    out += ",\n   \"params\": [";
    for (size_t i = 0; i < f.params.size(); ++i) {
      out += i ? ",\n     " : "\n     ";
      argJson(out, f.params[i], names, false);
    }
    out += "],\n   \"stack_bytes\": ";
    detail::appendNumber(out, f.stack_bytes);
    if (!f.notes.empty()) {
      out += ",\n   \"notes\": [";
      for (size_t i = 0; i < f.notes.size(); ++i) {
        if (i) out += ", ";
        detail::appendJsonString(out, f.notes[i]);
      }
      out += ']';
    }
    out += '}';
  }
  out += "]}\n";
  return out;
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
