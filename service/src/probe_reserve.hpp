#pragma once
// The probes' reserve (docs/service.md, "Probes at the connection cap"): probe_connections places
// for connections accepted past max_connections, which may ask only for /livez, /readyz and
// /metrics. A server cannot tell a probe from an idle socket before the request has arrived, so
// a full reserve makes room: a new connection takes the place of the one that has waited longest
// without a request. Idle sockets, however many and however fast they come, then only push each
// other out, while a probe, whose request follows its connect at once, is answered. Only a
// connection being answered keeps its place, and no reserve connection lives longer than
// probe_timeout (the session sets one deadline for its whole life).
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace tensorgate::service {

// One connection's place in the reserve, held by its session: the session says when it is being
// answered; the reserve may evict it at any other time.
class ReserveSeat {
 public:
  // A complete request header has arrived: the place is kept until end_answer. False when the
  // connection was evicted first (it is being closed).
  bool begin_answer();
  // The answer is written: the connection may be evicted again while it closes.
  void end_answer();
  bool evicted() const { return state_.load() == State::evicted; }
  // How the reserve closes this connection to make room: set by the listener, on its strand,
  // right after admit; called on that strand, so it must not block (it posts the close).
  void set_evict(std::function<void()> evict) { evict_ = std::move(evict); }

 private:
  friend class ProbeReserve;
  enum class State : std::uint8_t { waiting, answering, evicted };
  std::atomic<State> state_{State::waiting};
  std::uint64_t admitted_ = 0;   // the reserve's admission order
  std::function<void()> evict_;  // closes the connection (posted to its own strand)
};

// Used from the listener's strand only; a seat is released when its session drops it.
class ProbeReserve {
 public:
  explicit ProbeReserve(std::uint32_t places) : places_(places) {}

  struct Admission {
    std::shared_ptr<ReserveSeat> seat;  // null: every place holds a connection being answered
    bool evicted_another = false;       // a waiting connection was closed to make room
  };
  // A place for a new connection: a free one, else that of the connection admitted first among
  // those not being answered, which is evicted.
  Admission admit();

 private:
  const std::uint32_t places_;
  std::vector<std::weak_ptr<ReserveSeat>> seats_;
  std::uint64_t next_order_ = 0;
};

}  // namespace tensorgate::service
