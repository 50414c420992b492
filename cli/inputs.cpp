#include "inputs.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "file_kind.hpp"
#include "template_check.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate::cli {
namespace fs = std::filesystem;

namespace {

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

// What each file is by its content; whether the files make a model directory.
std::vector<ListedFile> listed_kinds(const std::vector<fs::path>& files) {
  std::vector<ListedFile> listed;
  for (const auto& f : files) {
    const auto kind = sniff_file(f);
    listed.push_back({f.filename().string(), kind ? kind->format : Format::unknown});
  }
  return listed;
}

bool is_nested_template(const ListedFile& f) {
  return template_file_kind(f.name, f.format) == ChatTemplateFileKind::jinja;
}

// Depth-first with an explicit stack (a deep tree costs memory, not stack frames). Below a
// model directory, *.jinja files are its own (nested_template_files): only a nested model
// directory's, and other files of model formats, become items of their own.
void walk(const fs::path& root, ExpandedInputs& out) {
  struct Pending {
    fs::path dir;
    bool in_model;  // below a model directory
  };
  std::vector<Pending> pending{{root, false}};
  while (!pending.empty()) {
    const Pending p = pending.back();
    pending.pop_back();
    std::error_code ec;
    Listing l = list(p.dir, ec);
    if (ec) {
      out.push_back({p.dir.string(), "cannot walk the directory: " + ec.message()});
      continue;
    }
    // Every regular file by its content: a model directory is checked as one item, elsewhere
    // each model file (or file under a weight's name) and chat template file on its own.
    const std::vector<ListedFile> listed = listed_kinds(l.files);
    const bool model = is_model_directory(listed);
    if (model) {
      out.push_back({p.dir.string(), std::nullopt, true});
    } else {
      for (std::size_t i = 0; i < l.files.size(); ++i) {
        if (p.in_model && is_nested_template(listed[i])) continue;
        if (is_openvino_weights(listed[i].name, listed)) continue;  // checked with its model.xml
        if (is_checked_file(listed[i].name, listed[i].format) || template_file_kind(listed[i].name, listed[i].format))
          out.push_back({l.files[i].string(), std::nullopt});
      }
    }
    for (auto it = l.dirs.rbegin(); it != l.dirs.rend(); ++it) pending.push_back({*it, p.in_model || model});
  }
}

}  // namespace

std::vector<std::string> nested_template_files(const std::string& dir) {
  std::vector<std::string> out;
  std::vector<std::string> pending{""};  // relative to `dir`
  while (!pending.empty()) {
    const std::string rel = pending.back();
    pending.pop_back();
    std::error_code ec;
    Listing l = list(fs::path(dir) / rel, ec);
    if (ec) continue;  // the walk reports it
    const std::vector<ListedFile> listed = listed_kinds(l.files);
    if (!rel.empty()) {
      if (is_model_directory(listed)) continue;  // checked as a model directory of its own
      for (const ListedFile& f : listed)
        if (is_nested_template(f)) out.push_back(rel + f.name);
    }
    for (auto it = l.dirs.rbegin(); it != l.dirs.rend(); ++it) pending.push_back(rel + it->filename().string() + "/");
  }
  return out;
}

ExpandedInputs expand_inputs(const std::vector<std::string>& paths) {
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
      walk(p, out);
    } else {
      out.push_back({p, std::nullopt});
    }
  }
  return out;
}

}  // namespace tensorgate::cli
