// GET /, /health, /ready, /props and /v1/models.

#include "server/openai/chat_response.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

ordered_json model_entry(const ServingContext& context, const std::string& id) {
  ordered_json entry;
  entry["id"] = id;
  entry["object"] = "model";
  entry["created"] = context.identity.created;
  entry["owned_by"] = "ingot";
  entry["context_length"] = context.engine->context_size();
  // The syntax tool calls are read in and constrained to (docs/tool-calling.md).
  entry["tool_call_family"] =
      std::string(chat::tool_calls::family_name(context.format.tool_call_family));
  return entry;
}

// GET /props as llama-server answers it, for the clients and web UIs that
// read it: the context, the slots, what the model takes in, its chat
// template and how it writes tool calls. No server path is shown.
ordered_json props(const ServingContext& context) {
  ordered_json body;
  body["default_generation_settings"] = {{"n_ctx", context.engine->context_size()},
                                         {"params",
                                          {{"n_predict", context.defaults.max_tokens},
                                           {"temperature", context.defaults.sampling.temperature},
                                           {"top_k", context.defaults.sampling.top_k},
                                           {"top_p", context.defaults.sampling.top_p},
                                           {"min_p", context.defaults.sampling.min_p}}}};
  body["total_slots"] = context.engine->options().parallel;
  body["model_alias"] = context.identity.model_id;
  body["model_path"] = context.identity.model_id + ".gguf";
  body["modalities"] = {{"vision", false}, {"audio", false}};
  body["chat_template"] = context.format.chat_template_source;
  body["bos_token"] = context.format.bos_text;
  body["eos_token"] = context.format.eos_text;
  body["tool_call_family"] =
      std::string(chat::tool_calls::family_name(context.format.tool_call_family));
  body["build_info"] = std::string("ingot ") + INGOT_VERSION_STRING;
  return body;
}

}  // namespace

void add_info_routes(Router& router, ServingContext& context) {
  router.add(
      {http::verb::get, "/props", [&context](HttpExchange& exchange) -> asio::awaitable<void> {
         ordered_json body = props(context);
         co_await exchange.respond(http::status::ok, dump(body), "application/json");
       }});
  router.add({http::verb::get, "/health",
              [&context](HttpExchange& exchange) -> asio::awaitable<void> {
                bool ready = context.ready.load();
                ordered_json body = {{"status", ready ? "ok" : "loading"}};
                co_await exchange.respond(
                    ready ? http::status::ok : http::status::service_unavailable, dump(body),
                    "application/json");
              },
              /*requires_auth=*/false});

  // Readiness, for a load balancer or Kubernetes: 503 while loading and
  // while draining after SIGTERM, where /health says only that the process
  // answers once loaded.
  router.add({http::verb::get, "/ready",
              [&context](HttpExchange& exchange) -> asio::awaitable<void> {
                const char* status = !context.ready.load()     ? "loading"
                                     : context.draining.load() ? "draining"
                                                               : "ready";
                const bool ready = std::string_view(status) == "ready";
                ordered_json body = {{"status", status}};
                co_await exchange.respond(
                    ready ? http::status::ok : http::status::service_unavailable, dump(body),
                    "application/json");
              },
              /*requires_auth=*/false});

  router.add(
      {http::verb::get, "/v1/models", [&context](HttpExchange& exchange) -> asio::awaitable<void> {
         // Aliases are accepted names, not further models; each adapter is
         // one, its base its parent (as vLLM lists LoRA modules).
         ordered_json data = ordered_json::array({model_entry(context, context.identity.model_id)});
         for (const ModelIdentity::ServedAdapter& served : context.identity.lora_adapters) {
           ordered_json entry = model_entry(context, context.identity.adapter_model_id(served));
           entry["parent"] = context.identity.model_id;
           data.push_back(std::move(entry));
         }
         ordered_json body = {{"object", "list"}, {"data", std::move(data)}};
         co_await exchange.respond(http::status::ok, dump(body), "application/json");
       }});

  router.add(
      {http::verb::get, "/metrics", [&context](HttpExchange& exchange) -> asio::awaitable<void> {
         std::string text = context.metrics->render(context.engine->stats());
         co_await exchange.respond(http::status::ok, std::move(text), "text/plain; version=0.0.4");
       }});
}

// Added last, so that it lists every route the server answers. Open to
// all, it names the model only to a client that carries the API key.
void add_index_route(Router& router, const ServingContext& context) {
  std::vector<std::string> endpoints = router.endpoints();
  endpoints.insert(endpoints.begin(), "GET /");
  router.add({http::verb::get, "/",
              [&context, endpoints](HttpExchange& exchange) -> asio::awaitable<void> {
                ordered_json body;
                body["name"] = "ingot";
                body["version"] = INGOT_VERSION_STRING;
                if (exchange.authorized()) body["model"] = context.identity.model_id;
                body["endpoints"] = endpoints;
                co_await exchange.respond(http::status::ok, dump(body), "application/json");
              },
              /*requires_auth=*/false});
}

}  // namespace ingot::server
