#pragma once
// From a validated request to what the engine takes: the rendered and
// tokenized prompt, and sampling settings with server defaults filled in.

#include <optional>
#include <span>
#include <string>
#include <variant>

#include "chat/tool_calls/argument_typing.h"
#include "engine/generation_request.h"
#include "server/api_error.h"
#include "server/http/http_exchange.h"
#include "server/openai/chat_request.h"
#include "server/routes/off_io_thread.h"
#include "server/serving_context.h"

namespace ingot::server {

// A chat request ready for the engine, and how its reply is read.
struct ChatGeneration {
  engine::GenerationRequest generation;
  // Set when the request offers tools: the reply is parsed for calls
  // written in this family's syntax.
  std::optional<chat::tool_calls::ToolCallFamily> tool_call_family;
  // The offered tools' parameter schemas (argument_typing.h).
  chat::tool_calls::ToolSchemas tool_schemas;
  // Schema assertions dropped to make the reply's grammar (reply_grammar.h).
  std::vector<std::string> relaxed;
};

// Renders the chat template (ChatML when the model has none) with the
// request's tools, and tokenizes.
// `watch` is handed to the grammar's compile (grammar_cache.h).
std::variant<ChatGeneration, ApiError> build_chat_generation(const ChatRequest& request,
                                                             const ServingContext& context,
                                                             const GrammarCompileWatch& watch = {});

// Tokenizes text the way a prompt is: BOS as the model asks unless the text
// already starts with it, special tokens parsed.
// `literal`: ranges of the text whose control tokens stay text.
std::vector<int32_t> tokenize_prompt(const std::string& text, const ServingContext& context,
                                     std::span<const tokenizer::TextRange> literal = {});

// A `logit_bias` id outside the vocabulary is the client's mistake, not
// something to ignore.
std::optional<ApiError> check_logit_bias_ids(const GenerationFields& request,
                                             const tokenizer::Tokenizer& tokenizer);

// Request fields over server defaults.
sampling::SamplingParams sampling_for(const GenerationFields& request,
                                      const ServingContext& context);

// The adapters a request runs with: the one its `model` names
// (`model:adapter`), and those its `lora` names at its scales (the others
// not at all); with neither, the server's at theirs. Scale 0 drops one. An
// id the server does not have is a 400.
std::variant<model::LoraSet, ApiError> lora_for(const GenerationFields& request,
                                                const ServingContext& context);

}  // namespace ingot::server
