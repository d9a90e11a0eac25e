// clang-14's IR types on amdgcn (see amdgpu_ir.h for the rules and their sources).
#include "amdgpu_ir.h"

#include <algorithm>

namespace abikit::detail::amdgpu {
namespace {

// More leaves than this (one VGPR or stack slot each) is a value no real call passes; a record
// with a huge explicit alignment would otherwise make millions of padding bytes.
constexpr size_t kMaxLeaves = 1u << 16;

[[noreturn]] void fail(std::string message) {
  throw Error(ErrorKind::Unsupported, std::move(message));
}

uint64_t alignUp(uint64_t v, uint64_t a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

uint64_t pow2Ceil(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

const ArrayType* asArray(const Type* t) {
  return dyn<ArrayType>(stripTypedefs(t));
}

const RecordDecl* asRecord(const Type* t) {
  auto* rt = dyn<RecordType>(stripTypedefs(t));
  return rt ? rt->decl : nullptr;
}

// isEmptyField(FD, AllowArrays = true) for C.
bool isEmptyField(const FieldDecl& fd) {
  if (fd.isUnnamedBitField()) return true;
  if (fd.isBitField()) return false;
  const Type* ft = fd.type;
  while (const ArrayType* at = asArray(ft)) {
    if (at->incomplete) return false;
    if (at->count == 0) return true;
    ft = at->element;
  }
  return asRecord(ft) && isEmptyRecord(ft);
}

} // namespace

// ----- record predicates
// --------------------------------------------------------------------------

const Type* passedType(const Type* t) {
  if (const RecordDecl* rd = asRecord(t))
    if (rd->is_union && rd->transparent_union && !rd->fields.empty())
      return rd->fields.front().type;
  return t;
}

bool hasFlexibleArray(const Type* t) {
  const RecordDecl* rd = asRecord(t);
  if (!rd) return false;
  for (size_t i = 0; i < rd->fields.size(); ++i) {
    const FieldDecl& fd = rd->fields[i];
    if (fd.isBitField()) continue;
    const ArrayType* at = asArray(fd.type);
    if (at && at->incomplete && i + 1 == rd->fields.size()) return true;
    if (asRecord(fd.type) && hasFlexibleArray(fd.type)) return true;
  }
  return false;
}

bool isEmptyRecord(const Type* t) {
  const RecordDecl* rd = asRecord(t);
  if (!rd || hasFlexibleArray(t)) return false;
  for (const FieldDecl& fd : rd->fields)
    if (!isEmptyField(fd)) return false;
  return true;
}

const Type* singleElement(const LayoutEngine& layout, const Type* t) {
  const RecordDecl* rd = asRecord(t);
  if (!rd || hasFlexibleArray(t)) return nullptr;
  const Type* found = nullptr;
  for (const FieldDecl& fd : rd->fields) {
    if (isEmptyField(fd)) continue;
    if (found) return nullptr;
    const Type* ft = fd.type;
    while (const ArrayType* at = asArray(ft)) {
      if (at->incomplete || at->count != 1) break;
      ft = at->element;
    }
    if (!isAggregate(ft)) {
      found = ft;
    } else {
      found = singleElement(layout, ft);
      if (!found) return nullptr;
    }
  }
  if (found && layout.of(found).size != layout.of(t).size) return nullptr;
  return found;
}

uint64_t numRegsForType(const LayoutEngine& layout, const Type* t) {
  const Type* c = stripTypedefs(t);
  if (auto* vt = dyn<VectorType>(c)) {
    uint64_t elt_bits = layout.of(vt->element).size * 8;
    if (elt_bits == 16) return (uint64_t(vt->count) + 1) / 2;
    return (elt_bits + 31) / 32 * vt->count;
  }
  if (const RecordDecl* rd = asRecord(c)) {
    uint64_t n = 0;
    for (const FieldDecl& fd : rd->fields) n += numRegsForType(layout, fd.type);
    return n;
  }
  if (const ArrayType* at = asArray(c); at && at->incomplete) return 0;
  if (auto* ot = dyn<OpenCLType>(c)) return (IrTypes::openclPointer(ot->okind).second + 31) / 32;
  return (layout.of(c).size * 8 + 31) / 32;
}

// ----- DataLayout -----------------------------------------------------------------------------

uint32_t IrTypes::pointerBits(uint32_t address_space) {
  switch (address_space) {
  case 0: // generic
  case 1: // global
  case 4: // constant
    return 64;
  case 3: // local
  case 5: // private
    return 32;
  default: // 2 and 6: 8 bytes in clang's C, 32 bits in LLVM's DataLayout; 7+: experimental
    return 0;
  }
}

std::pair<uint32_t, uint32_t> IrTypes::openclPointer(OpenCLKind k) {
  switch (k) {
  case OpenCLKind::Sampler:
    return {4, 64};
  case OpenCLKind::Event:
    return {5, 32};
  case OpenCLKind::ClkEvent:
  case OpenCLKind::Queue:
  case OpenCLKind::ReserveId:
  case OpenCLKind::Pipe:
    return {1, 64};
  default: // images
    return {4, 64};
  }
}

namespace {

uint32_t pointerBitsOf(const PointerType* pt) {
  uint32_t bits = IrTypes::pointerBits(pt->address_space);
  if (!bits)
    fail("pointers into address space " + std::to_string(pt->address_space) +
         (pt->address_space == 2 || pt->address_space == 6
              ? " (clang-14 gives them 8 bytes in C, LLVM 14's data layout 32 bits)"
              : " (not supported by LLVM 14's calling convention)"));
  return bits;
}

uint32_t floatBits(const FloatType* f, const LayoutEngine& layout) {
  switch (f->fkind) {
  case FloatKind::Fp16:
  case FloatKind::Float16:
    return 16;
  case FloatKind::Float:
    return 32;
  case FloatKind::Double:
    return 64;
  case FloatKind::LongDouble:
    if (layout.of(f).size == 8) return 64;
    fail("'long double' of " + std::to_string(layout.of(f).size) +
         " bytes (clang-14 lays it out as the host's type but passes an IR double on amdgcn)");
  default:
    fail("the floating type '" + typeName(f, layout.context()) + "'");
  }
}

} // namespace

uint32_t IrTypes::align(const Type* t) {
  const Type* c = stripTypedefs(t);
  switch (c->kind) {
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(c);
    if (it->ikind == IntKind::Bool && !it->is_bitint) return 1;
    return intAlign(it->is_bitint ? it->bits : layout_.of(it).size * 8);
  }
  case TypeKind::Float:
    return floatBits(static_cast<const FloatType*>(c), layout_) / 8;
  case TypeKind::Pointer:
    return pointerBitsOf(static_cast<const PointerType*>(c)) / 8;
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(c);
    return uint32_t(pow2Ceil(layout_.of(vt->element).size * vt->count));
  }
  case TypeKind::Complex:
    return align(static_cast<const ComplexType*>(c)->element);
  case TypeKind::Array:
    return align(static_cast<const ArrayType*>(c)->element);
  case TypeKind::Record:
    return record(*static_cast<const RecordType*>(c)->decl).align;
  case TypeKind::Enum:
    return align(static_cast<const EnumType*>(c)->decl->underlying);
  case TypeKind::OpenCL:
    return openclPointer(static_cast<const OpenCLType*>(c)->okind).second / 8;
  default:
    fail("the type '" + typeName(t, layout_.context()) + "' has no IR memory type");
  }
}

uint64_t IrTypes::allocSize(const Type* t) {
  const Type* c = stripTypedefs(t);
  if (auto* at = dyn<ArrayType>(c)) {
    if (at->incomplete) return 0;
    return at->count * allocSize(at->element);
  }
  return layout_.of(c).size;
}

// ----- record lowering ------------------------------------------------------------------------

namespace {

struct Lowering {
  IrTypes& ir;
  const LayoutEngine& layout;

