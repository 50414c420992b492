#pragma once
// The one JSON escape table every writer of the core shares: the canonical header text (STC2)
// and the report writers. Only the escapes serde_json and Python's json.dumps
// (ensure_ascii=False) write: \" \\ \b \f \n \r \t, and \u00xx (lower-case hex) for the other
// characters below U+0020; everything else is copied raw.
#include <cstdint>
#include <string>
#include <string_view>

namespace tensorgate::detail {

// `s` quoted, with the escapes above (the bytes are copied as they are: the caller has checked
// that they are UTF-8).
void append_json_string(std::string& out, std::string_view s);
// The escape of one byte that JSON requires escaped: '"', '\\' or a control character.
void append_escape(std::string& out, unsigned char c);
void append_u64(std::string& out, std::uint64_t v);

// How many bytes at the start of [p, p + n) JSON copies as they are: no '"', no '\\', no
// control character, and with `ascii` no byte of 0x80 or above either (the lossy writer checks
// those one UTF-8 sequence at a time). Sixteen bytes a step where SSE2 is there: most names
// and values are one such run, and this scan is what writing them costs.
std::size_t plain_run(const char* p, std::size_t n, bool ascii);

}  // namespace tensorgate::detail
