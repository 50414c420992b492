#include "fetch_small.hpp"

#include <array>

namespace tensorgate::remote {
namespace {

bool missing(unsigned status) { return status == 404 || status == 410; }

}  // namespace

SmallFile fetch_small(HttpClient& client, const Url& url, const std::string& credentials_origin,
                      std::uint64_t limit) {
  SmallFile out;
  GetRequest request{url, credentials_origin, std::nullopt, {}, true};
  OpenResponse r;
  if ((out.error = client.open(request, r))) return out;
  if (missing(r.head.status)) {
    client.close();
    out.absent = true;
    return out;
  }
  if (r.head.status != 200) {
    client.close();
    out.error = "an unexpected " + status_text(r.head) + " to a request for the whole file";
    return out;
  }
  std::string text;
  std::array<std::byte, 64 * 1024> chunk;
  for (;;) {
    std::size_t n = 0;
    if ((out.error = client.read_body(chunk, n))) return out;
    if (n == 0) {
      client.finish();
      break;
    }
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, limit + 1 - text.size()));
    text.append(reinterpret_cast<const char*>(chunk.data()), take);
    if (text.size() > limit) {
      client.close();
      break;
    }
  }
  out.text = std::move(text);
  return out;
}

SmallFile probe(HttpClient& client, const Url& url, const std::string& credentials_origin) {
  SmallFile out;
  GetRequest request{url, credentials_origin, std::pair<std::uint64_t, std::uint64_t>(0, 0), {}, true};
  OpenResponse r;
  if ((out.error = client.open(request, r))) return out;
  out.absent = missing(r.head.status);
  client.close();
  return out;
}

}  // namespace tensorgate::remote
