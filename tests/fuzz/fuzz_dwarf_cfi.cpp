// Fuzzes call frame information: the section parser, the row tables and the llvm-dwarfdump-22
// text. The first byte picks the format (.debug_frame or .eh_frame, address size, byte order,
// a section address, whether data/text bases are given, whether the AMDGPU target checks
// address spaces); the rest is the section. Every input must parse or throw CfiError; every
// table must build or throw CfiError; a row replayed alone (CfiTable::row) must equal the same
// row made incrementally (forEachRow), and rowAt() of a row's address inside the FDE's range must
// give a row at that address; printing (of sections of up to 256 instructions) must not throw.
// Anything else (a crash, another exception, a hang, an out-of-bounds access, unbounded memory) is
// a bug.
#include "abikit/dwarf_cfi.h"

#include <cstddef>
#include <cstdint>

using namespace abikit;
using namespace abikit::dwarf;

namespace {

const Target& amdgpu() {
  static const Target t = [] {
    TargetOptions o;
    o.triple = "amdgcn-amd-amdhsa";
    o.mcpu = "gfx90a";
    return resolveTarget(o);
  }();
  return t;
}

void checkTable(const CfiTable& t) {
  size_t i = 0;
  t.forEachRow([&](const CfiRow& r) {
    // A bounded sample (row() and rowAt() replay from the first row).
    if (i < 2 || i + 2 >= t.size()) {
      CfiRow alone = t.row(i);
      if (alone.address != r.address || !(alone.cfa == r.cfa) || alone.rules != r.rules)
        __builtin_trap();
      if (r.address - t.begin() < t.end() - t.begin()) {
        std::optional<CfiRow> at = t.rowAt(r.address);
        if (!at || at->address != r.address) __builtin_trap();
      }
    }
    ++i;
  });
  if (i != t.size()) __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  CfiFormat f;
  uint8_t k = data[0];
  f.section = k & 1 ? CfiSectionKind::EhFrame : CfiSectionKind::DebugFrame;
  f.address_size = k & 2 ? 4 : 8;
  f.endian = k & 4 ? Endian::Big : Endian::Little;
  if (k & 8) f.data_base = 0x20000;
  if (k & 16) f.text_base = 0x10000;
  if (k & 32) f.section_address = 0xfffffffffff00000ull;
  const DwarfTargetInfo* target = k & 64 ? &amdgpu().dwarf : nullptr;
  std::span<const uint8_t> bytes(data + 1, size - 1);
  CfiSection s;
  try {
    s = parseCfi(bytes, f);
  } catch (const CfiError&) {
    return 0;
  }
  size_t tables = 0;
  for (const CfiCie& c : s.cies) {
    if (++tables > 16) break;
    try {
      checkTable(buildTable(s, c, target));
    } catch (const CfiError&) {
    }
  }
  for (const CfiFde& fde : s.fdes) {
    if (++tables > 48) break;
    try {
      CfiTable t = buildTable(s, fde, target);
      checkTable(t);
      (void)t.rowAt(fde.initial_location);
      (void)rowForPc(s, fde.initial_location + fde.address_range / 2, target);
    } catch (const CfiError&) {
    }
  }
  // The text has a line per row with every named column: rows × columns can be quadratic in
  // the input (as llvm-dwarfdump-22's), so only sections of a few hundred instructions print.
  if (s.instructions.size() <= 256) {
    std::vector<CfiError> errors;
    DisplayOptions d = displayOptionsFor(amdgpu(), ExtEncoding::User);
    (void)displayCfi(s, d, &errors);
  }
  return 0;
}
