// A chat template file's entry in the JSON report: format "chat-template", its CT findings, and
// the templates it holds (names and lengths; their text is never written).
#include "tensorgate/report_writers.hpp"

void tensorgate::write_chat_template_report_fields(JsonWriter& w, const ChatTemplateFileReport& r) {
  w.field("format", "chat-template");
  w.field("valid", r.valid);
  w.key("canonical");
  w.null();
  w.field("bytes", r.bytes);
  w.key("findings");
  w.begin_array();
  for (const Finding& f : r.findings) write_finding(w, f);
  w.end_array();
  w.field("findings_dropped", r.findings_dropped);
  w.key("aborted");
  w.null();
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
