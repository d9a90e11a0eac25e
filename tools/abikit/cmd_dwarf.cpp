// abikit dwarf-expr decode|encode|eval: DWARF expressions between bytes and text, and their
// evaluation in a machine state (reference dwarf.md §1, §2; cli-contract.md "DWARF").
#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_eval.h"
#include "abikit/emit.h"
#include "cli.h"
#include "dwarf_machine.h"

namespace abikit::cli {

namespace {

struct State {
  TargetFlags target;
  DwarfFormatFlags format;
  bool display = false, json = false;
  std::vector<std::string> words;
  // eval
  std::string machine, profile = "seed", as = "location";
  std::vector<std::string> hex;
  uint64_t read = 0;
  std::string write;
  uint64_t at = 0;
  CLI::Option *read_opt = nullptr, *write_opt = nullptr, *at_opt = nullptr;
};

Output evaluate(const State& st) {
  Target t = st.target.resolve();
  dwarf::ExprFormat f = st.format.format(t);
  if (st.words.empty() == st.hex.empty())
    throw Error(ErrorKind::Input, "dwarf-expr eval: give the expression as TEXT or as --hex "
                                  "bytes (one of the two)");
  const bool has_read = st.read_opt->count() > 0, has_write = st.write_opt->count() > 0;
  if (has_write != (st.at_opt->count() > 0))
    throw Error(ErrorKind::Input, "dwarf-expr eval: --write and --at go together");
  MachineFile m(st.machine, t, f);
  dwarf::Expression e;
  if (!st.hex.empty()) {
    e = dwarf::decode(parseHexArgs(st.hex), f);
  } else {
    std::string text;
    for (const std::string& w : st.words) text += (text.empty() ? "" : " ") + w;
    e = dwarf::assemble(text, f);
  }
  dwarf::Evaluator ev(t, m, &m);
  ev.options().format = f;
  ev.options().profile = st.profile == "newest" ? dwarf::Profile::Newest : dwarf::Profile::Seed;
  m.configure(ev.options());
  ev.reset();
  DwarfEvalReport r;
  r.result =
      ev.evaluate(e, st.as == "value" ? dwarf::ResultKind::Value : dwarf::ResultKind::Location);
  const bool is_value = r.result.kind == dwarf::ResultKind::Value;
  if (is_value)
    r.value = ev.valueInfo(r.result);
  else
    r.location = ev.describe(r.result.location);
  if ((has_read || has_write) && is_value)
    throw Error(ErrorKind::Input, "dwarf-expr eval: --read and --write need a location "
                                  "(--as location)");
  int status = 0;
  if (has_read) {
    r.has_read = true;
    try {
      if (st.read > (uint64_t(1) << 20)) throw Error(ErrorKind::Input, "--read: at most 1 MiB");
      ev.read(r.result.location, st.read * 8, r.read);
    } catch (const Error& err) {
      r.read_error = err.message();
      status = 1;
    }
  }
  if (has_write) {
    r.has_write = true;
    std::vector<uint8_t> bytes = parseHexArgs(std::vector<std::string>{st.write});
    dwarf::Location at = r.result.location;
    at.offset += st.at;
    try {
      ev.write(at, uint64_t(bytes.size()) * 8, bytes);
      r.written = m.written();
    } catch (const Error& err) {
      r.write_error = err.message();
      status = 1;
    }
  }
  return Output(st.json ? dwarfEvalJson(t.dwarf, r) : dwarfEvalText(t.dwarf, r), status);
}

} // namespace

void addDwarfExprCommand(CLI::App& app, Action& action) {
  static State st;
  st = {}; // fresh for each registration: run() may be called more than once (tests/fuzz)
  auto* sub = app.add_subcommand(
      "dwarf-expr", "DWARF expressions with the LLVM/AMDGPU extensions: decode bytes to text, "
                    "encode text to bytes");
  sub->require_subcommand(1);

  auto* decode = sub->add_subcommand("decode", "Bytes to the canonical text (or --display: the "
                                               "form llvm-dwarfdump-22 prints)");
  st.target.add(*decode);
  st.format.add(*decode);
  decode->add_flag("--display", st.display,
                   "Print as llvm-dwarfdump-22 does (register names, DW_OP_LLVM_user prefix)");
  decode->add_flag("--json", st.json, "JSON output");
  decode->add_option("hex", st.words, "The expression's bytes as hex digits (e9 02 or e902)")
      ->required();
  decode->callback([&action] {
    action = [] {
      Target t = st.target.resolve();
      dwarf::ExprFormat f = st.format.format(t);
      std::vector<uint8_t> bytes = parseHexArgs(st.words);
      dwarf::Expression e = dwarf::decode(bytes, f);
      dwarf::DisplayOptions d = dwarf::displayOptionsFor(t, f.encoding);
      if (!st.json) return Output{(st.display ? dwarf::toDisplay(e, d) : dwarf::toText(e)) + "\n"};
      return Output{dwarfExprJson(e, st.display ? &d : nullptr)};
    };
  });

  auto* encode = sub->add_subcommand("encode", "The canonical text to bytes");
  st.target.add(*encode);
  st.format.add(*encode);
  encode
      ->add_option("text", st.words,
                   "The expression in the canonical text form (one argument, quoted)")
      ->required();
  encode->callback([&action] {
    action = [] {
      Target t = st.target.resolve();
      dwarf::ExprFormat f = st.format.format(t);
      std::string text;
      for (const std::string& w : st.words) text += (text.empty() ? "" : " ") + w;
      return Output{hexBytes(dwarf::encode(dwarf::parseText(text), f)) + "\n"};
    };
  });

  auto* eval = sub->add_subcommand(
      "eval", "Evaluate an expression in a machine state: a location or a value (reference "
              "dwarf.md §2)");
  st.target.add(*eval);
  st.format.add(*eval);
  eval->add_option("--machine", st.machine, "The machine state (JSON: registers, memory, DIEs)")
      ->required();
  eval->add_option("--profile", st.profile, "seed (default) or newest")
      ->check(CLI::IsMember({"seed", "newest"}));
  eval->add_option("--as", st.as, "What the result must be: location (default) or value")
      ->check(CLI::IsMember({"location", "value"}));
  st.read_opt =
      eval->add_option("--read", st.read, "Read this many bytes from the resulting location");
  st.write_opt =
      eval->add_option("--write", st.write, "Write these bytes (hex, first byte lowest) at --at");
  st.at_opt = eval->add_option("--at", st.at,
                               "The bit offset in the location where --write "
                               "writes");
  eval->add_flag("--json", st.json, "JSON output");
  eval->add_option("--hex", st.hex, "The expression as bytes (hex) instead of TEXT");
  eval->add_option("text", st.words, "The expression in the canonical text form");
  eval->callback([&action] { action = [] { return evaluate(st); }; });
}

} // namespace abikit::cli
