#include "fuzz_support.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <boost/json.hpp>

#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

using tensorgate::SafetensorsSummary;

namespace tgfuzz {

std::string render(const tensorgate::Report& report) { return tensorgate::report_json(report); }

void require(bool ok, std::string_view name, std::string_view detail) {
  if (ok) return;
  const std::string line = "INVARIANT " + std::string(name) + ": " + std::string(detail) + "\n";
  std::fputs(line.c_str(), stderr);
  std::abort();
}

void check_report_invariants(const tensorgate::Report& r, bool finished) {
  bool errors = r.findings_dropped > 0 && !r.valid;
  for (const auto& f : r.findings) {
    errors = errors || f.severity == tensorgate::Severity::error;
    require(!f.message.empty(), "finding-has-message", tensorgate::rule_info(f.rule).id);
  }
  require(r.valid == (!errors && !r.aborted), "valid-iff-no-errors");
  if (finished) require(r.canonical.has_value() == (r.valid && r.summary.get<SafetensorsSummary>() != nullptr), "canonical-iff-valid");
  if (r.summary.get<SafetensorsSummary>()) {
    require(r.summary.get<SafetensorsSummary>()->tensor_count == r.summary.get<SafetensorsSummary>()->tensors->size(), "summary-count");
  }
}

Split split_of(std::string_view input) {
  Split s;
  if (input.empty()) return s;
  const std::size_t count = static_cast<unsigned char>(input[0]) % 16;
  const std::size_t header = std::min(input.size(), 1 + 2 * count);
  s.file = input.substr(header);
  for (std::size_t i = 1; i + 1 < header; i += 2) {
    const std::size_t pos = static_cast<unsigned char>(input[i]) | (static_cast<unsigned char>(input[i + 1]) << 8);
    s.cuts.push_back(pos % (s.file.size() + 1));
  }
  std::sort(s.cuts.begin(), s.cuts.end());
  return s;
}

namespace {

// One chunk, copied by the validator or read into its room (as much of it as the room takes).
void feed_piece(tensorgate::Validator& v, std::string_view piece, bool in_place) {
  while (in_place && !piece.empty()) {
    const std::span<std::byte> room = v.prepare(piece.size());
    if (room.empty()) break;
    std::memcpy(room.data(), piece.data(), room.size());
    v.feed(room);
    piece.remove_prefix(room.size());
  }
  if (!piece.empty()) v.feed(piece);
}

}  // namespace

tensorgate::Report feed_chunked(const ValidatorFactory& make, const Split& s, bool hint, bool skip_data,
                                bool in_place) {
  auto v = make();
  if (hint) v->set_total_size(s.file.size());
  std::size_t at = 0;
  for (const std::size_t cut : s.cuts) {
    feed_piece(*v, s.file.substr(at, cut - at), in_place);
    at = cut;
  }
  if (skip_data && v->bytes_wanted() == 0) {
    // Skipped as a file reader skips: all but the tail the validator still wants.
    const std::size_t rest = s.file.size() - at;
    const std::size_t tail = static_cast<std::size_t>(std::min<std::uint64_t>(v->tail_wanted(), rest));
    v->skip(rest - tail);
    v->feed(s.file.substr(s.file.size() - tail));
  } else {
    feed_piece(*v, s.file.substr(at), in_place);
  }
  return v->finish();
}

tensorgate::Report feed_skipping(const ValidatorFactory& make, const Split& s, bool hint) {
  auto v = make();
  if (hint) v->set_total_size(s.file.size());
  std::size_t at = 0;
  std::size_t cut = 0;  // the next of the split's positions
  while (at < s.file.size()) {
    if (const std::uint64_t run = v->bytes_skippable()) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(run, s.file.size() - at));
      v->skip(n);
      at += n;
      continue;
    }
    while (cut < s.cuts.size() && s.cuts[cut] <= at) ++cut;
    const std::size_t end = cut < s.cuts.size() ? s.cuts[cut] : s.file.size();
    v->feed(s.file.substr(at, end - at));
    at = end;
  }
  return v->finish();
}

void check_chunking(const ValidatorFactory& make, const Split& s) {
  const std::string expected = render(feed_chunked(make, Split{{}, s.file}, false, false));
  require(render(feed_chunked(make, s, false, false)) == expected, "chunking-invariant");
  require(render(feed_chunked(make, s, true, false)) == expected, "size-hint-invariant");
  require(render(feed_chunked(make, s, false, true)) == expected, "skip-invariant");
  require(render(feed_chunked(make, s, true, false, true)) == expected, "in-place-invariant");
  require(render(feed_skipping(make, s, false)) == expected, "skippable-invariant");
  require(render(feed_skipping(make, s, true)) == expected, "skippable-size-hint-invariant");
}

void check_budget_only_aborts(const BudgetedFactory& make, const Split& s, std::uint64_t capacity,
                              const tensorgate::Report& unbudgeted) {
  const std::string expected = render(unbudgeted);
  tensorgate::CountingBudget budget(capacity);
  {
    const tensorgate::Report r = feed_chunked([&] { return make(&budget); }, s, true, false);
    require(render(r) == expected || (r.aborted && r.aborted->kind == tensorgate::AbortKind::memory_budget),
            "budget-only-aborts");
  }
  require(budget.held() == 0, "budget-released");
}

bool valid_utf8(std::string_view s) {
  // A JSON string literal of the text is valid exactly when the text is valid UTF-8: control
  // characters are left out (the text report keeps tab, LF and ESC colour codes).
  std::string probe = "\"";
  for (const char c : s) {
    if (static_cast<unsigned char>(c) < 0x20) continue;
    if (c == '"' || c == '\\') probe += '\\';
    probe += c;
  }
  probe += '"';
  boost::json::error_code ec;
  boost::json::parse(probe, ec);
  return !ec;
}

namespace {

std::string fields_whole(const tensorgate::Report& r) {
  std::string out;
  tensorgate::JsonWriter w([&](std::string_view s) { out += s; });
  tensorgate::write_report_fields(w, r, {});
  w.flush();
  return out;
}

std::string fields_in_pieces(const tensorgate::Report& r, std::size_t piece_bytes) {
  std::string out;
  tensorgate::JsonWriter w([&](std::string_view s) { out += s; });
  tensorgate::ReportFieldsWriter pieces(w, r, {});
  while (pieces.resume(piece_bytes)) {
  }
  w.flush();
  return out;
}

}  // namespace

void check_writers(const std::vector<tensorgate::CheckedFile>& files, std::size_t piece_bytes) {
  const tensorgate::ReportOptions options{true, false};
  std::string json, sarif;
  tensorgate::write_json_report(files, options, [&](std::string_view s) { json += s; });
  tensorgate::write_sarif_report(files, options, [&](std::string_view s) { sarif += s; });
  boost::json::error_code ec;
  boost::json::parse(json, ec);
  require(!ec, "json-report-parses", ec.message());
  boost::json::parse(sarif, ec);
  require(!ec, "sarif-report-parses", ec.message());
  for (const bool colour : {false, true}) {
    std::string text;
    tensorgate::write_text_report(files, {true, colour}, [&](std::string_view s) { text += s; });
    require(valid_utf8(text), "text-report-is-utf8");
  }
  for (const tensorgate::CheckedFile& f : files) {
    if (f.report) require(fields_in_pieces(*f.report, piece_bytes) == fields_whole(*f.report), "pieces-join-to-the-whole");
  }
}

}  // namespace tgfuzz
