// Loopback load generator for `tensorgate serve` (bench/service_bench.sh runs it).
//   service_load stream --port P --bytes N [--query Q]   one streamed upload of a valid file
//   service_load sink --bytes N                          the same upload into NullSink
//   service_load small --port P [--connections 64] [--requests 200] [--bytes 4096]
//   service_load gen --bytes N                           the same stream on stdout (openssl dgst)
//   service_load memory --bytes N [--query Q]            the same upload without TCP, in process
//   service_load sha256 --bytes N                        SHA-256 over a buffer in memory
// The valid file is generated on the fly: a header naming one U8 tensor over all the data, then
// the data from one reused buffer, so 16 GiB never touch the disk. Figures go to stdout as JSON.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "service_memory.hpp"
#include "service_sink.hpp"

namespace {

using Clock = std::chrono::steady_clock;

std::string valid_header(std::uint64_t total) {
  std::uint64_t data = total;
  std::string json;
  for (int i = 0; i < 8; ++i) {  // the header's length depends on the digits of the data length
    json = "{\"w\":{\"dtype\":\"U8\",\"shape\":[" + std::to_string(data) + "],\"data_offsets\":[0," +
           std::to_string(data) + "]}}";
    json.append((8 - json.size() % 8) % 8, ' ');
    const std::uint64_t need = total - 8 - json.size();
    if (need == data) break;
    data = need;
  }
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((json.size() >> (8 * i)) & 0xff);
  return out + json;
}

int connect_to(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    std::perror("connect");
    std::exit(2);
  }
  return fd;
}

bool send_all(int fd, const char* p, std::size_t n) {
  while (n) {
    const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
    if (k <= 0) return false;
    p += k;
    n -= static_cast<std::size_t>(k);
  }
  return true;
}

// Reads one response with a Content-Length body; returns the status (0 on failure) and the body.
unsigned read_response(int fd, std::string& pending, std::string& body) {
  char buf[16384];
  for (;;) {
    const std::size_t end = pending.find("\r\n\r\n");
    if (end != std::string::npos) {
      const unsigned status = static_cast<unsigned>(std::atoi(pending.c_str() + 9));
      std::string lower = pending.substr(0, end);
      std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
      const std::size_t cl = lower.find("content-length:");
      const std::size_t length = cl == std::string::npos ? 0 : std::strtoull(lower.c_str() + cl + 15, nullptr, 10);
      while (pending.size() < end + 4 + length) {
        const ssize_t k = ::recv(fd, buf, sizeof buf, 0);
        if (k <= 0) return 0;
        pending.append(buf, static_cast<std::size_t>(k));
      }
      body = pending.substr(end + 4, length);
      pending.erase(0, end + 4 + length);
      if (status == 100) continue;
      return status;
    }
    const ssize_t k = ::recv(fd, buf, sizeof buf, 0);
    if (k <= 0) return 0;
    pending.append(buf, static_cast<std::size_t>(k));
  }
}

std::map<std::string, std::string> flags(int argc, char** argv) {
  std::map<std::string, std::string> out;
  for (int i = 2; i + 1 < argc; i += 2) out[argv[i]] = argv[i + 1];
  return out;
}

std::uint64_t num(const std::map<std::string, std::string>& f, const char* k, std::uint64_t def) {
  const auto it = f.find(k);
  return it == f.end() ? def : std::strtoull(it->second.c_str(), nullptr, 10);
}

std::string request_head(const std::string& query, std::uint64_t total) {
  return "POST /v1/validate" + query + " HTTP/1.1\r\nHost: bench\r\nContent-Type: application/octet-stream\r\nContent-Length: " +
         std::to_string(total) + "\r\n\r\n";
}

