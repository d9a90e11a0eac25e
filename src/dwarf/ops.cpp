// The operation table (expanded from abikit/dwarf_ops.def), its lookups, and the DWARF errors.
#include "abikit/dwarf.h"

#include <algorithm>
#include <array>

namespace abikit::dwarf {

namespace {

using K = OperandKind;

constexpr OpInfo kOps[] = {
#define ABIKIT_DW_OP(E, name, code, a, b) {Op::E, name, false, code, -1, -1, -1, {K::a, K::b}},
#define ABIKIT_DW_OP_LLVM(E, name, user, legacy, seed, a, b)                                       \
  {Op::E, name, true, -1, user, legacy, seed, {K::a, K::b}},
#include "abikit/dwarf_ops.def"
};

// The table is in enumeration order, so Op indexes it.
constexpr bool inOrder() {
  for (size_t i = 0; i < std::size(kOps); ++i)
    if (size_t(kOps[i].op) != i) return false;
  return true;
}
static_assert(inOrder(), "dwarf_ops.def and the Op enumeration disagree");

// Names sorted for the text parser.
struct ByName {
  std::array<uint16_t, std::size(kOps)> index{};
  ByName() {
    for (size_t i = 0; i < index.size(); ++i) index[i] = uint16_t(i);
    std::sort(index.begin(), index.end(),
              [](uint16_t a, uint16_t b) { return kOps[a].name < kOps[b].name; });
  }
};

std::string exprErrorMessage(ExprErrorKind kind, ExprError::Where where, uint64_t position,
                             const std::string& detail) {
  std::string m(exprErrorKindName(kind));
  switch (where) {
  case ExprError::Where::Byte:
    m += " at byte ";
    break;
  case ExprError::Where::Column:
    m += " at column ";
    break;
  case ExprError::Where::Operation:
    m += " at operation ";
    break;
  }
  m += std::to_string(position);
  m += ": ";
  m += detail;
  return m;
}

} // namespace

const OpInfo& opInfo(Op op) {
  return kOps[size_t(op)];
}

std::span<const OpInfo> allOps() {
  return kOps;
}

int extensionCode(const OpInfo& info, ExtEncoding encoding) {
  switch (encoding) {
  case ExtEncoding::User:
    return info.user;
  case ExtEncoding::Legacy:
    return info.legacy;
  case ExtEncoding::SeedDraft:
    return info.seed_draft;
  }
  return -1;
}

const OpInfo* findOp(std::string_view name) {
  static const ByName kByName;
  auto it = std::lower_bound(kByName.index.begin(), kByName.index.end(), name,
                             [](uint16_t i, std::string_view n) { return kOps[i].name < n; });
  if (it == kByName.index.end() || kOps[*it].name != name) return nullptr;
  return &kOps[*it];
}

std::string_view extEncodingName(ExtEncoding e) {
  switch (e) {
  case ExtEncoding::User:
    return "user";
  case ExtEncoding::Legacy:
    return "legacy";
  case ExtEncoding::SeedDraft:
    return "seed-draft";
  }
  return "";
}

std::string_view exprErrorKindName(ExprErrorKind k) {
  switch (k) {
  case ExprErrorKind::Truncated:
    return "Truncated";
  case ExprErrorKind::Overflow:
    return "Overflow";
  case ExprErrorKind::UnknownOpcode:
    return "UnknownOpcode";
  case ExprErrorKind::ReservedSubOpcode:
    return "ReservedSubOpcode";
  case ExprErrorKind::UnknownSubOpcode:
    return "UnknownSubOpcode";
  case ExprErrorKind::Unencodable:
    return "Unencodable";
  case ExprErrorKind::Syntax:
    return "Syntax";
  }
  return "";
}

ExprError::ExprError(ExprErrorKind kind, Where where, uint64_t position, std::string detail)
    : Error(where == Where::Byte
                ? Error::atBufferOffset(ErrorKind::Input,
                                        exprErrorMessage(kind, where, position, detail), position)
                : Error(kind == ExprErrorKind::Unencodable ? ErrorKind::Unsupported
                                                           : ErrorKind::Input,
                        exprErrorMessage(kind, where, position, detail))),
      expr_kind_(kind), where_(where), position_(position) {}

void checkFormat(const ExprFormat& format) {
  if (format.address_size != 4 && format.address_size != 8)
    throw Error(ErrorKind::Input, "DWARF address size " + std::to_string(format.address_size) +
                                      " is not supported (4 or 8)");
  if (format.offset_size != 4 && format.offset_size != 8)
    throw Error(ErrorKind::Input, "DWARF offset size " + std::to_string(format.offset_size) +
                                      " is not 4 (DWARF32) or 8 (DWARF64)");
}

unsigned fixedOperandSize(OperandKind k, const ExprFormat& f) {
  switch (k) {
  case OperandKind::U1:
  case OperandKind::S1:
  case OperandKind::BlockU1:
    return 1;
  case OperandKind::U2:
  case OperandKind::S2:
    return 2;
  case OperandKind::U4:
  case OperandKind::S4:
    return 4;
  case OperandKind::U8:
  case OperandKind::S8:
    return 8;
  case OperandKind::Addr:
    return f.address_size;
  case OperandKind::Ref:
    return f.offset_size;
  default:
    return 0;
  }
}

} // namespace abikit::dwarf
