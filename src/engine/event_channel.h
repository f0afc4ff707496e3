#pragma once
// The bounded queue between the engine thread (producer) and one request's
// consumer (an HTTP connection, the chat REPL, a test). The engine never
// blocks on it: when a consumer lets it fill, the push fails and the engine
// cancels the request instead of losing or buffering pieces without bound.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <utility>

namespace ingot::engine {

template <typename Event>
class EventChannel {
 public:
  explicit EventChannel(size_t capacity) : capacity_(capacity) {}

  // Engine side. False when the channel is full or closed by the consumer;
  // the event is not queued then.
  bool try_push(Event event) {
    std::function<void()> notify;
    {
      std::lock_guard lock(mutex_);
      if (closed_ || queue_.size() >= capacity_) return false;
      queue_.push_back(std::move(event));
      notify = notify_;
    }
    ready_.notify_one();
    if (notify) notify();
    return true;
  }

  // Engine side, for the one event that ends a request (finish or error):
  // it may exceed the capacity by one so that the end is never lost.
  void push_final(Event event) {
    std::function<void()> notify;
    {
      std::lock_guard lock(mutex_);
      if (closed_) return;
      queue_.push_back(std::move(event));
      notify = notify_;
    }
    ready_.notify_one();
    if (notify) notify();
  }

  // Consumer side: waits for the next event.
  Event pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !queue_.empty(); });
    Event event = std::move(queue_.front());
    queue_.pop_front();
    return event;
  }

  // Consumer side: the next event if one is queued.
  std::optional<Event> try_pop() {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return std::nullopt;
    Event event = std::move(queue_.front());
    queue_.pop_front();
    return event;
  }

  // Consumer side: called (on the engine thread) after each push; an async
  // consumer posts a wake-up to its own executor here and returns at once.
  void set_notify(std::function<void()> notify) {
    std::lock_guard lock(mutex_);
    notify_ = std::move(notify);
  }

  // Consumer side: the consumer is gone; later pushes are dropped.
  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    queue_.clear();
    notify_ = nullptr;
  }

  size_t size() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
  }

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Event> queue_;
  std::function<void()> notify_;
  bool closed_ = false;
};

}  // namespace ingot::engine
