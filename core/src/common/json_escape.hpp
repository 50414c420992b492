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

}  // namespace tensorgate::detail
