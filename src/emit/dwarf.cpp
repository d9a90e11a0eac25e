// `abikit dwarf-expr decode --json`: the operations of a DWARF expression.
#include "abikit/emit.h"
#include "json_writer.h"

namespace abikit {

std::string dwarfExprJson(const dwarf::Expression& expr, const dwarf::DisplayOptions* display) {
  detail::TextBuffer out;
  detail::JsonWriter<detail::kJsonCompact> j(out);
  j.beginObject();
  j.field("schema", "abikit/1");
  j.key("ops");
  j.beginArray();
  for (size_t i = 0; i < expr.ops.size(); i = expr.endOf(i)) {
    j.beginObject();
    j.field("offset", uint64_t(expr.ops[i].offset));
    j.field("size", uint64_t(expr.ops[i].size));
    j.field("text", display ? dwarf::opDisplay(expr, i, *display) : dwarf::opText(expr, i));
    j.endObject();
  }
  j.endArray();
  j.endObject();
  out.put('\n');
  return out.take();
}

} // namespace abikit
