// The location model of the evaluator (reference dwarf.md §2.1, §2.6, §2.7): storages, offsets,
// composites in canonical form, and reading and writing through a location.
#include "eval_internal.h"

#include <algorithm>
#include <cstring>

namespace abikit::dwarf {

namespace {

constexpr BitOffset kLargestComposite = BitOffset(1) << 67; // 2^64 bytes of memory, in bits

} // namespace

std::string hex(BitOffset v) {
  static const char kHex[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), kHex[unsigned(v & 15)]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

/// Copies `n` bits from bit `sbit` of `src` to bit `dbit` of `dst` (least significant first).
void copyBits(uint8_t* dst, uint64_t dbit, const uint8_t* src, uint64_t sbit, uint64_t n) {
  if (dbit % 8 == 0 && sbit % 8 == 0) {
    std::memcpy(dst + dbit / 8, src + sbit / 8, n / 8);
    dbit += n / 8 * 8;
    sbit += n / 8 * 8;
    n %= 8;
  }
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t s = sbit + i, d = dbit + i;
    unsigned b = (src[s / 8] >> (s % 8)) & 1;
    dst[d / 8] = uint8_t((dst[d / 8] & ~(1u << (d % 8))) | (b << (d % 8)));
  }
}

Evaluator::Impl::Impl(const Target& t, Machine& m, DieResolver* d)
    : target(t), info(t.dwarf), machine(m), dies(d) {
  opts.format.address_size = uint8_t(t.data.pointer.size ? t.data.pointer.size : 8);
  storages_.resize(16);
  reset();
}

void Evaluator::Impl::reset() {
  nstorages_ = 1;
  keyed_.clear();
  parts_ = 0;
  storages_[0] = Storage{};
  bytes_.clear();
  types_.clear();
  types_.push_back(BaseType{0, unsigned(opts.format.address_size) * 8, kGenericEncoding, 1});
  results_.clear();
  frame_base_.reset();
  object_.reset();
  cfa_.reset();
}

// Evaluation always ends in bounded memory: at most this many storages, composite parts and
// bytes of implicit values (a loop that makes an implicit value per iteration stops here).
constexpr size_t kMaxStorages = size_t(1) << 20, kMaxParts = size_t(1) << 20,
                 kMaxBytes = size_t(1) << 26;

void Evaluator::Impl::charge(size_t bytes, size_t parts) {
  if (bytes > kMaxBytes - std::min(kMaxBytes, bytes_.size()) || parts > kMaxParts - parts_)
    evalError("the evaluation needs more than " +
              std::string(parts ? "2^20 composite parts" : "64 MiB of implicit values"));
  parts_ += parts;
}

uint32_t Evaluator::Impl::keyed(uint64_t key) const {
  auto it = std::lower_bound(keyed_.begin(), keyed_.end(), std::pair<uint64_t, uint32_t>{key, 0});
  return it != keyed_.end() && it->first == key ? it->second : 0;
}

void Evaluator::Impl::addKey(uint64_t key, uint32_t id) {
  keyed_.insert(
      std::lower_bound(keyed_.begin(), keyed_.end(), std::pair<uint64_t, uint32_t>{key, 0}),
      {key, id});
}

uint32_t Evaluator::Impl::newStorage(StorageKind k) {
  if (nstorages_ == kMaxStorages) evalError("the evaluation makes more than 2^20 locations");
  if (nstorages_ == storages_.size()) storages_.resize(storages_.size() * 2);
  Storage& s = storages_[nstorages_];
  s.kind = k;
  s.space = s.lane = s.reg = 0;
  s.size = 0;
  s.die = 0;
  s.displacement = 0;
  s.parts.clear();
  s.complete = false;
  return uint32_t(nstorages_++);
}

const DwarfAddressSpace* Evaluator::Impl::space(uint32_t id) const {
  return info.findSpace(id);
}

unsigned Evaluator::Impl::addressBits(uint32_t id) const {
  if (const DwarfAddressSpace* s = space(id)) return s->address_bits;
  return unsigned(opts.format.address_size) * 8; // a target with no table: the default space
}

uint32_t Evaluator::Impl::lanes() const {
  return opts.lanes ? opts.lanes : info.lanes;
}

// Memory storages are identified by (address space, lane binding): one storage each, so that
// canonical composites merge adjacent parts of the same memory.
// Sorted by key; their number is bounded by the target's spaces, lanes and registers.
uint32_t Evaluator::Impl::memory(uint32_t sp, uint32_t lane) {
  const uint64_t key = uint64_t(sp) << 32 | lane;
  if (uint32_t id = keyed(key)) return id;
  uint32_t id = newStorage(StorageKind::Memory);
  addKey(key, id);
  storages_[id].space = sp;
  storages_[id].lane = lane;
  storages_[id].size = (BitOffset(1) << addressBits(sp)) * 8;
  return id;
}

const DwarfRegisterRange* Evaluator::Impl::registerRange(uint32_t reg) const {
  return info.findRegister(reg);
}

uint32_t Evaluator::Impl::registerBits(uint32_t reg) {
  const DwarfRegisterRange* r = registerRange(reg);
  if (!r) {
    if (info.registers.empty())
      illFormed("DWARF register " + std::to_string(reg) +
                ": abikit has no DWARF register table "
                "for " +
                target.triple);
    illFormed("DWARF register " + std::to_string(reg) + " is not a register of " + target.triple +
              (info.lanes > 1 ? " in wave" + std::to_string(lanes()) + " code" : ""));
  }
  uint32_t bits = r->bits ? r->bits : machine.registerBits(reg);
  if (!bits)
    evalError("the size of DWARF register " + std::to_string(reg) +
              " is not fixed by the target and the machine state does not give it");
  return bits;
}

uint32_t Evaluator::Impl::registerStorage(uint32_t reg) {
  uint32_t bits = registerBits(reg);
  const uint64_t key = uint64_t(1) << 63 | reg;
  if (uint32_t id = keyed(key)) return id;
  uint32_t id = newStorage(StorageKind::Register);
  addKey(key, id);
  storages_[id].reg = reg;
  storages_[id].size = bits;
  return id;
}

uint32_t Evaluator::Impl::implicit(const uint8_t* data, uint64_t bits) {
  charge(size_t((bits + 7) / 8), 0);
  size_t at = bytes_.size();
  bytes_.insert(bytes_.end(), data, data + (bits + 7) / 8);
  uint32_t id = newStorage(StorageKind::Implicit);
  storages_[id].bytes_at = at;
  storages_[id].size = bits;
  return id;
}

uint32_t Evaluator::Impl::implicitPointer(uint64_t die, int64_t disp, uint32_t sp) {
  uint32_t id = newStorage(StorageKind::ImplicitPointer);
  storages_[id].die = die;
  storages_[id].displacement = disp;
  storages_[id].space = sp;
  storages_[id].size = addressBits(sp);
  return id;
}

uint32_t Evaluator::Impl::composite() {
  return newStorage(StorageKind::Composite);
}

// A composite's size is the sum of its parts, kept up to date by appendPart().
BitOffset Evaluator::Impl::sizeOf(uint32_t id) const {
  return storages_[id].size;
}

bool Evaluator::Impl::isIncomplete(const Entry& e) const {
  return e.kind == Entry::Loc && storages_[e.storage].kind == StorageKind::Composite &&
         !storages_[e.storage].complete;
}

Location Evaluator::Impl::offsetBy(const Location& l, SignedBits d) const {
  if (l.storage == 0) return l; // undefined: offsets leave it unchanged
  SignedBits o = SignedBits(l.offset) + d;
  BitOffset size = sizeOf(l.storage);
  if (o < 0 || BitOffset(o) >= size)
    evalError("the offset moves the location to bit " +
              (o < 0 ? "-" + hex(BitOffset(-o)) : hex(BitOffset(o))) + ", outside its storage of " +
              hex(size) + " bits");
  return {l.storage, BitOffset(o)};
}

void Evaluator::Impl::checkPart(const Location& l, BitOffset bits) const {
  if (l.storage == 0) return; // undefined parts may have any size
  BitOffset size = sizeOf(l.storage);
  if (l.offset > size || bits > size - l.offset)
    illFormed("a piece of " + hex(bits) + " bits at bit " + hex(l.offset) +
              " does not fit its storage of " + hex(size) + " bits");
}

// Appends a part to a composite in canonical form (reference dwarf.md §2.7): parts of a
// composite are replaced by the slice of its parts they cover, zero-size parts are dropped, and
// a part that continues the previous one (same storage, adjacent bits; or both undefined) merges.
void Evaluator::Impl::appendPart(uint32_t c, const Part& p) {
  if (p.bits == 0) return;
  if (p.storage != 0 && storages_[p.storage].kind == StorageKind::Composite) {
    BitOffset at = 0, lo = p.offset, hi = p.offset + p.bits;
    const size_t n = storages_[p.storage].parts.size();
    for (size_t i = 0; i < n && at < hi; ++i) {
      const Part q = storages_[p.storage].parts[i]; // (a copy: parts may reallocate)
      BitOffset b = std::max(at, lo), e = std::min(at + q.bits, hi);
      if (b < e) appendPart(c, {q.storage, q.storage ? q.offset + (b - at) : 0, e - b});
      at += q.bits;
    }
    return;
  }
  std::vector<Part>& parts = storages_[c].parts;
  BitOffset& total = storages_[c].size;
  if (p.bits > kLargestComposite - total)
    illFormed("the composite location would be larger than 2^64 bytes");
  total += p.bits;
  if (!parts.empty()) {
    Part& last = parts.back();
    if (last.storage == p.storage && (p.storage == 0 || last.offset + last.bits == p.offset)) {
      last.bits += p.bits;
      return;
    }
  }
  charge(0, 1);
  parts.push_back({p.storage, p.storage ? p.offset : 0, p.bits});
}

void Evaluator::Impl::segments(const Location& l, uint64_t bits, std::vector<Segment>& out) const {
  out.clear();
  if (bits == 0) return;
  const Storage& s = storages_[l.storage];
  if (s.kind == StorageKind::Undefined) evalError("the location is undefined");
  BitOffset size = sizeOf(l.storage);
  if (l.offset > size || bits > size - l.offset)
    evalError("accessing " + std::to_string(bits) + " bits at bit " + hex(l.offset) +
              " goes past the end of its storage of " + hex(size) + " bits");
  if (s.kind != StorageKind::Composite) {
    out.push_back({l.storage, l.offset, bits});
    return;
  }
  BitOffset at = 0, lo = l.offset, hi = l.offset + bits;
  for (const Part& q : s.parts) {
    if (at >= hi) break;
    BitOffset b = std::max(at, lo), e = std::min(at + q.bits, hi);
    if (b < e) {
      if (q.storage == 0) evalError("bits " + hex(b) + ".." + hex(e - 1) + " are undefined");
      out.push_back({q.storage, q.offset + (b - at), uint64_t(e - b)});
    }
    at += q.bits;
  }
}

namespace {

// One memory byte after the target's mapping.
struct Physical {
  uint32_t space;
  uint64_t address;
};

} // namespace

// Reads the bytes [first, first + n) of a storage (memory: through the target's mapping).
void Evaluator::Impl::storageBytes(const Storage& s, uint64_t first, size_t n, uint8_t* out) {
  Impl& ev = *this;
  switch (s.kind) {
  case StorageKind::Memory: {
    uint32_t lanes = ev.lanes();
    size_t i = 0;
    while (i < n) {
      Physical p{s.space, first + i};
      if (ev.info.map) {
        DwarfPhysicalByte b;
        if (!ev.info.map(s.space, first + i, s.lane, lanes, ev.opts.apertures, b))
          ev.evalError("address " + hex(first + i) + " of address space " +
                       std::to_string(s.space) + " maps to no memory");
        p = {b.space, b.address};
      }
      // Extend the run while the next bytes map to the next physical bytes.
      size_t run = 1;
      while (i + run < n) {
        DwarfPhysicalByte b{s.space, first + i + run};
        if (ev.info.map &&
            !ev.info.map(s.space, first + i + run, s.lane, lanes, ev.opts.apertures, b))
          break;
        if (b.space != p.space || b.address != p.address + run) break;
        ++run;
      }
      if (!ev.machine.readMemory(p.space, p.address, {out + i, run}))
        ev.evalError("memory at " + hex(p.address) + " (address space " + std::to_string(p.space) +
                     ", " + std::to_string(run) + " bytes) is not available");
      i += run;
    }
    return;
  }
  case StorageKind::Register:
    if (!ev.machine.readRegister(s.reg, first, {out, n}))
      ev.evalError("DWARF register " + std::to_string(s.reg) + " (bytes " + std::to_string(first) +
                   ".." + std::to_string(first + n - 1) + ") is not available");
    return;
  case StorageKind::Implicit:
    std::memcpy(out, ev.bytes_.data() + s.bytes_at + first, n);
    return;
  case StorageKind::ImplicitPointer:
    ev.evalError("an implicit pointer can only be dereferenced whole");
  case StorageKind::Undefined:
  case StorageKind::Composite:
    ev.evalError("the location is undefined");
  }
}

void Evaluator::Impl::readSegments(std::span<const Segment> segs, uint8_t* out) {
  uint64_t at = 0;
  std::vector<uint8_t>& tmp = scratch_;
  for (const Segment& g : segs) {
    const Storage& s = storages_[g.storage];
    uint64_t first = uint64_t(g.offset / 8), shift = uint64_t(g.offset % 8);
    size_t n = size_t((shift + g.bits + 7) / 8);
    tmp.resize(n);
    storageBytes(s, first, n, tmp.data());
    copyBits(out, at, tmp.data(), shift, g.bits);
    at += g.bits;
  }
}

void Evaluator::Impl::writeBits(const Location& l, uint64_t bits, const uint8_t* in) {
  segments(l, bits, segs_);
  // Check every affected storage and read the bytes a partial write keeps, before changing
  // anything; then write.
  std::vector<std::vector<uint8_t>> old(segs_.size());
  for (size_t i = 0; i < segs_.size(); ++i) {
    const Segment& g = segs_[i];
    const Storage& s = storages_[g.storage];
    if (s.kind != StorageKind::Memory && s.kind != StorageKind::Register)
      evalError(std::string("cannot write to ") +
                (s.kind == StorageKind::Implicit ? "an implicit value" : "an implicit pointer"));
    uint64_t first = uint64_t(g.offset / 8), shift = uint64_t(g.offset % 8);
    old[i].resize(size_t((shift + g.bits + 7) / 8));
    storageBytes(s, first, old[i].size(), old[i].data());
  }
  uint64_t at = 0;
  for (size_t i = 0; i < segs_.size(); ++i) {
    const Segment& g = segs_[i];
    const Storage& s = storages_[g.storage];
    uint64_t first = uint64_t(g.offset / 8), shift = uint64_t(g.offset % 8);
    copyBits(old[i].data(), shift, in, at, g.bits);
    at += g.bits;
    bool ok = true;
    if (s.kind == StorageKind::Register) {
      ok = machine.writeRegister(s.reg, first, old[i]);
    } else {
      for (size_t b = 0; b < old[i].size() && ok; ++b) {
        DwarfPhysicalByte p{s.space, first + b};
        if (info.map) info.map(s.space, first + b, s.lane, lanes(), opts.apertures, p);
        ok = machine.writeMemory(p.space, p.address, {&old[i][b], 1});
      }
    }
    if (!ok) evalError("the machine refused the write");
  }
}

LocationInfo Evaluator::Impl::describe(const Location& l) const {
  LocationInfo d;
  const Storage& s = storages_[l.storage];
  d.kind = s.kind;
  d.offset = l.offset;
  switch (s.kind) {
  case StorageKind::Undefined:
    d.offset = 0;
    break;
  case StorageKind::Memory:
    d.space = s.space;
    d.lane = s.lane;
    break;
  case StorageKind::Register:
    d.reg = s.reg;
    break;
  case StorageKind::Implicit:
    d.bytes.assign(bytes_.begin() + ptrdiff_t(s.bytes_at),
                   bytes_.begin() + ptrdiff_t(s.bytes_at + size_t((s.size + 7) / 8)));
    d.implicit_bits = uint64_t(s.size);
    break;
  case StorageKind::ImplicitPointer:
    d.die = s.die;
    d.displacement = s.displacement;
    d.space = s.space;
    break;
  case StorageKind::Composite:
    for (const Part& p : s.parts)
      d.parts.push_back(LocationPart{p.bits, describe({p.storage, p.offset})});
    break;
  }
  return d;
}

} // namespace abikit::dwarf
