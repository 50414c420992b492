#include "service_memory.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string_view>
#include <vector>

#include "tensorgate/service/config.hpp"
#include "tensorgate/service/in_memory.hpp"
#include "tensorgate/sha256.hpp"

namespace tgbench {
namespace {

using Clock = std::chrono::steady_clock;

double cpu_seconds() {  // the whole process: the session's thread and the workers
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

void print(const char* label, std::uint64_t total, double seconds, double cpu, unsigned status, bool valid) {
  std::printf("{\"mode\":\"%s\",\"bytes\":%llu,\"seconds\":%.3f,\"cpu_seconds\":%.3f,\"mb_per_s\":%.1f,"
              "\"status\":%u,\"valid\":%s}\n",
              label, static_cast<unsigned long long>(total), seconds, cpu,
              static_cast<double>(total) / seconds / 1e6, status, valid ? "true" : "false");
}

}  // namespace

int memory_upload(const std::string& prefix, std::uint64_t body_bytes, std::uint64_t total, const char* label) {
  const std::vector<char> block(1 << 20, '\x5a');  // the body's bytes, as service_load sends them
  std::size_t prefix_sent = 0;
  std::uint64_t body_left = body_bytes;
  // A read gets what recv would give it: the prefix, then body bytes, as many as fit.
  auto source = [&](char* dst, std::size_t capacity) -> std::size_t {
    std::size_t n = 0;
    if (prefix_sent < prefix.size()) {
      n = std::min(capacity, prefix.size() - prefix_sent);
      std::memcpy(dst, prefix.data() + prefix_sent, n);
      prefix_sent += n;
    }
    while (n < capacity && body_left) {
      const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>({capacity - n, body_left, block.size()}));
      std::memcpy(dst + n, block.data(), k);
      n += k;
      body_left -= k;
    }
    return n;
  };
  std::string answer;
  auto received = [&answer](std::string_view bytes) {
    if (answer.size() < (1 << 16)) answer.append(bytes.substr(0, (1 << 16) - answer.size()));
  };
  tensorgate::service::ServiceConfig config;  // serve's defaults
  const double cpu0 = cpu_seconds();
  const auto start = Clock::now();
  tensorgate::service::serve_from_source(config, source, received);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double cpu = cpu_seconds() - cpu0;
  const unsigned status = answer.rfind("HTTP/1.1 ", 0) == 0 ? static_cast<unsigned>(std::atoi(answer.c_str() + 9)) : 0;
  print(label, total, seconds, cpu, status, answer.find("\"valid\":true") != std::string::npos);
  return status == 200 ? 0 : 1;
}

int raw_sha256(std::uint64_t total) {
  const std::vector<char> block(1 << 20, '\x5a');
  tensorgate::Sha256 sha;
  const double cpu0 = cpu_seconds();
  const auto start = Clock::now();
  for (std::uint64_t left = total; left;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
    sha.update(block.data(), n);
    left -= n;
  }
  const std::string hex = sha.hex_digest();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  print("sha256-raw", total, seconds, cpu_seconds() - cpu0, 0, hex.size() == 64);
  return 0;
}

}  // namespace tgbench
