// GgufValidator: the tensor infos are complete. GG5 (where the data lies), the block count, and
// the early verdict: from here on only the end of the data is left to learn.
#include <algorithm>

#include "common/printable.hpp"
#include "gguf/validator.hpp"
#include "table_access.hpp"

namespace tensorgate::detail::gguf {
namespace {

uint128 align_up(uint128 v, std::uint64_t alignment) { return (v + alignment - 1) / alignment * alignment; }

std::string u128_string(uint128 v) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

}  // namespace

void GgufValidator::infos_done() {
  if (state_ == State::stopped) return;
  if (checkpoints_used_ > 0) pop_checkpoint();  // the header's counts are met
  unit_.kind = Unit::header;
  const std::uint64_t infos_end = pos_;
  // ggml seeks to the aligned data section only when there are tensors (gguf.cpp).
  layout_.data_start = header_.n_tensors > 0 ? align_up(infos_end, layout_.alignment) : infos_end;
  layout_.required_end = layout_.data_start;
  report_duplicate_names();
  check_layout();
  check_block_count();
  if (findings_.has_errors()) {
    stop();
    return;
  }
  build_summary();
  expect(State::data, 0);
  if (total_) check_data_end(*total_);
}

void GgufValidator::check_layout() {
  if (est_.facts.alignment_bad) return;  // GG3 failed: where the data starts is unknown
  const auto& records = GgufTableBuilder::records(*est_.table);
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    if (!r.sized || r.duplicate) continue;
    const uint128 begin = layout_.data_start + r.offset;
    const uint128 end = begin + r.bytes;
    const auto tensor = name_of(r);
    if (end > UINT64_MAX) {
      findings_.add(Rule::gg5_overflow,
                    "data section start " + u128_string(layout_.data_start) + " + offset " + std::to_string(r.offset) +
                        " + size " + std::to_string(r.bytes) + " passes 2^64",
                    r.info_pos, tensor);
      continue;
    }
    if (r.offset % layout_.alignment != 0)
      findings_.add(Rule::gg5_offset_alignment,
                    "offset " + std::to_string(r.offset) + " is not a multiple of the alignment " + std::to_string(layout_.alignment),
                    static_cast<std::uint64_t>(begin), tensor);
    if (end > layout_.required_end) {
      layout_.required_end = end;
      layout_.required_by = i;
    }
  }
  layout_.padded_end = align_up(layout_.required_end, layout_.alignment);
  check_overlaps();
  check_running_sum();
}

// Sorted by offset, no tensor may begin before the ones before it ended (empty ones never
// overlap). Files are usually written in offset order: sort only when they are not.
void GgufValidator::check_overlaps() {
  const auto& records = GgufTableBuilder::records(*est_.table);
  std::vector<std::uint32_t> order;
  if (!charge(records.size() * sizeof(std::uint32_t))) return;
  order.reserve(records.size());
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    const auto& r = records[i];
    if (r.sized && !r.duplicate && r.bytes > 0 && layout_.data_start + r.offset + r.bytes <= UINT64_MAX) order.push_back(i);
  }
  const auto by_offset = [&](std::uint32_t a, std::uint32_t b) {
    const auto& ra = records[a];
    const auto& rb = records[b];
    return ra.offset != rb.offset ? ra.offset < rb.offset : ra.bytes < rb.bytes;
  };
  if (!std::is_sorted(order.begin(), order.end(), by_offset)) std::stable_sort(order.begin(), order.end(), by_offset);
  uint128 covered = 0;
  std::optional<std::uint32_t> last;
  for (const std::uint32_t i : order) {
    const auto& r = records[i];
    if (last && r.offset < covered) {
      const auto& prev = records[*last];
      findings_.add(Rule::gg5_overlap,
                    "the data at offset " + std::to_string(r.offset) + " overlaps " +
                        (prev.name_known ? "tensor " + quoted(prev.name) : std::string("another tensor")) +
                        ", which ends at offset " + u128_string(covered),
                    static_cast<std::uint64_t>(layout_.data_start + r.offset),
                    name_of(r));
    }
    if (!last || static_cast<uint128>(r.offset) + r.bytes > covered) {
      covered = static_cast<uint128>(r.offset) + r.bytes;
      last = i;
    }
  }
}

// llama.cpp (gguf.cpp) expects each offset to be the sum of the padded sizes before it.
void GgufValidator::check_running_sum() {
  const auto& records = GgufTableBuilder::records(*est_.table);
  uint128 expected = 0;
  for (const auto& r : records) {
    if (!r.sized) return;
    if (r.offset != expected) {
      findings_.add(Rule::ggw_layout,
                    "offset " + std::to_string(r.offset) + ", where llama.cpp expects " + u128_string(expected) +
                        " (the padded sizes of the tensors before it)",
                    r.info_pos, name_of(r));
      note_llama_refuses("tensor offsets that are not the running sum of padded sizes");
      return;
    }
    expected += align_up(r.bytes, layout_.alignment);
  }
}

void GgufValidator::check_block_count() {
  if (!est_.facts.block_count || !est_.max_block) return;
  if (est_.facts.split_count && *est_.facts.split_count > 1) return;  // a shard holds some blocks: GS judges the set
  const std::uint64_t blocks = *est_.max_block + 1;
  if (blocks == *est_.facts.block_count) return;
  findings_.add(Rule::ggw_block_count,
                quoted(*est_.facts.architecture + ".block_count") + " is " + std::to_string(*est_.facts.block_count) +
                    ", the tensor names show blocks blk.0 to blk." + std::to_string(*est_.max_block),
                est_.facts.block_count_pos);
}

// The end of the input is known (from the size hint, or because it came).
void GgufValidator::check_data_end(std::uint64_t file_size) {
  layout_.data_checked = true;
  const auto& records = GgufTableBuilder::records(*est_.table);
  if (file_size < layout_.required_end) {
    std::string what = "the data section starts at byte " + u128_string(layout_.data_start);
    std::optional<std::string_view> tensor;
    if (layout_.required_by) {
      const auto& r = records[*layout_.required_by];
      what = "the tensor data runs to byte " + u128_string(layout_.required_end);
      if (r.name_known) tensor = r.name;
    }
    findings_.add(Rule::gg5_truncated, what + ", the file ends at byte " + std::to_string(file_size), file_size, tensor);
  } else if (file_size > layout_.padded_end) {
    findings_.add(Rule::ggw_trailing_bytes,
                  std::to_string(file_size - static_cast<std::uint64_t>(layout_.padded_end)) +
                      " bytes follow the last tensor's data and its padding, which end at byte " + u128_string(layout_.padded_end),
                  static_cast<std::uint64_t>(layout_.padded_end));
  }
}

void GgufValidator::note_llama_refuses(std::string reason) {
  if (est_.llama_refuses.empty()) est_.llama_refuses = std::move(reason);
}

}  // namespace tensorgate::detail::gguf
