#include "chat_template/config_json.hpp"

#include <algorithm>
#include <boost/json/basic_parser_impl.hpp>
#include <optional>

#include "common/printable.hpp"

namespace tensorgate::detail::ct {
namespace {

using ec_t = boost::json::error_code;
using sv = boost::json::string_view;

// SAX events to templates. Containers nest through `stack` (bounded by the parser's max_depth).
class Handler {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1), max_array_size = std::size_t(-1),
                               max_key_size = std::size_t(-1), max_string_size = std::size_t(-1);

  Handler(const Limits& limits, const JsonTemplatesOut& out) : scan_(limits.chat_template), out_(out) {}
  bool not_object() const { return not_object_; }

  bool on_document_begin(ec_t&) { return true; }
  bool on_document_end(ec_t&) { return true; }
  bool on_object_begin(ec_t&) {
    if (stack_.empty()) {
      stack_.push_back(Ctx::top);
      return true;
    }
    const Role r = value_role();
    if (r == Role::element) {
      item_templates_.clear();
      item_name_.reset();
      stack_.push_back(Ctx::item);
      return true;
    }
    if (r != Role::none) shape(r, "an object");
    stack_.push_back(Ctx::other);
    return true;
  }
  bool on_object_end(std::size_t, ec_t&) {
    const Ctx c = pop();
    if (c == Ctx::item) finish_item();
    value_done();
    return true;
  }
  bool on_array_begin(ec_t&) {
    const Role r = root_value() ? Role::none : value_role();
    if (r == Role::chat_template) {
      element_ = 0;
      stack_.push_back(Ctx::list);
      return true;
    }
    if (r != Role::none) shape(r, "an array");
    stack_.push_back(Ctx::other);
    return true;
  }
  bool on_array_end(std::size_t, ec_t&) {
    pop();
    value_done();
    return true;
  }
  bool on_key_part(sv s, std::size_t, ec_t&) {
    key_part(s);
    return true;
  }
  bool on_key(sv s, std::size_t, ec_t&) {
    key_part(s);
    const Ctx c = stack_.empty() ? Ctx::other : stack_.back();
    key_role_ = Role::none;
    if (key_whole_ && c == Ctx::top && key_ == "chat_template") key_role_ = Role::chat_template;
    if (key_whole_ && c == Ctx::item && key_ == "name") key_role_ = Role::item_name;
    if (key_whole_ && c == Ctx::item && key_ == "template") key_role_ = Role::item_template;
    key_.clear();
    key_whole_ = true;
    return true;
  }
  bool on_string_part(sv s, std::size_t, ec_t&) {
    string_part(s);
    return true;
  }
  bool on_string(sv s, std::size_t, ec_t&) {
    string_part(s);
    in_string_ = false;
    if (string_role_ == Role::chat_template) {
      const std::uint64_t bytes = scan_.bytes();
      out_.on_template(JsonTemplate{"chat_template", bytes, scan_.finish()});
    } else if (string_role_ == Role::item_template) {
      const std::uint64_t bytes = scan_.bytes();
      item_templates_.push_back(JsonTemplate{{}, bytes, scan_.finish()});
    } else if (string_role_ == Role::item_name) {
      item_name_ = name_;
    }
    value_done();
    return true;
  }
  bool on_number_part(sv, ec_t&) { return true; }
  bool on_int64(std::int64_t, sv, ec_t&) { return scalar("a number"); }
  bool on_uint64(std::uint64_t, sv, ec_t&) { return scalar("a number"); }
  bool on_double(double, sv, ec_t&) { return scalar("a number"); }
  bool on_bool(bool, ec_t&) { return scalar("a boolean"); }
  bool on_null(ec_t&) {
    // A null chat_template is none at all; a null name is as good as none.
    const Role r = root_value() ? Role::none : value_role();
    if (r == Role::element || r == Role::item_template) shape(r, "null");
    value_done();
    return true;
  }
  bool on_comment_part(sv, ec_t&) { return true; }
  bool on_comment(sv, ec_t&) { return true; }

