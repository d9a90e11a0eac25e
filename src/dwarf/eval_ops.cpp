// The operations of the evaluator (reference dwarf.md §2.8), one case each.
#include "eval_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace abikit::dwarf {

namespace {

double toDouble(uint64_t v, uint64_t bits) {
  if (bits == 32) {
    float f;
    uint32_t u = uint32_t(v);
    std::memcpy(&f, &u, 4);
    return double(f);
  }
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
uint64_t fromDouble(double d, uint64_t bits) {
  if (bits == 32) {
    float f = float(d);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
bool isComparison(Op op) {
  return op == Op::eq || op == Op::ne || op == Op::lt || op == Op::le || op == Op::gt ||
         op == Op::ge;
}
template <typename T> bool compare(Op op, T a, T b) {
  switch (standardOp(op)) {
  case Op::eq:
    return a == b;
  case Op::ne:
    return a != b;
  case Op::lt:
    return a < b;
  case Op::le:
    return a <= b;
  case Op::gt:
    return a > b;
  default:
    return a >= b;
  }
}

// Operations that need a unit, other sections or a thread's view, which call frame information
// cannot have (reference dwarf.md §4.4).
bool forbiddenInCfi(Op op) {
  switch (standardOp(op)) {
  case Op::addrx:
  case Op::call2:
  case Op::call4:
  case Op::call_ref:
  case Op::const_type:
  case Op::constx:
  case Op::convert:
  case Op::deref_type:
  case Op::regval_type:
  case Op::reinterpret:
  case Op::xderef_type:
  case Op::fbreg:
  case Op::implicit_pointer:
  case Op::LLVM_aspace_implicit_pointer:
  case Op::push_object_address:
  case Op::LLVM_push_lane:
  case Op::LLVM_push_iteration:
  case Op::call_frame_cfa:
  case Op::entry_value:
    return true;
  default:
    return false;
  }
}
// Operations of the Newest profile only (reference dwarf.md §0).
bool newestOnly(Op op) {
  return op == Op::LLVM_call_frame_entry_reg || op == Op::LLVM_push_iteration ||
         op == Op::LLVM_overlay || op == Op::LLVM_bit_overlay;
}

} // namespace

// The signed or unsigned reading of an integral displacement (reference dwarf.md §2.8,
// signedOf): the generic type and signed encodings are signed.
static SignedBits signedOf(const BaseType& t, uint64_t v) {
  return isSigned(t) ? SignedBits(sext(v, t.totalBits())) : SignedBits(v);
}

void Evaluator::Impl::call(uint64_t die, bool unit_relative) {
  if (!dies) evalError("no debugging information entries to call " + hex(die));
  DieInfo d;
  if (!(unit_relative ? dies->byUnitOffset(die, d) : dies->bySectionOffset(die, d)))
    illFormed("no DIE at " + std::string(unit_relative ? "unit" : ".debug_info") + " offset " +
              hex(die));
  bool same_stack = opts.profile == Profile::Seed ? d.tag == kTagDwarfProcedure
                                                  : d.has_location && !d.location_is_list;
  if (same_stack) {
    runDieExpression(d.has_location ? d.location : std::span<const uint8_t>{}, true);
    return;
  }
  if (opts.profile == Profile::Seed || d.has_location) {
    pushLocation(evalDieLocation(d.has_location ? d.location : std::span<const uint8_t>{}));
  } else if (d.has_const_value) {
    pushLocation({implicit(d.const_value.data(), uint64_t(d.const_value.size()) * 8), 0});
  }
}

// DW_OP_piece / DW_OP_bit_piece (reference dwarf.md §2.8.10).
void Evaluator::Impl::piece(BitOffset bits, std::optional<SignedBits> bit_offset) {
  if (depthOfStack() == 0 || isIncomplete(stack_.back())) {
    if (depthOfStack() == 0) {
      uint32_t c = composite();
      appendPart(c, {0, 0, bits});
      pushLocation({c, 0});
    } else {
      appendPart(stack_.back().storage, {0, 0, bits});
    }
    return;
  }
  const Entry& t = stack_.back();
  if (t.kind == Entry::Val && t.type != 0)
    illFormed("a value of a base type cannot be a piece (DW_OP_stack_value makes it a location)");
  if (t.kind == Entry::Ipv && storages_[t.storage].space != 0)
    evalError("an implicit pointer value of a non-default address space cannot be a piece");
  Location pl = popLocation();
  if (bit_offset) pl = offsetBy(pl, *bit_offset);
  checkPart(pl, bits);
  if (depthOfStack() > 0 && isIncomplete(stack_.back())) {
    appendPart(stack_.back().storage, {pl.storage, pl.offset, bits});
    return;
  }
  uint32_t c = composite();
  appendPart(c, {pl.storage, pl.offset, bits});
  pushLocation({c, 0});
}

void Evaluator::Impl::step(const Expression& e, size_t& i, size_t begin, size_t end) {
  const Operation& op = e.ops[i];
  op_offset_ = op.offset;
  if (++steps_ > kMaxSteps)
    evalError("more than " + std::to_string(kMaxSteps) + " operations executed");
  const size_t next = e.endOf(i);
  if (opts.cfi && forbiddenInCfi(op.op))
    illFormed(std::string(opInfo(op.op).name) + " is not allowed in call frame information");
  if (opts.profile == Profile::Seed && newestOnly(op.op))
    illFormed(std::string(opInfo(op.op).name) + " exists in the Newest profile only");
  const unsigned gbits = unsigned(opts.format.address_size) * 8;
  const int opi = int(op.op);

  if (opi >= int(Op::lit0) && opi <= int(Op::lit31)) {
    push(makeInt(0, uint64_t(opi - int(Op::lit0))));
    i = next;
    return;
  }
  if (opi >= int(Op::reg0) && opi <= int(Op::reg31)) {
    pushLocation({registerStorage(uint32_t(opi - int(Op::reg0))), 0});
    i = next;
    return;
  }

  // Register contents as an address of `sp` plus `disp` (DW_OP_breg*, bregx, aspace_bregx).
  auto bregAddress = [&](uint32_t reg, int64_t disp, uint32_t sp) {
    uint32_t storage = registerStorage(reg);
    const unsigned s = addressBits(sp);
    uint32_t rbits = uint32_t(storages_[storage].size);
    if (opts.profile == Profile::Newest && rbits < s)
      evalError("DWARF register " + std::to_string(reg) + " has " + std::to_string(rbits) +
                " bits, fewer than a " + std::to_string(s) + "-bit address (Newest profile)");
    uint64_t n = std::min<uint64_t>(rbits, s);
    uint8_t b[8] = {};
    const Segment seg[] = {{storage, 0, n}};
    readSegments(seg, b);
    uint64_t r = 0;
    for (int k = 7; k >= 0; --k) r = r << 8 | b[k];
    return (r + uint64_t(disp)) & mask(s);
  };
  // The memory storage of `sp` bound to the current lane where its scope needs one.
  auto validSpace = [&](uint64_t sp) -> const DwarfAddressSpace& {
    const DwarfAddressSpace* d = sp <= UINT32_MAX ? space(uint32_t(sp)) : nullptr;
    if (!d || (d->seed_only && opts.profile == Profile::Newest))
      illFormed("address space " + std::to_string(sp) + " is not an address space of " +
                target.triple + (d ? " in the Newest profile" : ""));
    if (d->scope == DwarfSpaceScope::FixedLane && sp - d->first >= lanes())
      illFormed("address space " + std::to_string(sp) + " names lane " +
                std::to_string(sp - d->first) + " of a wave of " + std::to_string(lanes()));
    return *d;
  };
  auto boundMemory = [&](uint32_t sp) {
    const DwarfAddressSpace& d = validSpace(sp);
    uint32_t lane = 0;
    if (d.scope == DwarfSpaceScope::FixedLane) {
      lane = sp - d.first;
    } else if (d.scope == DwarfSpaceScope::Lane) {
      if (opts.lane)
        lane = *opts.lane;
      else if (opts.subprogram_lanes > 1)
        evalError("address space " + std::to_string(sp) + " needs the focused lane");
    }
    return memory(sp, lane);
  };
  auto formAspace = [&](uint64_t as, const Entry& a) -> Location {
    const uint32_t sp = uint32_t(as);
    validSpace(as);
    if (a.kind == Entry::Ipv) {
      if (storages_[a.storage].space != sp)
        evalError("an implicit pointer value of address space " +
                  std::to_string(storages_[a.storage].space) + " is used in address space " +
                  std::to_string(sp));
      return ipvTarget(a.storage);
    }
    stack_.push_back(a); // (back on the stack only to convert it as "pop V" does)
    uint64_t v = popIntegral("the address");
    return {boundMemory(sp), BitOffset(v & mask(addressBits(sp))) * 8};
  };
  auto binaryOperands = [&](Entry& a, Entry& b) {
    b = popValue();
    a = popValue();
    if (a.kind == Entry::Ipv || b.kind == Entry::Ipv)
      evalError("an implicit pointer value is used in arithmetic");
    if (!(typeOf(a) == typeOf(b)))
      illFormed("the operands of " + std::string(opInfo(op.op).name) + " have different types");
    if (typeOf(a).vector_count != 1) illFormed("arithmetic on a vector value");
    if (typeOf(a).totalBits() > 64) unsupported("arithmetic on values wider than 64 bits");
  };

  switch (standardOp(op.op)) {
  // ----- literals (§2.8.2)
  case Op::addr:
    pushLocation({memory(0, 0), BitOffset(op.u[0]) * 8});
    break;
  case Op::const1u:
  case Op::const2u:
  case Op::const4u:
  case Op::const8u:
  case Op::constu:
    push(makeInt(0, op.u[0]));
    break;
  case Op::const1s:
  case Op::const2s:
  case Op::const4s:
  case Op::const8s:
  case Op::consts:
    push(makeInt(0, uint64_t(op.s)));
    break;
  case Op::addrx:
  case Op::constx: {
    uint64_t v = 0;
    if (!machine.debugAddr(op.u[0], v))
      evalError(".debug_addr entry " + std::to_string(op.u[0]) + " is not available");
    if (standardOp(op.op) == Op::addrx)
      pushLocation({memory(0, 0), BitOffset(v) * 8});
    else
      push(makeInt(0, v));
    break;
  }
  case Op::const_type: {
    uint32_t t = typeFor(op.u[0]);
    if (op.u[1] != (types_[t].totalBits() + 7) / 8)
      illFormed("DW_OP_const_type: " + std::to_string(op.u[1]) + " bytes for a type of " +
                std::to_string(types_[t].totalBits()) + " bits");
    push(makeValue(t, e.blockOf(op, 1).data()));
    break;
  }
  case Op::LLVM_push_lane: {
    uint64_t lane = 0;
    if (opts.subprogram_lanes > 1) {
      if (!opts.lane) evalError("DW_OP_LLVM_push_lane needs the focused lane");
      lane = *opts.lane;
      if (opts.profile == Profile::Newest && lane >= opts.subprogram_lanes)
        illFormed("lane " + std::to_string(lane) + " is not below DW_AT_LLVM_lanes " +
                  std::to_string(opts.subprogram_lanes));
    }
    push(makeInt(0, lane));
    break;
  }
  case Op::LLVM_push_iteration:
    push(makeInt(0, 0));
    break; // one iteration (no context)

  // ----- stack operations (§2.8.1)
  case Op::dup: {
    Entry t = pop();
    push(t);
    push(t);
    break;
  }
  case Op::drop:
    pop();
    break;
  case Op::over:
  case Op::pick: {
    uint64_t k = op.op == Op::over ? 1 : op.u[0];
    if (k >= depthOfStack())
      illFormed("DW_OP_pick " + std::to_string(k) + " with " + std::to_string(depthOfStack()) +
                " entries on the stack");
    Entry t = stack_[stack_.size() - 1 - k];
    if (isIncomplete(t)) illFormed("an incomplete composite location is copied");
    push(t);
    break;
  }
  case Op::swap: {
    Entry a = pop(), b = pop();
    push(a);
    push(b);
    break;
  }
  case Op::rot: {
    Entry a = pop(), b = pop(), c = pop(); // a was on top
    push(a);
    push(c);
    push(b);
    break;
  }

  // ----- arithmetic and logic (§2.8.3)
  case Op::abs:
  case Op::neg:
  case Op::not_: {
    Entry a = popValue();
    if (a.kind == Entry::Ipv) evalError("an implicit pointer value is used in arithmetic");
    const BaseType& t = typeOf(a);
    uint64_t w = t.totalBits();
    if (isFloat(t) && op.op != Op::not_) {
      double d = toDouble(a.lo, w);
      push(makeInt(a.type, fromDouble(op.op == Op::neg ? -d : std::fabs(d), w)));
      break;
    }
    if (!integral(t))
      illFormed(std::string(opInfo(op.op).name) + " on a value of no integral type");
    if (w > 64) unsupported("arithmetic on values wider than 64 bits");
    uint64_t r = op.op == Op::not_                  ? ~a.lo
                 : op.op == Op::neg                 ? uint64_t(0) - a.lo
                 : isSigned(t) && sext(a.lo, w) < 0 ? uint64_t(0) - a.lo
                                                    : a.lo;
    push(makeInt(a.type, r));
    break;
  }
  case Op::plus_uconst: {
    uint32_t type = 0;
    uint64_t v = popIntegral("the operand of DW_OP_plus_uconst", &type);
    push(makeInt(type, v + op.u[0]));
    break;
  }
  case Op::plus:
  case Op::minus:
  case Op::mul:
  case Op::div:
  case Op::mod:
  case Op::and_:
  case Op::or_:
  case Op::xor_:
  case Op::shl:
  case Op::shr:
  case Op::shra:
  case Op::eq:
  case Op::ne:
  case Op::lt:
  case Op::le:
  case Op::gt:
  case Op::ge: {
    Entry a, b;
    binaryOperands(a, b);
    const BaseType& t = typeOf(a);
    const uint64_t w = t.totalBits();
    if (isFloat(t)) {
      double x = toDouble(a.lo, w), y = toDouble(b.lo, w);
      if (isComparison(op.op)) {
        push(makeInt(0, uint64_t(compare(op.op, x, y) ? 1 : 0)));
        break;
      }
      double r =
          op.op == Op::plus    ? x + y
          : op.op == Op::minus ? x - y
          : op.op == Op::mul   ? x * y
          : op.op == Op::div
              ? x / y
              : (illFormed(std::string(opInfo(op.op).name) + " on floating-point values"), 0.0);
      push(makeInt(a.type, fromDouble(r, w)));
      break;
    }
    if (!integral(t)) illFormed(std::string(opInfo(op.op).name) + " on values of no integral type");
    const uint64_t x = a.lo, y = b.lo;
    const bool sg = isSigned(t);
    if (isComparison(op.op)) {
      push(
          makeInt(0, (sg ? compare(op.op, sext(x, w), sext(y, w)) : compare(op.op, x, y)) ? 1 : 0));
      break;
    }
    uint64_t r = 0;
    switch (standardOp(op.op)) {
    case Op::plus:
      r = x + y;
      break;
    case Op::minus:
      r = x - y;
      break;
    case Op::mul:
      r = x * y;
      break;
    case Op::and_:
      r = x & y;
      break;
    case Op::or_:
      r = x | y;
      break;
    case Op::xor_:
      r = x ^ y;
      break;
    case Op::div:
    case Op::mod: {
      if (y == 0) evalError(std::string(opInfo(op.op).name) + " by zero");
      bool sdiv = op.op == Op::div ? sg : sg && t.encoding != kGenericEncoding;
      if (!sdiv) {
        r = op.op == Op::div ? x / y : x % y;
      } else {
        int64_t sx = sext(x, w), sy = sext(y, w);
        if (sy == -1)
          r = op.op == Op::div ? uint64_t(0) - x : 0; // no overflow trap
        else
          r = uint64_t(op.op == Op::div ? sx / sy : sx % sy);
      }
      break;
    }
    case Op::shl:
      r = y >= w ? 0 : x << y;
      break;
    case Op::shr:
      r = y >= w ? 0 : x >> y;
      break;
    default: { // shra
      int64_t sx = sext(x, w);
      r = y >= w ? (sx < 0 ? ~uint64_t(0) : 0) : uint64_t(sx >> y);
      break;
    }
    }
    push(makeInt(a.type, r));
    break;
  }
  case Op::convert:
  case Op::reinterpret: {
    uint32_t to = op.u[0] == 0 ? 0 : typeFor(op.u[0]);
    Entry a = popValue();
    if (a.kind == Entry::Ipv) evalError("an implicit pointer value is converted");
    const BaseType &f = typeOf(a), &t = types_[to];
    if (standardOp(op.op) == Op::reinterpret) {
      if (f.totalBits() != t.totalBits())
        illFormed("DW_OP_reinterpret between types of " + std::to_string(f.totalBits()) + " and " +
                  std::to_string(t.totalBits()) + " bits");
      valueBytes(a, valbuf_);
      push(makeValue(to, valbuf_.data()));
      break;
    }
    const uint64_t fw = f.totalBits(), tw = t.totalBits();
    if (fw > 64 || tw > 64) unsupported("DW_OP_convert of values wider than 64 bits");
    if (integral(f) && integral(t)) {
      push(makeInt(to, isSigned(f) ? uint64_t(sext(a.lo, fw)) : a.lo));
    } else if (integral(f) && isFloat(t)) {
      double d = isSigned(f) ? double(sext(a.lo, fw)) : double(a.lo);
      push(makeInt(to, fromDouble(d, tw)));
    } else if (isFloat(f) && isFloat(t)) {
      push(makeInt(to, fromDouble(toDouble(a.lo, fw), tw)));
    } else if (isFloat(f) && integral(t)) {
      double d = std::nearbyint(toDouble(a.lo, fw));
      bool sg = isSigned(t);
      double lo = sg ? -std::ldexp(1.0, int(tw) - 1) : 0.0,
             hi = std::ldexp(1.0, int(tw) - (sg ? 1 : 0));
      if (!(d >= lo && d < hi))
        evalError("DW_OP_convert: the value does not fit the integral type");
      push(makeInt(to, sg ? uint64_t(int64_t(d)) : uint64_t(d)));
    } else {
      unsupported("DW_OP_convert between these base types");
    }
    break;
  }

  // ----- control flow
  case Op::skip:
  case Op::bra: {
    if (op.op == Op::bra && popIntegral("the condition of DW_OP_bra") == 0) break;
    const int64_t from = int64_t(op.offset) + int64_t(op.size);
    const int64_t target = from + op.s;
    const int64_t first = begin < end ? int64_t(e.ops[begin].offset) : 0;
    const int64_t last = begin < end ? int64_t(e.ops[end - 1].offset + e.ops[end - 1].size) : 0;
    if (target == last) {
      i = end;
      return;
    }
    auto it =
        std::lower_bound(e.ops.begin() + ptrdiff_t(begin), e.ops.begin() + ptrdiff_t(end), target,
                         [](const Operation& o, int64_t t) { return int64_t(o.offset) < t; });
    if (target < first || target > last || it == e.ops.begin() + ptrdiff_t(end) ||
        int64_t(it->offset) != target || it->depth != op.depth)
      illFormed("the branch goes to byte " + std::to_string(target) +
                ", which is not the start of an operation");
    i = size_t(it - e.ops.begin());
    return;
  }
  case Op::nop:
  case Op::LLVM_nop:
    break;

  // ----- reading storage (§2.8.5)
  case Op::deref:
    deref(0, gbits);
    break;
  case Op::deref_size:
    if (op.u[0] * 8 > gbits && opts.profile == Profile::Seed)
      illFormed("DW_OP_deref_size " + std::to_string(op.u[0]) + " is larger than an address");
    deref(0, std::min<uint64_t>(op.u[0] * 8, gbits));
    break;
  case Op::deref_type: {
    uint32_t t = typeFor(op.u[1]);
    if (op.u[0] != (types_[t].totalBits() + 7) / 8)
      illFormed("DW_OP_deref_type: size " + std::to_string(op.u[0]) + " for a type of " +
                std::to_string(types_[t].totalBits()) + " bits");
    deref(t, types_[t].totalBits());
    break;
  }
  case Op::regval_type: {
    uint32_t t = typeFor(op.u[1]);
    pushLocation({registerStorage(uint32_t(std::min<uint64_t>(op.u[0], UINT32_MAX))), 0});
    deref(t, types_[t].totalBits());
    break;
  }
  case Op::xderef:
  case Op::xderef_size:
  case Op::xderef_type: {
    Entry a = pop();
    uint64_t as = popIntegral("the address space");
    pushLocation(formAspace(as, a));
    if (op.op == Op::xderef) {
      deref(0, gbits);
    } else if (op.op == Op::xderef_size) {
      if (op.u[0] * 8 > gbits && opts.profile == Profile::Seed)
        illFormed("DW_OP_xderef_size " + std::to_string(op.u[0]) + " is larger than an address");
      deref(0, std::min<uint64_t>(op.u[0] * 8, gbits));
    } else {
      uint32_t t = typeFor(op.u[1]);
      if (op.u[0] != (types_[t].totalBits() + 7) / 8)
        illFormed("DW_OP_xderef_type: size " + std::to_string(op.u[0]) + " for a type of " +
                  std::to_string(types_[t].totalBits()) + " bits");
      deref(t, types_[t].totalBits());
    }
    break;
  }
  case Op::entry_value: {
    const Operation* r = next == i + 2 ? &e.ops[i + 1] : nullptr;
    int ri = r ? int(r->op) : -1;
    if (r && (r->op == Op::regx || (ri >= int(Op::reg0) && ri <= int(Op::reg31)))) {
      uint32_t reg = r->op == Op::regx ? uint32_t(std::min<uint64_t>(r->u[0], UINT32_MAX))
                                       : uint32_t(ri - int(Op::reg0));
      uint32_t bits = registerBits(reg);
      if (bits != gbits)
        unsupported("DW_OP_entry_value of a " + std::to_string(bits) +
                    "-bit register (only registers of the generic type's size)");
      uint8_t b[8] = {};
      if (!machine.entryValue(reg, {b, gbits / 8}))
        evalError("the entry value of DWARF register " + std::to_string(reg) + " is not available");
      push(makeValue(0, b));
    } else {
      for (size_t k = i + 1; k < next; ++k)
        if (e.ops[k].op == Op::push_object_address)
          illFormed("DW_OP_push_object_address inside DW_OP_entry_value");
      unsupported("DW_OP_entry_value of anything but one register needs the caller's frame");
    }
    break;
  }

  // ----- general location operations (§2.8.6, §2.8.7)
  case Op::LLVM_offset:
  case Op::LLVM_bit_offset: {
    uint32_t type = 0;
    uint64_t v = popIntegral("the displacement", &type);
    SignedBits d = signedOf(types_[type], v);
    Location l = popLocation();
    pushLocation(offsetBy(l, op.op == Op::LLVM_offset ? d * 8 : d));
    break;
  }
  case Op::LLVM_offset_uconst:
    pushLocation(offsetBy(popLocation(), SignedBits(op.u[0]) * 8));
    break;
  case Op::push_object_address:
    pushLocation(contextLocation(object_, opts.object_address, "object address"));
    break;
  case Op::LLVM_call_frame_entry_reg:
    registerBits(uint32_t(std::min<uint64_t>(op.u[0], UINT32_MAX)));
    evalError("DW_OP_LLVM_call_frame_entry_reg needs the call frame information of the frame");
  case Op::LLVM_undefined:
    pushLocation({0, 0});
    break;

  // ----- memory locations (§2.8.8)
  case Op::LLVM_form_aspace_address: {
    uint64_t as = popIntegral("the address space");
    Entry a = pop();
    pushLocation(formAspace(as, a));
    break;
  }
  case Op::form_tls_address: {
    uint64_t ta = popIntegral("the thread-local offset"), a = 0;
    if (!machine.tlsAddress(ta, a)) unsupported("thread-local storage on " + target.triple);
    pushLocation({memory(0, 0), BitOffset(a) * 8});
    break;
  }
  case Op::call_frame_cfa:
    pushLocation(contextLocation(cfa_, opts.cfa, "CFA"));
    break;
  case Op::fbreg:
    pushLocation(offsetBy(frameBase(), SignedBits(op.s) * 8));
    break;
  case Op::bregx:
    pushLocation(
        {memory(0, 0),
         BitOffset(bregAddress(uint32_t(std::min<uint64_t>(op.u[0], UINT32_MAX)), op.s, 0)) * 8});
    break;
  case Op::LLVM_aspace_bregx: {
    uint64_t as = popIntegral("the address space");
    validSpace(as);
    uint64_t a = bregAddress(uint32_t(std::min<uint64_t>(op.u[0], UINT32_MAX)), op.s, uint32_t(as));
    pushLocation({boundMemory(uint32_t(as)), BitOffset(a) * 8});
    break;
  }

  // ----- register and implicit locations (§2.8.9)
  case Op::regx:
    pushLocation({registerStorage(uint32_t(std::min<uint64_t>(op.u[0], UINT32_MAX))), 0});
    break;
  case Op::implicit_value:
    pushLocation({implicit(e.blockOf(op, 0).data(), op.u[0] * 8), 0});
    break;
  case Op::stack_value: {
    Entry v = popValue();
    if (v.kind == Entry::Ipv) {
      pushLocation({v.storage, 0});
      break;
    }
    valueBytes(v, valbuf_);
    pushLocation({implicit(valbuf_.data(), bitsOf(v)), 0});
    break;
  }
  case Op::implicit_pointer:
    pushLocation({implicitPointer(op.u[0], op.s, 0), 0});
    break;
  case Op::LLVM_aspace_implicit_pointer: {
    uint64_t as = popIntegral("the address space");
    validSpace(as);
    pushLocation({implicitPointer(op.u[0], op.s, uint32_t(as)), 0});
    break;
  }

  // ----- procedure calls (§2.8.4)
  case Op::call2:
  case Op::call4:
    call(op.u[0], true);
    break;
  case Op::call_ref:
    call(op.u[0], false);
    break;

  // ----- composites (§2.8.10)
  case Op::piece:
    piece(BitOffset(op.u[0]) * 8, std::nullopt);
    break;
  case Op::bit_piece:
    piece(op.u[0], SignedBits(op.u[1]));
    break;
  case Op::LLVM_piece_end:
    if (depthOfStack() == 0 || !isIncomplete(stack_.back()))
      illFormed("DW_OP_LLVM_piece_end without an incomplete composite on top of the stack");
    storages_[stack_.back().storage].complete = true;
    break;
  case Op::LLVM_extend: {
    const uint64_t s = op.u[0], c = op.u[1];
    if (s == 0 || c == 0) illFormed("DW_OP_LLVM_extend with a size or count of 0");
    Location pl = popLocation();
    checkPart(pl, s);
    uint32_t cs = composite();
    if (pl.storage == 0) {
      if (BitOffset(s) * c > (BitOffset(1) << 67))
        illFormed("the composite location would be larger than 2^64 bytes");
      appendPart(cs, {0, 0, BitOffset(s) * c});
    } else {
      for (uint64_t k = 0; k < c; ++k) appendPart(cs, {pl.storage, pl.offset, s});
    }
    storages_[cs].complete = true;
    pushLocation({cs, 0});
    break;
  }
  case Op::LLVM_select_bit_piece: {
    const uint64_t s = op.u[0], c = op.u[1];
    if (s == 0 || c == 0) illFormed("DW_OP_LLVM_select_bit_piece with a size or count of 0");
    Entry m = popValue();
    if (m.kind == Entry::Ipv) evalError("an implicit pointer value is used as a mask");
    if (!integral(typeOf(m))) illFormed("the mask of DW_OP_LLVM_select_bit_piece is not integral");
    if (bitsOf(m) < c)
      illFormed("the mask has " + std::to_string(bitsOf(m)) + " bits, fewer than the count " +
                std::to_string(c));
    Location one = popLocation(), zero = popLocation();
    valueBytes(m, valbuf_);
    const std::vector<uint8_t> bits = valbuf_;
    uint32_t cs = composite();
    for (uint64_t n = 0; n < c; ++n) {
      bool set = (bits[n / 8] >> (n % 8)) & 1;
      Location pl = offsetBy(set ? one : zero, SignedBits(n) * s);
      checkPart(pl, s);
      appendPart(cs, {pl.storage, pl.offset, s});
    }
    storages_[cs].complete = true;
    pushLocation({cs, 0});
    break;
  }
  case Op::LLVM_overlay:
  case Op::LLVM_bit_overlay: {
    const SignedBits scale = op.op == Op::LLVM_overlay ? 8 : 1;
    uint32_t ts = 0, to = 0;
    uint64_t vs = popIntegral("the overlay size", &ts), vo = popIntegral("the overlay offset", &to);
    SignedBits bs = signedOf(types_[ts], vs) * scale, bo = signedOf(types_[to], vo) * scale;
    if (bs < 0 || bo < 0) illFormed("a negative overlay size or offset");
    Location ol = popLocation(), bl = popLocation();
    if (bl.storage == 0) unsupported("an overlay on an undefined location (it has no size)");
    BitOffset rb = sizeOf(bl.storage) - bl.offset;
    if (rb < BitOffset(bo + bs)) illFormed("the overlay goes past the end of the base location");
    if (bs == 0) {
      pushLocation(bl);
    } else if (bo == 0 && BitOffset(bs) == rb) {
      pushLocation(ol);
    } else {
      checkPart(ol, BitOffset(bs));
      uint32_t cs = composite();
      if (bo > 0) appendPart(cs, {bl.storage, bl.offset, BitOffset(bo)});
      appendPart(cs, {ol.storage, ol.offset, BitOffset(bs)});
      if (rb > BitOffset(bo + bs))
        appendPart(cs, {bl.storage, bl.offset + BitOffset(bo + bs), rb - BitOffset(bo + bs)});
      storages_[cs].complete = true;
      pushLocation({cs, 0});
    }
    break;
  }
  default:
    if (opi >= int(Op::breg0) && opi <= int(Op::breg31)) {
      pushLocation(
          {memory(0, 0), BitOffset(bregAddress(uint32_t(opi - int(Op::breg0)), op.s, 0)) * 8});
      break;
    }
    unsupported(std::string(opInfo(op.op).name));
  }
  i = next;
}

// ----- the public class ------------------------------------------------------------------------

uint64_t ValueInfo::low() const {
  uint64_t v = 0;
  for (size_t i = 0; i < bytes.size() && i < 8; ++i) v |= uint64_t(bytes[i]) << (8 * i);
  return v;
}

Evaluator::Evaluator(const Target& target, Machine& machine, DieResolver* dies)
    : impl_(std::make_unique<Impl>(target, machine, dies)) {}
Evaluator::~Evaluator() = default;
EvalOptions& Evaluator::options() {
  return impl_->opts;
}
void Evaluator::reset() {
  impl_->reset();
}

EvalResult Evaluator::evaluate(const Expression& expr, ResultKind kind,
                               std::span<const Location> initial) {
  if (impl_->types_.empty() || impl_->types_[0].elem_bits != impl_->opts.format.address_size * 8u)
    impl_->reset(); // the address size changed: the generic type with it
  return impl_->evaluate(expr, kind, initial);
}

ValueInfo Evaluator::valueInfo(const EvalResult& r) const {
  ValueInfo v;
  if (r.kind != ResultKind::Value || r.value >= impl_->results_.size()) return v;
  const Entry& e = impl_->results_[r.value];
  if (e.kind == Entry::Ipv) {
    const Storage& s = impl_->storages_[e.storage];
    v.type = impl_->types_[0];
    v.type.elem_bits = uint32_t(s.size);
    return v;
  }
  v.type = impl_->typeOf(e);
  impl_->valueBytes(e, v.bytes);
  return v;
}

LocationInfo Evaluator::describe(const Location& loc) const {
  return impl_->describe(loc);
}

static constexpr uint64_t kMaxAccessBits = uint64_t(1) << 23;

void Evaluator::read(const Location& loc, uint64_t bits, std::vector<uint8_t>& out) {
  if (bits > kMaxAccessBits)
    throw EvalError(EvalErrorKind::Unsupported, "reads of more than 1 MiB", 0);
  impl_->op_offset_ = kNoOperation;
  out.assign(size_t((bits + 7) / 8), 0);
  impl_->segments(loc, bits, impl_->segs_);
  impl_->readSegments(impl_->segs_, out.data());
}

void Evaluator::write(const Location& loc, uint64_t bits, std::span<const uint8_t> in) {
  if (bits > kMaxAccessBits || (bits + 7) / 8 > in.size())
    throw EvalError(EvalErrorKind::Unsupported,
                    "writes of more than 1 MiB or of more bits than given", 0);
  impl_->op_offset_ = kNoOperation;
  impl_->writeBits(loc, bits, in.data());
}

} // namespace abikit::dwarf
