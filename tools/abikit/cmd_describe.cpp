// abikit targets / abikit describe
#include "abikit/emit.h"
#include "cli.h"

namespace abikit::cli {

void addTargetsCommand(CLI::App& app, Action& action) {
  static bool json = false;
  json = false; // fresh for each registration: run() may be called more than once (tests/fuzz)
  auto* sub = app.add_subcommand("targets", "List the known targets, CPUs and ABIs");
  sub->add_flag("--json", json, "JSON output");
  sub->callback([&action] {
    action = [] {
      auto all = knownTargets();
      return Output{json ? targetsJson(all) : targetsText(all)};
    };
  });
}

void addDescribeCommand(CLI::App& app, Action& action) {
  static TargetFlags flags;
  static bool json = false;
  flags = {}, json = false; // fresh for each registration, as above
  auto* sub =
      app.add_subcommand("describe", "Data model, registers and roles, stack rules, address spaces "
                                     "and ELF identity of a target");
  flags.add(*sub);
  sub->add_flag("--json", json, "JSON output");
  sub->callback([&action] {
    action = [] {
      Target t = flags.resolve();
      return Output{json ? describeJson(t) : describeText(t)};
    };
  });
}

} // namespace abikit::cli
