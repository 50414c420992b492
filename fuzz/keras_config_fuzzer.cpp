// The Keras config walk (core/src/keras) over any bytes as a .keras archive's config.json: the
// input's first bytes choose chunk boundaries (fuzz_support.hpp, Split), the rest is the
// document. Whole or cut anywhere, the findings and the summary are the same; with small bounds
// (depth, size, listed classes) too; every finding has a message and a KR rule.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "keras/config_walk.hpp"

namespace {

std::string walked(const tgfuzz::Split& s, bool cut, const tensorgate::KerasLimits& limits) {
  tensorgate::detail::FindingList findings(64);
  tensorgate::detail::keras::ConfigWalk walk(limits, findings, 0, "");
  std::size_t at = 0;
  if (cut) {
    for (const std::size_t c : s.cuts) {
      walk.feed(s.file.substr(at, c - at));
      at = c;
    }
  }
  walk.feed(s.file.substr(at));
  walk.finish();
  std::string out;
  for (const auto& f : findings.items()) {
    const auto& info = tensorgate::rule_info(f.rule);
    tgfuzz::require(info.family == "KR", "keras-findings-are-kr");
    tgfuzz::require(!f.message.empty(), "finding-has-message");
    out += std::string(info.id) + ": " + f.message + "\n";
  }
  const auto& k = walk.facts();
  tgfuzz::require(k.classes.size() <= limits.max_listed_classes, "classes-bounded");
  tgfuzz::require(k.custom_objects <= k.objects, "custom-within-objects");
  out += k.model_class + " " + std::to_string(k.objects) + " " + std::to_string(k.classes.size()) + " " +
         std::to_string(k.classes_not_listed);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  const tensorgate::KerasLimits defaults;
  tgfuzz::require(walked(s, true, defaults) == walked(s, false, defaults), "chunking-invariant");
  tensorgate::KerasLimits small;
  small.max_depth = 6;
  small.max_config_bytes = 4096;
  small.max_listed_classes = 2;
  tgfuzz::require(walked(s, true, small) == walked(s, false, small), "chunking-invariant-small");
  return 0;
}
