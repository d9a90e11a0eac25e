// An oracle for variable locations: RISC-V programs built by a real compiler run under qemu-user
// with gdb-multiarch attached, and at each breakpoint the machine state (registers, the stack, the
// writable segments, gdb's CFA and saved-register slots) and every variable in scope with the
// bytes gdb gives for it. A differential test evaluates each variable's DWARF location in the
// captured state and compares the bytes with gdb's.
//
// gdb is driven by a Python script (gdb's embedded Python 3) that prints one JSON object per
// stop. A variable's bytes are gdb's own contents of the value (`dump binary value`), so memory,
// register, DW_OP_piece and DW_OP_stack_value locations all give their exact bytes, padding
// included; a value with optimized-out parts is walked member by member and element by element,
// and each byte says whether gdb had it. qemu and gdb talk over a Unix-domain socket (qemu's
// `-g PATH`) in a fresh directory: no port to choose, nothing that another process can take.
// Every process runs in its own process group under a time limit and is killed with it.
#pragma once

#include "oracle.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace abikit::oracle {

/// How to build a program: compiler "clang-14", "clang-19", "clang-22" (any "clang-N" with an
/// ld.lld for it) or "gcc-12" (riscv64-unknown-elf-gcc, bare-metal: no libc is used anyway).
struct RiscvBuild {
  std::string compiler = "clang-19";
  bool rv32 = false;
  std::string march; // "" = rv64gc / rv32gc
  std::string mabi;  // "" = lp64d / ilp32d
  std::string opt = "-O2";
  std::vector<std::string> extra_flags;
  std::string source_name = "prog.c"; // the name breakpoints use (FILE:LINE)
  bool object_only = false;           // compile with -c: a relocatable object, not a program

  std::string archName() const { return march.empty() ? (rv32 ? "rv32gc" : "rv64gc") : march; }
  std::string abiName() const { return mabi.empty() ? (rv32 ? "ilp32d" : "lp64d") : mabi; }
};

/// Whether the build's compiler (and linker) are installed.
bool riscvToolchainAvailable(const RiscvBuild& b);
/// Whether gdb-multiarch and qemu-riscv64/qemu-riscv32 are installed.
bool riscvGdbAvailable();

/// Builds a freestanding static Linux program (no libc: the source supplies _start and exits
/// with ecall 93) from C source in `dir`; returns the executable's path, or "" with `error` set
/// (a missing toolchain or the compiler's diagnostics).
std::string buildRiscvProgram(const ScratchDir& dir, const std::string& source, const RiscvBuild& b,
                              std::string& error);

/// Bytes as gdb gave them: known[i] says whether gdb had byte i (little-endian target order).
struct GdbBytes {
  std::vector<uint8_t> bytes;
  std::vector<bool> known;
};

struct GdbVariable {
  std::string name;
  bool is_argument = false;
  std::string type; // gdb's name of the type
  uint64_t size = 0;
  unsigned decl_line = 0; // the symbol's line (DW_AT_decl_line)
  unsigned depth = 0;     // block depth: 0 = the innermost block at the pc, counting outward
  // Value: every leaf (scalar member / element) known; OptimizedOut: none; Partial: some.
  // Padding bytes may be unknown even for Value (gdb had no piece for them).
  enum class Status { Value, OptimizedOut, Partial, Error } status = Status::Error;
  GdbBytes value;
  std::optional<uint64_t> address; // set when gdb has the value in memory (an lvalue in memory)
  std::string text;                // gdb's printed value
  std::string message;             // for Error
};

struct GdbStop {
  uint64_t pc = 0;
  std::string function;
  unsigned line = 0;
  /// DWARF number -> bytes: x0-x31 = 0-31 (XLEN bytes), f0-f31 = 32-63 (FLEN bytes, as qemu has
  /// them: the F/D registers exist even when the program was built without F/D).
  std::vector<std::pair<uint32_t, std::vector<uint8_t>>> registers;
  /// address -> bytes: the stack from sp-512 up to its top (at most 16 KiB), and every writable
  /// PT_LOAD segment (.data, .sdata, .bss, .sbss).
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> memory;
  uint64_t cfa = 0; // gdb `info frame`: "frame at 0x..."
  /// `info frame` "Saved registers": DWARF number -> the address of the slot.
  std::vector<std::pair<uint32_t, uint64_t>> saved_registers;
  /// Every local and argument in scope, innermost block outward up to the function's block.
  std::vector<GdbVariable> variables;

  const std::vector<uint8_t>* reg(uint32_t dwarf) const;
  /// Reads [addr, addr+size) from the captured memory; false if any byte is not captured.
  bool readMemory(uint64_t addr, uint64_t size, std::vector<uint8_t>& out) const;
};

struct GdbRunOptions {
  double timeout_s = 120; // for the whole gdb session
  uint64_t stack_cap = 16384;
};

/// Runs the program under qemu-riscv64/32 with gdb-multiarch attached (-batch -nx), sets the
/// breakpoints (function names or FILE:LINE; one that gdb cannot set is a warning), and captures
/// up to max_stops stops. `error` is set when the session failed (cannot start, timeout, stopped
/// by a signal, a stop that could not be captured); the stops captured so far are returned.
std::vector<GdbStop> runUnderGdb(const std::string& executable, bool rv32,
                                 const std::vector<std::string>& breakpoints, unsigned max_stops,
                                 std::string& error, const GdbRunOptions& options = {},
                                 std::vector<std::string>* warnings = nullptr);

const char* statusName(GdbVariable::Status s);

} // namespace abikit::oracle
