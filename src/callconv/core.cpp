// The shared assignment core and the dispatch from a target family to its rule file.
#include "core.h"

#include <bit>

namespace abikit {
namespace detail {

void refuseHostCallingConvention(const LayoutEngine& layout, const FunctionDecl&,
                                 FunctionLowering&) {
  throw Error(ErrorKind::Unsupported,
              "abikit does not model the calling convention of host target '" +
                  layout.context().target().triple + "' yet: it answers layout questions only");
}

// ----- registers ------------------------------------------------------------------------------

unsigned RegFile::freeCount() const {
  unsigned n = 0;
  for (unsigned i = 0; i < size(); ++i) n += isFree(i);
  return n;
}

int RegFile::takeFirstFree() {
  for (unsigned i = 0; i < size(); ++i)
    if (isFree(i)) {
      take(i);
      return int(i);
    }
  return -1;
}

unsigned RegFile::nextIndex() const {
  if (used_ == 0) return 0;
  unsigned highest = 63u - unsigned(std::countl_zero(used_));
  return std::min(highest + 1, size());
}

int RegFile::takeNext() {
  unsigned i = nextIndex();
  if (i >= size()) return -1;
  take(i);
  return int(i);
}

int RegFile::takeAligned(unsigned n, unsigned align) {
  for (unsigned first = 0; first + n <= size(); first += align) {
    bool ok = true;
    for (unsigned k = 0; k < n; ++k) ok = ok && isFree(first + k);
    if (!ok) continue;
    for (unsigned k = 0; k < n; ++k) take(first + k);
    return int(first);
  }
  return -1;
}

// ----- stack ----------------------------------------------------------------------------------

void StackArea::alignTo(uint64_t align) {
  if (align > 1) offset_ = (offset_ + align - 1) / align * align;
}

int64_t StackArea::allocate(uint64_t size, uint64_t align) {
  alignTo(align);
  int64_t at = int64_t(offset_);
  offset_ += size;
  return at;
}

// ----- type helpers ---------------------------------------------------------------------------

const IntType* asInteger(const Type* t) {
  t = stripTypedefs(t);
  if (auto* e = dyn<EnumType>(t)) return e->decl->underlying;
  return dyn<IntType>(t);
}

bool isPromotableInteger(const Type* t, const DataModel& d) {
  const IntType* it = asInteger(t);
  if (!it || it->is_bitint) return false;
  switch (it->ikind) {
  case IntKind::Bool:
  case IntKind::Char:
  case IntKind::SChar:
  case IntKind::UChar:
  case IntKind::Short:
  case IntKind::UShort:
    return d.of(it->ikind).size < d.of(IntKind::Int).size;
  default:
    return false;
  }
}

ExtendKind promotionExtension(const Type* t, const DataModel& d) {
  if (!isPromotableInteger(t, d)) return ExtendKind::None;
  return asInteger(t)->is_signed ? ExtendKind::Sign : ExtendKind::Zero;
}

const Type* defaultArgumentPromotion(TypeContext& ctx, const Type* t) {
  const Type* c = stripTypedefs(t);
  // clang's Sema::DefaultArgumentPromotion promotes float and __fp16 (not _Float16) to double.
  if (auto* f = dyn<FloatType>(c))
    if (f->fkind == FloatKind::Float || f->fkind == FloatKind::Fp16)
      return ctx.floatType(FloatKind::Double);
  if (isPromotableInteger(c, ctx.data())) return ctx.intType(IntKind::Int);
  return t;
}

void unsupported(const FunctionDecl& fn, std::string message) {
  throw Error(ErrorKind::Unsupported, "function '" + std::string(fn.name) + "': " + message);
}

namespace {
const CallconvInfo* const kCallconvs[] = {
#define ABIKIT_FAMILY(E, name, Prefix) &k##Prefix##Callconv,
#include "abikit/families.def"
};
} // namespace

} // namespace detail

void rejectAtomicValues(const TypeContext& ctx, const FunctionDecl& fn,
                        std::span<const Type* const> extra) {
  auto check = [&](const Type* t, const std::string& what) {
    if (!containsAtomic(t)) return;
    const std::string message = "function '" + std::string(fn.name) + "': " + what + " of type '" +
                                typeName(t, ctx) +
                                "' holds an _Atomic value, which abikit does not lower";
    if (fn.loc.line == 0) throw Error(ErrorKind::Unsupported, message);
    unsupportedAt(ctx, fn.loc, message);
  };
  check(fn.type->result, "the result");
  for (size_t i = 0; i < fn.type->params.size(); ++i)
    check(fn.type->params[i].type, "parameter " + std::to_string(i + 1));
  for (size_t i = 0; i < extra.size(); ++i)
    check(extra[i], "variadic argument " + std::to_string(i + 1));
}

FunctionLowering lowerFunction(TypeContext& ctx, const LayoutEngine& layout, const FunctionDecl& fn,
                               const LowerOptions& options) {
  const FunctionType* ft = fn.type;
  rejectAtomicValues(ctx, fn, options.variadic_args);
  FunctionLowering out;
  out.name = fn.name;
  out.variadic = ft->variadic;
  if (!options.variadic_args.empty() && !ft->variadic)
    detail::unsupported(fn, "extra arguments given but the function is not variadic");
  out.ret.type = ft->result;
  out.params.reserve(ft->params.size() + options.variadic_args.size());
  for (const ParamDecl& p : ft->params) {
    ArgLowering a;
    a.name = p.name;
    a.type = adjustParameterType(ctx, p.type);
    out.params.push_back(a);
  }
  for (const Type* t : options.variadic_args) {
    ArgLowering a;
    a.type = detail::defaultArgumentPromotion(ctx, adjustParameterType(ctx, t));
    a.variadic = true;
    out.params.push_back(a);
  }
  Family family = ctx.target().family;
  for (const detail::CallconvInfo* cc : detail::kCallconvs)
    if (cc->family == family) {
      try {
        cc->lower(layout, fn, out);
      } catch (const Error& e) {
        // A rejection points at the declaration of the function it is about.
        if (e.hasSourcePosition() || e.hasOffset() || fn.loc.line == 0) throw;
        std::string message = e.message();
        const std::string prefix = "function '" + std::string(fn.name) + "': ";
        if (message.compare(0, prefix.size(), prefix) != 0) message = prefix + message;
        unsupportedAt(ctx, fn.loc, std::move(message));
      }
      return out;
    }
  detail::unsupported(fn, "no calling convention for this target");
}

} // namespace abikit
