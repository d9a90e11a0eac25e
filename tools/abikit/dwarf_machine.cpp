// The --machine file of the DWARF commands (cli-contract.md "DWARF"): JSON through nlohmann-json.
#include "dwarf_machine.h"

#include "abikit/cparse.h"
#include "abikit/diag.h"
#include "cli.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace abikit::cli {

namespace {

using nlohmann::json;

constexpr uint64_t kMaxMachineFile = uint64_t(16) << 20;

struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw Error(ErrorKind::Input, file + ": " + where + ": " + what);
  }
  const json& get(const json& o, const char* key, const std::string& where) const {
    if (!o.is_object() || !o.contains(key)) fail(where, std::string("\"") + key + "\" is missing");
    return o.at(key);
  }
  std::string str(const json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "a string is expected");
    return v.get<std::string>();
  }
  // "0x1f" or a JSON number, at most 64 bits.
  uint64_t number(const json& v, const std::string& where) const {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return uint64_t(v.get<int64_t>());
    std::vector<uint8_t> b = bigHex(v, where, 8);
    uint64_t n = 0;
    for (size_t i = b.size(); i-- > 0;) n = n << 8 | b[i];
    return n;
  }
  // "0x..." of at most `max_bytes` bytes, least significant byte first.
  std::vector<uint8_t> bigHex(const json& v, const std::string& where, size_t max_bytes) const {
    std::string s = str(v, where);
    if (s.size() < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
      fail(where, "\"" + s.substr(0, 40) + "\" is not a 0x-prefixed hexadecimal number");
    std::vector<uint8_t> out;
    size_t digits = 0;
    for (size_t i = s.size(); i-- > 2;) {
      char c = s[i];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) fail(where, "\"" + s.substr(0, 40) + "\" is not a hexadecimal number");
      if (digits % 2 == 0)
        out.push_back(uint8_t(d));
      else
        out.back() = uint8_t(out.back() | d << 4);
      ++digits;
    }
    while (out.size() > 1 && out.back() == 0) out.pop_back();
    if (out.size() > max_bytes)
      fail(where,
           "\"" + s.substr(0, 40) + "\" does not fit in " + std::to_string(max_bytes) + " bytes");
    return out;
  }
  // "01 02 03": bytes in order.
  std::vector<uint8_t> bytes(const json& v, const std::string& where) const {
    std::vector<uint8_t> out;
    appendHexBytes(str(v, where), file + ": " + where, out);
    return out;
  }
};

struct NamedCode {
  const char* name;
  uint16_t code;
};
constexpr NamedCode kTags[] = {
    {"base_type", 0x24}, {"dwarf_procedure", 0x36}, {"variable", 0x34},  {"formal_parameter", 0x05},
    {"constant", 0x27},  {"member", 0x0d},          {"subprogram", 0x2e}};
constexpr NamedCode kEncodings[] = {
    {"address", 0x01},  {"boolean", 0x02},       {"complex_float", 0x03},
    {"float", 0x04},    {"signed", 0x05},        {"signed_char", 0x06},
    {"unsigned", 0x07}, {"unsigned_char", 0x08}, {"UTF", 0x10}};

uint16_t code(const Reader& r, const json& v, std::span<const NamedCode> table,
              const std::string& where) {
  if (v.is_number()) return uint16_t(r.number(v, where));
  std::string s = r.str(v, where);
  for (const NamedCode& n : table)
    if (s == n.name) return n.code;
  r.fail(where, "unknown name \"" + s.substr(0, 40) + "\"");
}

} // namespace

