#pragma once
// The chat templates of tokenizer_config.json or chat_template.json: the top-level
// "chat_template", a string or a list of {"name", "template"}. The JSON is parsed once by
// Boost.JSON's SAX parser (a DOM would keep only the last of duplicate keys, where Python's json
// keeps the last too but a hub may show the first: every occurrence is judged), and each template
// streams through a TemplateScan as its parts are unescaped: nothing is copied whole.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "chat_template/scan.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail::ct {

struct JsonTemplate {
  std::string label;  // "chat_template", "chat_template \"tool_use\"", "chat_template[2]"
  std::uint64_t bytes = 0;
  std::vector<Result> results;
};

struct JsonTemplatesOut {
  std::function<void(JsonTemplate)> on_template;
  std::function<void(std::string)> on_shape;  // CT.shape
};

// Empty when the text was read; otherwise why not (CT.unreadable). Templates read before a
// problem are still given to `out`.
std::string scan_config_json(std::string_view text, const Limits& limits, const JsonTemplatesOut& out);

}  // namespace tensorgate::detail::ct
