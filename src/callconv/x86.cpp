// x86 hosts (x86_64-linux-gnu, i386-linux-gnu): abikit models their data model and record
// layout, for comparisons with device targets, and not yet their calling conventions (the
// System V AMD64 classification, i386's stack passing and register returns). A lowering
// request is refused with one clear message rather than answered wrongly.
#include "core.h"

namespace abikit::detail {

const CallconvInfo kX86Callconv = {Family::X86, refuseHostCallingConvention};

} // namespace abikit::detail
