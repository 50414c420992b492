#pragma once
// A Beast Body whose reader hands every body piece to its sink and keeps nothing: a 50 GB
// upload costs the read buffer, the validator's header buffer and the digest state. The sink
// (the upload's exchange) has `bool put(const void* data, std::size_t size)`, false when the body
// goes past its limit.
#include <boost/beast/core/buffers_range.hpp>
#include <boost/optional.hpp>

#include "net.hpp"

namespace tensorgate::service {

template <class Sink>
struct UploadBody {
  struct value_type {
    explicit value_type(Sink* s = nullptr) : sink(s) {}
    Sink* sink;
  };

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : sink_(*body.sink) {}

    void init(const boost::optional<std::uint64_t>&, error_code& ec) { ec = {}; }

    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, error_code& ec) {
      std::size_t n = 0;
      for (const auto b : beast::buffers_range_ref(buffers)) {
        // Our own body limit (Beast's is off): http::error::body_limit is the error it would use.
        if (!sink_.put(b.data(), b.size())) {
          ec = http::error::body_limit;
          return n;
        }
        n += b.size();
      }
      ec = {};
      return n;
    }

    void finish(error_code& ec) { ec = {}; }

   private:
    Sink& sink_;
  };
};

}  // namespace tensorgate::service
