// The display form: what llvm-dwarfdump-22 prints for an exprloc (toDisplay, opDisplay), the
// target's register names, and the options. The printing itself is print.cpp's walker, shared
// with the canonical text; the functions returning a string here wrap its appending ones.
#include "abikit/dwarf.h"
#include "print.h"

namespace abikit::dwarf {

std::string registerDisplayName(std::span<const DwarfRegisterName> names, uint64_t reg) {
  std::string s;
  if (const DwarfRegisterName* n = findRegisterName(names, reg)) {
    s += n->prefix;
    if (n->numbered) s += std::to_string(uint64_t(n->index0) + (reg - n->first));
    s += n->suffix;
  }
  return s;
}

DisplayOptions displayOptionsFor(const Target& target, ExtEncoding encoding) {
  DisplayOptions o;
  o.registers = target.dwarf_register_names;
  o.encoding = encoding;
  return o;
}

std::string toDisplay(const Expression& expr, const DisplayOptions& options) {
  std::string out;
  toDisplay(expr, options, out);
  return out;
}

std::string opDisplay(const Expression& expr, size_t i, const DisplayOptions& options) {
  std::string out;
  opDisplay(expr, i, options, out);
  return out;
}

} // namespace abikit::dwarf
