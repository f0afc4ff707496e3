// Anthropic's Messages replies: a whole message's blocks and stop reasons,
// and the events a stream folds into the same message.

#include <gtest/gtest.h>

#include "server/anthropic/messages_response.h"

namespace ingot::server::anthropic {
namespace {

namespace tools = chat::tool_calls;
using json = nlohmann::ordered_json;

engine::FinishEvent finished(engine::FinishReason reason, int64_t prompt = 10, int64_t cached = 4,
                             int64_t completion = 5) {
  engine::FinishEvent finish{reason, {}, {}, {}};
  finish.usage.prompt_tokens = prompt;
  finish.usage.cached_tokens = cached;
  finish.usage.completion_tokens = completion;
  return finish;
}

std::vector<std::string> names(const std::vector<StreamEvent>& events) {
  std::vector<std::string> out;
  for (const auto& event : events) out.push_back(event.name);
  return out;
}

// What a client does with the events: the SDK's fold, written out.
json fold(const std::vector<StreamEvent>& events) {
  json message;
  for (const auto& event : events) {
    const json& data = event.data;
    EXPECT_EQ(data["type"], event.name);
    if (event.name == "message_start") {
      message = data["message"];
    } else if (event.name == "content_block_start") {
      EXPECT_EQ(data["index"], message["content"].size());
      message["content"].push_back(data["content_block"]);
    } else if (event.name == "content_block_delta") {
      json& block = message["content"][data["index"].get<size_t>()];
      const json& delta = data["delta"];
      if (delta["type"] == "text_delta")
        block["text"] = block["text"].get<std::string>() + delta["text"].get<std::string>();
      if (delta["type"] == "thinking_delta") {
        block["thinking"] =
            block["thinking"].get<std::string>() + delta["thinking"].get<std::string>();
      }
      if (delta["type"] == "input_json_delta") {
        block["partial"] =
            block.value("partial", std::string()) + delta["partial_json"].get<std::string>();
      }
    } else if (event.name == "content_block_stop") {
      json& block = message["content"][data["index"].get<size_t>()];
      if (block.contains("partial")) {
        block["input"] = json::parse(block["partial"].get<std::string>());
        block.erase("partial");
      }
    } else if (event.name == "message_delta") {
      message["stop_reason"] = data["delta"]["stop_reason"];
      message["stop_sequence"] = data["delta"]["stop_sequence"];
      message["usage"] = data["usage"];
    }
  }
  return message;
}

TEST(MessagesResponse, WholeMessageHoldsThinkingTextAndToolUseBlocksInOrder) {
  tools::ParsedReply reply{"Let me check.", {{"toolu_x", "get_weather", R"({"city":"Oslo"})"}}};
  json message =
      whole_message({"msg_1", "m"}, "thinking...", reply, finished(engine::FinishReason::kStop));
  EXPECT_EQ(message["content"], json::parse(R"([
    {"type": "thinking", "thinking": "thinking...", "signature": ""},
    {"type": "text", "text": "Let me check."},
    {"type": "tool_use", "id": "toolu_x", "name": "get_weather", "input": {"city": "Oslo"}}])"));
  EXPECT_EQ(message["stop_reason"], "tool_use");
  EXPECT_TRUE(message["stop_sequence"].is_null());
  EXPECT_EQ(message["usage"], json::parse(R"({"input_tokens": 6, "cache_creation_input_tokens": 0,
                                              "cache_read_input_tokens": 4, "output_tokens": 5})"));
}

TEST(MessagesResponse, StopReasonsSayWhyTheReplyEnded) {
  tools::ParsedReply text{"hi", {}};
  EXPECT_EQ(stop_reason(finished(engine::FinishReason::kStop), 0), "end_turn");
  EXPECT_EQ(stop_reason(finished(engine::FinishReason::kLength), 1), "max_tokens");
  engine::FinishEvent stopped = finished(engine::FinishReason::kStop);
  stopped.stop_sequence = "END";
  EXPECT_EQ(stop_reason(stopped, 0), "stop_sequence");
  EXPECT_EQ(whole_message({"msg_1", "m"}, "", text, stopped)["stop_sequence"], "END");
}

TEST(MessagesResponse, ArgumentsCutShortGiveAnEmptyInput) {
  tools::ParsedReply cut{std::nullopt, {{"toolu_x", "f", R"({"city":"Os)"}}};
  json message = whole_message({"msg_1", "m"}, "", cut, finished(engine::FinishReason::kLength));
  EXPECT_EQ(message["content"][0]["input"], json::object());
  EXPECT_EQ(message["stop_reason"], "max_tokens");
}

TEST(MessagesResponse, StreamFoldsToTheWholeMessage) {
  MessageEvents writer({"msg_1", "m"});
  std::vector<StreamEvent> events;
  auto add = [&](std::vector<StreamEvent> more) {
    for (auto& event : more) events.push_back(std::move(event));
  };
  engine::Usage prompt;
  prompt.prompt_tokens = 10;
  add(writer.start(prompt));
  add(writer.thinking("think"));
  add(writer.thinking("ing..."));
  add(writer.text("Let me "));
  add(writer.text("check."));
  add(writer.text(""));
  add(writer.tool_call({0, "toolu_x", "get_weather", ""}));
  add(writer.tool_call({0, std::nullopt, std::nullopt, R"({"city":)"}));
  add(writer.tool_call({0, std::nullopt, std::nullopt, R"("Oslo"})"}));
  const engine::FinishEvent finish = finished(engine::FinishReason::kStop);
  add(writer.finish(finish, 1));

  EXPECT_EQ(
      names(events),
      (std::vector<std::string>{
          "message_start", "ping", "content_block_start", "content_block_delta",
          "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta",
          "content_block_delta", "content_block_stop", "content_block_start", "content_block_delta",
          "content_block_delta", "content_block_stop", "message_delta", "message_stop"}));
  tools::ParsedReply reply{"Let me check.", {{"toolu_x", "get_weather", R"({"city":"Oslo"})"}}};
  EXPECT_EQ(fold(events), whole_message({"msg_1", "m"}, "thinking...", reply, finish));
}

TEST(MessagesResponse, AnEmptyReplyStreamsNoBlocks) {
  MessageEvents writer({"msg_1", "m"});
  std::vector<StreamEvent> events = writer.start({});
  for (auto& event : writer.finish(finished(engine::FinishReason::kLength, 3, 0, 0), 0)) {
    events.push_back(std::move(event));
  }
  EXPECT_EQ(names(events),
            (std::vector<std::string>{"message_start", "ping", "message_delta", "message_stop"}));
  EXPECT_EQ(events.back().data, json::parse(R"({"type":"message_stop"})"));
}

}  // namespace
}  // namespace ingot::server::anthropic
