// abikit ptx: the PTX prototypes (.func/.entry) of a header's functions, as llc-14 or nvcc 13
// prints them, or a complete module of them that ptxas accepts.
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "cli.h"

#include <unordered_set>

namespace abikit::cli {

void addPtxCommand(CLI::App& app, Action& action) {
  static TargetFlags target;
  static InputFlags input;
  static std::vector<std::string> functions;
  static bool module = false;
  static std::string style = "llvm";
  // A fresh state for each registration: run() may be called more than once (tests/fuzz).
  target = {}, input = {}, functions.clear(), module = false, style = "llvm";
  auto* sub = app.add_subcommand(
      "ptx", "PTX prototypes (.func/.entry with their .params) of each function, as llc-14 "
             "prints them; with --module, a PTX module ptxas accepts");
  target.add(*sub, kCpuFlag | kHostTargetFlag);
  input.add(*sub);
  sub->add_option("--function", functions, "Only these functions (repeatable)");
  sub->add_flag("--module", module,
                "A complete PTX module (.version, .target, .address_size; declarations as "
                ".extern .func, kernels and definitions with an empty body)");
  sub->add_option("--ptx-style", style,
                  "Whose output to reproduce: llvm (clang-14/llc-14, default) or nvcc (nvcc 13)")
      ->check(CLI::IsMember({"llvm", "nvcc"}));
  sub->callback([&action] {
    action = [] {
      Target t = target.resolve();
      TypeContext ctx(t, input.languageMode());
      LayoutEngine layout(ctx);
      TranslationUnit tu = parseFile(ctx, layout, input.file, input.parseOptions());
      std::vector<const FunctionDecl*> selected;
      if (functions.empty()) {
        selected = input.keepFrom(ctx, tu.functions);
      } else {
        for (const std::string& name : functions) {
          const FunctionDecl* f = tu.findFunction(name);
          if (!f)
            throw abikit::Error(abikit::ErrorKind::Input, "no function '" + name +
                                                              "' is declared in " +
                                                              displayName(input.file));
          selected.push_back(f);
        }
      }
      PtxOptions options;
      options.module = module;
      options.style = style == "nvcc" ? PtxStyle::Nvcc : PtxStyle::Llvm;
      // A function that PTX cannot express is reported and left out.
      Unanswered unanswered;
      options.on_unanswered = [&](const Error& e) { unanswered.add(e); };
      std::string text = ptxPrototypes(ctx, layout, selected, options);
      std::unordered_set<const FunctionDecl*> distinct(selected.begin(), selected.end());
      unanswered.throwIfNone(distinct.size() - unanswered.count());
      return unanswered.output(std::move(text));
    };
  });
}

} // namespace abikit::cli
