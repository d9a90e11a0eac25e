// abikit — writers: the text (for people) and JSON (schema "abikit/1", see cli-contract.md)
// views of every result. Each returns the complete document; nothing is printed on failure.
#pragma once

#include "abikit/callconv.h"
#include "abikit/target.h"

#include <span>
#include <string>
#include <vector>

namespace abikit {

/// `abikit targets`
std::string targetsText(const std::vector<TargetSummary>& targets);
std::string targetsJson(const std::vector<TargetSummary>& targets);

/// `abikit describe`
std::string describeText(const Target& target);
std::string describeJson(const Target& target);

/// `abikit call`: one document for the lowered functions (JSON per cli-contract.md).
std::string callText(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions);
std::string callJson(const Target& target, const TypeContext& ctx,
                     std::span<const FunctionLowering> functions);

} // namespace abikit