MachineFile::MachineFile(const std::string& path, const Target& target,
                         const dwarf::ExprFormat& format)
    : target_(target) {
  Reader r{path};
  std::string text = readSourceFile(path, kMaxMachineFile, 0);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw Error::atOffset(std::string("the machine state is not JSON: ") + e.what(), path,
                          e.byte ? e.byte - 1 : 0);
  }
  if (!j.is_object()) r.fail("top level", "an object is expected");
  DwarfTargetInfo info = target.dwarf; // with the machine's wavefront size
  lanes_ = info.lanes;
  if (j.contains("wavefront_size")) {
    uint64_t w = r.number(j["wavefront_size"], "wavefront_size");
    if (info.lanes <= 1 || (w != 32 && w != 64))
      r.fail("wavefront_size", std::to_string(w) + " is not a wavefront size of " + target.triple);
    lanes_ = uint32_t(w);
    info.lanes = lanes_;
  }
  if (j.contains("lane")) {
    uint64_t l = r.number(j["lane"], "lane");
    if (l >= std::max<uint32_t>(lanes_, 1))
      r.fail("lane", "lane " + std::to_string(l) + " of a wave of " + std::to_string(lanes_));
    lane_ = uint32_t(l);
  }
  auto regNumber = [&](const json& v, const std::string& where) -> uint32_t {
    int64_t reg = v.is_string() && v.get<std::string>().rfind("0x", 0) != 0
                      ? dwarfRegisterNumber(info, v.get<std::string>())
                      : int64_t(r.number(v, where));
    if (reg < 0 || reg > INT32_MAX || !info.findRegister(uint32_t(reg)))
      r.fail(where, "not a DWARF register of " + target.triple +
                        (lanes_ > 1 ? " in wave" + std::to_string(lanes_) + " code" : ""));
    return uint32_t(reg);
  };
  if (j.contains("registers")) {
    const json& a = j["registers"];
    if (!a.is_array()) r.fail("registers", "an array is expected");
    for (size_t i = 0; i < a.size(); ++i) {
      std::string w = "registers[" + std::to_string(i) + "]";
      uint32_t reg = regNumber(r.get(a[i], "reg", w), w + ".reg");
      const DwarfRegisterRange* range = info.findRegister(reg);
      Register& R = regs_[reg];
      R.bits = range->bits;
      R.lane_bits = range->lane_bits;
      if (a[i].contains("bits")) R.bits = uint32_t(r.number(a[i]["bits"], w + ".bits"));
      if (R.bits == 0 || R.bits > 65536)
        r.fail(w, "the register's size is not fixed by the target: give \"bits\"");
      R.bytes.assign((R.bits + 7) / 8, 0);
      R.known.assign(R.bytes.size(), false);
      if (a[i].contains("lanes")) {
        const json& l = a[i]["lanes"];
        if (!R.lane_bits) r.fail(w, "not a register with lanes");
        if (!l.is_array() || l.size() > R.bits / R.lane_bits)
          r.fail(w + ".lanes",
                 "at most " + std::to_string(R.bits / R.lane_bits) + " lane values are expected");
        for (size_t k = 0; k < l.size(); ++k) {
          std::vector<uint8_t> v =
              r.bigHex(l[k], w + ".lanes[" + std::to_string(k) + "]", R.lane_bits / 8);
          size_t at = k * (R.lane_bits / 8);
          std::copy(v.begin(), v.end(), R.bytes.begin() + ptrdiff_t(at));
          std::fill(R.known.begin() + ptrdiff_t(at),
                    R.known.begin() + ptrdiff_t(at + R.lane_bits / 8), true);
        }
      } else {
        std::vector<uint8_t> v = r.bigHex(r.get(a[i], "value", w), w + ".value", R.bytes.size());
        std::copy(v.begin(), v.end(), R.bytes.begin());
        R.known.assign(R.bytes.size(), true);
      }
    }
  }
  auto spaceNumber = [&](const json& v, const std::string& where) -> uint32_t {
    int64_t sp =
        v.is_number() ? int64_t(r.number(v, where)) : dwarfSpaceNumber(info, r.str(v, where));
    if (sp < 0 || sp > INT32_MAX || (sp != 0 && !info.findSpace(uint32_t(sp))))
      r.fail(where, "not an address space of " + target.triple);
    return uint32_t(sp);
  };
  if (j.contains("memory")) {
    const json& a = j["memory"];
    if (!a.is_array()) r.fail("memory", "an array is expected");
    for (size_t i = 0; i < a.size(); ++i) {
      std::string w = "memory[" + std::to_string(i) + "]";
      uint32_t sp = a[i].contains("space") ? spaceNumber(a[i]["space"], w + ".space") : 0;
      uint64_t at = r.number(r.get(a[i], "address", w), w + ".address");
      std::vector<uint8_t> b = r.bytes(r.get(a[i], "bytes", w), w + ".bytes");
      for (size_t k = 0; k < b.size(); ++k) memory_[{sp, at + k}] = b[k];
    }
  }
  if (j.contains("apertures")) {
    const json& o = j["apertures"];
    if (!o.is_object()) r.fail("apertures", "an object is expected");
    for (auto it = o.begin(); it != o.end(); ++it) {
      // "private" is the lane's view of private memory.
      std::string name = it.key() == "private" ? "private_lane" : it.key();
      int64_t sp = dwarfSpaceNumber(info, name);
      if (sp <= 0) r.fail("apertures." + it.key(), "not an address space of " + target.triple);
      apertures_.push_back({uint32_t(sp), r.number(it.value(), "apertures." + it.key())});
    }
  }
  auto expr = [&](const char* key) -> std::optional<dwarf::Expression> {
    if (!j.contains(key)) return std::nullopt;
    try {
      return dwarf::assemble(r.str(j[key], key), format);
    } catch (const Error& e) {
      r.fail(key, e.message());
    }
  };
  frame_base_ = expr("frame_base");
  object_ = expr("object_address");
  cfa_ = expr("cfa");
  if (j.contains("entry_values")) {
    const json& a = j["entry_values"];
    if (!a.is_array()) r.fail("entry_values", "an array is expected");
    for (size_t i = 0; i < a.size(); ++i) {
      std::string w = "entry_values[" + std::to_string(i) + "]";
      uint32_t reg = regNumber(r.get(a[i], "reg", w), w + ".reg");
      entry_[reg] = r.bigHex(r.get(a[i], "value", w), w + ".value", 8);
    }
  }
  if (j.contains("dies")) {
    const json& a = j["dies"];
    if (!a.is_array()) r.fail("dies", "an array is expected");
    for (size_t i = 0; i < a.size(); ++i) {
      std::string w = "dies[" + std::to_string(i) + "]";
      uint64_t off = r.number(r.get(a[i], "offset", w), w + ".offset");
      Die d;
      d.tag = code(r, r.get(a[i], "tag", w), kTags, w + ".tag");
      if (d.tag == dwarf::kTagBaseType) {
        uint64_t size = r.number(r.get(a[i], "byte_size", w), w + ".byte_size");
        uint64_t count =
            a[i].contains("vector_size") ? r.number(a[i]["vector_size"], w + ".vector_size") : 1;
        if (size == 0 || size > 8192 || count > 65536)
          r.fail(w, "a base type of " + std::to_string(size) + " bytes and " +
                        std::to_string(count) + " elements is not supported");
        d.base.elem_bits = uint32_t(size * 8);
        d.base.vector_count = uint32_t(count);
        d.base.encoding = uint8_t(code(r, r.get(a[i], "encoding", w), kEncodings, w + ".encoding"));
      }
      for (const char* key : {"location", "location_list"}) {
        if (!a[i].contains(key)) continue;
        try {
          d.location = dwarf::encode(dwarf::parseText(r.str(a[i][key], w + "." + key)), format);
        } catch (const Error& e) {
          r.fail(w + "." + key, e.message());
        }
        d.has_location = true;
        d.is_list = std::string_view(key) == "location_list";
      }
      if (a[i].contains("const_value")) {
        d.const_value = r.bytes(a[i]["const_value"], w + ".const_value");
        d.has_const = true;
      }
      dies_[off] = std::move(d);
    }
  }
}

