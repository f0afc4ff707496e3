#pragma once
// Reading a generation's events once the engine has taken it: a whole
// reply to its finish, a stream's events sent in order, and how a failure
// after admission is answered.

#include <optional>
#include <vector>

#include "engine/generation_request.h"
#include "server/api_error.h"
#include "server/engine_events.h"
#include "server/http/http_exchange.h"
#include "server/serving_context.h"
#include "server/stream_event.h"

namespace ingot::server {

// A whole reply, read to its finish; usage recorded. Nothing when the
// client is gone, or when the reply was answered already: an engine error,
// or a shutdown that cancelled it.
asio::awaitable<std::optional<engine::CollectedReply>> collect_whole_reply(HttpExchange& exchange,
                                                                           ServingContext& context,
                                                                           EngineEvents& events);

// Sends the events in order; false once the client is gone.
asio::awaitable<bool> send_events(HttpExchange& exchange, std::vector<StreamEvent> events);

// How a generation that failed after admission is answered.
ApiError generation_failed(const Error& error);
// How a whole reply that shutdown cancelled is answered.
ApiError cancelled_by_shutdown();

}  // namespace ingot::server
