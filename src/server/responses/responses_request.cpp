#include "server/responses/responses_request.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "server/body_fields.h"
#include "server/random_id.h"

namespace ingot::server::responses {
namespace {

using json = ordered_json;

using Problem = BodyProblem;
using Found = FoundProblem;

// An item's type; a message may leave it out ({"role", "content"}).
std::string item_type(const json& item) {
  std::string type = string_field(item, "type");
  if (type.empty() && item.contains("role")) return "message";
  return type;
}

Found refuse_unsupported(const json& body) {
  if (const json* background = given(body, "background");
      background != nullptr && *background != false) {
    return Problem{"'background' responses are not supported by this server.", "background"};
  }
  for (const char* name : {"conversation", "prompt", "max_tool_calls"}) {
    if (given(body, name) != nullptr) {
      return Problem{std::string("'") + name + "' is not supported by this server.", name};
    }
  }
  if (const json* truncation = given(body, "truncation");
      truncation != nullptr && *truncation != "disabled") {
    return Problem{"'truncation' must be 'disabled': this server does not drop input to fit.",
                   "truncation"};
  }
  return std::nullopt;
}

// The text of a message's content: a string, or parts of text (input_text,
// output_text, refusal); images, files and audio are refused on a text
// model.
Found read_content(const json& content, const std::string& at, std::string& text) {
  if (content.is_string()) {
    text = content.get<std::string>();
    return std::nullopt;
  }
  if (!content.is_array()) return Problem{at + " must be a string or a list of parts.", "input"};
  for (size_t i = 0; i < content.size(); ++i) {
    const json& part = content[i];
    const std::string where = at + "[" + std::to_string(i) + "]";
    const std::string type = string_field(part, "type");
    if (type == "input_image" || type == "input_file" || type == "input_audio") {
      return Problem{where + " is of type '" + type + "', which this text-only model cannot read.",
                     "input"};
    }
    const char* field = type == "refusal" ? "refusal" : "text";
    if (type != "input_text" && type != "output_text" && type != "refusal") {
      return Problem{where + " must be an input_text, output_text or refusal part.", "input"};
    }
    if (!part.contains(field) || !part[field].is_string()) {
      return Problem{where + "." + field + " must be a string.", "input"};
    }
    text += part[field].get<std::string>();
  }
  return std::nullopt;
}

// Turns items into chat messages: function calls join the assistant turn
// before them, reasoning rides on the assistant turn after it.
class ItemTranslator {
 public:
  Found add(const json& item, const std::string& at) {
    if (!item.is_object()) return Problem{at + " must be an object.", "input"};
    const std::string type = item_type(item);
    if (type == "message") return add_message(item, at);
    if (type == "function_call") return add_call(item, at);
    if (type == "function_call_output") return add_call_output(item, at);
    if (type == "reasoning") return add_reasoning(item, at);
    if (type.empty()) return Problem{at + " needs a 'type' (or a 'role').", "input"};
    return Problem{at + " is of type '" + type + "', which this server does not take as input.",
                   "input"};
  }

  json take() { return std::move(messages_); }

 private:
  Found add_message(const json& item, const std::string& at) {
    const std::string role = string_field(item, "role");
    static constexpr std::string_view kRoles[] = {"user", "system", "developer", "assistant"};
    if (std::find(std::begin(kRoles), std::end(kRoles), role) == std::end(kRoles)) {
      return Problem{at + ".role must be one of user, system, developer, assistant.", "input"};
    }
    if (!item.contains("content")) return Problem{at + ".content is required.", "input"};
    std::string text;
    if (Found problem = read_content(item["content"], at + ".content", text)) return problem;
    json message = {{"role", role}, {"content", text}};
    if (role == "assistant") take_reasoning(message);
    messages_.push_back(std::move(message));
    return std::nullopt;
  }

