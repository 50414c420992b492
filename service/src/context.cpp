#include "context.hpp"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

namespace tensorgate::service {
namespace {

bool plain_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.' || c == ':';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

ServiceContext::ServiceContext(const ServiceConfig& cfg, AccessLog* access_log,
                               std::string id_prefix)
    : config(cfg), budget(cfg.header_memory_budget_bytes, metrics.header_budget_in_use),
      log(access_log), id_prefix_(std::move(id_prefix)) {
  metrics.header_budget_capacity = cfg.header_memory_budget_bytes;
  if (!id_prefix_.empty()) return;
  char prefix[16];
  std::snprintf(prefix, sizeof prefix, "%08x", static_cast<unsigned>(std::random_device{}()));
  id_prefix_ = prefix;
}

bool ServiceContext::try_begin_upload() {
  std::int64_t n = metrics.uploads_in_flight.load(std::memory_order_relaxed);
  do {
    if (n >= static_cast<std::int64_t>(config.max_concurrent_uploads)) return false;
  } while (!metrics.uploads_in_flight.compare_exchange_weak(n, n + 1));
  return true;
}

void ServiceContext::end_upload() { metrics.uploads_in_flight.fetch_sub(1); }

void ServiceContext::trim_when_idle() {
  if (budget.held() != 0 || uploads_in_flight() != 0) return;
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::steady_clock::now().time_since_epoch()).count();
  std::int64_t last = last_trim_ms_.load(std::memory_order_relaxed);
  if (now - last < 1000 || !last_trim_ms_.compare_exchange_strong(last, now)) return;
  ::malloc_trim(0);
}

unsigned worker_thread_count(const ServiceConfig& config) {
  return config.worker_threads ? config.worker_threads : std::max(1u, std::thread::hardware_concurrency());
}

void ServiceContext::offload(std::function<void()> work, net::any_io_executor back, std::function<void()> done) {
  if (!workers) {
    work();
    net::post(back, std::move(done));
    return;
  }
  net::post(*workers, [work = std::move(work), back = std::move(back), done = std::move(done)]() mutable {
    work();
    net::post(back, std::move(done));
  });
}

std::string ServiceContext::request_id(std::string_view client_id) {
  if (plain_id(client_id)) return std::string(client_id);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%s-%06llx", id_prefix_.c_str(),
                static_cast<unsigned long long>(next_id_.fetch_add(1)));
  return buf;
}

}  // namespace tensorgate::service
