#pragma once
// What a generation cost, into the access log and the metrics.

#include "engine/generation_request.h"
#include "server/http/http_exchange.h"
#include "server/serving_context.h"

namespace ingot::server {

// Token counts and timings.
void record_usage(HttpExchange& exchange, ServingContext& context, const engine::Usage& usage);
// A reply nobody read to its end: the client left, or shutdown cancelled it.
void record_cancelled(HttpExchange& exchange, ServingContext& context);

}  // namespace ingot::server
