// The summaries of the kinds of no model format: an LFS pointer's target, and what unknown or
// empty content looks like. The text report says nothing more of them than the verdict.
#include <string>

#include "common/summary_steps.hpp"
#include "tensorgate/file_kind.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {
namespace {

Steps write_lfs_pointer(StepContext& c, const LfsPointerInfo& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", "lfs-pointer");
  w.field("oid", s.oid);
  w.key("size");
  if (s.size) w.number(*s.size); else w.null();
  w.end_object();
  co_return;
}

Steps write_unknown_content(StepContext& c, const UnknownContent& s, const ReportOptions&) {
  JsonWriter& w = c.w;
  w.begin_object();
  w.field("kind", s.empty ? "empty" : "unknown");
  w.field("looks_like", s.looks_like);
  w.end_object();
  co_return;
}

template <class T>
std::string no_facts(const T&) {
  return {};
}

}  // namespace
}  // namespace tensorgate::detail

TENSORGATE_REGISTER_SUMMARY(LfsPointerInfo, write_lfs_pointer, no_facts<LfsPointerInfo>)
TENSORGATE_REGISTER_SUMMARY(UnknownContent, write_unknown_content, no_facts<UnknownContent>)
