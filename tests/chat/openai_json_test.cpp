// Tool calls and their stream deltas in OpenAI's JSON shapes.

#include "chat/tool_calls/openai_json.h"

#include <gtest/gtest.h>

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

TEST(ToolCallOpenAiJson, WholeCallAndStreamDeltas) {
  EXPECT_EQ(tool_call_json({"call_1", "f", R"({"a":1})"}).dump(),
            R"({"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}})");
  ToolCallDelta header{2, "call_1", "f", ""};
  EXPECT_EQ(
      tool_call_delta_json(header).dump(),
      R"({"index":2,"id":"call_1","type":"function","function":{"name":"f","arguments":""}})");
  ToolCallDelta piece{2, std::nullopt, std::nullopt, R"({"a")"};
  EXPECT_EQ(tool_call_delta_json(piece).dump(), R"({"index":2,"function":{"arguments":"{\"a\""}})");
}

}  // namespace
}  // namespace ingot::chat::tool_calls
