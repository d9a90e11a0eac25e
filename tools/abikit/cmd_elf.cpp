// abikit elf / abikit link-check
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "cli.h"

#include <cstdio>
#include <vector>

namespace abikit::cli {

void addElfCommand(CLI::App& app, Action& action) {
  static std::vector<std::string> files;
  static bool json = false;
  static ElfViewOptions view;
  // A fresh state for each registration: run() may be called more than once (tests/fuzz).
  files.clear(), json = false, view = {};
  auto* sub = app.add_subcommand(
      "elf", "Decode ELF objects: header with the target, processor, ABI version and flags; "
             "sections; optionally symbols, relocations and notes");
  sub->add_option("file", files, "ELF object files, or archives of them (.a: each member)")
      ->required();
  sub->add_flag("--json", json, "JSON output");
  sub->add_flag("--symbols", view.symbols, "Show the symbol tables");
  sub->add_flag("--relocs", view.relocs, "Show the relocations");
  sub->add_flag("--notes", view.notes, "Show the notes (AMDGPU code-object metadata, ...)");
  sub->callback([&action] {
    action = [] {
      // The document is streamed (an object's symbols and relocations may print gigabytes), so
      // each file is opened and checked (checkElfView: everything the writer reads) before any
      // of it is written. Text: a bad file gets its error on stderr and prints nothing, the
      // others print. JSON: every file is checked first, and any bad file means no document at
      // all (no partial JSON).
      Output out;
      out.stream = [](OutputSink& sink) {
        int status = 0;
        // A file, or every member of an archive (one bad member: the archive's error).
        auto openChecked = [&](const std::string& path) -> std::vector<ElfFile> {
          try {
            std::vector<ElfFile> all = ElfFile::openAll(path);
            for (const ElfFile& f : all) checkElfView(f, view);
            return all;
          } catch (const Error& e) {
            sink.flush(); // what came before the bad file first, in a terminal
            std::fprintf(stderr, "%s\n", e.format().c_str());
            status = 1;
            return {};
          }
        };
        if (!json) {
          bool first = true;
          for (const std::string& path : files) {
            for (const ElfFile& f : openChecked(path)) {
              if (!first) sink.buffer() += '\n';
              writeElfText(f, view, sink);
              first = false;
            }
          }
          return status;
        }
        std::vector<ElfFile> opened;
        opened.reserve(files.size());
        for (const std::string& path : files)
          for (ElfFile& f : openChecked(path)) opened.push_back(std::move(f));
        if (status != 0) return status;
        std::vector<const ElfFile*> list;
        for (const ElfFile& f : opened) list.push_back(&f);
        writeElfJson(list, view, sink);
        return status;
      };
      return out;
    };
  });
}

void addLinkCheckCommand(CLI::App& app, Action& action) {
  static std::vector<std::string> files;
  static bool json = false;
  files.clear(), json = false; // fresh for each registration, as above
  auto* sub = app.add_subcommand(
      "link-check", "Can these objects be linked together? Exit 0 'compatible', or 1 with one "
                    "line per conflict");
  sub->add_option("file", files, "ELF object files, or archives of them (.a: each member)")
      ->required();
  sub->add_flag("--json", json, "JSON output");
  sub->callback([&action] {
    action = [] {
      std::vector<ElfFile> opened;
      opened.reserve(files.size());
      for (const std::string& path : files)
        for (ElfFile& f : ElfFile::openAll(path)) opened.push_back(std::move(f));
      std::vector<const ElfFile*> ptrs;
      for (const ElfFile& f : opened) ptrs.push_back(&f);
      std::vector<LinkConflict> conflicts = linkConflicts(ptrs);
      return Output{json ? linkCheckJson(ptrs, conflicts) : linkCheckText(conflicts),
                    conflicts.empty() ? 0 : 1};
    };
  });
}

} // namespace abikit::cli
