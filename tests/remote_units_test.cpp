// The pure parts of the remote checks: Content-Range, Retry-After and ETag grammars, URLs,
// --list and --shard.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "entry_list.hpp"
#include "response_head.hpp"
#include "url.hpp"

namespace {

using namespace tensorgate::remote;
using tensorgate::cli::parse_shard;
using tensorgate::cli::read_list;
using tensorgate::cli::select_shard;

TEST(RemoteUnits, ContentRange) {
  auto r = parse_content_range("bytes 0-99/1000");
  ASSERT_TRUE(r);
  EXPECT_EQ(*r->first, 0u);
  EXPECT_EQ(*r->last, 99u);
  EXPECT_EQ(*r->total, 1000u);
  r = parse_content_range("Bytes 5-5/*");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->total);
  r = parse_content_range("bytes */0");
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->first);
  EXPECT_EQ(*r->total, 0u);
  for (const char* bad : {"bytes 9-1/10", "bytes 0-10/10", "items 0-1/2", "bytes 0-1", "bytes -1-2/3", "bytes */*",
                          "bytes 0-18446744073709551616/1", "bytes 0x1-2/3", "bytes 1-2/3 junk", "bytes"})
    EXPECT_FALSE(parse_content_range(bad)) << bad;
}

TEST(RemoteUnits, RetryAfter) {
  const auto now = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(parse_retry_after("120", now), std::chrono::seconds(120));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:50:37 GMT", now), std::chrono::seconds(60));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now), std::chrono::seconds(0));
  EXPECT_EQ(parse_retry_after("99999999999999", now), std::chrono::seconds(366 * 24 * 3600));
  EXPECT_FALSE(parse_retry_after("-1", now));
  EXPECT_FALSE(parse_retry_after("soon", now));
  EXPECT_FALSE(parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", now));
}

TEST(RemoteUnits, StrongEtags) {
  EXPECT_TRUE(is_strong_etag("\"abc-123\""));
  EXPECT_FALSE(is_strong_etag("W/\"abc\""));
  EXPECT_FALSE(is_strong_etag("abc"));
  EXPECT_FALSE(is_strong_etag("\"a b\""));
  EXPECT_FALSE(is_strong_etag("\""));
}

TEST(RemoteUnits, Urls) {
  std::string error;
  auto u = parse_url("HTTPS://Hub.Example:443/org/repo/resolve/main/model.safetensors?download=1#frag", error);
  ASSERT_TRUE(u) << error;
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "hub.example");
  EXPECT_EQ(u->port, 443);
  EXPECT_EQ(u->target, "/org/repo/resolve/main/model.safetensors?download=1");
  EXPECT_EQ(u->origin(), "https://hub.example");
  EXPECT_EQ(u->file_name(), "model.safetensors");
  EXPECT_FALSE(u->is_folder());
  u = parse_url("http://[::1]:8080/repo/", error);
  ASSERT_TRUE(u) << error;
  EXPECT_EQ(u->connect_host, "::1");
  EXPECT_EQ(u->host_header(), "[::1]:8080");
  EXPECT_TRUE(u->host_is_address);
  EXPECT_TRUE(u->is_folder());
  EXPECT_EQ(child_url(*u, "model-00001-of-00002.safetensors").text, "http://[::1]:8080/repo/model-00001-of-00002.safetensors");
  EXPECT_EQ(child_url(*u, "a b?#%.safetensors").target, "/repo/a%20b%3F%23%25.safetensors");
  u = parse_url("http://example.test/a%20b.gguf", error);
  ASSERT_TRUE(u);
  EXPECT_EQ(u->file_name(), "a b.gguf");

  EXPECT_FALSE(parse_url("https://user:pass@example.test/x", error));
  EXPECT_EQ(error, "credentials in the URL are not accepted (use --header or TENSORGATE_TOKEN)");
  EXPECT_FALSE(parse_url("ftp://example.test/x", error));
  EXPECT_FALSE(parse_url("http:///x", error));
  EXPECT_FALSE(parse_url("http://example.test:0/x", error));
  EXPECT_FALSE(parse_url("http://example.test:99999/x", error));
  EXPECT_FALSE(parse_url("http://exa mple.test/x", error));
  EXPECT_FALSE(parse_url("http://example.test/" + std::string(kMaxUrlBytes, 'a'), error));
  EXPECT_TRUE(looks_like_url("HTTP://x"));
  EXPECT_FALSE(looks_like_url("httpfile.safetensors"));
}

