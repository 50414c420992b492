#include "keras/object_judge.hpp"

#include "common/printable.hpp"
#include "pickle/global_judge.hpp"

namespace tensorgate::detail::keras {
namespace {

// Keras's own modules, and Python's builtins (a serialised function's or a Lambda's module,
// judged by the deny-list above, not imported from anywhere else).
bool keras_module(std::string_view m) {
  for (const std::string_view root : {"keras", "tf_keras", "tensorflow.keras", "tensorflow.python.keras", "builtins"}) {
    if (m == root || (m.size() > root.size() && m.starts_with(root) && m[root.size()] == '.')) return true;
  }
  return false;
}

std::string what(const KerasObject& o) {
  std::string s = o.class_name.empty() ? std::string("an object") : quoted(o.class_name, 80);
  if (!o.layer_name.empty()) s += " named " + quoted(o.layer_name, 80);
  return s;
}

// A dotted path through the pickle judge: dangerous, with its reason, or not.
std::optional<std::string> denied(std::string_view module, std::string_view name) {
  const pickle::NormalisedGlobal g = pickle::normalise_global(module, name);
  const pickle::Judgement j = pickle::judge_global(g.module, g.name);
  if (j.verdict != GlobalVerdict::dangerous) return std::nullopt;
  return g.module + "." + g.name + " (" + j.reason + ")";
}

}  // namespace

Verdict judge_object(const KerasObject& o, const Policy* policy) {
  Verdict v;
  const auto add = [&](Rule r, std::string m) { v.items.push_back(Verdict::Item{r, std::move(m)}); };
  if (o.class_name == "Lambda") {
    add(Rule::kr_lambda, "a Lambda layer" + (o.layer_name.empty() ? std::string() : " named " + quoted(o.layer_name, 80)) +
                             ": its function is marshalled Python bytecode that Keras runs when it loads the model "
                             "(CVE-2024-3660)");
  }
  if (o.class_name == "TFSMLayer") {
    add(Rule::kr_dangerous_object, what(o) + " loads a TensorFlow SavedModel from a path when the model loads (CVE-2026-1462)");
  }
  if (o.class_name == "TorchModuleWrapper") {
    add(Rule::kr_dangerous_object, what(o) + " holds a pickled torch module, unpickled when the model loads (CVE-2025-49655)");
  }
  if (o.vocabulary_path && (o.class_name == "StringLookup" || o.class_name == "IntegerLookup" ||
                            o.class_name == "TextVectorization")) {
    add(Rule::kr_dangerous_object, what(o) + " reads its vocabulary from a file path when the model loads (CVE-2025-12058)");
  }
  const bool function = o.class_name == "function" || o.registered_name == "function";
  if (function && (o.config_text == "get_file" || o.config_text.ends_with(".get_file"))) {
    add(Rule::kr_dangerous_object, "a serialised function get_file, which downloads and extracts files (CVE-2025-8747)");
  } else if (function && !o.module.empty() && !o.config_text.empty()) {
    if (const auto why = denied(o.module, o.config_text))
      add(Rule::kr_dangerous_object, "a serialised function that Keras resolves to " + printable(*why) + " (CVE-2025-1550)");
  }
  if (!o.module.empty() && !o.class_name.empty() && !function) {
    if (const auto why = denied(o.module, o.class_name))
      add(Rule::kr_dangerous_object, what(o) + " from module " + quoted(o.module, 120) + ": Keras imports " +
                                         printable(*why) + " (CVE-2025-1550)");
  }
  if (const auto dot = o.registered_name.rfind('.'); dot != std::string::npos && dot > 0) {
    if (const auto why = denied(o.registered_name.substr(0, dot), o.registered_name.substr(dot + 1)))
      add(Rule::kr_dangerous_object, what(o) + " is registered as " + printable(*why));
  }
  // The policy's denials after the built-in ones, whatever the module (keras's own too); its
  // allowances only silence KR.custom-object: they never reach a built-in denial above.
  const std::string* denied_by = policy && !o.module.empty() ? policy->keras_deny.match(o.module) : nullptr;
  if (denied_by && v.items.empty()) {
    add(Rule::kr_policy_denied, what(o) + " comes from module " + quoted(o.module, 120) + ", denied by the policy (" +
                                    *denied_by + "): loading the model imports it");
  } else if (!o.module.empty() && !keras_module(o.module) && v.items.empty()) {
    v.custom = true;
    if (!policy || !policy->keras_allow.match(o.module))
      add(Rule::kr_custom_object, what(o) + " comes from module " + quoted(o.module, 120) +
                                      ", outside Keras: loading the model imports it and builds its class");
  }
  // A legacy config (a Keras 2 .h5 file's) names no module: a class registered with
  // register_keras_serializable is "package>Name", built from code outside the file.
  if (o.module.empty() && v.items.empty()) {
    const std::string_view name = o.class_name.find('>') != std::string::npos ? o.class_name : o.registered_name;
    const std::size_t gt = name.find('>');
    if (gt != std::string_view::npos && gt > 0 && !keras_module(name.substr(0, gt))) {
      v.custom = true;
      add(Rule::kr_custom_object, what(o) + " is registered by package " + quoted(name.substr(0, gt), 120) +
                                      ", outside Keras: loading the model needs that package's class");
    }
  }
  return v;
}

}  // namespace tensorgate::detail::keras
