// `abikit layout`: the text view (pahole-like: offsets, sizes, bit positions, every hole and the
// tail padding) and the JSON view (cli-contract.md) of record layouts.
//
// Both views stream into one growing buffer (detail::TextBuffer; the JSON view through
// detail::JsonWriter): numbers are formatted in place (detail::putDecimal), each type is spelled
// once, and no string is built per member.
#include "abikit/emit.h"
#include "json_writer.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <deque>
#include <string_view>
#include <vector>

namespace abikit {

namespace {

using detail::TextBuffer;

// An anonymous struct/union member: its fields belong to the enclosing record in C.
const RecordDecl* anonymousMember(const FieldDecl& fd) {
  if (!fd.name.empty() || fd.isBitField()) return nullptr;
  auto* rt = dyn<RecordType>(stripTypedefs(fd.type));
  return rt && rt->decl->name.empty() ? rt->decl : nullptr;
}

// A named member whose type is a struct/union without a tag or typedef name, written in place
// (`struct { int a; } s;`): the text view prints its members inline.
const RecordDecl* unnamedRecordMember(const FieldDecl& fd) {
  if (fd.name.empty() || fd.isBitField() || fd.type->unqualified->kind != TypeKind::Record)
    return nullptr;
  const RecordDecl* rd = static_cast<const RecordType*>(fd.type->unqualified)->decl;
  return rd->name.empty() && rd->typedef_name.empty() ? rd : nullptr;
}

// RecordDecl::displayName, written in pieces (`put` takes each) without building a string for a
// tag or a typedef name.
template <class Put> void displayName(const RecordDecl& rd, const TypeContext& ctx, Put put) {
  if (!rd.name.empty()) {
    if (rd.is_union)
      put("union ");
    else
      put("struct ");
    put(rd.name);
  } else if (!rd.typedef_name.empty()) {
    put(rd.typedef_name);
  } else {
    put(rd.displayName(ctx));
  }
}

using Json = detail::JsonWriter<detail::kJsonLines>;

// Type spellings (plain, and as a JSON string), computed once per (interned) type: a header of
// thousands of records uses a few thousand distinct member types. A table with open addressing
// maps the type to its spellings, which never move once made.
class TypeNames {
public:
  struct Spelling {
    std::string plain, json;
    size_t fn_ptr = std::string::npos; // position of "(*)" in `plain` (pointer to function)
  };

  explicit TypeNames(const TypeContext& ctx) : ctx_(ctx), slots_(1024) {}

  const Spelling& operator()(const Type* t) {
    if (t != last_type_) {
      last_ = find(t);
      last_type_ = t;
    }
    return *last_;
  }

private:
  struct Slot {
    const Type* type = nullptr; // nullptr: empty
    const Spelling* spelling = nullptr;
  };

  static size_t hash(const Type* t) {
    uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(t)) * 0x9E3779B97F4A7C15ull;
    return size_t(h >> 32);
  }

  const Spelling* find(const Type* t) {
    size_t mask = slots_.size() - 1;
    size_t i = hash(t) & mask;
    for (; slots_[i].type; i = (i + 1) & mask)
      if (slots_[i].type == t) return slots_[i].spelling;
    Spelling& sp = spellings_.emplace_back();
    sp.plain = typeName(t, ctx_);
    sp.fn_ptr = sp.plain.find("(*)");
    sp.json = Json::literal(sp.plain);
    slots_[i] = {t, &sp};
    if (++used_ * 2 > slots_.size()) rehash();
    return &sp;
  }

