// A RISC-V assembly reader for the calling-convention oracle: splits `clang -S` / `gcc -S`
// output into functions and follows one probe function symbolically, bit by bit
// (callconv_oracle.h): integer and FP registers, loads and stores through sp, %hi/%lo globals
// and pointer arguments, moves between the register files, shifts, masks, sign and zero
// extension, constants, and calls to memcpy/memmove/memset. Straight-line code only: a branch
// makes the trace fail with a message naming the instruction.
#pragma once

#include "callconv_oracle.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::difftest {

/// Function name -> its instruction lines (labels and directives dropped).
std::map<std::string, std::vector<std::string_view>> splitRiscvFunctions(std::string_view text);

/// Label -> the bytes of the data that follows it (constants such as GCC's .LC0 masks).
using AsmData = std::map<std::string, std::vector<uint8_t>>;
AsmData parseRiscvData(std::string_view text);

/// Follows one function. With `call_target` empty the snapshot is taken at its return (a
/// callee); otherwise at its call (or tail call) of `call_target` (a caller). Loads from a
/// label of `data` read its constant bytes.
Trace followRiscv(const std::vector<std::string_view>& lines, unsigned xlen,
                  std::string_view call_target, const AsmData* data = nullptr);

} // namespace abikit::difftest
