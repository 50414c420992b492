#include "keras/config_walk.hpp"

#include <algorithm>
#include <array>
#include <boost/json/basic_parser_impl.hpp>

#include "common/printable.hpp"
#include "keras/object_judge.hpp"

namespace tensorgate::detail::keras {
namespace {

using sv = boost::json::string_view;
using ec_t = boost::json::error_code;

constexpr std::size_t kKept = 256;  // the longest key or string value kept (names, modules)
constexpr std::string_view kUnsafe = "enable_unsafe_deserialization";

// One level of nesting: an object (judged when it closes) or an array.
struct Frame {
  bool object = false;
  std::string role;  // the key this value was given in its parent ("config", "layers", ...)
  std::string key;   // the key being read
  KerasObject seen;
};

class Handler {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1), max_array_size = std::size_t(-1),
                               max_key_size = std::size_t(-1), max_string_size = std::size_t(-1);

  Handler(const KerasLimits& limits, FindingList& findings, std::uint64_t base, std::string where,
          std::shared_ptr<const Policy> policy)
      : limits_(limits), findings_(findings), base_(base), where_(std::move(where)), policy_(std::move(policy)) {}

  bool on_document_begin(ec_t&) { return true; }
  bool on_document_end(ec_t&) { return true; }
  bool on_object_begin(ec_t&) { return open(true); }
  bool on_object_end(std::size_t, ec_t&) { return close(); }
  bool on_array_begin(ec_t&) { return open(false); }
  bool on_array_end(std::size_t, ec_t&) { return close(); }
  bool on_key_part(sv s, std::size_t, ec_t&) { return text_part(s, true); }
  bool on_key(sv s, std::size_t, ec_t&) {
    text_part(s, true);
    if (!frames_.empty()) frames_.back().key = std::move(text_);
    text_.clear();
    text_end();
    return true;
  }
  bool on_string_part(sv s, std::size_t, ec_t&) { return text_part(s, wanted()); }
  bool on_string(sv s, std::size_t, ec_t&) {
    text_part(s, wanted());
    if (!frames_.empty() && frames_.back().object) note_string(frames_.back(), text_);
    text_.clear();
    text_end();
    return true;
  }
  bool on_number_part(sv, ec_t&) { return true; }
  bool on_int64(std::int64_t, sv, ec_t&) { return true; }
  bool on_uint64(std::uint64_t, sv, ec_t&) { return true; }
  bool on_double(double, sv, ec_t&) { return true; }
  bool on_bool(bool, ec_t&) { return true; }
  bool on_null(ec_t&) { return true; }
  bool on_comment_part(sv, ec_t&) { return true; }
  bool on_comment(sv, ec_t&) { return true; }

  KerasConfigFacts& facts() { return facts_; }
  bool top_is_keras() const { return top_is_keras_; }
  bool top_seen() const { return top_seen_; }

 private:
  bool open(bool object) {
    Frame f;
    f.object = object;
    if (!frames_.empty()) f.role = frames_.back().key;
    frames_.push_back(std::move(f));
    return true;
  }

  bool close() {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    if (!f.object) return true;
    if (f.role == "config" && !frames_.empty()) {
      // What the checks need of an object's config: its name, and a vocabulary given as a path.
      KerasObject& owner = frames_.back().seen;
      owner.layer_name = f.seen.layer_name;
      owner.vocabulary_path = f.seen.vocabulary_path;
    }
    // Keras deserialises an object by its class_name; a "module" key alone is some config's
    // own field (TorchModuleWrapper's pickled module).
    const bool keras_object = !f.seen.class_name.empty();
    if (frames_.empty()) {
      top_seen_ = true;
      top_is_keras_ = !f.seen.class_name.empty();
      if (top_is_keras_) facts_.model_class = printable(std::string_view(f.seen.class_name).substr(0, 128));
    }
    if (keras_object) judge(f.seen);
    return true;
  }

  // The key's value is kept only where a check reads it.
  bool wanted() const {
    if (frames_.empty() || !frames_.back().object) return false;
    const std::string& k = frames_.back().key;
    return k == "module" || k == "class_name" || k == "registered_name" || k == "config" || k == "name" ||
           k == "vocabulary";
  }

  void note_string(Frame& f, const std::string& value) {
    const std::string& k = f.key;
    if (k == "module") f.seen.module = value;
    else if (k == "class_name") f.seen.class_name = value;
    else if (k == "registered_name") f.seen.registered_name = value;
    else if (k == "config") f.seen.config_text = value;
    else if (k == "name" && f.role == "config") f.seen.layer_name = value;
    else if (k == "vocabulary" && f.role == "config") f.seen.vocabulary_path = true;
  }

  // A key or string in parts: the first kKept bytes kept when wanted, and every byte searched
  // for enable_unsafe_deserialization across the parts.
  bool text_part(sv s, bool keep) {
    if (keep && text_.size() < kKept + 1) text_.append(s.data(), std::min(s.size(), kKept + 1 - text_.size()));
    if (unsafe_found_ || unsafe_seen_) return true;
    window_.append(s.data(), s.size());
    unsafe_seen_ = window_.find(kUnsafe) != std::string::npos;
    if (window_.size() >= kUnsafe.size()) window_.erase(0, window_.size() - (kUnsafe.size() - 1));
    return true;
  }
  // The key or string is whole: the finding, if it named the flag. Not before: a string the
  // parser then refuses (invalid UTF-8 further on) reaches this handler in parts or not at all,
  // depending on where the chunks end.
  void text_end() {
    if (unsafe_seen_ && !unsafe_found_) {
      unsafe_found_ = true;
      findings_.add(Rule::kr_dangerous_object,
                    where_ + "names enable_unsafe_deserialization, which turns Keras's safe mode off for what it loads "
                             "next (CVE-2025-9906)",
                    base_);
    }
    unsafe_seen_ = false;
    window_.clear();
  }

