#include "sampling/grammar/literal_trie.h"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "grammar_test_util.h"

namespace ingot::sampling::grammar {
namespace {

using testing::compile;
using testing::matches;
using testing::matches_bytewise;

std::shared_ptr<const Grammar> trie_grammar(const std::vector<std::string>& texts) {
  GbnfRuleSet rules;
  std::string body = literal_trie_body(texts, rules, "value");
  return compile(rules.text(body));
}

// Pieces that share lead bytes (é, è, €, 😀 / 😁) and prefixes of each other.
const std::vector<std::string> kPieces = {
    "a",  "b", "ab", "\xC3\xA9", "\xC3\xA8", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x81",
    "\"", "\\"};

std::string random_text(std::mt19937& random) {
  std::string text;
  const int pieces = std::uniform_int_distribution<int>(1, 5)(random);
  for (int i = 0; i < pieces; ++i) {
    text += kPieces[std::uniform_int_distribution<size_t>(0, kPieces.size() - 1)(random)];
  }
  return text;
}

TEST(LiteralTrie, MatchesExactlyItsTextsOverRandomSets) {
  std::mt19937 random(7);
  for (int round = 0; round < 200; ++round) {
    std::set<std::string> chosen;
    const int count = std::uniform_int_distribution<int>(1, 40)(random);
    while (static_cast<int>(chosen.size()) < count) chosen.insert(random_text(random));
    std::vector<std::string> texts(chosen.begin(), chosen.end());
    std::shuffle(texts.begin(), texts.end(), random);
    auto grammar = trie_grammar(texts);
    ASSERT_NE(grammar, nullptr);
    for (const std::string& text : texts) {
      EXPECT_TRUE(matches(grammar, text)) << text;
      EXPECT_TRUE(matches_bytewise(grammar, text)) << text;
    }
    for (int probe = 0; probe < 50; ++probe) {
      std::string other = random_text(random);
      EXPECT_EQ(matches(grammar, other), chosen.count(other) > 0) << other;
    }
  }
}

TEST(LiteralTrie, ATextThatIsAnotherOnesPrefixEndsEitherWay) {
  auto grammar = trie_grammar({"ab", "a", "abc", "b"});
  ASSERT_NE(grammar, nullptr);
  for (std::string text : {"a", "ab", "abc", "b"}) EXPECT_TRUE(matches(grammar, text)) << text;
  for (std::string text : {"", "abcd", "ac", "ba", "bb"})
    EXPECT_FALSE(matches(grammar, text)) << text;
}

TEST(LiteralTrie, RepeatedTextsCountOnce) {
  auto grammar = trie_grammar({"x", "x", "y"});
  ASSERT_NE(grammar, nullptr);
  EXPECT_TRUE(matches(grammar, "x"));
  EXPECT_TRUE(matches(grammar, "y"));
}

TEST(LiteralTrie, IdenticalSubtreesShareOneRule) {
  std::vector<std::string> texts;
  for (int i = 0; i < 10'000; ++i) texts.push_back("v" + std::to_string(i));
  GbnfRuleSet rules;
  std::string body = literal_trie_body(texts, rules, "value");
  // The digits under "v1" are those under "v2": a handful of rules, not
  // one per prefix.
  EXPECT_LT(rules.text(body).size(), 2000u);
  auto grammar = compile(rules.text(body));
  ASSERT_NE(grammar, nullptr);
  EXPECT_TRUE(matches(grammar, "v9999"));
  EXPECT_TRUE(matches(grammar, "v0"));
  EXPECT_FALSE(matches(grammar, "v10000"));
  EXPECT_FALSE(matches(grammar, "v01"));
}

}  // namespace
}  // namespace ingot::sampling::grammar
