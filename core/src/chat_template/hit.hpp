#pragma once
// One CT rule's places in a template: the first (offset and what it is) and how many in all.
#include <cstdint>
#include <string>

namespace tensorgate::detail::ct {

struct Hit {
  std::uint64_t count = 0;
  std::uint64_t first = 0;  // offset of the first one in the template
  std::string what;         // the first one, said for a message

  // Counts one more; the first one's message is made only then (`say` builds it).
  template <typename Say>
  void add(std::uint64_t at, Say&& say) {
    if (count++ == 0) {
      first = at;
      what = say();
    }
  }
  // Both together: the earlier first place, the counts summed.
  void merge(const Hit& o) {
    if (o.count == 0) return;
    if (count == 0 || o.first < first) {
      first = o.first;
      what = o.what;
    }
    count += o.count;
  }
};

}  // namespace tensorgate::detail::ct
