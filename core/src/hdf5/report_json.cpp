// The HDF5 summary as JSON: the superblock, the root group's attributes, and what a Keras
// model's attributes say.
#include "hdf5/report_writers.hpp"

namespace tensorgate::detail {
namespace {

Steps write_keras(StepContext& c, const Hdf5Summary& s) {
  JsonWriter& w = c.w;
  w.key("keras");
  if (!s.keras) {
    w.null();
    co_return;
  }
  w.begin_object();
  w.field("keras_version", s.keras_version);
  w.field("backend", s.backend);
  w.field("training_config", s.training_config);
  w.key("model");
  if (s.model) write_keras_summary_json(w, *s.model);
  else w.null();
  w.end_object();
  co_return;
}

}  // namespace

Steps write_hdf5_summary(StepContext& c, const Hdf5Summary& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "hdf5");
  w.field("superblock_version", std::uint64_t{s.superblock_version});
  w.field("user_block", s.user_block);
  w.field("offset_size", std::uint64_t{s.offset_size});
  w.field("length_size", std::uint64_t{s.length_size});
  w.field("root_header", s.root_header);
  w.field("root_header_version", std::uint64_t{s.root_header_version});
  co_await write_records(c, "attributes", s.attributes, [](JsonWriter& out, const Hdf5Attribute& a) {
    out.field("name", a.name);
    out.field("type", a.type);
    out.field("element_size", a.element_size);
    out.key("shape");
    write_shape(out, a.shape);
    out.field("bytes", a.bytes);
    out.field("preview", a.preview);
  }, "attributes_not_listed", s.attributes_not_listed);
  co_await write_keras(c, s);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(Hdf5Summary, write_hdf5_summary, hdf5_text_facts)
