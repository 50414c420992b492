// A Keras config's facts as JSON, one writer for every place that holds them: a .keras
// archive's zip summary, a Keras directory's summary. Written whole: the classes are bounded by
// Limits::keras.max_listed_classes.
#include "tensorgate/json_writer.hpp"
#include "tensorgate/keras.hpp"

namespace tensorgate {

void write_keras_summary_json(JsonWriter& w, const KerasSummary& s) {
  w.begin_object();
  w.field("model_class", s.model_class);
  w.field("objects", s.objects);
  w.field("custom_objects", s.custom_objects);
  w.key("classes");
  w.begin_array();
  for (const KerasClassCount& k : s.classes) {
    w.begin_object();
    w.field("class_name", k.class_name);
    w.field("module", k.module);
    w.field("count", k.count);
    w.field("verdict", keras_class_verdict_name(k.verdict));
    w.end_object();
  }
  w.end_array();
  w.field("classes_not_listed", s.classes_not_listed);
  w.end_object();
}

}  // namespace tensorgate
