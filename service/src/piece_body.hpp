#pragma once
// A Beast body written a piece at a time, as the client takes it: the service's large reports
// are produced while they are sent (a chunked response), never built whole. The serializer
// asks for the next piece only once the last one is written, so what the body holds at once
// is one piece, and a client that reads slowly slows the writer, not the server's memory.
#include <boost/optional/optional.hpp>

#include <memory>
#include <string>
#include <utility>

#include "net.hpp"

namespace tensorgate::service {

class PieceSource {
 public:
  virtual ~PieceSource() = default;
  // Replaces `out` with the next piece, never empty; false when the body is complete.
  virtual bool next(std::string& out) = 0;
};

struct PieceBody {
  struct value_type {
    std::unique_ptr<PieceSource> source;
  };

  class writer {
   public:
    using const_buffers_type = net::const_buffer;

    template <bool isRequest, class Fields>
    writer(http::header<isRequest, Fields>&, value_type& body) : source_(*body.source) {}

    void init(error_code& ec) { ec = {}; }
    // The piece stays valid until the next call, which is when the serializer is done with it.
    boost::optional<std::pair<const_buffers_type, bool>> get(error_code& ec) {
      ec = {};
      if (!source_.next(piece_)) return boost::none;
      return std::make_pair(const_buffers_type(piece_.data(), piece_.size()), true);
    }

   private:
    PieceSource& source_;
    std::string piece_;
  };
};

using StreamedResponse = http::response<PieceBody>;

}  // namespace tensorgate::service
