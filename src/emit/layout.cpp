// `abikit layout`: the text view (pahole-like: offsets, sizes, bit positions, every hole and the
// tail padding) and the JSON view (cli-contract.md) of record layouts.
#include "abikit/emit.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace abikit {

using nlohmann::ordered_json;

namespace {

// An anonymous struct/union member: its fields belong to the enclosing record in C.
const RecordDecl* anonymousMember(const FieldDecl& fd) {
  if (!fd.name.empty() || fd.isBitField()) return nullptr;
  auto* rt = dyn<RecordType>(stripTypedefs(fd.type));
  return rt && rt->decl->name.empty() ? rt->decl : nullptr;
}

ordered_json fieldsJson(const LayoutEngine& engine, const RecordDecl& rd, uint64_t base_bits) {
  const TypeContext& ctx = engine.context();
  const RecordLayout& rl = engine.of(rd);
  ordered_json fields = ordered_json::array();
  for (size_t i = 0; i < rd.fields.size(); ++i) {
    const FieldDecl& fd = rd.fields[i];
    const FieldLayout& fl = rl.fields[i];
    uint64_t bit = base_bits + fl.bit_offset;
    ordered_json f;
    f["name"] = std::string(fd.name);
    f["type"] = typeName(fd.type, ctx);
    f["offset"] = bit / 8;
    f["bit_offset"] = bit;
    if (fd.isBitField()) f["bit_width"] = fd.bit_width;
    f["size"] = fl.size;
    f["align"] = fl.align;
    if (const RecordDecl* anon = anonymousMember(fd)) {
      f["anonymous"] = true;
      f["kind"] = anon->is_union ? "union" : "struct";
      f["fields"] = fieldsJson(engine, *anon, bit);
    }
    fields.push_back(std::move(f));
  }
  return fields;
}

// ----- text -----------------------------------------------------------------------------------

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// A gap of `bits` starting at bit `from`: "3 bytes", "5 bits" or "5 bits + 3 bytes" (the bits
// up to the next byte boundary, then whole bytes).
std::string gapText(uint64_t from, uint64_t bits) {
  uint64_t lead = from % 8 ? 8 - from % 8 : 0;
  if (lead == 0 && bits % 8 == 0) return plural(bits / 8, "byte", "bytes");
  if (lead >= bits || (bits - lead) % 8) return plural(bits, "bit", "bits");
  return plural(lead, "bit", "bits") + " + " + plural((bits - lead) / 8, "byte", "bytes");
}

// A C declaration of `name` with type `t`: "int x", "char *p", "short a[2][3]",
// "void (*f)(int)".
std::string declaration(const Type* t, std::string_view name, const TypeContext& ctx) {
  std::string dims;
  const Type* base = t;
  while (auto* at = dyn<ArrayType>(base->unqualified)) {
    if (base->quals) break;
    dims += at->incomplete ? "[]" : "[" + std::to_string(at->count) + "]";
    base = at->element;
  }
  std::string spelled = typeName(base, ctx);
  std::string decl = std::string(name) + dims;
  size_t fp = spelled.find("(*)");
  if (fp != std::string::npos) {
    spelled.insert(fp + 2, decl);
    if (fp > 0 && spelled[fp - 1] != ' ' && spelled[fp - 1] != '(') spelled.insert(fp, " ");
    return spelled;
  }
  if (decl.empty()) return spelled;
  if (!spelled.empty() && spelled.back() == '*') return spelled + decl;
  return spelled + " " + decl;
}

struct Totals {
  uint64_t holes = 0, hole_bytes = 0;
  uint64_t bit_holes = 0, hole_bits = 0;
};

class TextWriter {
public:
  explicit TextWriter(const LayoutEngine& engine) : engine_(engine), ctx_(engine.context()) {}

  void record(const RecordDecl& rd) {
    const RecordLayout& rl = engine_.of(rd);
    Totals totals;
    out_ += rd.displayName(ctx_) + " {\n";
    uint64_t end = members(rd, 0, 1, totals);
    uint64_t size_bits = rl.size * 8;
    uint64_t tail = size_bits > end ? size_bits - end : 0;
    if (tail) line(1, "/* XXX " + gapText(end, tail) + " tail padding */");
    std::string sum = "/* size: " + std::to_string(rl.size) +
                      ", align: " + std::to_string(rl.align) +
                      ", members: " + std::to_string(rd.fields.size());
    if (totals.holes)
      sum += ", holes: " + std::to_string(totals.holes) + " (" +
             plural(totals.hole_bytes, "byte", "bytes") + ")";
    if (totals.bit_holes)
      sum += ", bit holes: " + std::to_string(totals.bit_holes) + " (" +
             plural(totals.hole_bits, "bit", "bits") + ")";
    sum += ", padding: " + (end % 8 || tail % 8 ? gapText(end, tail) : std::to_string(tail / 8));
    if (rl.has_flexible_array) sum += ", flexible array member";
    line(1, sum + " */");
    out_ += "};\n";
  }

