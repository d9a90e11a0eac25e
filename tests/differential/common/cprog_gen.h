// A seeded generator of freestanding C programs for the variable-location oracle (riscv_gdb.h):
// several noinline functions with many locals and parameters (char/short/int/long/long long and
// their unsigned variants, pointers, float/double when the target has F/D), small structs passed
// by value and held in locals, arrays, loops, nested blocks, calls between the functions (no
// recursion), globals and static locals. Values are kept alive by stores to volatile sinks so
// that -O1/-O2 leave interesting locations: registers, stack slots, DW_OP_piece composites,
// DW_OP_stack_value constants, entry values.
//
// The program needs no library: it supplies memcpy/memset/memmove (with volatile accesses, so
// that no compiler turns them back into calls), _start (sets gp, calls abk_main, exits with
// ecall 93) and uses no operation that needs a runtime routine (no division of 64-bit values, no
// conversion between floating point and 64-bit integers; no floating point without F/D).
// Every statement is on its own line; the lines are returned for FILE:LINE breakpoints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace abikit::difftest {

struct CProgOptions {
  bool rv32 = false;
  bool fp = true; // float/double values (the -march has F and D)
  unsigned functions = 4;
  unsigned max_statements = 14; // per function, at the top level of its body
  std::string file_name = "prog.c";
};

struct CProgFunction {
  std::string name;
  unsigned first_line = 0, last_line = 0; // the definition's lines
  std::vector<unsigned> statement_lines;  // every statement line inside the body
};

struct CProgram {
  uint64_t seed = 0;
  std::string source;
  std::vector<CProgFunction> functions; // f0..fN-1 and abk_main
  /// Suggested breakpoints: every function's name and a few FILE:LINE statement lines of each.
  std::vector<std::string> breakpoints;
};

CProgram generateCProgram(uint64_t seed, const CProgOptions& options = {});

} // namespace abikit::difftest
