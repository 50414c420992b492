#include "pickle/summary_bytes.hpp"

#include <string>

namespace tensorgate::detail::pickle {
namespace {

// A string's own buffer, when it is not the short one inside the object.
std::size_t heap(const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; }

}  // namespace

std::size_t heap_bytes(const std::vector<PickleGlobal>& globals) {
  std::size_t n = globals.capacity() * sizeof(PickleGlobal);
  for (const PickleGlobal& g : globals) n += heap(g.module) + heap(g.name) + heap(g.reason);
  return n;
}

std::size_t heap_bytes(const std::vector<PickleTensor>& tensors) {
  std::size_t n = tensors.capacity() * sizeof(PickleTensor);
  for (const PickleTensor& t : tensors)
    n += heap(t.name) + heap(t.dtype) + heap(t.storage) + t.shape.capacity() * sizeof(std::uint64_t);
  return n;
}

std::size_t heap_bytes(const std::vector<PickleStorage>& storages) {
  std::size_t n = storages.capacity() * sizeof(PickleStorage);
  for (const PickleStorage& st : storages) n += heap(st.key) + heap(st.dtype) + heap(st.location);
  return n;
}

std::size_t heap_bytes(const PickleSummary& s) { return heap_bytes(s.globals) + heap_bytes(s.tensors) + heap_bytes(s.storages); }

}  // namespace tensorgate::detail::pickle
