// Random C prototypes for the AMDGPU calling-convention differential test: parameter and return
// types drawn from the scalars, vectors, _Complex, pointers into every address space LLVM 14
// passes, transparent unions, and the records of layout_gen (bit-fields, unions, packed and
// aligned records, nested and anonymous members, arrays, flexible arrays).
#pragma once

#include "layout_gen.h"

#include <cstdint>
#include <string>
#include <vector>

namespace abikit::difftest {

struct ProtoCase {
  uint64_t seed = 0;
  std::string prefix;              // unique name prefix ("c12_")
  GProgram decls;                  // records, typedefs and enums used by the prototype
  std::string extra;               // further declarations (vector typedefs, unions, enums)
  std::string ret = "void";        // return type
  std::vector<std::string> params; // parameter types
};

/// One prototype for an amdgcn target.
ProtoCase generateProto(uint64_t seed, const std::string& prefix, const Target& target);

/// Simpler variants of a case (a parameter dropped, the return made void, a record simplified),
/// for shrinking a disagreement.
std::vector<ProtoCase> shrinkProto(const ProtoCase& c, const DataModel& d);

/// The declarations of a list of cases (layout_gen's render() plus the extra declarations).
std::string renderDecls(std::vector<ProtoCase>& cases);

} // namespace abikit::difftest
