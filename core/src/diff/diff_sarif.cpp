// The diff as SARIF 2.1.0, in the conventions of every tensorgate log (report/sarif_parts): the
// rule catalogue then the change kinds as tool.driver.rules ("diff/<kind>"), the inputs'
// validation findings under their rule ids, and one result per kind of each change, located at
// the tensor's entry in its file's header (NEW's, or OLD's for a removed tensor). A kind of the
// gate (--fail-on) is an error, any other a note.
#include <vector>

#include "format.hpp"
#include "report/sarif_parts.hpp"

namespace tensorgate {
namespace {

using detail::sarif_uri;
using namespace detail::diff;

struct Artifacts {
  std::vector<std::string> uris;
  std::size_t old_first = 0, new_first = 0;  // the sides' first files
  std::optional<std::size_t> old_dir, new_dir, old_config, new_config;
};

Artifacts artifacts_of(const DiffReport& r) {
  Artifacts a;
  const auto side = [&](const DiffSideSummary& s, std::size_t& first, std::optional<std::size_t>& dir,
                        std::optional<std::size_t>& config) {
    first = a.uris.size();
    for (const DiffInputFile& f : s.files) a.uris.push_back(sarif_uri(f.path));
    if (s.directory_path) {
      dir = a.uris.size();
      a.uris.push_back(sarif_uri(*s.directory_path));
      config = a.uris.size();
      a.uris.push_back(sarif_uri(*s.directory_path + "/config.json"));
    }
  };
  side(r.old_side, a.old_first, a.old_dir, a.old_config);
  side(r.new_side, a.new_first, a.new_dir, a.new_config);
  return a;
}

std::string change_message(const TensorChange& c) {
  std::string m = kinds_text(c.kinds) + ": tensor \"" + change_name(c) + "\"";
  if (c.old_tensor) m += ", was " + tensor_text(*c.old_tensor);
  if (c.new_tensor) m += ", is " + tensor_text(*c.new_tensor);
  if (c.values) m += "; values: " + values_text(*c.values);
  if (!c.note.empty()) m += " (" + c.note + ")";
  return m;
}

void write_changes(JsonWriter& w, const DiffReport& r, const Artifacts& a) {
  const std::uint64_t base = all_rules().size();
  const auto level = [&](ChangeKind k) { return r.fail_on.has(k) ? "error" : "note"; };
  std::vector<std::string> ids;
  for (const ChangeKindInfo& k : change_kinds()) ids.push_back("diff/" + std::string(k.id));
  for (const TensorChange& c : r.changes) {
    const bool in_new = c.new_tensor.has_value();
    const DiffTensor& t = in_new ? *c.new_tensor : *c.old_tensor;
    const std::size_t artifact = (in_new ? a.new_first : a.old_first) + t.file;
    const std::string message = change_message(c);
    for (const ChangeKindInfo& k : change_kinds()) {
      if (!c.kinds.has(k.kind)) continue;
      const auto i = static_cast<std::size_t>(k.kind);
      detail::write_sarif_result(w, {ids[i], base + i, level(k.kind), message, a.uris[artifact], artifact, t.header_offset});
    }
  }
  for (const KeyChange& k : r.keys) {
    std::size_t artifact = k.new_value ? a.new_first : a.old_first;
    if (k.kind == ChangeKind::config) artifact = a.new_config ? *a.new_config : a.old_config.value_or(artifact);
    if (artifact >= a.uris.size()) continue;  // a side without files: invalid, no changes
    const auto i = static_cast<std::size_t>(k.kind);
    const std::string message = std::string(k.kind == ChangeKind::config ? "config.json" : "metadata") + " key \"" + k.key +
                                "\": " + (k.old_value ? *k.old_value : "(absent)") + " -> " +
                                (k.new_value ? *k.new_value : "(absent)");
    detail::write_sarif_result(w, {ids[i], base + i, level(k.kind), message, a.uris[artifact], artifact, std::nullopt});
  }
}

void write_findings(JsonWriter& w, const DiffSideSummary& s, std::size_t first, std::optional<std::size_t> dir,
                    const Artifacts& a) {
  for (std::size_t f = 0; f < s.files.size(); ++f)
    for (const Finding& finding : s.files[f].findings) detail::write_sarif_finding(w, finding, a.uris[first + f], first + f);
  if (dir)
    for (const Finding& finding : s.directory_findings) detail::write_sarif_finding(w, finding, a.uris[*dir], *dir);
}

}  // namespace

void write_diff_sarif(const DiffReport& r, const JsonWriter::Sink& sink) {
  std::vector<std::string> ids;
  std::vector<detail::SarifDescriptor> kinds;
  for (const ChangeKindInfo& k : change_kinds()) ids.push_back("diff/" + std::string(k.id));
  for (const ChangeKindInfo& k : change_kinds())
    kinds.push_back({ids[static_cast<std::size_t>(k.kind)], k.help, k.help, "note", "diff"});
  const Artifacts a = artifacts_of(r);
  detail::SarifRun run;
  run.extra_rules = kinds;
  run.successful = !r.io_error;
  for (const std::optional<std::string>* why : {&r.invalid, &r.io_error})
    if (*why) run.notifications.push_back(**why);
  for (const std::string& uri : a.uris) run.artifacts.push_back({uri, std::nullopt});
  detail::write_sarif_log(sink, run, [&](JsonWriter& w) {
    write_findings(w, r.old_side, a.old_first, a.old_dir, a);
    write_findings(w, r.new_side, a.new_first, a.new_dir, a);
    write_changes(w, r, a);
  });
}

}  // namespace tensorgate