  uint64_t allocSize(const IrMember& m) const {
    switch (m.kind) {
    case IrMember::Kind::Field:
      return ir.allocSize(m.type);
    case IrMember::Kind::Storage:
      return intAllocSize(m.bits);
    case IrMember::Kind::Bytes:
      return m.bytes;
    }
    return 0;
  }
  uint32_t alignOf(const IrMember& m) const {
    switch (m.kind) {
    case IrMember::Kind::Field:
      return ir.align(m.type);
    case IrMember::Kind::Storage:
      return intAlign(m.bits);
    case IrMember::Kind::Bytes:
      return 1;
    }
    return 1;
  }

  static IrMember field(uint64_t offset, const Type* t) {
    IrMember m;
    m.kind = IrMember::Kind::Field;
    m.offset = offset;
    m.type = t;
    return m;
  }
  static IrMember storage(uint64_t offset, uint64_t bits) {
    IrMember m;
    m.kind = IrMember::Kind::Storage;
    m.offset = offset;
    m.bits = uint32_t(alignUp(bits, 8));
    return m;
  }
  static IrMember bytes(uint64_t offset, uint64_t n) {
    IrMember m;
    m.kind = IrMember::Kind::Bytes;
    m.offset = offset;
    m.bytes = n;
    return m;
  }

