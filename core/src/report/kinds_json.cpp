// The summaries of zips, tars, .npy files, LFS pointers and unknown content, and the dispatch for
// every kind beyond safetensors and GGUF.
#include "report/kinds_json.hpp"

namespace tensorgate::detail {
void write_shape(JsonWriter& w, const std::vector<std::uint64_t>& shape) {
  w.begin_array();
  for (const std::uint64_t d : shape) w.number(d);
  w.end_array();
}

Steps write_npy_summary(StepContext& c, const NpySummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "npy");
  w.field("version", std::to_string(s.major) + "." + std::to_string(s.minor));
  w.field("descr", s.descr);
  w.field("fortran_order", s.fortran_order);
  w.key("shape");
  write_shape(w, s.shape);
  w.field("header_length", s.header_length);
  w.field("data_offset", s.data_offset);
  w.field("data_bytes", s.data_bytes);
  w.key("item_size");
  if (s.item_size) w.number(*s.item_size); else w.null();
  w.field("object", s.object);
  w.key("pickle");
  if (s.pickle) co_await write_pickle_summary(c, *s.pickle, options); else w.null();
  w.end_object();
}

namespace {

// "entry_list" and "entries_not_listed".
Steps write_zip_entry_list(StepContext& c, const ZipSummary& s) {
  JsonWriter& w = c.w;
  w.key("entry_list");
  w.begin_array();
  for (const ZipEntryInfo& e : s.entry_list) {
    w.begin_object();
    w.field("name", e.name);
    w.field("method", e.method == 8 ? "deflate" : e.method == 0 ? "stored" : "other");
    w.field("offset", e.offset);
    w.field("compressed", e.compressed);
    w.field("uncompressed", e.uncompressed);
    w.field("content", e.content);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
  w.field("entries_not_listed", s.entries_not_listed);
}

// "pytorch": what a torch.save archive holds, or null for another zip.
Steps write_pytorch_archive(StepContext& c, const ZipSummary& s) {
  JsonWriter& w = c.w;
  w.key("pytorch");
  if (s.pytorch_archive) {
    w.begin_object();
    w.field("archive", *s.pytorch_archive);
    w.key("data_pkl_valid");
    if (s.data_pkl_valid) w.boolean(*s.data_pkl_valid); else w.null();
    w.key("storages");
    w.begin_array();
    for (const ZipStorage& st : s.storages) {
      w.begin_object();
      w.field("key", st.key);
      w.field("entry", st.entry);
      w.field("bytes", st.bytes);
      w.field("dtype", st.dtype);
      w.field("numel", st.numel);
      w.end_object();
      co_await c.pause();
    }
    w.end_array();
    w.field("storages_not_listed", s.storages_not_listed);
    w.end_object();
  } else {
    w.null();
  }
}

}  // namespace

// "pickles" and "pickles_not_listed": the pickles inside an archive (a zip's entries, a tar's members).
Steps write_archive_pickles(StepContext& c, const std::vector<ZipPickle>& pickles, std::uint64_t not_listed,
                            const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.key("pickles");
  w.begin_array();
  for (const ZipPickle& p : pickles) {
    w.begin_object();
    w.field("entry", p.entry);
    w.field("valid", p.valid);
    w.key("summary");
    co_await write_pickle_summary(c, p.summary, options);
    w.end_object();
  }
  w.end_array();
  w.field("pickles_not_listed", not_listed);
}

Steps write_zip_summary(StepContext& c, const ZipSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "zip");
  w.field("entries", s.entries);
  w.field("zip64", s.zip64);
  w.field("central_directory_offset", s.central_directory_offset);
  co_await write_zip_entry_list(c, s);
  co_await write_pytorch_archive(c, s);
  co_await write_archive_pickles(c, s.pickles, s.pickles_not_listed, options);
  w.key("arrays");
  w.begin_array();
  for (const NpySummary& a : s.arrays) co_await write_npy_summary(c, a, options);
  w.end_array();
  w.end_object();
}

Steps write_tar_summary(StepContext& c, const TarSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "tar");
  w.field("members", s.members);
  w.field("torch_legacy", s.torch_legacy);
  w.key("member_list");
  w.begin_array();
  for (const TarMemberInfo& m : s.member_list) {
    w.begin_object();
    w.field("name", m.name);
    w.field("type", m.type);
    w.field("offset", m.offset);
    w.field("size", m.size);
    w.field("content", m.content);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
  w.field("members_not_listed", s.members_not_listed);
  co_await write_archive_pickles(c, s.pickles, s.pickles_not_listed, options);
  w.key("arrays");
  w.begin_array();
  for (const NpySummary& a : s.arrays) co_await write_npy_summary(c, a, options);
  w.end_array();
  w.field("trailing_bytes", s.trailing_bytes);
  w.end_object();
}

bool has_kind_summary(const Report& r) { return r.pickle || r.zip || r.npy || r.tar || r.lfs_pointer || r.looks_like; }

Steps write_kind_summary(StepContext& c, const Report& r, const ReportOptions& options) {
  JsonWriter& w = c.w;
  if (r.pickle) {
    co_await write_pickle_summary(c, *r.pickle, options);
  } else if (r.zip) {
    co_await write_zip_summary(c, *r.zip, options);
  } else if (r.npy) {
    co_await write_npy_summary(c, *r.npy, options);
  } else if (r.tar) {
    co_await write_tar_summary(c, *r.tar, options);
  } else if (r.lfs_pointer) {
    w.begin_object();
    w.field("kind", "lfs-pointer");
    w.field("oid", r.lfs_pointer->oid);
    w.key("size");
    if (r.lfs_pointer->size) w.number(*r.lfs_pointer->size); else w.null();
    w.end_object();
  } else if (r.looks_like) {
    w.begin_object();
    w.field("kind", r.format == Format::empty ? "empty" : "unknown");
    w.field("looks_like", *r.looks_like);
    w.end_object();
  }
}

}  // namespace tensorgate::detail
