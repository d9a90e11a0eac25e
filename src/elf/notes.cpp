// Note decoding by owner: AMDGPU code-object notes (V2 "AMD" NT_AMD_HSA_* records and PAL
// metadata, V3+ "AMDGPU" NT_AMDGPU_METADATA MessagePack) and the common GNU notes. Names and
// the printed form follow llvm-readelf-14 (docs/elf.md lists where abikit differs).
#include "abikit/diag.h"
#include "abikit/elf.h"
#include "bytes.h"

#include <cstdio>

namespace abikit {

namespace {

using Kind = MsgPackNode::Kind;

/// The descriptor of `n`, in the file's byte order.
detail::EndianSlice descOf(const ElfFile& f, const ElfNote& n) {
  return detail::EndianSlice(n.desc, f.header().bigEndian(), f.name(), n.desc_offset);
}

[[noreturn]] void malformed(const ElfFile& f, const ElfNote& n, const std::string& what) {
  f.fail("malformed " + what + " note: descriptor of " + std::to_string(n.desc.size()) + " bytes",
         n.desc_offset);
}

std::string_view textOf(std::span<const uint8_t> d) {
  return std::string_view(reinterpret_cast<const char*>(d.data()), d.size());
}

// ----- the V3+ metadata schema (what llvm-readelf's verifier checks) --------------------------

class MetadataVerifier {
public:
  MetadataVerifier(const MsgPackDocument& d, std::vector<std::string>& p) : doc_(d), out_(p) {}

  void root() {
    const auto& nodes = doc_.nodes();
    if (nodes[0].kind != Kind::Map) {
      out_.push_back("the metadata is not a map");
      return;
    }
    size_t v = doc_.find(0, "amdhsa.version");
    if (!v)
      out_.push_back("required key 'amdhsa.version' is missing");
    else
      intArray(v, 2, "amdhsa.version");
    if (size_t p = doc_.find(0, "amdhsa.printf")) {
      if (!array(p, "amdhsa.printf")) return;
      each(p, [&](size_t e) {
        if (nodes[e].kind != Kind::String)
          out_.push_back("amdhsa.printf: an entry is not a string");
      });
    }
    if (size_t g = doc_.find(0, "amdhsa.globals")) {
      if (!array(g, "amdhsa.globals")) return;
      size_t i = 0;
      each(g, [&](size_t e) { global(e, "global " + std::to_string(i++)); });
    }
    size_t k = doc_.find(0, "amdhsa.kernels");
    if (!k) {
      out_.push_back("required key 'amdhsa.kernels' is missing");
      return;
    }
    if (!array(k, "amdhsa.kernels")) return;
    size_t index = 0;
    each(k, [&](size_t e) { kernel(e, index++); });
  }

private:
  template <class F> void each(size_t a, F f) {
    const auto& nodes = doc_.nodes();
    size_t i = a + 1;
    for (uint32_t k = 0; k < nodes[a].count; ++k) {
      f(i);
      i += nodes[i].subtree;
    }
  }
  bool array(size_t n, const std::string& what) {
    if (doc_.nodes()[n].kind == Kind::Array) return true;
    out_.push_back(what + " is not an array");
    return false;
  }
  bool isInt(size_t n) const {
    Kind k = doc_.nodes()[n].kind;
    return k == Kind::UInt || k == Kind::Int;
  }
  void intArray(size_t n, uint32_t size, const std::string& what) {
    if (!array(n, what)) return;
    if (doc_.nodes()[n].count != size)
      out_.push_back(what + " has " + std::to_string(doc_.nodes()[n].count) +
                     " entries (expected " + std::to_string(size) + ")");
    each(n, [&](size_t e) {
      if (!isInt(e)) out_.push_back(what + ": an entry is not an integer");
    });
  }
  enum class T { Int, String, Bool, IntArray2, IntArray3 };
  void entry(size_t map, std::string_view key, T type, bool required, const std::string& where,
             std::initializer_list<std::string_view> allowed = {}) {
    size_t v = doc_.find(map, key);
    std::string what = where + ": " + std::string(key);
    if (!v) {
      if (required) out_.push_back(where + ": required key '" + std::string(key) + "' is missing");
      return;
    }
    const MsgPackNode& n = doc_.nodes()[v];
    switch (type) {
    case T::Int:
      if (!isInt(v)) out_.push_back(what + " is not an integer");
      break;
    case T::Bool:
      if (n.kind != Kind::Bool) out_.push_back(what + " is not a boolean");
      break;
    case T::String:
      if (n.kind != Kind::String) {
        out_.push_back(what + " is not a string");
      } else if (allowed.size()) {
        bool ok = false;
        for (std::string_view a : allowed) ok |= n.str == a;
        if (!ok) out_.push_back(what + " has the unknown value '" + std::string(n.str) + "'");
      }
      break;
    case T::IntArray2:
      intArray(v, 2, what);
      break;
    case T::IntArray3:
      intArray(v, 3, what);
      break;
    }
  }

