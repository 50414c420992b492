// The zip summary as JSON: its entries, a PyTorch archive's storages, the pickles and arrays
// inside.
#include "members/archive_json.hpp"
#include "zip/report_writers.hpp"

namespace tensorgate::detail {
namespace {

// "pytorch": what a torch.save archive holds, or null for another zip.
Steps write_pytorch_archive(StepContext& c, const ZipSummary& s) {
  JsonWriter& w = c.w;
  w.key("pytorch");
  if (!s.pytorch_archive) {
    w.null();
    co_return;
  }
  w.begin_object();
  w.field("archive", *s.pytorch_archive);
  w.key("data_pkl_valid");
  if (s.data_pkl_valid) w.boolean(*s.data_pkl_valid); else w.null();
  co_await write_records(c, "storages", s.storages, [](JsonWriter& out, const ZipStorage& st) {
    out.field("key", st.key);
    out.field("entry", st.entry);
    out.field("bytes", st.bytes);
    out.field("dtype", st.dtype);
    out.field("numel", st.numel);
  }, "storages_not_listed", s.storages_not_listed);
  w.end_object();
}

// "torchscript": a TorchScript archive's code, or null for another zip.
Steps write_torchscript(StepContext& c, const ZipSummary& s) {
  JsonWriter& w = c.w;
  w.key("torchscript");
  if (!s.torchscript) {
    w.null();
    co_return;
  }
  const ZipTorchScript& ts = *s.torchscript;
  w.begin_object();
  w.field("archive", ts.archive);
  w.field("bytecode", ts.bytecode);
  co_await write_records(c, "classes", ts.classes, [](JsonWriter& out, const std::string& name) { out.field("name", name); },
                         "classes_not_listed", ts.classes_not_listed);
  co_await write_records(c, "code_files", ts.code_files, [](JsonWriter& out, const std::string& name) { out.field("entry", name); },
                         "code_files_not_listed", ts.code_files_not_listed);
  w.end_object();
}

// "keras": what a .keras archive's config.json says, or null.
Steps write_keras(StepContext& c, const ZipSummary& s) {
  c.w.key("keras");
  if (s.keras) write_keras_summary_json(c.w, *s.keras);
  else c.w.null();
  co_return;
}

}  // namespace

Steps write_zip_summary(StepContext& c, const ZipSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "zip");
  w.field("entries", s.entries);
  w.field("zip64", s.zip64);
  w.field("central_directory_offset", s.central_directory_offset);
  co_await write_records(c, "entry_list", s.entry_list, [](JsonWriter& out, const ZipEntryInfo& e) {
    out.field("name", e.name);
    out.field("method", e.method == 8 ? "deflate" : e.method == 0 ? "stored" : "other");
    out.field("offset", e.offset);
    out.field("compressed", e.compressed);
    out.field("uncompressed", e.uncompressed);
    out.field("content", e.content);
  }, "entries_not_listed", s.entries_not_listed);
  co_await write_pytorch_archive(c, s);
  co_await write_torchscript(c, s);
  co_await write_keras(c, s);
  co_await write_archive_pickles(c, s.pickles, s.pickles_not_listed, options);
  co_await write_archive_arrays(c, s.arrays, options);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(ZipSummary, write_zip_summary, zip_text_facts)
