// The legacy GGML facts of the text report:
// ", whisper, 167 tensors, 37,760,640 parameters, vocabulary of 50,257, mel filters 80 x 201"
// or ", llama-ggjt v3, 291 tensors, 6,738,415,616 parameters, vocabulary of 32,000".
#include "common/text_counts.hpp"
#include "ggml/report_writers.hpp"

namespace tensorgate::detail {

std::string ggml_text_facts(const GgmlSummary& s) {
  std::string line = ", " + s.kind + (s.version ? " v" + std::to_string(s.version) : std::string()) + ", " +
                     plural(s.tensor_count, "tensor") + ", " + plural(s.parameters, "parameter") + ", vocabulary of " +
                     commas(s.vocab_size);
  if (s.kind == "whisper")
    line += ", mel filters " + std::to_string(s.mel_filters_n_mel) + " x " + std::to_string(s.mel_filters_n_fft);
  return line;
}

}  // namespace tensorgate::detail
