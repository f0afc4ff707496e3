// The trie walk must give exactly the mask that testing every token
// against a copy of the matcher gives, on a real 150k-token vocabulary.

#include <gtest/gtest.h>

#include <random>

#include "gguf/reader.h"
#include "sampling/grammar/builtin.h"
#include "sampling/grammar/json_schema_grammar.h"
#include "sampling/grammar/token_masker.h"
#include "sampling/grammar_test_util.h"
#include "support/shared_data.h"
#include "tokenizer/tokenizer.h"

namespace ingot::sampling::grammar {
namespace {

using testing::compile;

// Each state costs a pass over all 150k tokens; under the sanitizers a
// shorter walk still reaches mid-character and nested states.
// Sanitized, the walks are shorter and brute force tries every 13th token
// only: the masker's walk is instrumented either way, and the release
// build checks every token.
#if defined(INGOT_UNDER_SANITIZERS)
constexpr int kWalkSteps = 4;
constexpr int32_t kCheckedEvery = 13;
#else
constexpr int kWalkSteps = 8;
constexpr int32_t kCheckedEvery = 1;
#endif

class GrammarMaskerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (ingot::testing::shared_dir().empty()) return;
    auto file =
        gguf::GgufFile::open(ingot::testing::shared_path("models/tiny-qwen3-f16.gguf").string());
    ASSERT_TRUE(file.ok()) << file.error().describe();
    auto tok = tokenizer::Tokenizer::from_gguf(*file);
    ASSERT_TRUE(tok.ok()) << tok.error().describe();
    tokenizer_ = new tokenizer::Tokenizer(std::move(*tok));
    trie_ = new std::shared_ptr<const TokenTrie>(TokenTrie::for_tokenizer(*tokenizer_));
  }
  static void TearDownTestSuite() {
    delete trie_;
    delete tokenizer_;
    trie_ = nullptr;
    tokenizer_ = nullptr;
  }
  void SetUp() override { INGOT_REQUIRE_SHARED(); }

  // The checked tokens of a mask (all of them, unless sanitized).
  static TokenMask checked(const TokenMask& mask) {
    if (kCheckedEvery == 1) return mask;
    TokenMask out(mask.size());
    for (int32_t id = 0; id < mask.size(); id += kCheckedEvery) {
      if (mask.allows(id)) out.allow(id);
    }
    return out;
  }

  // Every checked token tried on its own copy of the matcher.
  static TokenMask brute_force(const GrammarMatcher& matcher) {
    const tokenizer::Vocab& vocab = tokenizer_->vocab();
    TokenMask mask(vocab.size());
    for (int32_t id = 0; id < vocab.size(); id += kCheckedEvery) {
      if (vocab.is_end_of_generation(id)) {
        if (matcher.can_end()) mask.allow(id);
        continue;
      }
      auto type = vocab.type(id);
      if (type == tokenizer::TokenType::kControl || type == tokenizer::TokenType::kUnknown ||
          type == tokenizer::TokenType::kUnused) {
        continue;
      }
      std::string piece = tokenizer_->token_to_piece(id, true);
      if (piece.empty()) continue;
      GrammarMatcher copy = matcher;
      if (copy.accept_bytes(piece)) mask.allow(id);
    }
    return mask;
  }

  static bool ends_mid_character(std::string_view piece) {
    for (size_t back = 1; back <= 4 && back <= piece.size(); ++back) {
      auto b = static_cast<uint8_t>(piece[piece.size() - back]);
      if ((b & 0xC0) == 0x80) continue;
      int length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
      return static_cast<size_t>(length) > back;
    }
    return false;
  }

  // Walks `steps` random allowed tokens from the grammar's start, checking
  // the trie mask against brute force at every state.
  static void check_random_walk(std::string_view gbnf, int steps, uint32_t seed,
                                int* partial_states) {
    auto grammar = compile(gbnf);
    ASSERT_NE(grammar, nullptr);
    TokenMasker masker(*trie_);
    GrammarMatcher matcher(grammar);
    std::mt19937 rng(seed);
    for (int step = 0; step < steps; ++step) {
      TokenMask walked;
      masker.fill(matcher, walked);
      TokenMask expected = brute_force(matcher);
      ASSERT_EQ(checked(walked).count(), expected.count()) << "step " << step;
      ASSERT_TRUE(checked(walked) == expected) << "step " << step;
      EXPECT_TRUE(checked(*masker.mask(matcher)) == expected);
      if (matcher.partial().missing > 0) ++*partial_states;
      std::vector<int32_t> allowed, unfinished;
      for (int32_t id = 0; id < expected.size(); ++id) {
        if (!expected.allows(id) || tokenizer_->is_end_of_generation(id)) continue;
        allowed.push_back(id);
        if (ends_mid_character(tokenizer_->token_to_piece(id, true))) unfinished.push_back(id);
      }
      if (allowed.empty()) break;
      // Half the steps take a token that stops inside a character, if any.
      const auto& pool = !unfinished.empty() && rng() % 2 ? unfinished : allowed;
      int32_t pick = pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
      ASSERT_TRUE(matcher.accept_bytes(tokenizer_->token_to_piece(pick, true)));
    }
  }

