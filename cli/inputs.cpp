#include "inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "tensorgate/model_dir.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

bool has_extension(const fs::path& p, const std::vector<std::string>& extensions) {
  const std::string name = p.filename().string();
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const std::string& ext) {
                       // ".gguf" needs a name before it; "tokenizer_config.json" is a whole name
                       return ext.starts_with('.') ? name.size() > ext.size() && name.ends_with(ext) : name == ext;
                     });
}

// The regular files and subdirectories of one directory, sorted by name.
struct Listing {
  std::vector<fs::path> files, dirs;
};

Listing list(const fs::path& dir, std::error_code& ec) {
  Listing l;
  for (fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    std::error_code type_ec;
    if (it->is_symlink(type_ec) && it->is_directory(type_ec)) continue;  // no directory symlinks
    if (it->is_directory(type_ec)) l.dirs.push_back(it->path());
    else if (it->is_regular_file(type_ec)) l.files.push_back(it->path());
  }
  std::sort(l.files.begin(), l.files.end());
  std::sort(l.dirs.begin(), l.dirs.end());
  return l;
}

// Depth-first with an explicit stack (a deep tree costs memory, not stack frames).
void walk(const fs::path& root, const std::vector<std::string>& extensions, ExpandedInputs& out) {
  std::vector<fs::path> pending{root};
  while (!pending.empty()) {
    const fs::path dir = pending.back();
    pending.pop_back();
    std::error_code ec;
    Listing l = list(dir, ec);
    if (ec) {
      out.push_back({dir.string(), "cannot walk the directory: " + ec.message()});
      continue;
    }
    std::vector<std::string> names;
    for (const auto& f : l.files) names.push_back(f.filename().string());
    if (is_model_directory(names)) {
      out.push_back({dir.string(), std::nullopt, true});
    } else {
      for (const auto& f : l.files)
        if (has_extension(f, extensions)) out.push_back({f.string(), std::nullopt});
    }
    for (auto it = l.dirs.rbegin(); it != l.dirs.rend(); ++it) pending.push_back(*it);
  }
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