// One upload of `total` bytes; prints its throughput.
int stream(std::uint16_t port, std::uint64_t total, const std::string& query, const char* label) {
  const int fd = connect_to(port);
  const std::string header = valid_header(total);
  const std::string head = request_head(query, total);
  const std::vector<char> block(1 << 20, '\x5a');
  const auto start = Clock::now();
  bool ok = send_all(fd, head.data(), head.size()) && send_all(fd, header.data(), header.size());
  for (std::uint64_t left = total - header.size(); ok && left;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
    ok = send_all(fd, block.data(), n);
    left -= n;
  }
  std::string pending, body;
  const unsigned status = ok ? read_response(fd, pending, body) : 0;
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ::close(fd);
  const bool valid = body.find("\"valid\":true") != std::string::npos;
  std::printf("{\"mode\":\"%s\",\"bytes\":%llu,\"seconds\":%.3f,\"mb_per_s\":%.1f,\"status\":%u,\"valid\":%s}\n",
              label, static_cast<unsigned long long>(total), seconds, static_cast<double>(total) / seconds / 1e6, status,
              valid ? "true" : "false");
  return status == 200 ? 0 : 1;
}

int generate(std::uint64_t total) {
  const std::string header = valid_header(total);
  std::fwrite(header.data(), 1, header.size(), stdout);
  const std::vector<char> block(1 << 20, '\x5a');
  for (std::uint64_t left = total - header.size(); left;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, block.size()));
    if (std::fwrite(block.data(), 1, n, stdout) != n) return 1;
    left -= n;
  }
  return 0;
}

// Many keep-alive connections, each uploading a small valid file again and again.
int small(std::uint16_t port, unsigned connections, unsigned requests, std::uint64_t bytes) {
  std::string file = valid_header(bytes);
  file.append(bytes - file.size(), '\x5a');
  const std::string req = "POST /v1/validate HTTP/1.1\r\nHost: bench\r\nContent-Length: " +
                          std::to_string(bytes) + "\r\n\r\n" + file;
  std::vector<std::vector<double>> latencies(connections);
  std::atomic<unsigned> failures{0};
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (unsigned c = 0; c < connections; ++c) {
    threads.emplace_back([&, c] {
      const int fd = connect_to(port);
      std::string pending, body;
      for (unsigned i = 0; i < requests; ++i) {
        const auto t0 = Clock::now();
        if (!send_all(fd, req.data(), req.size()) || read_response(fd, pending, body) != 200) {
          ++failures;
          break;
        }
        latencies[c].push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
      }
      ::close(fd);
    });
  }
  for (auto& t : threads) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (const auto& l : latencies) all.insert(all.end(), l.begin(), l.end());
  std::sort(all.begin(), all.end());
  auto pct = [&all](double p) { return all.empty() ? 0.0 : all[static_cast<std::size_t>(p * static_cast<double>(all.size() - 1))]; };
  std::printf("{\"mode\":\"small\",\"connections\":%u,\"requests\":%zu,\"bytes\":%llu,\"seconds\":%.3f,"
              "\"requests_per_s\":%.0f,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"failures\":%u}\n",
              connections, all.size(), static_cast<unsigned long long>(bytes), seconds,
              static_cast<double>(all.size()) / seconds, pct(0.50), pct(0.99), failures.load());
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("usage: service_load stream|sink|small|gen|memory|sha256 [--port P] [--bytes N] ...\n", stderr);
    return 2;
  }
  const std::string mode = argv[1];
  const auto f = flags(argc, argv);
  const std::uint64_t bytes = num(f, "--bytes", 1ull << 30);
  const auto port = static_cast<std::uint16_t>(num(f, "--port", 8080));
  if (mode == "stream") return stream(port, bytes, f.count("--query") ? "?" + f.at("--query") : "", f.count("--label") ? f.at("--label").c_str() : "service");
  if (mode == "sink") {
    tgbench::NullSink sink;
    return stream(sink.port(), bytes, "", "null-sink");
  }
  if (mode == "small")
    return small(port, static_cast<unsigned>(num(f, "--connections", 64)),
                 static_cast<unsigned>(num(f, "--requests", 200)), num(f, "--bytes", 4096));
  if (mode == "gen") return generate(bytes);
  if (mode == "memory") {
    const std::string query = f.count("--query") ? "?" + f.at("--query") : "";
    const std::string header = valid_header(bytes);
    return tgbench::memory_upload(request_head(query, bytes) + header, bytes - header.size(), bytes,
                                  f.count("--label") ? f.at("--label").c_str() : "memory");
  }
  if (mode == "sha256") return tgbench::raw_sha256(bytes);
  std::fprintf(stderr, "service_load: unknown mode %s\n", mode.c_str());
  return 2;
}
