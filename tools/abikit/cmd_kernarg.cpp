// abikit kernarg: the kernarg segment of each AMDGPU kernel (explicit and hidden arguments).
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/kernarg.h"
#include "cli.h"

namespace abikit::cli {

void addKernargCommand(CLI::App& app, Action& action) {
  static TargetFlags target;
  static InputFlags input;
  static std::vector<std::string> kernels;
  static std::string hidden = "auto";
  static bool json = false;
  static bool yaml = false;
  static bool no_names = false;
  // A fresh state for each registration: run() may be called more than once (tests/fuzz).
  target = {}, input = {}, kernels.clear(), hidden = "auto";
  json = yaml = no_names = false;
  auto* sub = app.add_subcommand(
      "kernarg", "AMDGPU kernel arguments: the kernarg segment of each kernel (offsets, sizes, "
                 "value kinds, hidden arguments) as LLVM writes it into the code-object metadata");
  target.add(*sub, kCpuFlag | kAmdgpuFlags | kHostTargetFlag);
  input.add(*sub);
  sub->add_option("--kernel", kernels, "Only this kernel (repeatable)");
  sub->add_option("--mhidden-args", hidden,
                  "Hidden arguments: auto (llc-14 at -O1 for a kernel that does not use them), "
                  "all (llc-14 at -O0: always), none")
      ->check(CLI::IsMember({"auto", "all", "none"}));
  sub->add_flag("--no-arg-names", no_names,
                "Leave out .name, as clang-14 does without -cl-kernel-arg-info");
  auto* j = sub->add_flag("--json", json, "JSON output");
  sub->add_flag("--yaml", yaml, "The amdhsa.kernels entries in LLVM's .amdgpu_metadata YAML form")
      ->excludes(j);
  sub->callback([&action] {
    action = [] {
      Target t = target.resolve();
      if (t.family != Family::AMDGPU)
        throw Error(ErrorKind::Target,
                    "abikit kernarg describes AMDGPU kernels; the target is " + t.spelling);
      TypeContext ctx(t, input.languageMode());
      LayoutEngine layout(ctx);
      TranslationUnit tu = parseFile(ctx, layout, input.file, input.parseOptions());
      std::vector<const FunctionDecl*> selected;
      if (kernels.empty()) {
        for (const FunctionDecl* f : input.keepFrom(ctx, tu.functions))
          if (f->type->fkind == FunctionKind::Kernel) selected.push_back(f);
      } else {
        for (const std::string& name : kernels) {
          const FunctionDecl* f = tu.findFunction(name);
          if (!f)
            throw Error(ErrorKind::Input,
                        "no kernel '" + name + "' is declared in " + displayName(input.file));
          selected.push_back(f);
        }
      }
      KernargOptions options;
      options.hidden = hidden == "all"    ? HiddenArgs::All
                       : hidden == "none" ? HiddenArgs::None
                                          : HiddenArgs::Auto;
      options.arg_names = !no_names;
      Unanswered unanswered;
      std::vector<KernelArguments> result = answerEach<KernelArguments>(
          selected,
          [&](const FunctionDecl& f) { return computeKernelArguments(layout, f, options); },
          unanswered);
      if (yaml) return unanswered.output(kernargYaml(t, result));
      return unanswered.output(json ? kernargJson(t, result) : kernargText(t, ctx, result));
    };
  });
}

} // namespace abikit::cli