void MachineFile::configure(dwarf::EvalOptions& o) const {
  o.lanes = lanes_;
  o.lane = lane_;
  o.subprogram_lanes = lanes_ > 1 ? lanes_ : 0;
  o.apertures = apertures_;
  o.frame_base = frame_base_;
  o.object_address = object_;
  o.cfa = cfa_;
}

bool MachineFile::readRegister(uint32_t reg, uint64_t byte_offset, std::span<uint8_t> out) {
  auto it = regs_.find(reg);
  if (it == regs_.end() || byte_offset + out.size() > it->second.bytes.size()) return false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!it->second.known[byte_offset + i]) return false;
    out[i] = it->second.bytes[byte_offset + i];
  }
  return true;
}

bool MachineFile::writeRegister(uint32_t reg, uint64_t byte_offset, std::span<const uint8_t> in) {
  auto it = regs_.find(reg);
  if (it == regs_.end() || byte_offset + in.size() > it->second.bytes.size()) return false;
  regs_before_.emplace(reg, it->second.bytes);
  std::copy(in.begin(), in.end(), it->second.bytes.begin() + ptrdiff_t(byte_offset));
  return true;
}

bool MachineFile::readMemory(uint32_t space, uint64_t address, std::span<uint8_t> out) {
  for (size_t i = 0; i < out.size(); ++i) {
    auto it = memory_.find({space, address + i});
    if (it == memory_.end()) return false;
    out[i] = it->second;
  }
  return true;
}

