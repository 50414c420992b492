#include "report/entry_head.hpp"

#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {

void write_entry_head(JsonWriter& w, std::optional<std::string_view> format, bool valid, std::uint64_t bytes,
                      std::span<const Finding> findings, std::uint64_t findings_dropped) {
  w.key("format");
  if (format) w.string(*format); else w.null();
  w.field("valid", valid);
  w.key("canonical");
  w.null();
  w.field("bytes", bytes);
  w.key("findings");
  w.begin_array();
  for (const Finding& f : findings) write_finding(w, f);
  w.end_array();
  w.field("findings_dropped", findings_dropped);
  w.key("aborted");
  w.null();
}

}  // namespace tensorgate::detail
