// ST2: the header as JSON. Drives Boost.JSON's basic_parser with HeaderHandler over all N bytes,
// classifies a parse error (syntax, UTF-8, surrogate, depth), and checks what follows the object.
#include "safetensors/st2_header_json.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <optional>
#include <string>

#include "safetensors/header_handler.hpp"
#include "safetensors/st2_duplicate_names.hpp"
#include "safetensors/st2_plain_header.hpp"

namespace tensorgate::detail {
namespace {

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A tensor entry takes at least ~64 bytes of header text in practice (key, dtype, shape,
// offsets): sizing the name set from the header's length avoids rehashing, and the set's
// memory stays a small fraction of the header's (8 bytes a slot).
std::size_t estimate_tensors(std::string_view text) { return text.size() / 64; }

Rule classify(const boost::json::error_code& ec, std::string_view header, std::size_t at) {
  using boost::json::error;
  if (ec == error::too_deep) return Rule::st2_depth;
  if (ec == error::illegal_leading_surrogate || ec == error::illegal_trailing_surrogate ||
      ec == error::expected_utf16_escape)
    return Rule::st2_surrogate;
  if (at < header.size() && static_cast<unsigned char>(header[at]) >= 0x80) return Rule::st2_utf8;
  // Boost.JSON 1.81 reports a high surrogate escape without its pair as a plain syntax error
  // at the byte after "\uD8xx".
  if (at >= 6 && header[at - 6] == '\\' && header[at - 5] == 'u' && (header[at - 4] == 'd' || header[at - 4] == 'D') &&
      std::string_view("89abAB").find(header[at - 3]) != std::string_view::npos)
    return Rule::st2_surrogate;
  return Rule::st2_syntax;
}

// After the object: JSON whitespace only. Anything else (NUL padding above all) is ST2;
// whitespace other than spaces is a warning.
void check_after_object(std::string_view header, std::size_t from, FindingList& findings) {
  for (std::size_t i = from; i < header.size(); ++i) {
    if (!json_space(header[i])) {
      const bool nul = header[i] == '\0';
      findings.add(Rule::st2_trailing,
                   nul ? "NUL bytes after the JSON object (pad with spaces)"
                       : "something other than JSON whitespace follows the JSON object",
                   8 + i);
      return;
    }
  }
  for (std::size_t i = from; i < header.size(); ++i) {
    if (header[i] != ' ') {
      findings.add(Rule::stw_padding, "the header is padded with whitespace other than spaces", 8 + i);
      return;
    }
  }
}

// Once the root object has been read (by either parse): what follows it.
void finish_object(std::string_view text, std::size_t end, FindingList& findings, ParsedHeader& out) {
  check_after_object(text, end, findings);
  out.json_ok = true;
  out.object_end = end;
}

ParsedHeader general_parse(TableBuilder& builder, const Limits& limits, FindingList& findings,
                           TableAllowance& allowance) {
  ParsedHeader out;
  boost::json::parse_options options;
  options.max_depth = limits.max_json_depth;
  const std::string_view text = builder.header();
  boost::json::basic_parser<HeaderHandler> parser(options, builder, findings, allowance,
                                                  limits.max_json_depth, estimate_tensors(text));
  boost::json::error_code ec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (allowance.refused() || allowance.timed_out()) return out;
  parser.handler().report_duplicate_names();
  if (ec) {
    const Rule rule = classify(ec, text, used);
    findings.add(rule,
                 text.empty() ? std::string("the header is empty")
                              : "invalid JSON at header byte " + std::to_string(used) + ": " + ec.message(),
                 8 + used);
    return out;
  }
  // basic_parser also consumes whitespace after the value; the object ends at the last
  // non-space byte it used.
  std::size_t end = used;
  while (end > 0 && json_space(text[end - 1])) --end;
  finish_object(text, end, findings, out);
  out.reference_rejects = parser.handler().reference_rejects();
  return out;
}

// The plain-header fast path; nullopt when the header is not plain (the table is then cleared).
std::optional<ParsedHeader> plain_parse(TableBuilder& builder, FindingList& findings, TableAllowance& allowance) {
  const std::string_view text = builder.header();
  DuplicateNames names(estimate_tensors(text));
  const PlainScan scan = scan_plain_header(text, builder, names, allowance);
  ParsedHeader out;
  switch (scan.outcome) {
    case PlainScan::Outcome::stopped:
      return out;
    case PlainScan::Outcome::not_plain:
      builder.clear();
      return std::nullopt;
    case PlainScan::Outcome::accepted:
      break;
  }
  report_duplicate_names(names, builder, findings);
  finish_object(text, scan.object_end, findings, out);
  out.plain = true;
  out.architecture = scan.architecture;
  return out;
}

}  // namespace

ParsedHeader parse_header(HeaderBuffer header, const Limits& limits, FindingList& findings,
                          TableAllowance& allowance, HeaderRoute route) {
  if (header.view().starts_with("\xEF\xBB\xBF")) {
    findings.add(Rule::st2_bom, "the header starts with a UTF-8 byte-order mark", 8);
    ParsedHeader out;
    out.table = TableBuilder(std::move(header)).release();
    return out;
  }
  TableBuilder builder(std::move(header));
  builder.reserve_records(estimate_tensors(builder.header()));
  std::optional<ParsedHeader> out;
  if (route == HeaderRoute::plain_first && limits.max_json_depth >= kPlainDepth)
    out = plain_parse(builder, findings, allowance);
  if (!out) out = general_parse(builder, limits, findings, allowance);
  out->budget_refused = allowance.refused();
  out->deadline_passed = allowance.timed_out();
  out->table = builder.release();
  return std::move(*out);
}

}  // namespace tensorgate::detail
