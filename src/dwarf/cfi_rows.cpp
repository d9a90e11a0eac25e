// Call frame information: instructions → rows (reference dwarf.md §4.2-§4.3, DWARF 5 §6.4.2).
// The CIE's initial instructions run first, then the FDE's, on one state: the CFA rule and a map
// from register to rule (only the registers an instruction named; the others keep the target's
// default). remember_state does not copy the state: it marks an undo log, and restore_state
// undoes the changes made since, so both cost time proportional to what changed. The table keeps
// the rows as the changes between them (CfiTable), so memory stays linear in the instructions.
#include "abikit/dwarf_cfi.h"
#include "cfi_internal.h"

#include <algorithm>

namespace abikit::dwarf {

namespace {

using detail::hexString;

// n × factor in 64-bit two's complement (a factored offset that overflows wraps, as LLVM's).
int64_t factored(uint64_t n, int64_t factor) {
  return int64_t(n * uint64_t(factor));
}

// The default space (0), or one the target has (AMDGPU private_lane<N> only for N below the
// wavefront size).
bool spaceKnown(const DwarfTargetInfo& t, uint64_t id) {
  return id == 0 || t.findSpace(id) != nullptr;
}

} // namespace

// Executes instructions into a CfiTable (a friend of it).
class CfiTableBuilder {
public:
  CfiTableBuilder(const CfiSection& s, const CfiCie& cie, const DwarfTargetInfo* target,
                  CfiTable& out)
      : s_(s), cie_(cie), target_(target), out_(out) {}

  void run(std::span<const CfiInstruction> program, bool in_cie) {
    in_cie_ = in_cie;
    log_.clear();
    marks_.clear();
    for (const CfiInstruction& in : program) step(in);
  }

  void startAt(uint64_t address, bool has_address, uint64_t range) {
    address_ = address;
    out_.has_address_ = has_address;
    out_.begin_ = address;
    out_.end_ = address + range;
  }
  void saveInitial() { initial_ = rules_; }
  void finish() { out_.rows_.push_back({address_, cfa_, out_.changes_.size()}); }

private:
  struct Undo {
    bool is_cfa = false;
    bool had = false;
    uint64_t reg = 0;
    RegisterRule rule;
    CfaRule cfa;
  };

  [[noreturn]] void fail(CfiErrorKind kind, const CfiInstruction& in, const std::string& why) {
    throw CfiError(kind, s_.format.section, in.offset,
                   std::string(cfaInfo(in.op).name) + ": " + why);
  }

  void set(uint64_t reg, const RegisterRule& rule) {
    auto it = rules_.find(reg);
    if (!marks_.empty()) {
      Undo u;
      u.reg = reg;
      u.had = it != rules_.end();
      if (u.had) u.rule = it->second;
      log_.push_back(u);
    }
    if (it != rules_.end())
      it->second = rule;
    else
      rules_.emplace(reg, rule);
    out_.changes_.push_back({reg, false, rule});
  }

  void erase(uint64_t reg) {
    auto it = rules_.find(reg);
    if (it == rules_.end()) return;
    if (!marks_.empty()) {
      Undo u;
      u.reg = reg;
      u.had = true;
      u.rule = it->second;
      log_.push_back(u);
    }
    rules_.erase(it);
    out_.changes_.push_back({reg, true, {}});
  }

  void setCfa(const CfaRule& rule) {
    if (!marks_.empty()) {
      Undo u;
      u.is_cfa = true;
      u.cfa = cfa_;
      log_.push_back(u);
    }
    cfa_ = rule;
  }

  void newRow(uint64_t address) {
    out_.rows_.push_back({address_, cfa_, out_.changes_.size()});
    address_ = address;
  }

  int64_t dataFactor(const CfiInstruction& in) {
    if (cie_.data_alignment_factor == 0)
      fail(CfiErrorKind::IllFormed, in, "the data alignment factor is 0");
    return cie_.data_alignment_factor;
  }

