#pragma once
// Keras models (family KR): what a .keras archive's config.json says (core/src/keras), written in
// the zip summary of the archive that holds it.
#include <cstdint>
#include <string>
#include <vector>

namespace tensorgate {

struct KerasClassCount {
  std::string class_name;
  std::string module;  // empty in configs that name none (Keras 2)
  std::uint64_t count = 0;
};

struct KerasSummary {
  std::string model_class;               // the top object's class_name
  std::vector<KerasClassCount> classes;  // every object's class, first-seen order (Limits::keras.max_listed_classes)
  std::uint64_t classes_not_listed = 0;
  std::uint64_t objects = 0;             // objects with a class_name
  std::uint64_t custom_objects = 0;      // from a module outside Keras
};

}  // namespace tensorgate
