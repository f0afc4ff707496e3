// POST /v1/rerank (and /rerank): each (query, document) pair formatted as
// llama-server formats it (server/rerank_prompt.h) and scored by the
// engine's rank pooling, the pairs of one request run together
// (routes/pooled_submission.h).

#include "server/openai/chat_response.h"
#include "server/openai/json_body.h"
#include "server/openai/rerank_request.h"
#include "server/openai/rerank_response.h"
#include "server/rerank_prompt.h"
#include "server/routes/parsed_request.h"
#include "server/routes/pooled_submission.h"
#include "server/routes/prompt_building.h"
#include "server/routes/routes.h"

namespace ingot::server {
namespace {

// Each pair's tokens; one the context cannot hold is refused naming its
// document.
std::variant<std::vector<std::vector<int32_t>>, ApiError> tokenize_pairs(
    const RerankRequest& request, const ServingContext& context) {
  const int64_t context_size = context.engine->context_size();
  std::vector<std::vector<int32_t>> pairs;
  for (size_t i = 0; i < request.documents.size(); ++i) {
    std::vector<int32_t> tokens =
        rerank_tokens(*context.format.tokenizer, context.format.rerank_template, request.query,
                      request.documents[i]);
    if (int64_t(tokens.size()) > context_size) {
      return invalid_request("The query with 'documents[" + std::to_string(i) + "]' has " +
                                 std::to_string(tokens.size()) +
                                 " tokens, more than the context of " +
                                 std::to_string(context_size) + ".",
                             "documents", "context_length_exceeded");
    }
    pairs.push_back(std::move(tokens));
  }
  return pairs;
}

engine::GenerationRequest rank_generation(std::vector<int32_t> tokens) {
  engine::GenerationRequest generation;
  generation.prompt = std::move(tokens);
  generation.max_tokens = 0;
  generation.pooling = engine::Pooling::kRank;
  return generation;
}

std::optional<ApiError> refusal_for_non_reranker(const ServingContext& context) {
  if (context.capability.reranking) return std::nullopt;
  return invalid_request("The model '" + context.identity.model_id +
                             "' is not a reranker: it has no classification head (cls.output), "
                             "so this server does not answer /v1/rerank.",
                         "model", "model_not_reranker");
}

asio::awaitable<void> serve_rerank(HttpExchange& exchange, ServingContext& context) {
  if (co_await answer_if(exchange, refusal_for_non_reranker(context))) co_return;
  const std::optional<RerankRequest> parsed = co_await parse_request_or_answer<RerankRequest>(
      exchange, context, [&context](const ordered_json& body, const RequestLimits& limits) {
        return parse_rerank_request(body, limits, context.capability.max_embedding_inputs);
      });
  if (!parsed) co_return;
  const RerankRequest& request = *parsed;
  std::optional<AdmissionOrder::Ticket> ticket = co_await take_ticket_or_answer(exchange, context);
  if (!ticket) co_return;
  auto tokenized = co_await off_io_thread(
      context, exchange, [&request, &context] { return tokenize_pairs(request, context); });
  if (auto* error = std::get_if<ApiError>(&tokenized)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  auto& pairs = std::get<std::vector<std::vector<int32_t>>>(tokenized);
  std::vector<engine::GenerationRequest> generations;
  for (std::vector<int32_t>& tokens : pairs)
    generations.push_back(rank_generation(std::move(tokens)));
  auto finished =
      co_await run_pooled(exchange, context, std::move(generations), std::move(*ticket));
  if (!finished) co_return;  // the client left, or the request was answered
  std::vector<float> scores;
  int64_t prompt_tokens = 0;
  for (const engine::FinishEvent& finish : *finished) {
    prompt_tokens += finish.usage.prompt_tokens;
    scores.push_back(finish.embedding.empty() ? 0.0f : finish.embedding[0]);
  }
  if (context.metrics) context.metrics->count_reranked(int64_t(pairs.size()));
  co_await exchange.respond(
      http::status::ok,
      dump(rerank_list(context.identity.model_id, request, scores, prompt_tokens)),
      "application/json");
}

}  // namespace

void add_rerank_routes(Router& router, ServingContext& context) {
  for (const char* path : {"/v1/rerank", "/rerank"}) {
    router.add({http::verb::post, path,
                [&context](HttpExchange& exchange) { return serve_rerank(exchange, context); },
                /*requires_auth=*/true, /*json_body=*/true});
  }
}

}  // namespace ingot::server
