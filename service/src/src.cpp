// The one translation unit that compiles Asio and Beast (design.md, "Compile time"): every other
// file sees only declarations and the templates it instantiates.
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
