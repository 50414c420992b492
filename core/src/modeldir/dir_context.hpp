#pragma once
// What the directory checks share: the inputs, the parsed config, and where findings go.
#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

class DirContext {
 public:
  DirContext(const ModelDirectory& dir, const DirectoryLimits& limits) : dir_(dir), limits_(limits) {}

  const ModelDirectory& dir() const { return dir_; }
  const DirectoryLimits& limits() const { return limits_; }
  const FileInventory* weights_file(std::string_view name) const;
  bool has_file(std::string_view name) const;

  // Inside a directory a rule's default severity holds (errors, but for the warnings and infos
  // the catalogue says), capped at a thousand findings.
  void add(Rule rule, std::string message, std::optional<std::string_view> tensor = std::nullopt);
  void add(Finding f);
  std::vector<Finding>& findings() { return findings_; }
  std::uint64_t dropped_errors() const { return dropped_errors_; }

  std::optional<boost::json::object> config;
  std::vector<const FileInventory*> model_files;  // the files that make up the model
  DirectorySummary summary;

 private:
  const ModelDirectory& dir_;
  DirectoryLimits limits_;
  std::vector<Finding> findings_;
  std::uint64_t dropped_errors_ = 0;
};

// SH: the index against the shards. Sets model_files to the shards it names that exist.
void check_shards(DirContext& ctx);
// AR: the tensor inventory against config.json.
void check_architecture(DirContext& ctx);
// TL and MD's tokenizer rule, where config.json declares a tl_arch.
void check_tinyllm_directory(DirContext& ctx);

// int4-g<group>-sym -> group; nothing when malformed.
std::optional<std::uint64_t> int4_group(std::string_view quant);

}  // namespace tensorgate::detail
