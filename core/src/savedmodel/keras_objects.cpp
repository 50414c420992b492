// keras_metadata.pb's objects (TF.keras-lambda, TF.keras-metadata): each object's metadata read
// as JSON when the object ends, its class counted.
#include "common/printable.hpp"
#include "savedmodel/keras_metadata.hpp"
#include "savedmodel/validator.hpp"

namespace tensorgate::detail::savedmodel {

void SavedModelValidator::keras_object_done() {
  ++summary_.keras_objects;
  const std::string object = "object " + quoted(keras_.path.empty() ? keras_.identifier : keras_.path);
  if (!keras_metadata_.empty()) {
    const KerasMetadataFacts facts = scan_keras_metadata(keras_metadata_, limits_.max_json_depth);
    if (!facts.json)
      findings_.add(Rule::tf_keras_metadata, object + ": its metadata is " + facts.error, keras_.pos);
    if (facts.lambda)
      findings_.add(Rule::tf_keras_lambda, object + (facts.class_name == "Lambda" ? " is a Lambda layer"
                                                                                  : " holds a Lambda layer in its config") +
                                               ": Keras runs its marshalled Python function when it loads the model",
                    keras_.pos);
    if (!facts.class_name.empty()) count_keras_class(facts.class_name);
  }
  keras_metadata_.clear();
  keras_metadata_.shrink_to_fit();
}

void SavedModelValidator::count_keras_class(std::string_view class_name) {
  const std::string key(class_name);
  if (const auto it = keras_index_.find(key); it != keras_index_.end()) {
    ++summary_.keras_classes[it->second].count;
  } else if (summary_.keras_classes.size() < limits_.savedmodel.max_listed_ops &&
             charge(kSlotBytes + 2 * key.size() + sizeof(SavedModelOpCount))) {
    keras_index_.emplace(key, summary_.keras_classes.size());
    summary_.keras_classes.push_back(SavedModelOpCount{key, 1});
  } else {
    ++summary_.keras_classes_not_listed;
  }
}

}  // namespace tensorgate::detail::savedmodel
