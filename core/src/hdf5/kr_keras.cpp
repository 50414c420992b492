#include "hdf5/kr_keras.hpp"

#include "common/printable.hpp"
#include "keras/config_walk.hpp"

namespace tensorgate::detail::hdf5 {
namespace {

constexpr std::size_t kVersionText = 64;

const KeptAttribute* find(const std::vector<KeptAttribute>& attributes, std::string_view name) {
  for (const KeptAttribute& a : attributes)
    if (a.name == name) return &a;
  return nullptr;
}

// A config attribute through the Keras walk: Keras reads it as a string (bytes decoded as UTF-8)
// and parses it as JSON. Anything else is not a model Keras can load, and not one to judge.
bool walk(const KeptAttribute& a, const Limits& limits, FindingList& findings, bool top_object, KerasSummary* facts) {
  const std::string where = "attribute " + quoted(a.name, 40) + ": ";
  if (!a.string) {
    findings.add(Rule::kr_config, where + "is " + printable(a.row.type) + ", not a string of JSON: Keras cannot read the model from it",
                 a.offset);
    return false;
  }
  keras::ConfigWalk w(limits.keras, findings, a.offset, where, a.name, top_object, limits.policy);
  w.feed(a.value);
  w.finish();
  if (facts) *facts = w.facts();
  return true;
}

}  // namespace

void judge_keras(const std::vector<KeptAttribute>& attributes, const Limits& limits, FindingList& findings,
                 Hdf5Summary& summary) {
  const KeptAttribute* model = find(attributes, "model_config");
  if (!model) return;  // not a Keras model: listed, not judged
  summary.keras = true;
  if (const KeptAttribute* v = find(attributes, "keras_version"); v && v->string)
    summary.keras_version = printable(std::string_view(v->value).substr(0, kVersionText));
  if (const KeptAttribute* b = find(attributes, "backend"); b && b->string)
    summary.backend = printable(std::string_view(b->value).substr(0, kVersionText));
  KerasSummary facts;
  if (walk(*model, limits, findings, true, &facts)) summary.model = std::move(facts);
  if (const KeptAttribute* t = find(attributes, "training_config")) {
    summary.training_config = true;
    walk(*t, limits, findings, false, nullptr);
  }
}

}  // namespace tensorgate::detail::hdf5
