// .debug_names (abikit/dwarf_names.h, DWARF 5 §6.1.1.4): header, CU/TU lists, bucket and hash
// arrays, string and entry offsets, the abbreviation table, and each name's entry list up to its
// terminating 0.
#include "abikit/dwarf_names.h"
#include "info_internal.h"

#include <unordered_map>

namespace abikit::dwarf {

namespace {

using detail::Cursor;

constexpr const char* kName = ".debug_names";

// The size of a value of `form` in an entry, read into `v`; throws for forms entries do not use.
uint64_t readValue(Cursor& c, uint64_t form, unsigned osize) {
  const uint64_t at = c.pos();
  switch (form) {
  case DW_FORM_flag_present:
    return 1;
  case DW_FORM_data1:
  case DW_FORM_ref1:
  case DW_FORM_flag:
    return c.fixed(1, "an entry value");
  case DW_FORM_data2:
  case DW_FORM_ref2:
    return c.fixed(2, "an entry value");
  case DW_FORM_data4:
  case DW_FORM_ref4:
    return c.fixed(4, "an entry value");
  case DW_FORM_data8:
  case DW_FORM_ref8:
  case DW_FORM_ref_sig8:
    return c.fixed(8, "an entry value");
  case DW_FORM_udata:
  case DW_FORM_ref_udata:
    return c.uleb("an entry value");
  case DW_FORM_sdata:
    return uint64_t(c.sleb("an entry value"));
  case DW_FORM_sec_offset:
    return c.fixed(osize, "an entry value");
  default:
    c.fail(at, "name index entry form 0x" + Cursor::hex(form) + " is not one abikit reads");
  }
}

NameIndex readIndex(const DebugInfo& info, uint64_t offset) {
  const SectionBytes& sec = info.sections().names;
  Cursor c(info, sec, kName, offset);
  NameIndex x;
  x.offset = offset;
  x.end = c.initialLength("name index", x.dwarf64);
  x.length = x.end - offset - (x.dwarf64 ? 12 : 4);
  const unsigned osize = x.dwarf64 ? 8 : 4;
  x.version = uint16_t(c.fixed(2, "the version"));
  if (x.version != 5)
    c.fail(c.pos() - 2, "name index version " + std::to_string(x.version) + " (abikit reads 5)");
  c.fixed(2, "the padding");
  x.cu_count = uint32_t(c.fixed(4, "the CU count"));
  x.local_tu_count = uint32_t(c.fixed(4, "the local TU count"));
  x.foreign_tu_count = uint32_t(c.fixed(4, "the foreign TU count"));
  x.bucket_count = uint32_t(c.fixed(4, "the bucket count"));
  x.name_count = uint32_t(c.fixed(4, "the name count"));
  x.abbrev_table_size = uint32_t(c.fixed(4, "the abbreviation table size"));
  const uint64_t aug = (c.fixed(4, "the augmentation string size") + 3) & ~uint64_t(3);
  std::span<const uint8_t> a = c.bytes(aug, "the augmentation string");
  x.augmentation.assign(a.begin(), a.end());
  // Every array must fit in what is left: counts are checked before anything is allocated.
  const uint64_t need = (uint64_t(x.cu_count) + x.local_tu_count) * osize +
                        uint64_t(x.foreign_tu_count) * 8 + uint64_t(x.bucket_count) * 4 +
                        (x.bucket_count ? uint64_t(x.name_count) * 4 : 0) +
                        uint64_t(x.name_count) * 2 * osize + x.abbrev_table_size;
  if (need > c.left())
    c.fail(c.pos(), "the name index's arrays (0x" + Cursor::hex(need) + " bytes) run past its end");
  for (uint32_t i = 0; i < x.cu_count; ++i) x.cus.push_back(c.fixed(osize, "a CU offset"));
  for (uint32_t i = 0; i < x.local_tu_count; ++i)
    x.local_tus.push_back(c.fixed(osize, "a TU offset"));
  for (uint32_t i = 0; i < x.foreign_tu_count; ++i)
    x.foreign_tus.push_back(c.fixed(8, "a type signature"));
  for (uint32_t i = 0; i < x.bucket_count; ++i)
    x.buckets.push_back(uint32_t(c.fixed(4, "a bucket")));
  x.names.resize(x.name_count);
  for (uint32_t i = 0; i < x.name_count; ++i) x.names[i].index = i + 1;
  if (x.bucket_count)
    for (NamesName& n : x.names) n.hash = uint32_t(c.fixed(4, "a hash"));
  for (NamesName& n : x.names) {
    const uint64_t at = c.pos();
    n.string_offset = c.fixed(osize, "a string offset");
    n.string =
        detail::stringAt(info, info.sections().str, ".debug_str", n.string_offset, sec, kName, at);
  }
  for (NamesName& n : x.names) n.entry_offset = c.fixed(osize, "an entry offset");
  // The abbreviation table, up to its 0 code, within its size.
  const uint64_t abbrev_end = c.pos() + x.abbrev_table_size;
  x.entries_base = abbrev_end;
  std::unordered_map<uint64_t, size_t> by_code;
  {
    Cursor t(info, sec, kName, c.pos());
    t.limit(abbrev_end);
    while (true) {
      NamesAbbrev ab;
      ab.offset = t.pos();
      ab.code = t.uleb("an abbreviation code");
      if (ab.code == 0) break;
      if (!by_code.emplace(ab.code, x.abbrevs.size()).second)
        t.fail(ab.offset, "abbreviation code " + std::to_string(ab.code) + " appears twice");
      ab.tag = t.uleb("a tag");
      while (true) {
        NamesAttr at;
        at.index = t.uleb("an index attribute");
        at.form = t.uleb("a form");
        if (at.index == 0 && at.form == 0) break;
        ab.attrs.push_back(at);
      }
      x.abbrevs.push_back(std::move(ab));
    }
  }
  // Each name's entries: abbreviation code, values, until a 0 code. Lists of distinct names do
  // not overlap and an entry takes a byte at least: far more entries and values than bytes
  // means lists that share their entries, which would make the reading quadratic.
  uint64_t total = 0;
  for (NamesName& n : x.names) {
    if (n.entry_offset > x.end - x.entries_base)
      c.fail(x.entries_base, "entry offset 0x" + Cursor::hex(n.entry_offset) + " of name " +
                                 std::to_string(n.index) + " is past the name index's end");
    Cursor e(info, sec, kName, x.entries_base + n.entry_offset);
    e.limit(x.end);
    while (true) {
      NamesEntry en;
      en.offset = e.pos();
      const uint64_t code = e.uleb("an entry's abbreviation code");
      if (code == 0) break;
      auto k = by_code.find(code);
      if (k == by_code.end())
        e.fail(en.offset,
               "entry abbreviation code " + std::to_string(code) + " is not in the table");
      en.abbrev = k->second;
      total += 1 + x.abbrevs[en.abbrev].attrs.size();
      if (total > 4 * (x.end - x.offset))
        e.fail(en.offset, "the entry lists of the names overlap (more entries and values than "
                          "four a byte)");
      for (const NamesAttr& at : x.abbrevs[en.abbrev].attrs)
        en.values.push_back(readValue(e, at.form, osize));
      n.entries.push_back(std::move(en));
    }
  }
  return x;
}

} // namespace

std::string_view indexName(uint64_t idx) {
  switch (idx) {
#define ABIKIT_DW_TAG(n, c)
#define ABIKIT_DW_AT(n, c)
#define ABIKIT_DW_FORM(n, c)
#define ABIKIT_DW_IDX(n, c)                                                                        \
  case c:                                                                                          \
    return "DW_IDX_" #n;
#include "abikit/dwarf_constants.def"
  }
  return {};
}

std::vector<NameIndex> readNameIndexes(const DebugInfo& info) {
  std::vector<NameIndex> out;
  const SectionBytes& sec = info.sections().names;
  uint64_t offset = 0;
  while (offset < sec.bytes.size()) {
    out.push_back(readIndex(info, offset));
    offset = out.back().end;
  }
  return out;
}

} // namespace abikit::dwarf
