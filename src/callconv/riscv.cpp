// RISC-V calling convention for every named ABI (reference/riscv.md §3–4; docs/targets/riscv.md
// "Calling convention").
//
// abikit reproduces what clang-14 and llc-14 do, in the same two stages:
//
//  1. The front end (clang-14's RISCVABIInfo). Each argument, left to right, gets an ABI kind
//     (direct, extend, indirect, ignore) and becomes zero, one or two IR values (integers of any
//     width, half, float, double, fp128, pointers). clang keeps its own count of the argument
//     registers it believes are left (8 or 6 GPRs, 8 FPRs, 2 + 2 for the return value) and uses
//     it for three decisions only: whether a struct is flattened into FP registers, whether a
//     narrow integer is extended (not when clang thinks it goes to the stack), and whether a
//     real goes to an FPR.
//  2. The back end (LLVM 14's CC_RISCV). Every IR value is legalised into XLEN-sized pieces and
//     assigned to the next free a-register, fa-register or an XLEN-sized stack slot, with the
//     split, aligned-pair and indirect rules of the back end. The back end keeps its own count,
//     which can differ from clang's (complex integers, _BitInt, over-aligned typedefs, returns
//     the back end demotes to a hidden pointer); where they differ, the back end decides the
//     locations and clang the kinds, exactly as in the real toolchain.
//
// ilp32e/lp64e (no clang-14 support) follow modern LLVM and GCC: six argument GPRs; ILP32E
// passes 2×XLEN-aligned varargs without an aligned register pair and aligns every stack slot
// to 4 bytes. lp64q (no compiler at all) extends the hardware floating-point rules to
// ABI_FLEN = 128 as the psABI describes.
#include "core.h"

#include <algorithm>

