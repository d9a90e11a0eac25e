// The machine state of `abikit dwarf-expr eval` and `dwarf-cfi eval` (cli-contract.md "DWARF",
// --machine FILE.json): registers, memory, apertures, context expressions, entry values and
// DIEs, read from JSON; it answers the evaluator's questions and records what a write changes.
#pragma once

#include "abikit/dwarf.h"
#include "abikit/dwarf_eval.h"
#include "abikit/target.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace abikit::cli {

class MachineFile : public dwarf::Machine, public dwarf::DieResolver {
public:
  /// Reads `path` (at most 16 MiB). Throws abikit::Error naming the file and the JSON key.
  MachineFile(const std::string& path, const Target& target, const dwarf::ExprFormat& format);

  /// Applies lanes, lane, apertures and the context expressions to the evaluator's options.
  void configure(dwarf::EvalOptions& o) const;
  uint32_t lanes() const { return lanes_; }

  bool readRegister(uint32_t reg, uint64_t byte_offset, std::span<uint8_t> out) override;
  bool writeRegister(uint32_t reg, uint64_t byte_offset, std::span<const uint8_t> in) override;
  bool readMemory(uint32_t space, uint64_t address, std::span<uint8_t> out) override;
  bool writeMemory(uint32_t space, uint64_t address, std::span<const uint8_t> in) override;
  uint32_t registerBits(uint32_t reg) override;
  bool entryValue(uint32_t reg, std::span<uint8_t> out) override;
  bool byUnitOffset(uint64_t offset, dwarf::DieInfo& out) override;
  bool bySectionOffset(uint64_t offset, dwarf::DieInfo& out) override;

  /// What writes changed: whole registers, lanes of vector registers, memory runs.
  dwarf::MachineWrites written() const;
  /// The contract's name of an address space ("global", "private_lane3"), or its number.
  std::string spaceName(uint32_t space) const;

private:
  struct Register {
    std::vector<uint8_t> bytes;
    std::vector<bool> known; // per byte
    uint32_t bits = 0;
    uint16_t lane_bits = 0;
  };
  struct Die {
    uint16_t tag = 0;
    bool has_location = false, is_list = false, has_const = false;
    std::vector<uint8_t> location, const_value;
    dwarf::BaseType base;
  };
  const Target& target_;
  uint32_t lanes_ = 1;
  std::optional<uint32_t> lane_;
  std::vector<DwarfAperture> apertures_;
  std::optional<dwarf::Expression> frame_base_, object_, cfa_;
  std::map<uint32_t, Register> regs_;
  std::map<std::pair<uint32_t, uint64_t>, uint8_t> memory_;
  std::map<uint32_t, std::vector<uint8_t>> entry_;
  std::map<uint64_t, Die> dies_;
  std::map<uint32_t, std::vector<uint8_t>> regs_before_; // registers as first written
  std::map<std::pair<uint32_t, uint64_t>, uint8_t> mem_written_;
};

} // namespace abikit::cli
