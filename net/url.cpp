// Boost.URL, compiled once (Debian 12 ships its headers with Boost 1.81 but no libboost_url).
//
// Its url_base.ipp includes <iostream> but uses only <istream> and <ostream>. With libstdc++ 12
// the include's one effect is a static std::ios_base::Init in this object: the standard streams
// and the whole "C" locale set up at every start of every executable that links it, ~2% of a
// small file's check (bench/README.md), for streams the CLI never writes to. So the
// two headers it needs come first, and <iostream>'s guard keeps the rest out.
#include <istream>
#include <ostream>
#if defined(__GLIBCXX__) && !defined(_GLIBCXX_IOSTREAM)
#define _GLIBCXX_IOSTREAM 1
#endif
#include <boost/url/src.hpp>
