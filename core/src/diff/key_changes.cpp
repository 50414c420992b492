#include "key_changes.hpp"

#include <boost/json/serialize.hpp>
#include <map>
#include <utility>

#include "common/json_doc.hpp"
#include "tensorgate/json_writer.hpp"
#include "tensorgate/sha256.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail::diff {
namespace {

using Keys = std::map<std::string, std::string>;

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string_lossy(out, s);
  return out;
}

void add_metadata(const Report& r, Keys& keys) {
  if (const SafetensorsSummary* st = r.summary.get<SafetensorsSummary>())
    for (std::size_t i = 0; i < st->metadata_size(); ++i) {
      const auto [k, v] = st->metadata(i);
      keys.emplace(std::string(k), json_string(v));
    }
  const GgufSummary* gguf = r.summary.get<GgufSummary>();
  if (!gguf) return;
  for (const GgufScalar& s : gguf->scalars) keys.emplace(s.key, gguf_scalar_text(s));
  if (gguf->vocab_size) keys.emplace("tokenizer.ggml.tokens", "[" + std::to_string(*gguf->vocab_size) + " tokens]");
  if (gguf->chat_template) keys.emplace("tokenizer.chat_template", "(present; not kept, not compared)");
}

Keys metadata_of(const DiffSide& side) {
  Keys keys;
  for (const DiffFile& f : side.files)
    if (f.report) add_metadata(*f.report, keys);  // emplace: the first file's value stays
  return keys;
}

// config.json as dotted keys; explicit stack (the parser bounded its depth).
Keys flatten(const boost::json::object& root) {
  Keys keys;
  struct Frame {
    const boost::json::object* object;
    boost::json::object::const_iterator next;
    std::string prefix;
  };
  std::vector<Frame> stack{{&root, root.begin(), ""}};
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next == f.object->end()) {
      stack.pop_back();
      continue;
    }
    const auto& [k, v] = *f.next++;
    std::string key = f.prefix + std::string(k);
    if (v.is_object() && !v.as_object().empty()) {
      const auto& o = v.as_object();
      stack.push_back(Frame{&o, o.begin(), key + "."});  // f is not used after this
    } else {
      keys.emplace(std::move(key), boost::json::serialize(v));
    }
  }
  return keys;
}

}  // namespace

std::string cut_text(std::string v, std::uint64_t max) {
  if (v.size() <= max) return v;
  const std::string digest = Sha256::hex_of(v.data(), v.size());
  const std::size_t full = v.size();
  v.resize(utf8_prefix(v, static_cast<std::size_t>(max)));
  return v + "... (cut: " + std::to_string(full) + " bytes, sha256 " + digest + ")";
}

namespace {

void compare(ChangeKind kind, const Keys& a, const Keys& b, std::uint64_t max, std::vector<KeyChange>& out) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() || j != b.end()) {
    KeyChange c;
    c.kind = kind;
    if (j == b.end() || (i != a.end() && i->first < j->first)) {
      c.key = i->first, c.old_value = cut_text(i->second, max), ++i;
    } else if (i == a.end() || j->first < i->first) {
      c.key = j->first, c.new_value = cut_text(j->second, max), ++j;
    } else {
      const bool same = i->second == j->second;
      if (!same) c.key = i->first, c.old_value = cut_text(i->second, max), c.new_value = cut_text(j->second, max);
      ++i, ++j;
      if (same) continue;
    }
    c.key = cut_text(std::move(c.key), max);
    out.push_back(std::move(c));
  }
}

// A side's config keys, or a one-key map saying why there are none.
std::optional<Keys> config_of(const DiffSide& side, const DirectoryLimits& limits) {
  if (!side.config_json) return std::nullopt;
  JsonDoc doc = parse_json_object(*side.config_json, limits);
  if (!doc.object) return Keys{{"config.json", "(invalid: " + doc.error + ")"}};
  return flatten(*doc.object);
}

}  // namespace

std::vector<KeyChange> key_changes(const DiffSide& old_side, const DiffSide& new_side, const Limits& limits) {
  std::vector<KeyChange> out;
  const std::uint64_t max = limits.report.max_string_bytes;
  compare(ChangeKind::metadata, metadata_of(old_side), metadata_of(new_side), max, out);
  const auto a = config_of(old_side, limits.directory), b = config_of(new_side, limits.directory);
  if (a && b) {
    compare(ChangeKind::config, *a, *b, max, out);
  } else if (a || b) {
    KeyChange c{ChangeKind::config, "config.json", std::nullopt, std::nullopt};
    (a ? c.old_value : c.new_value) = "(present)";
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace tensorgate::detail::diff
