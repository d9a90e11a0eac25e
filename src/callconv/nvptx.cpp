// PLACEHOLDER: replaced by the family's calling-convention rules.
#include "core.h"

namespace abikit::detail {
namespace {
void lower(const LayoutEngine&, const FunctionDecl& fn, FunctionLowering&) {
  unsupported(fn, "calling convention not implemented yet");
}
} // namespace
const CallconvInfo kNvptxCallconv = {Family::NVPTX, lower};
} // namespace abikit::detail
