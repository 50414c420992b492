// Format detection's look inside a compressed file: does its stream inflate, from the first
// bytes alone, to a pickle's PROTO? zlib's one-byte signature and lzma-alone's two are weak,
// so only the inflated PROTO makes a compressed file a pickle (kind/classify.cpp).
#include "pickle/compressed/front.hpp"
#include "pickle/compressed/zf_header.hpp"

namespace tensorgate::detail::pickle {

InflatedStart inflated_start(std::string_view prefix, Compression c, std::uint64_t memlimit) {
  if (c == Compression::zf) {
    if (prefix.size() <= kZfHeader) return InflatedStart::pending;
    if (!zf_length(prefix.substr(2, kZfHeader - 2))) return InflatedStart::other;
    prefix.remove_prefix(kZfHeader + (prefix[kZfHeader] == ' ' ? 1 : 0));
  }
  const auto decoder = make_decoder(c, memlimit);
  if (!decoder) return InflatedStart::pending;
  unsigned char first = 0;
  const DecodeStep st = decoder->run(reinterpret_cast<const unsigned char*>(prefix.data()), prefix.size(), &first, 1);
  if (st.produced == 1) return first == op::PROTO ? InflatedStart::proto : InflatedStart::other;
  if (st.status != DecodeStatus::more) return InflatedStart::other;  // broke or ended before a byte
  return InflatedStart::pending;
}

}  // namespace tensorgate::detail::pickle
