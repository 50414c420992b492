#pragma once
// Keras models (family KR): what a .keras archive's config.json says (core/src/keras), written in
// the zip summary of the archive that holds it, or in a Keras directory's summary.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate {

// What loading does with a class, the worst of its objects: a Keras class it builds, a custom
// object whose module it imports, or something dangerous (a Lambda's bytecode, a deny-listed
// module or function, a layer that loads code, files or the network).
enum class KerasClassVerdict : unsigned char { keras, custom, dangerous };
constexpr std::string_view keras_class_verdict_name(KerasClassVerdict v) {
  return v == KerasClassVerdict::dangerous ? "dangerous" : v == KerasClassVerdict::custom ? "custom" : "keras";
}

struct KerasClassCount {
  std::string class_name;
  std::string module;  // empty in configs that name none (Keras 2)
  std::uint64_t count = 0;
  KerasClassVerdict verdict = KerasClassVerdict::keras;
};

struct KerasSummary {
  std::string model_class;               // the top object's class_name
  std::vector<KerasClassCount> classes;  // every object's class, first-seen order (Limits::keras.max_listed_classes)
  std::uint64_t classes_not_listed = 0;
  std::uint64_t objects = 0;             // objects with a class_name
  std::uint64_t custom_objects = 0;      // from a module outside Keras
};

class JsonWriter;
// The facts as one JSON object (core/src/keras/report_json.cpp; docs/report.schema.json's "keras").
void write_keras_summary_json(JsonWriter& w, const KerasSummary& s);

}  // namespace tensorgate
