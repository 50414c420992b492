#pragma once
// One upload being validated: the body bytes go to the validator as they arrive and are never
// stored. Its exchange (upload_exchange.hpp) owns it and feeds it each piece the body reader
// hands over, or, for the piece that completes a heavy step, runs the feed on a worker.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "piece_body.hpp"
#include "query.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::service {

class ServiceContext;

class Upload {
 public:
  Upload(ServiceContext& ctx, UploadOptions options, std::optional<std::uint64_t> content_length);

  // `size` more body bytes arrived. False when the body goes past max_body_bytes (chunked
  // bodies; a Content-Length above it was refused before the body was read).
  bool receive(std::size_t size);
  // Whether feeding `size` more bytes completes a heavy step (a large header's parse): that feed
  // belongs on a worker thread (feed_heavy).
  bool completes_heavy_step(std::size_t size) const;
  // The next bytes of the body, on the event loop; nothing once the verdict is final (the
  // exchange answers then and stops reading).
  void feed(const void* data, std::size_t size);
  // The same on a worker thread, against the CPU deadline (max_parse_cpu).
  void feed_heavy(std::string_view bytes);

  Progress progress() const { return progress_; }
  std::uint64_t bytes_received() const { return bytes_; }
  const UploadOptions& options() const { return options_; }

  // The body has ended: the final report.
  Report finish();
  // An early answer: the report so far.
  Report snapshot() const { return validator_->snapshot(); }
  // The report is built: the validator, its header buffer and table (and their share of the
  // memory budget) are freed. Only the counts remain.
  void release_validator() { validator_.reset(); }

 private:
  std::uint64_t max_body_;
  std::chrono::milliseconds max_parse_cpu_;
  UploadOptions options_;
  std::unique_ptr<Validator> validator_;
  std::uint64_t bytes_ = 0;
  Progress progress_ = Progress::need_more;
};

// The JSON report answered for an upload (200 and 422): the core's report fields plus what the
// service knows (schema tensorgate.validation/1), written a piece at a time (piece_body.hpp) by
// the core's ReportFieldsWriter. It owns the report, and with it the summaries the report
// points into, until the last piece is written.
struct UploadFacts {
  std::string request_id;
  UploadOptions options;
  std::uint64_t bytes_received = 0;
  bool complete = false;  // the whole body was read
  std::optional<std::string> sha256;
  std::uint64_t max_report_tensors = UINT64_MAX;
  std::uint64_t max_report_metadata = UINT64_MAX;
  std::shared_ptr<const Policy> policy = nullptr;  // the policy in force, named in the answer
};

class UploadReport final : public PieceSource {
 public:
  // Pieces of a streamed answer: large enough that a piece costs one write, small enough to hold.
  static constexpr std::size_t kPieceBytes = 64 * 1024;

  UploadReport(UploadFacts facts, Report report);
  ~UploadReport() override;

  // Writes the first `up_to` bytes (whole list items) into head(); true when that is all of the
  // report, which is then answered whole, with a Content-Length.
  bool start(std::size_t up_to);
  std::string& head() { return head_; }
  // After start(): head() first, then pieces of kPieceBytes.
  bool next(std::string& out) override;

 private:
  void finish_document();

  UploadFacts facts_;
  Report report_;
  ReportOptions options_;
  std::string out_;  // the writer's sink
  JsonWriter writer_;
  std::unique_ptr<ReportFieldsWriter> fields_;
  std::string head_;
  bool ended_ = false;
};

inline constexpr std::string_view kValidationSchema = "tensorgate.validation/1";

}  // namespace tensorgate::service
