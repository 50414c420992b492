#pragma once
// A file of tests/data/ read whole, for the tests whose target defines TG_SOURCE_DIR (the
// fixtures the real writers made). A missing or empty file fails the test that asked for it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace tgtest {

inline std::string test_data(const std::string& relative) {
  std::ifstream in(std::string(TG_SOURCE_DIR) + "/tests/data/" + relative, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << "tests/data/" << relative;
  return s.str();
}

}  // namespace tgtest
