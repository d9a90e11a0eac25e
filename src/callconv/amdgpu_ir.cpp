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

namespace {

// LLVM 14's AMDGPU data layout "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-
// i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-
// n32:64-S32-A5-G1-ni:7" on LLVM's defaults (i1:8, i8:8, i16:16, i32:32, f16:16, f32:32,
// f64:64, v64:64, v128:128). Every vector is aligned naturally (its size rounded up to a power
// of two), which the v entries agree with for byte-sized elements. Address spaces 2 and 6 are
// left out: clang-14 gives their pointers 8 bytes in C, LLVM 32 bits. There is no fp128: a long
// double that is not a double is rejected (clang-14 passes an IR double).
constexpr IrDataLayout::Entry kInts[] = {{1, 1}, {8, 1}, {16, 2}, {32, 4}, {64, 8}};
constexpr IrDataLayout::PointerSpace kPointers[] = {
    {0, 64}, // generic
    {1, 64}, // global
    {3, 32}, // local
    {4, 64}, // constant
    {5, 32}, // private
};

} // namespace

uint32_t IrTypes::pointerBits(uint32_t address_space) {
  for (const IrDataLayout::PointerSpace& p : kPointers)
    if (p.address_space == address_space) return p.bits;
  return 0;
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

/// The hook of the DataLayout: the messages for the types it has no IR type for.
void noIrType(const Type* t, const LayoutEngine& layout) {
  const Type* c = stripTypedefs(t);
  if (auto* pt = dyn<PointerType>(c)) (void)pointerBitsOf(pt);
  if (auto* f = dyn<FloatType>(c)) (void)floatBits(f, layout);
  fail("the type '" + typeName(t, layout.context()) + "' has no IR memory type");
}

const IrDataLayout kDataLayout = {
    .ints = kInts,
    .vectors = {},
    .half_align = 2,
    .float_align = 4,
    .double_align = 8,
    .fp128_align = 0,
    .pointers = kPointers,
    .no_ir_type = noIrType,
};

} // namespace

IrTypes::IrTypes(const LayoutEngine& layout) : layout_(layout), ir_(layout, kDataLayout) {}

uint32_t IrTypes::align(const Type* t) {
  if (auto* ot = dyn<OpenCLType>(stripTypedefs(t))) return openclPointer(ot->okind).second / 8;
  return ir_.of(t).align;
}

uint64_t IrTypes::allocSize(const Type* t) {
  return ir_.of(t).size;
}

const IrRecord& IrTypes::record(const RecordDecl& rd) {
  return ir_.record(rd);
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
