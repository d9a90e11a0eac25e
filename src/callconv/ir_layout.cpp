// clang-14's in-memory IR types of C types and LLVM 14's DataLayout answers about them. Sources:
// clang/lib/CodeGen/CodeGenTypes.cpp (ConvertTypeForMem), CGRecordLayoutBuilder.cpp
// (CGRecordLowering: accumulateBitFields, clipTailPadding, determinePacked, insertPadding,
// lowerUnion), llvm/lib/IR/DataLayout.cpp (getAlignmentInfo, getTypeAllocSize) and
// llvm/lib/Target/NVPTX/NVPTXAsmPrinter.cpp (getOpenCLAlignment); observed with
// `clang-14 -S -emit-llvm` (see docs/targets/nvptx.md and docs/targets/amdgpu.md, "Calling
// convention").
#include "ir_layout.h"

#include "abikit/diag.h"

#include <algorithm>
#include <bit>

namespace abikit::detail {

namespace {

uint64_t alignTo(uint64_t v, uint64_t a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

uint32_t pow2Ceil(uint64_t v) {
  return v <= 1 ? 1u : uint32_t(std::bit_ceil(v));
}

bool simpleInt(uint32_t bits) {
  return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128;
}

bool simpleVectorElement(uint32_t bits) {
  return bits == 8 || bits == 16 || bits == 32 || bits == 64;
}

IrMember bytesMember(uint64_t offset, uint64_t n) {
  IrMember m;
  m.kind = IrMember::Kind::Bytes;
  m.offset = offset;
  m.bytes = n;
  m.size = n;
  m.align = 1;
  return m;
}

bool byOffset(const IrMember& a, const IrMember& b) {
  return a.offset < b.offset;
}

} // namespace

IrTypes::IrTypes(const LayoutEngine& layout, const IrDataLayout& dl) : layout_(layout), dl_(dl) {}

void IrTypes::noIrType(const Type* t, const char* why) const {
  throw Error(ErrorKind::Unsupported, "type '" + typeName(t, layout_.context()) + "' " + why);
}

uint32_t IrTypes::intAlign(uint32_t bits) const {
  // DataLayout::getIntegerAlignment: the exact width, else the next larger listed width, else
  // the largest listed width.
  for (const IrDataLayout::Entry& e : dl_.ints)
    if (e.bits >= bits) return e.align;
  return dl_.ints.empty() ? 1u : dl_.ints.back().align;
}

uint32_t IrTypes::pointerBits(uint32_t address_space) const {
  for (const IrDataLayout::PointerSpace& p : dl_.pointers)
    if (p.address_space == address_space) return p.bits;
  return 0;
}

IrType IrTypes::integer(uint32_t bits) const {
  IrType t;
  t.align = intAlign(bits);
  t.size = alignTo((uint64_t(bits) + 7) / 8, t.align);
  t.odd_int_bits = simpleInt(bits) ? 0 : bits;
  t.has_i128 = bits == 128;
  t.has_wide_int = bits > 64;
  t.opencl_align = t.align;
  return t;
}

uint32_t IrTypes::scalarBits(const Type* canon) const {
  if (auto* it = dyn<IntType>(canon)) {
    if (it->is_bitint) return it->bits;
    return uint32_t(layout_.context().data().of(it->ikind).size) * 8u;
  }
  if (auto* et = dyn<EnumType>(canon)) return scalarBits(et->decl->underlying);
  if (canon->kind == TypeKind::Float) return uint32_t(layout_.of(canon).size) * 8u;
  return 0;
}

IrType IrTypes::of(const Type* t) const {
  const TypeContext& ctx = layout_.context();
  const Type* u = t->unqualified;
  switch (u->kind) {
  case TypeKind::Typedef:
    // Alignment attributes on typedefs do not reach the IR type.
    return of(static_cast<const TypedefType*>(u)->decl->underlying);
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(u);
    if (it->is_bitint) return integer(it->bits);
    if (it->ikind == IntKind::Bool) return integer(8); // _Bool is i8 in memory
    return integer(uint32_t(layout_.of(u).size) * 8u);
  }
  case TypeKind::Enum: {
    const EnumDecl* ed = static_cast<const EnumType*>(u)->decl;
    if (!ed->underlying) noIrType(t, "is incomplete");
    return of(ed->underlying);
  }
  case TypeKind::Float: {
    auto* ft = static_cast<const FloatType*>(u);
    IrType r;
    switch (ctx.data().float_formats[size_t(ft->fkind)]) {
    case FloatFormat::IEEEHalf:
    case FloatFormat::BFloat:
      r.size = 2;
      r.align = dl_.half_align;
      break;
    case FloatFormat::IEEESingle:
      r.size = 4;
      r.align = dl_.float_align;
      break;
    case FloatFormat::IEEEDouble:
      r.size = 8;
      r.align = dl_.double_align;
      break;
    case FloatFormat::IEEEQuad:
      r.size = 16;
      r.align = dl_.fp128_align;
      break;
    default:
      r.align = 0;
      break;
    }
    if (!r.align) {
      if (dl_.no_ir_type) dl_.no_ir_type(t, layout_);
      noIrType(t, "has no IR floating-point type abikit models");
    }
    r.size = alignTo(r.size, r.align);
    r.opencl_align = r.align;
    return r;
  }
  case TypeKind::Pointer: {
    // Without a table, pointers are as large as the C pointer and aligned to their size.
    IrType r;
    if (dl_.pointers.empty()) {
      r.size = layout_.of(u).size;
    } else {
      uint32_t bits = pointerBits(static_cast<const PointerType*>(u)->address_space);
      if (!bits) {
        if (dl_.no_ir_type) dl_.no_ir_type(t, layout_);
        noIrType(t, "has no IR pointer type abikit models");
      }
      r.size = bits / 8;
    }
    r.align = uint32_t(r.size);
    r.opencl_align = r.align;
    return r;
  }
  case TypeKind::Array: {
    auto* at = static_cast<const ArrayType*>(u);
    IrType e = of(at->element);
    IrType r = e;
    r.packed = false;
    r.size = at->incomplete ? 0 : e.size * at->count; // `T x[]` is [0 x T]
    if (r.size == 0) {                                // no elements, no leaves
      r.odd_int_bits = 0;
      r.has_i128 = r.i128_in_array = r.has_wide_int = r.wide_int_in_array = false;
    } else {
      r.i128_in_array = e.has_i128;
      r.wide_int_in_array = e.has_wide_int;
    }
    return r;
  }
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(u);
    const Type* el = stripTypedefs(vt->element);
    uint32_t bits = scalarBits(el);
    if (!bits) noIrType(t, "has an element type without an IR vector form");
    const IntType* ie = dyn<IntType>(el);
    if (auto* et = dyn<EnumType>(el)) ie = et->decl->underlying;
    IrType r;
    uint64_t total = uint64_t(bits) * vt->count;
    r.align = 0;
    for (const IrDataLayout::Entry& e : dl_.vectors)
      if (e.bits == total) r.align = e.align;
    // Natural alignment. The element's alloc size is its C size for every element type (an
    // integer of at most 128 bits, a floating type).
    if (!r.align) r.align = pow2Ceil(layout_.of(el).size * vt->count);
    r.size = alignTo((total + 7) / 8, r.align);
    if (ie && !simpleVectorElement(bits)) r.odd_int_bits = bits;
    r.opencl_align = r.align;
    return r;
  }
  case TypeKind::Complex: {
    // `{ T, T }`, an ordinary (unpacked) struct.
    IrType e = of(static_cast<const ComplexType*>(u)->element);
    IrType r = e;
    r.packed = false;
    r.size = alignTo(e.size * 2, e.align);
    return r;
  }
  case TypeKind::Record:
    return lowered(*static_cast<const RecordType*>(u)->decl).summary;
  case TypeKind::Void:
  case TypeKind::Function:
  case TypeKind::OpenCL:
  case TypeKind::Atomic: // refused before lowering (rejectAtomicValues)
    break;
  }
  if (dl_.no_ir_type) dl_.no_ir_type(t, layout_);
  noIrType(t, "has no in-memory IR type");
}

