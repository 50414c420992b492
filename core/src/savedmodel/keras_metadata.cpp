#include "savedmodel/keras_metadata.hpp"

#include <boost/json/basic_parser_impl.hpp>

namespace tensorgate::detail::savedmodel {
namespace {

using sv = boost::json::string_view;
using ec_t = boost::json::error_code;

constexpr std::size_t kMaxClassName = 256;

// The keys and strings are seen in parts; only a "class_name" key's value is gathered, and
// only up to kMaxClassName bytes.
class ClassNameHandler {
 public:
  static constexpr std::size_t max_object_size = std::size_t(-1), max_array_size = std::size_t(-1),
                               max_key_size = std::size_t(-1), max_string_size = std::size_t(-1);

  bool on_document_begin(ec_t&) { return true; }
  bool on_document_end(ec_t&) { return true; }
  bool on_object_begin(ec_t&) { return open(); }
  bool on_object_end(std::size_t, ec_t&) { return close(); }
  bool on_array_begin(ec_t&) { return open(); }
  bool on_array_end(std::size_t, ec_t&) { return close(); }
  bool on_key_part(sv s, std::size_t, ec_t&) { return gather(key_, s); }
  bool on_key(sv s, std::size_t, ec_t&) {
    gather(key_, s);
    class_value_ = key_ == "class_name";
    key_.clear();
    return true;
  }
  bool on_string_part(sv s, std::size_t, ec_t&) { return class_value_ ? gather(value_, s) : true; }
  bool on_string(sv s, std::size_t, ec_t&) {
    if (!class_value_) return true;
    gather(value_, s);
    facts_.lambda = facts_.lambda || value_ == "Lambda";
    if (depth_ == 1 && facts_.class_name.empty()) facts_.class_name = value_;
    value_.clear();
    class_value_ = false;
    return true;
  }
  bool on_number_part(sv, ec_t&) { return true; }
  bool on_int64(std::int64_t, sv, ec_t&) { return scalar(); }
  bool on_uint64(std::uint64_t, sv, ec_t&) { return scalar(); }
  bool on_double(double, sv, ec_t&) { return scalar(); }
  bool on_bool(bool, ec_t&) { return scalar(); }
  bool on_null(ec_t&) { return scalar(); }
  bool on_comment_part(sv, ec_t&) { return true; }
  bool on_comment(sv, ec_t&) { return true; }

  KerasMetadataFacts& facts() { return facts_; }

 private:
  bool open() {
    ++depth_;
    class_value_ = false;
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }
  bool scalar() {
    class_value_ = false;
    return true;
  }
  static bool gather(std::string& to, sv s) {
    to.append(s.data(), std::min(s.size(), kMaxClassName + 1 - std::min(to.size(), kMaxClassName + 1)));
    return true;
  }

  KerasMetadataFacts facts_;
  std::uint32_t depth_ = 0;
  bool class_value_ = false;
  std::string key_, value_;
};

}  // namespace

KerasMetadataFacts scan_keras_metadata(std::string_view text, std::uint32_t max_depth) {
  boost::json::parse_options options;
  options.max_depth = max_depth;
  boost::json::basic_parser<ClassNameHandler> parser(options);
  ec_t ec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  KerasMetadataFacts facts = std::move(parser.handler().facts());
  if (facts.class_name.size() > kMaxClassName) facts.class_name.resize(kMaxClassName);
  facts.json = !ec;
  if (ec) facts.error = "not JSON at byte " + std::to_string(used) + ": " + ec.message();
  return facts;
}

}  // namespace tensorgate::detail::savedmodel
