// `.riscv.attributes` (SHT_RISCV_ATTRIBUTES): the build-attributes format ('A', then
// subsections of [u32 length][vendor NTBS][tag, u32 size, attributes...]) with the RISC-V psABI
// tags (reference riscv.md §5.4). Even tags carry a ULEB128, odd tags a NUL-terminated string.
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "bytes.h"

#include <optional>

namespace abikit {

namespace {

struct Cursor {
  const ElfFile& f;
  detail::EndianSlice in;

  uint64_t at() const { return in.offset(); }
  [[noreturn]] void fail(const std::string& what) const {
    f.fail("malformed .riscv.attributes: " + what, at());
  }
  uint64_t uleb() {
    uint64_t v = 0;
    switch (in.uleb(v)) {
    case detail::EndianSlice::Leb::Ok:
      break;
    case detail::EndianSlice::Leb::Truncated:
      fail("truncated ULEB128 value");
    case detail::EndianSlice::Leb::TooBig:
      fail("ULEB128 value does not fit in 64 bits");
    }
    return v;
  }
  std::string_view ntbs() {
    std::optional<std::string_view> s = in.cstr();
    if (!s) fail("string is not NUL-terminated");
    return *s;
  }
  uint32_t u32() {
    if (!in.has(4)) fail("truncated length field");
    return in.u32();
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
  Cursor c{file,
           detail::EndianSlice(bytes, file.header().bigEndian(), file.name(), section.offset)};
  if (bytes.empty()) return out;
  out.format_version = c.in.u8At(0);
  if (out.format_version != 'A') c.fail("format version is not 'A' (0x41)");
  c.in.skip(1);
  while (!c.in.empty()) {
    const detail::EndianSlice sub_start = c.in;
    uint32_t len = c.u32();
    if (len < 4 || len > sub_start.remaining()) {
      c.in = sub_start;
      c.fail("subsection length " + std::to_string(len) + " does not fit in the section");
    }
    Cursor s{file, sub_start};
    s.in = s.in.take(len);
    s.in.skip(4);
    BuildAttributesSubsection sub;
    sub.vendor = s.ntbs();
    if (sub.vendor != "riscv") {
      out.problems.push_back("attributes of vendor '" + std::string(sub.vendor) +
                             "' are not decoded");
      out.subsections.push_back(std::move(sub));
      c.in = sub_start;
      c.in.skip(len);
      continue;
    }
    while (!s.in.empty()) {
      const detail::EndianSlice block_start = s.in;
      uint64_t scope = s.uleb();
      uint32_t size = s.u32();
      if (size < 5 || size > block_start.remaining()) {
        s.in = block_start;
        s.fail("attribute block size " + std::to_string(size) + " does not fit");
      }
      // The block's attributes: after the scope and size, to the end of the block (nothing when
      // a long scope ULEB128 passed the end).
      const uint64_t here = s.in.position(), end = block_start.position() + size;
      Cursor a{file, s.in.sub(here, end > here ? end - here : 0)};
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
        s.in = block_start;
        s.fail("unknown attribute scope tag " + std::to_string(scope));
      }
      while (!a.in.empty()) {
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
      s.in = block_start;
      s.in.skip(size);
    }
    c.in = sub_start;
    c.in.skip(len);
  }
  return out;
}

} // namespace abikit
