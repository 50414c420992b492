#pragma once
// Flax msgpack checkpoints (docs/flax.md, family FX): flax.serialization.to_bytes output, read
// by a bounded push msgpack reader with an explicit stack; array buffers are skipped.
// The summary a file gets, and the push validator.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

// One array of the state: an extension 1 leaf, or a chunked array (flax's
// `__msgpack_chunked_array__` map) listed once under the map's path.
struct FlaxArray {
  std::string path;                  // the keys from the top, dotted: "params.Dense_0.kernel"
  std::string dtype;                 // the name as written: "float32", "bfloat16", ...
  std::vector<std::uint64_t> shape;  // empty: a 0-d array
  std::uint64_t offset = 0;          // of its buffer's first byte (a chunked array's first chunk)
  std::uint64_t bytes = 0;           // of its buffer (a chunked array's chunks together)
  std::uint64_t chunks = 0;          // 0: one buffer; else the chunks flax split it into
};

struct FlaxSummary {
  std::vector<FlaxArray> arrays;  // in file order (Limits::flax.max_listed_arrays)
  std::uint64_t arrays_total = 0, arrays_not_listed = 0;
  // Leaves that are not arrays: NumPy scalars (extension 3), complex numbers (extension 2) and
  // plain msgpack values (ints, floats, bools, nil, strings, bytes).
  std::uint64_t scalars = 0;
  std::uint64_t parameters = 0;   // elements of all arrays
  std::uint64_t total_bytes = 0;  // bytes of all arrays' buffers
  std::vector<std::string> top_level_keys;  // the first kMaxTopLevelKeys, in file order
  std::uint64_t top_level_keys_total = 0;
  std::uint32_t max_depth = 0;  // maps and arrays nested at most, the top map being 1
  static constexpr std::size_t kMaxTopLevelKeys = 64;
};
// How the reports write it (core/src/flax/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const FlaxSummary*);

std::unique_ptr<Validator> make_flax_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
