#include "pickle/summary_bytes.hpp"

#include <string>

namespace tensorgate::detail::pickle {
namespace {

// A string's own buffer, when it is not the short one inside the object.
std::size_t heap(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }

}  // namespace

std::size_t heap_bytes(const std::vector<PickleGlobal>& globals, const std::vector<PickleTensor>& tensors,
                       const std::vector<PickleStorage>& storages) {
  std::size_t n = globals.capacity() * sizeof(PickleGlobal) + tensors.capacity() * sizeof(PickleTensor) +
                  storages.capacity() * sizeof(PickleStorage);
  for (const PickleGlobal& g : globals) n += heap(g.module) + heap(g.name) + heap(g.reason);
  for (const PickleTensor& t : tensors)
    n += heap(t.name) + heap(t.dtype) + heap(t.storage) + t.shape.capacity() * sizeof(std::uint64_t);
  for (const PickleStorage& st : storages) n += heap(st.key) + heap(st.dtype) + heap(st.location);
  return n;
}

std::size_t heap_bytes(const PickleSummary& s) { return heap_bytes(s.globals, s.tensors, s.storages); }

}  // namespace tensorgate::detail::pickle