TEST(RemoteUnits, RedirectLocations) {
  std::string error;
  const auto base = parse_url("https://hub.example/org/repo/resolve/main/model.safetensors", error);
  ASSERT_TRUE(base);
  EXPECT_EQ(resolve_location(*base, "../raw/model.safetensors", error)->text, "https://hub.example/org/repo/resolve/raw/model.safetensors");
  EXPECT_EQ(resolve_location(*base, "//cdn.example/x?sig=a#f", error)->text, "https://cdn.example/x?sig=a");
  EXPECT_EQ(resolve_location(*base, "http://plain.example/", error)->tls, false);
  EXPECT_FALSE(resolve_location(*base, "http://[bad", error));
  EXPECT_FALSE(resolve_location(*base, "ftp://example/x", error));
}

TEST(RemoteUnits, ShardsAreDeterministicAndCoverEveryEntryExactlyOnce) {
  EXPECT_FALSE(parse_shard("2/2"));
  EXPECT_FALSE(parse_shard("0/0"));
  EXPECT_FALSE(parse_shard("-1/2"));
  EXPECT_FALSE(parse_shard("1"));
  EXPECT_FALSE(parse_shard("0/1000001"));
  EXPECT_FALSE(parse_shard(" 0/2"));
  ASSERT_TRUE(parse_shard("3/4"));
  EXPECT_EQ(parse_shard("3/4")->index, 3u);
  for (std::size_t entries : {0, 1, 5, 97}) {
    std::vector<std::string> all;
    for (std::size_t i = 0; i < entries; ++i) all.push_back("entry-" + std::to_string(i));
    for (std::uint32_t n : {1u, 2u, 3u, 7u, 100u}) {
      std::multiset<std::string> seen;
      for (std::uint32_t k = 0; k < n; ++k) {
        const auto part = select_shard(all, {k, n});
        EXPECT_EQ(part, select_shard(all, {k, n}));  // the same every time
        EXPECT_LE(part.size(), entries / n + 1);      // and balanced
        seen.insert(part.begin(), part.end());
      }
      EXPECT_EQ(seen, std::multiset<std::string>(all.begin(), all.end())) << entries << " entries, " << n << " shards";
    }
  }
}

TEST(RemoteUnits, ListFiles) {
  const auto path = std::filesystem::temp_directory_path() / ("tg-list-" + std::to_string(::getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    out << "# a comment\n  https://example.test/a.safetensors  \r\n\n\tlocal/b.gguf\nlast-without-newline";
  }
  std::string error;
  auto entries = read_list(path.string(), error);
  ASSERT_TRUE(entries) << error;
  EXPECT_EQ(*entries, (std::vector<std::string>{"https://example.test/a.safetensors", "local/b.gguf", "last-without-newline"}));
  {
    std::ofstream out(path, std::ios::binary);
    out << "ok\n" << std::string(tensorgate::cli::kMaxListLine + 1, 'x');
  }
  EXPECT_FALSE(read_list(path.string(), error));
  EXPECT_EQ(error, "--list " + path.string() + ": line 2 is longer than 65536 bytes");
  std::filesystem::remove(path);
  EXPECT_FALSE(read_list(path.string(), error));
  EXPECT_EQ(error.rfind("--list " + path.string() + ": cannot open: ", 0), 0u);
}

}  // namespace
