// Streaming JSON text for the writers that produce large documents (layout, call): appends to one
// std::string instead of building a DOM.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace abikit::detail {

/// Appends `s` as a JSON string literal (quotes and escapes added).
void appendJsonString(std::string& out, std::string_view s);
/// Appends a decimal number.
void appendNumber(std::string& out, uint64_t v);
void appendSigned(std::string& out, int64_t v);

} // namespace abikit::detail
