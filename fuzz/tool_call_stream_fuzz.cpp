// The tool-call parsers of every model family on an arbitrary reply, whole
// and streamed in pieces of varying size.

#include <cstdint>
#include <string_view>

#include "chat/tool_calls/tool_call_stream.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ingot::chat::tool_calls;
  constexpr ToolCallFamily kFamilies[] = {ToolCallFamily::kGeneric, ToolCallFamily::kHermes,
                                          ToolCallFamily::kLlama3, ToolCallFamily::kMistralArray,
                                          ToolCallFamily::kMistralTagged};
  ingot::fuzz::FuzzInput input(data, size);
  ToolCallFamily family = kFamilies[input.choice(std::size(kFamilies))];
  size_t piece = 1 + input.choice(16);
  std::string_view reply = input.rest();
  (void)parse_tool_calls(reply, family, ToolCallIdGenerator(1));
  ToolCallStreamParser stream(family, ToolCallIdGenerator(1));
  for (size_t at = 0; at < reply.size(); at += piece) (void)stream.push(reply.substr(at, piece));
  (void)stream.finish();
  return 0;
}
