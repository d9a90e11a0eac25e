// clang-14's in-memory IR types of C types and LLVM 14's DataLayout answers about them. Sources:
// clang/lib/CodeGen/CodeGenTypes.cpp (ConvertTypeForMem), CGRecordLayoutBuilder.cpp
// (CGRecordLowering: accumulateBitFields, clipTailPadding, determinePacked, lowerUnion),
// llvm/lib/IR/DataLayout.cpp (getAlignmentInfo, getTypeAllocSize) and
// llvm/lib/Target/NVPTX/NVPTXAsmPrinter.cpp (getOpenCLAlignment); observed with
// `clang-14 -S -emit-llvm` (see docs/targets/nvptx.md, "Calling convention").
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

IrType byteArray(uint64_t bytes) {
  IrType t;
  t.size = bytes;
  t.align = 1;
  return t;
}

[[noreturn]] void noIrType(const Type* t, const TypeContext& ctx, const char* why) {
  throw Error(ErrorKind::Unsupported, "type '" + typeName(t, ctx) + "' " + why);
}

} // namespace

IrTypes::IrTypes(const LayoutEngine& layout, const IrDataLayout& dl) : layout_(layout), dl_(dl) {}

uint32_t IrTypes::intAlign(uint32_t bits) const {
  // DataLayout::getIntegerAlignment: the exact width, else the next larger listed width, else
  // the largest listed width.
  for (const IrDataLayout::Entry& e : dl_.ints)
    if (e.bits >= bits) return e.align;
  return dl_.ints.empty() ? 1u : dl_.ints.back().align;
}

IrType IrTypes::integer(uint32_t bits) const {
  IrType t;
  t.align = intAlign(bits);
  t.size = alignTo((uint64_t(bits) + 7) / 8, t.align);
  t.odd_int_bits = simpleInt(bits) ? 0 : bits;
  t.has_i128 = bits == 128;
  t.opencl_align = t.align;
  return t;
}

IrType IrTypes::vector(const IrType& element, uint32_t element_bits, uint32_t count,
                       bool element_int, uint32_t element_int_bits) const {
  IrType t;
  uint64_t bits = uint64_t(element_bits) * count;
  t.align = 0;
  for (const IrDataLayout::Entry& e : dl_.vectors)
    if (e.bits == bits) t.align = e.align;
  if (!t.align) t.align = pow2Ceil(element.size * count); // natural alignment
  t.size = alignTo((bits + 7) / 8, t.align);
  if (element_int && !simpleVectorElement(element_int_bits)) t.odd_int_bits = element_int_bits;
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
    if (!ed->underlying) noIrType(t, ctx, "is incomplete");
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
      noIrType(t, ctx, "has no IR floating-point type abikit models");
    }
    r.size = alignTo(r.size, r.align);
    r.opencl_align = r.align;
    return r;
  }
  case TypeKind::Pointer: {
    // Pointers are as large as the C pointer and aligned to their size in every data layout
    // abikit models.
    IrType r;
    r.size = layout_.of(u).size;
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
      r.has_i128 = r.i128_in_array = false;
    } else {
      r.i128_in_array = e.has_i128;
    }
    return r;
  }
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(u);
    const Type* el = stripTypedefs(vt->element);
    uint32_t bits = scalarBits(el);
    if (!bits) noIrType(t, ctx, "has an element type without an IR vector form");
    IrType e = of(el);
    const IntType* ie = dyn<IntType>(el);
    if (auto* et = dyn<EnumType>(el)) ie = et->decl->underlying;
    return vector(e, bits, vt->count, ie != nullptr, bits);
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
    return record(*static_cast<const RecordType*>(u)->decl);
  case TypeKind::Void:
  case TypeKind::Function:
  case TypeKind::OpenCL:
    break;
  }
  noIrType(t, ctx, "has no in-memory IR type");
}

IrType IrTypes::record(const RecordDecl& rd) const {
  if (rd.id < cached_.size() && cached_[rd.id]) return cache_[rd.id];
  const RecordLayout& rl = layout_.of(rd);
  IrType r = rd.is_union ? unionOf(rd, rl) : structOf(rd, rl);
  if (rd.id >= cached_.size()) {
    size_t n = std::max<size_t>(rd.id + 1, layout_.context().recordCount());
    cache_.resize(n);
    cached_.resize(n);
  }
  cache_[rd.id] = r;
  cached_[rd.id] = 1;
  return r;
}

namespace {

struct Member {
  uint64_t offset = 0; // bytes
  IrType type;
  uint32_t storage_bits = 0; // the storage integer of a run of bit-fields: its width
};

} // namespace

