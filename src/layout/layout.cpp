// The layout engine: sizes and alignments of C types and the layout of records, following
// clang's generic (Itanium/SysV) record layout, its ms_struct variant, and the Microsoft rules of
// the *-windows-msvc targets. The target's rules arrive as data: the language-adjusted DataModel
// of the TypeContext (DataModel::record_rules, ms_bitfields, ...) and the target's address
// spaces. See docs/layout.md for every rule and how it was checked against clang.
#include "abikit/layout.h"

#include "abikit/diag.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <string>

namespace abikit {

namespace {

constexpr uint64_t kCharBits = 8;

uint64_t alignTo(uint64_t v, uint64_t a) {
  if ((a & (a - 1)) == 0) return (v + a - 1) & ~(a - 1); // every alignment in practice
  return (v + a - 1) / a * a;
}

bool isPow2(uint64_t v) {
  return v && !(v & (v - 1));
}

uint64_t pow2Ceil(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

[[noreturn]] void fail(const TypeContext& ctx, SourceLoc loc, std::string message) {
  unsupportedAt(ctx, loc, std::move(message));
}

[[noreturn]] void fail(std::string message) {
  throw Error(ErrorKind::Unsupported, std::move(message));
}

// Attaches a field's position to an error raised for its type (which has no position of its
// own) and says which field it was.
[[noreturn]] void rethrowAtField(const Error& e, const TypeContext& ctx, const RecordDecl& rd,
                                 const FieldDecl& fd) {
  if (e.hasSourcePosition() || fd.loc.line == 0) throw e;
  std::string what =
      fd.name.empty() ? std::string("an unnamed member") : "field '" + std::string(fd.name) + "'";
  fail(ctx, fd.loc, e.message() + " (" + what + " of " + rd.displayName(ctx) + ")");
}

// stripTypedefs with the common case (no typedef) inline.
inline const Type* canonicalType(const Type* t) {
  const Type* u = t->unqualified;
  return u->kind == TypeKind::Typedef ? stripTypedefs(u) : u;
}

// Size and alignment in bits, as clang's TypeInfo.
struct BitInfo {
  uint64_t width = 0;
  uint64_t align = 8;
};

// Largest object size in bytes clang accepts: sizes must fit in size_t, and in 61 bits so that
// bit sizes fit in 64 bits (clang's ConstantArrayType::getMaxSizeBits).
uint64_t maxObjectBytes(const DataModel& d) {
  unsigned bits = d.of(d.size_type).size * 8u;
  if (bits == 0 || bits > 61) bits = 61;
  return (uint64_t(1) << bits) - 1;
}

// The bit width of an integer type used as a bit-field: the limit on the declared width.
uint64_t valueBits(const Type* canon, const BitInfo& info) {
  if (auto* it = dyn<IntType>(canon)) {
    if (it->is_bitint) return it->bits;
    if (it->ikind == IntKind::Bool) return 1;
  }
  return info.width;
}

} // namespace

LayoutEngine::LayoutEngine(const TypeContext& ctx) : ctx_(ctx) {}
LayoutEngine::~LayoutEngine() = default;

// ----- types ----------------------------------------------------------------------------------

namespace {

size_t typeSlot(const Type* t, size_t mask) {
  uint64_t h = uint64_t(reinterpret_cast<uintptr_t>(t)) * 0x9E3779B97F4A7C15ull;
  return size_t(h >> 32) & mask;
}

} // namespace

namespace {

// Type::layout_bits: the size in bytes times 64 plus log2 of the alignment plus one (0: not
// known), for sizes below 64 MiB. Written and read through atomic_ref: engines of one context
// may run in several threads, and all of them write the same value.
constexpr uint64_t kBitsSizeLimit = uint64_t(1) << 26;

bool loadBits(const Type* t, TypeLayout& out) {
  uint32_t c = std::atomic_ref<uint32_t>(t->layout_bits).load(std::memory_order_relaxed);
  if (!c) return false;
  out = {c >> 6, uint32_t(1) << ((c & 63) - 1)};
  return true;
}

// Keeps `l` in the type when it fits; false when it does not (the caller keeps it elsewhere).
bool storeBits(const Type* t, TypeLayout l) {
  if (l.size >= kBitsSizeLimit || !isPow2(l.align)) return false;
  std::atomic_ref<uint32_t>(t->layout_bits)
      .store(uint32_t(l.size << 6) | uint32_t(std::countr_zero(l.align) + 1),
             std::memory_order_relaxed);
  return true;
}

// Whether the layout of `t` comes from a record's (an array or typedef of one): those stay in
// the engine, which lays out each record itself.
bool dependsOnRecord(const Type* t) {
  const Type* u = stripTypedefs(t);
  for (;;) {
    if (u->kind == TypeKind::Array)
      u = stripTypedefs(static_cast<const ArrayType*>(u)->element);
    else if (u->kind == TypeKind::Atomic)
      u = stripTypedefs(static_cast<const AtomicType*>(u)->value);
    else
      return u->kind == TypeKind::Record;
  }
}

} // namespace

// The answers that need no work beyond one look at the data model (plain integers, floating
// types, data pointers), a record already laid out, and the cached derived types. Anything else
// (including every error) is left to compute(). A layout kept in the type comes first: one load
// of the line the type's kind is on, and no branch on the kind (the field types of a record
// are of every kind in turn, which a switch on it mispredicts).
inline bool LayoutEngine::quick(const Type* t, TypeLayout& out) const {
  if (loadBits(t, out)) return true;
  const Type* u = t->unqualified;
  const DataModel& d = ctx_.data();
  switch (u->kind) {
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(u);
    if (it->is_bitint) return false;
    const SizeAlign& sa = d.of(it->ikind);
    if (!sa.supported()) return false;
    out = {sa.size, sa.align};
    storeBits(t, out);
    return true;
  }
  case TypeKind::Float: {
    const SizeAlign& sa = d.of(static_cast<const FloatType*>(u)->fkind);
    if (!sa.supported()) return false;
    out = {sa.size, sa.align};
    storeBits(t, out);
    return true;
  }
  case TypeKind::Pointer: {
    auto* pt = static_cast<const PointerType*>(u);
    if (pt->address_space != 0 || !pt->pointee || pt->to_function) return false;
    out = {d.pointer.size, d.pointer.align};
    storeBits(t, out);
    return true;
  }
  case TypeKind::Record: {
    const RecordDecl* rd = static_cast<const RecordType*>(u)->decl;
    if (rd->id >= cache_.size() || !cache_[rd->id]) return false;
    out = {cache_[rd->id]->size, cache_[rd->id]->align};
    return true;
  }
  case TypeKind::Typedef:
  case TypeKind::Array:
  case TypeKind::Vector:
  case TypeKind::Complex:
  case TypeKind::Atomic:
  case TypeKind::Enum: {
    if (type_cache_.empty()) return false;
    size_t mask = type_cache_.size() - 1;
    for (size_t i = typeSlot(t, mask);; i = (i + 1) & mask) {
      const CachedType& c = type_cache_[i];
      if (c.type == t) {
        out = c.layout;
        return true;
      }
      if (!c.type) return false;
    }
  }
  default:
    return false;
  }
}

void LayoutEngine::remember(const Type* t, TypeLayout l) const {
  if (!dependsOnRecord(t) && storeBits(t, l)) return;
  if ((type_cache_used_ + 1) * 2 > type_cache_.size()) {
    std::vector<CachedType> old;
    old.swap(type_cache_);
    type_cache_.resize(old.empty() ? 256 : old.size() * 2);
    size_t mask = type_cache_.size() - 1;
    for (const CachedType& c : old) {
      if (!c.type) continue;
      size_t i = typeSlot(c.type, mask);
      while (type_cache_[i].type) i = (i + 1) & mask;
      type_cache_[i] = c;
    }
  }
  size_t mask = type_cache_.size() - 1;
  size_t i = typeSlot(t, mask);
  while (type_cache_[i].type) {
    if (type_cache_[i].type == t) return;
    i = (i + 1) & mask;
  }
  type_cache_[i] = {t, l};
  ++type_cache_used_;
}

TypeLayout LayoutEngine::arrayElement(const Type* element) const {
  TypeLayout el = of(element);
  if (!compilerInfo(ctx_.target().compiler).array_element_size_multiple_of_align) return el;
  // clang checks the innermost element (Sema::checkArrayElementAlignment takes the base element
  // type): an aligned typedef of an array does not count, an aligned typedef of a scalar does.
  const Type* base = element;
  while (auto* at = dyn<ArrayType>(stripTypedefs(base))) base = at->element;
  TypeLayout bl = base == element ? el : of(base);
  if (bl.size % bl.align != 0)
    throw Error(ErrorKind::Input, "size of array element of type '" + typeName(base, ctx_) + "' (" +
                                      std::to_string(bl.size) +
                                      " bytes) isn't a multiple of its alignment (" +
                                      std::to_string(bl.align) + " bytes)");
  return el;
}

TypeLayout LayoutEngine::of(const Type* t) const {
  TypeLayout l;
  if (t && quick(t, l)) return l;
  return compute(t);
}

TypeLayout LayoutEngine::compute(const Type* t) const {
  if (!t) fail("missing type");
  const DataModel& d = ctx_.data();
  const Type* u = t->unqualified;
  switch (u->kind) {
  case TypeKind::Void:
    fail("incomplete type 'void' has no size");
  case TypeKind::Int: {
    auto* it = static_cast<const IntType*>(u);
    if (it->is_bitint) {
      if (d.bitint_max_width == 0) fail("_BitInt is not available on " + ctx_.target().spelling);
      unsigned min_bits = it->is_signed ? 2u : 1u;
      if (it->bits < min_bits)
        fail(std::string(it->is_signed ? "signed" : "unsigned") + " _BitInt must have at least " +
             std::to_string(min_bits) + (min_bits == 1 ? " bit" : " bits"));
      if (it->bits > d.bitint_max_width)
        fail("_BitInt(" + std::to_string(it->bits) + ") is wider than the " +
             std::to_string(d.bitint_max_width) + " bits supported on " + ctx_.target().spelling);
      // clang-14: aligned to the next power of two (at least a char), capped; the size is the
      // width rounded up to that alignment.
      uint64_t align = std::min<uint64_t>(std::max<uint64_t>(kCharBits, pow2Ceil(it->bits)),
                                          uint64_t(d.bitint_max_align) * 8);
      return {alignTo(it->bits, align) / 8, uint32_t(align / 8)};
    }
    const SizeAlign& sa = d.of(it->ikind);
    if (!sa.supported())
      fail("'" + std::string(intKindName(it->ikind)) + "' is not available on " +
           ctx_.target().spelling);
    return {sa.size, sa.align};
  }
  case TypeKind::Float: {
    auto* ft = static_cast<const FloatType*>(u);
    const SizeAlign& sa = d.of(ft->fkind);
    if (!sa.supported())
      fail("'" + std::string(floatKindName(ft->fkind)) + "' is not available on " +
           ctx_.target().spelling);
    return {sa.size, sa.align};
  }
  case TypeKind::Pointer: {
    auto* pt = static_cast<const PointerType*>(u);
    if (pt->address_space == 0) {
      if (pt->to_function) return {d.function_pointer.size, d.function_pointer.align};
      return {d.pointer.size, d.pointer.align};
    }
    const AddressSpaceInfo* as = ctx_.target().findAddressSpace(pt->address_space);
    if (!as || as->pointer_bits == 0 || as->pointer_bits % 8)
      fail("pointers into address space " + std::to_string(pt->address_space) +
           " are not known on " + ctx_.target().spelling);
    uint32_t bytes = as->pointer_bits / 8u;
    return {bytes, bytes};
  }
  case TypeKind::Array: {
    auto* at = static_cast<const ArrayType*>(u);
    if (at->incomplete) fail("incomplete array type '" + typeName(t, ctx_) + "' has no size");
    TypeLayout el = arrayElement(at->element);
    uint64_t limit = maxObjectBytes(d);
    if (at->count && el.size > limit / at->count)
      fail("array type '" + typeName(t, ctx_) + "' is too large");
    // clang rounds the array up to its element alignment (visible with a typedef that
    // raises the alignment above the size).
    uint64_t size = alignTo(el.size * at->count, el.align);
    if (size > limit) fail("array type '" + typeName(t, ctx_) + "' is too large");
    remember(t, {size, el.align});
    return {size, el.align};
  }
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(u);
    const Type* el = stripTypedefs(vt->element);
    auto* eint = dyn<IntType>(el);
    bool ok =
        (eint && !eint->is_bitint && eint->ikind != IntKind::Bool) || el->kind == TypeKind::Float;
    if (!ok) fail("invalid vector element type '" + typeName(vt->element, ctx_) + "'");
    if (vt->count == 0) fail("zero-length vector type '" + typeName(t, ctx_) + "'");
    TypeLayout e = of(vt->element);
    uint64_t width = e.size * 8 * uint64_t(vt->count);
    uint64_t align = width;
    if (!isPow2(align)) {
      align = pow2Ceil(align);
      width = alignTo(width, align);
    }
    if (d.max_vector_align && uint64_t(d.max_vector_align) * 8 < align)
      align = uint64_t(d.max_vector_align) * 8;
    if (width / 8 > maxObjectBytes(d) || align / 8 > UINT32_MAX)
      fail("vector type '" + typeName(t, ctx_) + "' is too large");
    remember(t, {width / 8, uint32_t(align / 8)});
    return {width / 8, uint32_t(align / 8)};
  }
  case TypeKind::Complex: {
    auto* ct = static_cast<const ComplexType*>(u);
    const Type* el = stripTypedefs(ct->element);
    auto* eint = dyn<IntType>(el);
    if (!((eint && eint->ikind != IntKind::Bool) || el->kind == TypeKind::Float))
      fail("invalid _Complex element type '" + typeName(ct->element, ctx_) + "'");
    TypeLayout e = of(ct->element);
    remember(t, {e.size * 2, e.align});
    return {e.size * 2, e.align};
  }
  case TypeKind::Atomic: {
    // clang's rule (ASTContext::getTypeInfo): a value of at most MaxAtomicPromoteWidth bits is
    // rounded up to a power-of-two size and aligned to it; an empty one takes a byte.
    if (d.max_atomic_promote_bits == kAtomicLayoutUnknown)
      fail("_Atomic types are not supported on " + ctx_.target().spelling +
           " (the layout its compiler gives them is not documented)");
    TypeLayout l = of(static_cast<const AtomicType*>(u)->value);
    if (l.size == 0) {
      l.size = 1;
    } else if (l.size <= uint64_t(d.max_atomic_promote_bits) / 8) {
      l.size = pow2Ceil(l.size);
      l.align = uint32_t(l.size);
    }
    remember(t, l);
    return l;
  }
  case TypeKind::Enum: {
    const EnumDecl* ed = static_cast<const EnumType*>(u)->decl;
    if (!ed->complete || !ed->underlying)
      fail(ctx_, ed->loc, "incomplete type '" + typeName(t, ctx_) + "' has no size");
    TypeLayout l = of(ed->underlying);
    remember(t, l);
    return l;
  }
  case TypeKind::Record:
    return recordType(*static_cast<const RecordType*>(u)->decl);
  case TypeKind::Typedef: {
    const TypedefDecl* td = static_cast<const TypedefType*>(u)->decl;
    TypeLayout l = of(td->underlying);
    // aligned(N) on a typedef replaces the alignment, even when it is lower (as GCC and clang
    // implement it; the size is unchanged).
    if (td->aligned) l.align = td->aligned;
    remember(t, l);
    return l;
  }
  case TypeKind::Function:
    fail("function type '" + typeName(t, ctx_) + "' has no size");
  case TypeKind::OpenCL:
    fail("the OpenCL type '" + typeName(t, ctx_) + "' has no layout in abikit");
  }
  fail("unknown type");
}

