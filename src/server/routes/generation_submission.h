#pragma once
// Handing a generation to the engine, and answering its refusal (a full
// queue, a context exceeded, shutting down) before any reply byte.

#include <memory>

#include "engine/generation_request.h"
#include "engine/request_handle.h"
#include "server/admission_order.h"
#include "server/api_error.h"
#include "server/engine_events.h"
#include "server/http/http_exchange.h"
#include "server/serving_context.h"

namespace ingot::server {

// Submits `generation`. On a refusal (full queue, context exceeded,
// shutting down) answers it and returns null; else the request's events,
// watching the client's socket (`streamed`: the reply is a stream, whose
// writes tell whether a half-closed client still reads). `ticket` is
// released once the engine has taken or refused the request.
asio::awaitable<std::unique_ptr<EngineEvents>> submit_generation(
    HttpExchange& exchange, ServingContext& context, engine::GenerationRequest generation,
    AdmissionOrder::Ticket ticket, bool streamed);
// As submit_generation, but a refusal is returned, not answered.
Result<std::unique_ptr<EngineEvents>> try_submit_generation(HttpExchange& exchange,
                                                            ServingContext& context,
                                                            engine::GenerationRequest generation,
                                                            bool streamed);
// Answers the engine's refusal of a request.
asio::awaitable<void> answer_refusal(HttpExchange& exchange, const Error& error);

}  // namespace ingot::server
