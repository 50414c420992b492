#include "inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

bool has_extension(const fs::path& p, const std::vector<std::string>& extensions) {
  const std::string name = p.filename().string();
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const std::string& ext) { return name.size() > ext.size() && name.ends_with(ext); });
}

void walk(const fs::path& dir, const std::vector<std::string>& extensions, ExpandedInputs& out) {
  std::vector<std::string> found;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_regular_file(type_ec) && has_extension(it->path(), extensions))
      found.push_back(it->path().string());
  }
  if (ec) out.push_back({dir.string(), "cannot walk the directory: " + ec.message()});
  std::sort(found.begin(), found.end());
  for (std::string& f : found) out.push_back({std::move(f), std::nullopt});
}

}  // namespace

ExpandedInputs expand_inputs(const std::vector<std::string>& paths,
                             const std::vector<std::string>& extensions) {
  ExpandedInputs out;
  for (const std::string& p : paths) {
    if (p == "-") {
      out.push_back({p, std::nullopt});
      continue;
    }
    std::error_code ec;
    const fs::file_status status = fs::status(p, ec);
    if (ec || status.type() == fs::file_type::not_found) {
      out.push_back({p, ec ? ec.message() : "no such file or directory"});
    } else if (fs::is_directory(status)) {
      walk(p, extensions, out);
    } else {
      out.push_back({p, std::nullopt});
    }
  }
  return out;
}

}  // namespace tensorgate::cli
