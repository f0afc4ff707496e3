// The streaming decoder never emits invalid UTF-8, and what it emits
// concatenates to the one-shot decode: exactly, when that decode is valid
// UTF-8; otherwise both agree after replace_invalid_utf8 (each byte that
// cannot begin a well-formed sequence becomes U+FFFD).

#include "tokenizer/streaming_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tokenizer/utf8_repair.h"
#include "tokenizer_fixtures.h"
#include "util/utf8.h"

namespace ingot::tokenizer {
namespace {

// Random ids, half of them from the vocabulary's byte-ish tail and head so
// that partial UTF-8 sequences are common, not a rarity.
std::vector<int32_t> random_ids(std::mt19937& rng, const Vocab& vocab, size_t count) {
  std::uniform_int_distribution<int32_t> any(0, vocab.size() - 1);
  std::uniform_int_distribution<int32_t> low(0, std::min<int32_t>(vocab.size() - 1, 600));
  std::bernoulli_distribution pick_low(0.5);
  std::vector<int32_t> ids(count);
  for (int32_t& id : ids) id = pick_low(rng) ? low(rng) : any(rng);
  return ids;
}

void expect_stream_matches_decode(const Tokenizer& tokenizer, const std::vector<int32_t>& ids,
                                  DecodeOptions options) {
  StreamingDecoder stream(tokenizer, options);
  std::string streamed;
  for (int32_t id : ids) {
    std::string piece = stream.push(id);
    ASSERT_TRUE(utf8::is_valid(piece)) << "after id " << id;
    streamed += piece;
  }
  std::string rest = stream.flush();
  ASSERT_TRUE(utf8::is_valid(rest));
  streamed += rest;
  std::string whole = tokenizer.decode(ids, options);
  if (utf8::is_valid(whole)) {
    EXPECT_EQ(streamed, whole);
  } else {
    EXPECT_EQ(streamed, replace_invalid_utf8(whole));
  }
}

class StreamingDecoderProperty : public ::testing::TestWithParam<const char*> {};

TEST_P(StreamingDecoderProperty, RandomIdsStreamValidUtf8EqualToDecode) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer = testing::shared_tokenizer(GetParam());
  ASSERT_NE(tokenizer, nullptr);
  std::mt19937 rng(20261202);
  std::uniform_int_distribution<size_t> length(0, 40);
  for (int round = 0; round < 300; ++round) {
    auto ids = random_ids(rng, tokenizer->vocab(), length(rng));
    DecodeOptions options{.render_special = round % 2 == 0, .at_text_start = round % 3 != 0};
    expect_stream_matches_decode(*tokenizer, ids, options);
    if (::testing::Test::HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, StreamingDecoderProperty,
                         ::testing::Values("fixtures/tokenizer/ggml-vocab-llama-spm.gguf",
                                           "models/tiny-qwen2-f16.gguf",
                                           "fixtures/tokenizer/ggml-vocab-bert-bge.gguf"));

TEST(StreamingDecoder, HoldsBackACharacterSplitAcrossByteTokens) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer =
      testing::shared_tokenizer("fixtures/tokenizer/ggml-vocab-llama-spm.gguf");
  ASSERT_NE(tokenizer, nullptr);
  const Vocab& vocab = tokenizer->vocab();
  StreamingDecoder stream(*tokenizer, {.at_text_start = false});
  // U+65E5 '日' is E6 97 A5.
  EXPECT_EQ(stream.push(vocab.find("<0xE6>")), "");
  EXPECT_EQ(stream.push(vocab.find("<0x97>")), "");
  EXPECT_EQ(stream.push(vocab.find("<0xA5>")), "\xE6\x97\xA5");
  // A lone lead byte left at the end is flushed as U+FFFD.
  EXPECT_EQ(stream.push(vocab.find("<0xE6>")), "");
  EXPECT_EQ(stream.flush(), "\xEF\xBF\xBD");
}

TEST(StreamingDecoder, KeepsTheSpaceOfAContinuationButNotOfAStart) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer =
      testing::shared_tokenizer("fixtures/tokenizer/ggml-vocab-llama-spm.gguf");
  ASSERT_NE(tokenizer, nullptr);
  auto ids = tokenizer->encode("Hello world", false, false);
  StreamingDecoder continuation(*tokenizer, {.at_text_start = false});
  std::string continued;
  for (int32_t id : ids) continued += continuation.push(id);
  EXPECT_EQ(continued + continuation.flush(), " Hello world");
  StreamingDecoder start(*tokenizer, {.at_text_start = true});
  std::string started;
  for (int32_t id : ids) started += start.push(id);
  EXPECT_EQ(started + start.flush(), "Hello world");
}

TEST(ReplaceInvalidUtf8, ReplacesEachBadByteAndKeepsGoodSequences) {
  EXPECT_EQ(replace_invalid_utf8("ok \xC3\xA9"), "ok \xC3\xA9");
  EXPECT_EQ(replace_invalid_utf8("\x80"
                                 "a"),
            "\xEF\xBF\xBD"
            "a");
  EXPECT_EQ(replace_invalid_utf8("\xE6\x97"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(replace_invalid_utf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace ingot::tokenizer
