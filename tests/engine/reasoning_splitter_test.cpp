#include "engine/reasoning_splitter.h"

#include <gtest/gtest.h>

#include "engine/prompt_tokens.h"

namespace ingot::engine {
namespace {

ReasoningSplitter::Output run(bool starts_in_reasoning, std::vector<std::string> pieces,
                              ReasoningTags tags = {}) {
  ReasoningSplitter splitter(std::move(tags), starts_in_reasoning);
  ReasoningSplitter::Output all;
  for (const auto& piece : pieces) {
    auto out = splitter.push(piece);
    all.reasoning += out.reasoning;
    all.content += out.content;
  }
  auto rest = splitter.flush();
  all.reasoning += rest.reasoning;
  all.content += rest.content;
  return all;
}

TEST(ReasoningSplitter, SplitsThinkBlockFromAnswer) {
  auto out = run(false, {"<think>", "\nstep one\n", "</think>", "\n\n", "The answer."});
  EXPECT_EQ(out.reasoning, "\nstep one\n");
  EXPECT_EQ(out.content, "The answer.");
}

TEST(ReasoningSplitter, TagsSplitAcrossPieces) {
  auto out = run(false, {"<th", "ink>plan</th", "ink>done"});
  EXPECT_EQ(out.reasoning, "plan");
  EXPECT_EQ(out.content, "done");
}

TEST(ReasoningSplitter, NoThinkBlockIsAllContent) {
  auto out = run(false, {"Hello", " <think> is just text"});
  EXPECT_EQ(out.reasoning, "");
  EXPECT_EQ(out.content, "Hello <think> is just text");
}

TEST(ReasoningSplitter, PromptThatOpenedTheBlock) {
  auto out = run(true, {"thinking", "</think>", "answer"});
  EXPECT_EQ(out.reasoning, "thinking");
  EXPECT_EQ(out.content, "answer");
}

TEST(ReasoningSplitter, UnclosedReasoningStaysReasoning) {
  auto out = run(false, {"<think>never closes"});
  EXPECT_EQ(out.reasoning, "never closes");
  EXPECT_EQ(out.content, "");
}

TEST(ReasoningSplitter, EmptyThinkBlock) {
  auto out = run(false, {"<think>\n\n</think>\n\n", "Hi"});
  EXPECT_EQ(out.reasoning, "\n\n");
  EXPECT_EQ(out.content, "Hi");
}

TEST(ReasoningSplitter, ReasoningNeverLeaksWhenEveryCharacterIsAPiece) {
  std::string text = "<think>secret</think>public";
  std::vector<std::string> pieces;
  for (char c : text) pieces.emplace_back(1, c);
  auto out = run(false, pieces);
  EXPECT_EQ(out.reasoning, "secret");
  EXPECT_EQ(out.content, "public");
}

const ReasoningTags kGemma4{"<|channel>thought", "<channel|>"};

TEST(ReasoningSplitter, Gemma4ThoughtChannelNeverLeaksWhenEveryCharacterIsAPiece) {
  std::string text = "<|channel>thought\nsecret plan<channel|>The answer.";
  std::vector<std::string> pieces;
  for (char c : text) pieces.emplace_back(1, c);
  auto out = run(false, pieces, kGemma4);
  EXPECT_EQ(out.reasoning, "\nsecret plan");
  EXPECT_EQ(out.content, "The answer.");
}

TEST(ReasoningSplitter, Gemma4ReplyWithoutAChannelIsAllContent) {
  auto out = run(false, {"<|chan", "nel> is a word here"}, kGemma4);
  EXPECT_EQ(out.reasoning, "");
  EXPECT_EQ(out.content, "<|channel> is a word here");
}

TEST(ReasoningSplitter, TagsComeFromTheTemplate) {
  EXPECT_FALSE(reasoning_tags_for_template("{{ messages[0].content }}").has_value());
  auto qwen = reasoning_tags_for_template("{% if x %}<think>\n\n</think>{% endif %}");
  ASSERT_TRUE(qwen.has_value());
  EXPECT_EQ(qwen->open, "<think>");
  auto gemma = reasoning_tags_for_template("{{- '<|channel>thought\n<channel|>' -}}");
  ASSERT_TRUE(gemma.has_value());
  EXPECT_EQ(gemma->open, "<|channel>thought");
  EXPECT_EQ(gemma->close, "<channel|>");
  auto minimax = reasoning_tags_for_template("{%- set t = '<mm:think>' %}{{ '</mm:think>' }}");
  ASSERT_TRUE(minimax.has_value());
  EXPECT_EQ(minimax->open, "<mm:think>");
  auto seed = reasoning_tags_for_template("<seed:think>{{ r }}</seed:think>");
  ASSERT_TRUE(seed.has_value());
  EXPECT_EQ(seed->close, "</seed:think>");
}

TEST(ReasoningSplitter, CloseTagAloneIsAnEmptyReasoningBlock) {
  ReasoningTags minimax{"<mm:think>", "</mm:think>"};
  auto out = run(false, {"</mm:", "think>", "Hello"}, minimax);
  EXPECT_EQ(out.reasoning, "");
  EXPECT_EQ(out.content, "Hello");
  auto plain = run(false, {"<", "/b> is text"}, minimax);
  EXPECT_EQ(plain.content, "</b> is text");
}

// Where the prompt leaves the reply: inside a reasoning block the template
// opened, or after an empty one it closed (thinking off).
TEST(ReasoningSplitter, PromptOpensOrClosesTheBlock) {
  ReasoningTags tags;
  EXPECT_TRUE(prompt_opens_reasoning("<|im_start|>assistant\n<think>\n", tags));
  EXPECT_FALSE(prompt_closes_reasoning("<|im_start|>assistant\n<think>\n", tags));
  EXPECT_TRUE(prompt_closes_reasoning("assistant\n<think>\n\n</think>\n\n", tags));
  EXPECT_FALSE(prompt_opens_reasoning("assistant\n<think>\n\n</think>\n\n", tags));
  EXPECT_FALSE(prompt_opens_reasoning("", tags));
  EXPECT_FALSE(prompt_closes_reasoning(" \n", tags));
}

}  // namespace
}  // namespace ingot::engine
