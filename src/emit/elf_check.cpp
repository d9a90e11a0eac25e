// checkElfView(): everything the `abikit elf` writers read, read once before anything is
// written, so that a document can be streamed out and never stops part-way on a bad input. The
// order of the reads is the writers' order (elf_text.cpp, elf_json.cpp), so that the error a bad
// file gets is the one it got when the whole document was built first.
#include "abikit/elf.h"
#include "abikit/emit.h"

#include <unordered_map>
#include <vector>

namespace abikit {

namespace {

// The reads of a relocation's symbol are remembered per symbol table: 4,000 relocation sections
// over one table decode each symbol they name once, not once per relocation.
class SymbolsSeen {
public:
  /// The symbols of `t` already read.
  std::vector<bool>& of(const ElfSymbolTable& t) {
    std::vector<bool>& seen = seen_[t.section().index];
    if (seen.empty()) seen.resize(t.size());
    return seen;
  }

private:
  std::unordered_map<uint32_t, std::vector<bool>> seen_;
};

// The section's contents lie in the file (contents() cannot throw for it).
bool contentsInFile(const ElfFile& f, const ElfSection& s) {
  if (!s.hasContents() || s.size == 0) return true;
  uint64_t total = f.bytes().size();
  return s.offset <= total && s.size <= total - s.offset;
}

} // namespace

void checkElfView(const ElfFile& f, const ElfViewOptions& options) {
  for (const ElfSection& s : f.sections())
    if (s.type == kShtRiscvAttributes && f.header().machine == kEmRiscv)
      (void)parseRiscvAttributes(f, s);
  if (options.symbols)
    for (const ElfSymbolTable& t : f.symbolTables())
      for (size_t i = 0; i < t.size(); ++i) (void)amdgpuKernelDescriptorFor(f, t[i]);
  if (options.relocs) {
    SymbolsSeen seen;
    for (const ElfRelocationTable& t : f.relocationTables()) {
      // relocationPatch() reads the target's contents: only a target outside the file can make
      // it throw, and then it is asked for each relocation, as the writers do.
      const bool target_ok = !t.target() || contentsInFile(f, *t.target());
      uint32_t last_type = ~0u;
      const RelocationType* rel = nullptr;
      std::vector<bool>* symbols = t.size() && t.symbols().size() ? &seen.of(t.symbols()) : nullptr;
      for (size_t i = 0; i < t.size(); ++i) {
        ElfRelocation r = t[i];
        if (r.type != last_type) {
          last_type = r.type;
          rel = elfRelocationType(f, r.type);
        }
        // t[i] checked that r.symbol is an entry of t.symbols().
        if (r.symbol && !(*symbols)[r.symbol]) {
          (void)t.symbols()[r.symbol];
          (*symbols)[r.symbol] = true;
        }
        if (!target_ok && rel && !rel->moves.empty()) (void)relocationPatch(f, t, r);
      }
    }
  }
  if (options.notes)
    for (const ElfNote& n : f.notes()) (void)decodeNote(f, n);
}

} // namespace abikit
