// The tar summary as JSON: its members, the pickles and arrays inside, what follows the end.
#include "members/archive_json.hpp"
#include "tar/report_writers.hpp"

namespace tensorgate::detail {

Steps write_tar_summary(StepContext& c, const TarSummary& s, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "tar");
  w.field("members", s.members);
  w.field("torch_legacy", s.torch_legacy);
  co_await write_records(c, "member_list", s.member_list, [](JsonWriter& out, const TarMemberInfo& m) {
    out.field("name", m.name);
    out.field("type", m.type);
    out.field("offset", m.offset);
    out.field("size", m.size);
    out.field("content", m.content);
  }, "members_not_listed", s.members_not_listed);
  co_await write_archive_pickles(c, s.pickles, s.pickles_not_listed, options);
  co_await write_archive_arrays(c, s.arrays, options);
  w.field("trailing_bytes", s.trailing_bytes);
  w.end_object();
}

}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(TarSummary, write_tar_summary, tar_text_facts)
