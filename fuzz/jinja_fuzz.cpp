// The Jinja lexer, parser and interpreter on an arbitrary template,
// rendered with messages, tools and a generation prompt as a chat request
// would render it.

#include <cstdint>
#include <string_view>

#include "chat/chat_template.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot::chat;
  std::string_view source(reinterpret_cast<const char*>(data), size);
  auto parsed = ChatTemplate::parse(source);
  if (!parsed.ok()) return 0;
  static const ChatPromptInput input = [] {
    ChatPromptInput in;
    in.messages = nlohmann::ordered_json::parse(R"([
      {"role": "system", "content": "Be brief."},
      {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
      {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
        "function": {"name": "get", "arguments": "{\"city\": \"Paris\"}"}}]},
      {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
      {"role": "user", "content": "Thanks"}])");
    in.tools = nlohmann::ordered_json::parse(R"([{"type": "function", "function": {"name": "get",
      "description": "d", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}])");
    in.bos_token = "<s>";
    in.eos_token = "</s>";
    in.fixed_now = 0;
    return in;
  }();
  (void)parsed->render(input);
  return 0;
}
