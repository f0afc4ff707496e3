// POST /tokenize and /detokenize, as llama-server offers them:
// {"content": "text", "add_special": bool, "with_pieces": bool} -> {"tokens": [...]}
// {"tokens": [ids]} -> {"content": "text"}

#include "server/openai/chat_response.h"
#include "server/routes/parsed_request.h"
#include "server/routes/prompt_building.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

asio::awaitable<void> serve_tokenize(HttpExchange& exchange, ServingContext& context) {
  std::optional<ordered_json> body = co_await read_json_or_answer(exchange, context);
  if (!body) co_return;
  const ordered_json& json = *body;
  std::optional<ApiError> problem;
  if (!json.is_object() || !json.contains("content") || !json["content"].is_string()) {
    problem = invalid_request("'content' must be a string.", "content");
  } else if (json.contains("add_special") && !json["add_special"].is_boolean()) {
    problem = invalid_request("'add_special' must be a boolean.", "add_special");
  } else if (json.contains("with_pieces") && !json["with_pieces"].is_boolean()) {
    problem = invalid_request("'with_pieces' must be a boolean.", "with_pieces");
  }
  if (problem) {
    co_await exchange.respond_error(std::move(*problem));
    co_return;
  }
  bool add_special = json.value("add_special", false);
  bool with_pieces = json.value("with_pieces", false);
  std::vector<int32_t> ids =
      co_await off_io_thread(context, exchange, [&json, &context, add_special] {
        return context.format.tokenizer->encode(json["content"].get<std::string>(), add_special,
                                                true);
      });
  ordered_json tokens = ordered_json::array();
  for (int32_t id : ids) {
    if (with_pieces) {
      tokens.push_back({{"id", id}, {"piece", context.format.tokenizer->token_to_piece(id)}});
    } else {
      tokens.push_back(id);
    }
  }
  ordered_json reply = {{"tokens", std::move(tokens)}};
  co_await exchange.respond(http::status::ok, dump(reply), "application/json");
}

asio::awaitable<void> serve_detokenize(HttpExchange& exchange, ServingContext& context) {
  std::optional<ordered_json> body = co_await read_json_or_answer(exchange, context);
  if (!body) co_return;
  const ordered_json& json = *body;
  auto n_vocab = static_cast<int64_t>(context.format.tokenizer->vocab().size());
  std::vector<int32_t> ids;
  std::optional<ApiError> problem;
  if (!json.is_object() || !json.contains("tokens") || !json["tokens"].is_array()) {
    problem = invalid_request("'tokens' must be a list of token ids.", "tokens");
  } else {
    for (const auto& id : json["tokens"]) {
      if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= n_vocab) {
        problem =
            invalid_request("'tokens' holds " + id.dump() + ", which is not a token id (0 to " +
                                std::to_string(n_vocab - 1) + ").",
                            "tokens");
        break;
      }
      ids.push_back(static_cast<int32_t>(id.get<int64_t>()));
    }
  }
  if (problem) {
    co_await exchange.respond_error(std::move(*problem));
    co_return;
  }
  std::string text = co_await off_io_thread(
      context, exchange, [&ids, &context] { return context.format.tokenizer->decode(ids); });
  ordered_json reply = {{"content", std::move(text)}};
  co_await exchange.respond(http::status::ok, dump(reply), "application/json");
}

}  // namespace

void add_tokenize_routes(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/tokenize",
              [&context](HttpExchange& exchange) { return serve_tokenize(exchange, context); },
              true, true});
  router.add({http::verb::post, "/detokenize",
              [&context](HttpExchange& exchange) { return serve_detokenize(exchange, context); },
              true, true});
}

}  // namespace ingot::server
