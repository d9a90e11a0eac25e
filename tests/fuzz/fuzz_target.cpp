// Fuzzes target resolution: triples, -march strings (the RISC-V ISA parser), -mabi, -mcpu
// (AMDGPU target ids, SM names, IPU/DPU processors) and -mcmodel. Every input must either
// resolve or throw abikit::Error; a resolved target must describe itself.
#include "abikit/diag.h"
#include "abikit/emit.h"
#include "abikit/riscv_isa.h"
#include "abikit/target.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Fields separated by newlines: triple, march, mabi, mcpu, mcmodel, flags.
  std::string fields[6];
  size_t f = 0;
  for (size_t i = 0; i < size && f < 6; ++i) {
    if (data[i] == '\n')
      ++f;
    else
      fields[f] += char(data[i]);
  }
  try {
    abikit::RiscvISAInfo isa = abikit::RiscvISAInfo::parse(fields[1]);
    // A canonical string must parse back to itself.
    std::string canon = isa.toString();
    if (abikit::RiscvISAInfo::parse(canon).toString() != canon) __builtin_trap();
  } catch (const abikit::Error&) {
  }
  abikit::TargetOptions o;
  o.triple = fields[0];
  o.march = fields[1];
  o.mabi = fields[2];
  o.mcpu = fields[3];
  o.mcmodel = fields[4];
  if (!fields[5].empty()) {
    o.msupervisor = fields[5][0] & 1;
    o.mworker = fields[5][0] & 2;
    o.code_object_version = fields[5][0] & 4 ? 5 : 0;
  }
  try {
    abikit::Target t = abikit::resolveTarget(o);
    (void)abikit::describeJson(t);
    (void)abikit::predefinedMacros(t, abikit::Language::C);
  } catch (const abikit::Error& e) {
    (void)e.format();
  }
  return 0;
}
