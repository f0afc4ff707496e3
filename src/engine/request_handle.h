#pragma once
// The caller's side of a submitted request: its events, in order, ending
// with one FinishEvent or ErrorEvent; and cancel(), which the engine honours
// within one step.

#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/event_channel.h"
#include "engine/generation_request.h"

namespace ingot::engine {

// Events a consumer may leave unread before the engine pauses its request.
constexpr size_t kEventChannelCapacity = 64;

struct RequestState {
  explicit RequestState(uint64_t request_id) : id(request_id) {}

  const uint64_t id;
  EventChannel<Event> events{kEventChannelCapacity};
  std::atomic<bool> cancelled{false};
};

class RequestHandle {
 public:
  RequestHandle() = default;
  RequestHandle(std::shared_ptr<RequestState> state, std::function<void()> wake_engine)
      : state_(std::move(state)), wake_engine_(std::move(wake_engine)) {}

  uint64_t id() const { return state_->id; }

  // Waits for the next event.
  Event next() { return state_->events.pop(); }
  std::optional<Event> try_next() { return state_->events.try_pop(); }
  // Called on the engine thread after each event; see EventChannel.
  void set_notify(std::function<void()> notify) { state_->events.set_notify(std::move(notify)); }

  // Stops the request; its slot is freed within one engine step. Events
  // already queued stay readable; nothing more is produced.
  void cancel() {
    state_->cancelled.store(true, std::memory_order_release);
    if (wake_engine_) wake_engine_();
  }
  // cancel(), and tells the engine nobody reads any more.
  void abandon() {
    state_->events.close();
    cancel();
  }

 private:
  std::shared_ptr<RequestState> state_;
  std::function<void()> wake_engine_;
};

// Reads events until the end: convenience for callers that want everything.
struct CollectedReply {
  std::string content;
  std::string reasoning;
  std::vector<GeneratedToken> tokens;
  std::optional<FinishEvent> finish;
  std::optional<Error> error;
};
CollectedReply collect_reply(RequestHandle handle);

}  // namespace ingot::engine
