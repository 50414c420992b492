#pragma once
// A bound on the CPU time a validator may spend in one long step, for a face that has a clock.
//
// Why: the safetensors header is parsed in one call once all of it has arrived (Boost.JSON 1.81
// must see it whole), and a hostile 100 MB header of millions of metadata keys costs seconds of
// CPU in that call. Between chunks a face can watch its own clock; inside the call only the
// validator can stop. The core has no clock (docs/architecture.md): it asks `passed()` every
// few thousand steps, and past the deadline stops with Report::aborted, limit
// "parse-cpu-deadline" (AbortKind::limit: a capacity answer, never a verdict).
namespace tensorgate {

class Deadline {
 public:
  virtual ~Deadline() = default;
  // True once the time is spent. Asked from the thread running the step.
  virtual bool passed() = 0;
};

}  // namespace tensorgate
