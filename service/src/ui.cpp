#include "ui.hpp"

#include <array>
#include <string>

#include "ui_files.hpp"

namespace tensorgate::service {
namespace {

constexpr std::string_view kPrefix = "/ui/";

// Everything from this origin only, no inline script or style, and Trusted Types with no policy:
// the page cannot assign a string to innerHTML, outerHTML or any other HTML or script sink, so a
// hostile tensor name can only ever reach it as text. No framing, no form posts, no <base>.
constexpr std::string_view kCsp =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'; "
    "require-trusted-types-for 'script'; trusted-types 'none'";

struct MediaType {
  std::string_view suffix;
  std::string_view type;
};

constexpr std::array kMediaTypes = {
    MediaType{".html", "text/html; charset=utf-8"},
    MediaType{".js", "text/javascript; charset=utf-8"},
    MediaType{".css", "text/css; charset=utf-8"},
    MediaType{".svg", "image/svg+xml"},
};

std::string_view media_type(std::string_view name) {
  for (const MediaType& m : kMediaTypes)
    if (name.ends_with(m.suffix)) return m.type;
  return "application/octet-stream";
}

const UiFile* find_file(std::string_view path) {
  std::string_view name;
  if (path == "/") name = "index.html";
  else if (path.starts_with(kPrefix)) name = path.substr(kPrefix.size());
  else return nullptr;
  for (const UiFile& f : ui_files())
    if (f.name == name) return &f;
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// RFC 9110 13.1.2: a list of entity tags or "*", compared weakly.
bool none_match_hits(std::string_view field, std::string_view etag) {
  while (!field.empty()) {
    const std::size_t comma = field.find(',');
    std::string_view tag = trim(field.substr(0, comma));
    field = comma == std::string_view::npos ? std::string_view{} : field.substr(comma + 1);
    if (tag == "*") return true;
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == etag) return true;
  }
  return false;
}

}  // namespace

std::string_view ui_content_security_policy() { return kCsp; }

bool is_ui_path(std::string_view path) { return path == "/" || path.starts_with(kPrefix); }

std::optional<Response> answer_ui(std::string_view path, std::string_view if_none_match,
                                  unsigned version) {
  const UiFile* file = find_file(path);
  if (!file) return std::nullopt;
  const std::string etag = "\"" + std::string(file->sha256.substr(0, 32)) + "\"";
  const bool not_modified = !if_none_match.empty() && none_match_hits(if_none_match, etag);
  Response res{not_modified ? http::status::not_modified : http::status::ok, version};
  res.set(http::field::etag, etag);
  // The names are not versioned: the browser keeps a copy but asks (a 304) before using it, so
  // a new binary's page is never mixed with an old one's scripts.
  res.set(http::field::cache_control, "no-cache");
  res.set("Content-Security-Policy", kCsp);
  res.set("X-Content-Type-Options", "nosniff");
  res.set("X-Frame-Options", "DENY");
  res.set("Referrer-Policy", "no-referrer");
  res.set("Cross-Origin-Opener-Policy", "same-origin");
  res.set("Cross-Origin-Resource-Policy", "same-origin");
  if (not_modified) return res;  // no body and no Content-Length (RFC 9110 15.4.5)
  res.set(http::field::content_type, media_type(file->name));
  res.body() = std::string(file->bytes);
  res.prepare_payload();
  return res;
}

}  // namespace tensorgate::service
