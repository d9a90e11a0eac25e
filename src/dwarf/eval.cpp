// The DWARF expression evaluator (reference dwarf.md §2.2-§2.9): the stack, implicit conversions,
// results, and every operation. The location model is in eval_store.cpp.
#include "eval_internal.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace abikit::dwarf {

EvalError::EvalError(EvalErrorKind kind, std::string message, uint64_t byte_offset)
    : Error(Error::atBufferOffset(
          kind == EvalErrorKind::IllFormed ? ErrorKind::Input : ErrorKind::Unsupported,
          std::string(kind == EvalErrorKind::IllFormed ? "ill-formed" : "evaluation error") + ": " +
              message,
          byte_offset)),
      eval_kind_(kind) {}

// The operation's byte offset ends the message, except for reads and writes after the evaluation
// (op_offset_ == kNoOperation).
static std::string where(uint64_t offset) {
  return offset == kNoOperation ? std::string()
                                : " (operation at byte " + std::to_string(offset) + ")";
}
static uint64_t at(uint64_t offset) {
  return offset == kNoOperation ? 0 : offset;
}

void Evaluator::Impl::illFormed(const std::string& m) const {
  throw EvalError(EvalErrorKind::IllFormed, m + where(op_offset_), at(op_offset_));
}
void Evaluator::Impl::evalError(const std::string& m) const {
  throw EvalError(EvalErrorKind::Evaluation, m + where(op_offset_), at(op_offset_));
}
void Evaluator::Impl::unsupported(const std::string& m) const {
  throw EvalError(EvalErrorKind::Unsupported, "unsupported: " + m + where(op_offset_),
                  at(op_offset_));
}

// ----- values ----------------------------------------------------------------------------------

uint32_t Evaluator::Impl::typeFor(uint64_t die) {
  for (size_t i = 1; i < types_.size(); ++i)
    if (types_[i].die == die) return uint32_t(i);
  DieInfo d;
  if (!dies) evalError("no debugging information entries to find base type " + hex(die));
  if (!dies->byUnitOffset(die, d)) illFormed("no DIE at unit offset " + hex(die));
  if (d.tag != kTagBaseType) illFormed("the DIE at " + hex(die) + " is not a base type");
  BaseType t = d.base_type;
  t.die = die;
  if (t.elem_bits == 0 || t.vector_count == 0)
    illFormed("base type " + hex(die) + " has no size or a vector size of 0");
  if (t.totalBits() > kMaxValueBits)
    unsupported("base type " + hex(die) + " is wider than " + std::to_string(kMaxValueBits) +
                " bits");
  if (t.encoding == kGenericEncoding) t.encoding = 0xff; // never the generic type
  types_.push_back(t);
  return uint32_t(types_.size() - 1);
}

Entry Evaluator::Impl::makeInt(uint32_t type, uint64_t v) {
  Entry e;
  e.kind = Entry::Val;
  e.type = type;
  uint64_t bits = types_[type].totalBits();
  if (bits <= 64) {
    e.lo = v & mask(bits);
    return e;
  }
  uint8_t b[8];
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
  std::vector<uint8_t> tmp((bits + 7) / 8, 0);
  std::memcpy(tmp.data(), b, 8);
  return makeValue(type, tmp.data());
}

Entry Evaluator::Impl::makeValue(uint32_t type, const uint8_t* data) {
  Entry e;
  e.kind = Entry::Val;
  e.type = type;
  uint64_t bits = types_[type].totalBits();
  if (bits <= 64) {
    uint64_t v = 0;
    for (uint64_t i = 0; i < (bits + 7) / 8; ++i) v |= uint64_t(data[i]) << (8 * i);
    e.lo = v & mask(bits);
    return e;
  }
  size_t n = size_t((bits + 7) / 8);
  charge(n, 0);
  e.lo = bytes_.size();
  bytes_.insert(bytes_.end(), data, data + n);
  if (bits % 8) bytes_.back() &= uint8_t((1u << (bits % 8)) - 1);
  return e;
}

void Evaluator::Impl::valueBytes(const Entry& e, std::vector<uint8_t>& out) const {
  uint64_t bits = bitsOf(e);
  out.assign(size_t((bits + 7) / 8), 0);
  if (bits <= 64) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(e.lo >> (8 * i));
  } else {
    std::memcpy(out.data(), bytes_.data() + e.lo, out.size());
  }
}

// ----- the stack -------------------------------------------------------------------------------

Entry& Evaluator::Impl::top() {
  if (depthOfStack() == 0) illFormed("the stack is empty");
  return stack_.back();
}

Entry Evaluator::Impl::pop() {
  if (depthOfStack() == 0) illFormed("the stack is empty");
  Entry e = stack_.back();
  if (isIncomplete(e)) illFormed("an incomplete composite location is used as an operand");
  stack_.pop_back();
  return e;
}

