// NVPTX calling convention (reference/gpu.md §1.3–1.4; docs/targets/nvptx.md "Calling
// convention"). Every value travels in a PTX `.param` variable: the callee's parameters are
// `<function>_param_<k>` (k = the IR argument index, which is the C parameter index: NVPTX has no
// hidden arguments) and the return value is `func_retval0`.
//
// Front end (clang's NVPTXABIInfo, the same in clang-14, -19 and -22 for fixed arguments):
//  - returns: void is ignored; every non-scalar (struct, union, _Complex, vector) is returned
//    directly as its IR type, never through an sret pointer; promotable integers (and _BitInt
//    narrower than int) are extended by their signedness; the rest is direct;
//  - arguments: every aggregate (struct, union, _Complex) is byval with its C alignment; a
//    _BitInt wider than 64 bits is byval when the target has no __int128 (32-bit nvptx);
//    promotable integers are extended; the rest (scalars, vectors, __int128) is direct.
//  - kernels (CUDA __global__, OpenCL __kernel, __attribute__((nvptx_kernel))) are classified
//    the same way and must return void.
// Back end (LLVM's NVPTX back end): a byval aggregate's `.param` holds the object itself
// (sizeof bytes); a direct vector, __int128, half value (LLVM 19 and later) or returned aggregate
// is a `.param` byte array with the IR type's alloc size and ABI alignment; scalars are
// `.param .b32/.b64` (.b128 for a _BitInt of 65 to 127 bits, LLVM 22). How they are printed is
// src/emit/ptx.cpp's business.
//
// Variadic calls (clang 19 and later, LLVM's ExpandVariadics pass): the extra arguments are
// stored in a buffer, and its generic address is one more `.param` after the fixed ones. clang
// passes each extra argument directly and flattens a record (and _Complex) into the elements of
// its IR struct type; each IR value goes at the next offset aligned to its ABI alignment and
// takes its alloc size (docs/targets/nvptx.md).
//
// Rejected where the selected compiler cannot build it (checked against its clang and llc, data
// in NvptxCallRules): variadic functions (clang-14), unprototyped functions, __fp16 parameters
// and returns, _BitInt widths its llc cannot select, vectors of __int128 or of odd integers,
// aggregates holding an integer its llc cannot load or store as a unit.
#include "core.h"
#include "ir_layout.h"

