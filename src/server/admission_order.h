#pragma once
// Requests reach the engine in the order they arrived, however long each
// one's rendering and tokenizing took on the prompt pool.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "server/http/http_types.h"

namespace ingot::server {

// Tickets in arrival order, on the I/O thread only. A request takes one as
// it arrives, and submits to the engine once every earlier ticket is
// released (submitted, refused, or abandoned).
class AdmissionOrder {
 public:
  class Ticket {
   public:
    Ticket() = default;
    Ticket(AdmissionOrder* order, uint64_t place) : order_(order), place_(place) {}
    Ticket(Ticket&& other) noexcept
        : order_(std::exchange(other.order_, nullptr)), place_(other.place_) {}
    Ticket& operator=(Ticket&& other) noexcept {
      release();
      order_ = std::exchange(other.order_, nullptr);
      place_ = other.place_;
      return *this;
    }
    ~Ticket() { release(); }

    // Returns once every earlier ticket is released.
    asio::awaitable<void> wait_turn();
    void release() {
      if (order_) std::exchange(order_, nullptr)->leave(place_);
    }

    // Work of unknown length (compiling a grammar) must not hold up the
    // requests behind: the ticket leaves its place in line, still counted
    // against the capacity, and rejoin() puts it back at the end.
    void step_aside() {
      if (order_ && place_) order_->step_aside(*std::exchange(place_, std::nullopt));
    }
    void rejoin() {
      if (order_ && !place_) place_ = order_->rejoin();
    }

   private:
    AdmissionOrder* order_ = nullptr;
    std::optional<uint64_t> place_;  // none while stepped aside
  };

  // A ticket, or nothing when `capacity` requests already hold one: a
  // request counts from its arrival, while its prompt is still rendered.
  std::optional<Ticket> take() {
    if (outstanding_.size() + aside_ >= capacity_) return std::nullopt;
    return Ticket(this, join());
  }
  void set_capacity(size_t capacity) { capacity_ = capacity; }

 private:
  // A place at the end of the line.
  uint64_t join() {
    outstanding_.insert(next_);
    return next_++;
  }
  uint64_t rejoin() {
    --aside_;
    return join();
  }
  void step_aside(uint64_t place) {
    leave_line(place);
    ++aside_;
  }
  // A ticket gone, from its place in line or from aside.
  void leave(std::optional<uint64_t> place) {
    if (place) {
      leave_line(*place);
    } else {
      --aside_;
    }
  }
  void leave_line(uint64_t place);
  asio::awaitable<void> wait_turn(uint64_t place);

  uint64_t next_ = 0;
  size_t capacity_ = std::numeric_limits<size_t>::max();
  std::set<uint64_t> outstanding_;                   // taken, not yet released
  size_t aside_ = 0;                                 // stepped aside, not yet rejoined
  std::map<uint64_t, asio::steady_timer*> waiting_;  // parked in wait_turn
};

}  // namespace ingot::server
