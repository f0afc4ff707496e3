#pragma once
// What every dialect's reply does alike: hand the generation to the engine
// (answering a refusal before any reply byte), and record what it cost.

#include <memory>

#include "engine/generation_request.h"
#include "server/admission_order.h"
#include "server/api_error.h"
#include "server/engine_events.h"
#include "server/http/http_exchange.h"
#include "server/serving_context.h"

namespace ingot::server {

// Submits `generation`. On a refusal (full queue, context exceeded,
// shutting down) answers it and returns null; else the request's events,
// watching the client's socket. `ticket` is released once the engine has
// taken or refused the request.
asio::awaitable<std::unique_ptr<EngineEvents>> submit_generation(
    HttpExchange& exchange, ServingContext& context, engine::GenerationRequest generation,
    AdmissionOrder::Ticket ticket);

// Token counts and timings into the access log and the metrics.
void record_usage(HttpExchange& exchange, ServingContext& context, const engine::Usage& usage);
void record_cancelled(HttpExchange& exchange, ServingContext& context);

// How a generation that failed after admission is answered.
ApiError generation_failed(const Error& error);
// How a whole reply that shutdown cancelled is answered.
ApiError cancelled_by_shutdown();

}  // namespace ingot::server
