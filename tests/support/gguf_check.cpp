#include "gguf_check.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "chunked.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace tgtest {

tensorgate::Report check_gguf(std::string_view bytes, const tensorgate::Limits& limits) {
  const ValidatorFactory make = [&] { return tensorgate::make_gguf_validator(limits); };
  tensorgate::Report hinted = feed_split(make, bytes, {}, true);
  const std::string want = render(hinted);
  EXPECT_EQ(render(feed_split(make, bytes, {}, false)), want) << "without the size hint";
  std::vector<std::size_t> sevens;
  for (std::size_t at = 7; at < bytes.size(); at += 7) sevens.push_back(at);
  EXPECT_EQ(render(feed_split(make, bytes, sevens, true)), want) << "in 7-byte pieces";
  if (bytes.size() <= 8192) {
    std::vector<std::size_t> every;
    for (std::size_t at = 1; at < bytes.size(); ++at) every.push_back(at);
    EXPECT_EQ(render(feed_split(make, bytes, every, false)), want) << "byte by byte, without the size hint";
  }
  return hinted;
}

std::string ids_of(const tensorgate::Report& r, tensorgate::Severity severity) {
  std::string out;
  for (const auto& f : r.findings) {
    if (f.severity != severity) continue;
    if (!out.empty()) out += ' ';
    out += tensorgate::rule_info(f.rule).id;
  }
  return out;
}

const tensorgate::Finding* find_rule(const tensorgate::Report& r, std::string_view id) {
  for (const auto& f : r.findings)
    if (tensorgate::rule_info(f.rule).id == id) return &f;
  return nullptr;
}

}  // namespace tgtest
