// libFuzzer target over the debug-information reader: whole ELF files (the bytes are the file),
// their DWARF units, DIEs and attributes, location and range lists, the --debug-info dumps (text
// and JSON), and the variables in scope at the start of every function. Anything but an
// abikit::Error escaping, a crash, a hang or an out-of-bounds access (ASan/UBSan) is a bug.
#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_info.h"
#include "abikit/dwarf_line.h"
#include "abikit/dwarf_names.h"
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace abikit;
  try {
    ElfFile f = ElfFile::fromMemory("fuzz.elf", {data, size});
    std::optional<Target> target; // the register names and address-space markers, if known
    try {
      target = elfTarget(f);
    } catch (const Error&) {
    }
    dwarf::DebugInfo info(debugSections(f));
    std::vector<dwarf::AttrValue> attrs;
    std::vector<dwarf::PcRange> ranges;
    std::vector<uint64_t> starts;
    size_t visited = 0;
    for (const dwarf::Unit& u : info.units())
      for (const dwarf::Die& d : u.dies) {
        if (++visited > 4096) break;
        try {
          info.attributes(u, d, attrs);
          info.pcRanges(u, d, ranges);
          if (d.tag == dwarf::DW_TAG_subprogram && !ranges.empty() && starts.size() < 16)
            starts.push_back(ranges[0].begin);
          (void)info.name(u, d);
          if (auto t = info.attribute(u, d, dwarf::DW_AT_type);
              t && t->kind == dwarf::AttrValue::Kind::Reference) {
            (void)info.typeName(t->u);
            (void)info.typeSize(t->u);
          }
        } catch (const Error&) {
        }
      }
    if (target && visited <= 4096) { // the dumps, over every DIE
      try {
        (void)dwarfInfoText(*target, info, DwarfDumpOptions{});
        (void)dwarfInfoJson(*target, info, DwarfDumpOptions{});
      } catch (const Error&) {
      }
    }
    try { // the line tables and their dumps
      const std::vector<dwarf::LineTable> tables = dwarf::readLineTables(info);
      (void)dwarfLineText(tables);
      (void)dwarfLineJson(tables);
    } catch (const Error&) {
    }
    try { // the name indexes and their dumps
      const std::vector<dwarf::NameIndex> indexes = dwarf::readNameIndexes(info);
      (void)dwarfNamesText(indexes);
      (void)dwarfNamesJson(indexes);
    } catch (const Error&) {
    }
    dwarf::Expression e;
    for (uint64_t pc : starts) {
      try {
        dwarf::VariablesAt at = dwarf::variablesAt(info, pc);
        if (!at.found) continue;
        const dwarf::ExprFormat fmt = dwarf::exprFormat(*at.unit, info.sections().endian);
        for (const dwarf::VariableAt& v : at.variables)
          if (v.kind == dwarf::VariableAt::Kind::Expression) {
            try {
              dwarf::decode(v.expression, fmt, e);
              (void)dwarf::places(e, target ? &target->dwarf : nullptr);
            } catch (const Error&) {
            }
          }
      } catch (const Error&) {
      }
    }
  } catch (const Error&) {
  }
  return 0;
}
