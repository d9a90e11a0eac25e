// `abikit compat`: the comparison of one header's records on several targets as text, as JSON
// (cli-contract.md) and as one C assertion file per target.
#include "abikit/compat.h"

#include "abikit/emit.h"
#include "json_writer.h"

namespace abikit {

namespace {

using Json = detail::JsonWriter<detail::kJsonLines>;

} // namespace

std::string compatText(std::span<const std::string> targets,
                       std::span<const CompatRecord> records) {
  std::string o = "targets:";
  for (size_t i = 0; i < targets.size(); ++i)
    o += " [" + std::to_string(i + 1) + "] " + targets[i] + (i + 1 < targets.size() ? ";" : "");
  o += "\n";
  size_t differ = 0;
  for (const CompatRecord& r : records) {
    o += "\n" + r.name + ": ";
    if (r.same()) {
      const CompatLayout& l = r.layouts.front();
      o += "same (size " + std::to_string(l.size) + ", align " + std::to_string(l.align) + ")\n";
    } else {
      ++differ;
      o += "differs\n";
      for (const CompatDifference& d : r.differences)
        o += "  " + (d.field.empty() ? std::string() : "'" + d.field + "' ") + d.what + ": " +
             compatValues(d.values, "absent") + "\n";
    }
    for (const std::string& n : r.notes) o += "  note: " + n + "\n";
  }
  o +=
      "\n" + std::to_string(differ) + " of " + std::to_string(records.size()) + " records differ\n";
  return o;
}

std::string compatJson(std::span<const std::string> targets,
                       std::span<const CompatRecord> records) {
  detail::TextBuffer out(256 + records.size() * 256);
  Json j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.key("targets");
  j.beginArray();
  for (const std::string& t : targets) j.value(std::string_view(t));
  j.endArray();
  j.breakLine(1);
  j.key("records");
  j.beginArray();
  for (const CompatRecord& r : records) {
    j.breakLine(2);
    j.beginObject();
    j.field("name", std::string_view(r.name));
    j.field("same", r.same());
    j.key("layouts");
    j.beginArray();
    for (size_t i = 0; i < r.layouts.size(); ++i) {
      j.beginObject();
      j.field("target", std::string_view(targets[i]));
      if (r.layouts[i].present) {
        j.field("size", r.layouts[i].size);
        j.field("align", r.layouts[i].align);
      } else {
        j.field("present", false);
      }
      j.endObject();
    }
    j.endArray();
    j.key("differences");
    j.beginArray();
    for (const CompatDifference& d : r.differences) {
      j.beginObject();
      if (!d.field.empty()) j.field("field", std::string_view(d.field));
      j.field("what", std::string_view(d.what));
      j.key("values");
      j.beginArray();
      for (const auto& v : d.values) j.value(v);
      j.endArray();
      j.endObject();
    }
    j.endArray();
    if (!r.notes.empty()) {
      j.key("notes");
      j.value(r.notes);
    }
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

std::vector<CompatAssertFile> compatCAsserts(std::span<const CompatSide> sides,
                                             std::string_view prelude) {
  std::vector<CompatAssertFile> files;
  for (size_t i = 0; i < sides.size(); ++i) {
    // Each target checks the layout the others rely on: the first target's, and for the
    // first target the second's.
    const CompatSide& ref = sides[i == 0 && sides.size() > 1 ? 1 : 0];
    files.push_back({sides[i].layout->context().target().spelling,
                     ref.layout->context().target().spelling,
                     layoutCAsserts(*ref.layout, ref.records, prelude)});
  }
  return files;
}

} // namespace abikit
