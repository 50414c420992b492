#pragma once
// Legacy GGML files (docs/ggml.md, family GL): llama.cpp's files before GGUF (magics ggml,
// ggmf, ggjt) and whisper.cpp's models, read as they stream; the tensors' data is skipped.
// The summary a file gets, and the push validator.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

// One hyperparameter of the header, named as the writer's loader names it ("n_audio_state").
struct GgmlHyperparameter {
  std::string name;
  std::int64_t value = 0;
};

// One tensor record, its data placed.
struct GgmlTensor {
  std::string name;
  std::string type;                 // ggml's type name ("Q4_0")
  std::vector<std::uint64_t> dims;  // ne0 first, as the file stores them
  std::uint64_t offset = 0;         // of its data in the file
  std::uint64_t bytes = 0;          // of its data
};

struct GgmlSummary {
  // "whisper", "llama-ggml", "llama-ggmf" or "llama-ggjt"; empty until the header placed it.
  std::string kind;
  std::uint32_t version = 0;  // ggmf's and ggjt's version; 0 for the unversioned ggml magic
  std::vector<GgmlHyperparameter> hyperparameters;
  std::uint64_t vocab_size = 0;  // entries the header announces
  // whisper: the mel filter bank's shape (n_mel x n_fft floats).
  std::uint32_t mel_filters_n_mel = 0, mel_filters_n_fft = 0;
  std::vector<GgmlTensor> tensors;  // in file order, the first Limits::ggml.max_listed_tensors
  std::uint64_t tensor_count = 0, tensors_not_listed = 0;
  std::uint64_t tensor_bytes = 0, parameters = 0;
};
// How the reports write it (core/src/ggml/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const GgmlSummary*);

std::unique_ptr<Validator> make_ggml_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
