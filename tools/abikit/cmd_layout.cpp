// abikit layout: record layouts of a C header (text, JSON, or C static assertions).
#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "cli.h"

#include <utility>

namespace abikit::cli {

std::string assertsPrelude(const InputFlags& input, const std::string& text) {
  std::string p;
  ParseOptions po = input.parseOptions();
  for (const auto& [name, value] : po.defines)
    p += "#define " + name + " " + (value ? *value : std::string("1")) + "\n";
  for (const std::string& name : po.undefines) p += "#undef " + name + "\n";
  if (input.file == "-") return p + text;
  std::string quoted;
  for (char c : input.file) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return p + "#include \"" + quoted + "\"\n";
}

void addLayoutCommand(CLI::App& app, Action& action) {
  static TargetFlags flags;
  static InputFlags input;
  static std::vector<std::string> names;
  static bool json = false;
  static bool asserts = false;
  // A fresh state for each registration: run() may be called more than once (tests/fuzz).
  flags = {}, input = {}, names.clear(), json = asserts = false;
  auto* sub = app.add_subcommand(
      "layout", "Record layouts: offsets, sizes, bit-field positions, holes and tail padding");
  flags.add(*sub, kSourceTargetFlags);
  input.add(*sub);
  sub->add_option("--record", names,
                  "Only this record: S, struct S, union U or a typedef name (repeatable)");
  auto* j = sub->add_flag("--json", json, "JSON output");
  sub->add_flag("--emit-c-asserts", asserts,
                "Print a C file of static assertions that pins the layouts for the target")
      ->excludes(j);
  sub->callback([&action] {
    action = [] {
      // The front-end keeps about 6 bytes per byte of text (19 MB for the 3 MB header of
      // bench/bench_cparse.cpp); printing every record takes as much again (the JSON text is
      // 5 times the header, and its string grows by doubling).
      // With include directories the file usually pulls in other headers, whose size is not
      // known yet (the 485 Linux UAPI headers: 3.4 MB from a 13 KB file): the heap is set up
      // as for a 4 MB header (untouched memory costs address space only).
      size_t bytes = inputSize(input.file);
      if (!input.include_dirs.empty()) bytes = std::max<size_t>(bytes, size_t(4) << 20);
      reserveHeap(bytes * (names.empty() ? 24 : 8));
      static Session* kept = nullptr;
      delete std::exchange(kept, nullptr); // the previous run's (nothing in one CLI process)
      kept = new Session(flags.resolve(), input.languageMode());
      TypeContext& ctx = kept->ctx;
      const LayoutEngine& engine = kept->engine;
      // The front-end lexes the text where it was read, unless the assertions still need it
      // as a string.
      std::string text;
      TranslationUnit tu;
      if (asserts) {
        text = readSourceFile(input.file, input.max_input_bytes, kSourcePadding);
        tu = parseSource(ctx, engine, displayName(input.file), text, input.parseOptions());
      } else {
        PaddedInput in = readPaddedInput(input.file, kSourcePadding, input.max_input_bytes);
        tu = parsePaddedSource(ctx, engine, displayName(input.file), in.text(),
                               input.parseOptions());
      }
      std::vector<const RecordDecl*> records;
      if (names.empty()) {
        records = input.keepFrom(ctx, tu.records);
      } else {
        for (const std::string& name : names) {
          const RecordDecl* rd = tu.findRecord(name, ctx);
          if (!rd)
            throw Error(ErrorKind::Input,
                        "no record named '" + name + "' in " + displayName(input.file));
          records.push_back(rd);
        }
      }
      if (asserts) return Output{layoutCAsserts(engine, records, assertsPrelude(input, text))};
      return Output{json ? layoutJson(engine, records) : layoutText(engine, records)};
    };
  });
}

} // namespace abikit::cli
