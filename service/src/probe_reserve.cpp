#include "probe_reserve.hpp"

namespace tensorgate::service {

bool ReserveSeat::begin_answer() {
  State expected = State::waiting;
  return state_.compare_exchange_strong(expected, State::answering);
}

void ReserveSeat::end_answer() {
  State expected = State::answering;
  state_.compare_exchange_strong(expected, State::waiting);
}

ProbeReserve::Admission ProbeReserve::admit() {
  Admission out;
  out.seat = std::make_shared<ReserveSeat>();
  out.seat->admitted_ = next_order_++;
  std::weak_ptr<ReserveSeat>* free_place = nullptr;
  for (auto& place : seats_)
    if (place.expired()) free_place = &place;
  if (free_place == nullptr && seats_.size() < places_) free_place = &seats_.emplace_back();
  if (free_place != nullptr) {
    *free_place = out.seat;
    return out;
  }
  // Full: the oldest connection not being answered goes. A seat turning to `answering` meanwhile
  // fails the exchange and the next oldest is tried.
  for (;;) {
    std::weak_ptr<ReserveSeat>* victim_place = nullptr;
    std::shared_ptr<ReserveSeat> victim;
    for (auto& place : seats_) {
      std::shared_ptr<ReserveSeat> seat = place.lock();
      if (!seat) {  // released since the first pass
        place = out.seat;
        return out;
      }
      if (seat->state_.load() == ReserveSeat::State::waiting && (!victim || seat->admitted_ < victim->admitted_)) {
        victim = std::move(seat);
        victim_place = &place;
      }
    }
    if (!victim) {
      out.seat.reset();
      return out;
    }
    ReserveSeat::State expected = ReserveSeat::State::waiting;
    if (!victim->state_.compare_exchange_strong(expected, ReserveSeat::State::evicted)) continue;
    *victim_place = out.seat;
    out.evicted_another = true;
    if (victim->evict_) victim->evict_();
    return out;
  }
}

}  // namespace tensorgate::service
