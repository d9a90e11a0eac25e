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

std::string LinkConflict::line() const {
  std::string s;
  for (size_t i = 0; i < files.size(); ++i) s += (i ? " vs " : "") + files[i];
  s += ": ";
  for (size_t i = 0; i < reasons.size(); ++i) s += (i ? "; " : "") + reasons[i];
  return s;
}

std::vector<LinkConflict> linkConflicts(std::span<const ElfFile* const> files) {
  std::vector<LinkConflict> out;
  if (files.empty()) return out;
  for (const ElfFile* f : files) {
    uint16_t t = f->header().type;
    if (t == kEtExec || t == kEtCore)
      out.push_back({{f->name()},
                     {std::string("cannot be linked: it is ") +
                      (t == kEtExec ? "an executable (ET_EXEC)" : "a core file (ET_CORE)")}});
  }
  const ElfFile& a = *files[0];
  for (size_t i = 1; i < files.size(); ++i) {
    const ElfFile& b = *files[i];
    LinkConflict c{{a.name(), b.name()}, {}};
    // The root cause only: different machines say it all; for the same machine a different
    // class or byte order makes the flags incomparable (an RV32 and an RV64 object have
    // different float-ABI bits for no reason of their own).
    if (a.header().machine != b.header().machine) {
      c.reasons.push_back("different machines: " + machineName(a) + " vs " + machineName(b));
      out.push_back(std::move(c));
      continue;
    }
    if (a.header().elf_class != b.header().elf_class)
      c.reasons.push_back(std::string("different ELF classes: ") +
                          (a.header().is64() ? "ELFCLASS64" : "ELFCLASS32") + " vs " +
                          (b.header().is64() ? "ELFCLASS64" : "ELFCLASS32"));
    if (a.header().data != b.header().data)
      c.reasons.push_back(std::string("different byte orders: ") +
                          (a.header().bigEndian() ? "big-endian" : "little-endian") + " vs " +
                          (b.header().bigEndian() ? "big-endian" : "little-endian"));
    if (c.reasons.empty()) {
      const ElfMachineInfo* m = a.machine();
      if (!m || !m->linkConflicts)
        throw Error::atOffset("abikit does not know e_machine " +
                                  std::to_string(a.header().machine) +
                                  ", so it cannot say whether these objects link",
                              a.name(), 18);
      m->linkConflicts(a.flagsInfo(), b.flagsInfo(), c.reasons);
    }
    if (!c.reasons.empty()) out.push_back(std::move(c));
  }
  return out;
}

} // namespace abikit
