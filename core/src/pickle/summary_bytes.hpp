#pragma once
// The heap a PickleSummary holds: its lists and their strings, by capacity. Whoever keeps a copy
// of a summary (the zip walker keeps up to 16 and data.pkl's, and a report copies them) charges
// this much to its memory budget: a state dict of 262,144 tensors is tens of megabytes.
#include <cstddef>
#include <vector>

#include "tensorgate/pickle.hpp"

namespace tensorgate::detail::pickle {

std::size_t heap_bytes(const PickleSummary& s);
// The same for each list (what a copy of a scanner's lists will hold, known before it is made).
std::size_t heap_bytes(const std::vector<PickleGlobal>& globals);
std::size_t heap_bytes(const std::vector<PickleTensor>& tensors);
std::size_t heap_bytes(const std::vector<PickleStorage>& storages);

}  // namespace tensorgate::detail::pickle
