#include "savedmodel_dir.hpp"

#include <algorithm>

#include "file_source.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxListedAssets = 10000;  // assets/ files named in the summary

bool plain_file(const fs::directory_entry& e) {
  std::error_code ec;
  return e.symlink_status(ec).type() == fs::file_type::regular;
}

// The files below assets/, relative to it, depth first with an explicit stack; symbolic links
// to directories are not entered.
std::vector<std::string> list_assets(const fs::path& assets) {
  std::vector<std::string> out;
  std::vector<fs::path> pending{assets};
  while (!pending.empty() && out.size() < kMaxListedAssets) {
    const fs::path dir = pending.back();
    pending.pop_back();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && out.size() < kMaxListedAssets; it.increment(ec)) {
      std::error_code type_ec;
      const fs::file_type type = it->symlink_status(type_ec).type();
      if (type == fs::file_type::directory) pending.push_back(it->path());
      else out.push_back(it->path().lexically_relative(assets).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

SavedModelVariables savedmodel_variables(const fs::path& dir, const Limits& limits) {
  SavedModelVariables vars;
  const fs::path variables = dir / "variables";
  std::error_code ec;
  vars.folder = fs::symlink_status(variables, ec).type() == fs::file_type::directory;
  if (vars.folder) {
    for (fs::directory_iterator it(variables, ec), end; !ec && it != end; it.increment(ec)) {
      if (!plain_file(*it)) continue;
      const std::string name = it->path().filename().string();
      std::error_code size_ec;
      if (name == "variables.index") {
        if (it->file_size(size_ec) > limits.savedmodel.max_index_bytes) vars.index_too_large = true;
        else vars.index = read_small_file(it->path().string(), limits.savedmodel.max_index_bytes);
      } else if (name.starts_with("variables.data-")) {
        vars.shards.push_back({name, it->file_size(size_ec)});
      }
    }
    std::sort(vars.shards.begin(), vars.shards.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  }
  if (fs::symlink_status(dir / "assets", ec).type() == fs::file_type::directory) vars.assets = list_assets(dir / "assets");
  return vars;
}

}  // namespace tensorgate::cli
