// gpt-oss's harmony replies through the reasoning splitter: analysis is
// reasoning, final is content, a message to functions.NAME goes on to the
// content in the form the harmony tool-call parser reads, however the
// tokens split the markers.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/reasoning_splitter.h"

namespace ingot::engine {
namespace {

ReasoningTags harmony_tags() {
  auto tags = reasoning_tags_for_template(
      "{{- '<|start|>assistant<|channel|>analysis<|message|>' + message.thinking + '<|end|>' }}");
  EXPECT_TRUE(tags.has_value() && tags->harmony);
  return tags.value_or(ReasoningTags{});
}

ReasoningSplitter::Output run(const std::vector<std::string>& pieces) {
  ReasoningSplitter splitter(harmony_tags(), /*starts_in_reasoning=*/false);
  ReasoningSplitter::Output all;
  for (const std::string& piece : pieces) {
    auto out = splitter.push(piece);
    all.reasoning += out.reasoning;
    all.content += out.content;
  }
  auto rest = splitter.flush();
  all.reasoning += rest.reasoning;
  all.content += rest.content;
  return all;
}

// Every split of `reply` into two pieces gives the same result as the whole.
void expect_any_split(const std::string& reply, const std::string& reasoning,
                      const std::string& content) {
  for (size_t cut = 0; cut <= reply.size(); ++cut) {
    auto out = run({reply.substr(0, cut), reply.substr(cut)});
    EXPECT_EQ(out.reasoning, reasoning) << "cut at " << cut;
    EXPECT_EQ(out.content, content) << "cut at " << cut;
  }
}

TEST(HarmonyChannels, AnalysisIsReasoningAndFinalIsContent) {
  expect_any_split(
      "<|channel|>analysis<|message|>User asks 2+2. Easy.<|end|>"
      "<|start|>assistant<|channel|>final<|message|>2 + 2 = 4.",
      "User asks 2+2. Easy.", "2 + 2 = 4.");
}

TEST(HarmonyChannels, AToolCallGoesOnAsItsRecipientAndArguments) {
  expect_any_split(
      "<|channel|>analysis<|message|>Need the weather.<|end|>"
      "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json"
      "<|message|>{\"city\":\"Paris\"}",
      "Need the weather.", "to=functions.get_weather<|message|>{\"city\":\"Paris\"}");
  // The recipient may also stand before the channel.
  expect_any_split(
      "<|start|>assistant to=functions.lookup<|channel|>commentary json<|message|>{\"q\":1}", "",
      "to=functions.lookup<|message|>{\"q\":1}");
}

TEST(HarmonyChannels, CommentaryWithoutRecipientIsContent) {
  expect_any_split(
      "<|channel|>commentary<|message|>Checking.<|end|>"
      "<|start|>assistant<|channel|>final<|message|>Done.",
      "", "Checking.Done.");
}

TEST(HarmonyChannels, AReplyWithoutHeadersIsContentAsItIs) {
  expect_any_split("Just text, <|end|> and all.", "", "Just text, <|end|> and all.");
}

TEST(HarmonyChannels, AReplyCutInsideAnalysisKeepsItsReasoning) {
  expect_any_split("<|channel|>analysis<|message|>Thinking about it", "Thinking about it", "");
  // Cut inside a header: nothing of it shows.
  expect_any_split("<|channel|>analysis<|message|>Plan.<|end|><|start|>assistant<|chan", "Plan.",
                   "");
}

TEST(HarmonyChannels, InReasoningOnlyInsideAnalysisBodies) {
  ReasoningSplitter splitter(harmony_tags(), false);
  EXPECT_FALSE(splitter.in_reasoning());
  splitter.push("<|channel|>analysis<|message|>a");
  EXPECT_TRUE(splitter.in_reasoning());
  splitter.push("b<|end|><|start|>assistant<|channel|>final<|message|>c");
  EXPECT_FALSE(splitter.in_reasoning());
}

// Forcing the end of reasoning (a reasoning budget) writes this close.
TEST(HarmonyChannels, TheForcedCloseEndsAnalysisAndOpensFinal) {
  const ReasoningTags tags = harmony_tags();
  auto out = run({"<|channel|>analysis<|message|>long thought", tags.close, "Answer."});
  EXPECT_EQ(out.reasoning, "long thought");
  EXPECT_EQ(out.content, "Answer.");
}

}  // namespace
}  // namespace ingot::engine
