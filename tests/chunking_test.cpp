// Splitting the input differently must never change the report (docs/architecture.md).
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "st_builder.hpp"

using namespace tgtest;

namespace {

const ValidatorFactory kMake = [] { return tensorgate::make_safetensors_validator(); };

// Small files covering every state and family: valid, each rule family, escapes.
std::vector<std::string> samples() {
  return {
      "",
      std::string("\x05\0\0", 3),
      st_file_n(64, "{}"),
      st_file(R"({"__metadata__":{"format":"tinyllm"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})", zeros(16)),
      st_file(R"({"\u0077\ud83d\ude00":{"dtype":"F4","shape":[2],"data_offsets":[0,1]},"k":{"dtype":"BOOL","shape":[],"data_offsets":[1,2]}})", zeros(2)),
      st_file(R"({"w":{"dtype":"F33","shape":[1.0],"data_offsets":[0]}})", zeros(4)),
      st_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]},"a":{}})", zeros(9)),
      st_file(R"({"__metadata__":null,"x":[]})"),
      st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(7)),
      st_file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", zeros(3)),
      st_file("{\"a\\tb\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[0,3]}} \t", zeros(3)),
      st_file("[1,2", {}),
  };
}

}  // namespace

TEST(Chunking, EverySingleSplitGivesTheSameReport) {
  for (const std::string& file : samples()) {
    const std::string whole = render(feed_split(kMake, file, {}));
    for (std::size_t cut = 0; cut <= file.size(); ++cut) {
      ASSERT_EQ(render(feed_split(kMake, file, {cut})), whole) << "cut at " << cut;
    }
  }
}

TEST(Chunking, EveryPairOfSplitsGivesTheSameReport) {
  for (const std::string& file : samples()) {
    if (file.size() > 140) continue;  // quadratic: the small ones are enough
    const std::string whole = render(feed_split(kMake, file, {}));
    for (std::size_t a = 0; a <= file.size(); ++a)
      for (std::size_t b = a; b <= file.size(); ++b)
        ASSERT_EQ(render(feed_split(kMake, file, {a, b})), whole) << a << "," << b;
  }
}

TEST(Chunking, OneByteAtATimeGivesTheSameReport) {
  for (const std::string& file : samples()) {
    std::vector<std::size_t> cuts;
    for (std::size_t i = 1; i < file.size(); ++i) cuts.push_back(i);
    EXPECT_EQ(render(feed_split(kMake, file, cuts)), render(feed_split(kMake, file, {})));
  }
}

TEST(Chunking, TheSizeHintDoesNotChangeTheReport) {
  for (const std::string& file : samples()) {
    std::vector<std::size_t> cuts;
    for (std::size_t i = 3; i < file.size(); i += 5) cuts.push_back(i);
    EXPECT_EQ(render(feed_split(kMake, file, cuts, true)), render(feed_split(kMake, file, {}, false)));
  }
}

TEST(Chunking, SkippingDataEqualsFeedingIt) {
  const std::string file = st_file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", zeros(8));
  auto v = kMake();
  v->feed(std::string_view(file).substr(0, file.size() - 8));
  EXPECT_EQ(v->bytes_wanted(), 0u);
  v->skip(8);
  EXPECT_EQ(render(v->finish()), render(feed_split(kMake, file, {})));
}
