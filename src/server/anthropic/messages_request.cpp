#include "server/anthropic/messages_request.h"

#include <algorithm>
#include <string>
#include <utility>

#include "server/body_fields.h"

namespace ingot::server::anthropic {
namespace {

using json = nlohmann::ordered_json;

using Problem = BodyProblem;
using Found = FoundProblem;

Found refuse_media(const std::string& type, const std::string& at) {
  return Problem{at + " is of type '" + type + "', which this text-only model cannot read.",
                 "messages"};
}

// A string, or a list of text blocks; their texts joined by newlines.
Found read_text(const json& value, const std::string& at, const std::string& param,
                std::string& text) {
  if (value.is_string()) {
    text = value.get<std::string>();
    return std::nullopt;
  }
  if (!value.is_array()) return Problem{at + " must be a string or a list of text blocks.", param};
  for (size_t i = 0; i < value.size(); ++i) {
    const json& block = value[i];
    const std::string where = at + "[" + std::to_string(i) + "]";
    const std::string type = string_field(block, "type");
    if (type == "image" || type == "document") return refuse_media(type, where);
    if (type != "text" || !block.contains("text") || !block["text"].is_string()) {
      return Problem{where + " must be a text block ({\"type\": \"text\", \"text\": ...}).", param};
    }
    if (i > 0) text += '\n';
    text += block["text"].get<std::string>();
  }
  return std::nullopt;
}

// A text block's text.
Found read_text_block(const json& block, const std::string& where, std::string& text) {
  const json* value = given(block, "text");
  if (value == nullptr || !value->is_string()) {
    return Problem{where + ".text must be a string.", "messages"};
  }
  text = value->get<std::string>();
  return std::nullopt;
}

// A user turn: its text blocks become one user message, each tool_result
// a tool message, in the order they come.
Found translate_user(const json& content, const std::string& at, json& out) {
  json parts = json::array();
  auto flush_text = [&] {
    if (parts.empty()) return;
    out.push_back({{"role", "user"}, {"content", parts}});
    parts = json::array();
  };
  for (size_t i = 0; i < content.size(); ++i) {
    const json& block = content[i];
    const std::string where = at + ".content[" + std::to_string(i) + "]";
    const std::string type = string_field(block, "type");
    if (type == "text") {
      std::string text;
      if (Found problem = read_text_block(block, where, text)) return problem;
      parts.push_back({{"type", "text"}, {"text", text}});
    } else if (type == "tool_result") {
      if (!block.contains("tool_use_id") || !block["tool_use_id"].is_string()) {
        return Problem{where + ".tool_use_id must be a string.", "messages"};
      }
      std::string text;
      if (block.contains("content") && !block["content"].is_null()) {
        if (Found problem = read_text(block["content"], where + ".content", "messages", text)) {
          return problem;
        }
      }
      if (block.contains("is_error") && !block["is_error"].is_boolean()) {
        return Problem{where + ".is_error must be a boolean.", "messages"};
      }
      // Templates have no field for a failed call; the text says it.
      if (block.value("is_error", false)) text = "Error: " + text;
      flush_text();
      out.push_back({{"role", "tool"}, {"tool_call_id", block["tool_use_id"]}, {"content", text}});
    } else if (type == "image" || type == "document") {
      return refuse_media(type, where);
    } else if (type.empty()) {
      return Problem{where + " must be an object with a string 'type'.", "messages"};
    } else {
      return Problem{where + " has type '" + type + "', which a user turn cannot hold.",
                     "messages"};
    }
  }
  flush_text();
  return std::nullopt;
}

// An assistant turn: text, tool_use blocks as calls, thinking as the
// reasoning the templates read back (reasoning_content).
Found translate_assistant(const json& content, const std::string& at, json& out) {
  std::string text, reasoning;
  json calls = json::array();
  for (size_t i = 0; i < content.size(); ++i) {
    const json& block = content[i];
    const std::string where = at + ".content[" + std::to_string(i) + "]";
    const std::string type = string_field(block, "type");
    if (type == "text") {
      std::string piece;
      if (Found problem = read_text_block(block, where, piece)) return problem;
      text += piece;
    } else if (type == "tool_use") {
      if (!block.contains("id") || !block["id"].is_string() || !block.contains("name") ||
          !block["name"].is_string()) {
        return Problem{where + " needs a string 'id' and 'name'.", "messages"};
      }
      if (!block.contains("input") || !block["input"].is_object()) {
        return Problem{where + ".input must be an object.", "messages"};
      }
      calls.push_back(
          {{"id", block["id"]},
           {"type", "function"},
           {"function", {{"name", block["name"]}, {"arguments", block["input"].dump()}}}});
    } else if (type == "thinking") {
      if (!block.contains("thinking") || !block["thinking"].is_string()) {
        return Problem{where + ".thinking must be a string.", "messages"};
      }
      reasoning += block["thinking"].get<std::string>();
    } else if (type == "redacted_thinking") {
      continue;  // nothing a local model can read back
    } else if (type.empty()) {
      return Problem{where + " must be an object with a string 'type'.", "messages"};
    } else {
      return Problem{where + " has type '" + type + "', which an assistant turn cannot hold.",
                     "messages"};
    }
  }
  json message = {{"role", "assistant"}, {"content", text}};
  if (!calls.empty()) {
    if (text.empty()) message["content"] = nullptr;
    message["tool_calls"] = std::move(calls);
  }
  if (!reasoning.empty()) message["reasoning_content"] = reasoning;
  out.push_back(std::move(message));
  return std::nullopt;
}

Found translate_messages(const json& body, json& out) {
  auto it = body.find("messages");
  if (it == body.end()) return Problem{"'messages' is required.", "messages"};
  if (!it->is_array() || it->empty()) {
    return Problem{"'messages' must be a non-empty list.", "messages"};
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const json& message = (*it)[i];
    const std::string at = "messages[" + std::to_string(i) + "]";
    if (!message.is_object() || !message.contains("role") || !message["role"].is_string()) {
      return Problem{at + " must be an object with a string 'role'.", "messages"};
    }
    const std::string role = message["role"];
    if (role != "user" && role != "assistant" && role != "system") {
      return Problem{at + ".role must be 'user', 'assistant' or 'system'.", "messages"};
    }
    if (!message.contains("content")) return Problem{at + ".content is required.", "messages"};
    if (role == "system") {
      // A system turn between the others (Claude Code's reminders): its text.
      std::string text;
      if (Found problem = read_text(message["content"], at + ".content", "messages", text)) {
        return problem;
      }
      out.push_back({{"role", "system"}, {"content", text}});
      continue;
    }
    const json& content = message["content"];
    if (content.is_string()) {
      out.push_back({{"role", role}, {"content", content}});
      continue;
    }
    if (!content.is_array()) {
      return Problem{at + ".content must be a string or a list of content blocks.", "messages"};
    }
    // As Anthropic's API: only a last assistant turn (a reply begun for
    // the model) may be empty.
    if (content.empty() && !(role == "assistant" && i + 1 == it->size())) {
      return Problem{at + ".content must not be empty: only a final assistant turn may be.",
                     "messages"};
    }
    Found problem =
        role == "user" ? translate_user(content, at, out) : translate_assistant(content, at, out);
    if (problem) return problem;
  }
  return std::nullopt;
}

Found translate_system(const json& body, json& messages) {
  const json* it = given(body, "system");
  if (it == nullptr) return std::nullopt;
  std::string text;
  if (Found problem = read_text(*it, "system", "system", text)) return problem;
  messages.push_back({{"role", "system"}, {"content", text}});
  return std::nullopt;
}

// Custom tools; Anthropic's server tools (web search, code execution...)
// are not something a local model runs.
Found translate_tools(const json& body, json& openai) {
  const json* it = given(body, "tools");
  if (it == nullptr) return std::nullopt;
  if (!it->is_array()) return Problem{"'tools' must be a list.", "tools"};
  json tools = json::array();
  for (size_t i = 0; i < it->size(); ++i) {
    const json& tool = (*it)[i];
    const std::string at = "tools[" + std::to_string(i) + "]";
    if (!tool.is_object()) return Problem{at + " must be an object.", "tools"};
    if (tool.contains("type") && tool["type"] != "custom") {
      return Problem{at + " is of type " + tool["type"].dump() +
                         ", which this server does not run; only custom tools (name, "
                         "description, input_schema) are supported.",
                     "tools"};
    }
    if (!tool.contains("name") || !tool["name"].is_string()) {
      return Problem{at + ".name must be a string.", "tools"};
    }
    if (!tool.contains("input_schema") || !tool["input_schema"].is_object()) {
      return Problem{at + ".input_schema must be a JSON Schema object.", "tools"};
    }
    json function = {{"name", tool["name"]}, {"parameters", tool["input_schema"]}};
    if (tool.contains("description")) {
      if (!tool["description"].is_string()) {
        return Problem{at + ".description must be a string.", "tools"};
      }
      function["description"] = tool["description"];
    }
    tools.push_back({{"type", "function"}, {"function", std::move(function)}});
  }
  if (!tools.empty()) openai["tools"] = std::move(tools);
  return std::nullopt;
}

// auto, any (a call is required), tool (that one), none; and
// disable_parallel_tool_use.
Found translate_tool_choice(const json& body, json& openai) {
  const json* it = given(body, "tool_choice");
  if (it == nullptr) return std::nullopt;
  const std::string type = string_field(*it, "type");
  if (type == "auto") {
    openai["tool_choice"] = "auto";
  } else if (type == "any") {
    openai["tool_choice"] = "required";
  } else if (type == "none") {
    openai["tool_choice"] = "none";
  } else if (type == "tool") {
    if (!it->contains("name") || !(*it)["name"].is_string()) {
      return Problem{"tool_choice.name must be a string for type 'tool'.", "tool_choice"};
    }
    openai["tool_choice"] = {{"type", "function"}, {"function", {{"name", (*it)["name"]}}}};
  } else {
    return Problem{"tool_choice.type must be one of auto, any, tool, none.", "tool_choice"};
  }
  if (auto parallel = it->find("disable_parallel_tool_use"); parallel != it->end()) {
    if (!parallel->is_boolean()) {
      return Problem{"tool_choice.disable_parallel_tool_use must be a boolean.", "tool_choice"};
    }
    if (type != "none") openai["parallel_tool_calls"] = !parallel->get<bool>();
  }
  return std::nullopt;
}

// Each generated token is checked against every stop string: their number
// is bounded so that one request cannot slow every stream.
constexpr size_t kMaxStopSequences = 256;

Found translate_stop_sequences(const json& body, std::vector<std::string>& stop) {
  const json* it = given(body, "stop_sequences");
  if (it == nullptr) return std::nullopt;
  if (!it->is_array())
    return Problem{"'stop_sequences' must be a list of strings.", "stop_sequences"};
  if (it->size() > kMaxStopSequences) {
    return Problem{
        "'stop_sequences' may hold at most " + std::to_string(kMaxStopSequences) + " strings.",
        "stop_sequences"};
  }
  for (const json& sequence : *it) {
    if (!sequence.is_string() || sequence.get<std::string>().empty()) {
      return Problem{"'stop_sequences' must hold non-empty strings.", "stop_sequences"};
    }
    stop.push_back(sequence.get<std::string>());
  }
  return std::nullopt;
}

// output_config.effort (low, medium, high, xhigh, max) as the chat
// request's reasoning_effort, which bounds adaptive thinking.
Found read_effort(const json& body, std::optional<std::string>& effort) {
  const json* config = given(body, "output_config");
  if (config == nullptr) return std::nullopt;
  if (!config->is_object()) return Problem{"'output_config' must be an object.", "output_config"};
  const json* given_effort = given(*config, "effort");
  if (given_effort == nullptr) return std::nullopt;
  static constexpr std::string_view kEfforts[] = {"low", "medium", "high", "xhigh", "max"};
  const bool known = given_effort->is_string() &&
                     std::find(std::begin(kEfforts), std::end(kEfforts),
                               given_effort->get<std::string>()) != std::end(kEfforts);
  if (!known) {
    return Problem{"output_config.effort must be one of low, medium, high, xhigh, max.",
                   "output_config"};
  }
  const std::string value = given_effort->get<std::string>();
  effort = value == "low" || value == "medium" ? value : "high";
  return std::nullopt;
}

// enabled (with budget_tokens, at least 1024 and below max_tokens, as
// Anthropic asks), adaptive (the model decides, bounded by
// output_config.effort) or disabled; the template's enable_thinking switch.
// `display` is read, not acted on: the reasoning is always given whole.
Found translate_thinking(const json& body, json& openai) {
  std::optional<std::string> effort;
  if (Found problem = read_effort(body, effort)) return problem;
  const json* it = given(body, "thinking");
  // Without `thinking` Anthropic's models do not think: as "disabled".
  const std::string type = it == nullptr ? "disabled" : string_field(*it, "type");
  if (type == "disabled") {
    openai["chat_template_kwargs"] = {{"enable_thinking", false}};
    // Templates that ignore enable_thinking may still open a block: it
    // closes at once.
    openai["reasoning_budget"] = 0;
    return std::nullopt;
  }
  if (const json* display = given(*it, "display");
      display != nullptr && *display != "summarized" && *display != "omitted") {
    return Problem{"thinking.display must be 'summarized' or 'omitted'.", "thinking"};
  }
  if (type == "adaptive") {
    openai["chat_template_kwargs"] = {{"enable_thinking", true}};
    if (effort) openai["reasoning_effort"] = *effort;
    return std::nullopt;
  }
  if (type != "enabled") {
    return Problem{"thinking.type must be 'enabled', 'adaptive' or 'disabled'.", "thinking"};
  }
  auto tokens = it->find("budget_tokens");
  if (tokens == it->end() || !tokens->is_number_integer() || tokens->get<int64_t>() < 1024) {
    return Problem{"thinking.budget_tokens must be an integer of at least 1024.", "thinking"};
  }
  if (auto max = body.find("max_tokens"); max != body.end() && max->is_number_integer() &&
                                          tokens->get<int64_t>() >= max->get<int64_t>()) {
    return Problem{"thinking.budget_tokens must be less than max_tokens.", "thinking"};
  }
  openai["reasoning_budget"] = *tokens;
  openai["chat_template_kwargs"] = {{"enable_thinking", true}};
  return std::nullopt;
}

Found check_max_tokens(const json& body, MessagesCall call) {
  // null is no value: it must not pass for one and generate to the end of the context.
  if (call == MessagesCall::kCountTokens || given(body, "max_tokens")) return std::nullopt;
  return Problem{"'max_tokens' is required.", "max_tokens"};
}

Found check_temperature(const json& body) {
  auto it = body.find("temperature");
  if (it == body.end() || !it->is_number()) return std::nullopt;  // the chat checks say the rest
  const double t = it->get<double>();
  if (t < 0.0 || t > 1.0) return Problem{"'temperature' must be between 0 and 1.", "temperature"};
  return std::nullopt;
}

Found check_metadata(const json& body) {
  const json* it = given(body, "metadata");
  if (it == nullptr || it->is_object()) return std::nullopt;
  return Problem{"'metadata' must be an object.", "metadata"};
}

// The fields both dialects name alike, copied as they are; `seed` is an
// extension (as on the chat route), for replies that can be repeated.
void copy_shared_fields(const json& body, json& openai, MessagesCall call) {
  // ingot's own diffusion fields ride along, refused as on the chat route.
  for (const char* name : {"model", "temperature", "top_p", "top_k", "stream", "seed",
                           "diffusion_steps", "diffusion_entropy_bound"}) {
    if (auto it = body.find(name); it != body.end()) openai[name] = *it;
  }
  if (call == MessagesCall::kCreate) openai["max_tokens"] = body["max_tokens"];
}

}  // namespace

ChatRequestOrError parse_messages_request(const json& body, const RequestLimits& limits,
                                          MessagesCall call) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  json openai = json::object();
  json messages = json::array();
  std::vector<std::string> stop;
  Found problem = check_max_tokens(body, call);
  if (!problem) problem = translate_system(body, messages);
  if (!problem) problem = translate_messages(body, messages);
  if (!problem) problem = translate_tools(body, openai);
  if (!problem) problem = translate_tool_choice(body, openai);
  if (!problem) problem = translate_stop_sequences(body, stop);
  if (!problem) problem = check_temperature(body);
  if (!problem) problem = translate_thinking(body, openai);
  if (!problem) problem = check_metadata(body);
  if (problem) return invalid_request(std::move(problem->message), std::move(problem->param));
  copy_shared_fields(body, openai, call);
  openai["messages"] = std::move(messages);
  ChatRequestOrError chat = parse_chat_request(openai, limits);
  if (auto* request = std::get_if<ChatRequest>(&chat)) request->stop = std::move(stop);
  return chat;
}

}  // namespace ingot::server::anthropic
