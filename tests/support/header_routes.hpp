#pragma once
// Runs the safetensors header parse by each route (the plain-header fast path first, or the
// general parse alone) and writes down everything either produces, so that a test or a fuzzer
// can hold the two to the same answer byte for byte. Header-only: tests/ and fuzz/ both use it.
#include <string>
#include <string_view>

#include "common/finding_list.hpp"
#include "safetensors/st2_header_json.hpp"

namespace tgtest {

struct RouteOutcome {
  bool plain = false;  // the fast path read the whole header
  std::string dump;    // the verdict, findings and table, one item a line
};

inline RouteOutcome parse_by_route(std::string_view header, tensorgate::detail::HeaderRoute route,
                                   const tensorgate::Limits& limits = {}) {
  using namespace tensorgate;
  detail::FindingList findings(limits.max_findings);
  detail::TableAllowance allowance(nullptr);
  const detail::ParsedHeader parsed = detail::parse_header(HeaderBuffer(header), limits, findings, allowance, route);
  std::string d = "json_ok=" + std::to_string(parsed.json_ok) + " end=" + std::to_string(parsed.object_end) +
                  " reference_rejects=" + std::to_string(parsed.reference_rejects) + "\n";
  for (const Finding& f : findings.items()) {
    d += "finding " + std::string(rule_info(f.rule).id) + " @" + (f.offset ? std::to_string(*f.offset) : "-") +
         " [" + f.tensor.value_or("-") + "] " + f.message + "\n";
  }
  const TensorTable& t = *parsed.table;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const TensorView v = t[i];
    d += "tensor " + std::string(v.name) + " dtype=" + std::to_string(static_cast<int>(v.dtype)) + " shape=";
    for (const std::uint64_t dim : v.shape) d += std::to_string(dim) + ",";
    d += " span=" + std::to_string(v.begin) + ".." + std::to_string(v.end) + " at=" + std::to_string(v.header_pos) +
         " flags=" + std::to_string(t.record(i).flags) + "\n";
  }
  // The plain path guesses the architecture on the way; the general one leaves it to a pass after.
  const ArchitectureGuess guess = parsed.architecture.value_or(guess_architecture(t));
  d += "architecture " + guess.architecture.value_or("-") + " layers " +
       (guess.layers ? std::to_string(*guess.layers) : "-") + "\n";
  d += "metadata " + std::to_string(t.has_metadata()) + "\n";
  for (std::size_t i = 0; i < t.metadata_size(); ++i) {
    const auto [key, value] = t.metadata(i);
    d += "meta " + std::string(key) + "=" + std::string(value) + "\n";
  }
  return {parsed.plain, d};
}

}  // namespace tgtest