IrType IrTypes::structOf(const RecordDecl& rd, const RecordLayout& rl) const {
  const DataModel& d = layout_.context().data();
  std::vector<Member> members;
  members.reserve(rd.fields.size() + 1);
  // accumulateFields: ordinary fields at their byte offset with their memory type (in C no field
  // is zero-sized for this purpose: empty records and zero-length arrays are members too);
  // runs of bit-fields (accumulateBitFields, Itanium) become one integer of the run's width
  // rounded up to bytes, at the run's first byte. A run continues while the next bit-field
  // starts where the previous one ended; a zero-width bit-field ends it when the target aligns
  // bit-fields to their type, and never starts one.
  const size_t n = rd.fields.size();
  for (size_t i = 0; i < n;) {
    const FieldDecl& fd = rd.fields[i];
    if (!fd.isBitField()) {
      members.push_back({rl.fields[i].bit_offset / 8, of(fd.type), 0});
      ++i;
      continue;
    }
    size_t end = i;
    while (end < n && rd.fields[end].isBitField()) ++end;
    bool in_run = false;
    uint64_t start_bit = 0, tail = 0;
    for (size_t f = i;;) {
      if (!in_run) {
        if (f == end) break;
        if (rd.fields[f].bit_width != 0) {
          in_run = true;
          start_bit = rl.fields[f].bit_offset;
          tail = start_bit + uint64_t(rd.fields[f].bit_width);
        }
        ++f;
        continue;
      }
      if (f != end &&
          (rd.fields[f].bit_width != 0 ||
           (!d.zero_length_bitfield_alignment && !d.bitfield_type_alignment)) &&
          tail == rl.fields[f].bit_offset) {
        tail += uint64_t(rd.fields[f].bit_width);
        ++f;
        continue;
      }
      uint32_t bits = uint32_t(alignTo(tail - start_bit, 8));
      members.push_back({start_bit / 8, integer(bits), bits});
      in_run = false;
    }
    i = end;
  }

  IrType r;
  r.size = rl.size;
  if (members.empty()) return r; // `[N x i8]` or `{}`: alignment 1

  std::stable_sort(members.begin(), members.end(),
                   [](const Member& a, const Member& b) { return a.offset < b.offset; });
  // The capstone: an i8 at the record's size, so that storage reaching past the end is clipped.
  Member cap;
  cap.offset = rl.size;
  cap.type = integer(8);
  members.push_back(cap);

  // clipTailPadding: bit-field storage whose alloc size reaches into the next member becomes
  // a byte array of its own width. (Clang starts the tail at the first member's size.)
  size_t prior = 0;
  uint64_t tail = members[0].type.size;
  for (size_t m = 1; m < members.size(); ++m) {
    if (members[m].offset < tail) {
      Member& p = members[prior];
      if (!p.storage_bits)
        throw Error(ErrorKind::Unsupported, "cannot model clang's IR type of " +
                                                rd.displayName(layout_.context()) +
                                                ": a member overlaps the next one");
      p.type = byteArray(p.storage_bits / 8);
    }
    prior = m;
    tail = members[m].offset + members[m].type.size;
  }

  // determinePacked: packed when a member is not at a multiple of its IR alignment, or the
  // size is not a multiple of the largest member alignment.
  uint32_t align = 1;
  bool packed = false;
  for (const Member& m : members) {
    if (m.offset % m.type.align) packed = true;
    align = std::max(align, m.type.align);
  }
  if (rl.size % align) packed = true;
  members.pop_back();

  r.packed = packed;
  r.align = packed ? 1 : align;
  for (const Member& m : members) {
    if (!r.odd_int_bits) r.odd_int_bits = m.type.odd_int_bits;
    r.has_i128 = r.has_i128 || m.type.has_i128;
    r.i128_in_array = r.i128_in_array || m.type.i128_in_array;
    r.opencl_align = std::max(r.opencl_align, m.type.opencl_align);
  }
  return r;
}

IrType IrTypes::unionOf(const RecordDecl& rd, const RecordLayout& rl) const {
  // lowerUnion: the storage is the member type with the highest alignment (the larger one on a
  // tie, the first on equal size); bit-fields count as an integer of their width (at most their
  // type's width) rounded up to bytes. Storage larger than the union becomes a byte array; the
  // rest is padding; packed when the size is not a multiple of the storage alignment.
  bool have = false;
  IrType storage;
  for (const FieldDecl& fd : rd.fields) {
    IrType ft;
    if (fd.isBitField()) {
      if (fd.bit_width == 0) continue;
      IrType declared = of(fd.type);
      uint64_t bits = std::min<uint64_t>(uint64_t(fd.bit_width), declared.size * 8);
      ft = integer(uint32_t(alignTo(bits, 8)));
    } else {
      ft = of(fd.type);
    }
    if (!have || ft.align > storage.align ||
        (ft.align == storage.align && ft.size > storage.size)) {
      storage = ft;
      have = true;
    }
  }
  IrType r;
  r.size = rl.size;
  if (!have) return r;
  if (rl.size < storage.size) storage = byteArray(rl.size);
  r.packed = rl.size % storage.align != 0;
  r.align = r.packed ? 1 : storage.align;
  r.odd_int_bits = storage.odd_int_bits;
  r.has_i128 = storage.has_i128;
  r.i128_in_array = storage.i128_in_array;
  r.opencl_align = std::max<uint32_t>(1, storage.opencl_align);
  return r;
}

} // namespace abikit::detail
