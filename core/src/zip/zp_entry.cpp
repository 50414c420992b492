// An entry's data: stored with known sizes (counted), stored with a data descriptor (the
// search), deflated (inflated, with the descriptor after the stream when bit 3 is set); the
// data descriptor; ZP.size, ZP.descriptor, ZP.inflate, ZP.entry-too-large.
#include <string>

#include "common/printable.hpp"
#include "common/saturating.hpp"
#include "torchscript/entry_names.hpp"
#include "zip/records.hpp"
#include "zip/validator.hpp"

namespace tensorgate::detail::zip {
namespace {

constexpr std::uint64_t kBombSlice = 16 << 10;

}  // namespace

void ZipValidator::start_data() {
  state_ = St::data;
  consumed_ = 0;
  entry_over_ = false;
  const std::string_view name = name_of(cur_);
  const bool stored = cur_.method == 0;
  deferred_.set_tag(static_cast<std::uint32_t>(locals_.size()));  // the index this entry will have
  note_torchscript_entry(name);
  const torchscript::EntryRole role = torchscript::entry_role(name);
  if (role == torchscript::EntryRole::code)
    content_.start_code(name, stored ? cur_.data_start : cur_.offset, stored, cur_.method == 8);
  else
    content_.start(name, stored ? cur_.data_start : cur_.offset, stored, cur_.method == 8);
  if (role == torchscript::EntryRole::bytecode) content_.read_operator_names();
  if (cur_.method == 8) {
    mode_ = Mode::deflate;
    inflater_.reset();
    inflate_failed_ = false;
    left_ = sizes_known_ ? declared_compressed_ : UINT64_MAX;
    if (sizes_known_ && declared_uncompressed_ > limits_.zip.bomb_floor_bytes &&
        declared_uncompressed_ > saturating_mul(limits_.zip.bomb_ratio, declared_compressed_))
      on_bomb("records " + std::to_string(declared_uncompressed_) + " bytes from " + std::to_string(declared_compressed_) +
              " compressed");
    return;
  }
  if (!stored) {
    mode_ = Mode::skip;
    left_ = declared_compressed_;
  } else if (sizes_known_) {
    mode_ = Mode::stored;
    left_ = declared_compressed_;
    if (declared_compressed_ != declared_uncompressed_)
      add(Rule::zp_size, "the stored entry " + quoted(name, 80) + " records " + std::to_string(declared_compressed_) +
                             " compressed and " + std::to_string(declared_uncompressed_) + " uncompressed bytes",
          cur_.offset);
  } else {
    mode_ = Mode::search;
    // A writer that also put the size in the local header says where to look; else data.pkl.
    const auto hint = declared_compressed_ ? std::optional<std::uint64_t>(declared_compressed_) : storage_hint(name);
    search_.reset(cur_.zip64, hint);
    return;
  }
  if (left_ == 0) end_data();
}

std::size_t ZipValidator::take_data(const unsigned char* p, std::size_t n) {
  switch (mode_) {
    case Mode::stored:
    case Mode::skip: return take_stored(p, n);
    case Mode::search: return take_search(p, n);
    case Mode::deflate: return take_deflate(p, n);
  }
  return n;
}

std::size_t ZipValidator::take_stored(const unsigned char* p, std::size_t n) {
  const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, left_));
  if (mode_ == Mode::stored) content_.feed(p, take);
  left_ -= take;
  consumed_ += take;
  pos_ += take;
  if (left_ == 0) end_data();
  return take;
}

std::size_t ZipValidator::take_search(const unsigned char* p, std::size_t n) {
  const DescriptorSearch::Step st = search_.feed(p, n, [this](const unsigned char* d, std::size_t k) { content_.feed(d, k); });
  pos_ += st.consumed;
  if (!st.found) return st.consumed;
  const std::string_view name = name_of(cur_);
  const std::uint64_t size = search_.data_length();
  if (search_.hint_missed())
    add(Rule::zp_size, "the stored entry " + quoted(name, 80) + " holds " + std::to_string(size) + " bytes; " +
                           (declared_compressed_ ? "its local header says " : "data.pkl's persistent id says ") +
                           std::to_string(*search_.hint()),
        cur_.offset);
  consumed_ = size;
  cur_.compressed = cur_.uncompressed = size;
  cur_.crc = search_.descriptor().crc;
  content_.finish();
  entry_done();
  return st.consumed;
}

