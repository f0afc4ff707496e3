#pragma once
// The JSON of Responses API replies: the response object, its output items
// (reasoning, message, function_call), and the typed events of a streamed
// one. Pure functions of what the engine produced and the request's
// settings.
//
// A stream opens each output item (response.output_item.added, and for a
// message or reasoning its content part), fills it (output_text,
// reasoning_text or function_call_arguments deltas), and closes it (the
// .done events, then response.output_item.done) before the next opens;
// response.created and response.in_progress come first, and the finished
// response last (response.completed or response.incomplete). Every event
// carries a sequence_number counting from 0. The items a stream closes are
// the items of its final response, so a client folding the events gets
// what the response says.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "chat/tool_calls/tool_call_types.h"
#include "engine/generation_request.h"
#include "server/api_error.h"
#include "server/responses/tool_namespaces.h"
#include "server/stream_event.h"

namespace ingot::server::responses {

using ordered_json = nlohmann::ordered_json;

// What every event of one response and its final object share: who it
// is, what it repeats of the request, and how its calls are named.
struct ResponseFrame {
  std::string id;  // resp_ and 48 letters and digits: the key to a stored response
  int64_t created_at = 0;
  std::string model;
  ordered_json settings;  // what the response repeats of the request
  // How calls to namespaced functions are named back ({namespace, name}).
  ToolNamespaces tool_namespaces;
};

ResponseFrame new_response_frame(std::string model, ordered_json settings,
                                 ToolNamespaces tool_namespaces = {});

// {input_tokens, input_tokens_details: {cached_tokens}, output_tokens,
// output_tokens_details: {reasoning_tokens}, total_tokens}
ordered_json usage_json(const engine::Usage& usage);

// The response object: status in_progress, completed (the reply ended by
// itself) or incomplete (max_output_tokens); usage once finished.
ordered_json response_object(const ResponseFrame& frame, const ordered_json& output,
                             const engine::FinishEvent* finish);

// The output of a whole reply: its reasoning, its text, its calls; the
// last item incomplete when max_output_tokens cut it.
ordered_json output_items(const std::string& reasoning, const chat::tool_calls::ParsedReply& reply,
                          const ToolNamespaces& tool_namespaces, const engine::FinishEvent& finish);

using StreamEvent = server::StreamEvent;

class ResponseEvents {
 public:
  explicit ResponseEvents(ResponseFrame frame) : frame_(std::move(frame)) {}

  // response.created and response.in_progress.
  std::vector<StreamEvent> start();
  std::vector<StreamEvent> reasoning(std::string_view text);
  std::vector<StreamEvent> text(std::string_view text);
  std::vector<StreamEvent> tool_call(const chat::tool_calls::ToolCallDelta& delta);
  // Closes the open item; response.completed or response.incomplete.
  std::vector<StreamEvent> finish(const engine::FinishEvent& finish);
  // An error once the stream has begun: an error event, then
  // response.failed.
  std::vector<StreamEvent> fail(const ApiError& error);

  // The items closed so far: after finish, the response's whole output.
  const ordered_json& output() const { return output_; }

 private:
  enum class Item { kNone, kReasoning, kMessage, kFunctionCall };

  void open(Item kind, ordered_json item, std::vector<StreamEvent>& out);
  // Ends the open item; `status` is what it ends as.
  void close(std::vector<StreamEvent>& out, std::string_view status = "completed");
  StreamEvent event(std::string_view type, ordered_json fields);
  // output_index, item_id and, for a part, content_index.
  ordered_json place(bool with_content_index) const;

  ResponseFrame frame_;
  int64_t sequence_ = 0;
  ordered_json output_ = ordered_json::array();
  Item open_ = Item::kNone;
  ordered_json item_;  // the open item, its text or arguments as far as they came
  size_t open_call_ = 0;
};

}  // namespace ingot::server::responses
