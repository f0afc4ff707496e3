#pragma once
// Compute threads several engines take turns on (serve --models, one
// engine per loaded model): a step holds them from its forward pass to its
// last sampled token, and the engines waiting take their turns in the
// order they asked, so no model's steps starve another's.

#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "util/thread_pool.h"

namespace ingot::engine {

class SharedCompute {
 public:
  explicit SharedCompute(int threads) : pool_(threads) {}

  ThreadPool& pool() { return pool_; }

  // The threads, held until the Turn ends.
  class Turn {
   public:
    explicit Turn(SharedCompute* owner) : owner_(owner) {}
    Turn(Turn&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Turn& operator=(Turn&&) = delete;
    ~Turn() {
      if (owner_ != nullptr) owner_->end_turn();
    }

   private:
    SharedCompute* owner_;
  };

  Turn take_turn() {
    std::unique_lock lock(mutex_);
    const uint64_t ticket = next_ticket_++;
    called_.wait(lock, [&] { return serving_ == ticket; });
    return Turn(this);
  }

 private:
  void end_turn() {
    {
      std::lock_guard lock(mutex_);
      ++serving_;
    }
    called_.notify_all();
  }

  ThreadPool pool_;
  std::mutex mutex_;
  std::condition_variable called_;
  uint64_t next_ticket_ = 0;
  uint64_t serving_ = 0;
};

}  // namespace ingot::engine
