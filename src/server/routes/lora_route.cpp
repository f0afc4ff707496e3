// GET /lora-adapters: the adapters loaded with --lora, llama-server's
// shape: [{"id", "path", "scale"}], id being what a request's `lora`
// names.

#include "server/openai/chat_response.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

asio::awaitable<void> list_adapters(HttpExchange& exchange, ServingContext& context) {
  ordered_json list = ordered_json::array();
  for (size_t id = 0; id < context.identity.lora_adapters.size(); ++id) {
    const ModelIdentity::ServedAdapter& served = context.identity.lora_adapters[id];
    list.push_back({{"id", id},
                    {"path", served.adapter->path()},
                    {"name", served.adapter->name()},
                    {"scale", served.scale}});
  }
  co_await exchange.respond(http::status::ok, dump(list), "application/json");
}

}  // namespace

void add_lora_routes(Router& router, ServingContext& context) {
  router.add({http::verb::get, "/lora-adapters",
              [&context](HttpExchange& exchange) { return list_adapters(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/false});
}

}  // namespace ingot::server
