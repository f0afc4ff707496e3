#include "server/models/model_routes.h"

#include "server/openai/chat_response.h"
#include "server/routes/parsed_request.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

// The model a JSON body names; the only model when it names none and the
// server has one.
std::variant<std::string, ApiError> model_named(const nlohmann::ordered_json& body,
                                                const ModelCatalog& catalog) {
  if (body.is_object()) {
    const auto model = body.find("model");
    if (model != body.end() && model->is_string()) return model->get<std::string>();
  }
  if (catalog.entries().size() == 1) return catalog.entries().front().name;
  return invalid_request(
      "'model' is required: this server serves several models (GET /v1/models lists them).",
      "model");
}

// How the API says each of the registry's refusals: an unknown name is the
// client's mistake, a busy or pinned model a conflict, the rest the
// server's state at the moment (retry later).
ApiError api_error_from(const RegistryRefusal& refused) {
  using Reason = RegistryRefusal::Reason;
  const std::string& name = refused.model;
  const auto unavailable = [](std::string message) {
    return ApiError{503, "server_error", std::move(message), "model", "model_unavailable"};
  };
  switch (refused.reason) {
    case Reason::kUnknownModel:
      return {404, "invalid_request_error",
              "The model '" + name + "' does not exist; GET /v1/models lists the models served.",
              "model", "model_not_found"};
    case Reason::kDraining:
      return unavailable("The server is shutting down.");
    case Reason::kLoadFailed:
      // The cause names server paths: it goes to the log, not the client.
      return unavailable("The model '" + name + "' failed to load; the server's log says why.");
    case Reason::kTooManyWaiting:
      return unavailable("Too many requests are waiting for models to load; retry later.");
    case Reason::kLoadTimedOut:
      return unavailable("The model '" + name + "' did not load in time.");
    case Reason::kPinned:
      return {409, "invalid_request_error",
              "The model '" + name + "' is pinned (--models-config); it stays loaded.", "model",
              "model_pinned"};
    case Reason::kBusy:
      return {409, "invalid_request_error",
              "The model '" + name + "' is " + refused.detail + "; unload it once it is idle.",
              "model", "model_busy"};
  }
  return unavailable("The model '" + name + "' is unavailable.");
}

// A model's route, run for the model the request names.
asio::awaitable<void> run_for_model(HttpExchange& exchange, FleetContext& fleet,
                                    http::verb method) {
  std::optional<nlohmann::ordered_json> body = co_await read_json_or_answer(exchange, fleet.shared);
  if (!body) co_return;
  auto name = model_named(*body, fleet.registry->catalog());
  if (auto* error = std::get_if<ApiError>(&name)) {
    co_await exchange.respond_error(*error);
    co_return;
  }
  auto lease = co_await fleet.registry->acquire(std::get<std::string>(name));
  if (auto* refused = std::get_if<RegistryRefusal>(&lease)) {
    co_await exchange.respond_error(api_error_from(*refused));
    co_return;
  }
  const ServedModel& model = std::get<ModelRegistry::Lease>(lease).model();
  const Router::Match match = model.routes().match(method, exchange.path());
  if (match.route == nullptr) {
    {
      co_await exchange.respond_error({404, "invalid_request_error",
                                       "No such route for this model.", std::nullopt, "not_found"});
      co_return;
    }
  }
  co_await match.route->handler(exchange);
}

ordered_json model_list(const FleetContext& fleet) {
  ordered_json data = ordered_json::array();
  for (const ModelRegistry::Status& s : fleet.registry->status()) {
    ordered_json entry;
    entry["id"] = s.entry->name;
    entry["object"] = "model";
    entry["created"] = fleet.shared.identity.created;
    entry["owned_by"] = "ingot";
    entry["state"] = std::string(model_state_name(s.state));
    if (!s.entry->settings.aliases.empty()) entry["aliases"] = s.entry->settings.aliases;
    entry["pinned"] = s.entry->settings.pinned;
    entry["size"] = s.entry->file_bytes;
    entry["context_length"] =
        s.model != nullptr ? s.model->context().engine->context_size() : s.entry->context_length;
    // Known once the model is loaded (its template, or the one given).
    if (s.model != nullptr) {
      entry["tool_call_family"] =
          std::string(chat::tool_calls::family_name(s.model->context().format.tool_call_family));
    }
    data.push_back(entry);
    // Its adapters, each a model of its own, run on it (as vLLM lists LoRA
    // modules).
    for (const CatalogAdapter& adapter : s.entry->adapters) {
      ordered_json served = entry;
      served["id"] = s.entry->name + ":" + adapter.name;
      served["parent"] = s.entry->name;
      data.push_back(std::move(served));
    }
  }
  return {{"object", "list"}, {"data", std::move(data)}};
}

// Each model's state and load counts, labelled by model.
std::string model_series(const std::vector<ModelRegistry::Status>& models) {
  struct Series {
    const char* name;
    const char* type;
    const char* help;
    double (*value)(const ModelRegistry::Status&);
  };
  const Series series[] = {
      {"ingot_model_loaded", "gauge", "1 when the model is loaded, else 0.",
       [](const ModelRegistry::Status& s) { return double(s.state == ModelState::kLoaded); }},
      {"ingot_model_loading", "gauge", "1 while the model loads, else 0.",
       [](const ModelRegistry::Status& s) { return double(s.state == ModelState::kLoading); }},
      {"ingot_model_loads_total", "counter", "Times the model was loaded.",
       [](const ModelRegistry::Status& s) { return double(s.loads); }},
      {"ingot_model_unloads_total", "counter", "Times the model was unloaded.",
       [](const ModelRegistry::Status& s) { return double(s.unloads); }},
      {"ingot_model_memory_bytes", "gauge",
       "The model's weights and KV cache: measured when it last loaded, else its file.",
       [](const ModelRegistry::Status& s) { return double(s.memory_bytes); }},
  };
  std::string out;
  std::vector<ModelSample> samples;
  for (const Series& one : series) {
    samples.clear();
    for (const ModelRegistry::Status& s : models) samples.push_back({s.entry->name, one.value(s)});
    render_family(out, one.name, one.type, one.help, samples);
  }
  return out;
}

