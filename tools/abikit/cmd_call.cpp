// abikit call: where every argument and the return value of each function go.
#include "abikit/callconv.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "cli.h"

namespace abikit::cli {

void addCallCommand(CLI::App& app, Action& action) {
  static TargetFlags target;
  static InputFlags input;
  static std::vector<std::string> functions;
  static std::string variadic_args;
  static bool json = false;
  // A fresh state for each registration: run() may be called more than once (tests/fuzz).
  target = {}, input = {}, functions.clear(), variadic_args.clear(), json = false;
  auto* sub = app.add_subcommand(
      "call", "Where every argument and the return value of each function go (registers, "
              "stack offsets, PTX .params)");
  target.add(*sub, kSourceTargetFlags);
  input.add(*sub);
  sub->add_option("--function", functions, "Only these functions (repeatable)");
  sub->add_option("--variadic-args", variadic_args,
                  "Types of the extra arguments of one call of a variadic function, comma "
                  "separated (C default argument promotions apply)");
  sub->add_flag("--json", json, "JSON output");
  sub->callback([&action] {
    action = [] {
      Target t = target.resolve();
      TypeContext ctx(t, input.languageMode());
      LayoutEngine layout(ctx);
      ParseOptions options = input.parseOptions();
      if (!variadic_args.empty()) options.type_list = {variadic_args, "--variadic-args"};
      TranslationUnit tu = parseFile(ctx, layout, input.file, options);
      const std::vector<const Type*>& extra = tu.type_list;

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
      if (!extra.empty()) {
        bool any = false;
        for (const FunctionDecl* f : selected) any = any || f->type->variadic;
        if (!any)
          throw abikit::Error(
              abikit::ErrorKind::Input,
              "--variadic-args given but none of the selected functions is variadic");
      }
      Unanswered unanswered;
      std::vector<FunctionLowering> lowered = answerEach<FunctionLowering>(
          selected,
          [&](const FunctionDecl& f) {
            LowerOptions options;
            if (f.type->variadic) options.variadic_args = extra;
            return lowerFunction(ctx, layout, f, options);
          },
          unanswered);
      return unanswered.output(json ? callJson(t, ctx, lowered) : callText(t, ctx, lowered));
    };
  });
}

} // namespace abikit::cli
