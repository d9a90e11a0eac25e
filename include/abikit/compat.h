// abikit — one header laid out on several targets (`abikit compat`): every record of each
// target's parse, matched by name, compared in size, alignment and every named member's
// position, size and bit-field width; differences reported, with notes on what is hazardous to
// share between a host and a device even where the layouts agree.
#pragma once

#include "abikit/layout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace abikit {

/// One target's view of the header: its layout engine and the records to compare (in order).
struct CompatSide {
  const LayoutEngine* layout = nullptr;
  std::vector<const RecordDecl*> records;
};

/// A named member as laid out on one side (members of anonymous members are flattened, their
/// positions taken from the outer record).
struct CompatField {
  std::string name;
  uint64_t bit_offset = 0;
  uint64_t size = 0;      // bytes of the declared type
  int32_t bit_width = -1; // -1: not a bit-field
};

struct CompatLayout {
  bool present = false; // the record exists on this side (it may be under #if)
  uint64_t size = 0;
  uint32_t align = 0;
  std::vector<CompatField> fields;
};

/// One difference. `field` is empty for the record itself. `what`: "present", "size", "align"
/// (the record); "present", "offset" (bytes), "bit_offset" (bit-fields, in bits), "size",
/// "bit_width" (a member). `values` has one entry per side: absent where the record or member
/// does not exist there ("present": the size or offset where it does).
struct CompatDifference {
  std::string field;
  std::string what;
  std::vector<std::optional<uint64_t>> values;
};

struct CompatRecord {
  std::string name;                  // "struct S", a typedef name, "struct (anonymous at f.h:3:1)"
  std::vector<CompatLayout> layouts; // one per side
  std::vector<CompatDifference> differences;
  std::vector<std::string> notes; // hazards: pointers, long double formats, transfer sizes
  bool same() const { return differences.empty(); }
};

/// Per-side values as text: "16, 12, -" (`absent` spells a missing one).
std::string compatValues(const std::vector<std::optional<uint64_t>>& values,
                         std::string_view absent = "-");

/// Compares the records of every side, in the order they first appear (the first side's order,
/// then records only later sides have).
std::vector<CompatRecord> compareLayouts(std::span<const CompatSide> sides);

} // namespace abikit
