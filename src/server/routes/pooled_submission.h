#pragma once
// The inputs of one /v1/embeddings or /v1/rerank request through the
// engine: submitted together so that they share forward passes, at most as
// many at a time as the engine has slots (more could only wait, and would
// take the queue's room from other requests). When the queue is full, the
// request waits for its own inputs to finish rather than fail on them;
// only a request with none in flight is refused, as any request would be.

#include <optional>
#include <vector>

#include "engine/generation_request.h"
#include "server/admission_order.h"
#include "server/http/http_exchange.h"
#include "server/serving_context.h"

namespace ingot::server {

// Each input's finish, in order; nothing when the client left or the
// request was answered already (a refusal, a failed generation).
asio::awaitable<std::optional<std::vector<engine::FinishEvent>>> run_pooled(
    HttpExchange& exchange, ServingContext& context, std::vector<engine::GenerationRequest> inputs,
    AdmissionOrder::Ticket ticket);

}  // namespace ingot::server
