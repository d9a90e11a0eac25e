// abikit elf / abikit link-check
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "cli.h"

#include <cstdio>

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
  sub->add_option("file", files, "ELF object files")->required();
  sub->add_flag("--json", json, "JSON output");
  sub->add_flag("--symbols", view.symbols, "Show the symbol tables");
  sub->add_flag("--relocs", view.relocs, "Show the relocations");
  sub->add_flag("--notes", view.notes, "Show the notes (AMDGPU code-object metadata, ...)");
  sub->callback([&action] {
    action = [] {
      // Each file is read and printed on its own: a bad file gets an error on stderr and no
      // output; in JSON mode any bad file means no document at all (no partial JSON).
      Output out;
      std::string doc = json ? "{\"schema\":\"abikit/1\",\"files\":[" : "";
      bool first = true;
      for (const std::string& path : files) {
        size_t mark = doc.size();
        try {
          ElfFile f = ElfFile::open(path);
          if (json) {
            if (!first) doc += ',';
            appendElfJson(f, view, doc);
          } else {
            if (!first) doc += '\n';
            appendElfText(f, view, doc);
          }
          first = false;
        } catch (const Error& e) {
          doc.resize(mark);
          std::fprintf(stderr, "%s\n", e.format().c_str());
          out.exit_code = 1;
        }
      }
      if (json) {
        if (out.exit_code != 0) return out;
        doc += "]}\n";
      }
      out.text = std::move(doc);
      return out;
    };
  });
}

void addLinkCheckCommand(CLI::App& app, Action& action) {
  static std::vector<std::string> files;
  files.clear(); // fresh for each registration, as above
  auto* sub = app.add_subcommand(
      "link-check", "Can these objects be linked together? Exit 0 'compatible', or 1 with one "
                    "line per conflict");
  sub->add_option("file", files, "ELF object files")->required();
  sub->callback([&action] {
    action = [] {
      std::vector<ElfFile> opened;
      opened.reserve(files.size());
      for (const std::string& path : files) opened.push_back(ElfFile::open(path));
      std::vector<const ElfFile*> ptrs;
      for (const ElfFile& f : opened) ptrs.push_back(&f);
      std::vector<std::string> conflicts = linkConflicts(ptrs);
      return Output{linkCheckText(conflicts), conflicts.empty() ? 0 : 1};
    };
  });
}

} // namespace abikit::cli
