// Can these objects be linked together? Each file against the first: class, byte order,
// e_machine, then the family's rules on the decoded e_flags (ElfMachineInfo::linkConflicts).
#include "abikit/diag.h"
#include "abikit/elf.h"

namespace abikit {

namespace {
std::string machineName(const ElfFile& f) {
  if (f.machine())
    return std::string(f.machine()->name) + " (" + std::to_string(f.header().machine) + ")";
  return "e_machine " + std::to_string(f.header().machine);
}
} // namespace

std::vector<std::string> linkConflicts(std::span<const ElfFile* const> files) {
  std::vector<std::string> out;
  if (files.empty()) return out;
  for (const ElfFile* f : files) {
    uint16_t t = f->header().type;
    if (t == kEtExec || t == kEtCore)
      out.push_back(f->name() + ": cannot be linked: it is " +
                    (t == kEtExec ? "an executable (ET_EXEC)" : "a core file (ET_CORE)"));
  }
  const ElfFile& a = *files[0];
  for (size_t i = 1; i < files.size(); ++i) {
    const ElfFile& b = *files[i];
    const std::string who = a.name() + " vs " + b.name() + ": ";
    // Different machines say it all; the class and byte order are compared for the same one.
    if (a.header().machine != b.header().machine) {
      out.push_back(who + "different machines: " + machineName(a) + " vs " + machineName(b));
      continue;
    }
    if (a.header().elf_class != b.header().elf_class)
      out.push_back(who +
                    "different ELF classes: " + (a.header().is64() ? "ELFCLASS64" : "ELFCLASS32") +
                    " vs " + (b.header().is64() ? "ELFCLASS64" : "ELFCLASS32"));
    if (a.header().data != b.header().data)
      out.push_back(who + "different byte orders: " +
                    (a.header().bigEndian() ? "big-endian" : "little-endian") + " vs " +
                    (b.header().bigEndian() ? "big-endian" : "little-endian"));
    const ElfMachineInfo* m = a.machine();
    if (!m || !m->linkConflicts)
      throw Error::atOffset("abikit does not know e_machine " + std::to_string(a.header().machine) +
                                ", so it cannot say whether these objects link",
                            a.name(), 18);
    std::vector<std::string> reasons;
    m->linkConflicts(a.flagsInfo(), b.flagsInfo(), reasons);
    for (std::string& r : reasons) out.push_back(who + r);
  }
  return out;
}

} // namespace abikit
