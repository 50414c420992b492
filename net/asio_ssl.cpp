// Asio's OpenSSL layer, compiled into the TLS helper only (cli/remote/CMakeLists.txt): the
// executable links no libssl (cli/remote/tls_client.hpp says why).
#include <boost/asio/ssl/impl/src.hpp>
