#include "server/responses/responses_response.h"

#include <chrono>

#include "server/random_id.h"

namespace ingot::server::responses {
namespace {

namespace tools = chat::tool_calls;

ordered_json reasoning_part(std::string_view text) {
  return {{"type", "reasoning_text"}, {"text", text}};
}

ordered_json text_part(std::string_view text) {
  return {{"type", "output_text"},
          {"text", text},
          {"annotations", ordered_json::array()},
          {"logprobs", ordered_json::array()}};
}

ordered_json reasoning_item(std::string_view text) {
  ordered_json content = ordered_json::array();
  if (!text.empty()) content.push_back(reasoning_part(text));
  return {{"id", random_id("rs_", 32)},
          {"type", "reasoning"},
          {"summary", ordered_json::array()},
          {"content", std::move(content)}};
}

ordered_json message_item(std::string_view text, std::string_view status) {
  ordered_json content = ordered_json::array();
  if (status != "in_progress") content.push_back(text_part(text));
  return {{"id", random_id("msg_", 32)},
          {"type", "message"},
          {"status", status},
          {"role", "assistant"},
          {"content", std::move(content)}};
}

ordered_json call_item(const std::string& call_id, const std::string& name,
                       const std::string& arguments, std::string_view status,
                       const ToolNamespaces& namespaces) {
  ordered_json item = {{"id", random_id("fc_", 32)}, {"type", "function_call"}, {"status", status},
                       {"arguments", arguments},     {"call_id", call_id},      {"name", name}};
  if (auto it = namespaces.find(name); it != namespaces.end()) {
    item["name"] = it->second.name;
    item["namespace"] = it->second.space;
  }
  return item;
}

std::string_view status_of(const engine::FinishEvent* finish) {
  if (finish == nullptr) return "in_progress";
  return finish->reason == engine::FinishReason::kLength ? "incomplete" : "completed";
}

}  // namespace

ResponseFrame new_response_frame(std::string model, ordered_json settings,
                                 ToolNamespaces tool_namespaces) {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return {random_id("resp_", 48), std::chrono::duration_cast<std::chrono::seconds>(now).count(),
          std::move(model), std::move(settings), std::move(tool_namespaces)};
}

ordered_json usage_json(const engine::Usage& usage) {
  return {{"input_tokens", usage.prompt_tokens},
          {"input_tokens_details", {{"cached_tokens", usage.cached_tokens}}},
          {"output_tokens", usage.completion_tokens},
          {"output_tokens_details", {{"reasoning_tokens", usage.reasoning_tokens}}},
          {"total_tokens", usage.prompt_tokens + usage.completion_tokens}};
}

ordered_json response_object(const ResponseFrame& frame, const ordered_json& output,
                             const engine::FinishEvent* finish) {
  const std::string_view status = status_of(finish);
  ordered_json response;
  response["id"] = frame.id;
  response["object"] = "response";
  response["created_at"] = frame.created_at;
  response["status"] = status;
  response["background"] = false;
  response["error"] = nullptr;
  response["incomplete_details"] =
      status == "incomplete" ? ordered_json{{"reason", "max_output_tokens"}} : nullptr;
  response["model"] = frame.model;
  response["output"] = output;
  response["usage"] = finish != nullptr ? usage_json(finish->usage) : nullptr;
  for (const auto& [name, value] : frame.settings.items()) response[name] = value;
  return response;
}

ordered_json output_items(const std::string& reasoning, const tools::ParsedReply& reply,
                          const ToolNamespaces& tool_namespaces,
                          const engine::FinishEvent& finish) {
  ordered_json output = ordered_json::array();
  if (!reasoning.empty()) output.push_back(reasoning_item(reasoning));
  if (reply.content && !reply.content->empty()) {
    output.push_back(message_item(*reply.content, "completed"));
  }
  for (const tools::ToolCall& call : reply.tool_calls) {
    output.push_back(call_item(call.id, call.name, call.arguments, "completed", tool_namespaces));
  }
  // The item the token limit cut (a call's arguments may not parse) says so.
  if (status_of(&finish) == "incomplete" && !output.empty() && output.back().contains("status")) {
    output.back()["status"] = "incomplete";
  }
  return output;
}

std::vector<StreamEvent> ResponseEvents::start() {
  const ordered_json response = response_object(frame_, ordered_json::array(), nullptr);
  std::vector<StreamEvent> out;
  out.push_back(event("response.created", {{"response", response}}));
  out.push_back(event("response.in_progress", {{"response", response}}));
  return out;
}

std::vector<StreamEvent> ResponseEvents::reasoning(std::string_view text) {
  std::vector<StreamEvent> out;
  if (text.empty()) return out;
  if (open_ != Item::kReasoning) {
    open(Item::kReasoning, reasoning_item(""), out);
    item_["content"].push_back(reasoning_part(""));
    ordered_json added = place(true);
    added["part"] = reasoning_part("");
    out.push_back(event("response.content_part.added", std::move(added)));
  }
  item_["content"][0]["text"] = item_["content"][0]["text"].get<std::string>() + std::string(text);
  ordered_json delta = place(true);
  delta["delta"] = text;
  out.push_back(event("response.reasoning_text.delta", std::move(delta)));
  return out;
}

std::vector<StreamEvent> ResponseEvents::text(std::string_view text) {
  std::vector<StreamEvent> out;
  if (text.empty()) return out;
  if (open_ != Item::kMessage) {
    open(Item::kMessage, message_item("", "in_progress"), out);
    item_["content"].push_back(text_part(""));
    ordered_json added = place(true);
    added["part"] = text_part("");
    out.push_back(event("response.content_part.added", std::move(added)));
  }
  item_["content"][0]["text"] = item_["content"][0]["text"].get<std::string>() + std::string(text);
  ordered_json delta = place(true);
  delta["delta"] = text;
  delta["logprobs"] = ordered_json::array();
  out.push_back(event("response.output_text.delta", std::move(delta)));
  return out;
}

std::vector<StreamEvent> ResponseEvents::tool_call(const tools::ToolCallDelta& call) {
  std::vector<StreamEvent> out;
  if (call.id && call.name) {
    open(Item::kFunctionCall,
         call_item(*call.id, *call.name, "", "in_progress", frame_.tool_namespaces), out);
    open_call_ = call.index;
  }
  if (call.arguments.empty() || open_ != Item::kFunctionCall || open_call_ != call.index) {
    return out;
  }
  item_["arguments"] = item_["arguments"].get<std::string>() + call.arguments;
  ordered_json delta = place(false);
  delta["delta"] = call.arguments;
  out.push_back(event("response.function_call_arguments.delta", std::move(delta)));
  return out;
}

std::vector<StreamEvent> ResponseEvents::finish(const engine::FinishEvent& finish) {
  std::vector<StreamEvent> out;
  const std::string_view status = status_of(&finish);
  close(out, status);
  const std::string type = status == "incomplete" ? "response.incomplete" : "response.completed";
  out.push_back(event(type, {{"response", response_object(frame_, output_, &finish)}}));
  return out;
}

std::vector<StreamEvent> ResponseEvents::fail(const ApiError& error) {
  std::vector<StreamEvent> out;
  close(out);
  const std::string code = error.code ? *error.code : error.type;
  out.push_back(event("error", {{"code", code},
                                {"message", error.message},
                                {"param", error.param ? ordered_json(*error.param) : nullptr}}));
  ordered_json response = response_object(frame_, output_, nullptr);
  response["status"] = "failed";
  response["error"] = {{"code", code}, {"message", error.message}};
  out.push_back(event("response.failed", {{"response", std::move(response)}}));
  return out;
}

void ResponseEvents::open(Item kind, ordered_json item, std::vector<StreamEvent>& out) {
  close(out);
  open_ = kind;
  item_ = std::move(item);
  ordered_json added = {{"output_index", output_.size()}, {"item", item_}};
  out.push_back(event("response.output_item.added", std::move(added)));
}

// The .done events carry the whole text (or arguments), then the item as
// it ends, which joins the output.
void ResponseEvents::close(std::vector<StreamEvent>& out, std::string_view status) {
  if (open_ == Item::kNone) return;
  if (open_ == Item::kFunctionCall) {
    item_["status"] = status;
    ordered_json done = place(false);
    done["name"] = item_["name"];
    done["arguments"] = item_["arguments"];
    out.push_back(event("response.function_call_arguments.done", std::move(done)));
  } else {
    const bool message = open_ == Item::kMessage;
    if (message) item_["status"] = status;
    ordered_json done = place(true);
    done["text"] = item_["content"][0]["text"];
    if (message) done["logprobs"] = ordered_json::array();
    out.push_back(
        event(message ? "response.output_text.done" : "response.reasoning_text.done", done));
    ordered_json part_done = place(true);
    part_done["part"] = item_["content"][0];
    out.push_back(event("response.content_part.done", std::move(part_done)));
  }
  out.push_back(
      event("response.output_item.done", {{"output_index", output_.size()}, {"item", item_}}));
  output_.push_back(std::move(item_));
  item_ = nullptr;
  open_ = Item::kNone;
}

StreamEvent ResponseEvents::event(std::string_view type, ordered_json fields) {
  ordered_json data = {{"type", type}, {"sequence_number", sequence_++}};
  for (auto& [name, value] : fields.items()) data[name] = std::move(value);
  return {std::string(type), std::move(data)};
}

ordered_json ResponseEvents::place(bool with_content_index) const {
  ordered_json where = {{"item_id", item_["id"]}, {"output_index", output_.size()}};
  if (with_content_index) where["content_index"] = 0;
  return where;
}

}  // namespace ingot::server::responses