namespace abikit::detail {
namespace {

constexpr std::string_view kGpr[] = {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"};
constexpr std::string_view kFpr[] = {"fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7"};

/// An IR value as the back end receives it.
enum class Ir : uint8_t { Int, Half, Float, Double, Quad, Ptr };

struct IrValue {
  Ir kind = Ir::Int;
  uint16_t bits = 0;       // width (Int: iN; FP: 16/32/64/128; Ptr: XLEN)
  uint32_t offset = 0;     // byte offset in the C value of the bytes it carries
  uint32_t size = 0;       // bytes of the C value it carries
  uint32_t orig_align = 1; // ABI alignment of its IR type (bytes)
  uint32_t arg_alloc = 0;  // alloc size of the whole IR argument it belongs to (bytes)
};

/// The front end's answer for one argument or the return value.
struct Classified {
  ArgKind kind = ArgKind::Direct;
  ExtendKind extend = ExtendKind::None;
  uint8_t count = 0; // IR values (0 for ignore; 1 pointer for indirect)
  IrValue v[2];
};

constexpr uint64_t alignTo(uint64_t v, uint64_t a) {
  return a > 1 ? (v + a - 1) / a * a : v;
}

struct Rules {
  const LayoutEngine& layout;
  const FunctionDecl& fn;
  unsigned xlen;              // bits
  unsigned flen;              // ABI_FLEN bits (0 for the soft-float ABIs)
  unsigned ngpr;              // argument GPRs: 8, or 6 for the E ABIs
  bool ilp32e;                // no aligned pairs for varargs; 4-byte stack slots for 8-byte values
  bool c_language;            // __fp16 cannot be a parameter or return type
  const RiscvCallRules& call; // what the selected compiler does differently
  std::vector<std::string>& notes;

  unsigned xbytes() const { return xlen / 8; }

  void note(std::string text) const {
    if (std::find(notes.begin(), notes.end(), text) == notes.end())
      notes.push_back(std::move(text));
  }

  // ----- LLVM data layout (clang-14's RISC-V data layout strings) -----------------------------

  /// ABI alignment of iN: the smallest integer type the data layout names that is at least N
  /// bits wide (i8, i16, i32, i64 and, on RV64, i128), else the widest one.
  uint32_t intAlign(unsigned bits) const {
    if (bits <= 8) return 1;
    if (bits <= 16) return 2;
    if (bits <= 32) return 4;
    if (bits <= 64 || xlen == 32) return 8;
    return 16;
  }
  uint32_t storeSize(Ir k, unsigned bits) const {
    switch (k) {
    case Ir::Int:
      return (bits + 7) / 8;
    case Ir::Half:
      return 2;
    case Ir::Float:
      return 4;
    case Ir::Double:
      return 8;
    case Ir::Quad:
      return 16;
    case Ir::Ptr:
      return xbytes();
    }
    return 0;
  }
  uint32_t abiAlign(Ir k, unsigned bits) const {
    return k == Ir::Int ? intAlign(bits) : storeSize(k, bits);
  }
  uint32_t allocSize(Ir k, unsigned bits) const {
    return uint32_t(alignTo(storeSize(k, bits), abiAlign(k, bits)));
  }

  IrValue value(Ir k, unsigned bits, uint64_t offset, uint64_t size) const {
    IrValue v;
    v.kind = k;
    v.bits = uint16_t(bits);
    v.offset = uint32_t(offset);
    v.size = uint32_t(size);
    v.orig_align = abiAlign(k, bits);
    v.arg_alloc = allocSize(k, bits);
    return v;
  }

  // ----- C types ------------------------------------------------------------------------------

  uint64_t sizeBits(const Type* t) const { return layout.of(t).size * 8; }

  /// The IR type clang's ConvertType gives a scalar leaf (integer, enum or real).
  void irTypeOf(const Type* t, Ir& k, unsigned& bits) const {
    const Type* c = stripTypedefs(t);
    if (auto* f = dyn<FloatType>(c)) {
      switch (f->fkind) {
      case FloatKind::Float16:
      case FloatKind::Fp16: // reached only inside records (clang 19 and later flatten it)
        k = Ir::Half, bits = 16;
        return;
      case FloatKind::Float:
        k = Ir::Float, bits = 32;
        return;
      case FloatKind::Double:
        k = Ir::Double, bits = 64;
        return;
      case FloatKind::LongDouble:
        k = Ir::Quad, bits = 128;
        return;
      default:
        unsupported(fn, "no RISC-V convention for the floating type '" +
                            typeName(t, layout.context()) + "'");
      }
    }
    const IntType* it = asInteger(c);
    k = Ir::Int;
    bits = it->ikind == IntKind::Bool && !it->is_bitint ? 1u
           : it->is_bitint                              ? unsigned(it->bits)
                                                        : unsigned(layout.of(it).size * 8);
  }

  // ----- clang's isEmptyRecord (C rules) ------------------------------------------------------

  bool isEmptyField(const FieldDecl& fd) const {
    if (fd.isUnnamedBitField()) return true;
    const Type* t = stripTypedefs(fd.type);
    while (auto* at = dyn<ArrayType>(t)) {
      if (at->incomplete) return false;
      if (at->count == 0) return true;
      t = stripTypedefs(at->element);
    }
    return t->kind == TypeKind::Record && isEmptyRecord(t);
  }

  bool isEmptyRecord(const Type* t) const {
    auto* rt = dyn<RecordType>(stripTypedefs(t));
    if (!rt) return false;
    const RecordDecl& rd = *rt->decl;
    if (!rd.complete) return false;
    if (layout.of(rd).has_flexible_array) return false;
    for (const FieldDecl& fd : rd.fields)
      if (!isEmptyField(fd)) return false;
    return true;
  }

  // ----- clang-14's detectFPCCEligibleStruct ------------------------------------------------

  struct Leaf {
    Ir kind;
    unsigned bits;
    uint64_t offset; // bytes, from the start of the argument
  };
  struct Flat {
    Leaf leaf[2];
    int n = 0;
  };

  static bool isFp(Ir k) { return k != Ir::Int && k != Ir::Ptr; }

  bool addLeaf(Flat& fl, Ir k, unsigned bits, uint64_t offset) const {
    if (fl.n == 2) return false;
    fl.leaf[fl.n++] = {k, bits, offset};
    return true;
  }

  bool flatten(const Type* t, uint64_t offset, Flat& fl) const {
    const Type* c = stripTypedefs(t);
    if (asInteger(c)) {
      if (sizeBits(c) > xlen) return false;
      if (fl.n > 0 && fl.leaf[0].kind == Ir::Int) return false; // int + int
      Ir k;
      unsigned bits;
      irTypeOf(c, k, bits);
      return addLeaf(fl, k, bits, offset);
    }
    if (c->kind == TypeKind::Float) {
      uint64_t size = sizeBits(c);
      // Reals wider than ABI_FLEN keep the struct in the integer convention; so do those
      // narrower than 32 bits (_Float16, __fp16) in clang-14.
      if (size > flen || (size < 32 && !call.half_in_fp_convention)) return false;
      Ir k;
      unsigned bits;
      irTypeOf(c, k, bits);
      return addLeaf(fl, k, bits, offset);
    }
    if (auto* ct = dyn<ComplexType>(c)) {
      if (fl.n > 0) return false;
      uint64_t elt = sizeBits(ct->element);
      if (elt > flen) return false;
      const Type* e = stripTypedefs(ct->element);
      if (auto* ef = dyn<FloatType>(e); ef && ef->fkind == FloatKind::Fp16)
        unsupported(fn, "_Complex __fp16 has no RISC-V convention in clang-14");
      Ir k;
      unsigned bits;
      irTypeOf(e, k, bits);
      fl.leaf[0] = {k, bits, offset};
      fl.leaf[1] = {k, bits, offset + elt / 8};
      fl.n = 2;
      return true;
    }
    if (auto* at = dyn<ArrayType>(c)) {
      if (at->incomplete) return false;
      uint64_t elt = layout.of(at->element).size;
      for (uint64_t i = 0; i < at->count; ++i) {
        int before = fl.n;
        if (!flatten(at->element, offset + i * elt, fl)) return false;
        // An element that adds no field (an empty record): neither do the others. This also
        // keeps `struct E {} e[1000000000]` from taking a billion steps.
        if (fl.n == before) return true;
      }
      return true;
    }
    if (auto* rt = dyn<RecordType>(c)) {
      if (isEmptyRecord(c)) return true;
      const RecordDecl& rd = *rt->decl;
      if (rd.is_union) return false;
      const RecordLayout& rl = layout.of(rd);
      int zero_width = 0;
      for (size_t i = 0; i < rd.fields.size(); ++i) {
        const FieldDecl& fd = rd.fields[i];
        bool wide = false; // a bit-field of a type wider than XLEN, at most XLEN bits wide
        if (fd.isBitField()) {
          wide = sizeBits(fd.type) > xlen && unsigned(fd.bit_width) <= xlen;
          if (fd.bit_width == 0) {
            ++zero_width;
            continue;
          }
        }
        uint64_t at = offset + rl.fields[i].bit_offset / 8;
        // A wide bit-field counts as an unsigned XLEN-bit integer.
        bool ok = wide ? !(fl.n > 0 && fl.leaf[0].kind == Ir::Int) && addLeaf(fl, Ir::Int, xlen, at)
                       : flatten(fd.type, at, fl);
        if (!ok) return false;
        // clang-14: zero-width bit-fields are ignored next to a single real, but one seen in this
        // record before the second flattened field makes the struct ineligible.
        if (fl.n == 2 && zero_width > 0) return false;
      }
      return fl.n > 0;
    }
    return false;
  }

  /// Byte offsets (and the packedness) of the two fields in clang-14's coerce-and-expand
  /// struct: { [pad1 x i8], T1, [pad2 x i8], T2 }. These are the offsets the IR reads the
  /// fields from; they equal the C offsets except when a bit-field's IR integer overlaps the
  /// next field (see docs/targets/riscv.md).
  void coercedOffsets(const Flat& fl, uint64_t out[2]) const {
    const Leaf& f1 = fl.leaf[0];
    uint64_t a1 = abiAlign(f1.kind, f1.bits);
    if (fl.n == 1) {
      out[0] = f1.offset; // packed when the offset is non-zero, else 0
      return;
    }
    const Leaf& f2 = fl.leaf[1];
    uint64_t a2 = abiAlign(f2.kind, f2.bits);
    uint64_t size1 = storeSize(f1.kind, f1.bits);
    uint64_t nopad = alignTo(size1, a2);
    uint64_t padding = 0;
    if (f2.offset > nopad)
      padding = f2.offset - nopad;
    else if (f2.offset != a2 && f2.offset > size1)
      padding = f2.offset - size1;
    bool packed = f2.offset % a2 != 0;
    uint64_t cur = f1.offset; // the [pad1 x i8] element
    out[0] = packed ? cur : alignTo(cur, a1);
    cur = out[0] + allocSize(f1.kind, f1.bits) + padding;
    out[1] = packed ? cur : alignTo(cur, a2);
  }

  /// clang-14 builds the coerced struct's padding from the fields' store sizes but lays it out
  /// with their alloc sizes, and ignores overlap: a field can end up read from another offset
  /// than its own (a bit-field's IR integer overlapping the next field, a _BitInt whose alloc
  /// size exceeds its store size). The register then carries the bytes at the IR offset.
  void misplacedField(const Type* type, const Classified& c, const Flat& fl, const uint64_t at[2],
                      int i, uint64_t vsize) const {
    const Leaf& l = fl.leaf[i];
    std::string text = "clang-14 passes the " + std::string(i == 0 ? "first" : "second") +
                       " flattened field of '" + typeName(type, layout.context()) +
                       "' from byte offset " + std::to_string(at[i]) + " of the argument, not " +
                       "from its own offset " + std::to_string(l.offset);
    // The field's own bytes that no passed value carries in full (an N-bit integer carries
    // N bits).
    uint64_t end = std::min<uint64_t>(vsize, l.offset + storeSize(l.kind, l.bits));
    uint64_t first = end, last = 0;
    for (uint64_t b = l.offset; b < end; ++b) {
      bool covered = false;
      for (int k = 0; k < c.count; ++k) {
        const IrValue& v = c.v[k];
        uint64_t width = v.kind == Ir::Int ? v.bits : uint64_t(v.size) * 8;
        width = std::min<uint64_t>(width, uint64_t(v.size) * 8);
        covered = covered || (b >= v.offset && (b + 1) * 8 <= v.offset * 8ull + width);
      }
      if (!covered) first = std::min(first, b), last = std::max(last, b);
    }
    if (first < end)
      text += "; bytes " + std::to_string(first) + ".." + std::to_string(last) +
              " of the argument are not passed (wholly or in part)";
    note(text);
  }

  // ----- clang-14's classifyArgumentType ---------------------------------------------------

  static const Type* passedType(const Type* t) {
    if (auto* rt = dyn<RecordType>(stripTypedefs(t)))
      if (rt->decl->is_union && rt->decl->transparent_union && !rt->decl->fields.empty())
        return rt->decl->fields.front().type;
    return t;
  }

  Classified classify(const Type* type, bool fixed, int& gprs, int& fprs, bool is_return) const {
    Classified out;
    const Type* t = stripTypedefs(passedType(type));
    const TypeLayout tl = layout.of(t);
    const uint64_t vsize = tl.size;
    const uint64_t size = vsize * 8;

    // An empty record is ignored; clang 19 and later ignore it only when its size is zero
    // (`struct { char : 7; }` is passed like any 1-byte record).
    if (isEmptyRecord(t) && (!call.ignore_only_zero_sized_empty || vsize == 0)) {
      out.kind = ArgKind::Ignore;
      return out;
    }

    auto* real = dyn<FloatType>(t);
    if (real && real->fkind == FloatKind::Fp16 && c_language)
      unsupported(fn, std::string(is_return ? "the return value" : "a parameter") +
                          " cannot have __fp16 type (clang rejects it; pass a pointer)");

    // A real that fits an FP argument register.
    if (fixed && real && flen >= size && fprs > 0) {
      --fprs;
      Ir k;
      unsigned bits;
      irTypeOf(t, k, bits);
      out.count = 1;
      out.v[0] = value(k, bits, 0, vsize);
      return out;
    }

    // A floating complex number whose parts fit FP registers is passed as its two parts
    // (clang's isComplexType: an integer complex is an aggregate here).
    if (auto* ct = dyn<ComplexType>(t);
        ct && ct->element->kind == TypeKind::Float && fixed && flen && fprs >= 2) {
      uint64_t elt = sizeBits(ct->element);
      if (elt <= flen) {
        fprs -= 2;
        const Type* e = stripTypedefs(ct->element);
        if (auto* ef = dyn<FloatType>(e); ef && ef->fkind == FloatKind::Fp16)
          unsupported(fn, "_Complex __fp16 has no RISC-V convention in clang-14");
        Ir k;
        unsigned bits;
        irTypeOf(e, k, bits);
        out.count = 2;
        out.v[0] = value(k, bits, 0, elt / 8);
        out.v[1] = value(k, bits, elt / 8, elt / 8);
        uint32_t whole = uint32_t(alignTo(2 * allocSize(k, bits), abiAlign(k, bits)));
        out.v[0].arg_alloc = out.v[1].arg_alloc = whole;
        return out;
      }
    }

    // A struct of one or two fields that fit FP registers (or one FP and one integer field).
    if (auto* rt = dyn<RecordType>(t); rt && !rt->decl->is_union && fixed && flen) {
      Flat fl;
      bool ok = flatten(t, 0, fl) && fl.n > 0; // no field at all: the integer convention
      if (ok && fl.n == 1 && !isFp(fl.leaf[0].kind)) ok = false;
      if (ok) {
        int need_fpr = 0, need_gpr = 0;
        for (int i = 0; i < fl.n; ++i) (isFp(fl.leaf[i].kind) ? need_fpr : need_gpr)++;
        if (need_gpr <= gprs && need_fpr <= fprs) {
          gprs -= need_gpr;
          fprs -= need_fpr;
          uint64_t at[2] = {0, 0};
          coercedOffsets(fl, at);
          out.count = uint8_t(fl.n);
          for (int i = 0; i < fl.n; ++i) {
            const Leaf& l = fl.leaf[i];
            uint64_t len = storeSize(l.kind, l.bits);
            uint64_t off = std::min<uint64_t>(at[i], vsize);
            out.v[i] = value(l.kind, l.bits, off, std::min<uint64_t>(len, vsize - off));
          }
          for (int i = 0; i < fl.n; ++i)
            if (at[i] != fl.leaf[i].offset) misplacedField(type, out, fl, at, i, vsize);
          return out;
        }
      }
    }

    // The integer convention. clang-14 counts the GPRs it expects the value to take.
    const uint64_t align = uint64_t(tl.align) * 8;
    bool must_use_stack = false;
    int needed = 1;
    if (!fixed && align == 2 * xlen)
      needed = 2 + (ilp32e ? 0 : gprs % 2);
    else if (size > xlen && size <= 2 * xlen)
      needed = 2;
    if (needed > gprs) {
      must_use_stack = true;
      needed = gprs;
    }
    gprs -= needed;

    if (!isAggregate(t) && t->kind != TypeKind::Vector) {
      if (t->kind == TypeKind::Pointer) {
        out.count = 1;
        out.v[0] = value(Ir::Ptr, xlen, 0, vsize);
        return out;
      }
      if (const IntType* it = asInteger(t)) {
        bool narrow = size < xlen || (it->is_bitint && it->bits < xlen);
        if (it->is_bitint && call.bitint_extend_by_signedness) {
          // clang-22: a _BitInt in registers is extended by its own signedness up to the end
          // of its last register (RV64 still sign-extends the 32-bit unsigned one). A width
          // that fills its registers has nothing to extend.
          if (it->bits <= 2 * xlen && it->bits % xlen != 0) {
            out.kind = ArgKind::Extend;
            out.extend = it->is_signed || (xlen == 64 && it->bits == 32) ? ExtendKind::Sign
                                                                         : ExtendKind::Zero;
          }
        } else if (narrow && (!must_use_stack || call.extend_on_stack)) {
          // RV64 sign-extends 32-bit unsigned values (clang's extendType checks the type's
          // size, so unsigned _BitInt(17..32) too).
          out.kind = ArgKind::Extend;
          out.extend =
              (it->is_signed || (xlen == 64 && size == 32)) ? ExtendKind::Sign : ExtendKind::Zero;
        } else if (narrow) {
          note("an integer narrower than XLEN that clang-14 expects on the stack is passed "
               "without extension (its upper bits are unspecified); GCC and the psABI extend it");
        }
        if (it->is_bitint && (it->bits > 128 || (xlen == 32 && it->bits > 64))) return indirect(t);
        Ir k;
        unsigned bits;
        irTypeOf(t, k, bits);
        out.count = 1;
        out.v[0] = value(k, bits, 0, vsize);
        return out;
      }
      if (real) {
        Ir k;
        unsigned bits;
        irTypeOf(t, k, bits);
        out.count = 1;
        out.v[0] = value(k, bits, 0, vsize);
        return out;
      }
      unsupported(fn, "no RISC-V convention for type '" + typeName(type, layout.context()) + "'");
    }

    // Aggregates (and vectors) of at most 2×XLEN are coerced to integers.
    if (size <= 2 * xlen) {
      out.count = 1;
      if (size <= xlen) {
        out.v[0] = value(Ir::Int, xlen, 0, vsize);
      } else if (align == 2 * xlen) {
        out.v[0] = value(Ir::Int, 2 * xlen, 0, vsize);
      } else {
        out.count = 2;
        out.v[0] = value(Ir::Int, xlen, 0, xbytes());
        out.v[1] = value(Ir::Int, xlen, xbytes(), vsize - xbytes());
        out.v[0].arg_alloc = out.v[1].arg_alloc = 2 * xbytes();
      }
      return out;
    }
    return indirect(t);
  }

  Classified indirect(const Type*) const {
    Classified out;
    out.kind = ArgKind::Indirect;
    out.count = 1;
    out.v[0] = value(Ir::Ptr, xlen, 0, xbytes());
    return out;
  }
};

// ----- the back end (LLVM 14 CC_RISCV) ------------------------------------------------------

struct Assigner {
  explicit Assigner(const Rules& rules) : r(rules) {}

  const Rules& r;
  unsigned gpr = 0, fpr = 0;
  StackArea stack;

  bool fprFor(Ir k, bool fixed) const {
    if (!fixed || fpr >= 8) return false;
    switch (k) {
    case Ir::Half:
    case Ir::Float:
      return r.flen >= 32;
    case Ir::Double:
      return r.flen >= 64;
    case Ir::Quad:
      return r.flen >= 128;
    default:
      return false;
    }
  }

  void reg(ArgLowering& a, uint32_t off, uint32_t size, std::string_view name) {
    a.parts.push_back(regPart(off, size, name));
  }
  void slot(ArgLowering& a, uint32_t off, uint32_t size, uint64_t bytes, uint64_t align) {
    int64_t at = stack.allocate(bytes, align);
    if (size == 0) return;
    if (!a.parts.empty()) {
      ArgPart& p = a.parts.back();
      if (p.loc.kind == ArgLocation::Kind::Stack && p.offset + p.size == off &&
          p.loc.stack_offset + int64_t(p.size) == at) {
        p.size += size;
        return;
      }
    }
    a.parts.push_back(stackPart(off, size, at));
  }

  uint32_t lo(const IrValue& v) const { return std::min<uint32_t>(v.size, r.xbytes()); }
  uint32_t hi(const IrValue& v) const { return v.size - lo(v); }

  /// A value split into two XLEN halves (CC_RISCVAssign2XLen).
  void pair(ArgLowering& a, const IrValue& v) {
    const uint32_t xb = r.xbytes();
    if (gpr < r.ngpr) {
      reg(a, v.offset, lo(v), kGpr[gpr++]);
      if (gpr < r.ngpr)
        reg(a, v.offset + xb, hi(v), kGpr[gpr++]);
      else
        slot(a, v.offset + xb, hi(v), xb, xb);
      return;
    }
    uint64_t align = r.ilp32e ? xb : std::max<uint64_t>(xb, v.orig_align);
    slot(a, v.offset, lo(v), xb, align);
    slot(a, v.offset + xb, hi(v), xb, xb);
  }

  void single(ArgLowering& a, const IrValue& v) {
    if (gpr < r.ngpr)
      reg(a, v.offset, v.size, kGpr[gpr++]);
    else
      slot(a, v.offset, v.size, r.xbytes(), r.xbytes());
  }

  /// Assigns one IR value. Returns false when the back end passes it indirectly (it splits
  /// into more than two pieces): the caller then passes a pointer instead.
  bool assign(ArgLowering& a, const IrValue& v, bool fixed) {
    const unsigned xlen = r.xlen;
    const uint32_t xb = r.xbytes();
    if (v.kind == Ir::Quad && !fprFor(Ir::Quad, fixed) && xlen == 32) return false;
    if (v.kind == Ir::Int && v.bits > 2 * xlen) return false;
    // Variadic 2×XLEN-aligned, 2×XLEN-sized values start at an even register (not ILP32E).
    if (!fixed && !r.ilp32e && v.orig_align == 2 * xb && v.arg_alloc == 2 * xb && gpr < r.ngpr &&
        gpr % 2 == 1)
      ++gpr;
    if (fprFor(v.kind, fixed)) {
      reg(a, v.offset, v.size, kFpr[fpr++]);
      return true;
    }
    switch (v.kind) {
    case Ir::Int:
      if (v.bits > xlen)
        pair(a, v);
      else
        single(a, v);
      return true;
    case Ir::Ptr:
    case Ir::Half:
    case Ir::Float:
      single(a, v);
      return true;
    case Ir::Double:
      if (xlen == 64) {
        single(a, v);
        return true;
      }
      // f64 on RV32 in GPRs: a pair, a7 + a 4-byte slot, or an 8-byte slot.
      if (gpr < r.ngpr) {
        reg(a, v.offset, 4, kGpr[gpr++]);
        if (gpr < r.ngpr)
          reg(a, v.offset + 4, 4, kGpr[gpr++]);
        else
          slot(a, v.offset + 4, 4, 4, 4);
      } else {
        slot(a, v.offset, 8, 8, r.ilp32e ? 4 : 8);
      }
      return true;
    case Ir::Quad:
      pair(a, v); // fp128 on RV64 is softened to i128
      return true;
    }
    return true;
  }

  void pointer(ArgLowering& a) {
    a.parts.clear();
    IrValue p = r.value(Ir::Ptr, r.xlen, 0, r.xbytes());
    single(a, p);
  }
};

unsigned outsOf(const Rules& r, const IrValue& v) {
  switch (v.kind) {
  case Ir::Int:
    return v.bits <= r.xlen ? 1 : v.bits <= 2 * r.xlen ? 2 : 4;
  case Ir::Quad:
    return r.flen >= 128 ? 1 : r.xlen == 64 ? 2 : 4;
  default:
    return 1;
  }
}

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  const Target& target = layout.context().target();
  const RiscvTarget& rv = target.riscv();
  if (fn.type->fkind != FunctionKind::Normal)
    unsupported(fn, "RISC-V has no kernel or vertex functions");
  Rules r{layout,
          fn,
          rv.xlen,
          rv.abi_flen,
          rv.argGPRs(),
          rv.abi == RiscvAbi::ILP32E,
          layout.context().language() != Language::OpenCL,
          rv.call,
          out.notes};
  if (rv.abi == RiscvAbi::LP64Q)
    r.note("lp64q: no compiler implements this ABI; abikit applies the psABI's hardware "
           "floating-point rules with ABI_FLEN = 128");
  if (rv.abi == RiscvAbi::LP64E)
    r.note("lp64e is not part of the ratified psABI; abikit follows LLVM 18+ and GCC 14+ (LP64 "
           "with a0-a5)");

  Assigner as(r);

  // Return value: clang classifies it with a budget of 2 GPRs and 2 FPRs.
  ArgLowering& ret = out.ret;
  const Type* rt = stripTypedefs(ret.type);
  Classified rc;
  bool ret_indirect = false;
  if (rt->kind == TypeKind::Void) {
    rc.kind = ArgKind::Ignore;
  } else {
    int g = 2, f = r.flen ? 2 : 0;
    rc = r.classify(ret.type, true, g, f, true);
    ret_indirect = rc.kind == ArgKind::Indirect;
  }
  // clang also reserves a0 for a scalar wider than 2×XLEN (long double on RV32), which the back
  // end returns through a hidden pointer.
  bool clang_ret_indirect = ret_indirect;
  if (!clang_ret_indirect && rc.kind != ArgKind::Ignore && !isAggregate(rt) &&
      rt->kind != TypeKind::Vector && layout.of(rt).size * 8 > 2 * r.xlen)
    clang_ret_indirect = true;
  if (auto* ct = dyn<ComplexType>(rt);
      ct && rc.kind != ArgKind::Ignore && !ret_indirect && layout.of(rt).size * 8 > 2 * r.xlen)
    clang_ret_indirect = r.flen && stripTypedefs(ct->element)->kind == TypeKind::Float
                             ? layout.of(ct->element).size * 8 > r.flen
                             : true;

  // The back end returns at most two register values; anything else is demoted to a hidden
  // pointer in a0.
  if (rc.kind == ArgKind::Direct || rc.kind == ArgKind::Extend) {
    unsigned outs = 0;
    for (int i = 0; i < rc.count; ++i) outs += outsOf(r, rc.v[i]);
    if (outs > 2) ret_indirect = true;
  }
  if (ret_indirect) {
    ret.kind = ArgKind::Indirect;
    ret.sret = true;
    ret.align = layout.of(rt).align;
    ret.parts.push_back(regPart(0, r.xbytes(), kGpr[0]));
    as.gpr = 1;
  } else if (rc.kind == ArgKind::Ignore) {
    ret.kind = ArgKind::Ignore;
  } else {
    ret.kind = rc.kind;
    ret.extend = rc.extend;
    Assigner ra(r);
    for (int i = 0; i < rc.count; ++i) ra.assign(ret, rc.v[i], true);
  }

  int gprs = int(r.ngpr) - (clang_ret_indirect ? 1 : 0);
  int fprs = r.flen ? 8 : 0;
  for (ArgLowering& a : out.params) {
    const bool fixed = !a.variadic;
    Classified c = r.classify(a.type, fixed, gprs, fprs, false);
    a.kind = c.kind;
    a.extend = c.extend;
    if (c.kind == ArgKind::Ignore) continue;
    if (c.kind == ArgKind::Indirect) {
      a.align = layout.of(a.type).align;
      as.pointer(a);
      continue;
    }
    a.parts.reserve(size_t(c.count) * 2); // a value takes at most two locations
    for (int i = 0; i < c.count; ++i) {
      if (!as.assign(a, c.v[i], fixed)) {
        // The back end passes a value of more than two pieces (fp128 on RV32) through a
        // pointer to a copy.
        a.kind = ArgKind::Indirect;
        a.extend = ExtendKind::None;
        a.align = layout.of(a.type).align;
        as.pointer(a);
        break;
      }
    }
  }
  out.stack_bytes = as.stack.size();
}

} // namespace

const CallconvInfo kRiscvCallconv = {Family::RISCV, lower};

} // namespace abikit::detail
