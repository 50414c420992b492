// The session over TCP: the one instantiation the service runs.
#include "session.hpp"

namespace tensorgate::service {

template class Session<beast::tcp_stream>;

}  // namespace tensorgate::service
