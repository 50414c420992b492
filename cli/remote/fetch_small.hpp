#pragma once
// The small files of a remote repository (config.json, the index), read whole but bounded, and
// probes for files whose presence alone matters (tokenizer.json).
#include <cstdint>
#include <optional>
#include <string>

#include "http_client.hpp"

namespace tensorgate::remote {

struct SmallFile {
  std::optional<std::string> text;  // at most limit + 1 bytes: an oversized file is refused by
                                    // its parser with its size, never read entirely
  bool absent = false;              // 404 or 410
  Failure error;
};

SmallFile fetch_small(HttpClient& client, const Url& url, const std::string& credentials_origin,
                      std::uint64_t limit);

// Whether the file exists (its first byte is asked for, and the answer closed).
SmallFile probe(HttpClient& client, const Url& url, const std::string& credentials_origin);

}  // namespace tensorgate::remote
