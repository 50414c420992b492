#include "remote_flags.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "network.hpp"
#include "url.hpp"

namespace tensorgate::cli {
namespace {

// Fields the client sets itself: a user's copy would contradict it or break the framing.
constexpr std::string_view kReserved[] = {"host", "range", "if-match", "if-range", "if-unmodified-since",
                                          "if-none-match", "if-modified-since", "content-length",
                                          "transfer-encoding", "connection", "accept-encoding", "te",
                                          "upgrade", "expect", "trailer", "keep-alive"};

bool token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "Name: value" -> (Name, value). The value is a credential more often than not: errors name
// the field only.
std::pair<std::string, std::string> parse_header(std::string_view text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0)
    throw UsageError("--header must be 'NAME: VALUE'");
  const std::string_view name = text.substr(0, colon);
  if (!std::all_of(name.begin(), name.end(), token_char)) throw UsageError("--header: the field name is not a token");
  std::string_view value = text.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (std::any_of(value.begin(), value.end(), [](char c) { return c == '\r' || c == '\n' || c == '\0'; }))
    throw UsageError("--header " + std::string(name) + ": the value holds a line break or NUL");
  const std::string key = lower(name);
  if (std::find(std::begin(kReserved), std::end(kReserved), key) != std::end(kReserved))
    throw UsageError("--header " + std::string(name) + ": tensorgate sets this field itself");
  return {std::string(name), std::string(value)};
}

remote::Millis seconds(double s, const char* flag) {
  if (!(s > 0 && s <= 3600)) throw UsageError(std::string(flag) + " must be more than 0 and at most 3600 seconds");
  return remote::Millis(static_cast<std::int64_t>(s * 1000 + 0.5));
}

}  // namespace

void add_remote_flags(OptionTable& t, RemoteFlags& f) {
  t.add("header", &f.headers)
      .add("ca-file", &f.ca_file)
      .add("connect-timeout", &f.connect_timeout)
      .add("read-timeout", &f.read_timeout)
      .add("retries", &f.retries);
}

void apply_remote_flags(const RemoteFlags& f, const std::vector<std::string>& entries, CheckSettings& settings) {
  remote::RemoteOptions& o = settings.remote;
  bool authorization = false;
  for (const std::string& h : f.headers) {
    o.headers.push_back(parse_header(h));
    authorization = authorization || lower(o.headers.back().first) == "authorization";
  }
  const char* token = std::getenv("TENSORGATE_TOKEN");
  if (token && *token && !authorization) {
    const std::string_view t(token);
    if (std::any_of(t.begin(), t.end(), [](char c) { return c == '\r' || c == '\n' || c == '\0'; }))
      throw UsageError("TENSORGATE_TOKEN holds a line break");
    o.headers.emplace_back("Authorization", "Bearer " + std::string(t));
  }
  o.connect_timeout = seconds(f.connect_timeout, "--connect-timeout");
  o.read_timeout = seconds(f.read_timeout, "--read-timeout");
  if (f.retries > 100) throw UsageError("--retries must be at most 100");
  o.retries = f.retries;
  o.ca_file = f.ca_file;
  if (!network::names_a_url(entries) && f.ca_file.empty()) return;
  std::string error;
  settings.tls = network::load_tls_client(f.ca_file, error);
  if (!settings.tls) throw UsageError(error);
}

}  // namespace tensorgate::cli
