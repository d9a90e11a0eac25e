// Internal: the interface every target family implements, and shared helpers for family files.
//
// Adding a target family = one file in src/target/ defining a FamilyInfo, one line in the
// table in registry.cpp, and one rule file in src/callconv/.
#pragma once

#include "abikit/diag.h"
#include "abikit/elf_target.h"
#include "abikit/target.h"

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abikit::detail {

/// A target triple split into its components (arch-vendor-os[-env]); missing parts are empty.
struct Triple {
  std::string text; // as given
  std::string arch, vendor, os, env;
};
Triple parseTriple(std::string_view text);

struct FamilyInfo {
  Family family;
  std::string_view name;  // "riscv"
  std::string_view title; // "RISC-V"
  /// Does this family handle the triple (normally decided by its arch component)?
  bool (*handles)(const Triple& triple);
  /// Fills every field of `out` for these options. Throws Error (ErrorKind::Target).
  void (*resolve)(const TargetOptions& options, const Triple& triple, Target& out);
  /// Adds this family's lines to `abikit targets`.
  void (*summaries)(std::vector<TargetSummary>& out);
  /// The ELF knowledge of this family.
  const ElfMachineInfo* elf;
  /// The compilers abikit models for this family, the default (the newest clang, or the vendor's
  /// compiler) first.
  std::span<const Compiler> compilers;
};

#define ABIKIT_FAMILY(E, name, Prefix) extern const FamilyInfo k##Prefix##Family;
#include "abikit/families.def"

/// The registers of an AMDGPU processor of GFX major version `gfx_major` (6 when no processor
/// is given), with its accumulation registers, for a wavefront size (amdgpu_registers.cpp).
std::span<const RegisterInfo> amdgpuRegisters(unsigned gfx_major, AmdgpuAgprs agprs, unsigned wave);
/// AMDGPU's DWARF data for a wavefront size (amdgpu_dwarf.cpp).
DwarfTargetInfo amdgpuDwarfInfo(unsigned wavefront_size);
/// RISC-V's DWARF data for XLEN, the number of x registers (16: E base), FLEN (0: no F
/// registers) and whether the vector registers exist (riscv_dwarf.cpp).
DwarfTargetInfo riscvDwarfInfo(unsigned xlen, unsigned ngpr, unsigned flen, bool vector);
/// The x86 intrinsic headers' types, <mmintrin.h> to <immintrin.h> (x86_intrin.cpp).
std::span<const BuiltinHeader> x86IntrinsicHeaders();
/// NVPTX's DWARF data for 32/64-bit addresses and an SM number (nvptx_dwarf.cpp).
DwarfTargetInfo nvptxDwarfInfo(bool is64, unsigned sm);

[[noreturn]] void targetError(std::string message);

/// The macros clang's Linux OS target and driver add on every Linux target: __linux__ and the
/// other OS names, __PIC__/__PIE__ 2 (position-independent executables by default) and, when
/// `unwind_tables`, __GCC_HAVE_DWARF2_CFI_ASM.
inline void addLinuxOsMacros(std::vector<std::pair<std::string, std::string>>& m,
                             bool unwind_tables = true) {
  for (const char* name :
       {"__gnu_linux__", "__linux", "__linux__", "__unix", "__unix__", "linux", "unix"})
    m.emplace_back(name, "1");
  for (const char* name : {"__PIC__", "__PIE__", "__pic__", "__pie__"}) m.emplace_back(name, "2");
  if (unwind_tables) m.emplace_back("__GCC_HAVE_DWARF2_CFI_ASM", "1");
}

/// The compiler `--compiler NAME` selects for family `f` (its default when `name` is empty);
/// an unknown name or one the family does not model is an error.
Compiler selectCompiler(const FamilyInfo& f, std::string_view name);

/// Rejects an option that the family does not use (e.g. -march for NVPTX), so that a typo
/// is not silently ignored.
void rejectUnusedOption(std::string_view family_title, std::string_view flag,
                        std::string_view value);

} // namespace abikit::detail