TypeLayout LayoutEngine::recordType(const RecordDecl& rd) const {
  const RecordLayout& l = of(rd);
  return {l.size, l.align};
}

// ----- records --------------------------------------------------------------------------------

namespace detail {

// One record, laid out field by field as clang's ItaniumRecordLayoutBuilder does for C. All
// quantities are in bits, like clang's, so that the bit-field rules read the same.
class RecordBuilder {
public:
  RecordBuilder(const LayoutEngine& engine, const RecordDecl& rd, RecordLayout& out)
      : engine_(engine), ctx_(engine.context()), d_(ctx_.data()), rd_(rd), out_(out),
        max_bytes_(maxObjectBytes(d_)) {}

  void run() {
    is_union_ = rd_.is_union;
    packed_ = rd_.packed;
    microsoft_ = d_.record_rules == RecordRules::Microsoft;
    ms_struct_ = !microsoft_ && (rd_.ms_struct || (d_.ms_bitfields && !rd_.gcc_struct));
    if (rd_.max_field_align) {
      if (!isPow2(rd_.max_field_align))
        fail(ctx_, rd_.loc, "#pragma pack value must be a power of two");
      max_field_align_ = uint64_t(rd_.max_field_align) * 8;
    }
    if (rd_.aligned && !isPow2(rd_.aligned))
      fail(ctx_, rd_.loc, "requested alignment is not a power of two");
    size_t n = rd_.fields.size();
    // Taken before the fields are laid out: a field's record type may be laid out (and take
    // its own fields) on the way.
    fields_ = engine_.allocateFields(n);
    out_.unit_bitfields = (microsoft_ || ms_struct_) &&
                          std::any_of(rd_.fields.begin(), rd_.fields.end(),
                                      [](const FieldDecl& f) { return f.isBitField(); });
    if (microsoft_) {
      runMicrosoft(n);
      return;
    }
    if (rd_.aligned) updateAlignment(uint64_t(rd_.aligned) * 8);
    bool named_before = false; // a member other than an unnamed bit-field came before
    const bool simple = !is_union_ && !packed_ && !max_field_align_ && !ms_struct_;
    for (size_t i = 0; i < n; ++i) {
      if (simple) {
        size_t next = placeSimpleRun(i, n);
        named_before |= next != i;
        if ((i = next) == n) break;
      }
      const FieldDecl& fd = rd_.fields[i];
      if (i + 2 < n) prefetchType(rd_.fields[i + 2].type);
      if (!fd.type) fail(ctx_, fd.loc, "field without a type");
      TypeLayout known;
      if (!fd.isBitField() && engine_.quick(fd.type, known)) {
        // A type with a known layout is neither a function nor an incomplete array: the
        // checks below cannot fail for it.
        named_before = true;
        checkAttributeAlign(fd);
        unfilled_ = 0;
        placeField(fd, known.size * 8, uint64_t(known.align) * 8);
        continue;
      }
      const Type* canon = canonicalType(fd.type);
      if (fd.isBitField()) {
        if (!fd.name.empty()) named_before = true;
        layoutBitField(fd, canon);
        continue;
      }
      auto* at = dyn<ArrayType>(canon);
      if (at && at->incomplete) checkFlexibleArray(fd, i + 1 == n, named_before);
      named_before = true;
      layoutField(fd, canon);
    }
    out_.fields = std::span<const FieldLayout>(fields_, n);
    finish();
  }

private:
  // A field's type is often a pointer type made where the pointee was first pointed to, far from
  // the record: its first line is asked for a few fields ahead, so that the misses overlap.
  static void prefetchType(const Type* t) {
#if defined(__GNUC__)
    __builtin_prefetch(t);
#else
    (void)t;
#endif
  }

