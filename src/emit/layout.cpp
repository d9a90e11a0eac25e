// `abikit layout`: the text view (pahole-like: offsets, sizes, bit positions, every hole and the
// tail padding) and the JSON view (cli-contract.md) of record layouts.
#include "abikit/emit.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <string_view>
#include <unordered_map>

namespace abikit {

namespace {

// An anonymous struct/union member: its fields belong to the enclosing record in C.
const RecordDecl* anonymousMember(const FieldDecl& fd) {
  if (!fd.name.empty() || fd.isBitField()) return nullptr;
  auto* rt = dyn<RecordType>(stripTypedefs(fd.type));
  return rt && rt->decl->name.empty() ? rt->decl : nullptr;
}

// Type spellings, computed once per (interned) type: a header of thousands of records uses a
// few hundred distinct member types.
class TypeNames {
public:
  explicit TypeNames(const TypeContext& ctx) : ctx_(ctx) {}
  const std::string& operator()(const Type* t) {
    auto [it, fresh] = names_.try_emplace(t);
    if (fresh) it->second = typeName(t, ctx_);
    return it->second;
  }

private:
  const TypeContext& ctx_;
  std::unordered_map<const Type*, std::string> names_;
};

void appendNumber(std::string& out, uint64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendJsonString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

// ----- JSON -----------------------------------------------------------------------------------

// One member object per line, as in cli-contract.md; an anonymous member's own members follow
// on the next lines, one level deeper.
void fieldsJson(std::string& out, const LayoutEngine& engine, TypeNames& names,
                const RecordDecl& rd, uint64_t base_bits, size_t indent) {
  const RecordLayout& rl = engine.of(rd);
  out += "[";
  for (size_t i = 0; i < rd.fields.size(); ++i) {
    const FieldDecl& fd = rd.fields[i];
    const FieldLayout& fl = rl.fields[i];
    uint64_t bit = base_bits + fl.bit_offset;
    out += i ? ",\n" : "\n";
    out.append(indent, ' ');
    out += "{\"name\": ";
    appendJsonString(out, fd.name);
    out += ", \"type\": ";
    appendJsonString(out, names(fd.type));
    out += ", \"offset\": ";
    appendNumber(out, bit / 8);
    out += ", \"bit_offset\": ";
    appendNumber(out, bit);
    if (fd.isBitField()) {
      out += ", \"bit_width\": ";
      appendNumber(out, uint64_t(fd.bit_width));
    }
    out += ", \"size\": ";
    appendNumber(out, fl.size);
    out += ", \"align\": ";
    appendNumber(out, fl.align);
    if (const RecordDecl* anon = anonymousMember(fd)) {
      out += anon->is_union ? ", \"anonymous\": true, \"kind\": \"union\", \"fields\": "
                            : ", \"anonymous\": true, \"kind\": \"struct\", \"fields\": ";
      fieldsJson(out, engine, names, *anon, bit, indent + 2);
    }
    out += "}";
  }
  out += "]";
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
std::string declaration(const Type* t, std::string_view name, TypeNames& names) {
  std::string dims;
  const Type* base = t;
  while (auto* at = dyn<ArrayType>(base->unqualified)) {
    if (base->quals) break;
    dims += at->incomplete ? "[]" : "[" + std::to_string(at->count) + "]";
    base = at->element;
  }
  std::string spelled = names(base);
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
  explicit TextWriter(const LayoutEngine& engine)
      : engine_(engine), ctx_(engine.context()), names_(ctx_) {}

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
        std::string decl = declaration(fd.type, fd.name, names_);
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
  TypeNames names_;
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
  for (const RecordDecl* rd : records) layout.of(*rd); // fail before writing anything
  const TypeContext& ctx = layout.context();
  TypeNames names(ctx);
  std::string out;
  out.reserve(256 + records.size() * 512);
  out += "{\"schema\": \"abikit/1\", \"target\": ";
  appendJsonString(out, ctx.target().spelling);
  out += ",\n \"records\": [";
  for (size_t r = 0; r < records.size(); ++r) {
    const RecordDecl& rd = *records[r];
    const RecordLayout& rl = layout.of(rd);
    out += r ? ",\n  {\"name\": " : "\n  {\"name\": ";
    appendJsonString(out, rd.displayName(ctx));
    out += rd.is_union ? ", \"kind\": \"union\", \"size\": " : ", \"kind\": \"struct\", \"size\": ";
    appendNumber(out, rl.size);
    out += ", \"align\": ";
    appendNumber(out, rl.align);
    if (rl.has_flexible_array) out += ", \"flexible_array\": true";
    out += ",\n   \"fields\": ";
    fieldsJson(out, layout, names, rd, 0, 5);
    out += "}";
  }
  out += "]}\n";
  return out;
}

} // namespace abikit