  // CGRecordLowering::accumulateBitFields (Itanium, FineGrainedBitfieldAccesses off).
  void bitFieldRuns(const RecordDecl& rd, const RecordLayout& rl, size_t first, size_t end,
                    std::vector<IrMember>& out) const {
    const DataModel& d = layout.context().data();
    const bool zero_breaks = d.zero_length_bitfield_alignment || d.bitfield_type_alignment;
    bool in_run = false;
    uint64_t start = 0, tail = 0;
    size_t k = first;
    for (;;) {
      if (!in_run) {
        if (k == end) break;
        const FieldDecl& fd = rd.fields[k];
        if (fd.bit_width != 0) {
          in_run = true;
          start = rl.fields[k].bit_offset;
          tail = start + uint64_t(fd.bit_width);
        }
        ++k;
        continue;
      }
      if (k != end && (rd.fields[k].bit_width != 0 || !zero_breaks) &&
          tail == rl.fields[k].bit_offset) {
        tail += uint64_t(rd.fields[k].bit_width);
        ++k;
        continue;
      }
      out.push_back(storage(start / 8, tail - start));
      in_run = false;
    }
  }

  void lowerStruct(const RecordDecl& rd, const RecordLayout& rl, IrRecord& r) const {
    std::vector<IrMember>& ms = r.members;
    const size_t n = rd.fields.size();
    for (size_t i = 0; i < n;) {
      if (rd.fields[i].isBitField()) {
        size_t j = i;
        while (j < n && rd.fields[j].isBitField()) ++j;
        bitFieldRuns(rd, rl, i, j, ms);
        i = j;
      } else {
        ms.push_back(field(rl.fields[i].bit_offset / 8, rd.fields[i].type));
        ++i;
      }
    }
    const uint64_t size = rl.size;
    if (ms.empty()) {
      if (size) ms.push_back(bytes(0, size));
      r.align = 1;
      return;
    }
    std::stable_sort(ms.begin(), ms.end(),
                     [](const IrMember& a, const IrMember& b) { return a.offset < b.offset; });

    // clipTailPadding: bit-field storage whose alloc size runs into the next member (or the end,
    // the sentinel) becomes a byte array.
    size_t prior = 0;
    uint64_t tail = ms[0].offset + allocSize(ms[0]);
    for (size_t m = 1; m <= ms.size(); ++m) {
      uint64_t off = m == ms.size() ? size : ms[m].offset;
      if (off < tail && ms[prior].kind == IrMember::Kind::Storage)
        ms[prior] = bytes(ms[prior].offset, ms[prior].bits / 8);
      if (m == ms.size()) break;
      prior = m;
      tail = ms[m].offset + allocSize(ms[m]);
    }

    // determinePacked.
    uint32_t alignment = 1;
    bool packed = false;
    for (const IrMember& m : ms) {
      uint32_t a = alignOf(m);
      if (m.offset % a) packed = true;
      alignment = std::max(alignment, a);
    }
    if (size % alignment) packed = true;
    // The sentinel becomes i<8 * alignment> when the struct is not packed.
    const uint32_t sentinel_align = packed ? 1 : intAlign(uint64_t(alignment) * 8);

    // insertPadding.
    std::vector<IrMember> padding;
    uint64_t at = 0;
    for (size_t m = 0; m <= ms.size(); ++m) {
      const bool end = m == ms.size();
      uint64_t off = end ? size : ms[m].offset;
      uint32_t a = packed ? 1 : end ? sentinel_align : alignOf(ms[m]);
      if (off < at)
        fail("the IR layout of '" + rd.displayName(layout.context()) +
             "' (members overlap in abikit's model)");
      if (off != alignUp(at, a)) padding.push_back(bytes(at, off - at));
      if (!end) at = off + allocSize(ms[m]);
    }
    if (!padding.empty()) {
      ms.insert(ms.end(), padding.begin(), padding.end());
      std::stable_sort(ms.begin(), ms.end(),
                       [](const IrMember& a, const IrMember& b) { return a.offset < b.offset; });
    }
    r.packed = packed;
    r.align = packed ? 1 : alignment;
  }

