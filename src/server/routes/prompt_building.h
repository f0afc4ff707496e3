#pragma once
// From a validated request to what the engine takes: the rendered and
// tokenized prompt, and sampling settings with server defaults filled in.

#include <string>
#include <variant>

#include "engine/generation_request.h"
#include "server/api_error.h"
#include "server/openai/chat_request.h"
#include "server/serving_context.h"

namespace ingot::server {

// Renders the chat template (ChatML when the model has none) and tokenizes.
std::variant<engine::GenerationRequest, ApiError> build_chat_generation(
    const ChatRequest& request, const ServingContext& context);

// Tokenizes text the way a prompt is: BOS as the model asks unless the text
// already starts with it, special tokens parsed.
std::vector<int32_t> tokenize_prompt(const std::string& text, const ServingContext& context);

// Request fields over server defaults.
sampling::SamplingParams sampling_for(const GenerationFields& request,
                                      const ServingContext& context);

}  // namespace ingot::server