  BitInfo infoOf(const FieldDecl& fd) const {
    try {
      TypeLayout l = engine_.of(fd.type);
      return {l.size * 8, uint64_t(l.align) * 8};
    } catch (const Error& e) {
      rethrowAtField(e, ctx_, rd_, fd);
    }
  }

  // The alignment of an incomplete array type (through typedefs, which may override it).
  uint64_t flexibleArrayAlign(const Type* t) const {
    t = t->unqualified;
    if (auto* td = dyn<TypedefType>(t)) {
      if (td->decl->aligned) return uint64_t(td->decl->aligned) * 8;
      return flexibleArrayAlign(td->decl->underlying);
    }
    return uint64_t(engine_.arrayElement(static_cast<const ArrayType*>(t)->element).align) * 8;
  }

  void checkFlexibleArray(const FieldDecl& fd, bool last, bool named_before) {
    std::string name = "'" + std::string(fd.name) + "'";
    const bool anywhere =
        compilerInfo(ctx_.target().compiler).flexible_array_anywhere || isCxx(ctx_.language());
    if (rd_.is_union && !anywhere)
      fail(ctx_, fd.loc, "flexible array member " + name + " in a union is not allowed");
    if (!last && !rd_.is_union)
      fail(ctx_, fd.loc, "flexible array member " + name + " is not the last field");
    if (!named_before && !anywhere)
      fail(ctx_, fd.loc,
           "flexible array member " + name + " not allowed in otherwise empty struct");
    out_.has_flexible_array = true;
  }

