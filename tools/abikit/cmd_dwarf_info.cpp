// abikit dwarf: the debugging information of objects (cli-contract.md "DWARF"): the sections
// laid out as llvm-dwarfdump-22 prints them (--debug-info, --debug-frame, --eh-frame), and the
// --variables-at question: every variable and parameter in scope at a code address and where it
// lives there.
#include "abikit/diag.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_cfi.h"
#include "abikit/dwarf_info.h"
#include "abikit/dwarf_line.h"
#include "abikit/dwarf_names.h"
#include "abikit/elf.h"
#include "abikit/emit.h"
#include "cli.h"

#include <charconv>
#include <memory>

namespace abikit::cli {

namespace {

struct State {
  std::vector<std::string> files;
  std::string variables_at;
  bool json = false, debug_info = false, debug_frame = false, eh_frame = false, debug_line = false,
       debug_names = false;
  std::string attribute_codes = "llvm";
};

dwarf::HeteroAttrPreset presetOf(const std::string& s) {
  if (s == "llvm") return dwarf::HeteroAttrPreset::Llvm;
  if (s == "rocm-legacy") return dwarf::HeteroAttrPreset::RocmLegacy;
  if (s == "none") return dwarf::HeteroAttrPreset::None;
  throw Error::atOption("unknown attribute-code table (llvm, rocm-legacy or none)",
                        "--attribute-codes", s, 0);
}

// .debug_frame or .eh_frame as llvm-dwarfdump-22 prints it after "contents:", or as JSON.
std::string framesText(const ElfFile& file, const Target& target, const dwarf::DebugSections& s,
                       dwarf::CfiSectionKind kind, bool json = false) {
  const dwarf::SectionBytes& b = kind == dwarf::CfiSectionKind::EhFrame ? s.eh_frame : s.frame;
  dwarf::CfiFormat f;
  f.section = kind;
  f.section_address = b.address;
  f.address_size = file.header().is64() ? 8 : 4;
  f.endian = s.endian;
  try {
    dwarf::CfiSection cfi = dwarf::parseCfi(b.bytes, f);
    if (json) return dwarfFramesJson(target, cfi);
    return dwarf::displayCfi(cfi, dwarf::displayOptionsFor(target, dwarf::ExtEncoding::User));
  } catch (const Error& e) {
    if (!e.hasOffset()) throw;
    throw Error::atOffset(std::string(dwarf::cfiSectionName(kind)) + ": " + e.message(),
                          file.name(), b.file_offset + e.offset());
  }
}

Output dump(const State& st) {
  const bool all =
      !st.debug_info && !st.debug_frame && !st.eh_frame && !st.debug_line && !st.debug_names;
  DwarfDumpOptions options;
  options.attribute_codes = presetOf(st.attribute_codes);
  // Every file is read and checked (everything the dumps read) before anything is written: a
  // malformed file prints nothing. Then .debug_info streams, a chunk at a time.
  struct File {
    std::string name;
    ElfFile elf;
    Target target;
    dwarf::DebugInfo info;
    std::string frames;                   // the frame sections' text, made while checking
    std::vector<std::string> frames_json; // or their JSON
    std::string lines;                    // .debug_line's text or JSON array
    std::string names;                    // .debug_names's
  };
  auto files = std::make_shared<std::vector<File>>();
  files->reserve(st.files.size());
  for (const std::string& name : st.files) {
    ElfFile elf = ElfFile::open(name);
    Target target = elfTarget(elf);
    dwarf::DebugInfo info(debugSections(elf));
    if (all || st.debug_info) checkDwarfInfoDump(info);
    std::string frames;
    std::vector<std::string> frames_json;
    if (st.json) {
      if (all || st.debug_frame)
        frames_json.push_back(
            framesText(elf, target, info.sections(), dwarf::CfiSectionKind::DebugFrame, true));
      if (all || st.eh_frame)
        frames_json.push_back(
            framesText(elf, target, info.sections(), dwarf::CfiSectionKind::EhFrame, true));
    }
    if (!st.json && (all || st.debug_frame))
      frames += "\n.debug_frame contents:\n" +
                framesText(elf, target, info.sections(), dwarf::CfiSectionKind::DebugFrame);
    if (!st.json && (all || st.eh_frame))
      frames += "\n.eh_frame contents:\n" +
                framesText(elf, target, info.sections(), dwarf::CfiSectionKind::EhFrame);
    std::string lines;
    if (all || st.debug_line) {
      const std::vector<dwarf::LineTable> tables = dwarf::readLineTables(info);
      lines = st.json ? dwarfLineJson(tables) : "\n.debug_line contents:\n" + dwarfLineText(tables);
    }
    std::string names;
    if ((all && !info.sections().names.bytes.empty()) || st.debug_names) {
      const std::vector<dwarf::NameIndex> indexes = dwarf::readNameIndexes(info);
      names = st.json ? dwarfNamesJson(indexes)
                      : "\n.debug_names contents:\n" + dwarfNamesText(indexes);
    }
    files->push_back({name, std::move(elf), std::move(target), std::move(info), std::move(frames),
                      std::move(frames_json), std::move(lines), std::move(names)});
  }
  Output out;
  out.stream = [files, options, all, st](OutputSink& sink) {
    for (const File& f : *files) {
      if (st.json) {
        sink.buffer() += dwarfInfoJson(f.target, f.info, options, all || st.debug_info,
                                       f.frames_json, f.lines, f.names);
        sink.drain();
        continue;
      }
      sink.buffer() += f.name + ":\tfile format " + llvmFileFormat(f.elf) + "\n";
      if (all || st.debug_info) {
        sink.buffer() += '\n';
        dwarfInfoText(f.target, f.info, options, sink);
      }
      sink.buffer() += f.frames;
      sink.buffer() += f.lines;
      sink.buffer() += f.names;
      sink.drain();
    }
    return 0;
  };
  return out;
}

uint64_t parseAddress(const std::string& text) {
  std::string_view s = text;
  int base = 10;
  if (s.starts_with("0x") || s.starts_with("0X")) {
    s.remove_prefix(2);
    base = 16;
  }
  uint64_t v = 0;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
    throw Error::atOption(
        "not an address (a decimal or 0x-prefixed hex number below 2^64)", "--variables-at", text,
        size_t(r.ptr - text.data()) < text.size() ? size_t(r.ptr - text.data()) : 0);
  return v;
}

Output variablesAt(const State& st) {
  if (st.files.size() != 1)
    throw Error(ErrorKind::Input, "abikit dwarf: --variables-at reads one file (" +
                                      std::to_string(st.files.size()) + " given)");
  const uint64_t address = parseAddress(st.variables_at);
  ElfFile file = ElfFile::open(st.files[0]);
  Target target = elfTarget(file);
  dwarf::DebugInfo info(debugSections(file));
  dwarf::VariablesAt at = dwarf::variablesAt(info, address);
  if (!at.found)
    throw Error(ErrorKind::Input,
                st.files[0] + ": no function's code covers address " + st.variables_at);
  const Endian endian = info.sections().endian;
  const dwarf::ExprFormat format = dwarf::exprFormat(*at.unit, endian);
  const dwarf::DisplayOptions display = dwarf::displayOptionsFor(target, format.encoding);
  DwarfVariablesReport r;
  r.address = address;
  r.function = at.function;
  dwarf::Expression e;
  for (dwarf::VariableAt& v : at.variables) {
    DwarfVariablesReport::Variable out;
    out.name = v.name;
    out.type = v.type;
    out.parameter = v.parameter;
    out.die = v.die;
    out.kind = v.kind;
    out.constant = std::move(v.constant);
    if (v.kind == dwarf::VariableAt::Kind::Expression) {
      try {
        dwarf::decode(v.expression, format, e);
      } catch (const Error& err) {
        throw Error(
            ErrorKind::Elf, st.files[0] + ": the location of " + v.name + " (DIE 0x" + [&] {
              char b[17];
              auto q = std::to_chars(b, b + 17, v.die, 16);
              return std::string(b, q.ptr);
            }() + "): " + err.message());
      }
      out.expression = dwarf::toDisplay(e, display);
      out.places = dwarf::places(e, &target.dwarf);
      for (const dwarf::Place& p : out.places) {
        std::string text;
        if (p.kind == dwarf::Place::Kind::Expression)
          for (size_t i = p.first; i < p.end; i = e.endOf(i))
            text += (text.empty() ? "" : ", ") + dwarf::opDisplay(e, i, display);
        out.place_text.push_back(std::move(text));
      }
    }
    r.variables.push_back(std::move(out));
  }
  return Output(st.json ? dwarfVariablesJson(target, r) : dwarfVariablesText(target, r));
}

} // namespace

void addDwarfCommand(CLI::App& app, Action& action) {
  static State st;
  st = {};
  auto* sub = app.add_subcommand(
      "dwarf", "Debugging information of objects: where each variable lives at a code address "
               "(--variables-at)");
  sub->add_option("file", st.files, "ELF objects or executables")->required();
  sub->add_option("--variables-at", st.variables_at,
                  "Every variable and parameter in scope at this code address, and where it "
                  "lives there");
  sub->add_flag("--debug-info", st.debug_info, "Dump .debug_info as llvm-dwarfdump-22 does");
  sub->add_flag("--debug-frame", st.debug_frame, "Dump .debug_frame as llvm-dwarfdump-22 does");
  sub->add_flag("--eh-frame", st.eh_frame, "Dump .eh_frame as llvm-dwarfdump-22 does");
  sub->add_flag("--debug-line", st.debug_line, "Dump .debug_line as llvm-dwarfdump-22 does");
  sub->add_flag("--debug-names", st.debug_names, "Dump .debug_names as llvm-dwarfdump-22 does");
  sub->add_option("--attribute-codes", st.attribute_codes,
                  "Codes of the DW_AT_LLVM_* heterogeneous attributes: llvm (default, as "
                  "llvm-dwarfdump-22), rocm-legacy (0x3e08-0x3e0c) or none");
  sub->add_flag("--json", st.json, "JSON output");
  sub->callback([&action] {
    action = [] {
      if (st.variables_at.empty()) return dump(st);
      if (st.debug_info || st.debug_frame || st.eh_frame || st.debug_line || st.debug_names)
        throw Error(ErrorKind::Input, "abikit dwarf: --variables-at answers one question; it "
                                      "takes no section to dump");
      return variablesAt(st);
    };
  });
}

} // namespace abikit::cli
