#pragma once
// GET / and GET /ui/<file>: the web page for people (service/ui/), served from the binary with a
// strict Content-Security-Policy, nosniff, and an ETag of the embedded bytes (docs/service.md,
// "The web page"). `--no-ui` turns the routes off.
#include <optional>
#include <string_view>

#include "net.hpp"

namespace tensorgate::service {

// True for the paths the page owns: "/" and "/ui/..." (answered 404 when no such file).
bool is_ui_path(std::string_view path);

// The file's answer: 200 with the bytes, or 304 when `if_none_match` names its ETag; nullopt
// when the path names no embedded file.
std::optional<Response> answer_ui(std::string_view path, std::string_view if_none_match,
                                  unsigned http_version);

// The Content-Security-Policy every page answer carries.
std::string_view ui_content_security_policy();

}  // namespace tensorgate::service