  // CGRecordLowering::lowerUnion (C: every union is zero-initialisable).
  void lowerUnion(const RecordDecl& rd, const RecordLayout& rl, IrRecord& r) const {
    bool have = false;
    IrMember best;
    for (const FieldDecl& fd : rd.fields) {
      if (fd.isBitField() && fd.bit_width == 0) continue;
      IrMember m;
      if (fd.isBitField()) {
        uint64_t type_bits = layout.of(fd.type).size * 8;
        m = storage(0, std::min<uint64_t>(uint64_t(fd.bit_width), type_bits));
      } else {
        m = field(0, fd.type);
      }
      if (!have || alignOf(m) > alignOf(best) ||
          (alignOf(m) == alignOf(best) && allocSize(m) > allocSize(best))) {
        best = m;
        have = true;
      }
    }
    const uint64_t size = rl.size;
    if (!have) {
      if (size) r.members.push_back(bytes(0, size));
      r.align = 1;
      return;
    }
    if (size < allocSize(best)) best = bytes(0, size);
    r.members.push_back(best);
    uint64_t used = allocSize(best);
    if (size > used) r.members.push_back(bytes(used, size - used));
    uint32_t a = alignOf(best);
    r.packed = size % a != 0;
    r.align = r.packed ? 1 : a;
  }
};

} // namespace

const IrRecord& IrTypes::record(const RecordDecl& rd) {
  auto it = records_.find(&rd);
  if (it != records_.end()) return it->second;
  const RecordLayout& rl = layout_.of(rd);
  IrRecord r;
  Lowering low{*this, layout_};
  if (rd.is_union)
    low.lowerUnion(rd, rl, r);
  else
    low.lowerStruct(rd, rl, r);
  return records_.emplace(&rd, std::move(r)).first->second;
}

// ----- leaves ---------------------------------------------------------------------------------

void IrTypes::scalarLeaf(const Type* t, uint64_t base, bool as_value, std::vector<Leaf>& out) {
  const Type* c = stripTypedefs(t);
  Leaf l;
  l.offset = base;
  switch (c->kind) {
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(c);
    l.kind = Leaf::Kind::Int;
    if (it->is_bitint)
      l.bits = it->bits;
    else if (it->ikind == IntKind::Bool)
      l.bits = as_value ? 1 : 8;
    else
      l.bits = uint32_t(layout_.of(it).size * 8);
    break;
  }
  case TypeKind::Enum:
    scalarLeaf(static_cast<const EnumType*>(c)->decl->underlying, base, as_value, out);
    return;
  case TypeKind::Float: {
    uint32_t bits = floatBits(static_cast<const FloatType*>(c), layout_);
    l.kind = bits == 16 ? Leaf::Kind::Half : bits == 32 ? Leaf::Kind::Float : Leaf::Kind::Double;
    l.bits = bits;
    break;
  }
  case TypeKind::Pointer:
    l.kind = Leaf::Kind::Pointer;
    l.bits = pointerBitsOf(static_cast<const PointerType*>(c));
    break;
  case TypeKind::OpenCL:
    l.kind = Leaf::Kind::Pointer;
    l.bits = openclPointer(static_cast<const OpenCLType*>(c)->okind).second;
    break;
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(c);
    const Type* e = stripTypedefs(vt->element);
    l.kind = Leaf::Kind::Vector;
    l.count = vt->count;
    l.float_elem = e->kind == TypeKind::Float;
    if (l.float_elem)
      l.bits = floatBits(static_cast<const FloatType*>(e), layout_);
    else
      l.bits = uint32_t(layout_.of(e).size * 8);
    break;
  }
  default:
    fail("the type '" + typeName(t, layout_.context()) + "'");
  }
  if (out.size() >= kMaxLeaves)
    fail("a value made of more than " + std::to_string(kMaxLeaves) +
         " separate IR scalars (llc-14 passes each in a register or stack slot of its own)");
  out.push_back(l);
}

