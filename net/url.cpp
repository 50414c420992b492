// Boost.URL, compiled once (Debian 12 ships its headers with Boost 1.81 but no libboost_url).
#include <boost/url/src.hpp>
