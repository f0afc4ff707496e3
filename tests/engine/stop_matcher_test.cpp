#include "engine/stop_matcher.h"

#include <gtest/gtest.h>

namespace ingot::engine {
namespace {

// Feeds pieces one at a time and returns all emitted text plus whether it stopped.
std::pair<std::string, bool> run_stops(std::vector<std::string> stops,
                                       std::vector<std::string> pieces) {
  StopMatcher matcher(std::move(stops));
  std::string emitted;
  for (const auto& piece : pieces) {
    auto out = matcher.push(piece);
    emitted += out.text;
    if (out.stopped) return {emitted, true};
  }
  emitted += matcher.flush();
  return {emitted, false};
}

TEST(StopMatcher, NoStopsPassesEverythingThrough) {
  EXPECT_EQ(run_stops({}, {"a", "b", "c"}), std::make_pair(std::string("abc"), false));
}

TEST(StopMatcher, FindsAStopInsideOnePiece) {
  EXPECT_EQ(run_stops({"END"}, {"hello END world"}), std::make_pair(std::string("hello "), true));
}

TEST(StopMatcher, FindsAStopSplitAcrossPieces) {
  EXPECT_EQ(run_stops({"</answer>"}, {"42</", "ans", "wer> trailing"}),
            std::make_pair(std::string("42"), true));
}

TEST(StopMatcher, HoldsBackAPartialMatchUntilItFails) {
  StopMatcher matcher({"STOP"});
  EXPECT_EQ(matcher.push("go ST").text, "go ");
  EXPECT_EQ(matcher.push("ar").text, "STar");
  EXPECT_FALSE(matcher.stopped());
}

TEST(StopMatcher, FlushReleasesAHeldBackTail) {
  EXPECT_EQ(run_stops({"STOP"}, {"the end ST"}), std::make_pair(std::string("the end ST"), false));
}

TEST(StopMatcher, EarliestOfSeveralStopsWins) {
  StopMatcher matcher({"bb", "a"});
  auto out = matcher.push("xxbba");
  EXPECT_TRUE(out.stopped);
  EXPECT_EQ(out.text, "xx");
  EXPECT_EQ(*matcher.matched(), "bb");
}

TEST(StopMatcher, NothingAfterTheStop) {
  StopMatcher matcher({"."});
  EXPECT_TRUE(matcher.push("one.").stopped);
  EXPECT_EQ(matcher.push("two").text, "");
  EXPECT_EQ(matcher.flush(), "");
}

TEST(StopMatcher, EveryCharacterAPieceNeverEmitsTheStop) {
  std::string text = "abc<|end|>def";
  std::vector<std::string> pieces;
  for (char c : text) pieces.emplace_back(1, c);
  EXPECT_EQ(run_stops({"<|end|>"}, pieces), std::make_pair(std::string("abc"), true));
}

}  // namespace
}  // namespace ingot::engine