std::string render_metrics(const FleetContext& fleet) {
  const std::vector<ModelRegistry::Status> models = fleet.registry->status();
  std::vector<Metrics::ModelEngineStats> engines;
  std::vector<std::string> adapters;  // those of the loaded models
  for (const ModelRegistry::Status& s : models) {
    if (s.model == nullptr) continue;
    engines.push_back({s.entry->name, s.model->context().engine->stats()});
    for (const auto& served : s.model->context().identity.lora_adapters) {
      adapters.push_back(s.model->context().identity.adapter_model_id(served));
    }
  }
  fleet.metrics->set_lora_adapters(std::move(adapters));
  return fleet.metrics->render(engines, model_series(models));
}

// POST /models/load and /models/unload: {"model": NAME}.
asio::awaitable<void> load_or_unload(HttpExchange& exchange, FleetContext& fleet, bool load) {
  std::optional<nlohmann::ordered_json> body = co_await read_json_or_answer(exchange, fleet.shared);
  if (!body) co_return;
  const nlohmann::ordered_json& json = *body;
  if (!json.is_object() || !json.contains("model") || !json["model"].is_string()) {
    {
      co_await exchange.respond_error(
          invalid_request("'model' is required and must be a string.", "model"));
      co_return;
    }
  }
  const std::string name = json["model"].get<std::string>();
  // Not a conditional expression around co_await: GCC 12 destroys its
  // temporaries too early.
  std::optional<RegistryRefusal> refused;
  if (load) {
    refused = co_await fleet.registry->load(name);
  } else {
    refused = fleet.registry->unload(name);
  }
  if (refused) {
    co_await exchange.respond_error(api_error_from(*refused));
    co_return;
  }
  ordered_json answer = {{"model", name}, {"state", load ? "loaded" : "unloaded"}};
  co_await exchange.respond(http::status::ok, dump(answer), "application/json");
}

// The names requests may give the fleet's models, in catalogue order.
ordered_json model_names(const FleetContext& fleet) {
  ordered_json names = ordered_json::array();
  for (const CatalogEntry& e : fleet.registry->catalog().entries()) names.push_back(e.name);
  return names;
}

// Added last, so that it lists every route; open to all, it names the
// models only to a client that carries the API key.
void add_fleet_index_route(Router& router, FleetContext& fleet) {
  std::vector<std::string> endpoints = router.endpoints();
  endpoints.insert(endpoints.begin(), "GET /");
  router.add({http::verb::get, "/",
              [&fleet, endpoints](HttpExchange& exchange) -> asio::awaitable<void> {
                ordered_json body = {{"name", "ingot"}, {"version", INGOT_VERSION_STRING}};
                if (exchange.authorized()) body["models"] = model_names(fleet);
                body["endpoints"] = endpoints;
                co_await exchange.respond(http::status::ok, dump(body), "application/json");
              },
              /*requires_auth=*/false});
}

bool answered_for_the_server(std::string_view path) {
  return path == "/" || path == "/v1/models" || path == "/metrics" || path == "/props";
}

}  // namespace

Router build_model_routes(FleetContext& fleet) {
  Router router;
  router.add({http::verb::get, "/v1/models", [&fleet](HttpExchange& exchange) {
                return exchange.respond(http::status::ok, dump(model_list(fleet)),
                                        "application/json");
              }});
  // One model's /props needs its engine: the fleet's names its models.
  router.add({http::verb::get, "/props", [&fleet](HttpExchange& exchange) {
                ordered_json body = {{"build_info", std::string("ingot ") + INGOT_VERSION_STRING},
                                     {"models", model_names(fleet)},
                                     {"modalities", {{"vision", false}, {"audio", false}}}};
                return exchange.respond(http::status::ok, dump(body), "application/json");
              }});
  router.add({http::verb::get, "/metrics", [&fleet](HttpExchange& exchange) {
                return exchange.respond(http::status::ok, render_metrics(fleet),
                                        "text/plain; version=0.0.4");
              }});
  router.add({http::verb::post, "/models/load",
              [&fleet](HttpExchange& exchange) { return load_or_unload(exchange, fleet, true); },
              /*requires_auth=*/true, /*json_body=*/true});
  router.add({http::verb::post, "/models/unload",
              [&fleet](HttpExchange& exchange) { return load_or_unload(exchange, fleet, false); },
              /*requires_auth=*/true, /*json_body=*/true});
  // Every other route as one model's server has it: those taking a
  // request for a model run for the model it names; the rest (health,
  // readiness, stored responses) read the shared context.
  const Router one_model = build_routes(fleet.shared);
  for (const Route& route : one_model.routes()) {
    if (answered_for_the_server(route.path)) continue;
    if (!route.json_body) {
      router.add(route);
      continue;
    }
    Route forwarded = route;
    forwarded.handler = [&fleet, method = route.method](HttpExchange& exchange) {
      return run_for_model(exchange, fleet, method);
    };
    router.add(std::move(forwarded));
  }
  add_fleet_index_route(router, fleet);
  return router;
}

}  // namespace ingot::server
