// abikit compat: one header laid out on several targets; every difference, exit 1 when any.
#include "abikit/compat.h"
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "cli.h"

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

namespace abikit::cli {

namespace {

// One --target value: "TRIPLE [FLAGS]", flags spelled as on the command line.
Target resolveSpelled(const std::string& spelled) {
  std::istringstream in(spelled);
  std::vector<std::string> words;
  for (std::string w; in >> w;) {
    normaliseLongFlag(w);
    words.push_back(std::move(w));
  }
  if (words.empty() || words.front().starts_with("-"))
    throw Error(ErrorKind::Target, "--target '" + spelled + "': it must start with a triple");
  TargetFlags flags;
  CLI::App app;
  flags.add(app, kSourceTargetFlags);
  std::vector<std::string> args = {"--target", words.front()};
  args.insert(args.end(), words.begin() + 1, words.end());
  std::reverse(args.begin(), args.end()); // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    throw Error(ErrorKind::Target, "--target '" + spelled + "': " + e.what());
  }
  return flags.resolve();
}

std::string fileNameFor(const std::string& spelling) {
  std::string s;
  for (char c : spelling)
    s += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return s + ".c";
}

} // namespace

void addCompatCommand(CLI::App& app, Action& action) {
  static std::vector<std::string> targets;
  static InputFlags input;
  static std::vector<std::string> names;
  static bool json = false, asserts = false;
  static std::string output_dir;
  targets.clear(), input = {}, names.clear(), json = asserts = false, output_dir.clear();
  auto* sub = app.add_subcommand(
      "compat", "One header on several targets: every record's layout compared, each difference "
                "reported (exit 1 when any), with notes on what is unsafe to share");
  sub->add_option("--target", targets,
                  "A target with its flags in one string: 'x86_64-linux-gnu', "
                  "'dpu-upmem-dpurte -mcpu=v1B' (at least two)")
      ->required();
  input.add(*sub);
  sub->add_option("--record", names,
                  "Only this record: S, struct S, union U or a typedef name (repeatable)");
  auto* j = sub->add_flag("--json", json, "JSON output");
  auto* a = sub->add_flag("--emit-c-asserts", asserts,
                          "Print one C assertion file per target: the layout the other side "
                          "relies on, which that target's compiler must accept")
                ->excludes(j);
  sub->add_option("--output-dir", output_dir,
                  "With --emit-c-asserts: write the files there (TARGET.c) instead of stdout")
      ->needs(a);
  sub->callback([&action] {
    action = [] {
      if (targets.size() < 2)
        throw Error(ErrorKind::Target, "compat needs at least two --target values");
      const std::string text = readSourceFile(input.file, input.max_input_bytes, kSourcePadding);
      static std::vector<std::unique_ptr<Session>> kept;
      kept.clear();
      std::vector<CompatSide> sides;
      std::vector<std::string> spellings;
      for (const std::string& spelled : targets) {
        kept.push_back(std::make_unique<Session>(resolveSpelled(spelled), input.languageMode()));
        Session& s = *kept.back();
        s.tu = parseSource(s.ctx, s.engine, displayName(input.file), text, input.parseOptions());
        CompatSide side{&s.engine, {}};
        if (names.empty()) {
          side.records = input.keepFrom(s.ctx, s.tu.records);
        } else {
          for (const std::string& name : names)
            if (const RecordDecl* rd = s.tu.findRecord(name, s.ctx)) side.records.push_back(rd);
        }
        sides.push_back(std::move(side));
        spellings.push_back(s.target.spelling);
      }
      for (const std::string& name : names)
        if (std::none_of(kept.begin(), kept.end(), [&](const std::unique_ptr<Session>& s) {
              return s->tu.findRecord(name, s->ctx) != nullptr;
            }))
          throw Error(ErrorKind::Input, "no record named '" + name + "' in " +
                                            displayName(input.file) + " on any target");
      if (asserts) {
        std::string out;
        for (const CompatAssertFile& f : compatCAsserts(sides, assertsPrelude(input, text))) {
          const std::string head =
              "/* abikit compat: for " + f.target + ", the layout of " + f.reference + " */\n";
          if (output_dir.empty()) {
            out += "// ---- " + fileNameFor(f.target) + "\n" + head + f.text;
            continue;
          }
          std::ofstream file(output_dir + "/" + fileNameFor(f.target), std::ios::binary);
          file << head << f.text;
          if (!file)
            throw Error(ErrorKind::Input,
                        "cannot write " + output_dir + "/" + fileNameFor(f.target));
          out += output_dir + "/" + fileNameFor(f.target) + "\n";
        }
        return Output{out};
      }
      std::vector<CompatRecord> records = compareLayouts(sides);
      bool same = std::all_of(records.begin(), records.end(),
                              [](const CompatRecord& r) { return r.same(); });
      return Output{json ? compatJson(spellings, records) : compatText(spellings, records),
                    same ? 0 : 1};
    };
  });
}

} // namespace abikit::cli
