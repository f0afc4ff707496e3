// The tool-call parsers of every model family on an arbitrary reply, whole
// and streamed in pieces of varying size, with a tool schema that types
// the text-written arguments.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "chat/tool_calls/tool_call_stream.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot::chat::tool_calls;
  static const ToolSchemas kSchemas(nlohmann::ordered_json::parse(R"([
      {"type": "function", "function": {"name": "f", "parameters": {"type": "object",
        "properties": {"s": {"type": "string"}, "n": {"type": "integer"},
                       "o": {"type": "object"}, "l": {"type": "array"}}}}}])"));
  const std::vector<ToolCallFamily>& families = all_tool_call_families();
  ingot::fuzz::FuzzInput input(data, size);
  ToolCallFamily family = families[input.choice(families.size())];
  size_t piece = 1 + input.choice(16);
  std::string_view reply = input.rest();
  (void)parse_tool_calls(reply, family, ToolCallIdGenerator(1), kSchemas);
  ToolCallStreamParser stream(family, ToolCallIdGenerator(1), kSchemas);
  for (size_t at = 0; at < reply.size(); at += piece) (void)stream.push(reply.substr(at, piece));
  (void)stream.finish();
  return 0;
}
