#pragma once
// http and https URLs as the remote checks use them (Boost.URL underneath): parsed once, the
// parts a request needs kept apart, redirects resolved against the URL they came from.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::remote {

struct Url {
  bool tls = false;             // https
  std::string host;             // lower-case name, IPv4, or IPv6 in brackets, as in the URL
  std::string connect_host;     // what the resolver gets: the IPv6 address without brackets
  bool host_is_address = false; // an IP literal: no SNI, the certificate's IP SAN is checked
  std::uint16_t port = 0;       // the explicit port, or 80/443
  std::string target;           // "/path?query", percent-encoded as given; "/" at least
  std::string text;             // the whole URL, without a fragment

  // "https://host" or "http://host:8080": what redirects, credentials and connections are
  // scoped by.
  std::string origin() const { return std::string(tls ? "https://" : "http://") + host_header(); }
  // The Host header: the host, with the port when it is not the scheme's default. Inline, like
  // origin(): the TLS helper (tls_helper_main.cpp) uses them without the parser.
  std::string host_header() const {
    const bool default_port = port == (tls ? 443 : 80);
    return default_port ? host : host + ":" + std::to_string(port);
  }
  // A folder URL (its path ends in "/"): a model repository, not a file.
  bool is_folder() const;
  // The last path segment, percent-decoded ("model.gguf"): picks the validator by name.
  std::string file_name() const;
};

// True when `text` starts with http:// or https:// (any case): a URL, not a path. Inline: the
// release tensorgate asks it of its arguments without linking the URL parser (cli/network.hpp).
inline bool looks_like_url(std::string_view text) {
  const auto starts_with = [text](std::string_view prefix) {  // prefix in lower case
    if (text.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      const char c = text[i] >= 'A' && text[i] <= 'Z' ? static_cast<char>(text[i] - 'A' + 'a') : text[i];
      if (c != prefix[i]) return false;
    }
    return true;
  };
  return starts_with("http://") || starts_with("https://");
}

// The URL, or nothing with `error` set. Refused: other schemes, no host, credentials in the
// URL (they would be printed with it; --header and TENSORGATE_TOKEN keep them out), URLs over
// kMaxUrlBytes.
inline constexpr std::size_t kMaxUrlBytes = 8192;
std::optional<Url> parse_url(std::string_view text, std::string& error);

// A Location header resolved against the URL that answered (RFC 3986, section 5).
std::optional<Url> resolve_location(const Url& base, std::string_view location, std::string& error);

// `folder` + `name` (a plain file name, percent-encoded here): a file of a repository.
Url child_url(const Url& folder, std::string_view name);

// The name percent-encoded for one path segment: only unreserved characters stay as they are.
std::string encode_segment(std::string_view name);

}  // namespace tensorgate::remote
