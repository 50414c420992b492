// A chat template file's entry in the JSON report: format "chat-template", its CT findings, and
// the templates it holds (names and lengths; their text is never written).
#include "tensorgate/report_writers.hpp"
#include "report/entry_head.hpp"

void tensorgate::write_chat_template_report_fields(JsonWriter& w, const ChatTemplateFileReport& r) {
  detail::write_entry_head(w, "chat-template", r.valid, r.bytes, r.findings, r.findings_dropped);
  w.key("summary");
  w.begin_object();
  w.field("template_count", r.template_count);
  w.key("templates");
  w.begin_array();
  for (const ChatTemplateInfo& t : r.templates) {
    w.begin_object();
    w.field("name", t.name);
    w.field("bytes", t.bytes);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.key("error");
  w.null();
}
