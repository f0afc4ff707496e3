#include "server/routes/prompt_building.h"

#include <random>

namespace ingot::server {
namespace {

// For models without a chat template, as llama-server does.
constexpr std::string_view kChatMlTemplate =
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + "
    "message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const chat::ChatTemplate& fallback_template() {
  static const chat::ChatTemplate chatml =
      std::move(chat::ChatTemplate::parse(kChatMlTemplate)).value();
  return chatml;
}

bool ends_inside_reasoning(const std::string& prompt, const std::string& open_tag) {
  size_t end = prompt.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return false;
  std::string_view trimmed(prompt.data(), end + 1);
  return trimmed.ends_with(open_tag);
}

ApiError template_error(const Error& error) {
  if (error.kind() == ErrorKind::kTemplateRaised) {
    return invalid_request(error.message(), "messages", "template_error");
  }
  return invalid_request("The chat template could not render these messages: " + error.describe(),
                         "messages", "template_error");
}

}  // namespace

std::vector<int32_t> tokenize_prompt(const std::string& text, const ServingContext& context) {
  bool has_bos_text = !context.bos_text.empty() && text.starts_with(context.bos_text);
  return context.tokenizer->encode(text, /*add_special=*/!has_bos_text, /*parse_special=*/true);
}

sampling::SamplingParams sampling_for(const GenerationFields& request,
                                      const ServingDefaults& defaults) {
  sampling::SamplingParams params = defaults.sampling;
  if (request.temperature) params.temperature = *request.temperature;
  if (request.top_p) params.top_p = *request.top_p;
  if (request.top_k) params.top_k = *request.top_k;
  if (request.min_p) params.min_p = *request.min_p;
  if (request.repetition_penalty) params.repetition_penalty = *request.repetition_penalty;
  if (request.frequency_penalty) params.frequency_penalty = *request.frequency_penalty;
  if (request.presence_penalty) params.presence_penalty = *request.presence_penalty;
  params.seed = request.seed ? *request.seed : std::random_device{}();
  params.logit_bias = request.logit_bias;
  params.logprobs = request.logprobs;
  params.top_logprobs = request.top_logprobs;
  return params;
}

std::variant<engine::GenerationRequest, ApiError> build_chat_generation(
    const ChatRequest& request, const ServingContext& context) {
  chat::ChatPromptInput input;
  input.messages = request.messages;
  input.add_generation_prompt = true;
  input.bos_token = context.bos_text;
  input.eos_token = context.eos_text;
  input.extra_kwargs = request.chat_template_kwargs;
  const chat::ChatTemplate& tmpl =
      context.chat_template ? *context.chat_template : fallback_template();
  Result<std::string> prompt = tmpl.render(input);
  if (!prompt.ok()) return template_error(prompt.error());

  engine::GenerationRequest generation;
  generation.prompt = tokenize_prompt(*prompt, context);
  generation.sampling = sampling_for(request, context.defaults);
  generation.max_tokens =
      request.max_tokens ? static_cast<int32_t>(*request.max_tokens) : context.defaults.max_tokens;
  generation.stop = request.stop;
  if (context.reasoning_tags) {
    generation.reasoning = *context.reasoning_tags;
    generation.prompt_opens_reasoning =
        ends_inside_reasoning(*prompt, context.reasoning_tags->open);
  }
  return generation;
}

}  // namespace ingot::server