 private:
  enum class Ctx : std::uint8_t { top, list, item, other };
  enum class Role : std::uint8_t { none, chat_template, element, item_name, item_template };
  static constexpr std::size_t kKeyKeep = 16, kNameKeep = 64;

  bool root_value() {
    if (!stack_.empty()) return false;
    not_object_ = true;
    return true;
  }
  Role value_role() const {
    if (stack_.empty()) return Role::none;
    const Ctx c = stack_.back();
    if (c == Ctx::list) return Role::element;
    return c == Ctx::top || c == Ctx::item ? key_role_ : Role::none;
  }
  Ctx pop() {
    const Ctx c = stack_.back();
    stack_.pop_back();
    return c;
  }
  void value_done() {
    key_role_ = Role::none;
    if (!stack_.empty() && stack_.back() == Ctx::list) ++element_;
  }
  bool scalar(std::string_view what) {
    const Role r = root_value() ? Role::none : value_role();
    if (r != Role::none) shape(r, what);
    value_done();
    return true;
  }
  void key_part(sv s) {
    if (key_.size() + s.size() <= kKeyKeep) key_.append(s.data(), s.size());
    else key_whole_ = false;
  }
  void string_part(sv s) {
    if (!in_string_) {
      in_string_ = true;
      string_role_ = root_value() ? Role::none : value_role();
      if (string_role_ == Role::chat_template || string_role_ == Role::item_template) scan_.reset();
      if (string_role_ == Role::element) shape(string_role_, "a string");
      name_.clear();
    }
    if (string_role_ == Role::chat_template || string_role_ == Role::item_template) scan_.feed({s.data(), s.size()});
    if (string_role_ == Role::item_name && name_.size() < kNameKeep)
      name_.append(s.data(), std::min(s.size(), kNameKeep - name_.size()));
  }
  std::string element_label() const {
    return item_name_ ? "chat_template " + quoted(*item_name_) : "chat_template[" + std::to_string(element_) + "]";
  }
  void shape(Role r, std::string_view what) {
    const std::string where = r == Role::chat_template ? "chat_template" : r == Role::element ? "chat_template[" + std::to_string(element_) + "]"
                              : r == Role::item_name ? "the name of chat_template[" + std::to_string(element_) + "]"
                                                     : "the template of chat_template[" + std::to_string(element_) + "]";
    out_.on_shape(where + " is " + std::string(what) + ", not " +
                  (r == Role::chat_template ? "a string or a list of {name, template}"
                   : r == Role::element     ? "an object {name, template}"
                                            : "a string"));
  }
  void finish_item() {
    if (item_templates_.empty()) out_.on_shape(element_label() + " has no template");
    for (JsonTemplate& t : item_templates_) {
      t.label = element_label();
      out_.on_template(std::move(t));
    }
    item_templates_.clear();
  }

  TemplateScan scan_;
  const JsonTemplatesOut& out_;
  std::vector<Ctx> stack_;
  Role key_role_ = Role::none;
  std::string key_;
  bool key_whole_ = true;
  bool in_string_ = false;
  Role string_role_ = Role::none;
  std::string name_;
  std::uint64_t element_ = 0;
  std::optional<std::string> item_name_;
  std::vector<JsonTemplate> item_templates_;  // a duplicate "template" key makes two
  bool not_object_ = false;
};

}  // namespace

std::string scan_config_json(std::string_view text, const Limits& limits, const JsonTemplatesOut& out) {
  if (text.size() > limits.directory.max_json_bytes)
    return "larger than " + std::to_string(limits.directory.max_json_bytes) + " bytes";
  boost::json::parse_options options;
  options.max_depth = limits.directory.max_json_depth;
  boost::json::basic_parser<Handler> parser(options, limits, out);
  ec_t ec;
  // One write_some over the whole text (Boost.JSON 1.81, boostorg/json#876).
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (!ec && text.substr(used).find_first_not_of(" \t\r\n") != std::string_view::npos)
    ec = boost::json::error::extra_data;
  if (ec) return "not valid JSON at byte " + std::to_string(used) + ": " + ec.message();
  if (parser.handler().not_object()) return "not a JSON object";
  return {};
}

}  // namespace tensorgate::detail::ct
