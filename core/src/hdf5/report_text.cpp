// The HDF5 facts of the text report: ", superblock v0, 4 root attributes, Keras 2.11.0
// \"Sequential\" of 9 objects, training config".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "hdf5/report_writers.hpp"

namespace tensorgate::detail {

std::string hdf5_text_facts(const Hdf5Summary& s) {
  std::string line = ", superblock v" + std::to_string(s.superblock_version) + ", " +
                     plural(s.attributes.size() + s.attributes_not_listed, "root attribute");
  if (!s.keras) return line;
  line += ", Keras";
  if (!s.keras_version.empty()) line += " " + quoted(s.keras_version, 20);
  if (s.model) line += " " + quoted(s.model->model_class, 40) + " of " + count_of(s.model->objects, "object");
  if (s.training_config) line += ", training config";
  return line;
}

}  // namespace tensorgate::detail
