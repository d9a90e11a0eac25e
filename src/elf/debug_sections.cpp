// The debug sections of an ELF file, for the DWARF reader (abikit/dwarf_info.h).
#include "abikit/dwarf_info.h"
#include "abikit/elf.h"
#include "abikit/elf_target.h"

#include <memory>
#include <vector>

namespace abikit {

namespace detail {
// debug_relocate.cpp: applies `table` to `bytes`, a copy of its target section.
void applyDebugRelocations(const ElfFile& file, const ElfRelocationTable& table,
                           std::vector<uint8_t>& bytes);
} // namespace detail

dwarf::DebugSections debugSections(const ElfFile& file) {
  dwarf::DebugSections s;
  s.file = file.name();
  s.endian = file.header().bigEndian() ? Endian::Big : Endian::Little;
  struct Want {
    std::string_view name;
    dwarf::SectionBytes dwarf::DebugSections::*slot;
  };
  static constexpr Want kWant[] = {
      {".debug_info", &dwarf::DebugSections::info},
      {".debug_abbrev", &dwarf::DebugSections::abbrev},
      {".debug_str", &dwarf::DebugSections::str},
      {".debug_line_str", &dwarf::DebugSections::line_str},
      {".debug_str_offsets", &dwarf::DebugSections::str_offsets},
      {".debug_addr", &dwarf::DebugSections::addr},
      {".debug_loclists", &dwarf::DebugSections::loclists},
      {".debug_loc", &dwarf::DebugSections::loc},
      {".debug_rnglists", &dwarf::DebugSections::rnglists},
      {".debug_ranges", &dwarf::DebugSections::ranges},
      {".debug_line", &dwarf::DebugSections::line},
      {".debug_frame", &dwarf::DebugSections::frame},
      {".eh_frame", &dwarf::DebugSections::eh_frame},
      {".debug_names", &dwarf::DebugSections::names},
  };
  for (const Want& w : kWant) {
    const ElfSection* sec = file.findSection(w.name);
    if (!sec || !sec->hasContents()) continue;
    if (sec->flags & kShfCompressed)
      file.fail(std::string(w.name) + " is compressed (SHF_COMPRESSED): abikit does not "
                                      "decompress debug sections; `llvm-objcopy "
                                      "--decompress-debug-sections` first",
                sec->header_offset);
    (s.*w.slot) = {file.contents(*sec), sec->offset, sec->addr};
  }
  // A relocatable object's debug sections are complete only once relocated: the sections that
  // carry relocations are copied and patched (as llvm-dwarfdump reads a .o).
  if (file.header().type == kEtRel)
    for (const ElfRelocationTable& t : file.relocationTables()) {
      const ElfSection* target = t.target();
      if (!target || t.size() == 0 || !target->name.starts_with(".debug_")) continue;
      const Want* w = nullptr;
      for (const Want& x : kWant)
        if (x.name == target->name && file.findSection(x.name) == target) w = &x;
      if (!w || !target->hasContents()) continue; // a section the reader does not read
      dwarf::SectionBytes& slot = s.*w->slot;
      std::vector<uint8_t> bytes(slot.bytes.begin(), slot.bytes.end());
      detail::applyDebugRelocations(file, t, bytes);
      auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
      slot.bytes = std::span<const uint8_t>(*owned);
      s.owned.push_back(std::move(owned));
    }
  return s;
}

std::string llvmFileFormat(const ElfFile& file) {
  const ElfMachineInfo* m = file.machine();
  std::string_view arch = m && !m->llvm_format.empty() ? m->llvm_format : "unknown";
  return std::string(file.header().is64() ? "elf64-" : "elf32-") + std::string(arch);
}

Target elfTarget(const ElfFile& file) {
  const ElfFlagsInfo& f = file.flagsInfo();
  if (!file.machine() || f.target.empty())
    file.fail("e_machine " + std::to_string(file.header().machine) +
                  " is no machine abikit has a target for",
              18);
  TargetOptions o;
  o.triple = f.target;
  o.mcpu = f.processor;
  o.mabi = std::string(f.property("abi"));
  return resolveTarget(o);
}

} // namespace abikit
