#pragma once
// Digests of a tensorgate report, computed while the JSON streams in (Boost.JSON's SAX parser),
// so that a 100 MB report costs a few hashes, not a DOM. A report is digested field by field:
// the value of each top-level key is hashed on its own, and so is each finding. Two reports agree
// when every field of the offline one (`tensorgate check --format json`, less `path` and
// `error`) has the same digest in the service's; fields only the service has are ignored.
#include <boost/json/basic_parser.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace soak {

struct ReportDigest {
  std::map<std::string, std::uint64_t> fields;  // top-level key -> digest of its value
  std::vector<std::uint64_t> findings;          // one digest per finding, in order
  std::optional<bool> valid;                    // null (aborted) or absent: nullopt
  std::optional<bool> complete;                 // the service's `complete`
  std::optional<bool> aborted;                  // true when `aborted` is a string
  std::optional<std::string> sha256;            // the service's digest of the body
  std::optional<std::uint64_t> bytes_received;  // the service's count of body bytes
};

// Where the reports sit in the document.
enum class ReportLayout {
  service,  // the document is one report (`/v1/validate`)
  cli,      // `{"files": [report, ...]}` (`tensorgate check --format json`)
};

// Feeds a JSON document in pieces of any size; afterwards `reports()` has one digest per report.
class ReportDigester {
 public:
  explicit ReportDigester(ReportLayout layout);
  ~ReportDigester();
  ReportDigester(const ReportDigester&) = delete;
  ReportDigester& operator=(const ReportDigester&) = delete;

  // False once the text is not JSON (the reason in error()).
  bool write(std::string_view piece);
  bool finish();
  const std::vector<ReportDigest>& reports() const;
  std::string error() const;

 private:
  struct Handler;
  std::unique_ptr<boost::json::basic_parser<Handler>> parser_;
  std::string held_;  // an escape that may continue in the next piece (Boost.JSON 1.81, #876)
  std::string error_;
};

// Why `service` does not agree with `offline`, or "" when it does. `partial` (an early answer,
// `complete: false`) asks only for the same verdict and findings the offline report also has.
std::string compare_reports(const ReportDigest& offline, const ReportDigest& service, bool partial);

}  // namespace soak