std::size_t ZipValidator::take_deflate(const unsigned char* p, std::size_t n) {
  // Compressed bytes go in by slices that end at multiples of kBombSlice: what a slice inflates
  // to does not depend on how the input was chunked, so neither does ZP.bomb.
  const std::uint64_t slice_end = (consumed_ / kBombSlice + 1) * kBombSlice;
  const std::size_t input = static_cast<std::size_t>(std::min<std::uint64_t>({n, left_, slice_end - consumed_}));
  const std::uint64_t total_left = limits_.zip.max_inflated_bytes > inflated_total_ ? limits_.zip.max_inflated_bytes - inflated_total_ : 0;
  // The entry's bound first (an error), then the archive's total (a capacity limit).
  const std::uint64_t entry_left = entry_over_ ? UINT64_MAX : limits_.zip.max_entry_bytes + 1;
  // A zip bomb inflates the bytes up to the slice's end past this bound.
  const std::uint64_t bomb_bound = std::max(limits_.zip.bomb_floor_bytes, saturating_mul(limits_.zip.bomb_ratio, slice_end));
  const std::uint64_t bomb_left = entry_over_ ? UINT64_MAX : saturating_add(bomb_bound, 1);
  const std::uint64_t budget = std::min({saturating_add(inflater_.produced(), total_left), entry_left, bomb_left});
  bool over = false;
  const std::uint64_t before = inflater_.produced();
  const Inflater::Step st = inflater_.feed(
      p, input,
      [this](const unsigned char* d, std::size_t k) {
        if (!entry_over_) content_.feed(d, k);
      },
      budget, over);
  inflated_total_ += inflater_.produced() - before;
  consumed_ += st.consumed;
  pos_ += st.consumed;
  if (sizes_known_) left_ -= st.consumed;
  if (over && !entry_over_ && inflater_.produced() > bomb_bound)
    on_bomb("inflates to more than " + std::to_string(bomb_bound) + " bytes from at most " + std::to_string(slice_end) +
            " compressed");
  else if (over) inflated_past_a_bound();
  else settle_inflate_step(st, input);
  return st.consumed;
}

// ZP.bomb: the rest is skipped by its recorded compressed size, or, without one (bit 3), the
// walk stops, since only inflating finds where the entry ends.
void ZipValidator::on_bomb(const std::string& what) {
  const std::string message = quoted(name_of(cur_), 80) + " " + what + ": past " + std::to_string(limits_.zip.bomb_ratio) +
                              ":1 and " + std::to_string(limits_.zip.bomb_floor_bytes) +
                              " bytes, a zip bomb (Limits::zip.bomb_ratio, bomb_floor_bytes)";
  if (!sizes_known_) return malformed(Rule::zp_bomb, message + "; its end cannot be found without inflating it", cur_.offset);
  add(Rule::zp_bomb, message, cur_.offset);
  entry_over_ = true;  // not inflated to its end: its CRC and sizes are not compared
  mode_ = Mode::skip;
  if (left_ == 0) end_data();
}

// The inflated bytes passed the archive's total (an abort) or the entry's bound (an error; the
// rest is inflated only to find where it ends, within the archive's total).
void ZipValidator::inflated_past_a_bound() {
  if (inflater_.produced() <= limits_.zip.max_entry_bytes || entry_over_) {
    abort_with("zip-inflated-bytes", "the archive decompresses to more than " + std::to_string(limits_.zip.max_inflated_bytes) +
                                         " bytes, this walker's limit (Limits::zip.max_inflated_bytes)");
    return;
  }
  add(Rule::zp_entry_too_large, quoted(name_of(cur_), 80) + " decompresses to more than " +
                                    std::to_string(limits_.zip.max_entry_bytes) + " bytes (Limits::zip.max_entry_bytes)",
      cur_.offset);
  entry_over_ = true;
}

// After a step within the bounds: zlib's refusal, the stream's end against the recorded size.
void ZipValidator::settle_inflate_step(const Inflater::Step& st, std::size_t input) {
  const std::string_view name = name_of(cur_);
  if (st.error || (st.consumed == 0 && !st.ended && input > 0)) {
    add(Rule::zp_inflate, quoted(name, 80) + " is not valid deflate data (zlib: " + quoted(inflater_.message(), 60) + ")",
        cur_.offset);
    inflate_failed_ = true;
  }
  if (inflate_failed_) {
    if (!sizes_known_) {
      malformed(Rule::zp_record, "the end of " + quoted(name, 80) + " (sizes after the data) cannot be found", cur_.offset);
      return;
    }
    mode_ = Mode::skip;  // the rest of its compressed bytes, by the recorded size
    if (left_ == 0) end_data();
    return;
  }
  if (st.ended) {
    if (sizes_known_ && left_ > 0) {
      add(Rule::zp_size, "the deflate stream of " + quoted(name, 80) + " ends " + std::to_string(left_) +
                             " bytes before its recorded compressed size", cur_.offset);
      mode_ = Mode::skip;
      return;
    }
    end_data();
  } else if (sizes_known_ && left_ == 0) {
    add(Rule::zp_inflate, "the deflate stream of " + quoted(name, 80) + " does not end within its recorded compressed size",
        cur_.offset);
    end_data();
  }
}

