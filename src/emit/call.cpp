// `abikit call`: text and JSON views of calling-convention lowering.
#include "abikit/emit.h"
#include "json_writer.h"

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

using Json = detail::JsonWriter<detail::kJsonLines>;

// Type spellings as JSON strings, computed once per (interned) type.
class JsonTypeNames {
public:
  explicit JsonTypeNames(const TypeContext& ctx) : ctx_(ctx) {}
  const std::string& operator()(const Type* t) {
    auto [it, fresh] = names_.try_emplace(t);
    if (fresh) it->second = Json::literal(typeName(t, ctx_));
    return it->second;
  }

private:
  const TypeContext& ctx_;
  std::unordered_map<const Type*, std::string> names_;
};

void locationJson(Json& j, const ArgLocation& loc) {
  j.beginObject();
  switch (loc.kind) {
  case ArgLocation::Kind::Register:
    j.field("reg", loc.reg);
    break;
  case ArgLocation::Kind::Stack:
    j.field("stack", loc.stack_offset);
    break;
  case ArgLocation::Kind::Param:
    j.field("param", loc.param);
    break;
  case ArgLocation::Kind::Kernarg:
    j.field("kernarg", loc.stack_offset);
    break;
  }
  j.endObject();
}

// One argument (or the return value) as one JSON object on one line.
void argJson(Json& j, const ArgLowering& a, JsonTypeNames& names, bool is_return) {
  j.beginObject();
  if (!is_return) j.field("name", a.name);
  j.field("type", detail::RawJson{names(a.type)});
  j.field("kind", kindName(a.kind));
  if (a.kind == ArgKind::Extend) j.field("extend", a.extend == ExtendKind::Sign ? "sign" : "zero");
  if (a.kind == ArgKind::Indirect) {
    if (is_return)
      j.field("sret", a.sret);
    else
      j.field("byval", a.byval);
    j.field("align", a.align);
  }
  if (a.variadic) j.field("variadic", true);
  j.key("parts");
  j.beginArray();
  for (const ArgPart& p : a.parts) {
    j.beginObject();
    j.field("offset", p.offset);
    j.field("size", p.size);
    j.key("loc");
    locationJson(j, p.loc);
    j.endObject();
  }
  j.endArray();
  j.endObject();
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
  // Streamed, one argument per line (cli-contract.md): a header of tens of thousands of
  // functions is printed without building a document first.
  detail::TextBuffer out(256 + functions.size() * 512);
  Json j(out);
  JsonTypeNames names(ctx);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("target", target.spelling);
  j.breakLine(1);
  j.key("functions");
  j.beginArray();
  for (const FunctionLowering& f : functions) {
    j.breakLine(2);
    j.beginObject();
    j.field("name", f.name);
    if (!f.error.empty()) {
      j.field("error", f.error);
      j.endObject();
      continue;
    }
    j.field("variadic", f.variadic);
    j.breakLine(3);
    j.key("return");
    argJson(j, f.ret, names, true);
    j.breakLine(3);
    j.key("params");
    j.beginArray();
    for (const ArgLowering& a : f.params) {
      j.breakLine(5);
      argJson(j, a, names, false);
    }
    j.endArray();
    j.breakLine(3);
    j.field("stack_bytes", f.stack_bytes);
    if (!f.notes.empty()) {
      j.breakLine(3);
      j.field("notes", f.notes);
    }
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::string callText(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions) {
  std::string out = "target: " + target.spelling + "\n";
  for (const FunctionLowering& f : functions) {
    if (!f.error.empty()) continue; // reported as an error (stderr)
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
