// abikit dwarf-expr decode|encode: DWARF expressions between bytes and text (reference
// dwarf.md §1; cli-contract.md "DWARF"). The verb `eval` of the contract is not implemented yet
// and says so.
#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/emit.h"
#include "cli.h"

namespace abikit::cli {

namespace {

// HEX arguments: hex digits, blanks anywhere between bytes; the arguments are concatenated.
std::vector<uint8_t> parseHexArgs(const std::vector<std::string>& args) {
  std::vector<uint8_t> out;
  int pending = -1;
  for (size_t a = 0; a < args.size(); ++a) {
    const std::string& s = args[a];
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == ' ' || c == '\t' || c == '\n') {
        if (pending >= 0)
          throw Error(ErrorKind::Input, "HEX argument " + std::to_string(a + 1) +
                                            ": a lone hex digit before character " +
                                            std::to_string(i + 1));
        continue;
      }
      int v = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (v < 0)
        throw Error(ErrorKind::Input, "HEX argument " + std::to_string(a + 1) + ": character " +
                                          std::to_string(i + 1) + " is not a hex digit");
      if (pending < 0) {
        pending = v;
      } else {
        out.push_back(uint8_t(pending * 16 + v));
        pending = -1;
      }
    }
    if (pending >= 0)
      throw Error(ErrorKind::Input,
                  "HEX argument " + std::to_string(a + 1) + ": an odd number of hex digits");
  }
  return out;
}

struct State {
  TargetFlags target;
  DwarfFormatFlags format;
  bool display = false, json = false;
  std::vector<std::string> words;
};

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
      std::vector<uint8_t> bytes = dwarf::encode(dwarf::parseText(text), f);
      static const char kHex[] = "0123456789abcdef";
      std::string out;
      for (size_t i = 0; i < bytes.size(); ++i) {
        if (i) out += ' ';
        out += kHex[bytes[i] >> 4];
        out += kHex[bytes[i] & 15];
      }
      return Output{out + "\n"};
    };
  });

  auto* eval = sub->add_subcommand("eval", "Evaluate an expression (not implemented yet)");
  eval->allow_extras();
  eval->callback([&action] {
    action = []() -> Output {
      throw Error(ErrorKind::Unsupported,
                  "'dwarf-expr eval' is not implemented yet: the evaluator (reference dwarf.md "
                  "§2) is a later part of the DWARF work; decode and encode are available");
    };
  });
}

} // namespace abikit::cli
