#pragma once
// The bounded queue between the engine thread (producer) and one request's
// consumer (an HTTP connection, the chat REPL, a test). The engine never
// blocks on it and never drops a piece: before each step it asks for the
// channel's room and runs the request only for what fits; a request whose
// consumer has let the channel fill is paused (it keeps its slot and KV)
// until the consumer has drained half of it, when the channel rings the
// engine. A consumer that is gone closes the channel.

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

  size_t capacity() const { return capacity_; }

  // Engine side: how many events may be pushed now. When none may, the
  // drained callback is armed: it runs once the consumer has read the
  // channel down to half, so that a paused request resumes.
  size_t room() {
    std::lock_guard lock(mutex_);
    const size_t used = std::min(queue_.size(), capacity_);
    if (used == capacity_) wants_room_ = true;
    return capacity_ - used;
  }

  // Engine side: whether the channel holds all it may (the request is paused).
  bool full() const {
    std::lock_guard lock(mutex_);
    return queue_.size() >= capacity_;
  }

  // Engine side, for an event room() made place for, or for the one event
  // that ends a request (finish or error), which may exceed the capacity so
  // that the end is never lost. False when the consumer has closed the
  // channel; the event is dropped then.
  bool push(Event event) {
    std::function<void()> notify;
    {
      std::lock_guard lock(mutex_);
      if (closed_) return false;
      queue_.push_back(std::move(event));
      notify = notify_;
    }
    ready_.notify_one();
    if (notify) notify();
    return true;
  }

  // Engine side: called (on the consumer's thread) when a full channel has
  // been read down to half; see room().
  void set_drained(std::function<void()> drained) {
    std::lock_guard lock(mutex_);
    drained_ = std::move(drained);
  }

  // Consumer side: waits for the next event.
  Event pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return !queue_.empty(); });
    return take_front(lock);
  }

  // Consumer side: the next event if one is queued.
  std::optional<Event> try_pop() {
    std::unique_lock lock(mutex_);
    if (queue_.empty()) return std::nullopt;
    return take_front(lock);
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
  Event take_front(std::unique_lock<std::mutex>& lock) {
    Event event = std::move(queue_.front());
    queue_.pop_front();
    std::function<void()> drained;
    if (wants_room_ && queue_.size() <= capacity_ / 2) {
      wants_room_ = false;
      drained = drained_;
    }
    lock.unlock();
    if (drained) drained();
    return event;
  }

  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Event> queue_;
  std::function<void()> notify_;
  std::function<void()> drained_;
  bool wants_room_ = false;
  bool closed_ = false;
};

}  // namespace ingot::engine