  Found add_call(const json& item, const std::string& at) {
    for (const char* name : {"call_id", "name", "arguments"}) {
      if (!item.contains(name) || !item[name].is_string()) {
        return Problem{at + "." + name + " must be a string.", "input"};
      }
    }
    std::string name = item["name"];
    if (auto space = item.find("namespace"); space != item.end() && space->is_string()) {
      name = flat_tool_name(space->get<std::string>(), name);
    }
    json call = {{"id", item["call_id"]},
                 {"type", "function"},
                 {"function", {{"name", name}, {"arguments", item["arguments"]}}}};
    if (messages_.empty() || messages_.back()["role"] != "assistant") {
      messages_.push_back({{"role", "assistant"}, {"content", nullptr}});
    }
    json& turn = messages_.back();
    take_reasoning(turn);
    if (!turn.contains("tool_calls")) turn["tool_calls"] = json::array();
    turn["tool_calls"].push_back(std::move(call));
    if (turn["content"] == "") turn["content"] = nullptr;
    return std::nullopt;
  }

  Found add_call_output(const json& item, const std::string& at) {
    if (!item.contains("call_id") || !item["call_id"].is_string()) {
      return Problem{at + ".call_id must be a string.", "input"};
    }
    if (!item.contains("output")) return Problem{at + ".output is required.", "input"};
    std::string text;
    if (Found problem = read_content(item["output"], at + ".output", text)) return problem;
    messages_.push_back({{"role", "tool"}, {"tool_call_id", item["call_id"]}, {"content", text}});
    return std::nullopt;
  }

  // Its reasoning_text content, else its summary: what the templates read
  // back as reasoning_content.
  Found add_reasoning(const json& item, const std::string& at) {
    std::string text;
    for (const char* field : {"content", "summary"}) {
      const json* parts = given(item, field);
      if (parts == nullptr) continue;
      if (!parts->is_array()) return Problem{at + "." + field + " must be a list.", "input"};
      for (const json& part : *parts) {
        if (!part.is_object() || !part.contains("text") || !part["text"].is_string()) {
          return Problem{at + "." + field + " must hold parts with a string 'text'.", "input"};
        }
        if (text.empty() || std::string_view(field) == "content") {
          text += part["text"].get<std::string>();
        }
      }
      if (!text.empty()) break;
    }
    reasoning_ += text;
    return std::nullopt;
  }

  void take_reasoning(json& assistant) {
    if (reasoning_.empty()) return;
    assistant["reasoning_content"] = std::move(reasoning_);
    reasoning_.clear();
  }

