// The CPU deadline of the header parse (tensorgate/deadline.hpp): the parse asks it every
// TableAllowance's kDeadlinePollEvents JSON events and, once it has passed, stops with
// Report::aborted "parse-cpu-deadline" (a capacity answer, no verdict). A deadline that never
// passes changes nothing, and detection hands it to the validator it chooses.
#include <gtest/gtest.h>

#include <string>

#include "st_builder.hpp"
#include "tensorgate/deadline.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;

// Passes at the `passes_at`-th time it is asked (0: never).
class PollCounter final : public tensorgate::Deadline {
 public:
  explicit PollCounter(int passes_at) : passes_at_(passes_at) {}
  bool passed() override { return ++polls == passes_at_; }
  int polls = 0;

 private:
  int passes_at_;
};

// A metadata map of `n` keys: about 2n JSON events.
std::string metadata_header(int n) {
  std::string h = "{\"__metadata__\":{";
  for (int i = 0; i < n; ++i) h += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":\"v\"";
  return h + "},\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
}

tensorgate::Report check(std::unique_ptr<tensorgate::Validator> v, const std::string& file,
                         tensorgate::Deadline* deadline) {
  v->set_total_size(file.size());
  v->set_deadline(deadline);
  v->feed(file);
  v->set_deadline(nullptr);
  return v->finish();
}

TEST(SafetensorsDeadline, APassedDeadlineStopsTheParseWithoutAVerdict) {
  const std::string file = st_file(metadata_header(100'000), "x");
  PollCounter deadline(3);
  const auto r = check(tensorgate::make_safetensors_validator(), file, &deadline);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "parse-cpu-deadline");
  EXPECT_EQ(r.aborted->kind, tensorgate::AbortKind::limit);
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_FALSE(r.summary.get<tensorgate::SafetensorsSummary>());
  EXPECT_EQ(deadline.polls, 3);  // stopped at the poll that saw it pass, ~3 x 16,384 events in
}

TEST(SafetensorsDeadline, ADeadlineThatNeverPassesChangesNothing) {
  const std::string file = st_file(metadata_header(100'000), "x");
  PollCounter never(0);
  const auto with = check(tensorgate::make_safetensors_validator(), file, &never);
  const auto without = check(tensorgate::make_safetensors_validator(), file, nullptr);
  EXPECT_TRUE(with.valid);
  EXPECT_GE(never.polls, 200'000 / 16'384);  // ~2 events a key
  EXPECT_EQ(tensorgate::report_json(with), tensorgate::report_json(without));
}

TEST(SafetensorsDeadline, DetectionHandsTheDeadlineToTheValidatorItChooses) {
  const std::string file = st_file(metadata_header(100'000), "x");
  PollCounter deadline(1);
  const auto r = check(tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "m.safetensors"), file, &deadline);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "parse-cpu-deadline");
}

// A plain header (core/src/safetensors/st2_plain_header.hpp) is scanned without JSON events: the
// scan asks the deadline every 1,024 entries, and stops at the poll that sees it pass.
TEST(SafetensorsDeadline, ThePlainHeaderScanAsksTheDeadlineToo) {
  const std::string file = plain_file(100'000);
  PollCounter never(0);
  EXPECT_TRUE(check(tensorgate::make_safetensors_validator(), file, &never).valid);
  EXPECT_EQ(never.polls, 100'000 / 1'024);
  PollCounter deadline(3);
  const auto r = check(tensorgate::make_safetensors_validator(), file, &deadline);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "parse-cpu-deadline");
  EXPECT_FALSE(r.summary.get<tensorgate::SafetensorsSummary>());
  EXPECT_EQ(deadline.polls, 3);
}

TEST(SafetensorsDeadline, ASmallHeaderEndsBeforeTheFirstPoll) {
  PollCounter deadline(1);
  const auto r = check(tensorgate::make_safetensors_validator(), st_file(metadata_header(100), "x"), &deadline);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(deadline.polls, 0);
}

}  // namespace
