// Asio's OpenSSL layer, compiled once for the faces that speak TLS (the CLI's remote checks).
// A file of its own: a static library's object is linked only where it is used, so the service,
// which has no TLS, does not pull OpenSSL's libssl in.
#include <boost/asio/ssl/impl/src.hpp>