  json messages_ = json::array();
  std::string reasoning_;
};

std::string_view id_prefix(const std::string& type) {
  if (type == "function_call") return "fc_";
  if (type == "function_call_output") return "fco_";
  if (type == "reasoning") return "rs_";
  return "msg_";
}

// An input item as the input_items route lists it: its type written out,
// string content as an input_text (or, from the assistant, output_text)
// part, and an id.
json normalized(json item) {
  const std::string type = item_type(item);
  item["type"] = type;
  if (type == "message" && item["content"].is_string()) {
    const bool assistant = item["role"] == "assistant";
    json part = {{"type", assistant ? "output_text" : "input_text"}, {"text", item["content"]}};
    if (assistant) part["annotations"] = json::array();
    item["content"] = json::array({std::move(part)});
  }
  if (!item.contains("id") || !item["id"].is_string()) {
    item["id"] = random_id(id_prefix(type), 32);
  }
  return item;
}

Found read_input(const json& body, json& items) {
  const json* input = given(body, "input");
  if (input == nullptr) return Problem{"'input' is required.", "input"};
  if (input->is_string()) {
    items.push_back(normalized({{"type", "message"}, {"role", "user"}, {"content", *input}}));
    return std::nullopt;
  }
  if (!input->is_array() || input->empty()) {
    return Problem{"'input' must be a string or a non-empty list of items.", "input"};
  }
  for (const json& item : *input) items.push_back(item);
  return std::nullopt;
}

Found translate_conversation(const json& conversation, size_t first_input, json& messages) {
  ItemTranslator translator;
  for (size_t i = 0; i < conversation.size(); ++i) {
    const std::string at = i < first_input ? "previous_response_id's item " + std::to_string(i)
                                           : "input[" + std::to_string(i - first_input) + "]";
    if (Found problem = translator.add(conversation[i], at)) return problem;
  }
  for (json& message : translator.take()) messages.push_back(std::move(message));
  return std::nullopt;
}

Found translate_instructions(const json& body, json& messages) {
  const json* instructions = given(body, "instructions");
  if (instructions == nullptr) return std::nullopt;
  if (!instructions->is_string())
    return Problem{"'instructions' must be a string.", "instructions"};
  messages.push_back({{"role", "system"}, {"content", *instructions}});
  return std::nullopt;
}

std::string tool_type(const json& tool) {
  return string_field(tool, "type");
}

Found refuse_tool_type(const std::string& at, const std::string& type) {
  return Problem{at + " is of type '" + type +
                     "', which this server does not run; only function tools (and namespaces "
                     "of them) are supported.",
                 "tools"};
}

// A function tool ({type, name, description, parameters, strict}) in the
// chat request's nesting, under `name`.
json chat_tool(const json& tool, const json& name) {
  json function = {{"name", name}};
  for (const char* field : {"description", "parameters", "strict"}) {
    if (const json* value = given(tool, field)) function[field] = *value;
  }
  return {{"type", "function"}, {"function", std::move(function)}};
}

// A namespace's functions, each under its flat name.
Found add_namespace(const json& space, const std::string& at, json& out,
                    ToolNamespaces& namespaces) {
  const std::string name = string_field(space, "name");
  if (name.empty()) return Problem{at + ".name must be a non-empty string.", "tools"};
  const json* tools = given(space, "tools");
  if (tools == nullptr || !tools->is_array()) {
    return Problem{at + ".tools must be a list of function tools.", "tools"};
  }
  for (size_t i = 0; i < tools->size(); ++i) {
    const json& tool = (*tools)[i];
    const std::string where = at + ".tools[" + std::to_string(i) + "]";
    if (const std::string type = tool_type(tool); type != "function") {
      return refuse_tool_type(where, type);
    }
    const std::string function = string_field(tool, "name");
    if (function.empty()) return Problem{where + ".name must be a non-empty string.", "tools"};
    const std::string flat = flat_tool_name(name, function);
    namespaces[flat] = {name, function};
    out.push_back(chat_tool(tool, flat));
  }
  return std::nullopt;
}

// Function tools and namespaces of them, in the chat request's nesting.
// Hosted tools (web_search, file_search...) are not something a local
// model runs: they are left out of the prompt and named in `dropped`, so
// that a client sending one by default (Codex) still works.
Found translate_tools(const json& body, json& openai, ToolNamespaces& namespaces,
                      std::vector<std::string>& dropped) {
  const json* tools = given(body, "tools");
  if (tools == nullptr) return std::nullopt;
  if (!tools->is_array()) return Problem{"'tools' must be a list.", "tools"};
  json out = json::array();
  for (size_t i = 0; i < tools->size(); ++i) {
    const json& tool = (*tools)[i];
    const std::string at = "tools[" + std::to_string(i) + "]";
    const std::string type = tool_type(tool);
    if (type == "namespace") {
      if (Found problem = add_namespace(tool, at, out, namespaces)) return problem;
    } else if (type == "function") {
      out.push_back(chat_tool(tool, tool.contains("name") ? tool["name"] : json(nullptr)));
    } else if (type.empty()) {
      return Problem{at + " must be an object with a string 'type'.", "tools"};
    } else {
      dropped.push_back(type);
    }
  }
  if (!out.empty()) openai["tools"] = std::move(out);
  return std::nullopt;
}

Found translate_tool_choice(const json& body, json& openai) {
  const json* choice = given(body, "tool_choice");
  if (choice == nullptr) return std::nullopt;
  if (choice->is_string()) {
    openai["tool_choice"] = *choice;
    return std::nullopt;
  }
  if (!choice->is_object() || string_field(*choice, "type") != "function" ||
      string_field(*choice, "name").empty()) {
    return Problem{"'tool_choice' must be auto, none, required or {type: 'function', name}.",
                   "tool_choice"};
  }
  openai["tool_choice"] = {{"type", "function"}, {"function", {{"name", (*choice)["name"]}}}};
  return std::nullopt;
}

// text.format: text, json_object, or json_schema {name, schema, strict}
// (flat, where chat completions nest it).
Found translate_text(const json& body, json& openai) {
  const json* text = given(body, "text");
  if (text == nullptr) return std::nullopt;
  if (!text->is_object()) return Problem{"'text' must be an object.", "text"};
  const json* format = given(*text, "format");
  if (format == nullptr) return std::nullopt;
  const std::string type = string_field(*format, "type");
  if (type == "text" || type == "json_object") {
    openai["response_format"] = {{"type", type}};
  } else if (type == "json_schema") {
    json schema = json::object();
    for (const char* name : {"name", "description", "schema", "strict"}) {
      if (const json* value = given(*format, name)) schema[name] = *value;
    }
    openai["response_format"] = {{"type", "json_schema"}, {"json_schema", std::move(schema)}};
  } else {
    return Problem{"text.format.type must be text, json_object or json_schema.", "text.format"};
  }
  return std::nullopt;
}

Found translate_reasoning(const json& body, json& openai) {
  const json* reasoning = given(body, "reasoning");
  if (reasoning == nullptr) return std::nullopt;
  if (!reasoning->is_object()) return Problem{"'reasoning' must be an object.", "reasoning"};
  if (const json* effort = given(*reasoning, "effort")) openai["reasoning_effort"] = *effort;
  return std::nullopt;
}

Found check_response_fields(const json& body, bool& store) {
  if (const json* value = given(body, "store")) {
    if (!value->is_boolean()) return Problem{"'store' must be a boolean.", "store"};
    store = value->get<bool>();
  }
  if (const json* metadata = given(body, "metadata")) {
    if (!metadata->is_object() || metadata->size() > 16) {
      return Problem{"'metadata' must be an object of at most 16 keys.", "metadata"};
    }
    for (const auto& [key, value] : metadata->items()) {
      if (key.size() > 64 || !value.is_string() || value.get<std::string>().size() > 512) {
        return Problem{
            "'metadata' keys are at most 64 characters and values strings of at most 512.",
            "metadata"};
      }
    }
  }
  if (const json* include = given(body, "include")) {
    if (!include->is_array() || !std::all_of(include->begin(), include->end(),
                                             [](const json& v) { return v.is_string(); })) {
      return Problem{"'include' must be a list of strings.", "include"};
    }
  }
  return std::nullopt;
}

// The chat request's fields under their Responses names.
Found copy_generation_fields(const json& body, json& openai) {
  for (const char* name : {"model", "temperature", "top_p", "top_k", "seed", "stream",
                           "parallel_tool_calls", "diffusion_steps", "diffusion_entropy_bound"}) {
    if (auto it = body.find(name); it != body.end()) openai[name] = *it;
  }
  if (const json* max = given(body, "max_output_tokens")) openai["max_tokens"] = *max;
  return std::nullopt;
}

// The chat checks name the chat request's fields; the client sent these.
ApiError in_responses_terms(ApiError error) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"messages", "input"},
      {"max_tokens", "max_output_tokens"},
      {"response_format", "text.format"},
      {"reasoning_effort", "reasoning.effort"}};
  for (const auto& [chat, responses] : kNames) {
    if (error.param && *error.param == chat) error.param = responses;
    // The message quotes the field too: 'max_tokens' must be...
    const std::string quoted = std::string("'") + chat + "'";
    for (size_t at = error.message.find(quoted); at != std::string::npos;
         at = error.message.find(quoted, at)) {
      error.message.replace(at, quoted.size(), std::string("'") + responses + "'");
      at += std::strlen(responses) + 2;
    }
  }
  return error;
}

