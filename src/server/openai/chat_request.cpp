#include "server/openai/chat_request.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "server/openai/field_validator.h"

namespace ingot::server {
namespace {

using json = nlohmann::ordered_json;

void check_unsupported_features(Validator& v) {
  if (auto n = v.integer("n"); n && *n != 1) {
    v.fail("Only n=1 is supported.", "n", "unsupported_value");
  }
}

// Content: a string, null, or a list of parts of which only text parts are
// accepted by a text model. Returns the problem, or "" when fine.
std::string check_content(const json& content, const std::string& at) {
  if (content.is_string() || content.is_null()) return "";
  if (!content.is_array()) return at + ".content must be a string or a list of content parts.";
  for (size_t i = 0; i < content.size(); ++i) {
    const json& part = content[i];
    std::string where = at + ".content[" + std::to_string(i) + "]";
    if (!part.is_object() || !part.contains("type") || !part["type"].is_string()) {
      return where + " must be an object with a string 'type'.";
    }
    const std::string type = part["type"];
    if (type == "text") {
      if (!part.contains("text") || !part["text"].is_string()) {
        return where + ".text must be a string.";
      }
    } else if (type == "image_url" || type == "input_audio" || type == "file" ||
               type == "input_image") {
      return where + " is of type '" + type + "', which this text-only model cannot read.";
    } else {
      return where + " has an unknown type '" + type + "'.";
    }
  }
  return "";
}

std::string check_tool_calls(const json& calls, const std::string& at) {
  if (!calls.is_array()) return at + ".tool_calls must be a list.";
  for (size_t i = 0; i < calls.size(); ++i) {
    const json& call = calls[i];
    std::string where = at + ".tool_calls[" + std::to_string(i) + "]";
    if (!call.is_object() || !call.contains("function") || !call["function"].is_object()) {
      return where + " must be an object with a 'function'.";
    }
    const json& fn = call["function"];
    if (!fn.contains("name") || !fn["name"].is_string()) {
      return where + ".function.name must be a string.";
    }
    if (fn.contains("arguments") && !fn["arguments"].is_string() && !fn["arguments"].is_object()) {
      return where + ".function.arguments must be a JSON string.";
    }
  }
  return "";
}

std::string check_message(const json& message, const std::string& at) {
  static const std::vector<std::string> kRoles = {"system", "developer", "user", "assistant",
                                                  "tool"};
  if (!message.is_object()) return at + " must be an object.";
  if (!message.contains("role") || !message["role"].is_string()) {
    return at + ".role must be a string.";
  }
  const std::string role = message["role"];
  if (std::find(kRoles.begin(), kRoles.end(), role) == kRoles.end()) {
    return at + ".role '" + role + "' is not one of system, developer, user, assistant, tool.";
  }
  bool has_tool_calls = message.contains("tool_calls") && !message["tool_calls"].is_null();
  if (!message.contains("content") || message["content"].is_null()) {
    if (role != "assistant") return at + ".content is required for role '" + role + "'.";
  } else if (std::string problem = check_content(message["content"], at); !problem.empty()) {
    return problem;
  }
  if (has_tool_calls) {
    if (role != "assistant") return at + ".tool_calls is only allowed on assistant messages.";
    if (std::string problem = check_tool_calls(message["tool_calls"], at); !problem.empty()) {
      return problem;
    }
  }
  if (role == "tool" &&
      (!message.contains("tool_call_id") || !message["tool_call_id"].is_string())) {
    return at + ".tool_call_id must be a string for role 'tool'.";
  }
  for (const char* text_field : {"name", "reasoning_content"}) {
    if (message.contains(text_field) && !message[text_field].is_null() &&
        !message[text_field].is_string()) {
      return at + "." + text_field + " must be a string.";
    }
  }
  return "";
}

void check_messages(Validator& v, ChatRequest& request) {
  if (v.failed()) return;
  const json* messages = v.field("messages");
  if (messages == nullptr) return v.fail("'messages' is required.", "messages");
  if (!messages->is_array()) return v.fail("'messages' must be a list.", "messages");
  if (messages->empty()) return v.fail("'messages' must not be empty.", "messages");
  for (size_t i = 0; i < messages->size(); ++i) {
    std::string at = "messages[" + std::to_string(i) + "]";
    if (std::string problem = check_message((*messages)[i], at); !problem.empty()) {
      return v.fail(problem, "messages");
    }
  }
  request.messages = *messages;
}

void check_template_kwargs(Validator& v, ChatRequest& request) {
  const json* kwargs = v.field("chat_template_kwargs");
  if (kwargs == nullptr || v.failed()) return;
  if (!kwargs->is_object()) {
    return v.fail("'chat_template_kwargs' must be an object.", "chat_template_kwargs");
  }
  request.chat_template_kwargs = *kwargs;
}

// OpenAI's reasoning_effort turns thinking on or off where the template
// has that switch (enable_thinking): none and minimal off, the rest on; and
// low, medium and high reach the template as reasoning_effort.
// Saying both ways at once is a 400, as for llama-server's field names.
void check_reasoning_effort(Validator& v, ChatRequest& request) {
  const json* effort = v.field("reasoning_effort");
  if (effort == nullptr || v.failed()) return;
  static constexpr std::string_view kEfforts[] = {"none", "minimal", "low", "medium", "high"};
  const bool known =
      effort->is_string() && std::find(std::begin(kEfforts), std::end(kEfforts),
                                       effort->get<std::string>()) != std::end(kEfforts);
  if (!known) {
    return v.fail("'reasoning_effort' must be one of none, minimal, low, medium, high.",
                  "reasoning_effort");
  }
  const bool thinking = *effort != "none" && *effort != "minimal";
  auto& kwargs = request.chat_template_kwargs;
  if (auto it = kwargs.find("enable_thinking"); it != kwargs.end()) {
    if (!it->is_boolean() || it->get<bool>() != thinking) {
      return v.fail("'reasoning_effort' and 'chat_template_kwargs.enable_thinking' disagree.",
                    "reasoning_effort");
    }
  } else {
    kwargs["enable_thinking"] = thinking;
  }
  // Templates that take the effort itself (gpt-oss: "Reasoning: high")
  // read it from here, as llama-server passes it.
  if (thinking && !kwargs.contains("reasoning_effort")) kwargs["reasoning_effort"] = *effort;
}

// The reasoning budget an effort stands for when no budget is given: low
// and medium bound the thinking block, high leaves it to the model.
std::optional<int64_t> budget_for_effort(const json* effort) {
  if (effort == nullptr || !effort->is_string()) return std::nullopt;
  // "none" and "minimal" (OpenAI's lowest efforts): the block closes at once.
  if (*effort == "none" || *effort == "minimal") return 0;
  if (*effort == "low") return kLowEffortReasoningBudget;
  if (*effort == "medium") return kMediumEffortReasoningBudget;
  return std::nullopt;
}

// llama-server's reasoning_budget: the reasoning tokens a reply may spend
// before its end-of-thinking tag is forced; -1 (or absent) for no limit.
// Given, it wins over the budget reasoning_effort stands for.
void check_reasoning_budget(Validator& v, ChatRequest& request) {
  const json* budget = v.field("reasoning_budget");
  if (v.failed()) return;
  if (budget == nullptr) {
    request.reasoning_budget = budget_for_effort(v.field("reasoning_effort"));
    return;
  }
  if (!budget->is_number_integer() || budget->get<int64_t>() < -1) {
    return v.fail("'reasoning_budget' must be an integer, -1 for no limit.", "reasoning_budget");
  }
  if (budget->get<int64_t>() >= 0) request.reasoning_budget = budget->get<int64_t>();
}

}  // namespace

ChatRequestOrError parse_chat_request(const json& body, const RequestLimits& limits) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  Validator v(body);
  ChatRequest request;
  check_unsupported_features(v);
  check_model(v, limits, request);
  check_messages(v, request);
  check_max_tokens(v, limits, request);
  check_sampling(v, request);
  check_stop(v, request);
  check_stream(v, request);
  check_logprobs(v, request);
  check_logit_bias(v, request);
  check_extensions(v, request);
  check_template_kwargs(v, request);
  check_reasoning_effort(v, request);
  check_reasoning_budget(v, request);
  check_response_format(v, request);
  check_grammar(v, request);
  check_tools(v, request);
  if (v.failed()) return v.take_error();
  return request;
}

}  // namespace ingot::server