  void judge(const KerasObject& o) {
    ++facts_.objects;
    const Verdict v = judge_object(o, policy_.get());
    if (v.custom) ++facts_.custom_objects;
    count_class(o, verdict_of(o, v));
    for (const Verdict::Item& item : v.items) findings_.add(item.rule, where_ + item.message, base_);
  }

  static KerasClassVerdict verdict_of(const KerasObject& o, const Verdict& v) {
    // A serialised function whose config is no name is a Lambda's bytecode: its finding is the
    // Lambda's (KR.lambda), and the summary says which class carried it.
    if ((o.class_name == "function" || o.class_name == "__lambda__") && o.config_text.empty())
      return KerasClassVerdict::dangerous;
    for (const Verdict::Item& item : v.items)
      if (item.rule != Rule::kr_custom_object) return KerasClassVerdict::dangerous;
    return v.custom ? KerasClassVerdict::custom : KerasClassVerdict::keras;
  }

  void count_class(const KerasObject& o, KerasClassVerdict verdict) {
    if (o.class_name.empty()) return;
    // Compared as listed (printable, cut), so a long or escaped name counts in one row.
    std::string class_name = printable(std::string_view(o.class_name).substr(0, 128));
    std::string module = printable(std::string_view(o.module).substr(0, 128));
    for (KerasClassCount& c : facts_.classes) {
      if (c.class_name == class_name && c.module == module) {
        ++c.count;
        c.verdict = std::max(c.verdict, verdict);
        return;
      }
    }
    if (facts_.classes.size() >= limits_.max_listed_classes) {
      ++facts_.classes_not_listed;
      return;
    }
    facts_.classes.push_back(KerasClassCount{std::move(class_name), std::move(module), 1, verdict});
  }

  const KerasLimits limits_;  // a copy (a few numbers): a caller may pass a temporary
  FindingList& findings_;
  std::uint64_t base_;
  std::string where_;
  std::shared_ptr<const Policy> policy_;
  std::vector<Frame> frames_;
  std::string text_, window_;
  bool unsafe_found_ = false, unsafe_seen_ = false;
  bool top_seen_ = false, top_is_keras_ = false;
  KerasConfigFacts facts_;
};

boost::json::parse_options options_of(const KerasLimits& limits) {
  boost::json::parse_options o;
  o.max_depth = limits.max_depth;
  return o;
}

// Boost.JSON names an unpaired surrogate "leading" or "trailing" by where its resumable parser
// stood when the chunk ended, not by the escape: the two are one fault here, so the finding is
// the same however the bytes arrive.
std::string json_error_text(const ec_t& ec) {
  namespace je = boost::json;
  if (ec == je::error::illegal_leading_surrogate || ec == je::error::illegal_trailing_surrogate)
    return "an unpaired UTF-16 surrogate in a \\u escape";
  return ec.message();
}

}  // namespace

struct ConfigWalk::Impl {
  Impl(const KerasLimits& l, FindingList& f, std::uint64_t b, std::string w, std::shared_ptr<const Policy> p)
      : limits(l), findings(f), base(b), where(w), parser(options_of(l), l, f, b, std::move(w), std::move(p)) {}
  const KerasLimits limits;  // a copy, as the handler keeps: a caller may pass a temporary
  FindingList& findings;
  std::uint64_t base;
  std::string where;
  boost::json::basic_parser<Handler> parser;
  std::string document = "config.json";
  bool top_object = true;
  std::uint64_t fed = 0;
  bool failed = false;

  void fail(std::string why) {
    if (failed) return;
    failed = true;
    findings.add(Rule::kr_config, where + why, base);
  }
};

ConfigWalk::ConfigWalk(const KerasLimits& limits, FindingList& findings, std::uint64_t base, std::string where,
                       std::string document, bool top_object, std::shared_ptr<const Policy> policy)
    : impl_(std::make_unique<Impl>(limits, findings, base, std::move(where), std::move(policy))) {
  impl_->document = std::move(document);
  impl_->top_object = top_object;
}

ConfigWalk::~ConfigWalk() = default;

void ConfigWalk::feed(std::string_view bytes) {
  Impl& s = *impl_;
  if (s.failed || bytes.empty()) return;
  if (bytes.size() > s.limits.max_config_bytes - std::min(s.fed, s.limits.max_config_bytes)) {
    return s.fail(s.document + " is larger than Limits::keras.max_config_bytes (" +
                  std::to_string(s.limits.max_config_bytes) + " bytes): it is not judged");
  }
  s.fed += bytes.size();
  std::size_t used = 0;
  if (!s.parser.done()) {
    ec_t ec;
    used = s.parser.write_some(true, bytes.data(), bytes.size(), ec);
    // No byte position: where the parser stops inside a token depends on where the chunks end.
    if (ec) return s.fail(s.document + " is not JSON: " + json_error_text(ec));
  }
  if (s.parser.done() && bytes.substr(used).find_first_not_of(" \t\r\n") != std::string_view::npos)
    s.fail(s.document + " goes on after its JSON document");
}

void ConfigWalk::finish() {
  Impl& s = *impl_;
  if (s.failed) return;
  if (!s.parser.done()) {
    ec_t ec;
    s.parser.write_some(false, nullptr, 0, ec);
    if (ec || !s.parser.done()) return s.fail(s.document + " ends inside its JSON document");
  }
  const Handler& h = s.parser.handler();
  if (s.top_object && !h.top_is_keras()) s.fail(s.document + " is not a Keras object: its top level has no class_name");
}

const KerasConfigFacts& ConfigWalk::facts() const { return impl_->parser.handler().facts(); }

}  // namespace tensorgate::detail::keras