  void rehash() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (!s.type) continue;
      size_t i = hash(s.type) & mask;
      while (slots_[i].type) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  const TypeContext& ctx_;
  std::vector<Slot> slots_;
  size_t used_ = 0;
  std::deque<Spelling> spellings_; // stable addresses
  const Type* last_type_ = nullptr;
  const Spelling* last_ = nullptr;
};

// ----- JSON -----------------------------------------------------------------------------------

// One member object per line, as in cli-contract.md; an anonymous member's own members follow
// on the next lines, one level deeper.
void fieldsJson(Json& j, const LayoutEngine& engine, TypeNames& names, const RecordDecl& rd,
                uint64_t base_bits, unsigned indent) {
  const RecordLayout& rl = engine.of(rd);
  j.beginArray();
  for (size_t i = 0; i < rd.fields.size(); ++i) {
    const FieldDecl& fd = rd.fields[i];
    const FieldLayout& fl = rl.fields[i];
    uint64_t bit = base_bits + fl.bit_offset;
    j.breakLine(indent);
    j.beginObject();
    {
      detail::RawJson type{names(fd.type).json};
      auto m = j.members(7, Json::bound(fd.name) + Json::bound(type));
      m.field("name", fd.name);
      m.field("type", type);
      m.field("offset", bit / 8);
      m.field("bit_offset", bit);
      if (fd.isBitField()) m.field("bit_width", uint64_t(fd.bit_width));
      m.field("size", fl.size);
      m.field("align", fl.align);
    }
    if (const RecordDecl* anon = anonymousMember(fd)) {
      j.field("anonymous", true);
      if (anon->is_union)
        j.field("kind", "union");
      else
        j.field("kind", "struct");
      j.key("fields");
      fieldsJson(j, engine, names, *anon, bit, indent + 2);
    }
    j.endObject();
  }
  j.endArray();
}

// ----- text -----------------------------------------------------------------------------------

// "1 byte", "3 bytes", "1 bit", "5 bits".
void putCount(TextBuffer& out, uint64_t n, bool bytes) {
  out.number(n);
  if (bytes)
    out.lit(" byte");
  else
    out.lit(" bit");
  if (n != 1) out.put('s');
}

// A gap of `bits` starting at bit `from`: "3 bytes", "5 bits" or "5 bits + 3 bytes" (the bits
// up to the next byte boundary, then whole bytes).
void putGap(TextBuffer& out, uint64_t from, uint64_t bits) {
  uint64_t lead = from % 8 ? 8 - from % 8 : 0;
  if (lead == 0 && bits % 8 == 0) return putCount(out, bits / 8, true);
  if (lead >= bits || (bits - lead) % 8) return putCount(out, bits, false);
  putCount(out, lead, false);
  out.lit(" + ");
  putCount(out, (bits - lead) / 8, true);
}

// Writes a C declaration of `name` with type `t`: "int x", "char *p", "short a[2][3]",
// "void (*f)(int)".
void putDeclaration(TextBuffer& out, const Type* t, std::string_view name, TypeNames& names) {
  const Type* base = t;
  char dims[96];
  size_t dims_len = 0;
  while (auto* at = dyn<ArrayType>(base->unqualified)) {
    if (base->quals) break;
    char buf[32];
    char* e = buf;
    *e++ = '[';
    if (!at->incomplete) e = std::to_chars(e, buf + sizeof buf, at->count).ptr;
    *e++ = ']';
    size_t n = size_t(e - buf);
    if (dims_len + n >= sizeof dims) break; // spell the rest as part of the type
    std::memcpy(dims + dims_len, buf, n);
    dims_len += n;
    base = at->element;
  }
  const TypeNames::Spelling& sp = names(base);
  std::string_view spelled = sp.plain;
  std::string_view dim_text(dims, dims_len);
  if (sp.fn_ptr != std::string::npos) {
    size_t fp = sp.fn_ptr;
    out.put(spelled.substr(0, fp));
    if (fp > 0 && spelled[fp - 1] != ' ' && spelled[fp - 1] != '(') out.put(' ');
    out.lit("(*");
    out.put(name);
    out.put(dim_text);
    out.put(spelled.substr(fp + 2));
    return;
  }
  out.put(spelled);
  if (name.empty() && dims_len == 0) return;
  if (spelled.empty() || spelled.back() != '*') out.put(' ');
  out.put(name);
  out.put(dim_text);
}

struct Totals {
  uint64_t holes = 0, hole_bytes = 0;
  uint64_t bit_holes = 0, hole_bits = 0;
};

class TextWriter {
public:
  TextWriter(const LayoutEngine& engine, size_t reserve)
      : engine_(engine), ctx_(engine.context()), names_(ctx_), out_(reserve) {}

  void record(const RecordDecl& rd) {
    const RecordLayout& rl = engine_.of(rd);
    Totals totals;
    bool typedef_named = rd.name.empty() && !rd.typedef_name.empty();
    if (typedef_named) {
      if (rd.is_union)
        out_.lit("typedef union {\n");
      else
        out_.lit("typedef struct {\n");
    } else {
      displayName(rd, ctx_, [this](const auto& s) { out_.put(s); });
      out_.lit(" {\n");
    }
    uint64_t end = members(rd, 0, 1, totals);
    uint64_t size_bits = rl.size * 8;
    uint64_t tail = size_bits > end ? size_bits - end : 0;
    if (tail) {
      out_.lit("    /* XXX ");
      putGap(out_, end, tail);
      out_.lit(" tail padding */\n");
    }
    out_.lit("    /* size: ");
    out_.number(rl.size);
    out_.lit(", align: ");
    out_.number(rl.align);
    out_.lit(", members: ");
    out_.number(rd.fields.size());
    if (totals.holes) {
      out_.lit(", holes: ");
      out_.number(totals.holes);
      out_.lit(" (");
      putCount(out_, totals.hole_bytes, true);
      out_.put(')');
    }
    if (totals.bit_holes) {
      out_.lit(", bit holes: ");
      out_.number(totals.bit_holes);
      out_.lit(" (");
      putCount(out_, totals.hole_bits, false);
      out_.put(')');
    }
    out_.lit(", padding: ");
    if (end % 8 || tail % 8)
      putGap(out_, end, tail);
    else
      out_.number(tail / 8);
    if (rl.has_flexible_array) out_.lit(", flexible array member");
    out_.lit(" */\n");
    if (typedef_named) {
      out_.lit("} ");
      out_.put(rd.typedef_name);
      out_.lit(";\n");
    } else {
      out_.lit("};\n");
    }
  }

  TextBuffer& out() { return out_; }

private:
  void indent(int level) { out_.spaces(size_t(level) * 4); }