// What the response object repeats of the request, with the API's defaults.
json settings_of(const json& body, const std::optional<std::string>& previous, bool store) {
  auto value_or = [&body](const char* name, json fallback) {
    const json* value = given(body, name);
    return value != nullptr ? *value : fallback;
  };
  json reasoning = {{"effort", nullptr}, {"summary", nullptr}};
  if (const json* given_reasoning = given(body, "reasoning")) {
    if (const json* effort = given(*given_reasoning, "effort")) reasoning["effort"] = *effort;
  }
  json text = {{"format", {{"type", "text"}}}};
  if (const json* given_text = given(body, "text"); given_text && given_text->contains("format")) {
    text["format"] = (*given_text)["format"];
  }
  return {{"instructions", value_or("instructions", nullptr)},
          {"max_output_tokens", value_or("max_output_tokens", nullptr)},
          {"metadata", value_or("metadata", json::object())},
          {"parallel_tool_calls", value_or("parallel_tool_calls", true)},
          {"previous_response_id", previous ? json(*previous) : json(nullptr)},
          {"reasoning", std::move(reasoning)},
          {"store", store},
          {"temperature", value_or("temperature", 1.0)},
          {"text", std::move(text)},
          {"tool_choice", value_or("tool_choice", "auto")},
          {"tools", value_or("tools", json::array())},
          {"top_p", value_or("top_p", 1.0)},
          {"truncation", "disabled"}};
}

}  // namespace

