#include "common/json_doc.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/memory_resource.hpp>
#include <boost/json/parser.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <algorithm>
#include <new>
#include <vector>

namespace tensorgate::detail {
namespace {

// Charges a budget for memory that grows, a mebibyte at a time, and gives it all back at the end.
class BudgetSteps {
 public:
  explicit BudgetSteps(MemoryBudget* budget) : budget_(budget) {}
  ~BudgetSteps() {
    if (budget_ && charged_) budget_->release(charged_);
  }
  BudgetSteps(const BudgetSteps&) = delete;
  BudgetSteps& operator=(const BudgetSteps&) = delete;
  bool cover(std::size_t bytes) {
    if (!budget_ || bytes <= charged_) return true;
    const std::size_t step = std::max<std::size_t>(bytes - charged_, 1 << 20);
    if (!budget_->try_acquire(step)) return false;
    charged_ += step;
    return true;
  }

 private:
  MemoryBudget* budget_;
  std::size_t charged_ = 0;
};

// The DOM's allocator: new and delete, with what is live charged to the budget; a refusal
// throws std::bad_alloc, which the parse turns into budget_refused.
class BudgetResource final : public boost::json::memory_resource {
 public:
  explicit BudgetResource(MemoryBudget* budget) : steps_(budget) {}

 private:
  // Boost.JSON may free a block with another alignment than it asked for (a key is allocated
  // with alignof(char) and freed as a string), so the alignment is not passed on: every block
  // comes from plain new, which aligns for anything up to __STDCPP_DEFAULT_NEW_ALIGNMENT__.
  void* do_allocate(std::size_t n, std::size_t align) override {
    if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__) throw std::bad_alloc();
    if (!steps_.cover(live_ + n)) throw std::bad_alloc();
    live_ += n;
    return ::operator new(n);
  }
  void do_deallocate(void* p, std::size_t n, std::size_t) override {
    live_ -= n;
    ::operator delete(p);
  }
  bool do_is_equal(const memory_resource& other) const noexcept override { return this == &other; }

  BudgetSteps steps_;
  std::size_t live_ = 0;
};

// Finds a duplicate key in any object; keeps one key set per open object (depth is bounded by
// the parser's max_depth), never recursing itself.
struct DuplicateFinder {
  using ec = boost::json::error_code;
  using sv = boost::json::string_view;
  static constexpr std::size_t max_object_size = std::size_t(-1), max_array_size = std::size_t(-1),
                               max_key_size = std::size_t(-1), max_string_size = std::size_t(-1);
  std::vector<boost::unordered_flat_set<std::string>> objects;
  std::string key;
  std::optional<std::string> duplicate;
  BudgetSteps* steps = nullptr;  // the key sets' memory, approximately (64 bytes a key, plus it)
  std::size_t key_bytes = 0;
  bool refused = false;

  bool on_document_begin(ec&) { return true; }
  bool on_document_end(ec&) { return true; }
  bool on_object_begin(ec&) {
    objects.emplace_back();
    return true;
  }
  bool on_object_end(std::size_t, ec&) {
    objects.pop_back();
    return true;
  }
  bool on_array_begin(ec&) { return true; }
  bool on_array_end(std::size_t, ec&) { return true; }
  bool on_key_part(sv s, std::size_t, ec&) {
    key.append(s.data(), s.size());
    return true;
  }
  bool on_key(sv s, std::size_t, ec&) {
    key.append(s.data(), s.size());
    if (!objects.back().insert(key).second && !duplicate) duplicate = key;
    key_bytes += 64 + key.size();
    key.clear();
    if (steps && !steps->cover(key_bytes)) {
      refused = true;
      return false;  // stops the parser
    }
    return true;
  }
  bool on_string_part(sv, std::size_t, ec&) { return true; }
  bool on_string(sv, std::size_t, ec&) { return true; }
  bool on_number_part(sv, ec&) { return true; }
  bool on_int64(std::int64_t, sv, ec&) { return true; }
  bool on_uint64(std::uint64_t, sv, ec&) { return true; }
  bool on_double(double, sv, ec&) { return true; }
  bool on_bool(bool, ec&) { return true; }
  bool on_null(ec&) { return true; }
  bool on_comment_part(sv, ec&) { return true; }
  bool on_comment(sv, ec&) { return true; }
};

}  // namespace

JsonDoc parse_json_object(std::string_view text, const DirectoryLimits& limits, MemoryBudget* budget) {
  JsonDoc doc;
  if (text.size() > limits.max_json_bytes) {
    doc.error = "larger than " + std::to_string(limits.max_json_bytes) + " bytes";
    return doc;
  }
  boost::json::parse_options options;
  options.max_depth = limits.max_json_depth;
  boost::json::basic_parser<DuplicateFinder> finder(options);
  BudgetSteps key_steps(budget);
  finder.handler().steps = &key_steps;
  boost::json::error_code ec;
  // One write_some over the whole text (Boost.JSON 1.81, boostorg/json#876).
  const std::size_t used = finder.write_some(false, text.data(), text.size(), ec);
  if (!ec && text.substr(used).find_first_not_of(" \t\r\n") != std::string_view::npos)
    ec = boost::json::error::extra_data;
  if (finder.handler().refused) {
    doc.budget_refused = true;
    doc.error = "no memory left in the shared budget to parse " + std::to_string(text.size()) + " bytes of JSON";
    return doc;
  }
  if (ec) {
    doc.error = "not valid JSON at byte " + std::to_string(used) + ": " + ec.message();
    doc.error_byte = used;
    return doc;
  }
  if (finder.handler().duplicate) {
    doc.error = "duplicate key \"" + *finder.handler().duplicate + "\"";
    return doc;
  }
  boost::json::value value;
  try {
    boost::json::storage_ptr storage;
    if (budget) storage = boost::json::make_shared_resource<BudgetResource>(budget);
    // The parser's value stack holds every value of an array or object until it is built, as
    // large as the DOM itself: it comes from the same budget (as the DOM's high-water mark, which
    // stays charged while the document lives).
    boost::json::parser parser(storage, options);
    parser.reset(storage);
    parser.write(text.data(), text.size(), ec);
    if (!ec) value = parser.release();
  } catch (const std::bad_alloc&) {
    doc.budget_refused = true;
    doc.error = "no memory left in the shared budget for the document of " + std::to_string(text.size()) + " bytes";
    return doc;
  }
  if (ec || !value.is_object()) {
    doc.error = ec ? ec.message() : "not a JSON object";
    return doc;
  }
  doc.object = std::move(value.as_object());
  return doc;
}

std::optional<std::uint64_t> positive_integer(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v) return std::nullopt;
  if (v->is_uint64() && v->as_uint64() > 0) return v->as_uint64();
  if (v->is_int64() && v->as_int64() > 0) return static_cast<std::uint64_t>(v->as_int64());
  return std::nullopt;
}

std::optional<std::string> string_field(const boost::json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

}  // namespace tensorgate::detail
