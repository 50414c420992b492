#include "stream_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gguf_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/validator.hpp"

namespace tgtest {
namespace {

// Feeds up to where the validator only counts, then skips the rest.
tensorgate::Report skipping(const ValidatorFactory& make, std::string_view bytes) {
  auto v = make();
  v->set_total_size(bytes.size());
  std::size_t at = 0;
  while (at < bytes.size() && v->bytes_wanted() > 0) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(v->bytes_wanted(), bytes.size() - at));
    v->feed(bytes.substr(at, n));
    at += n;
  }
  const std::size_t tail = static_cast<std::size_t>(std::min<std::uint64_t>(v->tail_wanted(), bytes.size() - at));
  if (at + tail < bytes.size()) v->skip(bytes.size() - at - tail);
  if (tail) v->feed(bytes.substr(bytes.size() - tail));
  return v->finish();
}

}  // namespace

tensorgate::Report skipping_runs(const ValidatorFactory& make, std::string_view bytes, bool hint, std::size_t piece,
                                 std::uint64_t* skipped) {
  auto v = make();
  if (hint) v->set_total_size(bytes.size());
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::uint64_t run = std::min<std::uint64_t>(v->bytes_skippable(), bytes.size() - at);
    const std::size_t n = run ? static_cast<std::size_t>(run) : std::min(piece, bytes.size() - at);
    if (run) v->skip(n);
    else v->feed(bytes.substr(at, n));
    if (run && skipped) *skipped += n;
    at += n;
  }
  return v->finish();
}

tensorgate::Report check_stream(const ValidatorFactory& make, std::string_view bytes) {
  tensorgate::Report hinted = feed_split(make, bytes, {}, true);
  const std::string want = render(hinted);
  EXPECT_EQ(render(feed_split(make, bytes, {}, false)), want) << "without the size hint";
  std::vector<std::size_t> sevens;
  for (std::size_t at = 7; at < bytes.size(); at += 7) sevens.push_back(at);
  EXPECT_EQ(render(feed_split(make, bytes, sevens, true)), want) << "in 7-byte pieces";
  if (bytes.size() <= 4096) {
    std::vector<std::size_t> every;
    for (std::size_t at = 1; at < bytes.size(); ++at) every.push_back(at);
    EXPECT_EQ(render(feed_split(make, bytes, every, false)), want) << "byte by byte, without the size hint";
  }
  EXPECT_EQ(render(skipping(make, bytes)), want) << "reading what bytes_wanted() asks, skipping the rest";
  EXPECT_EQ(render(skipping_runs(make, bytes, true, 5)), want) << "skipping every run offered, in 5-byte pieces";
  return hinted;
}

tensorgate::Report check_pickle(std::string_view bytes, const tensorgate::Limits& limits) {
  return check_stream([&] { return tensorgate::make_pickle_validator(limits); }, bytes);
}

tensorgate::Report check_detected(std::string_view name, std::string_view bytes, const tensorgate::Limits& limits) {
  return check_stream([&] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, name, limits); }, bytes);
}

std::string errors_of(const tensorgate::Report& r) { return ids_of(r, tensorgate::Severity::error); }
std::string warnings_of(const tensorgate::Report& r) { return ids_of(r, tensorgate::Severity::warning); }

std::string message_of(const tensorgate::Report& r, std::string_view id) {
  const tensorgate::Finding* f = find_rule(r, id);
  return f ? f->message : std::string();
}

}  // namespace tgtest