  void advance(const CfiInstruction& in) {
    if (cie_.code_alignment_factor == 0)
      fail(CfiErrorKind::IllFormed, in, "the code alignment factor is 0");
    uint64_t delta = in.operand[0] * cie_.code_alignment_factor;
    if (in.operand[0] != 0 && delta / in.operand[0] != cie_.code_alignment_factor)
      fail(CfiErrorKind::IllFormed, in, "the advance does not fit in 64 bits");
    if (address_ + delta < address_)
      fail(CfiErrorKind::IllFormed, in,
           "the row address " + hexString(address_) + " + " + hexString(delta) +
               " wraps past 2^64");
    newRow(address_ + delta);
  }

  void requireRegisterCfa(const CfiInstruction& in) {
    if (cfa_.kind != CfaRuleKind::RegisterOffset)
      fail(CfiErrorKind::IllFormed, in,
           cfa_.kind == CfaRuleKind::Expression
               ? "the CFA rule is an expression, not a register and offset"
               : "there is no CFA rule (a register and offset) to change");
  }

  void registerCfa(const CfiInstruction& in, uint64_t reg, int64_t offset,
                   std::optional<uint64_t> space) {
    CfaRule r;
    r.kind = CfaRuleKind::RegisterOffset;
    r.reg = reg;
    r.offset = offset;
    if (space) {
      if (target_ && !target_->spaces.empty() && !spaceKnown(*target_, *space))
        fail(CfiErrorKind::IllFormed, in,
             "address space " + std::to_string(*space) + " is not one of the target's");
      r.address_space = *space;
      r.has_address_space = true;
    }
    setCfa(r);
  }

  void step(const CfiInstruction& in) {
    RegisterRule rule;
    switch (in.op) {
    case Cfa::nop:
    case Cfa::GNU_args_size:
      return;
    case Cfa::set_loc:
      if (out_.has_address_ && in.operand[0] <= address_)
        fail(CfiErrorKind::IllFormed, in,
             "address " + hexString(in.operand[0]) + " is not past the current row's " +
                 hexString(address_));
      newRow(in.operand[0]);
      return;
    case Cfa::advance_loc:
    case Cfa::advance_loc1:
    case Cfa::advance_loc2:
    case Cfa::advance_loc4:
      advance(in);
      return;
    case Cfa::def_cfa:
      registerCfa(in, in.operand[0], int64_t(in.operand[1]), std::nullopt);
      return;
    case Cfa::def_cfa_sf:
      registerCfa(in, in.operand[0], factored(in.operand[1], dataFactor(in)), std::nullopt);
      return;
    case Cfa::LLVM_def_aspace_cfa:
      registerCfa(in, in.operand[0], int64_t(in.operand[1]), in.operand[2]);
      return;
    case Cfa::LLVM_def_aspace_cfa_sf:
      registerCfa(in, in.operand[0], factored(in.operand[1], dataFactor(in)), in.operand[2]);
      return;
    case Cfa::def_cfa_register: {
      // With no register-and-offset rule to change (DWARF 5 §6.4.2.2 makes that invalid), the
      // rule becomes R+0 in the default space: GCC 12 opens every RISC-V CIE with
      // DW_CFA_def_cfa_register sp, and gdb and llvm-dwarfdump read it so (docs/dwarf.md).
      if (cfa_.kind != CfaRuleKind::RegisterOffset) {
        registerCfa(in, in.operand[0], 0, std::nullopt);
        return;
      }
      CfaRule r = cfa_;
      r.reg = in.operand[0];
      setCfa(r);
      return;
    }
    case Cfa::def_cfa_offset:
    case Cfa::def_cfa_offset_sf: {
      requireRegisterCfa(in);
      CfaRule r = cfa_;
      r.offset = in.op == Cfa::def_cfa_offset ? int64_t(in.operand[0])
                                              : factored(in.operand[0], dataFactor(in));
      setCfa(r);
      return;
    }
    case Cfa::def_cfa_expression: {
      CfaRule r;
      r.kind = CfaRuleKind::Expression;
      r.expr_offset = in.expr_offset;
      r.expr_size = in.expr_size;
      setCfa(r);
      return;
    }
    case Cfa::undefined:
      rule.kind = RegisterRuleKind::Undefined;
      break;
    case Cfa::same_value:
      rule.kind = RegisterRuleKind::SameValue;
      break;
    case Cfa::offset:
    case Cfa::offset_extended:
      rule.kind = RegisterRuleKind::Offset;
      rule.offset = factored(in.operand[1], dataFactor(in));
      break;
    case Cfa::offset_extended_sf:
      rule.kind = RegisterRuleKind::Offset;
      rule.offset = factored(in.operand[1], dataFactor(in));
      break;
    case Cfa::GNU_negative_offset_extended:
      rule.kind = RegisterRuleKind::Offset;
      rule.offset = int64_t(0 - uint64_t(factored(in.operand[1], dataFactor(in))));
      break;
    case Cfa::val_offset:
    case Cfa::val_offset_sf:
      rule.kind = RegisterRuleKind::ValOffset;
      rule.offset = factored(in.operand[1], dataFactor(in));
      break;
    case Cfa::register_:
      rule.kind = RegisterRuleKind::Register;
      rule.reg = in.operand[1];
      break;
    case Cfa::expression:
    case Cfa::val_expression:
      rule.kind =
          in.op == Cfa::expression ? RegisterRuleKind::Expression : RegisterRuleKind::ValExpression;
      rule.expr_offset = in.expr_offset;
      rule.expr_size = in.expr_size;
      break;
    case Cfa::restore:
    case Cfa::restore_extended: {
      if (in_cie_)
        fail(CfiErrorKind::IllFormed, in,
             "in a CIE's initial instructions (there is no initial rule to restore yet)");
      auto it = initial_.find(in.operand[0]);
      if (it != initial_.end())
        set(in.operand[0], it->second);
      else
        erase(in.operand[0]);
      return;
    }
    case Cfa::remember_state:
      if (marks_.size() >= kMaxRememberDepth)
        fail(CfiErrorKind::Evaluation, in,
             "nested deeper than " + std::to_string(kMaxRememberDepth) + " remembered states");
      marks_.push_back(log_.size());
      return;
    case Cfa::restore_state:
      restoreState(in);
      return;
    }
    set(in.operand[0], rule);
  }

