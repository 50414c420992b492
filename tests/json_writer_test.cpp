// The report writers' JSON writer: commas and nesting, and the string escapes (a 16-byte scan
// whose last 1-15 bytes are checked in a copied block, so every length and every position of a
// special byte is tried, and strings that end where readable memory ends).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "tensorgate/json_writer.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate {
namespace {

std::string written(const std::function<void(JsonWriter&)>& write, std::vector<std::size_t>* pieces = nullptr) {
  std::string out;
  {
    JsonWriter w([&](std::string_view s) {
      out.append(s);
      if (pieces) pieces->push_back(s.size());
    });
    write(w);
  }
  return out;
}

// The escapes, one byte at a time: what the fast paths must agree with.
std::string reference_literal(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_sequence_length(s, i);
      out += n ? std::string(s.substr(i, n)) : std::string("\xEF\xBF\xBD");
      i += n ? n : 1;
      continue;
    }
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '\b') out += "\\b";
    else if (c == '\f') out += "\\f";
    else if (c < 0x20) out += std::string("\\u00") + kHex[c >> 4] + kHex[c & 15];
    else out += static_cast<char>(c);
    ++i;
  }
  return out + "\"";
}

TEST(JsonWriter, CommasAndNesting) {
  EXPECT_EQ(written([](JsonWriter& w) {
              w.begin_object();
              w.field("a", 1);
              w.key("b");
              w.begin_array();
              w.number(std::uint64_t{2});
              w.begin_object();
              w.end_object();
              w.begin_array();
              w.end_array();
              w.null();
              w.end_array();
              w.field(std::string_view("c"), true);
              w.key("d");
              w.raw("[1,2]");
              w.field("e", -3.5);
              w.end_object();
            }),
            R"({"a":1,"b":[2,{},[],null],"c":true,"d":[1,2],"e":-3.5})");
  // Values at the top level follow one another without commas (JSON lines are written so).
  EXPECT_EQ(written([](JsonWriter& w) {
              w.begin_object();
              w.end_object();
              w.string("x");
              w.number(std::int64_t{-1});
            }),
            R"({}"x"-1)");
  EXPECT_EQ(written([](JsonWriter& w) { w.number(std::numeric_limits<double>::infinity()); }), "null");
  // An empty view may have a null data(): nothing is copied from it (UBSan holds memcpy to that).
  EXPECT_EQ(written([](JsonWriter& w) {
              w.begin_object();
              w.key(std::string_view());
              w.string(std::string_view());
              w.end_object();
            }),
            R"({"":""})");
}

TEST(JsonWriter, EverySpecialByteAtEveryPositionOfEveryLength) {
  const std::vector<std::string> specials = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\x7f", "\xC3\xA9",
                                             "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xFF", "\xC3", "\xE2\x82"};
  for (std::size_t length = 0; length <= 40; ++length) {
    const std::string plain(length, 'a');
    ASSERT_EQ(written([&](JsonWriter& w) { w.string(plain); }), "\"" + plain + "\"");
    for (std::size_t at = 0; at < length; ++at)
      for (const std::string& special : specials) {
        const std::string s = plain.substr(0, at) + special + plain.substr(at);
        SCOPED_TRACE("length " + std::to_string(length) + ", at " + std::to_string(at));
        ASSERT_EQ(written([&](JsonWriter& w) { w.string(s); }), reference_literal(s));
        std::string lossy;
        append_json_string_lossy(lossy, s);
        ASSERT_EQ(lossy, reference_literal(s));
      }
  }
}

// A string whose last byte is the last readable byte: the scan's final load must stay in the page.
TEST(JsonWriter, StringsEndingAtTheEndOfReadableMemory) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* map = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  char* base = static_cast<char*>(map);
  ASSERT_EQ(::mprotect(base + page, page, PROT_NONE), 0);
  for (std::size_t length = 0; length <= 33; ++length) {
    char* s = base + page - length;
    std::memset(s, 'n', length);
    if (length > 2) s[length - 2] = '"';
    const std::string_view view(s, length);
    ASSERT_EQ(written([&](JsonWriter& w) { w.string(view); }), reference_literal(view)) << length;
  }
  ::munmap(map, 2 * page);
}

// Larger than the writer's buffer: the sink gets it in pieces of at most 64 KiB, nothing lost.
TEST(JsonWriter, LongStringsAcrossTheBuffer) {
  std::string s;
  for (int i = 0; i < 50'000; ++i) s += (i % 97 == 0) ? "\"\xC3\xA9\n" : "name.";
  std::vector<std::size_t> pieces;
  const std::string out = written(
      [&](JsonWriter& w) {
        w.begin_array();
        w.string(s);
        w.string(s);
        w.end_array();
      },
      &pieces);
  EXPECT_EQ(out, "[" + reference_literal(s) + "," + reference_literal(s) + "]");
  ASSERT_GT(pieces.size(), 2u);
  for (const std::size_t n : pieces) EXPECT_LE(n, std::size_t{1} << 16);
}

}  // namespace
}  // namespace tensorgate
