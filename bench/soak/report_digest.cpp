#include "report_digest.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cstring>
#include <unordered_map>

namespace soak {
namespace {

// FNV-1a, 64 bits: the reports are our own output, not an adversary's, so a fast hash will do.
struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ull;
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  }
  void tag(char t) { bytes(&t, 1); }
  template <class T>
  void value(char t, T v) {
    tag(t);
    bytes(&v, sizeof v);
  }
};

// Fields of the offline report that say where the file was, not what it is.
bool offline_only(std::string_view key) { return key == "path" || key == "error"; }

}  // namespace

struct ReportDigester::Handler {
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);

  explicit Handler(ReportLayout l) : entry_depth(l == ReportLayout::service ? 1 : 3), layout(l) {}

  const int entry_depth;  // depth inside a report object
  const ReportLayout layout;
  int depth = 0;
  std::string top_key;  // the CLI document's current key
  bool in_entry = false;
  bool in_field = false;
  bool in_finding = false;
  std::string key;  // a key being read at the report's level
  std::string field;
  std::string text;  // the parts of a captured string (sha256)
  Fnv field_hash, finding_hash;
  ReportDigest current;
  std::vector<ReportDigest> reports;

  void token(auto&& f) {
    if (in_field) f(field_hash);
    if (in_finding) f(finding_hash);
  }
  // After a value: the field ends when we are back at the report's level.
  void value_done() {
    if (in_entry && in_field && depth == entry_depth) {
      current.fields[field] = field_hash.h;
      in_field = false;
    }
  }
  bool scalar_field(std::string_view name) const {
    return in_entry && in_field && depth == entry_depth && field == name;
  }

  bool on_document_begin(boost::system::error_code&) { return true; }
  bool on_document_end(boost::system::error_code&) { return true; }
  bool on_object_begin(boost::system::error_code&) {
    const bool starts_entry = !in_entry && ((layout == ReportLayout::service && depth == 0) ||
                                            (layout == ReportLayout::cli && depth == 2 && top_key == "files"));
    if (starts_entry) {
      in_entry = true;
      current = ReportDigest{};
    } else if (in_entry && in_field && field == "findings" && depth == entry_depth + 1) {
      in_finding = true;
      finding_hash = Fnv{};
    }
    token([](Fnv& h) { h.tag('{'); });
    ++depth;
    return true;
  }
  bool on_object_end(std::size_t, boost::system::error_code&) {
    --depth;
    token([](Fnv& h) { h.tag('}'); });
    if (in_finding && depth == entry_depth + 1) {
      current.findings.push_back(finding_hash.h);
      in_finding = false;
    }
    if (in_entry && depth == entry_depth - 1) {
      reports.push_back(std::move(current));
      in_entry = false;
    }
    value_done();
    return true;
  }
  bool on_array_begin(boost::system::error_code&) {
    token([](Fnv& h) { h.tag('['); });
    ++depth;
    return true;
  }
  bool on_array_end(std::size_t, boost::system::error_code&) {
    --depth;
    token([](Fnv& h) { h.tag(']'); });
    value_done();
    return true;
  }
  bool on_key_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    if (in_entry && depth == entry_depth) key.append(s.data(), s.size());
    else if (layout == ReportLayout::cli && depth == 1) key.append(s.data(), s.size());
    else token([&](Fnv& h) { h.bytes(s.data(), s.size()); });
    return true;
  }
  bool on_key(boost::json::string_view s, std::size_t n, boost::system::error_code& ec) {
    on_key_part(s, n, ec);
    if (in_entry && depth == entry_depth) {
      field = std::move(key);
      in_field = true;
      field_hash = Fnv{};
    } else if (layout == ReportLayout::cli && depth == 1) {
      top_key = std::move(key);
    } else {
      token([&](Fnv& h) { h.value('K', n); });
    }
    key.clear();
    return true;
  }
  bool on_string_part(boost::json::string_view s, std::size_t, boost::system::error_code&) {
    token([&](Fnv& h) { h.bytes(s.data(), s.size()); });
    if (scalar_field("sha256") && text.size() < 128) text.append(s.data(), s.size());
    return true;
  }
  bool on_string(boost::json::string_view s, std::size_t n, boost::system::error_code&) {
    token([&](Fnv& h) {
      h.bytes(s.data(), s.size());
      h.value('S', n);
    });
    if (scalar_field("aborted")) current.aborted = true;
    if (scalar_field("sha256")) current.sha256 = text + std::string(s);
    text.clear();
    value_done();
    return true;
  }
  bool on_number_part(boost::json::string_view, boost::system::error_code&) { return true; }
  bool on_int64(std::int64_t v, boost::json::string_view, boost::system::error_code&) {
    token([&](Fnv& h) { h.value('i', v); });
    if (scalar_field("bytes_received") && v >= 0) current.bytes_received = static_cast<std::uint64_t>(v);
    value_done();
    return true;
  }
  bool on_uint64(std::uint64_t v, boost::json::string_view, boost::system::error_code&) {
    token([&](Fnv& h) { h.value('u', v); });
    if (scalar_field("bytes_received")) current.bytes_received = v;
    value_done();
    return true;
  }
  bool on_double(double v, boost::json::string_view, boost::system::error_code&) {
    token([&](Fnv& h) { h.value('d', v); });
    value_done();
    return true;
  }
  bool on_bool(bool v, boost::system::error_code&) {
    token([&](Fnv& h) { h.value('b', v); });
    if (scalar_field("valid")) current.valid = v;
    if (scalar_field("complete")) current.complete = v;
    value_done();
    return true;
  }
  bool on_null(boost::system::error_code&) {
    token([](Fnv& h) { h.tag('n'); });
    if (scalar_field("aborted")) current.aborted = false;
    value_done();
    return true;
  }
  bool on_comment_part(boost::json::string_view, boost::system::error_code&) { return true; }
  bool on_comment(boost::json::string_view, boost::system::error_code&) { return true; }
};

