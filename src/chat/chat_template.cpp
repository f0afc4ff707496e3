#include "chat/chat_template.h"

#include "chat/jinja/json_convert.h"
#include "chat/template_accommodations.h"

namespace ingot::chat {
namespace {

void parse_tool_call_arguments(nlohmann::ordered_json& message) {
  for_each_tool_call_arguments(message, [](nlohmann::ordered_json& arguments) {
    if (!arguments.is_string()) return;
    nlohmann::ordered_json parsed =
        nlohmann::ordered_json::parse(arguments.get_ref<const std::string&>(), nullptr, false);
    if (!parsed.is_discarded()) arguments = std::move(parsed);
  });
}

}  // namespace

nlohmann::ordered_json normalize_messages(const nlohmann::ordered_json& messages) {
  nlohmann::ordered_json out = messages;
  if (!out.is_array()) return out;
  for (auto& message : out) {
    if (!message.is_object()) continue;
    parse_tool_call_arguments(message);
    // OpenAI clients send content null beside tool_calls; templates such as
    // Qwen3's test `'</think>' in message.content`, which fails on None.
    bool has_calls = message.contains("tool_calls") && !message["tool_calls"].is_null();
    if (has_calls && (!message.contains("content") || message["content"].is_null())) {
      message["content"] = "";
    }
  }
  return out;
}

nlohmann::ordered_json chat_template_context(const ChatPromptInput& input) {
  nlohmann::ordered_json context = nlohmann::ordered_json::object();
  context["messages"] = normalize_messages(input.messages);
  context["tools"] = input.tools.is_array() ? input.tools : nlohmann::ordered_json();
  context["documents"] = nullptr;
  context["add_generation_prompt"] = input.add_generation_prompt;
  context["bos_token"] = input.bos_token;
  context["eos_token"] = input.eos_token;
  if (input.extra_kwargs.is_object()) {
    for (auto it = input.extra_kwargs.begin(); it != input.extra_kwargs.end(); ++it) {
      context[it.key()] = it.value();
    }
  }
  return context;
}

Result<ChatTemplate> ChatTemplate::parse(std::string_view source) {
  Result<jinja::Template> parsed = jinja::Template::parse(source);
  if (!parsed.ok()) {
    Error error = parsed.error();
    error.add_context("while parsing the chat template");
    return error;
  }
  return ChatTemplate(std::move(parsed).value());
}

Result<std::string> ChatTemplate::render(const ChatPromptInput& input) const {
  nlohmann::ordered_json context = chat_template_context(input);
  Result<std::string> rendered = render_context(context, input);
  if (rendered.ok() || !context["messages"].is_array()) return rendered;
  // A template that refuses a shape clients send gets the shape it takes
  // (template_accommodations.h): each change alone, then both.
  nlohmann::ordered_json as_text = context;
  const bool text = arguments_as_text(as_text["messages"]);
  if (text) {
    if (Result<std::string> again = render_context(as_text, input); again.ok()) return again;
  }
  nlohmann::ordered_json first = context;
  if (!system_turns_first(first["messages"])) return rendered;
  if (Result<std::string> again = render_context(first, input); again.ok()) return again;
  if (!text) return rendered;
  arguments_as_text(first["messages"]);
  Result<std::string> again = render_context(first, input);
  return again.ok() ? again : rendered;
}

Result<std::string> ChatTemplate::render_context(const nlohmann::ordered_json& context,
                                                 const ChatPromptInput& input) const {
  jinja::Variables variables;
  variables.reserve(context.size());
  try {
    for (auto it = context.begin(); it != context.end(); ++it) {
      variables.emplace_back(it.key(), jinja::value_from_json(it.value()));
    }
  } catch (const ErrorException& error) {
    return error.error();
  }
  jinja::RenderOptions options;
  options.fixed_now = input.fixed_now;
  return template_.render(variables, options);
}

Result<std::string> render_chat_prompt(std::string_view template_source,
                                       const ChatPromptInput& input) {
  INGOT_ASSIGN_OR_RETURN(ChatTemplate chat_template, ChatTemplate::parse(template_source));
  return chat_template.render(input);
}

}  // namespace ingot::chat