void ZipValidator::end_data() {
  content_.finish();
  if (mode_ == Mode::deflate && !sizes_known_) {
    state_ = St::descriptor;
    desc_.clear();
    desc_need_ = 4;
    return;
  }
  if (mode_ == Mode::deflate || (mode_ == Mode::skip && cur_.method == 8)) {
    cur_.compressed = consumed_;
    cur_.uncompressed = inflater_.produced();
    if (!inflate_failed_ && !entry_over_ && cur_.uncompressed != declared_uncompressed_)
      add(Rule::zp_size, quoted(name_of(cur_), 80) + " decompresses to " + std::to_string(cur_.uncompressed) +
                             " bytes; its local header records " + std::to_string(declared_uncompressed_),
          cur_.offset);
    cur_.uncompressed = declared_uncompressed_;  // compared with the central directory as recorded
    cur_.compressed = declared_compressed_;
  } else {
    cur_.compressed = declared_compressed_;
    cur_.uncompressed = declared_uncompressed_;
  }
  entry_done();
}

// A deflated entry's data descriptor: the signature is optional (APPNOTE 4.3.9.3).
std::size_t ZipValidator::take_descriptor(const unsigned char* p, std::size_t n) {
  const std::size_t take = std::min(n, desc_need_ - desc_.size());
  desc_.append(reinterpret_cast<const char*>(p), take);
  pos_ += take;
  if (desc_.size() < desc_need_) return take;
  const auto* d = reinterpret_cast<const unsigned char*>(desc_.data());
  const bool signed_form = le32(d) == kDescriptor;
  const std::size_t body = cur_.zip64 ? 20 : 12;
  if (desc_need_ == 4) {
    desc_need_ = signed_form ? 4 + body : body;
    if (desc_need_ > 4) return take;
  }
  const unsigned char* f = d + (signed_form ? 4 : 0);
  const std::uint32_t crc = le32(f);
  const std::uint64_t csize = cur_.zip64 ? le64(f + 4) : le32(f + 4);
  const std::uint64_t usize = cur_.zip64 ? le64(f + 12) : le32(f + 8);
  const std::string_view name = name_of(cur_);
  if (csize != consumed_ || usize != inflater_.produced())
    add(Rule::zp_size, "the data descriptor of " + quoted(name, 80) + " records " + std::to_string(csize) + " and " +
                           std::to_string(usize) + " bytes; the entry holds " + std::to_string(consumed_) + " and " +
                           std::to_string(inflater_.produced()),
        cur_.offset);
  cur_.crc = crc;
  cur_.compressed = csize;
  cur_.uncompressed = usize;
  entry_done();
  return take;
}

void ZipValidator::check_entry_size(const LocalEntry& e) {
  if (e.uncompressed > limits_.zip.max_entry_bytes)
    add(Rule::zp_entry_too_large, quoted(name_of(e), 80) + " records " + std::to_string(e.uncompressed) +
                                      " uncompressed bytes, above " + std::to_string(limits_.zip.max_entry_bytes) +
                                      " (Limits::zip.max_entry_bytes)",
        e.offset);
}

void ZipValidator::entry_done() {
  state_ = St::signature;
  // A member's scan that stopped at a limit or the memory budget is the archive's verdict: kept
  // here, before the next entry's start forgets it.
  if (!aborted_) aborted_ = content_.aborted();
  const std::string_view name = name_of(cur_);
  if (content_.crc_computed() && !entry_over_ && content_.crc() != cur_.crc)
    add(Rule::zp_size, "the CRC-32 of " + quoted(name, 80) + " is " + std::to_string(content_.crc()) + ", its headers record " +
                           std::to_string(cur_.crc),
        cur_.offset);
  if (!entry_over_) check_entry_size(cur_);
  cur_.content = content_.content();
  if (cur_.content == members::Content::pickle) {
    if (pickles_.size() < 16) {
      // Every copy of a summary kept here is charged before it is made.
      if (!charge(sizeof(ZipPickle) + 512 + content_.pickle_summary_heap_bytes())) return;
      pickles_.push_back(ZipPickle{std::string(name.substr(0, 512)), content_.pickle_valid(), *content_.pickle_summary()});
    } else {
      ++pickles_not_listed_;
    }
    note_data_pkl(cur_);
  } else if (cur_.content == members::Content::npy && arrays_.size() < 16) {
    if (auto array = content_.npy_summary()) arrays_.push_back(std::move(*array));  // none: FK.npy-header
  } else if (cur_.content == members::Content::keras_config && !keras_) {
    const KerasSummary* k = content_.keras_summary();
    std::size_t bytes = sizeof(KerasSummary) + k->model_class.size();
    for (const KerasClassCount& c : k->classes) bytes += sizeof(c) + c.class_name.size() + c.module.size();
    if (!charge(bytes)) return;
    keras_ = *k;
  }
  if (deferred_.heap_bytes() > deferred_charged_) {  // TorchScript globals its pickle left for the end
    if (!charge(deferred_.heap_bytes() - deferred_charged_)) return;
    deferred_charged_ = deferred_.heap_bytes();
  }
  local_at_.emplace(cur_.offset, static_cast<std::uint32_t>(locals_.size()));
  locals_.push_back(cur_);
  if (cur_.content == members::Content::code) note_code_file();
}

}  // namespace tensorgate::detail::zip
