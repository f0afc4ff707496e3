#pragma once
// The HTTP API of `serve --models`: the routes that take a request for a
// model (a JSON body naming it) find the model in the registry, loading it
// if need be, and run that model's own route; the rest answer for the
// whole server: /v1/models lists every model with its state, /metrics
// labels each model's series, POST /models/load and /models/unload load
// and unload by hand.

#include "server/http/router.h"
#include "server/metrics.h"
#include "server/models/model_registry.h"
#include "server/serving_context.h"

namespace ingot::server {

struct FleetContext {
  ModelRegistry* registry = nullptr;
  Metrics* metrics = nullptr;
  // No model: what the server-wide routes read (readiness, the stored
  // responses every model shares).
  ServingContext shared;
};

Router build_model_routes(FleetContext& fleet);

}  // namespace ingot::server
