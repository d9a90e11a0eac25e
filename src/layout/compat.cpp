// compareLayouts(): the records of one header on several targets, matched by name and compared
// member by member (include/abikit/compat.h).
#include "abikit/compat.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace abikit {

namespace {

// The named members of `rd`, anonymous members flattened, at `base` bits.
void collectFields(const LayoutEngine& layout, const RecordDecl& rd, uint64_t base,
                   std::vector<CompatField>& out, std::vector<const FieldDecl*>& decls) {
  const RecordLayout& rl = layout.of(rd);
  for (size_t i = 0; i < rd.fields.size(); ++i) {
    const FieldDecl& f = rd.fields[i];
    const FieldLayout& fl = rl.fields[i];
    if (f.name.empty()) {
      if (f.isBitField()) continue; // unnamed bit-fields only pad
      if (auto* rt = dyn<RecordType>(stripTypedefs(f.type)))
        collectFields(layout, *rt->decl, base + fl.bit_offset, out, decls);
      continue;
    }
    out.push_back({std::string(f.name), base + fl.bit_offset, fl.size, fl.bit_width});
    decls.push_back(&f);
  }
}

struct Side {
  CompatLayout layout;
  std::vector<const FieldDecl*> decls;                // parallel to layout.fields
  std::unordered_map<std::string_view, size_t> index; // member name -> its index
};

Side sideOf(const LayoutEngine& layout, const RecordDecl* rd) {
  Side s;
  if (!rd) return s;
  const RecordLayout& rl = layout.of(*rd);
  s.layout.present = true;
  s.layout.size = rl.size;
  s.layout.align = rl.align;
  s.layout.fields.reserve(rd->fields.size());
  s.decls.reserve(rd->fields.size());
  collectFields(layout, *rd, 0, s.layout.fields, s.decls);
  return s;
}

// Records with more members than this get a hash index of their names; smaller ones are
// searched (no allocation per record).
constexpr size_t kIndexedFields = 24;

// Fills Side::index; once the Side is in its final place (the keys view its member names).
void indexFields(Side& s) {
  if (s.layout.fields.size() <= kIndexedFields) return;
  s.index.reserve(s.layout.fields.size());
  for (size_t i = 0; i < s.layout.fields.size(); ++i)
    s.index.emplace(s.layout.fields[i].name, i); // the first of a repeated name
}

// The index of the member named `name` on side `s`, or -1.
ptrdiff_t findField(const Side& s, std::string_view name) {
  if (s.layout.fields.size() > kIndexedFields) {
    auto it = s.index.find(name);
    return it == s.index.end() ? -1 : ptrdiff_t(it->second);
  }
  for (size_t i = 0; i < s.layout.fields.size(); ++i)
    if (s.layout.fields[i].name == name) return ptrdiff_t(i);
  return -1;
}

// Adds a difference when the values `get(0..n-1)` are not all equal: absent ones too for
// "present", else only the sides that have the value. The values are collected only then.
template <class Get>
void differ(CompatRecord& r, std::string_view field, const char* what, size_t n, Get get) {
  const bool presence = std::string_view(what) == "present";
  std::optional<uint64_t> first;
  bool have_first = false, differs = false;
  for (size_t i = 0; i < n && !differs; ++i) {
    const std::optional<uint64_t> v = get(i);
    if (!presence && !v) continue;
    if (!have_first) {
      first = v;
      have_first = true;
    } else {
      differs = presence ? v.has_value() != first.has_value() : v != first;
    }
  }
  if (!differs) return;
  std::vector<std::optional<uint64_t>> values;
  values.reserve(n);
  for (size_t i = 0; i < n; ++i) values.push_back(get(i));
  r.differences.push_back({std::string(field), what, std::move(values)});
}

// Notes on a member whose meaning (not only position) differs between targets.
void memberNotes(CompatRecord& r, const std::string& name, std::span<const CompatSide> sides,
                 const std::vector<const FieldDecl*>& decls,
                 const std::vector<const CompatField*>& fields) {
  // Most members are neither: look before building anything.
  auto base = [](const FieldDecl* f) {
    const Type* t = stripTypedefs(f->type);
    while (auto* at = dyn<ArrayType>(t)) t = stripTypedefs(at->element);
    return t;
  };
  bool any = false;
  for (const FieldDecl* f : decls) {
    if (!f) continue;
    const Type* t = base(f);
    auto* ft = dyn<FloatType>(t);
    any |= t->kind == TypeKind::Pointer || (ft && ft->fkind == FloatKind::LongDouble);
  }
  if (!any) return;
  bool pointer = false, long_double = false;
  std::vector<std::optional<uint64_t>> formats, sizes;
  for (size_t i = 0; i < sides.size(); ++i) {
    const FieldDecl* f = decls[i];
    if (!f) {
      formats.push_back(std::nullopt);
      sizes.push_back(std::nullopt);
      continue;
    }
    sizes.push_back(fields[i]->size);
    const Type* t = base(f);
    pointer |= t->kind == TypeKind::Pointer;
    const DataModel& d = sides[i].layout->context().target().data;
    if (auto* ft = dyn<FloatType>(t); ft && ft->fkind == FloatKind::LongDouble) {
      long_double = true;
      formats.push_back(uint64_t(d.float_formats[size_t(FloatKind::LongDouble)]));
    } else {
      formats.push_back(std::nullopt);
    }
  }
  if (pointer)
    r.notes.push_back("'" + name +
                      "' holds a pointer: an address of one target means nothing on another "
                      "(sizes " +
                      compatValues(sizes) + ")");
  if (long_double &&
      std::adjacent_find(formats.begin(), formats.end(), std::not_equal_to<>()) != formats.end())
    r.notes.push_back("'" + name +
                      "' is a long double, whose format differs between the targets (sizes " +
                      compatValues(sizes) + "): the bytes do not carry the same value");
}

// Target rules on shared records (DPU: MRAM transfers move multiples of 8 bytes).
void targetNotes(CompatRecord& r, std::span<const CompatSide> sides) {
  for (size_t i = 0; i < sides.size(); ++i) {
    const Target& t = sides[i].layout->context().target();
    const CompatLayout& l = r.layouts[i];
    if (l.present && t.shared_data.size_multiple && l.size % t.shared_data.size_multiple != 0)
      r.notes.push_back(r.name + " is " + std::to_string(l.size) + " bytes on " + t.spelling +
                        ": " + std::string(t.shared_data.why));
  }
}

} // namespace

