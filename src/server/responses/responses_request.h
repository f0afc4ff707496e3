#pragma once
// POST /v1/responses (OpenAI's Responses API): the body checked against the
// Responses shapes, its input items (after those of the conversation it
// continues) translated into the chat request every dialect ends in, which
// the chat route's checks validate further. Nothing reaches the engine
// before both have passed.
//
// Validation order (docs/api.md repeats it):
//  1. the body is a JSON object
//  2. what this server does not do: `background`, `conversation`,
//     `prompt`, `truncation` other than "disabled", `max_tool_calls`
//  3. `input`: a string or a list of items (message, function_call,
//     function_call_output, reasoning); `instructions` a string
//  4. `tools` (function tools, and namespace tools grouping them),
//     `tool_choice`
//  5. `text.format`, `reasoning.effort`, `max_output_tokens`, `store`,
//     `metadata`, `include`
//  6. the chat request's own checks, in its order, their fields named as
//     the Responses API names them

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "server/api_error.h"
#include "server/openai/chat_request.h"
#include "server/responses/tool_namespaces.h"

namespace ingot::server::responses {

using ordered_json = nlohmann::ordered_json;

struct ResponsesRequest {
  ChatRequest chat;
  ordered_json input_items = ordered_json::array();  // this request's input, each with an id
  // The items the prompt renders after the instructions: the continued
  // conversation, then this input.
  ordered_json conversation = ordered_json::array();
  std::optional<std::string> previous_response_id;
  bool store = true;
  // The functions of namespace tools, as the model sees their names.
  ToolNamespaces tool_namespaces;
  // The types of hosted tools left out of the prompt (web_search...).
  std::vector<std::string> dropped_tools;
  // The request's settings as the response object repeats them
  // (instructions, max_output_tokens, tools, text, reasoning...).
  ordered_json settings = ordered_json::object();
};

using ResponsesRequestOrError = std::variant<ResponsesRequest, ApiError>;

// `previous_response_id`, read before the rest so that the conversation it
// names can be looked up: absent, a string, or a refusal.
std::variant<std::optional<std::string>, ApiError> read_previous_response_id(
    const ordered_json& body);

// `prior`: the conversation previous_response_id names (its items), or an
// empty list.
ResponsesRequestOrError parse_responses_request(const ordered_json& body,
                                                const RequestLimits& limits,
                                                const ordered_json& prior);

}  // namespace ingot::server::responses
