#pragma once
// A Beast Body whose reader hands every body piece to an Upload and keeps nothing: a 50 GB
// upload costs the read buffer, the validator's header buffer and the digest state.
#include <boost/beast/core/buffers_range.hpp>
#include <boost/optional.hpp>

#include "net.hpp"
#include "upload.hpp"

namespace tensorgate::service {

struct UploadBody {
  struct value_type {
    explicit value_type(Upload* u = nullptr) : upload(u) {}
    Upload* upload;
  };

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : upload_(*body.upload) {}

    void init(const boost::optional<std::uint64_t>&, error_code& ec) { ec = {}; }

    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, error_code& ec) {
      std::size_t n = 0;
      for (const auto b : beast::buffers_range_ref(buffers)) {
        // Our own body limit (Beast's is off): http::error::body_limit is the error it would use.
        if (!upload_.put(b.data(), b.size())) {
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
    Upload& upload_;
  };
};

}  // namespace tensorgate::service