  static tokenizer::Tokenizer* tokenizer_;
  static std::shared_ptr<const TokenTrie>* trie_;
};

tokenizer::Tokenizer* GrammarMaskerTest::tokenizer_ = nullptr;
std::shared_ptr<const TokenTrie>* GrammarMaskerTest::trie_ = nullptr;

TEST_F(GrammarMaskerTest, TrieHoldsEveryOrdinaryToken) {
  EXPECT_GT(tokenizer_->vocab().size(), 150000);
  EXPECT_GT((*trie_)->token_ids().size(), 150000u);
  EXPECT_FALSE((*trie_)->end_of_generation().empty());
}

TEST_F(GrammarMaskerTest, JsonStatesMatchBruteForce) {
  int partial = 0;
  check_random_walk(kJsonValueGbnf, kWalkSteps, 1, &partial);
  check_random_walk(kJsonObjectGbnf, kWalkSteps, 2, &partial);
}

TEST_F(GrammarMaskerTest, NonAsciiStatesMatchBruteForceIncludingPartialCharacters) {
  int partial = 0;
  // Tokens of byte-level BPE often stop inside a CJK or accented character.
  for (uint32_t seed = 1; seed <= 2 && !HasFatalFailure(); ++seed) {
    check_random_walk(R"(root ::= ([à-ÿ一-鿿] | " " | [a-z])+ "。"?)", kWalkSteps, seed,
                      &partial);
  }
  EXPECT_GT(partial, 0) << "no walk stopped mid-character; the test proves less than it claims";
}

// Wide schemas: many optional properties, or an anyOf of many objects,
// give thousands of parses in flight at once. The mask must allow only
// tokens the matcher then accepts (each allowed one is tried; so is every
// 97th of the rest, since trying all 150k on such a state takes minutes),
// and the schema must be usable: its replies can start and go on.
TEST_F(GrammarMaskerTest, WideSchemasAllowOnlyWhatTheMatcherAccepts) {
  nlohmann::ordered_json optional = {{"type", "object"},
                                     {"properties", nlohmann::ordered_json::object()}};
  for (int i = 0; i < 1200; ++i) {
    optional["properties"]["p" + std::to_string(i)] = {{"type", "integer"}};
  }
  nlohmann::ordered_json any_of = {{"anyOf", nlohmann::ordered_json::array()}};
  for (int i = 0; i < 400; ++i) {
    any_of["anyOf"].push_back({{"type", "object"},
                               {"properties", {{"k" + std::to_string(i), {{"type", "string"}}}}},
                               {"required", {"k" + std::to_string(i)}},
                               {"additionalProperties", false}});
  }
  const tokenizer::Vocab& vocab = tokenizer_->vocab();
  for (const nlohmann::ordered_json& schema : {optional, any_of}) {
    auto gbnf = json_schema_to_gbnf(schema);
    ASSERT_TRUE(gbnf.ok()) << gbnf.error().describe();
    auto grammar = compile(*gbnf);
    ASSERT_NE(grammar, nullptr);
    TokenMasker masker(*trie_);
    GrammarMatcher matcher(grammar);
    std::mt19937 rng(7);
    for (int step = 0; step < kWalkSteps / 2; ++step) {
      TokenMask walked;
      masker.fill(matcher, walked);
      std::vector<int32_t> allowed;
      for (int32_t id = 0; id < vocab.size(); ++id) {
        const bool sampled = walked.allows(id) || id % 97 == 0;
        if (!sampled || vocab.is_end_of_generation(id)) continue;
        std::string piece = tokenizer_->token_to_piece(id, true);
        const auto type = vocab.type(id);
        if (piece.empty() || type == tokenizer::TokenType::kControl ||
            type == tokenizer::TokenType::kUnknown || type == tokenizer::TokenType::kUnused) {
          continue;
        }
        GrammarMatcher copy = matcher;
        ASSERT_EQ(copy.accept_bytes(piece), walked.allows(id)) << "step " << step << ": " << piece;
        if (walked.allows(id)) allowed.push_back(id);
      }
      ASSERT_FALSE(allowed.empty()) << "step " << step << ": the schema cannot go on";
      // Into the object, not out of it: a token that closes it ends the walk.
      std::vector<int32_t> inward;
      for (int32_t id : allowed) {
        if (tokenizer_->token_to_piece(id, true).find('}') == std::string::npos)
          inward.push_back(id);
      }
      const std::vector<int32_t>& pool = inward.empty() ? allowed : inward;
      int32_t pick = pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
      ASSERT_TRUE(matcher.accept_bytes(tokenizer_->token_to_piece(pick, true)));
    }
  }
}

