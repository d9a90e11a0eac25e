// Applying a relocatable object's relocations to a copy of one of its debug sections, the way
// llvm-dwarfdump reads a .o: each family says which relocation types may appear there and how
// each is applied (ElfMachineInfo::debug_relocations, DebugRelocKind). Anything else is an error
// naming the relocation, its type and the offset it patches, never a guess.
#include "abikit/elf.h"
#include "abikit/elf_target.h"

#include <cstdio>
#include <string>

namespace abikit::detail {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

struct Relocator {
  const ElfFile& file;
  const ElfRelocationTable& table;
  const ElfSection& target;
  std::vector<uint8_t>& bytes;
  bool big = false;

  std::string where(size_t i, const ElfRelocation& r) const {
    return "relocation " + std::to_string(i) + " of section [" +
           std::to_string(table.section().index) + "] '" + std::string(table.section().name) + "'";
  }
  std::string typeName(uint32_t type) const {
    const RelocationType* t = file.machine()->relocation(type);
    return t ? std::string(t->name) + " (" + std::to_string(type) + ")"
             : "relocation type " + std::to_string(type);
  }
  std::string at(const ElfRelocation& r) const {
    return "offset " + hex(r.offset) + " of " + std::string(target.name);
  }
  [[noreturn]] void fail(size_t i, const ElfRelocation& r, const std::string& what) const {
    file.fail(where(i, r) + ": " + typeName(r.type) + " at " + at(r) + ": " + what, r.entry_offset);
  }

  uint64_t load(uint64_t off, unsigned n) const {
    uint64_t v = 0;
    for (unsigned k = 0; k < n; ++k) v |= uint64_t(bytes[off + (big ? n - 1 - k : k)]) << (8 * k);
    return v;
  }
  void store(uint64_t off, unsigned n, uint64_t v) {
    for (unsigned k = 0; k < n; ++k) bytes[off + (big ? n - 1 - k : k)] = uint8_t(v >> (8 * k));
  }

  // S: the symbol's value plus the address of its section (llvm's getSymbolAddress in an
  // ET_REL file; 0 in a .o), 0 for symbol 0.
  uint64_t symbolValue(const ElfRelocation& r) const {
    if (r.symbol == 0) return 0;
    const ElfSymbol s = table.symbols()[r.symbol];
    uint64_t v = s.value;
    if (s.shndx != 0 && s.shndx < kShnLoReserve && s.shndx < file.sections().size())
      v += file.sections()[s.shndx].addr;
    return v;
  }

  // The ULEB128 at `off`: its value and length (at most 10 bytes, inside the section).
  uint64_t uleb(size_t i, const ElfRelocation& r, unsigned& len) const {
    uint64_t v = 0;
    for (len = 0; len < 10; ++len) {
      if (r.offset + len >= bytes.size())
        fail(i, r, "the ULEB128 there runs past the end of the section");
      const uint8_t b = bytes[r.offset + len];
      if (len == 9 && (b & 0x7f) > 1) fail(i, r, "the ULEB128 there is wider than 64 bits");
      v |= uint64_t(b & 0x7f) << (7 * len);
      if (!(b & 0x80)) {
        ++len;
        return v;
      }
    }
    fail(i, r, "the ULEB128 there is longer than 10 bytes");
  }

