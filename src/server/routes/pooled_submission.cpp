#include "server/routes/pooled_submission.h"

#include <algorithm>
#include <deque>
#include <memory>

#include "server/routes/generation_submission.h"
#include "server/routes/reply_collection.h"

namespace ingot::server {

asio::awaitable<std::optional<std::vector<engine::FinishEvent>>> run_pooled(
    HttpExchange& exchange, ServingContext& context, std::vector<engine::GenerationRequest> inputs,
    AdmissionOrder::Ticket ticket) {
  const size_t window = size_t(std::max(1, context.engine->options().parallel));
  std::vector<engine::FinishEvent> finished;
  std::deque<std::unique_ptr<EngineEvents>> in_flight;
  size_t next = 0;
  co_await ticket.wait_turn();
  while (finished.size() < inputs.size()) {
    while (next < inputs.size() && in_flight.size() < window) {
      // A copy: a refused input is submitted again later.
      Result<std::unique_ptr<EngineEvents>> events =
          try_submit_generation(exchange, context, inputs[next], /*streamed=*/false);
      ticket.release();
      if (!events.ok()) {
        // A full queue: the input waits for one of this request's own to
        // finish.
        const bool full = events.error().kind() == ErrorKind::kResourceExhausted;
        if (!full || in_flight.empty()) {
          co_await answer_refusal(exchange, events.error());
          co_return std::nullopt;
        }
        break;
      }
      in_flight.push_back(std::move(events).value());
      ++next;
    }
    std::optional<engine::CollectedReply> reply =
        co_await collect_whole_reply(exchange, context, *in_flight.front());
    if (!reply) co_return std::nullopt;  // the client left, or the reply was answered
    in_flight.pop_front();
    finished.push_back(std::move(*reply->finish));
  }
  co_return finished;
}

}  // namespace ingot::server