std::string compatValues(const std::vector<std::optional<uint64_t>>& values,
                         std::string_view absent) {
  std::string s;
  for (const auto& x : values) {
    if (!s.empty()) s += ", ";
    s += x ? std::to_string(*x) : std::string(absent);
  }
  return s;
}

std::vector<CompatRecord> compareLayouts(std::span<const CompatSide> sides) {
  // Names in order of first appearance; each side's record by name.
  // One table for every side: a name's position, and the record of each side at it (the first
  // of a repeated name).
  std::vector<std::string> names;
  std::vector<const RecordDecl*> table; // names.size() rows of sides.size()
  std::unordered_map<std::string, size_t> position;
  position.reserve(sides.empty() ? 0 : sides[0].records.size());
  for (size_t i = 0; i < sides.size(); ++i) {
    for (const RecordDecl* rd : sides[i].records) {
      auto [it, added] =
          position.emplace(rd->displayName(sides[i].layout->context()), names.size());
      if (added) {
        names.push_back(it->first);
        table.resize(table.size() + sides.size(), nullptr);
      }
      const RecordDecl*& slot = table[it->second * sides.size() + i];
      if (!slot) slot = rd;
    }
  }

  std::vector<CompatRecord> out;
  out.reserve(names.size());
  for (size_t k = 0; k < names.size(); ++k) {
    CompatRecord r;
    r.name = std::move(names[k]);
    std::vector<Side> s;
    s.reserve(sides.size());
    for (size_t i = 0; i < sides.size(); ++i) {
      s.push_back(sideOf(*sides[i].layout, table[k * sides.size() + i]));
      indexFields(s.back());
    }
    const size_t n = s.size();
    auto record = [&](auto get) {
      return [&s, get](size_t i) -> std::optional<uint64_t> {
        return s[i].layout.present ? std::optional<uint64_t>(get(s[i].layout)) : std::nullopt;
      };
    };
    differ(r, "", "present", n, record([](const CompatLayout& l) { return l.size; }));
    differ(r, "", "size", n, record([](const CompatLayout& l) { return l.size; }));
    differ(r, "", "align", n, record([](const CompatLayout& l) { return uint64_t(l.align); }));
    // Members in order of first appearance: the first present side's, then the others' new
    // ones.
    // Usually every side has the same members in the same order: then the first side's list is
    // the whole list, and each member is at the same index on every side.
    auto sameNames = [](const Side& x, const Side& y) {
      if (x.layout.fields.size() != y.layout.fields.size()) return false;
      for (size_t j = 0; j < x.layout.fields.size(); ++j)
        if (x.layout.fields[j].name != y.layout.fields[j].name) return false;
      return true;
    };
    bool aligned_names = true;
    for (size_t i = 1; i < n && aligned_names; ++i) aligned_names = sameNames(s[0], s[i]);
    std::vector<std::string_view> fields;
    for (size_t i = 0; i < (aligned_names ? std::min<size_t>(n, 1) : n); ++i)
      for (const CompatField& f : s[i].layout.fields) {
        bool known = false;
        for (size_t j = 0; j < i && !known; ++j) known = findField(s[j], f.name) >= 0;
        if (!known &&
            (i == 0 || findField(s[i], f.name) == ptrdiff_t(&f - s[i].layout.fields.data())))
          fields.push_back(f.name);
      }
    std::vector<const CompatField*> fs(n);
    std::vector<const FieldDecl*> decls(n);
    for (size_t fi = 0; fi < fields.size(); ++fi) {
      const std::string_view fname = fields[fi];
      bool missing = false, bitfield = false;
      for (size_t i = 0; i < n; ++i) {
        const ptrdiff_t at = aligned_names ? ptrdiff_t(fi) : findField(s[i], fname);
        fs[i] = at >= 0 ? &s[i].layout.fields[size_t(at)] : nullptr;
        decls[i] = at >= 0 ? s[i].decls[size_t(at)] : nullptr;
        missing |= s[i].layout.present && !fs[i];
        bitfield |= fs[i] && fs[i]->bit_width >= 0;
      }
      auto per = [&fs](auto get) {
        return [&fs, get](size_t i) -> std::optional<uint64_t> {
          return fs[i] ? std::optional<uint64_t>(get(*fs[i])) : std::nullopt;
        };
      };
      if (missing) {
        differ(r, fname, "present", n, per([](const CompatField& f) {
                 return f.bit_width >= 0 ? f.bit_offset : f.bit_offset / 8;
               }));
      } else if (bitfield) {
        differ(r, fname, "bit_offset", n, per([](const CompatField& f) { return f.bit_offset; }));
        // A member that is a bit-field on one side only: its bits are its type's size.
        differ(r, fname, "bit_width", n, per([](const CompatField& f) {
                 return f.bit_width >= 0 ? uint64_t(f.bit_width) : f.size * 8;
               }));
      } else {
        differ(r, fname, "offset", n, per([](const CompatField& f) { return f.bit_offset / 8; }));
      }
      // A bit-field's declared type is not its storage: its position and width say it all.
      if (!missing && !bitfield)
        differ(r, fname, "size", n, per([](const CompatField& f) { return f.size; }));
      memberNotes(r, std::string(fname), sides, decls, fs);
    }
    // The layouts move into the result last (the members above point into them).
    r.layouts.reserve(n);
    for (Side& x : s) r.layouts.push_back(std::move(x.layout));
    targetNotes(r, sides);
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace abikit