void Evaluator::Impl::push(const Entry& e) {
  if (stack_.size() >= kMaxStack)
    evalError("the stack holds more than " + std::to_string(kMaxStack) + " entries");
  stack_.push_back(e);
}

void Evaluator::Impl::pushLocation(const Location& l) {
  Entry e;
  e.kind = Entry::Loc;
  e.storage = l.storage;
  e.offset = l.offset;
  push(e);
}

// "pop V": a value; a location converts when it is default-space memory at a byte (C3).
Entry Evaluator::Impl::popValue() {
  Entry e = pop();
  if (e.kind != Entry::Loc) return e;
  const Storage& s = storages_[e.storage];
  if (s.kind == StorageKind::Memory && s.space == 0 && e.offset % 8 == 0)
    return makeInt(0, uint64_t(e.offset / 8));
  illFormed("a location that is not an address in the default address space is used as a value");
}

uint64_t Evaluator::Impl::popIntegral(const char* what, uint32_t* type) {
  Entry e = popValue();
  if (e.kind == Entry::Ipv) evalError(std::string("an implicit pointer value is used as ") + what);
  const BaseType& t = typeOf(e);
  if (!integral(t)) illFormed(std::string(what) + " is not of an integral type");
  if (t.totalBits() > 64) unsupported(std::string(what) + " wider than 64 bits");
  if (type) *type = e.type;
  return e.lo;
}

Location Evaluator::Impl::toLocation(const Entry& e) {
  if (e.kind == Entry::Loc) return {e.storage, e.offset};
  if (e.kind == Entry::Ipv) {
    if (storages_[e.storage].space != 0)
      illFormed("an implicit pointer value of a non-default address space is used as a location");
    return ipvTarget(e.storage);
  }
  if (e.type != 0)
    illFormed("a value of a base type is used as a location (only the generic "
              "type converts to an address)");
  return {memory(0, 0), BitOffset(e.lo) * 8};
}

// "pop L": a location; a generic value converts to default-space memory (C1), an implicit
// pointer value of the default space to what it points to (C2).
Location Evaluator::Impl::popLocation() {
  return toLocation(pop());
}

// Where an implicit pointer points (reference dwarf.md §2.8.9): the DIE's location, or an
// implicit value holding its DW_AT_const_value, offset by the displacement.
Location Evaluator::Impl::ipvTarget(uint32_t ip) {
  const Storage s = storages_[ip];
  DieInfo d;
  if (!dies || !dies->bySectionOffset(s.die, d))
    evalError("the implicit pointer's DIE " + hex(s.die) + " is not available");
  Location rl;
  if (d.has_location) {
    rl = evalDieLocation(d.location);
  } else if (d.has_const_value) {
    rl = {implicit(d.const_value.data(), uint64_t(d.const_value.size()) * 8), 0};
  } else {
    evalError("the implicit pointer's DIE " + hex(s.die) + " has no location and no value");
  }
  return offsetBy(rl, SignedBits(s.displacement) * 8);
}

// ----- evaluation ------------------------------------------------------------------------------

EvalResult Evaluator::Impl::evaluate(const Expression& e, ResultKind kind,
                                     std::span<const Location> initial) {
  info.lanes = opts.lanes ? opts.lanes : target.dwarf.lanes;
  stack_.clear();
  floor_ = 0;
  steps_ = 0;
  depth_ = 0;
  op_offset_ = 0;
  for (const Location& l : initial) pushLocation(l);
  run(e, 0, e.ops.size());
  Entry r = finish(kind);
  EvalResult out;
  if (r.kind == Entry::Loc) {
    out.kind = ResultKind::Location;
    out.location = {r.storage, r.offset};
  } else {
    out.kind = ResultKind::Value;
    out.implicit_pointer_value = r.kind == Entry::Ipv;
    out.value = uint32_t(results_.size());
    results_.push_back(r);
  }
  return out;
}

// The result of an evaluation (reference dwarf.md §2.5): the top entry, converted to the kind
// asked for; an incomplete composite on top is completed first.
Entry Evaluator::Impl::finish(ResultKind kind) {
  if (depthOfStack() > 0 && isIncomplete(stack_.back()))
    storages_[stack_.back().storage].complete = true;
  if (depthOfStack() == 0) {
    if (kind == ResultKind::Value) illFormed("a value is required but the stack is empty");
    Entry u;
    u.kind = Entry::Loc;
    return u;
  }
  Entry t = stack_.back();
  switch (kind) {
  case ResultKind::Unspecified:
    return t;
  case ResultKind::Location: {
    Location l = toLocation(t);
    Entry e;
    e.kind = Entry::Loc;
    e.storage = l.storage;
    e.offset = l.offset;
    return e;
  }
  case ResultKind::Value: {
    stack_.pop_back();
    stack_.push_back(t);
    return popValue();
  }
  }
  return t;
}

