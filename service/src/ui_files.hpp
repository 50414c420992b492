#pragma once
// The web page's files (service/ui/), compiled into the binary by embed.cmake.
#include <span>
#include <string_view>

namespace tensorgate::service {

struct UiFile {
  std::string_view name;    // served as /ui/<name>; index.html also as /
  std::string_view bytes;
  std::string_view sha256;  // lowercase hex of the bytes: the ETag
};

// Sorted by name. Generated at build time (ui_embed.cpp).
std::span<const UiFile> ui_files();

}  // namespace tensorgate::service
