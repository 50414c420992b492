#pragma once
// The query of POST|PUT /v1/validate: format=auto|safetensors, name=<for the report>,
// tensors=true|false (the inventory in the report), digest=sha256|none.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::service {

struct UploadOptions {
  std::string format = "auto";
  std::optional<std::string> name;
  bool include_tensors = true;
  bool digest = true;
};

struct QueryResult {
  UploadOptions options;
  std::string error;  // empty when the query is usable
};

// Unknown, repeated or malformed parameters are errors: a misspelt `fromat=` must not silently
// validate with the default.
QueryResult parse_upload_query(std::string_view query, std::size_t max_name_bytes);

// Splits an origin-form target into path and query; nullopt for any other form.
struct Target {
  std::string_view path;
  std::string_view query;
};
std::optional<Target> split_target(std::string_view target);

// %XX and '+' decoding; nullopt on a malformed escape.
std::optional<std::string> percent_decode(std::string_view s);

}  // namespace tensorgate::service
