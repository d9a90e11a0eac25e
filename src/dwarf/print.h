// The printing walker's one lookup the rest of src/dwarf shares (print.cpp).
#pragma once

#include "abikit/dwarf.h"

namespace abikit::dwarf {

/// The entry of `names` that names DWARF register `reg`, or nullptr.
const DwarfRegisterName* findRegisterName(std::span<const DwarfRegisterName> names, uint64_t reg);

} // namespace abikit::dwarf