  void kernel(size_t k, size_t index) {
    const auto& nodes = doc_.nodes();
    std::string where = "kernel " + std::to_string(index);
    if (nodes[k].kind != Kind::Map) {
      out_.push_back(where + " is not a map");
      return;
    }
    if (size_t nm = doc_.find(k, ".name"); nm && nodes[nm].kind == Kind::String)
      where += " (" + std::string(nodes[nm].str) + ")";
    entry(k, ".name", T::String, true, where);
    entry(k, ".symbol", T::String, true, where);
    entry(k, ".language", T::String, false, where,
          {"OpenCL C", "OpenCL C++", "HCC", "HIP", "OpenMP", "Assembler"});
    entry(k, ".language_version", T::IntArray2, false, where);
    entry(k, ".reqd_workgroup_size", T::IntArray3, false, where);
    entry(k, ".workgroup_size_hint", T::IntArray3, false, where);
    entry(k, ".vec_type_hint", T::String, false, where);
    entry(k, ".device_enqueue_symbol", T::String, false, where);
    for (std::string_view key :
         {".kernarg_segment_size", ".group_segment_fixed_size", ".private_segment_fixed_size",
          ".kernarg_segment_align", ".wavefront_size", ".sgpr_count", ".vgpr_count",
          ".max_flat_workgroup_size"})
      entry(k, key, T::Int, true, where);
    for (std::string_view key : {".sgpr_spill_count", ".vgpr_spill_count", ".agpr_count"})
      entry(k, key, T::Int, false, where);
    entry(k, ".kind", T::String, false, where, {"normal", "init", "fini"});
    entry(k, ".uses_dynamic_stack", T::Bool, false, where);
    // Integers since code object v6 (clang-22 writes `.workgroup_processor_mode: 1`).
    for (std::string_view key : {".workgroup_processor_mode", ".uniform_work_group_size"})
      entry(k, key, T::Int, false, where);
    entry(k, ".cluster_dims", T::IntArray3, false, where);
    if (size_t a = doc_.find(k, ".args")) {
      if (!array(a, where + ": .args")) return;
      size_t i = 0;
      each(a, [&](size_t e) { argument(e, where + " argument " + std::to_string(i++)); });
    }
  }

  void global(size_t g, const std::string& where) {
    if (doc_.nodes()[g].kind != Kind::Map) {
      out_.push_back(where + " is not a map");
      return;
    }
    entry(g, ".name", T::String, true, where);
    entry(g, ".size", T::Int, true, where);
  }

  void argument(size_t a, const std::string& where) {
    if (doc_.nodes()[a].kind != Kind::Map) {
      out_.push_back(where + " is not a map");
      return;
    }
    entry(a, ".name", T::String, false, where);
    entry(a, ".type_name", T::String, false, where);
    entry(a, ".size", T::Int, true, where);
    entry(a, ".offset", T::Int, true, where);
    entry(a, ".value_kind", T::String, true, where,
          {"by_value",
           "global_buffer",
           "dynamic_shared_pointer",
           "sampler",
           "image",
           "pipe",
           "queue",
           "hidden_global_offset_x",
           "hidden_global_offset_y",
           "hidden_global_offset_z",
           "hidden_none",
           "hidden_printf_buffer",
           "hidden_hostcall_buffer",
           "hidden_default_queue",
           "hidden_completion_action",
           "hidden_multigrid_sync_arg",
           "hidden_block_count_x",
           "hidden_block_count_y",
           "hidden_block_count_z",
           "hidden_group_size_x",
           "hidden_group_size_y",
           "hidden_group_size_z",
           "hidden_remainder_x",
           "hidden_remainder_y",
           "hidden_remainder_z",
           "hidden_grid_dims",
           "hidden_heap_v1",
           "hidden_dynamic_lds_size",
           "hidden_private_base",
           "hidden_shared_base",
           "hidden_queue_ptr"});
    entry(a, ".pointee_align", T::Int, false, where);
    entry(a, ".address_space", T::String, false, where,
          {"private", "global", "constant", "local", "generic", "region"});
    entry(a, ".access", T::String, false, where, {"read_only", "write_only", "read_write"});
    entry(a, ".actual_access", T::String, false, where, {"read_only", "write_only", "read_write"});
    for (std::string_view key : {".is_const", ".is_restrict", ".is_volatile", ".is_pipe"})
      entry(a, key, T::Bool, false, where);
  }

