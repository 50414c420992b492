#pragma once
// A TensorFlow SavedModel directory's variables/ and assets/, as the core's TF.variables check
// takes them (tensorgate/savedmodel.hpp): the index read whole within its bound, the data shards
// by name and size. Only plain files count: a symbolic link is neither followed nor read.
#include <filesystem>

#include "tensorgate/limits.hpp"
#include "tensorgate/savedmodel.hpp"

namespace tensorgate::cli {

SavedModelVariables savedmodel_variables(const std::filesystem::path& dir, const Limits& limits);

}  // namespace tensorgate::cli