  void updateAlignment(uint64_t a) {
    align_ = std::max(align_, a);
  }

  void setDataSize(uint64_t bits) {
    data_ = bits;
    size_ = std::max(size_, data_);
  }

  void checkAttributeAlign(const FieldDecl& fd) const {
    if (fd.aligned && !isPow2(fd.aligned))
      fail(ctx_, fd.loc, "requested alignment is not a power of two");
  }

  void layoutField(const FieldDecl& fd, const Type* canon) {
    checkAttributeAlign(fd);
    unfilled_ = 0;

    if (canon->kind == TypeKind::Function)
      fail(ctx_, fd.loc, "field '" + std::string(fd.name) + "' declared as a function");
    uint64_t field_size = 0, field_align = kCharBits;
    auto* at = dyn<ArrayType>(canon);
    if (at && at->incomplete) {
      // A flexible array member takes no space but is aligned for its element type.
      try {
        field_align = flexibleArrayAlign(fd.type);
      } catch (const Error& e) {
        rethrowAtField(e, ctx_, rd_, fd);
      }
      field_size = 0;
    } else {
      BitInfo info = infoOf(fd);
      field_size = info.width;
      field_align = info.align;
    }
    placeField(fd, field_size, field_align, at && at->incomplete);
  }

  // In a struct without packed or #pragma pack: places the members from `i` on that are not
  // bit-fields, have no attribute of their own and are of a type whose layout is known, as
  // placeField() would, with the builder's state in locals (the compiler cannot keep members
  // in registers across the stores of the FieldLayouts). Returns the index of the first member
  // it did not place (`i` if none).
  size_t placeSimpleRun(size_t i, size_t n) {
    const FieldDecl* const fds = rd_.fields.data();
    uint64_t data = data_, size = size_, padded = padded_, align = align_;
    FieldLayout* const first = fields_ + count_;
    FieldLayout* out = first;
    const uint64_t max_bytes = max_bytes_;
    for (; i < n; ++i) {
      const FieldDecl& fd = fds[i];
      if (i + 2 < n) prefetchType(fds[i + 2].type);
      TypeLayout known;
      if (!fd.type || fd.isBitField() || fd.aligned || fd.packed || !engine_.quick(fd.type, known))
        break;
      const uint64_t field_align = uint64_t(known.align) * 8;
      const uint64_t offset = alignBits(data, field_align, fd);
      *out++ = {offset, known.size, known.align, -1};
      data = addBits(offset, known.size * 8, fd);
      size = std::max(size, data);
      padded = std::max(padded, data);
      if (size / 8 > max_bytes) failTooLarge(fd.loc);
      align = std::max(align, field_align);
    }
    if (out != first) {
      data_ = data;
      size_ = size;
      padded_ = padded;
      align_ = align;
      count_ += size_t(out - first);
      unfilled_ = 0;
    }
    return i;
  }

