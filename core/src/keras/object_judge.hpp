#pragma once
// One Keras object of a config, judged as Keras would deserialise it: its class (Lambda,
// TFSMLayer, TorchModuleWrapper, a lookup layer with a vocabulary path), its module and
// registered name, and, for a serialised function, the module joined with the function's name,
// through the pickle judge's deny-list and hostile shapes (a module Keras imports is a module a
// pickle would import). A module outside Keras is a custom object, unless the policy allows it;
// a module the policy denies is KR.policy-denied.
#include <string>
#include <vector>

#include "tensorgate/policy.hpp"
#include "tensorgate/rules.hpp"

namespace tensorgate::detail::keras {

struct KerasObject {
  std::string module, class_name, registered_name;
  std::string config_text;  // a config that is a string: a serialised function's name
  std::string layer_name;   // config.name
  bool vocabulary_path = false;  // config.vocabulary is a string: a file path
};

struct Verdict {
  struct Item {
    Rule rule;
    std::string message;
  };
  std::vector<Item> items;
  // From a module outside Keras (KR.custom-object among the items, unless the policy allows the
  // module: a custom object still, only not warned of).
  bool custom = false;
};

// `policy`: the policy in force, or null (its keras section: docs/policy.md).
Verdict judge_object(const KerasObject& o, const Policy* policy = nullptr);

}  // namespace tensorgate::detail::keras