TEST_F(GrammarMaskerTest, InsideAStringTheLoopShortcutMatchesBruteForce) {
  auto grammar = compile(kJsonObjectGbnf);
  TokenMasker masker(*trie_);
  for (std::string_view text : {R"({"key": "abc)", R"({"a": [{"b": "x y)", R"({"k)"}) {
    GrammarMatcher matcher(grammar);
    ASSERT_TRUE(matcher.accept_bytes(text));
    LoopSet loop = find_loop_set(matcher);
    EXPECT_GE(loop.ascii_count(), 64) << text;
    EXPECT_TRUE(loop.non_ascii) << text;
    EXPECT_FALSE(loop.has('"'));
    TokenMask walked;
    masker.fill(matcher, walked);
    TokenMask expected = brute_force(matcher);
    EXPECT_EQ(checked(walked).count(), expected.count()) << text;
    EXPECT_TRUE(checked(walked) == expected) << text;
  }
}

TEST_F(GrammarMaskerTest, MidCharacterStateAllowsOnlyCompletions) {
  auto grammar = compile(R"(root ::= "é" "!")");
  GrammarMatcher matcher(grammar);
  ASSERT_TRUE(matcher.accept_bytes("\xC3"));
  TokenMasker masker(*trie_);
  TokenMask walked;
  masker.fill(matcher, walked);
  EXPECT_TRUE(checked(walked) == brute_force(matcher));
  EXPECT_GT(walked.count(), 0);
  for (int32_t id = 0; id < walked.size(); ++id) {
    if (!walked.allows(id)) continue;
    std::string piece = tokenizer_->token_to_piece(id, true);
    EXPECT_TRUE(piece == "\xA9" || piece == "\xA9!") << id;
  }
}

TEST_F(GrammarMaskerTest, EndOfGenerationOnlyWhenComplete) {
  auto grammar = compile(R"(root ::= "a"+)");
  GrammarMatcher matcher(grammar);
  TokenMasker masker(*trie_);
  int32_t eog = tokenizer_->vocab().end_of_generation().front();
  EXPECT_FALSE(masker.mask(matcher)->allows(eog));
  ASSERT_TRUE(matcher.accept_bytes("a"));
  EXPECT_TRUE(masker.mask(matcher)->allows(eog));
  // Control tokens that do not end a generation are never allowed.
  auto grammar_any = compile(R"(root ::= .*)");
  GrammarMatcher any(grammar_any);
  auto mask = masker.mask(any);
  const tokenizer::Vocab& vocab = tokenizer_->vocab();
  for (int32_t id = 0; id < vocab.size(); ++id) {
    if (vocab.type(id) == tokenizer::TokenType::kControl && !vocab.is_end_of_generation(id)) {
      EXPECT_FALSE(mask->allows(id)) << id;
    }
  }
}

TEST_F(GrammarMaskerTest, PathsThatMeetAreExpandedOnceInTheWalkToo) {
  // Ten nested optionals in a row (4^10 paths to "b"): the walk must not
  // run out of its bound and must agree with the matcher token by token.
  std::string gbnf = "root ::=";
  for (int i = 0; i < 10; ++i) gbnf += R"( ((("a"?)?)?)?)";
  gbnf += R"( "b")";
  auto grammar = compile(gbnf);
  GrammarMatcher matcher(grammar);
  TokenMasker masker(*trie_);
  TokenMask walked;
  masker.fill(matcher, walked);
  EXPECT_GT(walked.count(), 2);  // "a", "b", "ab", "aa", ...
  EXPECT_TRUE(checked(walked) == brute_force(matcher));
  ASSERT_TRUE(matcher.accept_bytes("aaa"));
  masker.fill(matcher, walked);
  EXPECT_TRUE(checked(walked) == brute_force(matcher));
}

TEST_F(GrammarMaskerTest, RepeatedStatesComeFromTheCache) {
  auto grammar = compile(kJsonObjectGbnf);
  TokenMasker masker(*trie_);
  GrammarMatcher matcher(grammar);
  ASSERT_TRUE(matcher.accept_bytes("{\"k"));
  auto first = masker.mask(matcher);
  ASSERT_TRUE(matcher.accept_bytes("ey"));  // still inside the same string: the same state
  auto second = masker.mask(matcher);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(masker.stats().hits, 1);
  EXPECT_EQ(masker.stats().misses, 1);
}

TEST_F(GrammarMaskerTest, CacheEvictsBeyondItsCapacity) {
  auto grammar = compile(R"(root ::= [a-z]{0,10})");
  TokenMasker masker(*trie_, 2);
  GrammarMatcher matcher(grammar);
  auto start = masker.mask(matcher);
  for (char c : std::string("abc")) {
    ASSERT_TRUE(matcher.accept_bytes(std::string(1, c)));
    masker.mask(matcher);
  }
  GrammarMatcher fresh(grammar);
  auto again = masker.mask(fresh);
  EXPECT_NE(start.get(), again.get());  // evicted and recomputed
  EXPECT_TRUE(*start == *again);
  EXPECT_EQ(masker.stats().hits, 0);
}

}  // namespace
}  // namespace ingot::sampling::grammar
