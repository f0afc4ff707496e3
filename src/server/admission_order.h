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
    Ticket(AdmissionOrder* order, uint64_t number) : order_(order), number_(number) {}
    Ticket(Ticket&& other) noexcept
        : order_(std::exchange(other.order_, nullptr)),
          number_(other.number_),
          aside_(other.aside_) {}
    Ticket& operator=(Ticket&& other) noexcept {
      release();
      order_ = std::exchange(other.order_, nullptr);
      number_ = other.number_;
      aside_ = other.aside_;
      return *this;
    }
    ~Ticket() { release(); }

    // Returns once every earlier ticket is released.
    asio::awaitable<void> wait_turn();
    void release() {
      if (order_) std::exchange(order_, nullptr)->release(number_, aside_);
    }

    // Work of unknown length (compiling a grammar) must not hold up the
    // requests behind: the ticket leaves its place in line, still counted
    // against the capacity, and rejoin() puts it back at the end.
    void step_aside() {
      if (!order_ || aside_) return;
      order_->release(number_, false);
      ++order_->aside_;
      aside_ = true;
    }
    void rejoin() {
      if (!order_ || !aside_) return;
      --order_->aside_;
      aside_ = false;
      number_ = order_->next_++;
      order_->outstanding_.insert(number_);
    }

   private:
    AdmissionOrder* order_ = nullptr;
    uint64_t number_ = 0;
    bool aside_ = false;
  };

  // A ticket, or nothing when `capacity` requests already hold one: a
  // request counts from its arrival, while its prompt is still rendered.
  std::optional<Ticket> take() {
    if (outstanding_.size() + aside_ >= capacity_) return std::nullopt;
    outstanding_.insert(next_);
    return Ticket(this, next_++);
  }
  void set_capacity(size_t capacity) { capacity_ = capacity; }

 private:
  void release(uint64_t number, bool aside);
  asio::awaitable<void> wait_turn(uint64_t number);

  uint64_t next_ = 0;
  size_t capacity_ = std::numeric_limits<size_t>::max();
  std::set<uint64_t> outstanding_;                   // taken, not yet released
  size_t aside_ = 0;                                 // stepped aside, not yet rejoined
  std::map<uint64_t, asio::steady_timer*> waiting_;  // parked in wait_turn
};

}  // namespace ingot::server
