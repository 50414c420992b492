#pragma once
// NumPy .npy files (docs/rules.md, FK.npy-header and FK.npy-data): the summary of one, alone or
// as a member of an .npz or a tar, and the push validator of a lone file. An object dtype's data
// is a pickle, scanned as one (PK rules).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

// A NumPy .npy file: the header's dict, where the data starts and how much there is.
struct NpySummary {
  std::uint32_t major = 0, minor = 0;   // format version 1.0, 2.0 or 3.0
  std::string descr;                     // the dtype as written: "<f4", "|u1", "|O", ...; "[structured]", "(subarray)"
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;
  std::uint64_t header_length = 0;       // bytes of the dict literal and its padding
  std::uint64_t data_offset = 0;         // where the data starts
  std::uint64_t data_bytes = 0;          // bytes after the header
  std::optional<std::uint64_t> item_size;  // for simple dtypes
  bool object = false;                   // an object dtype ("|O", or a field of a structure): the data is a pickle (PK rules)
  std::optional<PickleSummary> pickle;   // that pickle's summary
};
// How the reports write it (core/src/npy/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const NpySummary*);

std::unique_ptr<Validator> make_npy_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