void Evaluator::Impl::run(const Expression& e, size_t begin, size_t end) {
  size_t i = begin;
  while (i < end) step(e, i, begin, end);
}

// A separate evaluation of ops [begin, end) of `e` on a fresh stack above the current one: its
// location (reference dwarf.md §2.8.4 rule 3, §2.8.9, §2.9).
Location Evaluator::Impl::separate(const Expression& e, size_t begin, size_t end) {
  size_t saved_floor = floor_;
  floor_ = stack_.size();
  run(e, begin, end);
  Entry r = finish(ResultKind::Location);
  stack_.resize(floor_);
  floor_ = saved_floor;
  return {r.storage, r.offset};
}

// A DIE's expression, decoded into the expression buffer of the next call depth and run: on the
// caller's stack (a DWARF procedure) or as a separate evaluation whose location is returned.
Location Evaluator::Impl::runDieExpression(std::span<const uint8_t> bytes, bool same_stack) {
  if (depth_ >= kMaxCallDepth)
    evalError("DWARF procedure calls nest deeper than " + std::to_string(kMaxCallDepth));
  if (exprs_.size() <= depth_) exprs_.push_back(std::make_unique<Expression>());
  Expression& x = *exprs_[depth_];
  try {
    decode(bytes, opts.format, x);
  } catch (const ExprError& err) {
    illFormed("a DIE's location expression cannot be decoded: " + err.message());
  }
  ++depth_;
  uint64_t saved = op_offset_;
  Location l;
  if (same_stack)
    run(x, 0, x.ops.size());
  else
    l = separate(x, 0, x.ops.size());
  op_offset_ = saved;
  --depth_;
  return l;
}

Location Evaluator::Impl::evalDieLocation(std::span<const uint8_t> bytes) {
  return runDieExpression(bytes, false);
}

Location Evaluator::Impl::contextLocation(std::optional<Location>& cache,
                                          const std::optional<Expression>& e, const char* what) {
  if (cache) return *cache;
  if (!e) evalError(std::string("the machine state gives no ") + what);
  if (depth_ >= kMaxCallDepth) illFormed(std::string("the ") + what + " refers to itself");
  ++depth_;
  uint64_t saved = op_offset_;
  Location l = separate(*e, 0, e->ops.size());
  op_offset_ = saved;
  --depth_;
  cache = l;
  return l;
}

// DW_AT_frame_base (reference dwarf.md §2.9): DW_OP_fbreg inside it is ill-formed; a register
// result means that register's contents as an address (DW_OP_bregx R, 0); otherwise memory.
Location Evaluator::Impl::frameBase() {
  if (frame_base_) return *frame_base_;
  if (!opts.frame_base) evalError("the machine state gives no frame base");
  for (const Operation& op : opts.frame_base->ops)
    if (op.op == Op::fbreg) illFormed("DW_OP_fbreg inside the frame base");
  Location l = contextLocation(frame_base_, opts.frame_base, "frame base");
  const Storage& s = storages_[l.storage];
  if (s.kind == StorageKind::Register) {
    uint32_t bits = std::min<uint32_t>(uint32_t(s.size), opts.format.address_size * 8u);
    uint8_t b[8] = {};
    const Segment seg[] = {{l.storage, 0, bits}};
    readSegments(seg, b);
    uint64_t a = 0;
    for (int i = 7; i >= 0; --i) a = a << 8 | b[i];
    l = {memory(0, 0), BitOffset(a & mask(opts.format.address_size * 8u)) * 8};
  } else if (s.kind != StorageKind::Memory) {
    illFormed("the frame base is not a memory location");
  }
  frame_base_ = l;
  return l;
}

// DW_OP_deref*: read `read_bits` bits and push a value of `type` (zero-extended when it is wider).
// If the bits come from an implicit pointer, whole and in order, push the implicit pointer value.
void Evaluator::Impl::deref(uint32_t type, uint64_t read_bits) {
  Location l = popLocation();
  segments(l, read_bits, segs_);
  bool any_ip = false;
  for (const Segment& g : segs_)
    any_ip |= storages_[g.storage].kind == StorageKind::ImplicitPointer;
  if (any_ip) {
    const Segment& g = segs_.front();
    if (segs_.size() != 1 || g.offset != 0 || BitOffset(g.bits) != storages_[g.storage].size)
      evalError("only a whole implicit pointer can be dereferenced");
    Entry e;
    e.kind = Entry::Ipv;
    e.storage = g.storage;
    push(e);
    return;
  }
  uint64_t bits = types_[type].totalBits();
  valbuf_.assign(size_t((std::max(bits, read_bits) + 7) / 8), 0);
  readSegments(segs_, valbuf_.data());
  push(makeValue(type, valbuf_.data()));
}

} // namespace abikit::dwarf