  std::string take() {
    std::string s;
    s.swap(out_);
    return s;
  }

private:
  void line(int indent, const std::string& text) {
    out_.append(size_t(indent) * 4, ' ');
    out_ += text;
    out_ += '\n';
  }

  // A member line: the declaration, then /* offset size */ in a column.
  void member(int indent, const std::string& decl, const std::string& pos, uint64_t size) {
    std::string s(size_t(indent) * 4, ' ');
    s += decl;
    size_t col = 48;
    if (s.size() < col)
      s.append(col - s.size(), ' ');
    else
      s += ' ';
    char buf[64];
    std::snprintf(buf, sizeof buf, "/* %8s %5llu */", pos.c_str(),
                  static_cast<unsigned long long>(size));
    s += buf;
    out_ += s;
    out_ += '\n';
  }

  void hole(int indent, uint64_t from, uint64_t bits, Totals& t) {
    line(indent, "/* XXX " + gapText(from, bits) + " hole */");
    if (from % 8 == 0 && bits % 8 == 0) {
      ++t.holes;
      t.hole_bytes += bits / 8;
    } else {
      ++t.bit_holes;
      t.hole_bits += bits;
    }
  }

  // Prints the members of `rd` placed at `base` bits; returns the end (in bits, absolute) of
  // the last storage used.
  uint64_t members(const RecordDecl& rd, uint64_t base, int indent, Totals& totals) {
    const RecordLayout& rl = engine_.of(rd);
    uint64_t end = base; // for structs: end of the storage used so far
    uint64_t max_end = base;
    for (size_t i = 0; i < rd.fields.size(); ++i) {
      const FieldDecl& fd = rd.fields[i];
      const FieldLayout& fl = rl.fields[i];
      uint64_t start = base + fl.bit_offset;
      uint64_t stop;
      if (fd.isBitField())
        stop = start + uint64_t(fd.bit_width);
      else
        stop = start + fl.size * 8;
      if (!rd.is_union && start > end) hole(indent, end, start - end, totals);
      if (const RecordDecl* anon = anonymousMember(fd)) {
        line(indent, std::string(anon->is_union ? "union" : "struct") + " {");
        uint64_t inner_end = members(*anon, start, indent + 1, totals);
        uint64_t anon_end = start + engine_.of(*anon).size * 8;
        if (anon_end > inner_end)
          line(indent + 1, "/* XXX " + gapText(inner_end, anon_end - inner_end) + " padding */");
        member(indent, "};", std::to_string(start / 8), fl.size);
      } else {
        std::string decl = declaration(fd.type, fd.name, ctx_);
        if (fd.isBitField()) decl += (fd.name.empty() ? " :" : ":") + std::to_string(fd.bit_width);
        decl += ";";
        std::string pos = std::to_string(start / 8);
        if (fd.isBitField()) pos += ":" + std::to_string(start % 8);
        member(indent, decl, pos, fl.size);
      }
      end = std::max(end, stop);
      max_end = std::max(max_end, stop);
    }
    return rd.is_union ? max_end : end;
  }

  const LayoutEngine& engine_;
  const TypeContext& ctx_;
  std::string out_;
};

} // namespace

std::string layoutText(const LayoutEngine& layout, std::span<const RecordDecl* const> records) {
  // Lay everything out first: a failure leaves no partial output.
  for (const RecordDecl* rd : records) layout.of(*rd);
  std::string out = "/* " + layout.context().target().spelling + " */\n";
  TextWriter w(layout);
  for (const RecordDecl* rd : records) {
    out += "\n";
    w.record(*rd);
    out += w.take();
  }
  return out;
}

std::string layoutJson(const LayoutEngine& layout, std::span<const RecordDecl* const> records) {
  const TypeContext& ctx = layout.context();
  ordered_json j;
  j["schema"] = "abikit/1";
  j["target"] = ctx.target().spelling;
  ordered_json list = ordered_json::array();
  for (const RecordDecl* rd : records) {
    const RecordLayout& rl = layout.of(*rd);
    ordered_json r;
    r["name"] = rd->displayName(ctx);
    r["kind"] = rd->is_union ? "union" : "struct";
    r["size"] = rl.size;
    r["align"] = rl.align;
    if (rl.has_flexible_array) r["flexible_array"] = true;
    r["fields"] = fieldsJson(layout, *rd, 0);
    list.push_back(std::move(r));
  }
  j["records"] = std::move(list);
  return j.dump(2) + "\n";
}

} // namespace abikit
