#include "chunked.hpp"

#include "tensorgate/report_writers.hpp"

namespace tgtest {

tensorgate::Report feed_split(const ValidatorFactory& make, std::string_view bytes,
                              const std::vector<std::size_t>& cuts, bool size_hint) {
  auto v = make();
  if (size_hint) v->set_total_size(bytes.size());
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    v->feed(bytes.substr(at, cut - at));
    at = cut;
  }
  v->feed(bytes.substr(at));
  return v->finish();
}

std::string render(const tensorgate::Report& r) { return tensorgate::report_json(r); }

}  // namespace tgtest
