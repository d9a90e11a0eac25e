// `.riscv.attributes` (SHT_RISCV_ATTRIBUTES): the build-attributes format ('A', then
// subsections of [u32 length][vendor NTBS][tag, u32 size, attributes...]) with the RISC-V psABI
// tags (reference riscv.md §5.4). Even tags carry a ULEB128, odd tags a NUL-terminated string.
#include "abikit/diag.h"
#include "abikit/elf.h"

#include <cstring>

namespace abikit {

namespace {

struct Cursor {
  const ElfFile& f;
  const uint8_t* base; // the section's bytes
  uint64_t file_offset;
  uint64_t pos;
  uint64_t end;

  uint64_t at() const { return file_offset + pos; }
  [[noreturn]] void fail(const std::string& what) const {
    f.fail("malformed .riscv.attributes: " + what, at());
  }
  uint64_t uleb() {
    uint64_t v = 0;
    unsigned shift = 0;
    uint64_t start = pos;
    while (true) {
      if (pos >= end) {
        pos = start;
        fail("truncated ULEB128 value");
      }
      uint8_t b = base[pos++];
      if (shift >= 64 || (shift == 63 && (b & 0x7e))) {
        pos = start;
        fail("ULEB128 value does not fit in 64 bits");
      }
      v |= uint64_t(b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) return v;
    }
  }
  std::string_view ntbs() {
    const void* nul = std::memchr(base + pos, 0, size_t(end - pos));
    if (!nul) fail("string is not NUL-terminated");
    const char* s = reinterpret_cast<const char*>(base + pos);
    size_t n = size_t(static_cast<const uint8_t*>(nul) - (base + pos));
    pos += n + 1;
    return std::string_view(s, n);
  }
  uint32_t u32() {
    if (end - pos < 4) fail("truncated length field");
    uint32_t v;
    std::memcpy(&v, base + pos, 4);
    if (f.header().bigEndian()) v = __builtin_bswap32(v);
    pos += 4;
    return v;
  }
};

struct TagInfo {
  uint64_t tag;
  std::string_view name;
};
constexpr TagInfo kRiscvTags[] = {
    {4, "Tag_RISCV_stack_align"},      {5, "Tag_RISCV_arch"},
    {6, "Tag_RISCV_unaligned_access"}, {8, "Tag_RISCV_priv_spec"},
    {10, "Tag_RISCV_priv_spec_minor"}, {12, "Tag_RISCV_priv_spec_revision"},
    {14, "Tag_RISCV_atomic_abi"},      {16, "Tag_RISCV_x3_reg_usage"},
};

std::string describe(uint64_t tag, uint64_t v) {
  switch (tag) {
  case 4:
    return "Stack alignment is " + std::to_string(v) + "-bytes";
  case 6:
    return v == 0 ? "No unaligned access" : v == 1 ? "Unaligned access" : "";
  case 14: {
    static const char* const kAbi[] = {"unknown atomic ABI", "A6C", "A6S", "A7"};
    return v < 4 ? kAbi[v] : "";
  }
  case 16: {
    static const char* const kUse[] = {"unknown", "gp", "shadow stack", "temporary"};
    return v < 4 ? std::string("x3 is used as ") + kUse[v] : "";
  }
  }
  return {};
}

} // namespace

BuildAttributes parseRiscvAttributes(const ElfFile& file, const ElfSection& section) {
  BuildAttributes out;
  std::span<const uint8_t> bytes = file.contents(section);
  Cursor c{file, bytes.data(), section.offset, 0, bytes.size()};
  if (bytes.empty()) return out;
  out.format_version = bytes[0];
  if (bytes[0] != 'A') c.fail("format version is not 'A' (0x41)");
  c.pos = 1;
  while (c.pos < c.end) {
    uint64_t sub_start = c.pos;
    uint32_t len = c.u32();
    if (len < 4 || len > c.end - sub_start) {
      c.pos = sub_start;
      c.fail("subsection length " + std::to_string(len) + " does not fit in the section");
    }
    uint64_t sub_end = sub_start + len;
    Cursor s{file, bytes.data(), section.offset, c.pos, sub_end};
    BuildAttributesSubsection sub;
    sub.vendor = s.ntbs();
    if (sub.vendor != "riscv") {
      out.problems.push_back("attributes of vendor '" + std::string(sub.vendor) +
                             "' are not decoded");
      out.subsections.push_back(std::move(sub));
      c.pos = sub_end;
      continue;
    }
    while (s.pos < s.end) {
      uint64_t block_start = s.pos;
      uint64_t scope = s.uleb();
      uint32_t size = s.u32();
      if (size < 5 || size > s.end - block_start) {
        s.pos = block_start;
        s.fail("attribute block size " + std::to_string(size) + " does not fit");
      }
      Cursor a{file, bytes.data(), section.offset, s.pos, block_start + size};
      BuildAttributesSubsection block;
      block.vendor = sub.vendor;
      block.scope_tag = scope;
      if (scope == 2 || scope == 3) {
        while (true) {
          uint64_t idx = a.uleb();
          if (idx == 0) break;
          block.scope.push_back(idx);
        }
      } else if (scope != 1) {
        s.pos = block_start;
        s.fail("unknown attribute scope tag " + std::to_string(scope));
      }
      while (a.pos < a.end) {
        BuildAttribute attr;
        attr.offset = a.at();
        attr.tag = a.uleb();
        for (const TagInfo& t : kRiscvTags)
          if (t.tag == attr.tag) attr.tag_name = t.name;
        if (attr.tag_name.empty() && attr.tag % 128 < 64)
          out.problems.push_back("unknown attribute tag " + std::to_string(attr.tag) +
                                 " that must not be ignored (tag % 128 < 64)");
        attr.is_string = attr.tag % 2 == 1;
        if (attr.is_string)
          attr.string_value = a.ntbs();
        else {
          attr.int_value = a.uleb();
          attr.description = describe(attr.tag, attr.int_value);
        }
        block.attributes.push_back(std::move(attr));
      }
      out.subsections.push_back(std::move(block));
      s.pos = block_start + size;
    }
    c.pos = sub_end;
  }
  return out;
}

} // namespace abikit