  void restoreState(const CfiInstruction& in) {
    if (marks_.empty())
      fail(CfiErrorKind::IllFormed, in, "no state was remembered (DW_CFA_remember_state)");
    size_t mark = marks_.back();
    marks_.pop_back();
    // Undo what changed since the mark, newest first. The outer marks' entries stay: they undo
    // the changes made before this mark.
    while (log_.size() > mark) {
      Undo u = log_.back();
      log_.pop_back();
      if (u.is_cfa) {
        cfa_ = u.cfa;
        continue;
      }
      if (u.had) {
        rules_[u.reg] = u.rule;
        out_.changes_.push_back({u.reg, false, u.rule});
      } else {
        rules_.erase(u.reg);
        out_.changes_.push_back({u.reg, true, {}});
      }
    }
  }

  const CfiSection& s_;
  const CfiCie& cie_;
  const DwarfTargetInfo* target_;
  CfiTable& out_;
  bool in_cie_ = false;
  uint64_t address_ = 0;
  CfaRule cfa_;
  std::map<uint64_t, RegisterRule> rules_;
  std::map<uint64_t, RegisterRule> initial_;
  std::vector<Undo> log_;
  std::vector<size_t> marks_;
};

std::string_view registerRuleKindName(RegisterRuleKind k) {
  switch (k) {
  case RegisterRuleKind::Undefined:
    return "undefined";
  case RegisterRuleKind::SameValue:
    return "same value";
  case RegisterRuleKind::Offset:
    return "offset";
  case RegisterRuleKind::ValOffset:
    return "val_offset";
  case RegisterRuleKind::Register:
    return "register";
  case RegisterRuleKind::Expression:
    return "expression";
  case RegisterRuleKind::ValExpression:
    return "val_expression";
  }
  return "?";
}

RegisterRule CfiRow::rule(uint64_t reg, const DwarfTargetInfo& target) const {
  auto it = rules.find(reg);
  if (it != rules.end()) return it->second;
  RegisterRule r;
  r.kind = target.default_same_value ? RegisterRuleKind::SameValue : RegisterRuleKind::Undefined;
  return r;
}

void CfiTable::applyChanges(CfiRow& r, size_t from, size_t to) const {
  for (size_t i = from; i < to; ++i) {
    const Change& c = changes_[i];
    if (c.erase)
      r.rules.erase(c.reg);
    else
      r.rules[c.reg] = c.rule;
  }
}

CfiRow CfiTable::row(size_t i) const {
  CfiRow r;
  r.has_address = has_address_;
  applyChanges(r, 0, rows_[i].changes_end);
  r.address = rows_[i].address;
  r.cfa = rows_[i].cfa;
  return r;
}

std::optional<CfiRow> CfiTable::rowAt(uint64_t pc) const {
  if (!has_address_ || pc - begin_ >= end_ - begin_) return std::nullopt;
  auto it = std::upper_bound(rows_.begin(), rows_.end(), pc,
                             [](uint64_t p, const Mark& m) { return p < m.address; });
  if (it == rows_.begin()) return std::nullopt;
  return row(size_t(it - rows_.begin()) - 1);
}

std::vector<CfiRow> CfiTable::rows() const {
  std::vector<CfiRow> out;
  out.reserve(rows_.size());
  forEachRow([&](const CfiRow& r) { out.push_back(r); });
  return out;
}

CfiTable buildTable(const CfiSection& s, const CfiFde& fde, const DwarfTargetInfo* target) {
  const CfiCie& cie = s.cieOf(fde);
  if (fde.opaque)
    throw CfiError(CfiErrorKind::Unsupported, s.format.section, fde.offset,
                   "the FDE's CIE has augmentation \"" + std::string(cie.augmentation) +
                       "\", which abikit does not understand: its instructions cannot be read");
  CfiTable t;
  CfiTableBuilder b(s, cie, target, t);
  b.startAt(fde.initial_location, true, fde.address_range);
  b.run(s.instructionsOf(cie), true);
  b.saveInitial();
  b.run(s.instructionsOf(fde), false);
  b.finish();
  return t;
}

CfiTable buildTable(const CfiSection& s, const CfiCie& cie, const DwarfTargetInfo* target) {
  if (!cie.understood)
    throw CfiError(CfiErrorKind::Unsupported, s.format.section, cie.offset,
                   "augmentation \"" + std::string(cie.augmentation) +
                       "\" is not understood: the CIE's instructions cannot be read");
  CfiTable t;
  CfiTableBuilder b(s, cie, target, t);
  b.startAt(0, false, 0);
  b.run(s.instructionsOf(cie), true);
  b.finish();
  return t;
}

std::optional<Expression> cfaExpression(const CfiSection& s, const CfiRow& row, const CfiCie& cie,
                                        bool dwarf64) {
  ExprFormat f = cfiExprFormat(s, cie, dwarf64);
  switch (row.cfa.kind) {
  case CfaRuleKind::Unspecified:
    return std::nullopt;
  case CfaRuleKind::Expression:
    return decode(expressionOf(s, row.cfa), f);
  case CfaRuleKind::RegisterOffset:
    break;
  }
  // Built as operations, then encoded and decoded so that the operations carry the byte offsets
  // and sizes decode() gives (in the user encoding: the bytes are not the section's anyway).
  Expression e;
  Operation breg;
  breg.op = row.cfa.has_address_space ? Op::LLVM_aspace_bregx : Op::bregx;
  breg.u[0] = row.cfa.reg;
  breg.s = row.cfa.offset;
  if (row.cfa.has_address_space) {
    Operation space;
    space.op = Op::constu;
    space.u[0] = row.cfa.address_space;
    e.ops.push_back(space);
  }
  e.ops.push_back(breg);
  f.encoding = ExtEncoding::User;
  return decode(encode(e, f), f);
}

std::optional<CfiRow> rowForPc(const CfiSection& s, uint64_t pc, const DwarfTargetInfo* target) {
  const CfiFde* f = s.findFde(pc);
  if (!f) return std::nullopt;
  return buildTable(s, *f, target).rowAt(pc);
}

} // namespace abikit::dwarf
