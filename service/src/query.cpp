#include "query.hpp"

#include "validator_factory.hpp"

namespace tensorgate::service {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<bool> parse_bool(std::string_view v) {
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  return std::nullopt;
}

// Applies one decoded key=value pair; an error message or empty.
std::string apply(UploadOptions& o, std::string_view key, std::string value, std::size_t max_name) {
  if (key == "format") {
    if (!known_format(value)) return "format must be one of: " + std::string(format_choices());
    o.format = std::move(value);
  } else if (key == "name") {
    if (value.size() > max_name) return "name is longer than " + std::to_string(max_name) + " bytes";
    o.name = std::move(value);
  } else if (key == "tensors") {
    const auto b = parse_bool(value);
    if (!b) return "tensors must be true or false";
    o.include_tensors = *b;
  } else if (key == "digest") {
    if (value != "sha256" && value != "none") return "digest must be sha256 or none";
    o.digest = value == "sha256";
  } else {
    return "unknown query parameter";
  }
  return {};
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      const int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

QueryResult parse_upload_query(std::string_view query, std::size_t max_name_bytes) {
  QueryResult result;
  std::string seen = "&";
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const auto value = percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
    if (!value) return {{}, "malformed percent-encoding"};
    const std::string marker = "&" + std::string(key) + "&";
    if (seen.find(marker) != std::string::npos) return {{}, "repeated query parameter"};
    seen += std::string(key) + "&";
    std::string error = apply(result.options, key, std::move(*value), max_name_bytes);
    if (!error.empty()) return {{}, std::move(error)};
  }
  return result;
}

std::optional<Target> split_target(std::string_view target) {
  if (target.empty() || target.front() != '/') return std::nullopt;
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return Target{target, {}};
  return Target{target.substr(0, q), target.substr(q + 1)};
}

}  // namespace tensorgate::service
