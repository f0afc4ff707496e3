#include "engine/reasoning_splitter.h"

#include <gtest/gtest.h>

namespace ingot::engine {
namespace {

ReasoningSplitter::Output run(bool starts_in_reasoning, std::vector<std::string> pieces) {
  ReasoningSplitter splitter({}, starts_in_reasoning);
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

}  // namespace
}  // namespace ingot::engine
