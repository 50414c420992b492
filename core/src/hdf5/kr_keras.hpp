#pragma once
// A legacy Keras model in an HDF5 file (KR): the root group's model_config and training_config
// attributes walked as Keras configs (keras/config_walk: the same KR rules as a .keras archive's
// config.json), keras_version and backend noted. A file without model_config is no Keras model:
// its attributes are listed and nothing is judged.
#include <vector>

#include "common/finding_list.hpp"
#include "hdf5/root_attributes.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail::hdf5 {

void judge_keras(const std::vector<KeptAttribute>& attributes, const Limits& limits, FindingList& findings,
                 Hdf5Summary& summary);

}  // namespace tensorgate::detail::hdf5
