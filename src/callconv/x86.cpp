// x86 hosts (x86_64-linux-gnu, i386-linux-gnu): abikit models their data model and record
// layout, for comparisons with device targets, and not yet their calling conventions (the
// System V AMD64 classification, i386's stack passing and register returns). A lowering
// request is refused with one clear message rather than answered wrongly.
#include "core.h"

namespace abikit::detail {
namespace {

void lower(const LayoutEngine& layout, const FunctionDecl&, FunctionLowering&) {
  throw Error(ErrorKind::Unsupported,
              "abikit does not model the calling convention of host target '" +
                  layout.context().target().triple + "' yet: it answers layout questions only");
}

} // namespace

const CallconvInfo kX86Callconv = {Family::X86, lower};

} // namespace abikit::detail
