#include "upload.hpp"

#include <span>

#include "context.hpp"
#include "cpu_deadline.hpp"
#include "tensorgate/report_writers.hpp"
#include "validator_factory.hpp"

namespace tensorgate::service {

Upload::Upload(ServiceContext& ctx, UploadOptions options,
               std::optional<std::uint64_t> content_length)
    : max_body_(ctx.config.max_body_bytes), max_parse_cpu_(ctx.config.max_parse_cpu), options_(std::move(options)) {
  Limits limits;
  limits.max_header_bytes = ctx.config.max_safetensors_header_bytes;
  validator_ = make_upload_validator(options_.format, options_.name.value_or(""), limits,
                                     &ctx.budget);
  if (content_length) validator_->set_total_size(*content_length);
  if (options_.digest) digest_.emplace(&ctx.budget, ctx.config.read_buffer_bytes);
}

bool Upload::put(const void* data, std::size_t size) {
  bytes_ += size;
  if (bytes_ > max_body_) return false;
  if (digest_) digest_->put(data, size);
  const auto* bytes = static_cast<const char*>(data);
  if (!pending_.empty() || (progress_ == Progress::need_more && validator_->completes_heavy_step(size))) {
    pending_.append(bytes, size);
    return true;
  }
  // Once the verdict is final the session answers and stops reading; nothing more to feed.
  if (progress_ == Progress::need_more)
    progress_ = validator_->feed(std::span(reinterpret_cast<const std::byte*>(bytes), size));
  return true;
}

// On a worker thread: the heavy step runs here, against its CPU deadline.
void Upload::feed_pending() {
  if (progress_ == Progress::need_more) {
    std::optional<ThreadCpuDeadline> deadline;
    if (max_parse_cpu_.count() > 0) validator_->set_deadline(&deadline.emplace(max_parse_cpu_));
    progress_ = validator_->feed(std::span(reinterpret_cast<const std::byte*>(pending_.data()), pending_.size()));
    validator_->set_deadline(nullptr);
  }
  pending_ = std::string();
}

Report Upload::finish() {
  Report r = validator_->finish();
  if (r.aborted) progress_ = Progress::aborted;
  else if (!r.valid) progress_ = Progress::invalid;
  return r;
}

std::optional<std::string> Upload::sha256_hex() {
  if (!digest_) return std::nullopt;
  return digest_->finish();
}

std::string upload_report_json(const UploadAnswer& a) {
  std::string out;
  {
    JsonWriter w([&out](std::string_view s) { out.append(s); });
    w.begin_object();
    w.field("schema", kValidationSchema);
    w.field("request_id", a.request_id);
    w.key("name");
    if (a.options.name) w.string(*a.options.name); else w.null();
    ReportOptions ro;
    ro.include_tensors = a.options.include_tensors;
    ro.limits.max_tensors = a.max_report_tensors;
    ro.limits.max_metadata = a.max_report_metadata;
    write_report_fields(w, a.report, ro);
    w.field("bytes_received", a.bytes_received);
    w.field("complete", a.complete);
    w.key("sha256");
    if (a.sha256) w.string(*a.sha256); else w.null();
    w.end_object();
  }
  out.push_back('\n');
  return out;
}

}  // namespace tensorgate::service