const IrRecord& IrTypes::record(const RecordDecl& rd) const {
  return lowered(rd).record;
}

const IrTypes::Lowered& IrTypes::lowered(const RecordDecl& rd) const {
  auto it = records_.find(&rd);
  if (it != records_.end()) return it->second;
  const RecordLayout& rl = layout_.of(rd);
  // Bit-fields laid out in whole units have an IR type of those units in clang, which this
  // lowering (runs of bits, Itanium) does not model.
  if (rl.unit_bitfields)
    throw Error(ErrorKind::Unsupported,
                rd.displayName(layout_.context()) +
                    " has ms_struct bit-fields: passing it to or from a function is not modelled");
  Lowered l;
  if (rd.is_union)
    lowerUnion(rd, rl, l.record);
  else
    lowerStruct(rd, rl, l.record);
  l.summary = summarise(l.record, rl.size);
  for (const FieldDecl& f : rd.fields)
    l.summary.has_bitfields = l.summary.has_bitfields || (f.isBitField() && f.bit_width != 0);
  return records_.emplace(&rd, std::move(l)).first->second;
}

IrMember IrTypes::field(uint64_t offset, const Type* t) const {
  IrType it = of(t);
  IrMember m;
  m.kind = IrMember::Kind::Field;
  m.offset = offset;
  m.type = t;
  m.size = it.size;
  m.align = it.align;
  return m;
}

