// abikit dwarf-cfi eval: call frame instructions run after a CIE's (the target's default CIE, or
// --cie), the resulting row, and where each register of the caller is in a machine state
// (reference dwarf.md §4; cli-contract.md "DWARF").
#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_cfi.h"
#include "abikit/dwarf_eval.h"
#include "abikit/emit.h"
#include "cli.h"
#include "dwarf_machine.h"

namespace abikit::cli {

namespace {

struct State {
  TargetFlags target;
  DwarfFormatFlags format;
  std::string machine, cie;
  bool json = false;
  std::vector<std::string> words;
};

void putFixed(std::vector<uint8_t>& out, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
void putUleb(std::vector<uint8_t>& out, uint64_t v) {
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    out.push_back(uint8_t(b | (v ? 0x80 : 0)));
  } while (v);
}
void putSleb(std::vector<uint8_t>& out, int64_t v) {
  bool more = true;
  while (more) {
    uint8_t b = v & 0x7f;
    v >>= 7;
    more = !((v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40)));
    out.push_back(uint8_t(b | (more ? 0x80 : 0)));
  }
}
// A .debug_frame entry: the length (DWARF32 or DWARF64) before `body`.
void putEntry(std::vector<uint8_t>& out, const std::vector<uint8_t>& body, bool dwarf64) {
  if (dwarf64) {
    putFixed(out, 0xffffffff, 4);
    putFixed(out, body.size(), 8);
  } else {
    putFixed(out, body.size(), 4);
  }
  out.insert(out.end(), body.begin(), body.end());
}

// The CIE the target's compiler writes (DwarfTargetInfo): version 4, no initial instructions.
std::vector<uint8_t> defaultCie(const DwarfTargetInfo& d, unsigned address_size, bool dwarf64) {
  std::vector<uint8_t> b;
  putFixed(b, ~uint64_t(0), dwarf64 ? 8 : 4); // CIE id
  b.push_back(4);
  b.insert(b.end(), d.cie_augmentation.begin(), d.cie_augmentation.end());
  b.push_back(0);
  b.push_back(uint8_t(address_size));
  b.push_back(0);
  putUleb(b, d.code_alignment);
  putSleb(b, d.data_alignment);
  putUleb(b, d.return_address_column);
  std::vector<uint8_t> out;
  putEntry(out, b, dwarf64);
  return out;
}

std::string ruleText(const dwarf::CfiSection& s, const dwarf::RegisterRule& r,
                     const dwarf::ExprFormat& xf) {
  using K = dwarf::RegisterRuleKind;
  switch (r.kind) {
  case K::Undefined:
    return "undefined";
  case K::SameValue:
    return "same_value";
  case K::Offset:
    return "offset(" + std::to_string(r.offset) + ")";
  case K::ValOffset:
    return "val_offset(" + std::to_string(r.offset) + ")";
  case K::Register:
    return "register(" + std::to_string(r.reg) + ")";
  case K::Expression:
  case K::ValExpression: {
    std::string e;
    try {
      e = dwarf::toText(dwarf::decode(dwarf::expressionOf(s, r), xf));
    } catch (const Error& err) {
      e = err.message();
    }
    return std::string(r.kind == K::Expression ? "expression(" : "val_expression(") + e + ")";
  }
  }
  return "";
}

Output evaluate(const State& st) {
  Target t = st.target.resolve();
  dwarf::ExprFormat f = st.format.format(t);
  const bool dwarf64 = f.offset_size == 8;
  std::vector<uint8_t> section = st.cie.empty() ? defaultCie(t.dwarf, f.address_size, dwarf64)
                                                : parseHexArgs(std::vector<std::string>{st.cie});
  dwarf::CfiFormat cf;
  cf.address_size = f.address_size;
  cf.endian = f.endian;
  cf.encoding = f.encoding;
  {
    dwarf::CfiSection alone = dwarf::parseCfi(section, cf);
    if (alone.cies.size() != 1 || !alone.fdes.empty() || alone.entries.size() != 1)
      throw Error(ErrorKind::Input, "--cie: one whole CIE is expected");
  }
  std::vector<uint8_t> insns = parseHexArgs(st.words);
  // The FDE: the CIE at offset 0, a range covering every address, the instructions.
  unsigned asz = dwarf::parseCfi(section, cf).cies[0].address_size;
  std::vector<uint8_t> fde;
  putFixed(fde, 0, dwarf64 ? 8 : 4);
  putFixed(fde, 0, asz);
  putFixed(fde, asz == 4 ? 0xffffffffu : ~uint64_t(0), asz);
  fde.insert(fde.end(), insns.begin(), insns.end());
  putEntry(section, fde, dwarf64);
  dwarf::CfiSection s = dwarf::parseCfi(section, cf);
  const dwarf::CfiFde& fd = s.fdes.at(0);
  const dwarf::CfiCie& cie = s.cieOf(fd);
  dwarf::CfiTable table = dwarf::buildTable(s, fd, &t.dwarf);
  dwarf::CfiRow row = table.row(table.size() - 1);

  MachineFile m(st.machine, t, f);
  dwarf::Evaluator ev(t, m, &m);
  ev.options().format = dwarf::cfiExprFormat(s, cie, fd.dwarf64);
  m.configure(ev.options());
  ev.options().cfi = true;
  ev.options().frame_base.reset();
  ev.options().object_address.reset();
  ev.reset();

  DwarfCfiReport r;
  std::optional<dwarf::Expression> cfa = dwarf::cfaExpression(s, row, cie, fd.dwarf64);
  if (!cfa) throw Error(ErrorKind::Input, "the instructions leave the CFA unspecified");
  dwarf::Location cfa_loc = ev.evaluate(*cfa, dwarf::ResultKind::Location).location;
  r.cfa = ev.describe(cfa_loc);
  ev.options().cfa = *cfa;
  const dwarf::ExprFormat& xf = ev.options().format;
  for (const auto& [reg, rule] : row.rules) {
    DwarfCfiReport::Column c;
    c.reg = reg;
    c.rule = ruleText(s, rule, xf);
    const DwarfRegisterRange* range = t.dwarf.findRegister(reg);
    try {
      using K = dwarf::RegisterRuleKind;
      const dwarf::Location init[] = {cfa_loc};
      dwarf::Expression e;
      std::span<const dwarf::Location> stack;
      if (rule.kind == K::Undefined) {
        e = dwarf::assemble("DW_OP_LLVM_undefined", xf);
      } else if (rule.kind == K::SameValue || rule.kind == K::Register) {
        dwarf::Operation op;
        op.op = dwarf::Op::regx;
        op.u[0] = rule.kind == K::SameValue ? reg : rule.reg;
        e.ops = {op};
        e = dwarf::decode(dwarf::encode(e, xf), xf);
      } else if (rule.kind == K::Offset || rule.kind == K::ValOffset) {
        e = dwarf::assemble("DW_OP_consts " + std::to_string(rule.offset) + ", DW_OP_LLVM_offset" +
                                (rule.kind == K::ValOffset ? ", DW_OP_stack_value" : ""),
                            xf);
        stack = init;
      } else if (rule.kind == K::Expression || rule.kind == K::ValExpression) {
        e = dwarf::decode(dwarf::expressionOf(s, rule), xf);
        if (rule.kind == K::ValExpression) {
          dwarf::Operation op;
          op.op = dwarf::Op::stack_value;
          op.offset = op.size = 0;
          e.ops.push_back(op);
          e = dwarf::decode(dwarf::encode(e, xf), xf);
        }
        stack = init;
      }
      dwarf::EvalResult res = ev.evaluate(e, dwarf::ResultKind::Location, stack);
      c.location = ev.describe(res.location);
      try {
        if (!range) throw Error(ErrorKind::Input, "the register's size is not known");
        uint32_t bits = range->bits ? range->bits : m.registerBits(uint32_t(reg));
        if (!bits) throw Error(ErrorKind::Input, "the register's size is not known");
        ev.read(res.location, bits, c.value);
        c.has_value = true;
      } catch (const Error& err) {
        c.value_error = err.message();
      }
    } catch (const Error& err) {
      c.location_error = err.message();
    }
    r.columns.push_back(std::move(c));
  }
  return Output(st.json ? dwarfCfiJson(t.dwarf, r) : dwarfCfiText(t.dwarf, r));
}

Output cieFields(const State& st) {
  Target t = st.target.resolve();
  dwarf::ExprFormat f = st.format.format(t);
  dwarf::CfiFormat cf;
  cf.address_size = f.address_size;
  cf.endian = f.endian;
  cf.encoding = f.encoding;
  std::vector<uint8_t> bytes = parseHexArgs(std::vector<std::string>{st.cie});
  dwarf::CfiSection s = dwarf::parseCfi(bytes, cf);
  if (s.cies.size() != 1 || !s.fdes.empty())
    throw Error(ErrorKind::Input, "--cie: one whole CIE is expected");
  dwarf::DisplayOptions d = dwarf::displayOptionsFor(t, f.encoding);
  return Output(dwarf::displayCfi(s, d));
}

} // namespace

void addDwarfCfiCommand(CLI::App& app, Action& action) {
  static State st;
  st = {};
  auto* sub = app.add_subcommand("dwarf-cfi", "DWARF call frame information: the row that "
                                              "instructions make and where the caller's "
                                              "registers are");
  sub->require_subcommand(1);
  auto* eval = sub->add_subcommand(
      "eval", "Run a CIE's initial instructions then these, and locate each register");
  st.target.add(*eval);
  st.format.add(*eval);
  eval->add_option("--machine", st.machine, "The machine state (JSON: registers, memory)");
  eval->add_option("--cie", st.cie, "A whole CIE as hex (default: the target's CIE)");
  eval->add_flag("--json", st.json, "JSON output");
  eval->add_option("hex", st.words, "The call frame instructions as hex digits");
  eval->callback([&action] {
    action = [] {
      if (st.words.empty()) {
        if (st.cie.empty())
          throw Error(ErrorKind::Input, "dwarf-cfi eval: give instructions, or --cie alone");
        return cieFields(st);
      }
      if (st.machine.empty())
        throw Error(ErrorKind::Input, "dwarf-cfi eval: --machine is required with instructions");
      return evaluate(st);
    };
  });
}

} // namespace abikit::cli
