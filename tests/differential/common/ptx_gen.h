// A seeded generator of random NVPTX function prototypes for the PTX differential test. Each case
// holds the records, enums and typedefs of one layout_gen case, extra typedefs (vectors,
// _Complex, pointers, over-aligned and empty records, ...) and device functions and kernels whose
// return and parameter types are drawn from all of them: every scalar kind, vectors, records of
// every shape, and a few constructs the compilers reject.
#pragma once

#include "layout_gen.h"

#include <cstdint>
#include <string>
#include <vector>

namespace abikit::difftest {

struct PtxProto {
  std::string name;
  bool kernel = false;
  bool definition = false; // has a body
  bool is_static = false;
  std::string ret;                 // C spelling: "void" or a type name
  std::vector<std::string> params; // C spellings, each usable as `T name`
  bool variadic = false;           // `...` after the parameters
  std::vector<std::string> extra;  // a declared variadic one: the extra arguments of its call
};

struct PtxCase {
  GProgram types;
  std::vector<std::string> typedefs; // extra declarations, in order
  std::vector<PtxProto> protos;
};

struct PtxGenOptions {
  /// Only what nvcc 13 compiles and abikit's nvcc style models: no vectors, _BitInt, __fp16,
  /// empty records, static functions.
  bool nvcc = false;
  /// Variadic prototypes too (compilers that pass the extra arguments in a buffer).
  bool variadic = false;
  unsigned protos = 6; // prototypes per case
};

/// Generates one case for a target (its data model decides which types exist).
PtxCase generatePtxCase(uint64_t seed, const std::string& prefix, const Target& target,
                        const PtxGenOptions& options);

/// The C text of the cases' types (records, enums, typedefs): for every compiler.
std::string renderPtxTypes(std::vector<PtxCase>& cases);

/// `R name(T0 a0, T1 a1)`, `R name(T0 a0, ...)` for a variadic one.
std::string ptxSignature(const PtxProto& p, const std::string& name);

} // namespace abikit::difftest
