// A byte-level data-flow tracer for the amdgcn (GFX9) assembly llc-14 writes, used as the oracle
// of the AMDGPU calling-convention differential test.
//
// The test's callees copy every byte of every parameter into one global buffer with volatile
// byte stores; its callers store every byte of a returned value the same way. The tracer walks
// each function once, in order, keeping for every byte of every VGPR where it came from (an
// incoming argument VGPR, a returned VGPR after a call, the incoming stack area at s32 + k, a
// known constant) through the moves, shifts, masks, byte permutes and loads the compiler uses to
// extract bytes, and records for each byte stored into the buffer its source. Anything it does
// not understand makes the affected bytes "unknown", never a wrong source.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace abikit::difftest::amdgcn {

struct ByteSrc {
  enum Kind : uint8_t {
    Unknown,
    Const, // a known constant byte (`value`)
    Arg,   // byte `byte` of VGPR `reg` at function entry
    Ret,   // byte `byte` of VGPR `reg` right after the last call returned
    Stack, // incoming stack argument area, byte `offset` (s32 at entry + offset)
    Frame, // the function's own frame (offset from its stack pointer after the prologue)
  };
  Kind kind = Unknown;
  uint8_t byte = 0;
  uint16_t reg = 0;
  int64_t offset = 0; // Stack/Frame: byte offset; Const: the value
  bool operator==(const ByteSrc& o) const {
    return kind == o.kind && byte == o.byte && reg == o.reg && offset == o.offset;
  }
  std::string text() const;
};

struct FunctionTrace {
  /// Buffer offset -> where the byte stored there came from (stores into the buffer symbol).
  std::map<int64_t, ByteSrc> stores;
  /// Stores through the incoming v[0:1] (a flat pointer) / through the incoming v0 as a private
  /// (scratch) address: how an sret or demoted return writes its result.
  bool stores_through_v0v1 = false;
  bool stores_through_v0_private = false;
  bool has_call = false;
  std::vector<std::string> unknown; // mnemonics the tracer did not model (for diagnostics)
};

/// Traces every function of `asm_text`; `buffer` is the global the test stores into. `wave` is
/// the wavefront size (64 on GFX9): stack pointers hold wave offsets.
std::map<std::string, FunctionTrace> traceFunctions(const std::string& asm_text,
                                                    const std::string& buffer, unsigned wave = 64);

} // namespace abikit::difftest::amdgcn
