// abikit — writers: the text (for people) and JSON (schema "abikit/1", see cli-contract.md)
// views of every result. Each returns the complete document; nothing is printed on failure.
#pragma once

#include "abikit/callconv.h"
#include "abikit/compat.h"
#include "abikit/dwarf.h"
#include "abikit/dwarf_cfi.h"
#include "abikit/dwarf_eval.h"
#include "abikit/dwarf_info.h"
#include "abikit/dwarf_line.h"
#include "abikit/dwarf_names.h"
#include "abikit/kernarg.h"
#include "abikit/layout.h"
#include "abikit/target.h"

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit {

/// `abikit targets`
std::string targetsText(const std::vector<TargetSummary>& targets);
std::string targetsJson(const std::vector<TargetSummary>& targets);

/// `abikit describe`
std::string describeText(const Target& target);
std::string describeJson(const Target& target);

/// `abikit dwarf-expr decode --json`: each operation's byte offset, size and text (the canonical
/// form, or with `display` the form llvm-dwarfdump-22 prints).
std::string dwarfExprJson(const dwarf::Expression& expr, const dwarf::DisplayOptions* display);

/// `abikit dwarf-expr eval`: the result of an evaluation, what --read read and what --write
/// changed (or why they failed). Locations as cli-contract.md "LD"; numbers as "0x..." (most
/// significant digit first).
struct DwarfEvalReport {
  dwarf::EvalResult result;
  dwarf::ValueInfo value;       // result.kind == Value
  dwarf::LocationInfo location; // result.kind == Location
  bool has_read = false;
  std::vector<uint8_t> read; // least significant byte first
  std::string read_error;
  bool has_write = false;
  dwarf::MachineWrites written;
  std::string write_error;
};
std::string dwarfEvalJson(const DwarfTargetInfo& target, const DwarfEvalReport& report);
std::string dwarfEvalText(const DwarfTargetInfo& target, const DwarfEvalReport& report);
/// `abikit dwarf-cfi eval`: the CFA and, for each column the instructions named, its rule, where
/// the caller's value is and the value (or why not).
struct DwarfCfiReport {
  dwarf::LocationInfo cfa;
  struct Column {
    uint64_t reg = 0;
    std::string rule; // "offset(8)", "same_value", "expression(DW_OP_...)"
    dwarf::LocationInfo location;
    std::string location_error;
    bool has_value = false;
    std::vector<uint8_t> value;
    std::string value_error;
  };
  std::vector<Column> columns;
};
std::string dwarfCfiJson(const DwarfTargetInfo& target, const DwarfCfiReport& report);
std::string dwarfCfiText(const DwarfTargetInfo& target, const DwarfCfiReport& report);

/// `abikit dwarf FILE --variables-at ADDRESS`: each variable and parameter in scope and where it
/// lives there.
struct DwarfVariablesReport {
  uint64_t address = 0;
  std::string function;
  struct Variable {
    std::string name, type;
    bool parameter = false;
    uint64_t die = 0;
    dwarf::VariableAt::Kind kind = dwarf::VariableAt::Kind::OptimizedOut;
    std::string expression; // the location there, as llvm-dwarfdump-22 prints it
    std::vector<dwarf::Place> places;
    std::vector<std::string> place_text; // Place::Kind::Expression: its operations
    std::vector<uint8_t> constant;       // DW_AT_const_value
  };
  std::vector<Variable> variables;
};
/// Registers by their assembler names where the target has one ("a0", "s33"), else by DWARF
/// name.
std::string dwarfVariablesJson(const Target& target, const DwarfVariablesReport& report);
/// `abikit dwarf --debug-info`: what llvm-dwarfdump-22 --debug-info prints from ".debug_info
/// contents:" on (text), or the JSON document {"schema","file","units"} (cli-contract.md "dwarf").
struct DwarfDumpOptions {
  dwarf::HeteroAttrPreset attribute_codes = dwarf::HeteroAttrPreset::Llvm;
};
std::string dwarfInfoText(const Target& target, const dwarf::DebugInfo& info,
                          const DwarfDumpOptions& options);
class OutputSink;
/// The same, streamed through `sink` (memory bounded by its chunk): call checkDwarfInfoDump
/// first, which reads everything the dump reads and throws what it would, so that a malformed
/// file writes nothing.
void checkDwarfInfoDump(const dwarf::DebugInfo& info);
void dwarfInfoText(const Target& target, const dwarf::DebugInfo& info,
                   const DwarfDumpOptions& options, OutputSink& sink);
/// `abikit dwarf --debug-line`: the line tables (dwarf::readLineTables) as llvm-dwarfdump-22
/// prints them after ".debug_line contents:", or as the JSON array of cli-contract.md's "lines".
std::string dwarfLineText(std::span<const dwarf::LineTable> tables);
std::string dwarfLineJson(std::span<const dwarf::LineTable> tables);
/// `abikit dwarf --debug-names`: the name indexes (dwarf::readNameIndexes) as llvm-dwarfdump-22
/// prints them after ".debug_names contents:", or as the JSON array "names".
std::string dwarfNamesText(std::span<const dwarf::NameIndex> indexes);
std::string dwarfNamesJson(std::span<const dwarf::NameIndex> indexes);
/// JSON: the units when `units`, `frames` (dwarfFramesJson documents) as "frames" and
/// `lines` (a dwarfLineJson array; empty: none) as "lines", `names` (dwarfNamesJson) as "names".
std::string dwarfInfoJson(const Target& target, const dwarf::DebugInfo& info,
                          const DwarfDumpOptions& options, bool units = true,
                          std::span<const std::string> frames = {}, std::string_view lines = {},
                          std::string_view names = {});
/// One call-frame section as JSON: {"section":".debug_frame","entries":[{"offset","kind":"CIE",
/// ...,"instructions":[...],"rows":[...]}]}, instructions and rows in llvm-dwarfdump-22's text.
std::string dwarfFramesJson(const Target& target, const dwarf::CfiSection& section);
std::string dwarfVariablesText(const Target& target, const DwarfVariablesReport& report);

/// "e9 02": bytes as lowercase two-digit hex separated by single spaces.
std::string hexBytes(std::span<const uint8_t> bytes);
/// "0x1f": bytes least significant first, printed as one number.
std::string hexNumber(std::span<const uint8_t> bytes);

/// `abikit call`: one document for the lowered functions (JSON per cli-contract.md).
std::string callText(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions);
std::string callJson(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions);

/// `abikit kernarg`: the kernarg segments of AMDGPU kernels — a text table, JSON per
/// cli-contract.md, and `--yaml`: an `.amdgpu_metadata` document with the `amdhsa.kernels` entries
/// abikit knows (`.args`, segment size and alignment, language, name, symbol) printed as LLVM 14
/// prints them (sorted keys, padded values, YAML quoting and `!str` tags).
std::string kernargText(const Target& target, const TypeContext& ctx,
                        std::span<const KernelArguments> kernels);
std::string kernargJson(const Target& target, std::span<const KernelArguments> kernels);
std::string kernargYaml(const Target& target, std::span<const KernelArguments> kernels);

/// `abikit layout`: the layouts of `records` (text: pahole-like, with every hole and the tail
/// padding; JSON per cli-contract.md; members of anonymous struct/union members are nested under
/// them with offsets from the start of the outermost record). Throws abikit::Error before
/// producing anything if a record has no layout.
std::string layoutText(const LayoutEngine& layout, std::span<const RecordDecl* const> records);
std::string layoutJson(const LayoutEngine& layout, std::span<const RecordDecl* const> records);

/// `abikit layout --emit-c-asserts`: a C file of static assertions (sizeof, alignment, offsetof
/// and size of every named non-bit-field member) that a compiler for the target must accept.
/// `prelude` follows the includes: the declarations themselves or an #include of their header.
std::string layoutCAsserts(const LayoutEngine& layout, std::span<const RecordDecl* const> records,
                           std::string_view prelude);

/// `abikit compat`: the comparison of records on several targets (`targets`: each target's
/// spelling, in the order of the sides), as text (one line per difference and note) and as JSON
/// (cli-contract.md).
std::string compatText(std::span<const std::string> targets, std::span<const CompatRecord> records);
std::string compatJson(std::span<const std::string> targets, std::span<const CompatRecord> records);

/// `abikit compat --emit-c-asserts`: one assertion file per target. Each pins the layout the
/// other side relies on (the first target's; for the first target, the second's): compiled for
/// its target, it is accepted exactly when that target's layout agrees (sizes, alignments,
/// offsets and sizes of non-bit-field members; bit-field positions are not checkable in C).
struct CompatAssertFile {
  std::string target;    // whose compiler must accept it
  std::string reference; // whose layout it states
  std::string text;
};
std::vector<CompatAssertFile> compatCAsserts(std::span<const CompatSide> sides,
                                             std::string_view prelude);

/// Where a document of any size is written piece by piece. A writer appends to buffer() and
/// calls drain() between items (a section, a symbol, a relocation, a note); once `chunk` bytes
/// have gathered, drain() hands them on with flush(), so that the memory a document needs stays
/// bounded by the chunk and the largest item, whatever the document's size. The base class
/// keeps everything (flush() does nothing): the whole document ends in buffer().
class OutputSink {
public:
  static constexpr size_t kChunk = size_t(64) << 10;
  /// `buffer` is the text already there; `chunk` 0 keeps everything.
  explicit OutputSink(std::string buffer = {}, size_t chunk = 0)
      : buffer_(std::move(buffer)), chunk_(chunk ? chunk : ~size_t(0)) {}
  OutputSink(const OutputSink&) = delete;
  OutputSink& operator=(const OutputSink&) = delete;
  virtual ~OutputSink() = default;
  std::string& buffer() { return buffer_; }
  /// The size at which drain() hands the buffer on (the largest size_t: never).
  size_t chunk() const { return chunk_; }
  void drain() {
    if (buffer_.size() >= chunk_) flush();
  }
  /// Hands on everything in buffer() and empties it (keeping its capacity). May throw (a sink
  /// that cannot write).
  virtual void flush() {}

protected:
  std::string buffer_;
  size_t chunk_;
};

/// `abikit elf`: what to show beyond the header, sections, segments and build attributes.
struct ElfViewOptions {
  bool symbols = false;
  bool relocs = false;
  bool notes = false;
};
class ElfFile;
struct LinkConflict;
/// Reads everything the ELF writers read for `options` (build attributes, every symbol, every
/// relocation with its symbol and field patch, every note), in the order they read it, and
/// throws the abikit::Error the writers would throw first. After it returns, writeElfText() and
/// writeElfJson() with the same options do not throw an abikit::Error for `file`: a document
/// can be streamed out without ever stopping part-way on a bad input. Its cost is linear in the
/// tables' entries (each symbol a relocation names is decoded once).
void checkElfView(const ElfFile& file, const ElfViewOptions& options);
/// `abikit elf`: the text view of one file (readelf-like; the target abikit decodes is in the
/// header), written to `sink`. Throws abikit::Error for a malformed table or note it reads
/// (never after checkElfView() accepted the file).
void writeElfText(const ElfFile& file, const ElfViewOptions& options, OutputSink& sink);
/// `abikit elf --json`: the JSON object of one file (an element of "files"; keys in docs/elf.md).
void writeElfJson(const ElfFile& file, const ElfViewOptions& options, OutputSink& sink);
/// The whole `abikit elf --json` document of several files (`{"schema": ..., "files": [...]}`
/// and a newline), written to `sink`.
void writeElfJson(std::span<const ElfFile* const> files, const ElfViewOptions& options,
                  OutputSink& sink);
/// The same, appended to a string.
void appendElfText(const ElfFile& file, const ElfViewOptions& options, std::string& out);
void appendElfJson(const ElfFile& file, const ElfViewOptions& options, std::string& out);
/// Whole documents for several files.
std::string elfText(std::span<const ElfFile* const> files, const ElfViewOptions& options);
std::string elfJson(std::span<const ElfFile* const> files, const ElfViewOptions& options);
/// `abikit link-check`: "compatible" or one line per conflict.
std::string linkCheckText(std::span<const LinkConflict> conflicts);
/// `abikit link-check --json`: {"schema","compatible","files","conflicts":[{"files","reasons"}]}.
std::string linkCheckJson(std::span<const ElfFile* const> files,
                          std::span<const LinkConflict> conflicts);

/// `abikit ptx`: whose PTX text to reproduce (docs/targets/nvptx.md, "PTX prototypes").
enum class PtxStyle : uint8_t {
  Llvm, // clang-14 / llc-14 (the default)
  Nvcc, // NVIDIA's nvcc 13 (cicc): aggregates at their C alignment
};
struct PtxOptions {
  PtxStyle style = PtxStyle::Llvm;
  /// A complete module that ptxas accepts (.version, .target, .address_size; declarations as
  /// `.extern .func`, definitions and kernels with an empty body) instead of the prototypes.
  bool module = false;
  /// Where a function whose prototype cannot be printed (or that ptxas would reject) is
  /// reported, with its position; that function is then left out. Unset: such a function is
  /// an error for the whole call.
  std::function<void(const Error&)> on_unanswered;
};
/// `abikit ptx`: the PTX prototype of each function (NVPTX targets): `.entry` for kernels, the
/// definition header for functions with a body, the `.extern .func` declaration otherwise.
/// Throws abikit::Error, before producing anything, for a target PTX cannot describe, and for a
/// prototype that cannot be printed unless PtxOptions::on_unanswered takes it.
std::string ptxPrototypes(TypeContext& ctx, const LayoutEngine& layout,
                          std::span<const FunctionDecl* const> functions,
                          const PtxOptions& options);

} // namespace abikit
