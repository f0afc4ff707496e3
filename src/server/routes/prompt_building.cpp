#include "server/routes/prompt_building.h"

#include <limits>
#include <random>

#include "chat/message_roles.h"
#include "chat/special_text_guard.h"
#include "chat/tool_calls/tool_call_family.h"
#include "engine/prompt_tokens.h"
#include "server/routes/canvas_settings.h"
#include "server/routes/reply_grammar.h"

namespace ingot::server {
namespace {

using ordered_json = nlohmann::ordered_json;

// Many real templates concatenate `content` as a string and fail on a list
// of parts, so text parts are joined (with newlines, as llama-server does)
// before rendering; validation already refused every non-text part.
ordered_json flatten_text_parts(const ordered_json& messages) {
  ordered_json flat = messages;
  for (auto& message : flat) {
    auto content = message.find("content");
    if (content == message.end() || !content->is_array()) continue;
    std::string text;
    for (const auto& part : *content) {
      if (!text.empty()) text += '\n';
      text += part.value("text", std::string());
    }
    *content = text;
  }
  return flat;
}

// gpt-oss's template reads an assistant turn's reasoning from `thinking`
// (as llama-server passes it); clients send it as reasoning_content.
ordered_json reasoning_as_thinking(ordered_json messages) {
  for (auto& message : messages) {
    auto reasoning = message.find("reasoning_content");
    if (reasoning == message.end() || !reasoning->is_string() || message.contains("thinking")) {
      continue;
    }
    message["thinking"] = *reasoning;
  }
  return messages;
}

ApiError template_error(const Error& error) {
  if (error.kind() == ErrorKind::kTemplateRaised) {
    return invalid_request(error.message(), "messages", "template_error");
  }
  return invalid_request("The chat template could not render these messages: " + error.describe(),
                         "messages", "template_error");
}

// The reasoning block a required call may follow: the template's tags,
// unless the prompt already closed an empty block (thinking turned off).
// gpt-oss's channels are its call grammar's own business.
std::optional<sampling::grammar::ReasoningBlock> reasoning_block(const ServingContext& context,
                                                                 const std::string& prompt,
                                                                 bool opened) {
  if (!context.format.reasoning_tags || context.format.reasoning_tags->harmony) return std::nullopt;
  const engine::ReasoningTags& tags = *context.format.reasoning_tags;
  if (!opened && engine::prompt_closes_reasoning(prompt, tags)) return std::nullopt;
  return sampling::grammar::ReasoningBlock{tags.open, tags.close, opened};
}

}  // namespace

std::vector<int32_t> tokenize_prompt(const std::string& text, const ServingContext& context,
                                     std::span<const tokenizer::TextRange> literal) {
  return engine::tokenize_rendered_prompt(*context.format.tokenizer, text, context.format.bos_text,
                                          literal);
}

std::variant<model::LoraSet, ApiError> lora_for(const GenerationFields& request,
                                                const ServingContext& context) {
  model::LoraSet set;
  const auto& served = context.identity.lora_adapters;
  const ModelIdentity::ServedAdapter* named = context.identity.adapter_named(request.model);
  if (named != nullptr) {
    // Its --lora scale, or 1 for an adapter loaded off (scale 0) to be chosen
    // per request.
    set.push_back({named->adapter.get(), named->scale != 0.0f ? named->scale : 1.0f});
  }
  if (!request.lora) {
    if (named != nullptr) return set;
    for (const ModelIdentity::ServedAdapter& a : served) {
      if (a.scale != 0.0f) set.push_back({a.adapter.get(), a.scale});
    }
    return set;
  }
  for (const auto& [id, scale] : *request.lora) {
    if (id >= int64_t(served.size())) {
      return invalid_request("'lora' names adapter " + std::to_string(id) +
                                 ", but this server has " + std::to_string(served.size()) +
                                 " (GET /lora-adapters lists them).",
                             "lora");
    }
    const model::LoraAdapter* adapter = served[size_t(id)].adapter.get();
    // The model's adapter is already in, at its scale; `lora` may change it.
    std::erase_if(set, [&](const model::LoraUse& use) { return use.adapter == adapter; });
    if (scale != 0.0f) set.push_back({adapter, scale});
  }
  return set;
}

std::optional<ApiError> check_logit_bias_ids(const GenerationFields& request,
                                             const tokenizer::Tokenizer& tokenizer) {
  for (const auto& [id, bias] : request.logit_bias) {
    if (tokenizer.vocab().contains(id)) continue;
    return invalid_request("'logit_bias' names token id " + std::to_string(id) +
                               ", outside the vocabulary of " +
                               std::to_string(tokenizer.vocab().size()) + " tokens.",
                           "logit_bias");
  }
  return std::nullopt;
}

sampling::SamplingParams sampling_for(const GenerationFields& request,
                                      const ServingContext& context) {
  sampling::SamplingParams params = context.defaults.sampling;
  if (request.temperature) params.temperature = *request.temperature;
  if (request.top_p) params.top_p = *request.top_p;
  if (request.top_k) params.top_k = *request.top_k;
  if (request.min_p) params.min_p = *request.min_p;
  if (request.repetition_penalty) params.repetition_penalty = *request.repetition_penalty;
  if (request.frequency_penalty) params.frequency_penalty = *request.frequency_penalty;
  if (request.presence_penalty) params.presence_penalty = *request.presence_penalty;
  params.seed = request.seed ? *request.seed : std::random_device{}();
  // The server's --logit-bias first; the request's add to it.
  params.logit_bias.insert(params.logit_bias.end(), request.logit_bias.begin(),
                           request.logit_bias.end());
  if (request.ignore_eos) {
    for (int32_t id : context.format.tokenizer->vocab().end_of_generation()) {
      params.logit_bias.emplace_back(id, -std::numeric_limits<float>::infinity());
    }
  }
  params.logprobs = request.logprobs;
  params.top_logprobs = request.top_logprobs;
  return params;
}

std::variant<ChatGeneration, ApiError> build_chat_generation(const ChatRequest& request,
                                                             const ServingContext& context,
                                                             const GrammarCompileWatch& watch) {
  if (auto error = check_logit_bias_ids(request, *context.format.tokenizer)) return *error;
  const sampling::SamplingParams sampling = sampling_for(request, context);
  auto canvas = canvas_settings_for(request, request, context.capability.canvas, sampling.seed);
  if (auto* error = std::get_if<ApiError>(&canvas)) return std::move(*error);
  ChatGeneration result;
  chat::ChatPromptInput input;
  input.messages = flatten_text_parts(request.messages);
  if (!context.format.reads_developer_role) {
    input.messages = chat::developer_as_system(std::move(input.messages));
  }
  if (context.format.reasoning_tags && context.format.reasoning_tags->harmony) {
    input.messages = reasoning_as_thinking(std::move(input.messages));
  }
  chat::SpecialTextGuard guard(*context.format.tokenizer);
  if (!context.format.special_in_content) input.messages = guard.guard(std::move(input.messages));
  // With tool_choice "none" the model is not shown the tools at all, so it
  // has nothing to call.
  if (!request.tools.empty() && request.tool_choice.mode != ToolChoice::Mode::kNone) {
    result.tool_schemas = chat::tool_calls::ToolSchemas(request.tools);
    if (context.format.renders_tools) {
      input.tools = request.tools;
      result.tool_call_family = context.format.tool_call_family;
    } else {
      input.messages = chat::tool_calls::with_generic_tool_prompt(input.messages, request.tools);
      result.tool_call_family = chat::tool_calls::ToolCallFamily::kGeneric;
    }
  }
  input.add_generation_prompt = true;
  input.bos_token = context.format.bos_text;
  input.eos_token = context.format.eos_text;
  input.extra_kwargs = request.chat_template_kwargs;
  Result<std::string> rendered = context.format.chat_template->render(input);
  if (!rendered.ok()) return template_error(rendered.error());
  const chat::GuardedPrompt guarded = guard.restore(*rendered);
  const std::string& prompt = guarded.text;
  const bool opens_reasoning =
      context.format.reasoning_tags &&
      engine::prompt_opens_reasoning(prompt, *context.format.reasoning_tags);
  auto constraint =
      reply_grammar_for(request, result.tool_call_family,
                        reasoning_block(context, prompt, opens_reasoning), context.grammars, watch);
  if (auto* error = std::get_if<ApiError>(&constraint)) return std::move(*error);

  engine::GenerationRequest& generation = result.generation;
  auto lora = lora_for(request, context);
  if (auto* error = std::get_if<ApiError>(&lora)) return std::move(*error);
  generation.lora = std::move(std::get<model::LoraSet>(lora));
  generation.prompt = tokenize_prompt(prompt, context, guarded.literal);
  generation.sampling = sampling;
  generation.canvas = std::get<std::optional<sampling::DenoiserParams>>(canvas);
  generation.max_tokens =
      request.max_tokens ? static_cast<int32_t>(*request.max_tokens) : context.defaults.max_tokens;
  generation.stop = request.stop;
  if (auto& reply_grammar = std::get<std::optional<ReplyGrammar>>(constraint)) {
    generation.sampling.grammar = std::move(reply_grammar->grammar);
    generation.sampling.grammar_triggers = std::move(reply_grammar->triggers);
    result.relaxed = std::move(reply_grammar->relaxed);
  }
  if (context.format.reasoning_tags) {
    generation.reasoning = *context.format.reasoning_tags;
    generation.reasoning_budget =
        request.reasoning_budget ? static_cast<int32_t>(*request.reasoning_budget) : -1;
    generation.prompt_opens_reasoning = opens_reasoning;
  }
  return result;
}

}  // namespace ingot::server