  // Places a member that is not a bit-field, of `field_size` and natural alignment
  // `field_align` bits, after the attributes and #pragma pack have adjusted the alignment.
  void placeField(const FieldDecl& fd, uint64_t field_size, uint64_t field_align,
                  bool flexible = false) {
    uint64_t offset = is_union_ ? 0 : data_;
    if (ms_struct_) {
      last_unit_ = 0;
      // ms_struct aligns a member of a basic type (through typedefs and arrays, not a flexible
      // array) to its size when that is a power of two above its alignment (i386's double).
      if (!flexible) field_align = std::max(field_align, basicTypeSizeAlign(fd));
    }
    bool field_packed = fd.packed || (packed_ && !unpackedNonPod(fd.type));
    uint64_t explicit_align = uint64_t(fd.aligned) * 8;
    uint64_t packed_align = std::max<uint64_t>(kCharBits, explicit_align);
    uint64_t unpacked_align = std::max(field_align, explicit_align);
    // #pragma pack overrides even the aligned attribute.
    if (max_field_align_) {
      packed_align = std::min(packed_align, max_field_align_);
      unpacked_align = std::min(unpacked_align, max_field_align_);
    }
    field_align = field_packed ? packed_align : unpacked_align;

    offset = alignBits(offset, field_align, fd);
    fields_[count_++] = {offset, field_size / 8, uint32_t(field_align / 8), -1};
    const uint64_t end = addBits(offset, field_size, fd);
    if (is_union_)
      setDataSize(std::max(data_, field_size));
    else
      setDataSize(end);
    padded_ = std::max(padded_, end);
    checkSize(fd);
    updateAlignment(field_align);
  }

  // The checks every rule set makes on a bit-field; returns its type's size and alignment.
  BitInfo checkBitField(const FieldDecl& fd, const Type* canon) {
    checkAttributeAlign(fd);
    auto* it = dyn<IntType>(canon);
    bool is_enum = canon && canon->kind == TypeKind::Enum;
    auto label = [&fd] {
      return fd.name.empty() ? std::string("unnamed bit-field")
                             : "bit-field '" + std::string(fd.name) + "'";
    };
    if (!it && !is_enum)
      fail(ctx_, fd.loc, label() + " has non-integral type '" + typeName(fd.type, ctx_) + "'");
    BitInfo info = infoOf(fd);
    if (fd.bit_width < 0) fail(ctx_, fd.loc, label() + " has a negative width");
    const uint64_t field_size = uint64_t(fd.bit_width);
    if (field_size == 0 && !fd.name.empty())
      fail(ctx_, fd.loc, "named bit-field '" + std::string(fd.name) + "' has zero width");
    uint64_t limit = is_enum ? info.width : valueBits(canon, info);
    if (field_size > limit)
      fail(ctx_, fd.loc,
           "width of " + label() + " (" + std::to_string(field_size) +
               " bits) exceeds the width of its type (" + std::to_string(limit) +
               (limit == 1 ? " bit)" : " bits)"));
    return info;
  }