  void run() {
    const size_t n = table.size();
    for (size_t i = 0; i < n; ++i) {
      const ElfRelocation r = table[i];
      const DebugRelocation* d = file.machine()->debugRelocation(r.type);
      const RelocationType* t = file.machine()->relocation(r.type);
      if (!d || !t)
        fail(i, r,
             std::string(t ? "not a relocation abikit applies in a debug section"
                           : "unknown to abikit for " + std::string(file.machine()->name)));
      if (d->kind == DebugRelocKind::Ignore) continue;
      const uint64_t size = bytes.size();
      if (r.offset >= size) fail(i, r, "outside the section (" + hex(size) + " bytes)");
      const uint64_t s = symbolValue(r);
      if (d->kind == DebugRelocKind::SetUleb128 || d->kind == DebugRelocKind::SubUleb128) {
        if (d->kind == DebugRelocKind::SubUleb128)
          fail(i, r, "no SET_ULEB128 relocation at the same offset precedes it");
        const ElfRelocation sub = i + 1 < n ? table[i + 1] : ElfRelocation{};
        const DebugRelocation* ds = i + 1 < n ? file.machine()->debugRelocation(sub.type) : nullptr;
        if (!ds || ds->kind != DebugRelocKind::SubUleb128 || sub.offset != r.offset)
          fail(i, r, "not followed by its SUB_ULEB128 relocation at the same offset");
        unsigned len = 0;
        (void)uleb(i, r, len);
        const uint64_t v = (s + uint64_t(r.addend)) - (symbolValue(sub) + uint64_t(sub.addend));
        if (len < 10 && (v >> (7 * len)) != 0)
          fail(i, r,
               "the difference " + hex(v) + " does not fit the " + std::to_string(len) +
                   "-byte ULEB128 there");
        for (unsigned k = 0; k < len; ++k)
          bytes[r.offset + k] = uint8_t(((v >> (7 * k)) & 0x7f) | (k + 1 < len ? 0x80 : 0));
        ++i; // the SUB_ULEB128 is applied with its SET
        continue;
      }
      const unsigned w = t->size;
      if (w == 0 || w > 8 || size - r.offset < w)
        fail(i, r,
             "its " + std::to_string(w) + "-byte field does not fit in the section (" + hex(size) +
                 " bytes)");
      const uint64_t field = load(r.offset, w);
      // REL: the field holds the addend of the kinds that overwrite it.
      const uint64_t a = table.rela() ? uint64_t(r.addend) : 0;
      const uint64_t implicit = table.rela() ? 0 : field;
      const uint64_t mask = w == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * w)) - 1;
      uint64_t v = 0;
      switch (d->kind) {
      case DebugRelocKind::Absolute:
      case DebugRelocKind::PcRelative: {
        v = s + a + implicit;
        if (d->kind == DebugRelocKind::PcRelative) v -= target.addr + r.offset;
        const bool fits_unsigned = (v & ~mask) == 0;
        const bool fits_signed =
            w == 8 || (int64_t(v) >= -int64_t(uint64_t(1) << (8 * w - 1)) && int64_t(v) < 0);
        if (!fits_unsigned && !fits_signed)
          fail(i, r, "the value " + hex(v) + " does not fit its " + std::to_string(w) + " bytes");
        break;
      }
      case DebugRelocKind::Set:
        v = s + a + implicit;
        break;
      case DebugRelocKind::High32:
        v = (s + a + implicit) >> 32;
        break;
      case DebugRelocKind::Add:
        v = field + s + a;
        break;
      case DebugRelocKind::Sub:
        v = field - s - a;
        break;
      case DebugRelocKind::Set6:
        v = (field & 0xc0) | ((s + a + (implicit & 0x3f)) & 0x3f);
        break;
      case DebugRelocKind::Sub6:
        v = (field & 0xc0) | ((field - s - a) & 0x3f);
        break;
      default:
        fail(i, r, "not a relocation abikit applies in a debug section");
      }
      store(r.offset, w, v & mask);
    }
  }
};

} // namespace

void applyDebugRelocations(const ElfFile& file, const ElfRelocationTable& table,
                           std::vector<uint8_t>& bytes) {
  if (!file.machine())
    file.fail("relocatable object: e_machine " + std::to_string(file.header().machine) +
                  " is no machine abikit knows the relocations of, so the relocations in " +
                  std::string(table.section().name) + " cannot be applied",
              table.section().header_offset);
  Relocator{file, table, *table.target(), bytes, file.header().bigEndian()}.run();
}

} // namespace abikit::detail
