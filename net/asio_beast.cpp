// The one translation unit that compiles Asio and Beast (docs/architecture.md, "Build"): every other
// file of every face sees only declarations and the templates it instantiates.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
