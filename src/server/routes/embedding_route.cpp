// POST /v1/embeddings (and /embeddings): each input pooled by the engine,
// the inputs of one request run together (routes/pooled_submission.h).

#include "server/openai/chat_response.h"
#include "server/openai/embedding_request.h"
#include "server/openai/embedding_response.h"
#include "server/openai/json_body.h"
#include "server/routes/parsed_request.h"
#include "server/routes/pooled_submission.h"
#include "server/routes/prompt_building.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

// Each input's tokens; an input the context cannot hold is refused naming
// its index, or cut when the request asks (`truncate`).
std::variant<std::vector<std::vector<int32_t>>, ApiError> tokenize_inputs(
    const EmbeddingRequest& request, const ServingContext& context) {
  const int64_t context_size = context.engine->context_size();
  std::vector<std::vector<int32_t>> inputs;
  for (size_t i = 0; i < request.inputs.size(); ++i) {
    const EmbeddingInput& input = request.inputs[i];
    std::vector<int32_t> tokens =
        input.ids.empty() ? tokenize_prompt(input.text, context) : input.ids;
    for (int32_t id : tokens) {
      if (!context.format.tokenizer->vocab().contains(id)) {
        return invalid_request("'input[" + std::to_string(i) + "]' holds token id " +
                                   std::to_string(id) + ", outside the vocabulary.",
                               "input");
      }
    }
    if (int64_t(tokens.size()) > context_size) {
      if (!request.truncate) {
        return invalid_request("'input[" + std::to_string(i) + "]' has " +
                                   std::to_string(tokens.size()) +
                                   " tokens, more than the context of " +
                                   std::to_string(context_size) + " (truncate: true cuts it).",
                               "input", "context_length_exceeded");
      }
      tokens.resize(size_t(context_size));
    }
    inputs.push_back(std::move(tokens));
  }
  return inputs;
}

engine::GenerationRequest embedding_generation(std::vector<int32_t> tokens,
                                               engine::Pooling pooling) {
  engine::GenerationRequest generation;
  generation.prompt = std::move(tokens);
  generation.max_tokens = 0;
  generation.pooling = pooling;
  return generation;
}

asio::awaitable<void> serve_embeddings(HttpExchange& exchange, ServingContext& context) {
  if (!context.capability.embedding_pooling &&
      context.capability.purpose == ModelCapability::Purpose::kRerank) {
    co_await exchange.respond_error(invalid_request(
        "The model '" + context.identity.model_id +
            "' is a reranking model: it answers POST /v1/rerank, not /v1/embeddings.",
        "model", "model_not_embedding"));
    co_return;
  }
  if (!context.capability.embedding_pooling) {
    co_await exchange.respond_error(
        invalid_request("This server does not serve embeddings: start it with --embeddings.",
                        "model", "embeddings_not_enabled"));
    co_return;
  }
  const std::optional<EmbeddingRequest> parsed = co_await parse_request_or_answer<EmbeddingRequest>(
      exchange, context, [&context](const ordered_json& body, const RequestLimits& limits) {
        return parse_embedding_request(body, limits, context.capability.max_embedding_inputs);
      });
  if (!parsed) co_return;
  const EmbeddingRequest& request = *parsed;
  std::optional<AdmissionOrder::Ticket> ticket = co_await take_ticket_or_answer(exchange, context);
  if (!ticket) co_return;
  auto tokenized = co_await off_io_thread(
      context, exchange, [&request, &context] { return tokenize_inputs(request, context); });
  if (auto* error = std::get_if<ApiError>(&tokenized)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  auto& inputs = std::get<std::vector<std::vector<int32_t>>>(tokenized);
  std::vector<engine::GenerationRequest> generations;
  for (std::vector<int32_t>& tokens : inputs) {
    generations.push_back(
        embedding_generation(std::move(tokens), *context.capability.embedding_pooling));
  }
  auto finished =
      co_await run_pooled(exchange, context, std::move(generations), std::move(*ticket));
  if (!finished) co_return;  // the client left, or the request was answered
  std::vector<std::vector<float>> embeddings;
  int64_t prompt_tokens = 0;
  for (engine::FinishEvent& finish : *finished) {
    prompt_tokens += finish.usage.prompt_tokens;
    embeddings.push_back(finished_embedding(std::move(finish.embedding), request.dimensions));
  }
  if (context.metrics) context.metrics->count_embeddings(int64_t(inputs.size()));
  co_await exchange.respond(
      http::status::ok,
      dump(embedding_list(context.identity.model_id, embeddings, request.base64, prompt_tokens)),
      "application/json");
}

}  // namespace

void add_embedding_routes(Router& router, ServingContext& context) {
  for (const char* path : {"/v1/embeddings", "/embeddings"}) {
    router.add({http::verb::post, path,
                [&context](HttpExchange& exchange) { return serve_embeddings(exchange, context); },
                /*requires_auth=*/true, /*json_body=*/true});
  }
}

}  // namespace ingot::server