namespace abikit::detail {
namespace {

// LLVM 14's NVPTX data layout "e-[p:32:32-]i64:64-i128:128-v16:16-v32:32-n16:32:64" on top of
// LLVM's defaults (i1:8, i8:8, i16:16, i32:32, f16:16, f32:32, f64:64, v64:64, v128:128).
constexpr IrDataLayout::Entry kInts[] = {{1, 1}, {8, 1}, {16, 2}, {32, 4}, {64, 8}, {128, 16}};
constexpr IrDataLayout::Entry kVectors[] = {{16, 2}, {32, 4}, {64, 8}, {128, 16}};
// Pointers are as large as the C pointer (no table); every floating type has an IR type.
const IrDataLayout kDataLayout = {.ints = kInts,
                                  .vectors = kVectors,
                                  .half_align = 2,
                                  .float_align = 4,
                                  .double_align = 8,
                                  .fp128_align = 16,
                                  .pointers = {},
                                  .no_ir_type = nullptr};

/// How an error message or note names a value (nullptr: the return value).
std::string describe(const ArgLowering* a, size_t index) {
  if (!a) return "the return value";
  if (a->name.empty()) return "parameter " + std::to_string(index + 1);
  return "parameter '" + std::string(a->name) + "'";
}

struct State {
  const LayoutEngine& layout;
  const FunctionDecl& fn;
  IrTypes ir;
  bool kernel = false;
  bool is64 = true;
  const NvptxCallRules& rules;
  std::vector<std::string>& notes;
  bool floor_note = false;
  std::string backend() const { return std::string(rules.backend); }
};

void addNote(State& s, std::string note) {
  for (const std::string& n : s.notes)
    if (n == note) return;
  s.notes.push_back(std::move(note));
}

ArgPart paramPart(uint32_t size, std::string name) {
  ArgPart p;
  p.offset = 0;
  p.size = size;
  p.loc.kind = ArgLocation::Kind::Param;
  p.loc.param = std::move(name);
  return p;
}

/// _BitInt widths the back end handles in parameters, returns and calls: up to 16 bits
/// (promoted to 32 bits), 32, 64 and 128, and every width up to max_odd_bitint_bits. LLVM 14
/// fails on the others in instruction selection (StoreParam / StoreRetval of a non-simple type);
/// clang-14 and clang-19 crash above 64 bits.
bool bitIntWidthOk(unsigned bits, const NvptxCallRules& r) {
  return bits <= 16 || bits == 32 || bits == 64 || bits == 128 || bits <= r.max_odd_bitint_bits;
}

void checkAlignment(State& s, const std::string& what, uint32_t align) {
  // ptxas limits the alignment of a .func's parameters and return value to 128; a kernel's
  // parameters may have any power of two.
  if (align > 128 && !(s.kernel && what != "the return value"))
    addNote(s, what + " is a .param aligned to " + std::to_string(align) +
                   " bytes: " + s.backend() +
                   " prints it, but ptxas accepts .func parameter alignments only up to 128");
}

/// llc-19 fails on some aggregates that hold a vector of 8- or 16-bit integers ("Copy one
/// register into another with a different width": `struct { char2 v; }`, a packed record with
/// such a vector anywhere in it, among others, but not `struct { char2 v; int x; }`): whether
/// `t` holds one, through records and arrays.
bool holdsSmallIntVector(const IrTypes& ir, const Type* t) {
  const Type* c = stripTypedefs(t);
  if (c->kind == TypeKind::Vector) {
    const Type* el = stripTypedefs(static_cast<const VectorType*>(c)->element);
    return asInteger(el) && ir.layout().of(el).size <= 2;
  }
  if (c->kind == TypeKind::Array)
    return holdsSmallIntVector(ir, static_cast<const ArrayType*>(c)->element);
  if (c->kind != TypeKind::Record) return false;
  for (const IrMember& m : ir.record(*static_cast<const RecordType*>(c)->decl).members)
    if (m.kind == IrMember::Kind::Field && holdsSmallIntVector(ir, m.type)) return true;
  return false;
}

/// clang 19 and later lower bit-fields to other IR storage members than clang-14 (access units),
/// and the .param of a record follows its IR type: not modelled yet.
void rejectBitFieldRecord(State& s, const IrType& it, const Type* type, const std::string& what) {
  if (it.has_bitfields && !s.rules.bitfield_records)
    unsupported(s.fn, what + " has type '" + typeName(type, s.layout.context()) +
                          "', a record with bit-fields: its .param follows the IR type " +
                          s.backend() +
                          "'s clang gives it, whose bit-field storage (clang 19's \"access "
                          "units\") abikit does not model yet (--compiler clang-14 is modelled)");
}

void lowerAggregate(State& s, const Type* c, ArgLowering& a, const ArgLowering* named, size_t index,
                    std::string param) {
  TypeLayout tl = s.layout.of(c);
  IrType it = s.ir.of(c);
  rejectBitFieldRecord(s, it, a.type, describe(named, index));
  if (s.rules.vector_bugs && !(s.kernel && named) && holdsSmallIntVector(s.ir, c))
    unsupported(s.fn, describe(named, index) + " has type '" +
                          typeName(a.type, s.layout.context()) +
                          "', which holds a vector of 8- or 16-bit integers: " + s.backend() +
                          " fails on some such aggregates (\"Copy one register into another "
                          "with a different width\") and abikit does not model which "
                          "(--compiler clang-22 passes them all)");
  // A kernel parameter is only ever read by the kernel (ld.param at offsets): llc-14 lowers it
  // whatever its IR type holds. Calls and returns copy the value leaf by leaf.
  if (it.odd_int_bits && !(s.kernel && named) && !s.rules.odd_int_aggregates)
    unsupported(s.fn, describe(named, index) + " has type '" +
                          typeName(a.type, s.layout.context()) + "', whose IR type holds an i" +
                          std::to_string(it.odd_int_bits) +
                          " (a bit-field run or _BitInt of that width): llc-14 cannot pass or "
                          "return it (\"Cannot select\" on its StoreParam/StoreRetval/LoadParam)");
  if ((s.rules.odd_int_aggregates ? it.wide_int_in_array : it.i128_in_array) &&
      !(s.kernel && named) && !s.rules.i128_arrays_and_vectors)
    unsupported(
        s.fn, describe(named, index) + " has type '" + typeName(a.type, s.layout.context()) +
                  "', whose IR type holds an array of integers wider than 64 bits: " + s.backend() +
                  " cannot pass or return it (llc-14 splits an i128 into two i64 only "
                  "outside arrays: calls crash, returns fail with \"Cannot select\"; "
                  "clang-19 crashes)");
  a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
  if (!named) {
    // Returned directly as clang's IR type: the .param has that type's ABI alignment.
    a.kind = ArgKind::Direct;
    a.align = it.align;
    if (it.align != tl.align)
      addNote(s, "the return value's .param is aligned to " + std::to_string(it.align) +
                     " (the ABI alignment of clang's IR type for '" +
                     typeName(a.type, s.layout.context()) + "'), not to its C alignment " +
                     std::to_string(tl.align));
    if (tl.size == 0)
      addNote(s, "the return value is empty: " + s.backend() +
                     " declares func_retval0[0], which ptxas rejects (\"Output parameter "
                     "cannot be an incomplete array\")");
    checkAlignment(s, "the return value", it.align);
    return;
  }
  // byval with the C alignment (getNaturalAlignIndirect).
  a.kind = ArgKind::Indirect;
  a.byval = true;
  a.align = tl.align;
  uint32_t floor = s.kernel ? 1u : s.rules.byval_min_align;
  if (s.rules.byval_ir_align) floor = std::max(floor, it.align);
  if (tl.align < floor && !s.floor_note && !s.rules.byval_ir_align) {
    s.floor_note = true;
    addNote(s, s.backend() +
                   " declares the .param of a byval aggregate of a non-kernel "
                   "function with an alignment of at least " +
                   std::to_string(floor) + " (a workaround for an old ptxas bug)");
  }
  if (tl.size == 0)
    addNote(s, describe(named, index) + " is empty: " + s.backend() +
                   " declares a [0] .param array, which ptxas reads as an unsized array (PTX "
                   "ISA 6.0 and sm_30 or later)");
  checkAlignment(s, describe(named, index), std::max<uint32_t>(tl.align, floor));
}

void lowerValue(State& s, ArgLowering& a, const ArgLowering* named, size_t index,
                std::string param) {
  const TypeContext& ctx = s.layout.context();
  const Type* c = stripTypedefs(a.type);
  const std::string what = describe(named, index);
  switch (c->kind) {
  case TypeKind::Record:
  case TypeKind::Complex:
    lowerAggregate(s, c, a, named, index, std::move(param));
    return;
  case TypeKind::Vector: {
    auto* vt = static_cast<const VectorType*>(c);
    const Type* el = stripTypedefs(vt->element);
    const bool kernel_param = s.kernel && named; // never called or returned: see above
    if (const IntType* ie = asInteger(el)) {
      unsigned bits = ie->is_bitint ? ie->bits : unsigned(ctx.data().of(ie->ikind).size) * 8u;
      if (bits == 128 && !kernel_param && !s.rules.i128_arrays_and_vectors)
        unsupported(s.fn, what + " is a vector of 128-bit integers: " + s.backend() +
                              " cannot pass or return it (llc-14: \"Cannot select\"; clang-19 "
                              "crashes)");
    }
    IrType it = s.ir.of(c);
    if (s.rules.vector_bugs && !kernel_param) {
      const unsigned n = unsigned(vt->count);
      const uint64_t esize = s.layout.of(el).size;
      if (esize == 1 && n == 2 && named)
        unsupported(s.fn, what + " is a vector of two 8-bit values: " + s.backend() +
                              " cannot pass it to a call (\"Copy one register into another "
                              "with a different width\")");
      if (esize == 2 && n > 4 && n % 2 == 0 && (n & (n - 1)) != 0)
        unsupported(s.fn, what + " is a vector of " + std::to_string(n) + " 16-bit values: " +
                              s.backend() + " crashes on it as an argument or return value");
    }
    if (it.odd_int_bits && !kernel_param && !s.rules.odd_int_aggregates)
      unsupported(s.fn, what + " is a vector of " + std::to_string(it.odd_int_bits) +
                            "-bit integers: " + s.backend() + " cannot lower it");
    a.kind = ArgKind::Direct;
    a.align = it.align;
    a.parts.push_back(paramPart(uint32_t(it.size), std::move(param)));
    checkAlignment(s, what, it.align);
    return;
  }
  case TypeKind::Int:
  case TypeKind::Enum: {
    const IntType* it = asInteger(c);
    TypeLayout tl = s.layout.of(c);
    if (it->is_bitint) {
      // Kernel parameters are only read by the kernel: every width up to 64 bits compiles
      // (ptxas then rejects the .uN llc-14 declares for odd widths); wider ones crash clang-14.
      bool ok = s.kernel && named
                    ? it->bits <= 64 || it->bits == 128 || it->bits <= s.rules.max_odd_bitint_bits
                    : bitIntWidthOk(it->bits, s.rules);
      if (!ok || (!s.is64 && it->bits > 64 && it->bits < 128))
        unsupported(s.fn, what + " has type '" + typeName(a.type, ctx) + "': " + s.backend() +
                              " handles _BitInt parameters and return values of at most " +
                              std::to_string(std::max<unsigned>(16, s.rules.max_odd_bitint_bits)) +
                              " bits and of 32, 64 and 128 bits only" +
                              (s.is64 ? "" : " (and of at most 64 bits or 128 on 32-bit nvptx)"));
      if (s.kernel && named && it->bits != 1 && it->bits != 8 && it->bits != 16 && it->bits != 32 &&
          it->bits != 64 && it->bits != 128)
        addNote(s, what + " has type '" + typeName(a.type, ctx) + "': " + s.backend() +
                       " declares it .u" + std::to_string(it->bits) + ", which ptxas rejects");
      if (named && !s.is64 && it->bits > 64) {
        // No __int128 on 32-bit nvptx: clang passes a wide _BitInt byval.
        a.kind = ArgKind::Indirect;
        a.byval = true;
        a.align = tl.align;
        a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
        return;
      }
      if (it->bits == 128) {
        IrType t = s.ir.integer(128);
        a.kind = ArgKind::Direct;
        a.align = t.align;
        a.parts.push_back(paramPart(uint32_t(t.size), std::move(param)));
        return;
      }
      // isPromotableIntegerTypeForABI: a _BitInt narrower than int is extended.
      if (it->bits < ctx.data().of(IntKind::Int).size * 8u) {
        a.kind = ArgKind::Extend;
        a.extend = it->is_signed ? ExtendKind::Sign : ExtendKind::Zero;
      } else {
        a.kind = ArgKind::Direct;
      }
      a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
      return;
    }
    if (tl.size == 16) { // __int128: a .param byte array of i128
      IrType t = s.ir.integer(128);
      a.kind = ArgKind::Direct;
      a.align = t.align;
      a.parts.push_back(paramPart(uint32_t(t.size), std::move(param)));
      return;
    }
    a.extend = promotionExtension(c, ctx.data());
    a.kind = a.extend != ExtendKind::None ? ArgKind::Extend : ArgKind::Direct;
    a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
    return;
  }
  case TypeKind::Float: {
    auto* ft = static_cast<const FloatType*>(c);
    if (ft->fkind == FloatKind::Fp16)
      unsupported(s.fn, what + " has type '" + typeName(a.type, ctx) +
                            "': clang rejects __fp16 parameters and return values on NVPTX");
    TypeLayout tl = s.layout.of(c); // rejects the types the target lacks
    a.kind = ArgKind::Direct;
    if (ft->fkind == FloatKind::Float16 || ft->fkind == FloatKind::BFloat16)
      a.align = 2; // LLVM 19 and later: a half is a .param .align 2 .b8 [2] array
    a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
    return;
  }
  case TypeKind::Pointer: {
    TypeLayout tl = s.layout.of(c);
    a.kind = ArgKind::Direct;
    a.parts.push_back(paramPart(uint32_t(tl.size), std::move(param)));
    return;
  }
  case TypeKind::OpenCL:
    unsupported(s.fn, what + " has the OpenCL type '" + typeName(a.type, ctx) +
                          "': images, samplers, pipes, events and queues are not modelled for "
                          "NVPTX");
  case TypeKind::Void:
  case TypeKind::Array:
  case TypeKind::Function:
  case TypeKind::Typedef:
  case TypeKind::Atomic: // refused before lowering (rejectAtomicValues)
    break;
  }
  unsupported(s.fn, what + " has type '" + typeName(a.type, ctx) + "', which cannot be passed");
}

/// Places one extra argument of a variadic call in the buffer (see the file comment): `end` is
/// the buffer's size so far, `align` its alignment so far.
void lowerVariadic(State& s, ArgLowering& a, uint64_t& end, uint32_t& align) {
  const Type* c = stripTypedefs(a.type);
  a.kind = ArgKind::Direct;
  auto place = [&](uint64_t value_offset, uint64_t size, uint32_t al) {
    end = (end + al - 1) / al * al;
    align = std::max(align, al);
    ArgPart p;
    p.offset = uint32_t(value_offset);
    p.size = uint32_t(size);
    p.loc.kind = ArgLocation::Kind::Stack;
    p.loc.stack_offset = int64_t(end);
    a.parts.push_back(p);
    end += size;
  };
  if (c->kind == TypeKind::Record) {
    rejectBitFieldRecord(s, s.ir.of(c), a.type, "an extra argument");
    const IrRecord& r = s.ir.record(*static_cast<const RecordType*>(c)->decl);
    for (const IrMember& m : r.members) place(m.offset, m.size, m.align);
    if (a.parts.empty()) a.kind = ArgKind::Ignore; // an empty record stores nothing
    return;
  }
  IrType it = s.ir.of(c);
  if (c->kind == TypeKind::Complex) { // {T, T}: two values
    place(0, it.size / 2, it.align);
    place(it.size / 2, it.size / 2, it.align);
    return;
  }
  place(0, it.size, it.align);
}

void lower(const LayoutEngine& layout, const FunctionDecl& fn, FunctionLowering& out) {
  const FunctionType* ft = fn.type;
  if (ft->fkind == FunctionKind::Vertex)
    unsupported(fn, "vertex functions are a Graphcore IPU concept and do not exist on NVPTX");
  const Target& target = layout.context().target();
  const NvptxCallRules& rules = target.nvptx().call;
  if (ft->variadic && !rules.variadic_buffer)
    unsupported(fn, "variadic functions cannot be used on NVPTX with LLVM 14: the back end "
                    "drops '...' from the declaration and passes the extra arguments as extra "
                    ".params at the call, which ptxas rejects (\"Call has wrong number of "
                    "parameters\"), and clang-14 crashes on va_start in a definition (clang-19 "
                    "and later pass them in a buffer: --compiler clang-22)");
  if (!ft->prototyped)
    unsupported(fn, "a function without a prototype is variadic at the IR level ('(...)'), "
                    "which abikit does not model for NVPTX (LLVM 14's back end cannot call it "
                    "with arguments); declare its parameters (or '(void)')");
  State s{layout,
          fn,
          IrTypes(layout, kDataLayout),
          ft->fkind == FunctionKind::Kernel,
          target.nvptx().is64,
          rules,
          out.notes};

  const Type* rt = stripTypedefs(out.ret.type);
  if (rt->kind == TypeKind::Void) {
    out.ret.kind = ArgKind::Ignore;
  } else {
    if (s.kernel)
      unsupported(fn, "a kernel must return void (it returns '" +
                          typeName(out.ret.type, layout.context()) + "')");
    lowerValue(s, out.ret, nullptr, 0, "func_retval0");
  }
  std::string prefix = std::string(fn.name) + "_param_";
  uint64_t end = 0;
  uint32_t align = 1;
  bool extra = false;
  for (size_t k = 0; k < out.params.size(); ++k) {
    ArgLowering& a = out.params[k];
    if (a.variadic) {
      lowerVariadic(s, a, end, align);
      extra = true;
    } else {
      lowerValue(s, a, &a, k, prefix + std::to_string(k));
    }
  }
  out.stack_bytes = (end + align - 1) / align * align;
  if (ft->variadic)
    addNote(s, "the extra arguments of a call are stored in a buffer (the .local stack of the "
               "caller), at the offsets shown as stack+N" +
                   std::string(extra ? " (" + std::to_string(out.stack_bytes) +
                                           " bytes, aligned to " + std::to_string(align) + ")"
                                     : std::string()) +
                   "; its generic address is passed in " + prefix +
                   std::to_string(ft->params.size()) + " (.b" + (s.is64 ? "64" : "32") + ")");
}

} // namespace

const CallconvInfo kNvptxCallconv = {Family::NVPTX, lower};

} // namespace abikit::detail

namespace abikit {

uint32_t ptxIrAlign(const LayoutEngine& layout, const Type* t) {
  return detail::IrTypes(layout, detail::kDataLayout).of(stripTypedefs(t)).align;
}

uint32_t ptxPointeeAlign(const LayoutEngine& layout, const Type* pointee) {
  const Type* c = stripTypedefs(pointee);
  if (c->kind == TypeKind::Function) return uint32_t(layout.context().data().pointer.align);
  if (c->kind == TypeKind::Void) return 1; // i8
  return detail::IrTypes(layout, detail::kDataLayout).of(c).opencl_align;
}

} // namespace abikit
