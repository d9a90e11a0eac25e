// The target-neutral half of the calling-convention oracle: a bit-level symbolic machine state
// (what an asm reader fills while it follows a probe function) and the comparison of that state
// with abikit's FunctionLowering.
//
// Every bit of a register or memory byte is a Sym: unknown, constant 0/1, bit k of a register
// as it was on entry to the function, bit k of a memory byte as it was on entry (in the
// incoming stack area, a global, or memory reached through a pointer value), or bit k of an
// address the function computed. A probe callee stores each parameter to `abk_out + offset`
// (callconv_gen.h): the bits found there say where the parameter arrived. A probe caller loads
// each argument from `abk_in + offset`: the registers and outgoing stack bytes at the call say
// where it was put.
#pragma once

#include "abikit/callconv.h"
#include "abikit/layout.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace abikit::difftest {

struct Sym {
  enum Kind : uint8_t { Unknown, Zero, One, Reg, Mem, Addr };
  Kind kind = Unknown;
  int32_t id = 0;  // Reg: register number; Mem: base; Addr: address
  int64_t bit = 0; // Reg/Addr: bit index; Mem: byte offset * 8 + bit
  bool operator==(const Sym&) const = default;
  bool isConst() const { return kind == Zero || kind == One; }
};

/// Where a memory base points on entry.
struct MemBase {
  enum Kind : uint8_t { Stack, Global, Pointer, Frame };
  Kind kind = Stack;
  std::string name;     // Global: symbol
  std::vector<Sym> key; // Pointer: the bits of the pointer value (on entry)
};

struct Address {
  int base = 0;
  int64_t offset = 0;
};

/// Memory bases, addresses and register names of one function's analysis.
class SymTables {
public:
  explicit SymTables(std::vector<std::string> register_names);

  static constexpr int kStack = 0; // the incoming stack (sp on entry)
  int global(std::string_view name);
  int pointer(const std::vector<Sym>& key);
  /// -1 when no such base was made.
  int findGlobal(std::string_view name) const;
  int findPointer(const std::vector<Sym>& key) const;
  int address(int base, int64_t offset);
  /// A new base for a realigned stack pointer (`andi sp, sp, -64`): its distance from the
  /// incoming stack is unknown and its memory starts unknown.
  int frame();

  const MemBase& base(int id) const { return bases_[size_t(id)]; }
  const Address& addressAt(int id) const { return addresses_[size_t(id)]; }
  int registerId(std::string_view name) const; // -1 if unknown
  const std::string& registerName(int id) const { return registers_[size_t(id)]; }

  std::string describe(const Sym& s) const;

private:
  std::vector<std::string> registers_;
  std::vector<MemBase> bases_;
  std::vector<Address> addresses_;
  std::map<std::pair<int, int64_t>, int> address_ids_;
};

using ByteSyms = std::array<Sym, 8>;

class Memory {
public:
  /// The byte as the function last wrote it, or as it was on entry.
  ByteSyms read(int base, int64_t offset, const SymTables& tables) const;
  /// nullptr when the function never wrote it.
  const ByteSyms* written(int base, int64_t offset) const;
  void write(int base, int64_t offset, const ByteSyms& b) { bytes_[{base, offset}] = b; }

private:
  std::map<std::pair<int, int64_t>, ByteSyms> bytes_;
};

/// The state an asm reader records for one probe function.
struct Trace {
  bool ok = false;
  std::string error;                     // why the function could not be followed
  bool reached = false;                  // the snapshot point was reached (ret / the call)
  SymTables tables{{}};                  //
  Memory memory;                         // at the snapshot point
  std::vector<std::array<Sym, 64>> regs; // by register id, at the snapshot point
  Address sp;                            // sp at the snapshot point
  unsigned xlen = 64;
};

/// What the probe programs put where (callconv_gen's ProbeLayout), per value.
struct ProbeValue {
  const Type* type = nullptr;   // as lowered (promoted for extra arguments)
  const Type* source = nullptr; // as stored in abk_in (before promotion)
  uint64_t offset = 0;          // in abk_in / abk_out
};

/// Which bits of a value of type `t` carry data (not padding, not unnamed bit-fields, not the
/// unused bits of _Bool and _BitInt): sizeof(t) * 8 flags.
std::vector<uint8_t> dataBits(const Type* t, const LayoutEngine& layout);

/// Compares a probe callee's trace with abikit's lowering: each stored parameter bit and each
/// returned bit must come from where abikit says. "" when they agree, else a report.
std::string compareCallee(const FunctionLowering& fl, const Trace& t, const LayoutEngine& layout,
                          const std::vector<ProbeValue>& params, const ProbeValue& ret);

/// Compares a probe caller's trace (at the call) with abikit's lowering: each argument bit
/// must be where abikit says, narrow integers extended as abikit says.
std::string compareCaller(const FunctionLowering& fl, const Trace& t, const LayoutEngine& layout,
                          const std::vector<ProbeValue>& args);

} // namespace abikit::difftest
