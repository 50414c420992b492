// The CTranslate2 summary as JSON: the version, the spec, the variables with where their data
// is, and the aliases.
#include "ctranslate2/report_writers.hpp"

namespace tensorgate::detail {

Steps write_ctranslate2_summary(StepContext& c, const CTranslate2Summary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "ctranslate2");
  w.field("binary_version", std::uint64_t{s.binary_version});
  w.field("spec_name", s.spec_name);
  w.field("spec_revision", std::uint64_t{s.spec_revision});
  w.field("variable_count", s.variable_count);
  w.field("alias_count", s.alias_count);
  w.field("total_bytes", s.total_bytes);
  w.field("parameters", s.parameters);
  if (options.include_tensors) {
    co_await write_records(c, "variables", s.variables, [](JsonWriter& out, const CTranslate2Variable& v) {
      out.field("name", v.name);
      out.field("dtype", v.dtype);
      out.key("shape");
      write_shape(out, v.shape);
      out.field("offset", v.offset);
      out.field("bytes", v.bytes);
    }, "variables_not_listed", s.variables_not_listed);
  }
  co_await write_records(c, "aliases", s.aliases, [](JsonWriter& out, const CTranslate2Alias& a) {
    out.field("name", a.name);
    out.field("target", a.target);
  }, "aliases_not_listed", s.aliases_not_listed);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(CTranslate2Summary, write_ctranslate2_summary, ctranslate2_text_facts)
