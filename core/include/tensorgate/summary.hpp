#pragma once
// A report's summary: what one format's reader says of a file, held without the report knowing
// the format. Each format's public header declares, for its summary type T,
//     const SummaryOps& summary_ops(const T*);
// and its room defines it beside its writers (core/src/<format>/report_json.cpp and
// report_text.cpp). The report writers call through those operations, so a new format adds its
// summary without touching Report or the report room.
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace tensorgate {

struct ReportOptions;
namespace detail {
struct StepContext;
class Steps;
}  // namespace detail

// What the faces do with one format's summary; `summary` points to that format's type.
struct SummaryOps {
  // The JSON "summary" object (schema tensorgate.report/1, the format's $defs entry); the
  // writer pauses between list items (common/summary_steps.hpp).
  detail::Steps (*write_json)(detail::StepContext& c, const void* summary, const ReportOptions& options);
  // The text report's facts after the verdict: ", 291 tensors, 8,030,261,248 parameters, ...".
  std::string (*text_facts)(const void* summary);
};

// One format's summary, or none: a value (copies copy the summary), asked for by its type.
class Summary {
 public:
  Summary() = default;
  template <class T, class = std::enable_if_t<!std::is_same_v<std::decay_t<T>, Summary>>>
  Summary(T&& value)  // NOLINT(google-explicit-constructor): `report.summary = summary;`
      : held_(std::make_unique<Held<std::decay_t<T>>>(std::forward<T>(value))) {}
  Summary(const Summary& other) : held_(other.held_ ? other.held_->clone() : nullptr) {}
  Summary(Summary&&) noexcept = default;
  Summary& operator=(const Summary& other) {
    if (this != &other) held_ = other.held_ ? other.held_->clone() : nullptr;
    return *this;
  }
  Summary& operator=(Summary&&) noexcept = default;
  ~Summary() = default;

  explicit operator bool() const noexcept { return held_ != nullptr; }
  // The summary if it is a T, else nullptr.
  template <class T>
  const T* get() const noexcept {
    return held_ && held_->ops == &summary_ops(static_cast<const T*>(nullptr))
               ? static_cast<const T*>(held_->value())
               : nullptr;
  }
  template <class T>
  T* get() noexcept {
    return const_cast<T*>(std::as_const(*this).template get<T>());
  }

  // For the report writers: the operations and the value they take. Call only when set.
  const SummaryOps& ops() const noexcept { return *held_->ops; }
  const void* value() const noexcept { return held_->value(); }

 private:
  struct Base {
    explicit Base(const SummaryOps* o) : ops(o) {}
    virtual ~Base() = default;
    virtual std::unique_ptr<Base> clone() const = 0;
    virtual const void* value() const = 0;
    const SummaryOps* ops;
  };
  template <class T>
  struct Held final : Base {
    template <class U>
    explicit Held(U&& v) : Base(&summary_ops(static_cast<const T*>(nullptr))), held(std::forward<U>(v)) {}
    std::unique_ptr<Base> clone() const override { return std::make_unique<Held>(held); }
    const void* value() const override { return &held; }
    T held;
  };
  std::unique_ptr<Base> held_;
};

}  // namespace tensorgate