IrMember IrTypes::storage(uint64_t offset, uint64_t bits) const {
  IrMember m;
  m.kind = IrMember::Kind::Storage;
  m.offset = offset;
  m.bits = uint32_t(alignTo(bits, 8));
  IrType it = integer(m.bits);
  m.size = it.size;
  m.align = it.align;
  return m;
}

void IrTypes::lowerStruct(const RecordDecl& rd, const RecordLayout& rl, IrRecord& r) const {
  const DataModel& d = layout_.context().data();
  std::vector<IrMember>& ms = r.members;
  ms.reserve(rd.fields.size() + 1);
  // accumulateFields: ordinary fields at their byte offset with their memory type (in C no field
  // is zero-sized for this purpose: empty records and zero-length arrays are members too);
  // runs of bit-fields (accumulateBitFields, Itanium, FineGrainedBitfieldAccesses off) become
  // one integer of the run's width rounded up to bytes, at the run's first byte. A run continues
  // while the next bit-field starts where the previous one ended; a zero-width bit-field ends it
  // when the target aligns bit-fields to their type, and never starts one.
  const bool zero_breaks = d.zero_length_bitfield_alignment || d.bitfield_type_alignment;
  const size_t n = rd.fields.size();
  for (size_t i = 0; i < n;) {
    const FieldDecl& fd = rd.fields[i];
    if (!fd.isBitField()) {
      ms.push_back(field(rl.fields[i].bit_offset / 8, fd.type));
      ++i;
      continue;
    }
    size_t end = i;
    while (end < n && rd.fields[end].isBitField()) ++end;
    bool in_run = false;
    uint64_t start = 0, tail = 0;
    for (size_t f = i;;) {
      if (!in_run) {
        if (f == end) break;
        if (rd.fields[f].bit_width != 0) {
          in_run = true;
          start = rl.fields[f].bit_offset;
          tail = start + uint64_t(rd.fields[f].bit_width);
        }
        ++f;
        continue;
      }
      if (f != end && (rd.fields[f].bit_width != 0 || !zero_breaks) &&
          tail == rl.fields[f].bit_offset) {
        tail += uint64_t(rd.fields[f].bit_width);
        ++f;
        continue;
      }
      ms.push_back(storage(start / 8, tail - start));
      in_run = false;
    }
    i = end;
  }

  const uint64_t size = rl.size;
  if (ms.empty()) { // `[N x i8]` or `{}`: alignment 1
    if (size) ms.push_back(bytesMember(0, size));
    return;
  }
  std::stable_sort(ms.begin(), ms.end(), byOffset);
  const auto overlap = [&] {
    throw Error(ErrorKind::Unsupported, "cannot model clang's IR type of " +
                                            rd.displayName(layout_.context()) +
                                            ": a member overlaps the next one");
  };

  // clipTailPadding: bit-field storage whose alloc size reaches into the next member (or past
  // the end: the capstone, an i8 at the record's size) becomes a byte array of its own width.
  // (Clang starts the tail at the first member's size.)
  size_t prior = 0;
  uint64_t tail = ms[0].size;
  for (size_t m = 1; m <= ms.size(); ++m) {
    const uint64_t off = m == ms.size() ? size : ms[m].offset;
    if (off < tail) {
      if (ms[prior].kind != IrMember::Kind::Storage) overlap();
      ms[prior] = bytesMember(ms[prior].offset, ms[prior].bits / 8);
    }
    if (m == ms.size()) break;
    prior = m;
    tail = ms[m].offset + ms[m].size;
  }

  // determinePacked: packed when a member is not at a multiple of its IR alignment, or the
  // size is not a multiple of the largest member alignment.
  uint32_t alignment = 1;
  bool packed = false;
  for (const IrMember& m : ms) {
    if (m.offset % m.align) packed = true;
    alignment = std::max(alignment, m.align);
  }
  if (size % alignment) packed = true;
  // The capstone becomes i<8 * alignment> when the struct is not packed.
  const uint32_t capstone_align = packed ? 1 : intAlign(alignment * 8);

  // insertPadding: [N x i8] wherever the next member (or the end) is not where the previous one
  // ends, aligned to its IR alignment.
  std::vector<IrMember> padding;
  uint64_t at = 0;
  for (size_t m = 0; m <= ms.size(); ++m) {
    const bool end = m == ms.size();
    const uint64_t off = end ? size : ms[m].offset;
    const uint32_t a = packed ? 1 : end ? capstone_align : ms[m].align;
    if (off < at) overlap();
    if (off != alignTo(at, a)) padding.push_back(bytesMember(at, off - at));
    if (!end) at = off + ms[m].size;
  }
  if (!padding.empty()) {
    ms.insert(ms.end(), padding.begin(), padding.end());
    std::stable_sort(ms.begin(), ms.end(), byOffset);
  }
  r.packed = packed;
  r.align = packed ? 1 : alignment;
}

