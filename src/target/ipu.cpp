// PLACEHOLDER: replaced by the family implementation.
#include "family.h"

namespace abikit::detail {
namespace {
bool handles(const Triple&) {
  return false;
}
void resolve(const TargetOptions&, const Triple&, Target&) {
  targetError("not implemented");
}
void summaries(std::vector<TargetSummary>&) {}
} // namespace
const FamilyInfo kIpuFamily = {Family::IPU, "ipu", "ipu", handles, resolve, summaries, nullptr};
} // namespace abikit::detail
