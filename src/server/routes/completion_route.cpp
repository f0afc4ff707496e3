// POST /v1/completions: a raw prompt, no chat template.

#include "server/openai/completion_request.h"
#include "server/openai/json_body.h"
#include "server/routes/canvas_settings.h"
#include "server/routes/generation_reply.h"
#include "server/routes/generative_model.h"
#include "server/routes/parsed_request.h"
#include "server/routes/prompt_building.h"
#include "server/routes/reply_grammar.h"
#include "server/routes/routes.h"
#include "server/routes/watched_preparation.h"

namespace ingot::server {
namespace {

std::optional<ApiError> check_token_ids(const std::vector<int32_t>& ids,
                                        const tokenizer::Tokenizer& tokenizer) {
  for (int32_t id : ids) {
    if (!tokenizer.vocab().contains(id)) {
      return invalid_request("'prompt' holds token id " + std::to_string(id) +
                                 ", outside the vocabulary of " +
                                 std::to_string(tokenizer.vocab().size()) + " tokens.",
                             "prompt");
    }
  }
  return std::nullopt;
}

asio::awaitable<void> serve_completion(HttpExchange& exchange, ServingContext& context) {
  if (co_await answer_if(exchange, refusal_for_non_generative_model(context))) co_return;
  const std::optional<CompletionRequest> parsed =
      co_await parse_request_or_answer<CompletionRequest>(exchange, context,
                                                          parse_completion_request);
  if (!parsed) co_return;
  const CompletionRequest& request = *parsed;
  std::optional<ApiError> error = check_token_ids(request.prompt_ids, *context.format.tokenizer);
  if (!error) error = check_logit_bias_ids(request, *context.format.tokenizer);
  const sampling::SamplingParams sampling = sampling_for(request, context);
  auto canvas = canvas_settings_for(request, request, context.capability.canvas, sampling.seed);
  if (!error) {
    if (auto* refused = std::get_if<ApiError>(&canvas)) error = std::move(*refused);
  }
  if (!error && context.capability.canvas && request.echo && request.logprobs) {
    error = invalid_request(
        "'echo' with 'logprobs' scores the prompt token by token, which a diffusion model's "
        "canvases do not.",
        "echo");
  }
  if (error) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  auto lora = lora_for(request, context);
  if (auto* error = std::get_if<ApiError>(&lora)) {
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  std::optional<AdmissionOrder::Ticket> ticket = co_await take_ticket_or_answer(exchange, context);
  if (!ticket) co_return;
  // The prompt's ids and its text (echoed, and where logprob offsets
  // start), on the prompt pool like a chat prompt's rendering.
  auto [prompt, prompt_text] = co_await off_io_thread(context, exchange, [&request, &context] {
    if (request.prompt_ids.empty()) {
      return std::pair{tokenize_prompt(request.prompt, context), request.prompt};
    }
    return std::pair{request.prompt_ids, context.format.tokenizer->decode(request.prompt_ids)};
  });
  auto constraint = co_await prepare_watched(
      context, exchange, *ticket, request.stream,
      [&request, &context](const GrammarCompileWatch& watch) {
        return reply_grammar_for(request, std::nullopt, std::nullopt, context.grammars, watch);
      });
  if (auto* error = std::get_if<ApiError>(&constraint)) {
    ticket->release();
    co_await exchange.respond_error(std::move(*error));
    co_return;
  }
  engine::GenerationRequest generation;
  generation.prompt = std::move(prompt);
  generation.sampling = sampling;
  generation.canvas = std::get<std::optional<sampling::DenoiserParams>>(canvas);
  if (auto& reply_grammar = std::get<std::optional<ReplyGrammar>>(constraint)) {
    generation.sampling.grammar = std::move(reply_grammar->grammar);
  }
  generation.lora = std::move(std::get<model::LoraSet>(lora));
  generation.max_tokens = static_cast<int32_t>(*request.max_tokens);
  generation.stop = request.stop;
  // Echo with logprobs scores the prompt: what evaluation harnesses read.
  if (request.echo && request.logprobs) generation.prompt_logprobs = request.top_logprobs;
  TextEcho echo;
  echo.prompt_bytes = prompt_text.size();
  if (request.echo) echo.prompt = std::move(prompt_text);
  co_await ticket->wait_turn();
  co_await submit_and_reply(exchange, context, std::move(generation), request, ReplyShape::kText,
                            {}, std::move(echo), std::move(*ticket));
}

}  // namespace

void add_completion_route(Router& router, ServingContext& context) {
  router.add({http::verb::post, "/v1/completions",
              [&context](HttpExchange& exchange) { return serve_completion(exchange, context); },
              /*requires_auth=*/true, /*json_body=*/true});
}

}  // namespace ingot::server
