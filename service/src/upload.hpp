#pragma once
// One upload being validated: the body bytes go to the validator and the digest as they arrive
// and are never stored. The session owns it; the Beast body reader (upload_body.hpp) feeds it.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "query.hpp"
#include "upload_digest.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::service {

class ServiceContext;

class Upload {
 public:
  Upload(ServiceContext& ctx, UploadOptions options, std::optional<std::uint64_t> content_length);

  // One piece of the body. False when the body goes past max_body_bytes (chunked bodies; a
  // Content-Length above it was refused before the body was read).
  bool put(const void* data, std::size_t size);

  Progress progress() const { return progress_; }
  // A piece that completes a heavy step (a large header's parse) is not fed at once: it and the
  // pieces after it wait here until the session runs feed_pending() on a worker thread.
  bool has_pending() const { return !pending_.empty(); }
  void feed_pending();
  std::uint64_t bytes_received() const { return bytes_; }
  const UploadOptions& options() const { return options_; }

  // The body has ended: the final report and the digest.
  Report finish();
  // An early answer: the report so far; the digest stays unknown.
  Report snapshot() const { return validator_->snapshot(); }
  std::optional<std::string> sha256_hex();
  // The digest when asked for (the session runs its hash jobs); null otherwise.
  UploadDigest* digest() { return digest_ ? &*digest_ : nullptr; }
  // The report is built: the validator, its header buffer and table (and their share of the
  // memory budget) are freed. Only the counts remain.
  void release_validator() { validator_.reset(); }

 private:
  std::uint64_t max_body_;
  std::chrono::milliseconds max_parse_cpu_;
  UploadOptions options_;
  std::unique_ptr<Validator> validator_;
  std::optional<UploadDigest> digest_;
  std::uint64_t bytes_ = 0;
  Progress progress_ = Progress::need_more;
  std::string pending_;  // at most one read's bytes (read_buffer_bytes)
};

// The JSON report answered for an upload (200 and 422): the core's report fields plus what the
// service knows (schema tensorgate.validation/1).
struct UploadAnswer {
  std::string_view request_id;
  const Report& report;
  const UploadOptions& options;
  std::uint64_t bytes_received;
  bool complete;  // the whole body was read
  const std::optional<std::string>& sha256;
  std::uint64_t max_report_tensors = UINT64_MAX;
  std::uint64_t max_report_metadata = UINT64_MAX;
};
std::string upload_report_json(const UploadAnswer& a);

inline constexpr std::string_view kValidationSchema = "tensorgate.validation/1";

}  // namespace tensorgate::service
