#pragma once
// Model pairs held in memory, diffed as `tensorgate diff` diffs them from disk: each file
// validated, a directory checked as a model directory, its model files those its summary
// names (else every weights file), config.json passed along.
#include <functional>
#include <map>
#include <string>

#include "tensorgate/diff.hpp"

namespace tgtest {

using Files = std::map<std::string, std::string>;  // file name -> bytes

struct Model {
  Files files;
  bool directory = true;  // false: one file (the only entry)
};
inline Model directory_model(Files f) { return Model{std::move(f), true}; }
inline Model file_model(const std::string& name, std::string bytes) { return Model{{{name, std::move(bytes)}}, false}; }

struct DiffRun {
  tensorgate::DiffReport report;
  // "name:kind+kind ..." in the report's order (a rename "old>new:renamed").
  std::string changes() const;
  // "metadata:format config:vocab_size ..." in the report's order.
  std::string keys() const;
  const tensorgate::TensorChange* change(const std::string& name) const;
};

// Wraps a file's ByteSource (to record or fail reads); `side` is "old" or "new".
using DiffWrap = std::function<tensorgate::ByteSource*(const std::string& side, const std::string& file,
                                                       tensorgate::ByteSource& inner)>;

DiffRun diff_pair(const Model& old_model, const Model& new_model, const tensorgate::DiffOptions& options = {},
                  const tensorgate::Limits& limits = {}, const DiffWrap& wrap = {});

tensorgate::DiffOptions with_values(bool values = true, tensorgate::ChangeSet fail_on = {});

}  // namespace tgtest