  void layoutBitField(const FieldDecl& fd, const Type* canon) {
    const BitInfo info = checkBitField(fd, canon);
    const uint64_t field_size = uint64_t(fd.bit_width);
    bool field_packed = packed_ || fd.packed;
    uint64_t storage = info.width;
    uint64_t field_align = info.align;
    if (ms_struct_) {
      // A unit of the declared type's size, aligned to that size, is shared by the following
      // bit-fields of a type of the same size while they fit; a zero-width bit-field right after
      // a member that is not a bit-field is ignored.
      if (storage > 255)
        fail(ctx_, fd.loc,
             "an ms_struct bit-field of a type wider than 255 bits is not supported (clang keeps "
             "the unit's size in 8 bits and wraps it)");
      field_align = storage;
      if (last_unit_ != storage || unfilled_ < field_size) {
        if (!last_unit_ && !field_size) field_align = 1;
        unfilled_ = 0;
        last_unit_ = 0;
      }
    }
    uint64_t offset = is_union_ ? 0 : data_ - unfilled_;

    if (!ms_struct_ && !d_.bitfield_type_alignment) {
      // Targets that ignore the declared type's alignment for bit-fields, except (on some) for
      // zero-width ones.
      if (!(field_size == 0 && d_.zero_length_bitfield_alignment)) field_align = 1;
    }
    uint64_t unpacked_align = field_align;
    // A packed bit-field may start at any bit (alignments here are in bits, as in clang); not
    // under ms_struct, which places units.
    if (!ms_struct_ && field_packed && field_size != 0) field_align = 1;
    uint64_t explicit_align = uint64_t(fd.aligned) * 8;
    if (explicit_align) {
      field_align = std::max(field_align, explicit_align);
      unpacked_align = std::max(unpacked_align, explicit_align);
    }
    // #pragma pack takes precedence over the aligned attribute, for non-zero widths.
    if (max_field_align_ && field_size) {
      unpacked_align = std::min(unpacked_align, max_field_align_);
      field_align = field_packed ? unpacked_align : std::min(field_align, max_field_align_);
    }

    // ms_struct ignores every alignment of a bit-field in a union, explicit ones included.
    if (ms_struct_ && is_union_) field_align = unpacked_align = 1;

    if (ms_struct_) {
      // A new unit unless the bit-field fits in the current one.
      if (field_size == 0 || field_size > unfilled_) {
        offset = alignBits(offset, field_align, fd);
        unfilled_ = 0;
      }
    } else {
      // Any #pragma pack suppresses the padding that keeps a bit-field inside one aligned unit
      // of its declared type.
      bool allow_padding = max_field_align_ == 0;
      if (field_size == 0 ||
          (allow_padding && (offset & (field_align - 1)) + field_size > storage)) {
        offset = alignBits(offset, field_align, fd);
      } else if (explicit_align && (max_field_align_ == 0 || explicit_align <= max_field_align_)) {
        offset = alignBits(offset, explicit_align, fd);
      }
    }

    fields_[count_++] = {offset, info.width / 8, uint32_t(info.align / 8), fd.bit_width};

    // Unnamed bit-fields do not raise the record's alignment, except on targets that say so
    // and under ms_struct.
    if (!ms_struct_ && !d_.zero_length_bitfield_alignment && fd.name.empty())
      field_align = unpacked_align = 1;

    if (is_union_) {
      // ms_struct: the whole unit (one char for a zero-width bit-field).
      const uint64_t rounded = !ms_struct_  ? alignTo(field_size, kCharBits)
                               : field_size ? storage
                                            : kCharBits;
      setDataSize(std::max(data_, rounded));
    } else if (ms_struct_ && field_size) {
      if (!unfilled_) {
        setDataSize(addBits(offset, storage, fd));
        unfilled_ = storage;
      }
      unfilled_ -= field_size;
      last_unit_ = storage;
    } else {
      uint64_t end = addBits(offset, field_size, fd);
      setDataSize(alignBits(end, kCharBits, fd));
      unfilled_ = data_ - end;
      last_unit_ = 0;
    }
    checkSize(fd);
    updateAlignment(field_align);
  }

  // ms_struct: the size of a member's basic type (through typedefs and array types) when it is
  // a power of two, else 0 (bits). clang refuses a basic type of another size (i386's 12-byte
  // long double) except on MinGW, where it lays it out silently.
  uint64_t basicTypeSizeAlign(const FieldDecl& fd) const {
    const Type* u = stripTypedefs(fd.type);
    while (auto* at = dyn<ArrayType>(u)) u = stripTypedefs(at->element);
    const SizeAlign* sa = nullptr;
    if (auto* it = dyn<IntType>(u)) {
      if (!it->is_bitint) sa = &d_.of(it->ikind);
    } else if (auto* ft = dyn<FloatType>(u)) {
      sa = &d_.of(ft->fkind);
    }
    if (!sa || !sa->supported()) return 0;
    if (!isPow2(sa->size) && !d_.ms_bitfields)
      fail(ctx_, fd.loc,
           "ms_struct may not produce Microsoft-compatible layouts with fundamental data types "
           "with sizes that aren't a power of two (field '" +
               std::string(fd.name) + "' of " + rd_.displayName(ctx_) + ")");
    return isPow2(sa->size) ? uint64_t(sa->size) * 8 : 0;
  }

  // ----- the Microsoft rules (clang's MicrosoftRecordLayoutBuilder for a C record) ---------
  //
  // A member is placed at the record's size rounded up to its alignment (0 in a union). A
  // bit-field takes a whole unit of its declared type, which the following bit-fields share
  // while their type has the same size and they fit; a zero-width bit-field ends the unit, and
  // is ignored unless a bit-field with a width came just before. `aligned` on a member or its
  // type is a required alignment that neither `packed` nor `#pragma pack` lowers; `#pragma
  // pack` above the pointer size is ignored. An empty record has size 4.

  void runMicrosoft(size_t n) {
    // clang: RequiredAlignment starts at 1 on 64-bit targets and at 0 (none) on 32-bit ones.
    required_align_ = d_.pointer.size == 8 ? kCharBits : 0;
    if (max_field_align_ > uint64_t(d_.pointer.size) * 8) max_field_align_ = 0;
    if (packed_) max_field_align_ = kCharBits;
    bool named_before = false;
    for (size_t i = 0; i < n; ++i) {
      const FieldDecl& fd = rd_.fields[i];
      if (!fd.type) fail(ctx_, fd.loc, "field without a type");
      const Type* canon = canonicalType(fd.type);
      if (fd.isBitField()) {
        if (!fd.name.empty()) named_before = true;
        msBitField(fd, canon);
        continue;
      }
      auto* at = dyn<ArrayType>(canon);
      if (at && at->incomplete) checkFlexibleArray(fd, i + 1 == n, named_before);
      named_before = true;
      msField(fd, canon);
    }
    out_.fields = std::span<const FieldLayout>(fields_, n);
    // clang: the size is rounded to the alignment, then the required alignment applies; the
    // rounding is capped by #pragma pack but not below the required alignment.
    if (align_ - 1 > ~uint64_t(0) - size_) failTooLarge(rd_.loc);
    size_ = alignTo(size_, align_);
    required_align_ = std::max(required_align_, uint64_t(rd_.aligned) * 8);
    if (required_align_) {
      align_ = std::max(align_, required_align_);
      uint64_t rounding = align_;
      if (max_field_align_) rounding = std::min(rounding, max_field_align_);
      rounding = std::max(rounding, required_align_);
      if (rounding - 1 > ~uint64_t(0) - size_) failTooLarge(rd_.loc);
      size_ = alignTo(size_, rounding);
    }
    // An empty record has size 4 in C and 1 in C++ (CUDA, HIP), or its alignment when a
    // required one of at least that applies.
    const uint64_t min_size = isCxx(ctx_.language()) ? kCharBits : 32;
    if (size_ == 0) size_ = required_align_ >= min_size ? align_ : min_size;
    out_.size = size_ / 8;
    out_.align = uint32_t(align_ / 8);
    out_.data_size = out_.size;
    out_.required_align = uint32_t(required_align_ / 8);
    if (out_.size > max_bytes_) failTooLarge(rd_.loc);
  }