  const MsgPackDocument& doc_;
  std::vector<std::string>& out_;
};

bool hasUnprintable(const MsgPackDocument& d) {
  for (const MsgPackNode& n : d.nodes())
    if (n.kind == Kind::Binary) return true;
  return false;
}

// ----- decoders ---------------------------------------------------------------------------------

/// The name and description of a known note type (elf_constants.def); unknown ones keep "".
void nameNote(const ElfNote& n, DecodedNote& out) {
#define ABIKIT_ELF_NT(Owner, Id, NAME, value, DESCRIPTION)                                         \
  if (n.name == #Owner && n.type == value) {                                                       \
    out.type_name = NAME;                                                                          \
    out.description = DESCRIPTION;                                                                 \
    return;                                                                                        \
  }
#include "abikit/elf_constants.def"
}

void decodeAmdgpu(const ElfFile& f, const ElfNote& n, DecodedNote& out) {
  if (n.type != kNtAmdgpuMetadata) return;
  MsgPackDocument doc = MsgPackDocument::parse(n.desc, f.name(), n.desc_offset);
  const MsgPackNode& root = doc.root();
  if (root.kind != Kind::Map && root.kind != Kind::Array) {
    out.problems.push_back("the metadata is a single MessagePack scalar, not a map");
  } else if (hasUnprintable(doc)) {
    out.problems.push_back("the metadata holds MessagePack binary values, which AMDGPU metadata "
                           "does not use; shown as raw bytes");
  } else {
    MetadataVerifier(doc, out.problems).root();
    out.body = (out.problems.empty() ? "" : "Invalid AMDGPU Metadata\n") + doc.toYaml();
    out.raw = false;
  }
  out.msgpack = std::move(doc);
}

void decodeAmd(const ElfFile& f, const ElfNote& n, DecodedNote& out) {
  const auto& d = n.desc;
  const detail::EndianSlice in = descOf(f, n);
  char buf[160];
  switch (n.type) {
  case kNtAmdHsaCodeObjectVersion: // u32 major, u32 minor
    if (d.size() != 8) malformed(f, n, out.type_name + " (expected 8 bytes)");
    std::snprintf(buf, sizeof buf, "[Major: %u, Minor: %u]", in.u32At(0), in.u32At(4));
    out.body = buf;
    out.fields = {{"major", std::to_string(in.u32At(0))}, {"minor", std::to_string(in.u32At(4))}};
    break;
  case kNtAmdHsaHsail: { // u32 major, u32 minor, u8 profile, u8 model, u8 round (+ pad)
    if (d.size() != 12) malformed(f, n, out.type_name + " (expected 12 bytes)");
    unsigned major = in.u32At(0), minor = in.u32At(4);
    std::snprintf(buf, sizeof buf,
                  "[HSAIL Major: %u, HSAIL Minor: %u, Profile: %u, Machine Model: %u, Default "
                  "Float Round: %u]",
                  major, minor, in.u8At(8), in.u8At(9), in.u8At(10));
    out.body = buf;
    out.fields = {{"hsail_major", std::to_string(major)},
                  {"hsail_minor", std::to_string(minor)},
                  {"profile", std::to_string(in.u8At(8))},
                  {"machine_model", std::to_string(in.u8At(9))},
                  {"default_float_round", std::to_string(in.u8At(10))}};
    break;
  }
  case kNtAmdHsaIsaVersion: { // u16 vendor size, u16 arch size, u32 major/minor/stepping
    if (d.size() < 16) malformed(f, n, out.type_name + " (shorter than 16 bytes)");
    size_t vsize = in.u16At(0), asize = in.u16At(2);
    if (vsize == 0 || asize == 0 || d.size() < 16 + vsize + asize)
      malformed(f, n, out.type_name + " (name sizes do not fit)");
    auto name = [&](size_t at, size_t size) {
      std::string_view s(reinterpret_cast<const char*>(d.data()) + at, size - 1);
      return s.substr(0, s.find('\0'));
    };
    std::string vendor(name(16, vsize)), arch(name(16 + vsize, asize));
    unsigned major = in.u32At(4), minor = in.u32At(8), stepping = in.u32At(12);
    out.body = "[Vendor: " + vendor + ", Architecture: " + arch +
               ", Major: " + std::to_string(major) + ", Minor: " + std::to_string(minor) +
               ", Stepping: " + std::to_string(stepping) + "]";
    out.fields = {{"vendor", vendor},
                  {"architecture", arch},
                  {"major", std::to_string(major)},
                  {"minor", std::to_string(minor)},
                  {"stepping", std::to_string(stepping)}};
    break;
  }
  case kNtAmdHsaMetadata: { // YAML text
    std::string_view t = textOf(d);
    if (!t.empty() && (t.back() == '\0' || t.back() == '\n')) t.remove_suffix(1);
    out.body = std::string(t);
    out.text = std::string(textOf(d).substr(0, textOf(d).find('\0')));
    break;
  }
  case kNtAmdHsaIsaName: {
    std::string_view t = textOf(d);
    t = t.substr(0, t.find('\0'));
    out.body = std::string(t);
    out.fields = {{"isa_name", std::string(t)}};
    break;
  }
  case kNtAmdPalMetadata: { // (u32 key, u32 value) pairs
    if (d.size() % 8 != 0) malformed(f, n, out.type_name + " (not a list of 8-byte pairs)");
    for (size_t i = 0; i < d.size(); i += 8) {
      std::string k = std::to_string(in.u32At(i));
      std::string v = std::to_string(in.u32At(i + 4));
      out.body += "[" + k + ": " + v + "]";
      out.fields.emplace_back(k, v);
    }
    break;
  }
  default:
    return;
  }
  out.raw = false;
}

void decodeGnu(const ElfFile& f, const ElfNote& n, DecodedNote& out) {
  const auto& d = n.desc;
  const detail::EndianSlice in = descOf(f, n);
  out.body_indented = false;
  switch (n.type) {
  case kNtGnuAbiTag: { // u32 os, u32 major, minor, patch
    if (d.size() < 16) malformed(f, n, out.type_name + " (shorter than 16 bytes)");
    static const char* const kOs[] = {"Linux",  "Hurd",     "Solaris", "FreeBSD",
                                      "NetBSD", "Syllable", "NaCl"};
    uint32_t os = in.u32At(0);
    std::string abi = std::to_string(in.u32At(4)) + "." + std::to_string(in.u32At(8)) + "." +
                      std::to_string(in.u32At(12));
    std::string osname = os < 7 ? kOs[os] : "Unknown";
    out.body = "OS: " + osname + ", ABI: " + abi;
    out.fields = {{"os", osname}, {"abi", abi}};
    break;
  }
  case kNtGnuBuildId: {
    static const char kHex[] = "0123456789abcdef";
    std::string id;
    for (uint8_t b : d) {
      id += kHex[b >> 4];
      id += kHex[b & 15];
    }
    out.body = "Build ID: " + id;
    out.fields = {{"build_id", id}};
    break;
  }
  case kNtGnuGoldVersion: {
    std::string_view t = textOf(d);
    t = t.substr(0, t.find('\0'));
    out.body = "Version: " + std::string(t);
    out.fields = {{"version", std::string(t)}};
    break;
  }
  default: // NT_GNU_HWCAP, NT_GNU_PROPERTY_TYPE_0 (named, shown raw), unknown types
    return;
  }
  out.raw = false;
}

} // namespace

DecodedNote decodeNote(const ElfFile& file, const ElfNote& note) {
  DecodedNote out;
  nameNote(note, out);
  if (note.name == "AMDGPU")
    decodeAmdgpu(file, note, out);
  else if (note.name == "AMD")
    decodeAmd(file, note, out);
  else if (note.name == "GNU")
    decodeGnu(file, note, out);
  return out;
}

} // namespace abikit
