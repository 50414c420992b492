#include "members/archive_json.hpp"

namespace tensorgate::detail {

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
    co_await write_summary_json(c, p.summary, options);
    w.end_object();
  }
  w.end_array();
  w.field("pickles_not_listed", not_listed);
}

// "arrays": the .npy members, each as a lone .npy file's summary.
Steps write_archive_arrays(StepContext& c, const std::vector<NpySummary>& arrays, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.key("arrays");
  w.begin_array();
  for (const NpySummary& a : arrays) co_await write_summary_json(c, a, options);
  w.end_array();
}

}  // namespace tensorgate::detail
