// Differential: the safetensors header read by the plain-header fast path first and by the
// general parse alone (core/src/safetensors/st2_plain_header.hpp) must give the same verdict,
// findings and table for every input, byte for byte. The input is header text only. The seeds
// are mostly plain headers (the samples' headers), so mutations land on the fast path's edges:
// a byte that makes a header not plain must hand it back whole, never change the answer.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "header_routes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > (1u << 20)) return 0;  // the routes' agreement does not depend on size; speed does
  const std::string_view header = tgfuzz::as_text(data, size);
  using tensorgate::detail::HeaderRoute;
  const auto fast = tgtest::parse_by_route(header, HeaderRoute::plain_first);
  const auto general = tgtest::parse_by_route(header, HeaderRoute::general_only);
  tgfuzz::require(fast.dump == general.dump, "header-routes-agree",
                  "plain-first:\n" + fast.dump + "general:\n" + general.dump);
  return 0;
}
