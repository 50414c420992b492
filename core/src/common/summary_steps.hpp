#pragma once
// Report writers that can pause between the items of a list, so that a face can send a large
// report as it is written (the service's streamed answer, ReportFieldsWriter) instead of
// building all of it first.
//
// Why coroutines: a report's lists (a million-tensor inventory, metadata, findings) are written
// deep inside nested writers (report, summary, inventory). C++20 coroutines let each writer
// keep its plain shape, a loop, with `co_await c.pause()` after each item; the writer chain
// suspends there as a whole and resumes where it stopped, with no state machine written out by
// hand and no thread. Writers run to the end without ever suspending when nothing asks for
// pieces (the CLI's reports, report_json).
//
// Mechanics: a `Steps` coroutine starts when awaited and hands control straight to its awaiter
// when it ends (symmetric transfer, so nesting never grows the machine stack). A pause records
// the innermost coroutine in the StepContext and returns to whoever resumed the chain; the
// driver (ReportFieldsWriter) resumes that innermost one next time.
#include <coroutine>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tensorgate/json_writer.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate::detail {

// What the writers of one report share: the JSON writer, and when the next pause is due.
struct StepContext {
  explicit StepContext(JsonWriter& writer) : w(writer) {}
  JsonWriter& w;
  std::uint64_t pause_at = UINT64_MAX;  // w.written() from which a pause suspends
  std::coroutine_handle<> paused;       // the innermost suspended writer

  struct Pause {
    StepContext& c;
    bool await_ready() const noexcept { return c.w.written() < c.pause_at; }
    void await_suspend(std::coroutine_handle<> h) noexcept { c.paused = h; }
    void await_resume() const noexcept {}
  };
  // After an item: suspends the whole chain once the piece asked for is written.
  Pause pause() { return {*this}; }
};

class [[nodiscard]] Steps {
 public:
  struct promise_type {
    std::coroutine_handle<> awaiter = std::noop_coroutine();

    Steps get_return_object() { return Steps(std::coroutine_handle<promise_type>::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().awaiter;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }  // the writers do not throw
  };

  explicit Steps(std::coroutine_handle<promise_type> h) : h_(h) {}
  Steps(Steps&& other) noexcept : h_(std::exchange(other.h_, {})) {}
  Steps& operator=(Steps&&) = delete;
  ~Steps() {
    if (h_) h_.destroy();
  }

  // co_await writer(...): runs it in place of the awaiting writer until it ends.
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) noexcept {
    h_.promise().awaiter = awaiter;
    return h_;
  }
  void await_resume() const noexcept {}

  // For the driver: the outermost writer.
  std::coroutine_handle<> handle() const { return h_; }
  bool done() const { return h_.done(); }

 private:
  std::coroutine_handle<promise_type> h_;
};

// Runs a chain of writers to its end without pausing (a context whose pause_at is never reached).
inline void run_to_end(Steps steps) { steps.handle().resume(); }

// A format's SummaryOps (tensorgate/summary.hpp) from its two typed writers; see
// TENSORGATE_REGISTER_SUMMARY.
template <class T, Steps (*Json)(StepContext&, const T&, const ReportOptions&), std::string (*Text)(const T&)>
constexpr SummaryOps summary_ops_of() {
  return {[](StepContext& c, const void* s, const ReportOptions& options) {
            return Json(c, *static_cast<const T*>(s), options);
          },
          [](const void* s) { return Text(*static_cast<const T*>(s)); }};
}

}  // namespace tensorgate::detail

// Defines `summary_ops(const T*)` (declared in the format's public header) from the format's
// writers, at the end of its report_json.cpp, outside any namespace:
//   TENSORGATE_REGISTER_SUMMARY(GgufSummary, write_gguf_summary, gguf_text_facts)
// with the writers in tensorgate::detail.
#define TENSORGATE_REGISTER_SUMMARY(T, json, text)                                          \
  const ::tensorgate::SummaryOps& ::tensorgate::summary_ops(const ::tensorgate::T*) {         \
    static constexpr ::tensorgate::SummaryOps ops =                                           \
        ::tensorgate::detail::summary_ops_of<::tensorgate::T, ::tensorgate::detail::json,    \
                                             ::tensorgate::detail::text>();                  \
    return ops;                                                                               \
  }

namespace tensorgate::detail {

// Another format's summary inside this one's (a zip's pickles and arrays), through its operations.
template <class T>
Steps write_summary_json(StepContext& c, const T& summary, const ReportOptions& options) {
  return summary_ops(&summary).write_json(c, &summary, options);
}

// A list a summary keeps the first items of: "key": [an object per item, `write_fields(w, item)`
// writing its fields, a pause after each], then "left_out_key": how many items were not kept.
template <class Items, class WriteFields>
Steps write_records(StepContext& c, std::string_view key, const Items& items, WriteFields write_fields,
                    std::string_view left_out_key, std::uint64_t left_out) {
  JsonWriter& w = c.w;
  w.key(key);
  w.begin_array();
  for (const auto& item : items) {
    w.begin_object();
    write_fields(w, item);
    w.end_object();
    co_await c.pause();
  }
  w.end_array();
  w.field(left_out_key, left_out);
}

// "key": {name: {"tensors", "parameters", "bytes"}}: totals by element type, in the list's order,
// each named by `name_of(totals)`.
template <class Totals, class NameOf>
void write_type_totals(JsonWriter& w, std::string_view key, const Totals& totals, NameOf name_of) {
  w.key(key);
  w.begin_object();
  for (const auto& t : totals) {
    w.key(name_of(t));
    w.begin_object();
    w.field("tensors", t.tensors);
    w.field("parameters", t.parameters);
    w.field("bytes", t.bytes);
    w.end_object();
  }
  w.end_object();
}

// A shape as a JSON array of dimensions (a .npy array's, a state dict tensor's).
inline void write_shape(JsonWriter& w, const std::vector<std::uint64_t>& shape) {
  w.begin_array();
  for (const std::uint64_t d : shape) w.number(d);
  w.end_array();
}

}  // namespace tensorgate::detail
