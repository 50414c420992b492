#pragma once
// HDF5 files (docs/hdf5.md, family KR): a legacy Keras .h5/.hdf5 model is an HDF5 file whose root
// group holds the model's config as attributes. The reader (core/src/hdf5) reads the superblock,
// the root group's object header and its attributes, once and in order; the weights are skipped.
// The summary a file gets, and the push validator.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/keras.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

// One attribute of the root group.
struct Hdf5Attribute {
  std::string name;
  std::string type;                  // "string", "vlen-string", "int32", "uint8", "float64", "enum", "compound", ...
  std::uint64_t element_size = 0;    // bytes of one element as stored
  std::vector<std::uint64_t> shape;  // empty: a scalar
  std::uint64_t bytes = 0;           // of its value as stored (a scalar vlen string: of its string)
  std::string preview;               // the start of its value as text ("" when not shown; an array's first item as "[a, ...]")
};

struct Hdf5Summary {
  std::uint32_t superblock_version = 0;
  std::uint64_t user_block = 0;  // where the superblock is (0, or the user block's size)
  std::uint32_t offset_size = 0, length_size = 0;
  std::uint64_t root_header = 0;  // the root group's object header, as a file offset
  std::uint32_t root_header_version = 0;
  std::vector<Hdf5Attribute> attributes;  // the root group's, in header order (Limits::hdf5.max_listed_attributes)
  std::uint64_t attributes_not_listed = 0;
  // A Keras model: the root has a model_config attribute.
  bool keras = false;
  std::string keras_version, backend;
  std::optional<KerasSummary> model;  // what model_config says, once it was walked
  bool training_config = false;
};
// How the reports write it (core/src/hdf5/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const Hdf5Summary*);

std::unique_ptr<Validator> make_hdf5_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
