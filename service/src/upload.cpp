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
  limits.policy = ctx.config.policy;
  validator_ = make_upload_validator(options_.format, options_.name.value_or(""), limits,
                                     &ctx.budget);
  if (content_length) validator_->set_total_size(*content_length);
}

bool Upload::receive(std::size_t size) {
  bytes_ += size;
  return bytes_ <= max_body_;
}

bool Upload::completes_heavy_step(std::size_t size) const {
  return progress_ == Progress::need_more && validator_->completes_heavy_step(size);
}

void Upload::feed(const void* data, std::size_t size) {
  if (progress_ != Progress::need_more) return;
  progress_ = validator_->feed(std::span(static_cast<const std::byte*>(data), size));
}

// On a worker thread: the heavy step runs here, against its CPU deadline.
void Upload::feed_heavy(std::string_view bytes) {
  if (progress_ != Progress::need_more) return;
  std::optional<ThreadCpuDeadline> deadline;
  if (max_parse_cpu_.count() > 0) validator_->set_deadline(&deadline.emplace(max_parse_cpu_));
  progress_ = validator_->feed(bytes);
  validator_->set_deadline(nullptr);
}

Report Upload::finish() {
  Report r = validator_->finish();
  if (r.aborted) progress_ = Progress::aborted;
  else if (!r.valid) progress_ = Progress::invalid;
  return r;
}

UploadReport::UploadReport(UploadFacts facts, Report report)
    : facts_(std::move(facts)), report_(std::move(report)), writer_([this](std::string_view s) { out_.append(s); }) {
  options_.include_tensors = facts_.options.include_tensors;
  options_.limits.max_tensors = facts_.max_report_tensors;
  options_.limits.max_metadata = facts_.max_report_metadata;
  if (facts_.policy) options_.policy = facts_.policy->identity;
  writer_.begin_object();
  writer_.field("schema", kValidationSchema);
  writer_.field("request_id", facts_.request_id);
  writer_.key("name");
  if (facts_.options.name) writer_.string(*facts_.options.name); else writer_.null();
  if (options_.policy) write_policy_identity(writer_, *options_.policy);
  fields_ = std::make_unique<ReportFieldsWriter>(writer_, report_, options_);
}

UploadReport::~UploadReport() = default;

void UploadReport::finish_document() {
  writer_.field("bytes_received", facts_.bytes_received);
  writer_.field("complete", facts_.complete);
  writer_.key("sha256");
  if (facts_.sha256) writer_.string(*facts_.sha256); else writer_.null();
  writer_.end_object();
  writer_.flush();
  out_.push_back('\n');
  ended_ = true;
}

bool UploadReport::start(std::size_t up_to) {
  if (!fields_->resume(up_to)) finish_document();
  writer_.flush();
  head_ = std::move(out_);
  out_.clear();
  return ended_;
}

bool UploadReport::next(std::string& out) {
  if (!head_.empty()) {
    out = std::move(head_);
    head_.clear();
    return true;
  }
  if (ended_) return false;
  out_.clear();
  // A resume writes at least a piece unless the fields end first; the document's end is never empty.
  if (!fields_->resume(kPieceBytes)) finish_document();
  writer_.flush();
  out.swap(out_);
  return true;
}

}  // namespace tensorgate::service
