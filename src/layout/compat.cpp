// compareLayouts(): the records of one header on several targets, matched by name and compared
// member by member (include/abikit/compat.h).
#include "abikit/compat.h"

#include <algorithm>
#include <map>

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
  std::vector<const FieldDecl*> decls; // parallel to layout.fields
};

Side sideOf(const LayoutEngine& layout, const RecordDecl* rd) {
  Side s;
  if (!rd) return s;
  const RecordLayout& rl = layout.of(*rd);
  s.layout.present = true;
  s.layout.size = rl.size;
  s.layout.align = rl.align;
  collectFields(layout, *rd, 0, s.layout.fields, s.decls);
  return s;
}

const CompatField* findField(const CompatLayout& l, const std::string& name, size_t* index) {
  for (size_t i = 0; i < l.fields.size(); ++i)
    if (l.fields[i].name == name) {
      *index = i;
      return &l.fields[i];
    }
  return nullptr;
}

// Adds a difference when the values are not all equal: absent ones too for "present", else
// only the sides that have the value.
void differ(CompatRecord& r, const std::string& field, const char* what,
            std::vector<std::optional<uint64_t>> values) {
  const bool presence = std::string_view(what) == "present";
  const std::optional<uint64_t>* first = nullptr;
  for (const auto& v : values) {
    if (!presence && !v) continue;
    if (!first) {
      first = &v;
    } else if (presence ? v.has_value() != first->has_value() : v != *first) {
      r.differences.push_back({field, what, std::move(values)});
      return;
    }
  }
}

std::string joined(const std::vector<std::optional<uint64_t>>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + (x ? std::to_string(*x) : "-");
  return s;
}

// Notes on a member whose meaning (not only position) differs between targets.
void memberNotes(CompatRecord& r, const std::string& name, std::span<const CompatSide> sides,
                 const std::vector<const FieldDecl*>& decls) {
  bool pointer = false, long_double = false;
  std::vector<std::optional<uint64_t>> formats, sizes;
  for (size_t i = 0; i < sides.size(); ++i) {
    const FieldDecl* f = decls[i];
    if (!f) {
      formats.push_back(std::nullopt);
      sizes.push_back(std::nullopt);
      continue;
    }
    const Type* t = stripTypedefs(f->type);
    while (auto* at = dyn<ArrayType>(t)) t = stripTypedefs(at->element);
    pointer |= t->kind == TypeKind::Pointer;
    const DataModel& d = sides[i].layout->context().target().data;
    if (auto* ft = dyn<FloatType>(t); ft && ft->fkind == FloatKind::LongDouble) {
      long_double = true;
      formats.push_back(uint64_t(d.float_formats[size_t(FloatKind::LongDouble)]));
    } else {
      formats.push_back(std::nullopt);
    }
    sizes.push_back(sides[i].layout->of(f->type).size);
  }
  if (pointer)
    r.notes.push_back("'" + name +
                      "' holds a pointer: an address of one target means nothing on another "
                      "(sizes " +
                      joined(sizes) + ")");
  if (long_double &&
      std::adjacent_find(formats.begin(), formats.end(), std::not_equal_to<>()) != formats.end())
    r.notes.push_back("'" + name +
                      "' is a long double, whose format differs between the targets (sizes " +
                      joined(sizes) + "): the bytes do not carry the same value");
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

std::vector<CompatRecord> compareLayouts(std::span<const CompatSide> sides) {
  // Names in order of first appearance; each side's record by name.
  std::vector<std::string> names;
  std::vector<std::map<std::string, const RecordDecl*>> byName(sides.size());
  for (size_t i = 0; i < sides.size(); ++i)
    for (const RecordDecl* rd : sides[i].records) {
      std::string n = rd->displayName(sides[i].layout->context());
      if (byName[i].emplace(n, rd).second &&
          std::find(names.begin(), names.end(), n) == names.end())
        names.push_back(n);
    }

  std::vector<CompatRecord> out;
  out.reserve(names.size());
  for (const std::string& name : names) {
    CompatRecord r;
    r.name = name;
    std::vector<Side> s;
    for (size_t i = 0; i < sides.size(); ++i) {
      auto it = byName[i].find(name);
      s.push_back(sideOf(*sides[i].layout, it == byName[i].end() ? nullptr : it->second));
      r.layouts.push_back(s.back().layout);
    }
    auto each = [&](auto get) {
      std::vector<std::optional<uint64_t>> v;
      for (const Side& x : s) v.push_back(x.layout.present ? get(x.layout) : std::nullopt);
      return v;
    };
    differ(r, "", "present", each([](const CompatLayout& l) { return std::optional(l.size); }));
    differ(r, "", "size", each([](const CompatLayout& l) { return std::optional(l.size); }));
    differ(r, "", "align",
           each([](const CompatLayout& l) { return std::optional<uint64_t>(l.align); }));
    // Members in order of first appearance.
    std::vector<std::string> fields;
    for (const Side& x : s)
      for (const CompatField& f : x.layout.fields)
        if (std::find(fields.begin(), fields.end(), f.name) == fields.end())
          fields.push_back(f.name);
    for (const std::string& fname : fields) {
      std::vector<const CompatField*> fs;
      std::vector<const FieldDecl*> decls;
      for (const Side& x : s) {
        size_t at = 0;
        const CompatField* f = x.layout.present ? findField(x.layout, fname, &at) : nullptr;
        fs.push_back(f);
        decls.push_back(f ? x.decls[at] : nullptr);
      }
      auto per = [&](auto get) {
        std::vector<std::optional<uint64_t>> v;
        for (const CompatField* f : fs)
          v.push_back(f ? std::optional<uint64_t>(get(*f)) : std::nullopt);
        return v;
      };
      bool missing = false;
      for (size_t i = 0; i < fs.size(); ++i) missing |= s[i].layout.present && !fs[i];
      bool bitfield = false;
      for (const CompatField* f : fs) bitfield |= f && f->bit_width >= 0;
      if (missing) {
        differ(r, fname, "present", per([&](const CompatField& f) {
                 return f.bit_width >= 0 ? f.bit_offset : f.bit_offset / 8;
               }));
      } else if (bitfield) {
        differ(r, fname, "bit_offset", per([](const CompatField& f) { return f.bit_offset; }));
        // A member that is a bit-field on one side only: its bits are its type's size.
        differ(r, fname, "bit_width", per([](const CompatField& f) {
                 return f.bit_width >= 0 ? uint64_t(f.bit_width) : f.size * 8;
               }));
      } else {
        differ(r, fname, "offset", per([](const CompatField& f) { return f.bit_offset / 8; }));
      }
      if (!missing) differ(r, fname, "size", per([](const CompatField& f) { return f.size; }));
      memberNotes(r, fname, sides, decls);
    }
    targetNotes(r, sides);
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace abikit