bool MachineFile::writeMemory(uint32_t space, uint64_t address, std::span<const uint8_t> in) {
  for (size_t i = 0; i < in.size(); ++i) {
    auto it = memory_.find({space, address + i});
    if (it == memory_.end()) return false;
    it->second = in[i];
    mem_written_[{space, address + i}] = in[i];
  }
  return true;
}

uint32_t MachineFile::registerBits(uint32_t reg) {
  auto it = regs_.find(reg);
  return it == regs_.end() ? 0 : it->second.bits;
}

bool MachineFile::entryValue(uint32_t reg, std::span<uint8_t> out) {
  auto it = entry_.find(reg);
  if (it == entry_.end()) return false;
  std::fill(out.begin(), out.end(), 0);
  std::copy_n(it->second.begin(), std::min(out.size(), it->second.size()), out.begin());
  return true;
}

bool MachineFile::byUnitOffset(uint64_t offset, dwarf::DieInfo& out) {
  auto it = dies_.find(offset);
  if (it == dies_.end()) return false;
  const Die& d = it->second;
  out.tag = d.tag;
  out.has_location = d.has_location;
  out.location_is_list = d.is_list;
  out.location = d.location;
  out.has_const_value = d.has_const;
  out.const_value = d.const_value;
  out.base_type = d.base;
  return true;
}

// One unit at offset 0: unit and section offsets are the same.
bool MachineFile::bySectionOffset(uint64_t offset, dwarf::DieInfo& out) {
  return byUnitOffset(offset, out);
}

dwarf::MachineWrites MachineFile::written() const {
  dwarf::MachineWrites w;
  for (const auto& [reg, before] : regs_before_) {
    const Register& R = regs_.at(reg);
    if (R.lane_bits) {
      const size_t lb = R.lane_bits / 8;
      for (size_t l = 0; l * lb < R.bytes.size(); ++l)
        if (!std::equal(before.begin() + ptrdiff_t(l * lb), before.begin() + ptrdiff_t(l * lb + lb),
                        R.bytes.begin() + ptrdiff_t(l * lb)))
          w.lanes.push_back(
              {reg,
               uint32_t(l),
               {R.bytes.begin() + ptrdiff_t(l * lb), R.bytes.begin() + ptrdiff_t(l * lb + lb)}});
    } else {
      w.registers.push_back({reg, R.bytes});
    }
  }
  for (const auto& [key, byte] : mem_written_) {
    if (!w.memory.empty() && w.memory.back().space == key.first &&
        w.memory.back().address + w.memory.back().bytes.size() == key.second)
      w.memory.back().bytes.push_back(byte);
    else
      w.memory.push_back({key.first, key.second, {byte}});
  }
  return w;
}

std::string MachineFile::spaceName(uint32_t space) const {
  return dwarfSpaceName(target_.dwarf, space);
}

} // namespace abikit::cli