void IrTypes::lowerUnion(const RecordDecl& rd, const RecordLayout& rl, IrRecord& r) const {
  // lowerUnion (C: every union is zero-initialisable): the storage is the member type with the
  // highest alignment (the larger one on a tie, the first on equal size); bit-fields count as
  // an integer of their width (at most their type's width) rounded up to bytes. Storage larger
  // than the union becomes a byte array; the rest is padding; packed when the size is not a
  // multiple of the storage alignment.
  bool have = false;
  IrMember best;
  for (const FieldDecl& fd : rd.fields) {
    if (fd.isBitField() && fd.bit_width == 0) continue;
    IrMember m;
    if (fd.isBitField()) {
      uint64_t type_bits = layout_.of(fd.type).size * 8;
      m = storage(0, std::min<uint64_t>(uint64_t(fd.bit_width), type_bits));
    } else {
      m = field(0, fd.type);
    }
    if (!have || m.align > best.align || (m.align == best.align && m.size > best.size)) {
      best = m;
      have = true;
    }
  }
  const uint64_t size = rl.size;
  if (!have) {
    if (size) r.members.push_back(bytesMember(0, size));
    return;
  }
  if (size < best.size) best = bytesMember(0, size);
  r.members.push_back(best);
  if (size > best.size) r.members.push_back(bytesMember(best.size, size - best.size));
  r.packed = size % best.align != 0;
  r.align = r.packed ? 1 : best.align;
}

IrType IrTypes::summarise(const IrRecord& rec, uint64_t size) const {
  IrType r;
  r.size = size;
  r.packed = rec.packed;
  r.align = rec.align;
  for (const IrMember& m : rec.members) {
    IrType t;
    if (m.kind == IrMember::Kind::Field)
      t = of(m.type);
    else if (m.kind == IrMember::Kind::Storage)
      t = integer(m.bits);
    else
      continue; // byte arrays: no integer leaves beyond i8, alignment 1
    if (!r.odd_int_bits) r.odd_int_bits = t.odd_int_bits;
    r.has_i128 = r.has_i128 || t.has_i128;
    r.i128_in_array = r.i128_in_array || t.i128_in_array;
    r.has_wide_int = r.has_wide_int || t.has_wide_int;
    r.wide_int_in_array = r.wide_int_in_array || t.wide_int_in_array;
    r.has_bitfields = r.has_bitfields || t.has_bitfields;
    r.opencl_align = std::max(r.opencl_align, t.opencl_align);
  }
  return r;
}

} // namespace abikit::detail
