// `abikit dwarf --debug-frame/--eh-frame --json`: each CIE and FDE of a call-frame section with
// its fields, its instructions and its rows, the instructions and rows in the text
// llvm-dwarfdump-22 prints for them (displayCfiInstruction, displayCfiRow).
#include "abikit/dwarf_cfi.h"
#include "abikit/emit.h"
#include "json_writer.h"

#include <cstdio>

namespace abikit {

namespace {

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

} // namespace

std::string dwarfFramesJson(const Target& target, const dwarf::CfiSection& s) {
  using namespace abikit::dwarf;
  const DisplayOptions d = displayOptionsFor(target, s.format.encoding);
  abikit::detail::TextBuffer out;
  abikit::detail::JsonWriter<abikit::detail::kJsonCompact> j(out);
  j.beginObject();
  j.field("section", cfiSectionName(s.format.section));
  j.key("entries");
  j.beginArray();
  auto instructions = [&](std::span<const CfiInstruction> insns, const CfiCie& cie, bool dwarf64,
                          std::optional<uint64_t> address) {
    j.key("instructions");
    j.beginArray();
    for (const CfiInstruction& i : insns)
      j.value(displayCfiInstruction(s, i, cie, d, address, dwarf64));
    j.endArray();
  };
  auto rows = [&](const CfiTable& t, const CfiCie& cie, bool dwarf64) {
    j.key("rows");
    j.beginArray();
    t.forEachRow([&](const CfiRow& r) { j.value(displayCfiRow(s, r, cie, d, dwarf64)); });
    j.endArray();
  };
  for (const CfiEntry& e : s.entries) {
    if (e.kind == CfiEntryKind::Terminator) {
      j.beginObject();
      j.field("offset", hex(e.offset));
      j.field("kind", "terminator");
      j.endObject();
      continue;
    }
    j.beginObject();
    j.field("offset", hex(e.offset));
    if (e.kind == CfiEntryKind::Cie) {
      const CfiCie& c = s.cies[e.index];
      j.field("kind", "CIE");
      j.field("length", hex(c.length));
      j.field("format", c.dwarf64 ? "dwarf64" : "dwarf32");
      j.field("version", unsigned(c.version));
      j.field("augmentation", c.augmentation);
      if (c.understood) {
        j.field("address_size", unsigned(c.address_size));
        j.field("code_alignment_factor", c.code_alignment_factor);
        j.field("data_alignment_factor", c.data_alignment_factor);
        j.field("return_address_register", c.return_address_register);
        instructions(s.instructionsOf(c), c, c.dwarf64, std::nullopt);
        try {
          rows(buildTable(s, c, &target.dwarf), c, c.dwarf64);
        } catch (const Error& err) {
          j.field("row_error", err.message());
        }
      }
    } else {
      const CfiFde& f = s.fdes[e.index];
      const CfiCie& c = s.cieOf(f);
      j.field("kind", "FDE");
      j.field("length", hex(f.length));
      j.field("format", f.dwarf64 ? "dwarf64" : "dwarf32");
      j.field("cie", hex(c.offset));
      if (!f.opaque) {
        j.field("begin", hex(f.initial_location));
        j.field("end", hex(f.initial_location + f.address_range));
        instructions(s.instructionsOf(f), c, f.dwarf64, f.initial_location);
        try {
          rows(buildTable(s, f, &target.dwarf), c, f.dwarf64);
        } catch (const Error& err) {
          j.field("row_error", err.message());
        }
      }
    }
    j.endObject();
  }
  j.endArray();
  j.endObject();
  return out.take();
}

} // namespace abikit