  // Ends a member line started at `line_start`: pads to the column, then /* offset size */
  // (a bit-field's offset is byte:bit).
  void finishMember(size_t line_start, uint64_t bit, bool bitfield, uint64_t size) {
    constexpr size_t kColumn = 48;
    size_t used = out_.size() - line_start;
    size_t pad = used < kColumn ? kColumn - used : 1;
    char pos[48];
    char* p = detail::putDecimal(pos, bit / 8);
    if (bitfield) {
      *p++ = ':';
      p = detail::putDecimal(p, bit % 8);
    }
    char num[24];
    char* q = detail::putDecimal(num, size);
    size_t pl = size_t(p - pos), ql = size_t(q - num);
    size_t pos_pad = pl < 8 ? 8 - pl : 0, num_pad = ql < 6 ? 6 - ql : 1;
    out_.spaces(pad);
    // "/* " + the position right-aligned in 8 columns, the size right-aligned in 6 (at least
    // one space before it), " */": at most 3 + 8 + 48 + 6 + 24 + 4 bytes.
    char* w = out_.room(96);
    std::memcpy(w, "/*                ", 16); // the 3 + 8 + 5 leading bytes, then overwritten
    w += 3 + pos_pad;
    for (size_t i = 0; i < pl; ++i) *w++ = pos[i];
    for (size_t i = 0; i < num_pad; ++i) *w++ = ' ';
    for (size_t i = 0; i < ql; ++i) *w++ = num[i];
    std::memcpy(w, " */\n", 4);
    out_.advance(w + 4);
  }

  void hole(int level, uint64_t from, uint64_t bits, Totals& t) {
    indent(level);
    out_.lit("/* XXX ");
    putGap(out_, from, bits);
    out_.lit(" hole */\n");
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
  uint64_t members(const RecordDecl& rd, uint64_t base, int level, Totals& totals) {
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
      if (!rd.is_union && start > end) hole(level, end, start - end, totals);
      const RecordDecl* anon = anonymousMember(fd);
      if (!anon) anon = unnamedRecordMember(fd);
      if (anon) {
        indent(level);
        if (anon->is_union)
          out_.lit("union {\n");
        else
          out_.lit("struct {\n");
        uint64_t inner_end = members(*anon, start, level + 1, totals);
        uint64_t anon_end = start + engine_.of(*anon).size * 8;
        if (anon_end > inner_end) {
          indent(level + 1);
          out_.lit("/* XXX ");
          putGap(out_, inner_end, anon_end - inner_end);
          out_.lit(" padding */\n");
        }
        size_t at = out_.size();
        indent(level);
        out_.put('}');
        if (!fd.name.empty()) {
          out_.put(' ');
          out_.put(fd.name);
        }
        out_.put(';');
        finishMember(at, start, false, fl.size);
      } else {
        size_t at = out_.size();
        indent(level);
        putDeclaration(out_, fd.type, fd.name, names_);
        if (fd.isBitField()) {
          if (fd.name.empty())
            out_.lit(" :");
          else
            out_.put(':');
          out_.number(uint64_t(fd.bit_width));
        }
        out_.put(';');
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
  TextBuffer out_;
};

size_t fieldCount(std::span<const RecordDecl* const> records) {
  size_t fields = 0;
  for (const RecordDecl* rd : records) fields += rd->fields.size();
  return fields;
}

} // namespace

std::string layoutText(const LayoutEngine& layout, std::span<const RecordDecl* const> records) {
  // Lay everything out first: a failure leaves no partial output.
  for (const RecordDecl* rd : records) layout.of(*rd);
  TextWriter w(layout, 256 + records.size() * 160 + fieldCount(records) * 96);
  TextBuffer& out = w.out();
  out.lit("/* ");
  out.put(layout.context().target().spelling);
  out.lit(" */\n");
  for (const RecordDecl* rd : records) {
    out.put('\n');
    w.record(*rd);
  }
  return out.take();
}

std::string layoutJson(const LayoutEngine& layout, std::span<const RecordDecl* const> records) {
  for (const RecordDecl* rd : records) layout.of(*rd); // fail before writing anything
  const TypeContext& ctx = layout.context();
  TypeNames names(ctx);
  TextBuffer out(256 + records.size() * 96 + fieldCount(records) * 112);
  Json j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.field("target", ctx.target().spelling);
  j.breakLine(1);
  j.key("records");
  j.beginArray();
  for (const RecordDecl* rd : records) {
    const RecordLayout& rl = layout.of(*rd);
    j.breakLine(2);
    j.beginObject();
    j.key("name");
    j.beginString();
    displayName(*rd, ctx, [&j](const auto& s) { j.chars(s); });
    j.endString();
    if (rd->is_union)
      j.field("kind", "union");
    else
      j.field("kind", "struct");
    j.field("size", rl.size);
    j.field("align", rl.align);
    if (rl.has_flexible_array) j.field("flexible_array", true);
    j.breakLine(3);
    j.key("fields");
    fieldsJson(j, layout, names, *rd, 0, 5);
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

} // namespace abikit
