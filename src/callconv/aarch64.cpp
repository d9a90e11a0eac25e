// AArch64 hosts (aarch64-linux-gnu): abikit models the data model and record layout, for
// comparisons with device targets, and not yet the AAPCS64 calling convention (HFA/HVA
// classification, x8 indirect results). A lowering request is refused with one clear message.
#include "core.h"

namespace abikit::detail {

const CallconvInfo kAarch64Callconv = {Family::AArch64, refuseHostCallingConvention};

} // namespace abikit::detail
