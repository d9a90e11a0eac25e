// `abikit dwarf --debug-names`: every name index of .debug_names laid out as llvm-dwarfdump-22
// prints it (DWARFDebugNames::NameIndex::dump through ScopedPrinter: two spaces a level), and
// the same as JSON (cli-contract.md "dwarf": "names").
#include "abikit/dwarf_names.h"
#include "abikit/emit.h"
#include "dump_text.h"
#include "json_writer.h"

#include <unordered_set>

namespace abikit {

using detail::decTo;
using detail::hexTo;
using detail::nameOr;

namespace {

// Twine::utohexstr after "0x": lowercase digits.
std::string lowerHex(uint64_t v) {
  std::string s;
  hexTo(s, v, 1);
  return s;
}

// ScopedPrinter's printHex: "0x" and uppercase digits.
std::string upperHex(uint64_t v) {
  std::string s;
  hexTo(s, v, 1);
  for (size_t i = 2; i < s.size(); ++i)
    if (s[i] >= 'a' && s[i] <= 'f') s[i] = char(s[i] - 'a' + 'A');
  return s;
}

// DWARFFormValue::dump of an entry's value (no unit: references print their raw offset).
void valueText(uint64_t form, uint64_t v, std::string& t) {
  switch (form) {
  case dwarf::DW_FORM_flag_present:
    t += "true";
    return;
  case dwarf::DW_FORM_data1:
  case dwarf::DW_FORM_ref1:
  case dwarf::DW_FORM_flag:
    hexTo(t, v, 2);
    return;
  case dwarf::DW_FORM_data2:
  case dwarf::DW_FORM_ref2:
    hexTo(t, v, 4);
    return;
  case dwarf::DW_FORM_data4:
  case dwarf::DW_FORM_ref4:
  case dwarf::DW_FORM_sec_offset:
    hexTo(t, v, 8);
    return;
  case dwarf::DW_FORM_data8:
  case dwarf::DW_FORM_ref8:
  case dwarf::DW_FORM_ref_sig8:
    hexTo(t, v, 16);
    return;
  case dwarf::DW_FORM_sdata:
    decTo(t, int64_t(v));
    return;
  default: // udata, ref_udata
    decTo(t, v);
    return;
  }
}

class Printer {
public:
  explicit Printer(std::string& t) : t_(t) {}
  void line(std::string_view s) {
    t_.append(indent_, ' ');
    t_ += s;
    t_ += '\n';
  }
  void open(std::string_view s, char bracket) {
    line(std::string(s) + ' ' + bracket);
    indent_ += 2;
  }
  void close(char bracket) {
    indent_ -= 2;
    line(std::string(1, bracket));
  }

private:
  std::string& t_;
  size_t indent_ = 0;
};

using EntryOffsets = std::unordered_set<uint64_t>;

void entryText(const dwarf::NameIndex& x, const EntryOffsets& entries, const dwarf::NamesEntry& e,
               Printer& p) {
  const dwarf::NamesAbbrev& ab = x.abbrevs[e.abbrev];
  p.open("Entry @ " + lowerHex(e.offset), '{');
  std::string s = "Abbrev: ";
  hexTo(s, ab.code, 1);
  p.line(s);
  p.line("Tag: " + nameOr(dwarf::tagName(uint16_t(ab.tag)), "DW_TAG", ab.tag));
  for (size_t i = 0; i < ab.attrs.size(); ++i) {
    s = nameOr(dwarf::indexName(ab.attrs[i].index), "DW_IDX", ab.attrs[i].index) + ": ";
    if (ab.attrs[i].index == dwarf::DW_IDX_parent) {
      if (ab.attrs[i].form == dwarf::DW_FORM_flag_present) {
        s += "<parent not indexed>";
      } else {
        // An entry at that offset of the entry pool, else LLVM's "<invalid offset data>".
        const uint64_t at = x.entries_base + e.values[i];
        s += entries.count(at) ? "Entry @ " + lowerHex(at) : std::string("<invalid offset data>");
      }
    } else {
      valueText(ab.attrs[i].form, e.values[i], s);
    }
    p.line(s);
  }
  p.close('}');
}

void nameText(const dwarf::NameIndex& x, const EntryOffsets& entries, const dwarf::NamesName& n,
              Printer& p) {
  p.open("Name " + std::to_string(n.index), '{');
  if (n.hash) p.line("Hash: " + upperHex(*n.hash));
  std::string s = "String: ";
  hexTo(s, n.string_offset, 8);
  s += " \"";
  s += n.string;
  s += '"';
  p.line(s);
  for (const dwarf::NamesEntry& e : n.entries) entryText(x, entries, e, p);
  p.close('}');
}

void indexText(const dwarf::NameIndex& x, std::string& t) {
  EntryOffsets entries;
  for (const dwarf::NamesName& n : x.names)
    for (const dwarf::NamesEntry& e : n.entries) entries.insert(e.offset);
  Printer p(t);
  p.open("Name Index @ " + lowerHex(x.offset), '{');
  p.open("Header", '{');
  p.line("Length: " + upperHex(x.length));
  p.line(x.dwarf64 ? "Format: DWARF64" : "Format: DWARF32");
  p.line("Version: " + std::to_string(x.version));
  p.line("CU count: " + std::to_string(x.cu_count));
  p.line("Local TU count: " + std::to_string(x.local_tu_count));
  p.line("Foreign TU count: " + std::to_string(x.foreign_tu_count));
  p.line("Bucket count: " + std::to_string(x.bucket_count));
  p.line("Name count: " + std::to_string(x.name_count));
  p.line("Abbreviations table size: " + upperHex(x.abbrev_table_size));
  p.line("Augmentation: '" + x.augmentation + "'");
  p.close('}');
  p.open("Compilation Unit offsets", '[');
  for (size_t i = 0; i < x.cus.size(); ++i) {
    std::string s = "CU[" + std::to_string(i) + "]: ";
    hexTo(s, x.cus[i], 8);
    p.line(s);
  }
  p.close(']');
  if (!x.local_tus.empty()) {
    p.open("Local Type Unit offsets", '[');
    for (size_t i = 0; i < x.local_tus.size(); ++i) {
      std::string s = "LocalTU[" + std::to_string(i) + "]: ";
      hexTo(s, x.local_tus[i], 8);
      p.line(s);
    }
    p.close(']');
  }
  if (!x.foreign_tus.empty()) {
    p.open("Foreign Type Unit signatures", '[');
    for (size_t i = 0; i < x.foreign_tus.size(); ++i) {
      std::string s = "ForeignTU[" + std::to_string(i) + "]: ";
      hexTo(s, x.foreign_tus[i], 16);
      p.line(s);
    }
    p.close(']');
  }
  p.open("Abbreviations", '[');
  for (const dwarf::NamesAbbrev& ab : x.abbrevs) { // in table order, which is offset order
    p.open("Abbreviation " + lowerHex(ab.code), '{');
    p.line("Tag: " + nameOr(dwarf::tagName(uint16_t(ab.tag)), "DW_TAG", ab.tag));
    for (const dwarf::NamesAttr& a : ab.attrs)
      p.line(nameOr(dwarf::indexName(a.index), "DW_IDX", a.index) + ": " +
             nameOr(dwarf::formName(uint16_t(a.form)), "DW_FORM", a.form));
    p.close('}');
  }
  p.close(']');
  if (x.bucket_count) {
    for (uint32_t b = 0; b < x.bucket_count; ++b) {
      p.open("Bucket " + std::to_string(b), '[');
      uint32_t i = x.buckets[b];
      if (i == 0) {
        p.line("EMPTY");
      } else if (i > x.name_count) {
        p.line("Name index is invalid");
      } else {
        for (; i <= x.name_count && *x.names[i - 1].hash % x.bucket_count == b; ++i)
          nameText(x, entries, x.names[i - 1], p);
      }
      p.close(']');
    }
  } else {
    p.line("Hash table not present");
    for (const dwarf::NamesName& n : x.names) nameText(x, entries, n, p);
  }
  p.close('}');
}

} // namespace

std::string dwarfNamesText(std::span<const dwarf::NameIndex> indexes) {
  std::string t;
  for (const dwarf::NameIndex& x : indexes) indexText(x, t);
  return t;
}

std::string dwarfNamesJson(std::span<const dwarf::NameIndex> indexes) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginArray();
  for (const dwarf::NameIndex& x : indexes) {
    j.beginObject();
    j.field("offset", x.offset);
    j.field("format", x.dwarf64 ? "dwarf64" : "dwarf32");
    j.field("version", unsigned(x.version));
    j.field("augmentation", x.augmentation);
    j.key("cus");
    j.beginArray();
    for (uint64_t c : x.cus) j.value(c);
    j.endArray();
    j.key("local_tus");
    j.beginArray();
    for (uint64_t c : x.local_tus) j.value(c);
    j.endArray();
    j.key("names");
    j.beginArray();
    for (const dwarf::NamesName& n : x.names) {
      j.beginObject();
      j.field("name", n.string);
      if (n.hash) j.field("hash", *n.hash);
      j.key("entries");
      j.beginArray();
      for (const dwarf::NamesEntry& e : n.entries) {
        const dwarf::NamesAbbrev& ab = x.abbrevs[e.abbrev];
        j.beginObject();
        j.field("offset", e.offset);
        j.field("tag", nameOr(dwarf::tagName(uint16_t(ab.tag)), "DW_TAG", ab.tag));
        for (size_t i = 0; i < ab.attrs.size(); ++i) {
          j.key(nameOr(dwarf::indexName(ab.attrs[i].index), "DW_IDX", ab.attrs[i].index));
          if (ab.attrs[i].form == dwarf::DW_FORM_flag_present)
            j.value(true);
          else
            j.value(e.values[i]);
        }
        j.endObject();
      }
      j.endArray();
      j.endObject();
    }
    j.endArray();
    j.endObject();
  }
  j.endArray();
  return out.take();
}

} // namespace abikit
