// Default-deny is usable for NumPy: the pickles Debian 12's NumPy (1.24) writes for random
// generators and their state, scalars, dtypes, arrays and masked arrays (tests/data/
// numpy_pickles/, made by make_numpy_pickles.py there) give no finding at all, so `--fail-on
// warning` passes them; the same allowed constructors handed a dangerous global to call are
// PK.dangerous-global. No NumPy is needed here: the files are read as bytes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/pickle.hpp"

using tensorgate::PickleSummary;

namespace {

using namespace tgtest;
namespace fs = std::filesystem;

const fs::path kDir = fs::path(TG_SOURCE_DIR) / "tests" / "data" / "numpy_pickles";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(PickleNumpy, BenignFilesGiveNoFinding) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("benign_")) continue;
    ++files;
    const auto r = check_pickle(read(entry.path()));
    EXPECT_TRUE(r.valid) << name;
    EXPECT_EQ(errors_of(r) + warnings_of(r), "") << name << ": " << (r.findings.empty() ? "" : r.findings[0].message);
    ASSERT_TRUE(r.summary.get<PickleSummary>()) << name;
    EXPECT_FALSE(r.summary.get<PickleSummary>()->globals.empty()) << name;
    for (const auto& g : r.summary.get<PickleSummary>()->globals)
      EXPECT_EQ(g.verdict, tensorgate::GlobalVerdict::allowed) << name << ": " << g.module << "." << g.name;
  }
  EXPECT_EQ(files, 48);  // 16 objects at protocols 2, 4 and 5
}

TEST(PickleNumpy, HostileTwinsAreDangerous) {
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("hostile_")) continue;
    ++files;
    const auto r = check_pickle(read(entry.path()));
    EXPECT_FALSE(r.valid) << name;
    EXPECT_EQ(errors_of(r), "PK.dangerous-global") << name;
    EXPECT_EQ(warnings_of(r), "") << name;
  }
  EXPECT_EQ(files, 4);
}

// numpy 1.x: __generator_ctor(name, bit_generator_ctor) calls bit_generator_ctor(name); the
// callable is a global of the pickle, judged on its own.
TEST(PickleNumpy, GeneratorCtorCallsWhatItIsGiven) {
  PickleBuilder hostile;
  hostile.proto(2).global("numpy.random._pickle", "__generator_ctor").str("id").global("posix", "system");
  hostile.tuple_n(2).reduce().stop();
  auto r = check_pickle(hostile.bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("posix.system"), std::string::npos);

  PickleBuilder benign;
  benign.proto(2).global("numpy.random._pickle", "__generator_ctor").str("PCG64");
  benign.global("numpy.random._pickle", "__bit_generator_ctor").tuple_n(2).reduce().stop();
  r = check_pickle(benign.bytes());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(errors_of(r) + warnings_of(r), "");

  // numpy 2.x hands __bit_generator_ctor a class, which it calls: numpy's own classes are
  // allowed, any other is judged.
  PickleBuilder v2;
  v2.proto(4).str("numpy.random._pickle").str("__bit_generator_ctor").stack_global();
  v2.str("numpy.random._pcg64").str("PCG64").stack_global().tuple_n(1).reduce().stop();
  r = check_pickle(v2.bytes());
  EXPECT_EQ(errors_of(r) + warnings_of(r), "");
  PickleBuilder v2_hostile;
  v2_hostile.proto(4).str("numpy.random._pickle").str("__bit_generator_ctor").stack_global();
  v2_hostile.str("subprocess").str("Popen").stack_global().tuple_n(1).reduce().stop();
  EXPECT_EQ(errors_of(check_pickle(v2_hostile.bytes())), "PK.dangerous-global");
}

}  // namespace