Leaf IrTypes::valueLeaf(const Type* t) {
  std::vector<Leaf> one;
  scalarLeaf(t, 0, true, one);
  return one.front();
}

void IrTypes::memoryLeaves(const Type* t, uint64_t base, std::vector<Leaf>& out) {
  const Type* c = stripTypedefs(t);
  switch (c->kind) {
  case TypeKind::Complex: {
    const Type* e = static_cast<const ComplexType*>(c)->element;
    uint64_t es = layout_.of(e).size;
    memoryLeaves(e, base, out);
    memoryLeaves(e, base + es, out);
    return;
  }
  case TypeKind::Array: {
    // The IR array's stride is its element's IR alloc size: for an over-aligned typedef whose
    // C arrays are rounded up (`T x[3][1]` with `T` 4 bytes, aligned to 8), the IR elements are
    // closer together than the C elements and the registers hold the memory at IR offsets.
    auto* at = static_cast<const ArrayType*>(c);
    if (at->incomplete || at->count == 0) return;
    uint64_t es = allocSize(at->element);
    for (uint64_t i = 0; i < at->count; ++i) {
      memoryLeaves(at->element, base + i * es, out);
      if (out.size() >= kMaxLeaves) break;
    }
    return;
  }
  case TypeKind::Record: {
    const IrRecord& r = record(*static_cast<const RecordType*>(c)->decl);
    for (const IrMember& m : r.members) {
      switch (m.kind) {
      case IrMember::Kind::Field:
        memoryLeaves(m.type, base + m.offset, out);
        break;
      case IrMember::Kind::Storage: {
        Leaf l;
        l.kind = Leaf::Kind::Int;
        l.offset = base + m.offset;
        l.bits = m.bits;
        out.push_back(l);
        break;
      }
      case IrMember::Kind::Bytes:
        if (out.size() + m.bytes > kMaxLeaves)
          fail("a value made of more than " + std::to_string(kMaxLeaves) +
               " separate IR scalars (a padding array of " + std::to_string(m.bytes) +
               " bytes; llc-14 passes each byte in a register or stack slot of its own)");
        for (uint64_t k = 0; k < m.bytes; ++k) {
          Leaf l;
          l.kind = Leaf::Kind::Int;
          l.offset = base + m.offset + k;
          l.bits = 8;
          out.push_back(l);
        }
        break;
      }
    }
    return;
  }
  default:
    scalarLeaf(c, base, false, out);
  }
}

} // namespace abikit::detail::amdgpu
