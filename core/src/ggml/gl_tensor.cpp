// GL.tensor and GL.alignment: the tensor records (n_dims, name length, type, dims, name, ggjt's
// padding) and the size of each tensor's data, which is then only counted.
#include "ggml/validator.hpp"

namespace tensorgate::detail::ggml {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

// Past this no byte size is believed: no file holds 2^62 bytes, and sums stay exact.
constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 62;

std::uint64_t add_capped(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

void GgmlValidator::start_record() {
  record_at_ = pos_;
  expect(Stage::record_head, 12);
}

void GgmlValidator::on_record_head() {
  if (summary_.tensor_count >= limits_.ggml.max_tensors)
    return abort_with("ggml-tensors", "more than Limits::ggml.max_tensors (" + num(limits_.ggml.max_tensors) +
                                          ") tensor records; the file is not checked");
  const std::int32_t n_dims = int_at(0), name_len = int_at(1);
  type_id_ = static_cast<std::uint32_t>(int_at(2));
  const std::string which = "tensor record " + num(summary_.tensor_count) + " (at byte " + num(record_at_) + ")";
  if (n_dims < 1 || n_dims > 4)
    return fail(Rule::gl_tensor, which + " has n_dims = " + std::to_string(n_dims) + ": ggml tensors have 1 to 4", record_at_);
  if (name_len < 1 || static_cast<std::uint32_t>(name_len) > limits_.ggml.max_name_bytes)
    return fail(Rule::gl_tensor, which + " has a name of " + std::to_string(name_len) + " bytes (1 to Limits::ggml.max_name_bytes = " +
                                     num(limits_.ggml.max_name_bytes) + ")",
                record_at_);
  n_dims_ = static_cast<std::uint32_t>(n_dims);
  name_len_ = static_cast<std::uint32_t>(name_len);
  expect(Stage::dims, 4 * n_dims_);
}

void GgmlValidator::on_dims() {
  for (std::uint32_t i = 0; i < n_dims_; ++i) dims_[i] = static_cast<std::uint64_t>(static_cast<std::int64_t>(int_at(i)));
  name_.clear();
  stage_ = Stage::name;
}

// The whole record is read: its type and dimensions say how many bytes of data follow.
void GgmlValidator::on_name() {
  const std::string which = "tensor \"" + name_.substr(0, 200) + "\" (record at byte " + num(record_at_) + ")";
  std::string why;
  const std::string layout = kind_ == Kind::whisper
                                 ? "a whisper file of quantization version " + num(static_cast<std::uint64_t>(summary_.hyperparameters.back().value / 1000))
                                 : "a " + summary_.kind + (summary_.version ? " v" + num(summary_.version) : std::string()) + " file";
  type_ = tensor_type(era_, layout, type_id_, why);
  if (!type_) return fail(Rule::gl_tensor, which + ": " + why, record_at_);
  std::uint64_t elements = 1;
  for (std::uint32_t i = 0; i < n_dims_; ++i) {
    const auto d = static_cast<std::int64_t>(dims_[i]);
    if (d < 1) return fail(Rule::gl_tensor, which + ": dimension " + num(i) + " is " + std::to_string(d) + " (at least 1)", record_at_);
    if (__builtin_mul_overflow(elements, dims_[i], &elements) || elements > kMaxBytes)
      return fail(Rule::gl_tensor, which + ": its element count overflows", record_at_);
  }
  if (dims_[0] % type_->block_size != 0)
    return fail(Rule::gl_tensor, which + ": a row of " + num(dims_[0]) + " elements is not a whole number of " +
                                     std::string(type_->name) + " blocks (" + num(type_->block_size) + " elements)",
                record_at_);
  const std::uint64_t blocks = elements / type_->block_size;
  if (blocks > kMaxBytes / type_->type_size) return fail(Rule::gl_tensor, which + ": its byte size overflows", record_at_);
  const std::uint64_t bytes = blocks * type_->type_size;
  const std::uint64_t pad = aligned_ ? (0 - pos_) & 31 : 0;

  ++summary_.tensor_count;
  summary_.tensor_bytes = add_capped(summary_.tensor_bytes, bytes);
  summary_.parameters = add_capped(summary_.parameters, elements);
  if (summary_.tensors.size() < limits_.ggml.max_listed_tensors) {
    if (!memory_.add(sizeof(GgmlTensor) + name_.size() + 8 * n_dims_ + 16))
      return abort_with("ggml-memory-budget", "no memory left in the shared budget for the tensor list", AbortKind::memory_budget);
    summary_.tensors.push_back(GgmlTensor{name_, std::string(type_->name),
                                          std::vector<std::uint64_t>(dims_.begin(), dims_.begin() + n_dims_), pos_ + pad, bytes});
  } else {
    ++summary_.tensors_not_listed;
  }
  run_ = bytes;  // kept for the padding's check
  if (pad > 0) return expect(Stage::pad, pad);
  count(Stage::data, bytes);
}

// ggjt's writers (llama.cpp's llama_file_saver, convert.py) seek over the gap of the file they
// are writing, which leaves zeros: other bytes there are the data of a writer that did not pad,
// which the loader would read from the wrong place.
void GgmlValidator::on_pad() {
  for (std::size_t i = 0; i < have_; ++i)
    if (buf_[i] != 0)
      return fail(Rule::gl_alignment, "the " + num(have_) + " bytes before tensor \"" + name_.substr(0, 200) +
                                          "\"'s data (at byte " + num(field_at_) +
                                          ") should pad it to a multiple of 32 with zeros, and byte " + num(field_at_ + i) +
                                          " is not zero: the writer did not align the data",
                  field_at_);
  count(Stage::data, run_);
}

}  // namespace tensorgate::detail::ggml