ReportDigester::ReportDigester(ReportLayout layout) {
  boost::json::parse_options opt;
  opt.max_depth = 64;
  parser_ = std::make_unique<boost::json::basic_parser<Handler>>(opt, layout);
}

ReportDigester::~ReportDigester() = default;

bool ReportDigester::write(std::string_view piece) {
  if (!error_.empty()) return false;
  std::string joined;
  if (!held_.empty()) {
    joined = std::move(held_);
    joined.append(piece);
    piece = joined;
    held_.clear();
  }
  // Boost.JSON 1.81 overflows a buffer when a \u escape (or a surrogate pair) is split between
  // two write_some calls (boostorg/json#876): hold back from the first backslash of the last
  // 12 bytes, and send it with the next piece.
  std::size_t keep = piece.size();
  for (std::size_t i = piece.size() > 12 ? piece.size() - 12 : 0; i < piece.size(); ++i)
    if (piece[i] == '\\') {
      keep = i;
      break;
    }
  held_.assign(piece.substr(keep));
  boost::system::error_code ec;
  parser_->write_some(true, piece.data(), keep, ec);
  if (ec) error_ = ec.message();
  return error_.empty();
}

bool ReportDigester::finish() {
  if (!error_.empty()) return false;
  boost::system::error_code ec;
  parser_->write_some(false, held_.data(), held_.size(), ec);
  held_.clear();
  if (ec) error_ = ec.message();
  return error_.empty();
}

const std::vector<ReportDigest>& ReportDigester::reports() const {
  return parser_->handler().reports;
}

std::string ReportDigester::error() const { return error_; }

std::string compare_reports(const ReportDigest& offline, const ReportDigest& service, bool partial) {
  if (partial) {
    if (service.valid != offline.valid) return "verdict";
    if (offline.fields.count("format") && service.fields.count("format") &&
        offline.fields.at("format") != service.fields.at("format"))
      return "format";
    // Every finding of the early answer is one of the offline report's.
    std::unordered_map<std::uint64_t, int> left;
    for (const std::uint64_t f : offline.findings) ++left[f];
    for (const std::uint64_t f : service.findings)
      if (--left[f] < 0) return "findings (one not in the offline report)";
    return "";
  }
  std::string differ;
  for (const auto& [key, digest] : offline.fields) {
    if (offline_only(key)) continue;
    const auto it = service.fields.find(key);
    if (it == service.fields.end() || it->second != digest) differ += (differ.empty() ? "" : ",") + key;
  }
  return differ;
}

}  // namespace soak
