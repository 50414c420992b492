// TensorTable and its builder: the parsed header, stored compactly.
#include <algorithm>
#include <cstring>
#include <functional>

#include "common/huge_pages.hpp"
#include "safetensors/table_builder.hpp"

namespace tensorgate {

TensorView TensorTable::operator[](std::size_t i) const {
  const Record& r = records_[i];
  return TensorView{str(r.name), static_cast<Dtype>(r.dtype), r.shape(), r.begin, r.end,
                    r.key_pos};
}

TableBuilder::TableBuilder(HeaderBuffer header) : table_(std::make_shared<TensorTable>()) {
  table_->header_ = std::move(header);
}

void TableBuilder::reserve_records(std::size_t n) {
  auto& records = table_->records_;
  records.reserve(n);
  detail::advise_huge_pages(records.data(), records.capacity() * sizeof(TensorTable::Record));
}

void TableBuilder::clear() {
  auto& t = *table_;
  t.records_.clear();
  t.arena_ = std::string();
  t.dim_chunks_.clear();
  t.dim_chunk_used_ = 0;
  t.metadata_ = {};
  t.has_metadata_ = false;
  bytes_ = 0;
}

bool TableBuilder::in_header(std::string_view s) const {
  const std::string_view h = table_->header_.view();
  std::less_equal<const char*> le;
  return le(h.data(), s.data()) && le(s.data() + s.size(), h.data() + h.size());
}

StrRef TableBuilder::header_ref(std::string_view s) const {
  StrRef r;
  r.off = static_cast<std::uint32_t>(s.data() - table_->header_.data());
  r.len = static_cast<std::uint32_t>(s.size()) & 0x7fffffffu;
  r.in_arena = 0;
  return r;
}

StrRef TableBuilder::arena_append(std::string_view s) {
  StrRef r;
  r.off = static_cast<std::uint32_t>(table_->arena_.size());
  r.len = static_cast<std::uint32_t>(s.size()) & 0x7fffffffu;
  r.in_arena = 1;
  table_->arena_.append(s);
  bytes_ += s.size();
  return r;
}

void TableBuilder::arena_extend(StrRef& r, std::string_view s) {
  table_->arena_.append(s);
  bytes_ += s.size();
  r.len = static_cast<std::uint32_t>(r.len + s.size()) & 0x7fffffffu;
}

void TableBuilder::set_shape(TensorTable::Record& r, std::span<const std::uint64_t> dims) {
  r.ndims = static_cast<std::uint32_t>(dims.size()) & ((1u << 27) - 1);
  if (dims.size() <= 2) {
    std::copy(dims.begin(), dims.end(), r.inline_dims);
    return;
  }
  auto& t = *table_;
  if (dims.size() > kDimChunk) {  // a shape larger than a chunk gets its own allocation
    auto own = std::make_unique<std::uint64_t[]>(dims.size());
    bytes_ += dims.size() * sizeof(std::uint64_t);
    std::copy(dims.begin(), dims.end(), own.get());
    r.heap_dims = own.get();
    // keep the current chunk last so later shapes continue filling it
    t.dim_chunks_.insert(t.dim_chunks_.empty() ? t.dim_chunks_.end() : t.dim_chunks_.end() - 1,
                         std::move(own));
    return;
  }
  if (t.dim_chunks_.empty() || t.dim_chunk_used_ + dims.size() > kDimChunk) {
    t.dim_chunks_.push_back(std::make_unique<std::uint64_t[]>(kDimChunk));
    bytes_ += kDimChunk * sizeof(std::uint64_t);
    t.dim_chunk_used_ = 0;
  }
  std::uint64_t* dst = t.dim_chunks_.back().get() + t.dim_chunk_used_;
  std::copy(dims.begin(), dims.end(), dst);
  t.dim_chunk_used_ += dims.size();
  r.heap_dims = dst;
}

}  // namespace tensorgate
