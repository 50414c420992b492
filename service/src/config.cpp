#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

std::string check_config(const ServiceConfig& c) {
  if (c.read_buffer_bytes < 4096) return "read-buffer-bytes must be at least 4096";
  if (c.read_buffer_bytes < c.max_request_header_bytes)
    return "read-buffer-bytes must be at least max-request-header-bytes";
  if (c.max_request_header_bytes < 256) return "max-request-header-bytes must be at least 256";
  if (c.max_concurrent_uploads == 0) return "max-concurrent-uploads must be at least 1";
  if (c.max_connections == 0) return "max-connections must be at least 1";
  if (c.keepalive_max_requests == 0) return "keepalive-max-requests must be at least 1";
  for (const Millis t : {c.header_timeout, c.body_idle_timeout, c.keepalive_timeout,
                         c.write_timeout, c.min_body_rate_window, c.min_write_rate_window, c.probe_timeout})
    if (t.count() <= 0) return "timeouts and the rate window must be positive";
  return {};
}

}  // namespace tensorgate::service