  // Whether a type carries a required alignment: `aligned` on a typedef on the way, or on the
  // record (clang's AlignRequirement of the type's TypeInfo).
  bool alignRequired(const Type* t) const {
    for (t = t->unqualified;;) {
      if (auto* td = dyn<TypedefType>(t)) {
        if (td->decl->aligned) return true;
        t = td->decl->underlying->unqualified;
      } else if (auto* at = dyn<ArrayType>(t)) {
        t = at->element->unqualified;
      } else if (auto* rt = dyn<RecordType>(t)) {
        return rt->decl->aligned != 0;
      } else {
        return false;
      }
    }
  }

  // A member's size and alignment (bits) under the Microsoft rules (getAdjustedElementInfo):
  // `info` is the layout of the member's type without its outer typedefs (whose `aligned`
  // counts as a required alignment only, so it cannot lower the natural one).
  BitInfo msElementInfo(const FieldDecl& fd, const Type* canon, BitInfo info, bool bit_field) {
    uint64_t required = uint64_t(fd.aligned) * 8;
    if (alignRequired(fd.type)) {
      auto* at = dyn<ArrayType>(canon);
      required =
          std::max(required, at && at->incomplete ? flexibleArrayAlign(fd.type) : infoOf(fd).align);
    }
    if (bit_field) {
      info.align = std::max(info.align, required);
    } else {
      const Type* base = canon;
      while (auto* at = dyn<ArrayType>(base)) base = canonicalType(at->element);
      if (auto* rt = dyn<RecordType>(base))
        required = std::max(required, uint64_t(engine_.of(*rt->decl).required_align) * 8);
      required_align_ = std::max(required_align_, required);
    }
    if (max_field_align_) info.align = std::min(info.align, max_field_align_);
    if (fd.packed) info.align = kCharBits;
    info.align = std::max(info.align, required);
    return info;
  }

  // The layout of a member's type with its outer typedefs removed.
  BitInfo naturalInfo(const FieldDecl& fd, const Type* canon) const {
    try {
      TypeLayout l = engine_.of(canon);
      return {l.size * 8, uint64_t(l.align) * 8};
    } catch (const Error& e) {
      rethrowAtField(e, ctx_, rd_, fd);
    }
  }

  void msField(const FieldDecl& fd, const Type* canon) {
    checkAttributeAlign(fd);
    if (canon->kind == TypeKind::Function)
      fail(ctx_, fd.loc, "field '" + std::string(fd.name) + "' declared as a function");
    last_unit_ = 0;
    BitInfo info;
    auto* at = dyn<ArrayType>(canon);
    if (at && at->incomplete) {
      try {
        info = {0, flexibleArrayAlign(canon)};
      } catch (const Error& e) {
        rethrowAtField(e, ctx_, rd_, fd);
      }
    } else {
      info = naturalInfo(fd, canon);
    }
    info = msElementInfo(fd, canon, info, false);
    updateAlignment(info.align);
    const uint64_t offset = is_union_ ? 0 : alignBits(size_, info.align, fd);
    fields_[count_++] = {offset, info.width / 8, uint32_t(info.align / 8), -1};
    size_ = std::max(size_, addBits(offset, info.width, fd));
    checkSize(fd);
  }

  void msBitField(const FieldDecl& fd, const Type* canon) {
    const BitInfo type = checkBitField(fd, canon);
    const uint64_t width = uint64_t(fd.bit_width);
    const uint32_t type_align = uint32_t(type.align / 8);
    if (width == 0) {
      // Ignored unless it follows a bit-field with a width; then it ends that unit.
      if (!last_unit_) {
        fields_[count_++] = {is_union_ ? 0 : size_, type.width / 8, type_align, 0};
        return;
      }
      last_unit_ = 0;
      const BitInfo info = msElementInfo(fd, canon, naturalInfo(fd, canon), true);
      if (is_union_) {
        fields_[count_++] = {0, type.width / 8, type_align, 0};
        size_ = std::max(size_, info.width);
      } else {
        const uint64_t offset = alignBits(size_, info.align, fd);
        fields_[count_++] = {offset, type.width / 8, type_align, 0};
        size_ = offset;
        updateAlignment(info.align);
      }
      checkSize(fd);
      return;
    }
    const BitInfo info = msElementInfo(fd, canon, naturalInfo(fd, canon), true);
    // Bit-fields of types of different sizes never share a unit.
    if (!is_union_ && last_unit_ && last_unit_ == info.width && width <= unfilled_) {
      fields_[count_++] = {size_ - unfilled_, type.width / 8, type_align, fd.bit_width};
      unfilled_ -= width;
      return;
    }
    last_unit_ = info.width;
    if (is_union_) {
      // The bit-field's alignment does not count in a union.
      fields_[count_++] = {0, type.width / 8, type_align, fd.bit_width};
      size_ = std::max(size_, info.width);
    } else {
      const uint64_t offset = alignBits(size_, info.align, fd);
      fields_[count_++] = {offset, type.width / 8, type_align, fd.bit_width};
      size_ = addBits(offset, info.width, fd);
      updateAlignment(info.align);
      unfilled_ = info.width - width;
    }
    checkSize(fd);
  }

