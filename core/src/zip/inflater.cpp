#include "zip/inflater.hpp"

#include <zlib.h>

#include <array>

namespace tensorgate::detail::zip {

struct Inflater::State {
  z_stream z{};
  bool open = false;
  std::array<unsigned char, 1 << 16> window{};
};

Inflater::Inflater() : s_(std::make_unique<State>()) {}

Inflater::~Inflater() {
  if (s_->open) inflateEnd(&s_->z);
}

void Inflater::reset() {
  if (s_->open) inflateEnd(&s_->z);
  s_->z = z_stream{};
  s_->open = inflateInit2(&s_->z, -MAX_WBITS) == Z_OK;  // raw deflate, as zip stores it
  produced_ = 0;
  message_.clear();
}

Inflater::Step Inflater::feed(const unsigned char* p, std::size_t n, const Sink& sink, std::uint64_t budget,
                              bool& over_budget) {
  Step st;
  if (!s_->open) {
    st.error = true;
    message_ = "zlib could not be initialised";
    return st;
  }
  z_stream& z = s_->z;
  z.next_in = const_cast<Bytef*>(p);
  // zlib counts in uInt: a chunk above 4 GiB is fed in parts by the loop below.
  std::size_t left = n;
  while (true) {
    const uInt in = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
    z.avail_in = in;
    z.next_out = s_->window.data();
    z.avail_out = static_cast<uInt>(s_->window.size());
    const int rc = inflate(&z, Z_NO_FLUSH);
    const std::size_t used = in - z.avail_in;
    left -= used;
    st.consumed += used;
    const std::size_t out = s_->window.size() - z.avail_out;
    if (out) {
      // Exactly up to the budget, whatever the chunks: what the sink sees never depends on them.
      const std::size_t room = produced_ < budget ? static_cast<std::size_t>(std::min<std::uint64_t>(budget - produced_, out)) : 0;
      if (room) sink(s_->window.data(), room);
      produced_ += out;
      if (room < out) {
        over_budget = true;
        return st;
      }
    }
    if (rc == Z_STREAM_END) {
      st.ended = true;
      return st;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) {
      st.error = true;
      message_ = z.msg ? z.msg : "invalid deflate data";
      return st;
    }
    // Done when all input is used and zlib has no more output pending.
    if (left == 0 && z.avail_out != 0) return st;
    if (rc == Z_BUF_ERROR && used == 0 && out == 0) return st;
  }
}

}  // namespace tensorgate::detail::zip
