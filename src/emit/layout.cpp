// `abikit layout`: the text view (pahole-like: offsets, sizes, bit positions, every hole and the
// tail padding) and the JSON view (cli-contract.md) of record layouts.
#include "abikit/emit.h"
#include "json_text.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
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

using detail::appendJsonString;
using detail::appendNumber;

// A named member whose type is a struct/union without a tag or typedef name, written in place
// (`struct { int a; } s;`): the text view prints its members inline.
const RecordDecl* unnamedRecordMember(const FieldDecl& fd) {
  if (fd.name.empty() || fd.isBitField() || fd.type->unqualified->kind != TypeKind::Record)
    return nullptr;
  const RecordDecl* rd = static_cast<const RecordType*>(fd.type->unqualified)->decl;
  return rd->name.empty() && rd->typedef_name.empty() ? rd : nullptr;
}

// Type spellings (plain, and as a JSON string), computed once per (interned) type: a header of
// thousands of records uses a few hundred distinct member types.
class TypeNames {
public:
  explicit TypeNames(const TypeContext& ctx) : ctx_(ctx) {}
  const std::string& operator()(const Type* t) { return entry(t).plain; }
  const std::string& json(const Type* t) { return entry(t).json; }

private:
  struct Entry {
    std::string plain, json;
  };
  const Entry& entry(const Type* t) {
    if (t == last_type_) return *last_;
    auto [it, fresh] = names_.try_emplace(t);
    if (fresh) {
      it->second.plain = typeName(t, ctx_);
      appendJsonString(it->second.json, it->second.plain);
    }
    last_type_ = t;
    last_ = &it->second;
    return it->second;
  }

  const TypeContext& ctx_;
  std::unordered_map<const Type*, Entry> names_;
  const Type* last_type_ = nullptr;
  const Entry* last_ = nullptr;
};

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
    out += names.json(fd.type);
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

// Appends a C declaration of `name` with type `t`: "int x", "char *p", "short a[2][3]",
// "void (*f)(int)".
void appendDeclaration(std::string& out, const Type* t, std::string_view name, TypeNames& names) {
  const Type* base = t;
  char dims[96];
  size_t dims_len = 0;
  while (auto* at = dyn<ArrayType>(base->unqualified)) {
    if (base->quals) break;
    char buf[32];
    int n = at->incomplete ? std::snprintf(buf, sizeof buf, "[]")
                           : std::snprintf(buf, sizeof buf, "[%llu]",
                                           static_cast<unsigned long long>(at->count));
    if (dims_len + size_t(n) >= sizeof dims) break; // spell the rest as part of the type
    std::memcpy(dims + dims_len, buf, size_t(n));
    dims_len += size_t(n);
    base = at->element;
  }
  const std::string& spelled = names(base);
  size_t fp = spelled.find("(*)");
  if (fp != std::string::npos) {
    out.append(spelled, 0, fp);
    if (fp > 0 && spelled[fp - 1] != ' ' && spelled[fp - 1] != '(') out += ' ';
    out += "(*";
    out += name;
    out.append(dims, dims_len);
    out.append(spelled, fp + 2, std::string::npos);
    return;
  }
  out += spelled;
  if (name.empty() && dims_len == 0) return;
  if (spelled.empty() || spelled.back() != '*') out += ' ';
  out += name;
  out.append(dims, dims_len);
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
    bool typedef_named = rd.name.empty() && !rd.typedef_name.empty();
    if (typedef_named)
      out_ += rd.is_union ? "typedef union {\n" : "typedef struct {\n";
    else
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
    if (typedef_named) {
      out_ += "} ";
      out_ += rd.typedef_name;
      out_ += ";\n";
    } else {
      out_ += "};\n";
    }
  }

  void raw(std::string_view text) { out_ += text; }

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

  // Ends a member line started at `line_start`: pads to the column, then /* offset size */
  // (a bit-field's offset is byte:bit).
  void finishMember(size_t line_start, uint64_t bit, bool bitfield, uint64_t size) {
    constexpr size_t kColumn = 48;
    size_t used = out_.size() - line_start;
    out_.append(used < kColumn ? kColumn - used : 1, ' ');
    char pos[48];
    char* p = std::to_chars(pos, pos + 24, bit / 8).ptr;
    if (bitfield) {
      *p++ = ':';
      p = std::to_chars(p, pos + sizeof pos, bit % 8).ptr;
    }
    char num[24];
    char* q = std::to_chars(num, num + sizeof num, size).ptr;
    out_ += "/* ";
    size_t pl = size_t(p - pos), ql = size_t(q - num);
    out_.append(pl < 8 ? 8 - pl : 0, ' ');
    out_.append(pos, pl);
    out_.append(ql < 6 ? 6 - ql : 1, ' ');
    out_.append(num, ql);
    out_ += " */\n";
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
      const RecordDecl* anon = anonymousMember(fd);
      if (!anon) anon = unnamedRecordMember(fd);
      if (anon) {
        line(indent, std::string(anon->is_union ? "union" : "struct") + " {");
        uint64_t inner_end = members(*anon, start, indent + 1, totals);
        uint64_t anon_end = start + engine_.of(*anon).size * 8;
        if (anon_end > inner_end)
          line(indent + 1, "/* XXX " + gapText(inner_end, anon_end - inner_end) + " padding */");
        size_t at = out_.size();
        out_.append(size_t(indent) * 4, ' ');
        out_ += "}";
        if (!fd.name.empty()) {
          out_ += ' ';
          out_ += fd.name;
        }
        out_ += ';';
        finishMember(at, start, false, fl.size);
      } else {
        size_t at = out_.size();
        out_.append(size_t(indent) * 4, ' ');
        appendDeclaration(out_, fd.type, fd.name, names_);
        if (fd.isBitField()) {
          out_ += fd.name.empty() ? " :" : ":";
          char buf[16];
          out_.append(buf, std::to_chars(buf, buf + sizeof buf, fd.bit_width).ptr);
        }
        out_ += ';';
        finishMember(at, start, fd.isBitField(), fl.size);
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
  TextWriter w(layout);
  w.raw("/* " + layout.context().target().spelling + " */\n");
  for (const RecordDecl* rd : records) {
    w.raw("\n");
    w.record(*rd);
  }
  return w.take();
}

std::string layoutJson(const LayoutEngine& layout, std::span<const RecordDecl* const> records) {
  for (const RecordDecl* rd : records) layout.of(*rd); // fail before writing anything
  const TypeContext& ctx = layout.context();
  TypeNames names(ctx);
  std::string out;
  size_t fields = 0;
  for (const RecordDecl* rd : records) fields += rd->fields.size();
  out.reserve(256 + records.size() * 96 + fields * 112);
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
