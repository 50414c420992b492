#include "url.hpp"

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <cctype>

namespace tensorgate::remote {
namespace urls = boost::urls;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::optional<Url> from_view(const urls::url_view& u, std::string& error) {
  Url out;
  const std::string scheme = lower(std::string(u.scheme()));
  if (scheme != "http" && scheme != "https") {
    error = "not an http or https URL";
    return std::nullopt;
  }
  out.tls = scheme == "https";
  if (u.has_userinfo()) {
    error = "credentials in the URL are not accepted (use --header or TENSORGATE_TOKEN)";
    return std::nullopt;
  }
  switch (u.host_type()) {
    case urls::host_type::name:
      out.host = lower(std::string(u.encoded_host()));
      out.connect_host = out.host;
      break;
    case urls::host_type::ipv4:
      out.host = std::string(u.encoded_host());
      out.connect_host = out.host;
      out.host_is_address = true;
      break;
    case urls::host_type::ipv6:
      out.host = lower(std::string(u.encoded_host()));
      out.connect_host = std::string(u.host_address());
      out.host_is_address = true;
      break;
    default:
      error = "the URL has no usable host";
      return std::nullopt;
  }
  if (out.host.empty() || out.host.find('%') != std::string::npos) {
    error = "the URL has no usable host";
    return std::nullopt;
  }
  if (u.has_port()) {
    const std::string_view port = u.port();
    const bool digits = !port.empty() && port.size() <= 5 &&
                        std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoul(std::string(port)) == 0 || std::stoul(std::string(port)) > 65535) {
      error = "the URL's port is not a number from 1 to 65535";
      return std::nullopt;
    }
    out.port = u.port_number();
  } else {
    out.port = out.tls ? 443 : 80;
  }
  out.target = u.encoded_path().empty() ? "/" : std::string(u.encoded_path());
  if (out.target.front() != '/') out.target.insert(out.target.begin(), '/');
  if (u.has_query()) out.target += "?" + std::string(u.encoded_query());
  out.text = out.origin() + out.target;
  return out;
}

}  // namespace

bool Url::is_folder() const {
  const std::string_view path = std::string_view(target).substr(0, target.find('?'));
  return path.ends_with('/');
}

std::string Url::file_name() const {
  std::string_view path = std::string_view(target).substr(0, target.find('?'));
  path.remove_prefix(path.rfind('/') + 1);
  auto decoded = urls::make_pct_string_view(path);
  if (!decoded) return std::string(path);
  return decoded->decode();
}

std::optional<Url> parse_url(std::string_view text, std::string& error) {
  if (text.size() > kMaxUrlBytes) {
    error = "the URL is longer than " + std::to_string(kMaxUrlBytes) + " bytes";
    return std::nullopt;
  }
  auto parsed = urls::parse_uri(text);
  if (!parsed) {
    error = "not a valid URL";
    return std::nullopt;
  }
  return from_view(*parsed, error);
}

std::optional<Url> resolve_location(const Url& base, std::string_view location, std::string& error) {
  if (location.size() > kMaxUrlBytes) {
    error = "a redirect's Location is longer than " + std::to_string(kMaxUrlBytes) + " bytes";
    return std::nullopt;
  }
  auto ref = urls::parse_uri_reference(location);
  auto base_view = urls::parse_uri(base.text);
  urls::url dest;
  if (!ref || !base_view || !urls::resolve(*base_view, *ref, dest)) {
    error = "a redirect's Location is not a valid URL";
    return std::nullopt;
  }
  dest.remove_fragment();
  std::optional<Url> out = from_view(dest, error);
  if (out && out->text.size() > kMaxUrlBytes) {
    error = "a redirect's Location is longer than " + std::to_string(kMaxUrlBytes) + " bytes";
    return std::nullopt;
  }
  return out;
}

std::string encode_segment(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : name) {
    const auto b = static_cast<unsigned char>(c);
    if (std::isalnum(b) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
  }
  return out;
}

Url child_url(const Url& folder, std::string_view name) {
  Url out = folder;
  const std::size_t query = folder.target.find('?');
  const std::string path = folder.target.substr(0, query);
  out.target = path + encode_segment(name) + (query == std::string::npos ? "" : folder.target.substr(query));
  out.text = out.origin() + out.target;
  return out;
}

}  // namespace tensorgate::remote
