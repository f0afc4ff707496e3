#pragma once
// Chat prompts from OpenAI-shaped messages, rendered with a model's Jinja2
// chat template the way transformers' apply_chat_template renders them.
// A ChatTemplate is parsed once (at model load) and rendered for every
// request; rendering is const and safe from several threads.

#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "chat/jinja/template.h"
#include "util/status.h"

namespace ingot::chat {

struct ChatPromptInput {
  // OpenAI messages: role system/developer/user/assistant/tool; content a
  // string, null or a list of parts; assistant tool_calls (arguments as a
  // JSON string or an object) and reasoning_content; tool_call_id.
  // ordered_json keeps key order, which `tojson` output depends on.
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();
  nlohmann::ordered_json tools;  // null or absent: no tools
  bool add_generation_prompt = true;
  std::string bos_token;
  std::string eos_token;
  // Extra template variables, e.g. {"enable_thinking": false}.
  nlohmann::ordered_json extra_kwargs = nlohmann::ordered_json::object();
  // Pins strftime_now() (tests); absent means the current time.
  std::optional<std::time_t> fixed_now;
};

class ChatTemplate {
 public:
  static Result<ChatTemplate> parse(std::string_view source);

  // A template that fails on what clients commonly send (tool-call
  // arguments as objects, system turns after the first) is rendered again
  // with the messages in the shape it takes (template_accommodations.h).
  Result<std::string> render(const ChatPromptInput& input) const;

 private:
  Result<std::string> render_context(const nlohmann::ordered_json& context,
                                     const ChatPromptInput& input) const;
  explicit ChatTemplate(jinja::Template tmpl) : template_(std::move(tmpl)) {}
  jinja::Template template_;
};

// The messages as the template sees them: tool-call arguments given as a
// JSON string are parsed into objects (templates iterate them or pass them
// to tojson), as transformers expects; a string that is not valid JSON is
// left as it is. An assistant turn with tool_calls and no content gets
// content "" (templates use it as a string).
nlohmann::ordered_json normalize_messages(const nlohmann::ordered_json& messages);

// The template variables for `input`, as JSON (the parity test hands the
// same context to Python's Jinja2).
nlohmann::ordered_json chat_template_context(const ChatPromptInput& input);

// Parse-and-render in one call, for callers that render a template once.
Result<std::string> render_chat_prompt(std::string_view template_source,
                                       const ChatPromptInput& input);

}  // namespace ingot::chat