  // Sums of bit counts checked against wrapping: members that add up past what 64 bits count
  // make the record "too large" (the target's limit, checked after each member, is lower still:
  // this keeps the sums from wrapping before that check sees them).
  uint64_t addBits(uint64_t a, uint64_t b, const FieldDecl& fd) const {
    if (b > ~uint64_t(0) - a) failTooLarge(fd.loc);
    return a + b;
  }
  uint64_t alignBits(uint64_t v, uint64_t align, const FieldDecl& fd) const {
    addBits(v, align - 1, fd);
    return alignTo(v, align);
  }

  void checkSize(const FieldDecl& fd) const {
    if (size_ / 8 > max_bytes_) failTooLarge(fd.loc);
  }

  void finish() {
    size_ = std::max(size_, padded_);
    // C++ (CUDA, HIP): an empty class (no members but zero-width bit-fields) has size 1.
    if (size_ == 0 && isCxx(ctx_.language()) &&
        std::all_of(rd_.fields.begin(), rd_.fields.end(), [](auto& f) { return f.bit_width == 0; }))
      size_ = kCharBits;
    if (align_ - 1 > ~uint64_t(0) - size_) failTooLarge(rd_.loc);
    out_.size = alignTo(size_, align_) / 8;
    out_.align = uint32_t(align_ / 8);
    out_.data_size = data_ / 8;
    if (out_.size > max_bytes_) failTooLarge(rd_.loc);
  }

  [[noreturn]] void failTooLarge(SourceLoc at) const {
    fail(ctx_, at, rd_.displayName(ctx_) + " is too large");
  }

  const LayoutEngine& engine_;
  const TypeContext& ctx_;
  const DataModel& d_;
  const RecordDecl& rd_;
  RecordLayout& out_;
  const uint64_t max_bytes_;      // largest object size in bytes
  FieldLayout* fields_ = nullptr; // one per field of the record, written in order
  size_t count_ = 0;

  bool is_union_ = false;
  bool packed_ = false;
  // C++ with clang 16 or later: `packed` does not reach a member of a non-POD class.
  const bool cxx_non_pod_rule_ =
      isCxx(ctx_.language()) && compilerInfo(ctx_.target().compiler).non_pod_members_unpacked;

  // A member of this type keeps its alignment in a packed record (cxx_non_pod_rule_): a record
  // (through typedefs, not arrays: clang's getAsCXXRecordDecl) that is not POD because it
  // holds an _Atomic value, and is not packed itself.
  bool unpackedNonPod(const Type* t) const {
    if (!cxx_non_pod_rule_) return false;
    auto* r = dyn<RecordType>(stripTypedefs(t));
    return r && !r->decl->packed && containsAtomic(t);
  }
  uint64_t max_field_align_ = 0; // bits; 0 = no #pragma pack
  uint64_t data_ = 0;            // bits, always a multiple of 8
  uint64_t size_ = 0;            // bits
  uint64_t padded_ = 0;          // bits: end of the furthest field including its size
  uint64_t unfilled_ = 0;        // bits of the last byte not used by the last bit-field
                                 // (ms_struct and Microsoft: of the last bit-field's unit)
  uint64_t align_ = kCharBits;   // bits

  bool microsoft_ = false;      // DataModel::record_rules is Microsoft
  bool ms_struct_ = false;      // generic rules with ms_struct bit-fields
  uint64_t last_unit_ = 0;      // bits: the unit of the last bit-field (0: it was no bit-field
                                // or a zero-width one); Microsoft: its type's size
  uint64_t required_align_ = 0; // Microsoft: bits (clang's RequiredAlignment)
};

} // namespace detail

FieldLayout* LayoutEngine::allocateFields(size_t n) const {
  if (n > field_left_) {
    // Blocks of 4,096 fields (96 KiB) or one for a larger record, which leaves the block in use
    // for the next records.
    constexpr size_t kBlock = 4096;
    if (n >= kBlock) return field_blocks_.emplace_back(new FieldLayout[n]).get();
    field_next_ = field_blocks_.emplace_back(new FieldLayout[kBlock]).get();
    field_left_ = kBlock;
  }
  FieldLayout* p = field_next_;
  field_next_ += n;
  field_left_ -= n;
  return p;
}

const RecordLayout& LayoutEngine::of(const RecordDecl& rd) const {
  if (rd.id < cache_.size() && cache_[rd.id]) return *cache_[rd.id];
  if (!rd.complete)
    fail(ctx_, rd.loc, "incomplete type '" + rd.displayName(ctx_) + "' has no size");
  if (rd.id >= cache_.size()) {
    size_t n = std::max<size_t>(ctx_.recordCount(), size_t(rd.id) + 1);
    cache_.resize(n, nullptr);
    in_progress_.resize(n, 0);
  }
  if (in_progress_[rd.id]) fail(ctx_, rd.loc, rd.displayName(ctx_) + " contains itself");
  in_progress_[rd.id] = 1;
  struct Reset {
    std::vector<uint8_t>& v;
    uint32_t id;
    ~Reset() { v[id] = 0; }
  } reset{in_progress_, rd.id};
  // Built in its place: a layout built elsewhere and copied in is read back right after its
  // fields were stored, which costs a stall per record. A layout whose builder throws stays in
  // the deque, unreferenced (records laid out on the way come after it).
  RecordLayout& layout = layouts_.emplace_back();
  detail::RecordBuilder(*this, rd, layout).run();
  cache_[rd.id] = &layout;
  return layout;
}

} // namespace abikit
