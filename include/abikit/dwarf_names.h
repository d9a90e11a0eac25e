// abikit — DWARF 5 name indexes (.debug_names, DWARF 5 §6.1.1): each index's header, unit
// lists, abbreviations, hash table and name table, and every name's entries with their
// attribute values, read in one bounded pass. Malformed data throws abikit::Error with the
// file offset.
#pragma once

#include "abikit/dwarf_info.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::dwarf {

/// DW_IDX_* codes (abikit/dwarf_constants.def).
enum Index : uint16_t {
#define ABIKIT_DW_TAG(n, c)
#define ABIKIT_DW_AT(n, c)
#define ABIKIT_DW_FORM(n, c)
#define ABIKIT_DW_IDX(n, c) DW_IDX_##n = c,
#include "abikit/dwarf_constants.def"
};
/// "DW_IDX_parent"; empty when abikit has no name for the code.
std::string_view indexName(uint64_t idx);

struct NamesAttr {
  uint64_t index = 0; // DW_IDX_*
  uint64_t form = 0;  // DW_FORM_*
};

struct NamesAbbrev {
  uint64_t code = 0, tag = 0;
  uint64_t offset = 0; // in .debug_names
  std::vector<NamesAttr> attrs;
};

struct NamesEntry {
  uint64_t offset = 0;          // in .debug_names
  size_t abbrev = 0;            // index into NameIndex::abbrevs
  std::vector<uint64_t> values; // one per attribute of the abbreviation (flag_present: 1)
};

struct NamesName {
  uint32_t index = 0;           // 1-based, as the name table numbers names
  std::optional<uint32_t> hash; // absent when the index has no hash table
  uint64_t string_offset = 0;   // in .debug_str
  std::string_view string;
  uint64_t entry_offset = 0; // in .debug_names
  std::vector<NamesEntry> entries;
};

struct NameIndex {
  uint64_t offset = 0, end = 0;
  uint64_t length = 0; // the unit length field
  bool dwarf64 = false;
  uint16_t version = 0;
  uint32_t cu_count = 0, local_tu_count = 0, foreign_tu_count = 0, bucket_count = 0, name_count = 0,
           abbrev_table_size = 0;
  std::string augmentation;
  std::vector<uint64_t> cus, local_tus, foreign_tus;
  std::vector<NamesAbbrev> abbrevs; // in table order
  std::vector<uint32_t> buckets;    // name index of each bucket's first name (0: empty)
  std::vector<NamesName> names;     // names[i].index == i + 1
  uint64_t entries_base = 0;        // where the entry pool starts
};

/// Every name index of .debug_names.
std::vector<NameIndex> readNameIndexes(const DebugInfo& info);

} // namespace abikit::dwarf
