#pragma once
// A .keras archive's config.json, judged as Keras deserialises it: a tree of objects
// {module, class_name, config, registered_name}, where a serialised function is an object of
// class_name "function" whose config is the function's name (module + name is what Keras
// imports: builtins + exec is builtins.exec), and nested objects (layers, initializers,
// activations, wrappers' inner layers) count as much as the top one. Fed in chunks through
// Boost.JSON's push parser; on each level of nesting only the object being judged is kept (its
// module, class name, registered name and the few facts the checks need), so the memory is
// bounded by Limits::keras.max_depth, not by the config's size. Each object is judged when it
// closes, once all its keys are known in whatever order they came.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/finding_list.hpp"
#include "tensorgate/keras.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail::keras {

using KerasConfigFacts = KerasSummary;

class ConfigWalk {
 public:
  // `where`: a prefix for messages ("entry \"config.json\": "); `base`: the file offset findings
  // point at (the entry's); `document`: what the messages call the JSON (a legacy .h5 file's
  // "model_config" attribute); `top_object`: whether its top level must be a Keras object (a
  // legacy training_config is a plain dict of them); `policy`: the policy in force
  // (Limits::policy), or null.
  ConfigWalk(const KerasLimits& limits, FindingList& findings, std::uint64_t base, std::string where,
             std::string document = "config.json", bool top_object = true,
             std::shared_ptr<const Policy> policy = nullptr);
  ~ConfigWalk();
  ConfigWalk(const ConfigWalk&) = delete;
  ConfigWalk& operator=(const ConfigWalk&) = delete;

  void feed(std::string_view bytes);
  void finish();  // the entry has ended: a document cut short or of the wrong shape is KR.config
  const KerasConfigFacts& facts() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tensorgate::detail::keras
