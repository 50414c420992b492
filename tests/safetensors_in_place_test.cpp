// Reading straight into the validator's room (Validator::prepare, as cli/source_check.cpp reads a
// local file) must give the report a copying feed gives, whatever the reads' sizes, and the
// room must be exactly the header bytes still wanted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "chunked.hpp"
#include "st_builder.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;
using tensorgate::Validator;

const std::string kValid =
    st_file(R"({"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
            R"("b":{"dtype":"U8","shape":[3],"data_offsets":[8,11]}})",
            zeros(11));

// Feeds `file` as a reader of `step` bytes at a time would: into the validator's room when it
// offers one (filled from `file`), else from `file` itself. Returns how many bytes went in place.
std::size_t feed_in_place(Validator& v, std::string_view file, std::size_t step) {
  std::size_t at = 0, in_place = 0;
  while (at < file.size()) {
    const std::size_t want = std::min(step, file.size() - at);
    const std::span<std::byte> room = v.prepare(want);
    if (room.empty()) {
      v.feed(file.substr(at, want));
      at += want;
      continue;
    }
    EXPECT_LE(room.size(), want);
    std::memcpy(room.data(), file.data() + at, room.size());
    v.feed(room);
    at += room.size();
    in_place += room.size();
  }
  return in_place;
}

std::string copied_report(std::string_view file, bool size_hint) {
  return render(feed_split([] { return tensorgate::make_safetensors_validator(); }, file, {}, size_hint));
}

std::vector<std::string> samples() {
  return {
      kValid,
      st_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]},"a":{}})", zeros(9)),
      st_file("{\"a\\tb\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[0,3]}} \t", zeros(3)),
      st_file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", zeros(3)),
      plain_file(2'000),
      st_file("[1,2", {}),
  };
}

TEST(SafetensorsInPlace, EveryReadSizeGivesTheCopiedReport) {
  for (const bool size_hint : {false, true}) {
    for (const std::string& file : samples()) {
      const std::string expected = copied_report(file, size_hint);
      for (const std::size_t step : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{100},
                                     std::size_t{4096}, file.size()}) {
        auto v = tensorgate::make_safetensors_validator();
        if (size_hint) v->set_total_size(file.size());
        const std::size_t in_place = feed_in_place(*v, file, step);
        EXPECT_EQ(render(v->finish()), expected) << "step " << step << ", size hint " << size_hint;
        // Reads no longer than the length leave header bytes for the room (every sample's
        // header is longer than eight bytes); longer ones may take the whole header at once.
        if (step <= 8) EXPECT_GT(in_place, 0u) << "step " << step;
      }
    }
  }
}

// The room is the header bytes still wanted, no more: none before the length is in, none once
// the header is, and a feed from elsewhere still copies.
TEST(SafetensorsInPlace, TheRoomIsTheHeaderStillWanted) {
  const std::size_t header = kValid.size() - 8 - 11;
  auto v = tensorgate::make_safetensors_validator();
  EXPECT_TRUE(v->prepare(64).empty());
  v->feed(std::string_view(kValid).substr(0, 8));
  EXPECT_EQ(v->prepare(1 << 20).size(), header);
  std::span<std::byte> room = v->prepare(10);
  ASSERT_EQ(room.size(), 10u);
  std::memcpy(room.data(), kValid.data() + 8, 10);
  v->feed(room);
  v->feed(std::string_view(kValid).substr(18, 5));  // not the room: copied
  room = v->prepare(1 << 20);
  ASSERT_EQ(room.size(), header - 15);
  std::memcpy(room.data(), kValid.data() + 23, room.size());
  v->feed(room);
  EXPECT_TRUE(v->prepare(64).empty());
  v->feed(std::string_view(kValid).substr(8 + header));
  const auto r = v->finish();
  EXPECT_TRUE(r.valid) << error_ids(r);
}

// Format detection holds the first bytes itself, then offers the safetensors validator's room.
TEST(SafetensorsInPlace, DetectionOffersTheRoomOnceTheFormatIsKnown) {
  const std::string file = plain_file(2'000);
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.safetensors");
  v->set_total_size(file.size());
  EXPECT_TRUE(v->prepare(file.size()).empty());
  const std::size_t head = static_cast<std::size_t>(v->bytes_wanted());
  v->feed(std::string_view(file).substr(0, head));
  const std::size_t rest = file.size() - head;
  const std::span<std::byte> room = v->prepare(rest);
  ASSERT_FALSE(room.empty());
  std::memcpy(room.data(), file.data() + head, room.size());
  v->feed(room);
  v->feed(std::string_view(file).substr(head + room.size()));
  const auto r = v->finish();
  EXPECT_TRUE(r.valid) << error_ids(r);
}

class RefusingBudget final : public tensorgate::MemoryBudget {
 public:
  bool try_acquire(std::size_t) override { return false; }
  void release(std::size_t) override {}
};

// A room the shared budget cannot pay for is not offered, and the validator says why.
TEST(SafetensorsInPlace, NoRoomWithoutBudget) {
  RefusingBudget budget;
  auto v = tensorgate::make_safetensors_validator({}, &budget);
  v->set_total_size(kValid.size());
  v->feed(std::string_view(kValid).substr(0, 8));
  EXPECT_TRUE(v->prepare(64).empty());
  EXPECT_EQ(v->feed(std::string_view(kValid).substr(8)), tensorgate::Progress::aborted);
  const auto r = v->finish();
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "header-memory-budget");
}

}  // namespace