std::variant<std::optional<std::string>, ApiError> read_previous_response_id(const json& body) {
  if (!body.is_object()) return std::optional<std::string>();
  const json* id = given(body, "previous_response_id");
  if (id == nullptr) return std::optional<std::string>();
  if (!id->is_string() || id->get<std::string>().empty()) {
    return invalid_request("'previous_response_id' must be a non-empty string.",
                           "previous_response_id");
  }
  return std::optional<std::string>(id->get<std::string>());
}

ResponsesRequestOrError parse_responses_request(const json& body, const RequestLimits& limits,
                                                const json& prior) {
  if (!body.is_object()) return invalid_request("The request body must be a JSON object.");
  auto previous = read_previous_response_id(body);
  if (auto* error = std::get_if<ApiError>(&previous)) return std::move(*error);
  ResponsesRequest request;
  request.previous_response_id = std::get<std::optional<std::string>>(previous);
  json openai = json::object();
  json messages = json::array();
  json input = json::array();
  Found problem = refuse_unsupported(body);
  if (!problem) problem = read_input(body, input);
  if (!problem) problem = translate_instructions(body, messages);
  request.conversation = prior;
  for (const json& item : input) request.conversation.push_back(item);
  if (!problem) problem = translate_conversation(request.conversation, prior.size(), messages);
  if (!problem) {
    problem = translate_tools(body, openai, request.tool_namespaces, request.dropped_tools);
  }
  if (!problem) problem = translate_tool_choice(body, openai);
  if (!problem) problem = translate_text(body, openai);
  if (!problem) problem = translate_reasoning(body, openai);
  if (!problem) problem = check_response_fields(body, request.store);
  if (!problem) problem = copy_generation_fields(body, openai);
  if (problem) return invalid_request(std::move(problem->message), std::move(problem->param));
  openai["messages"] = std::move(messages);
  ChatRequestOrError chat = parse_chat_request(openai, limits);
  if (auto* error = std::get_if<ApiError>(&chat)) return in_responses_terms(std::move(*error));
  request.chat = std::move(std::get<ChatRequest>(chat));
  for (json& item : input) request.input_items.push_back(normalized(std::move(item)));
  request.conversation = prior;
  for (const json& item : request.input_items) request.conversation.push_back(item);
  request.settings = settings_of(body, request.previous_response_id, request.store);
  return request;
}

}  // namespace ingot::server::responses
