// decode(encode(text)) == text on random text for every vocabulary that
// does not normalize: a property, beyond the fixed vectors.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tokenizer_fixtures.h"
#include "util/utf8.h"

namespace ingot::tokenizer {
namespace {

// Code points that exercise the pre-tokenizers: ASCII words, digits and
// punctuation, every kind of white space, Latin-1 and combining accents,
// Cyrillic, CJK, Hangul, emoji with joiners, and U+0085.
const std::vector<char32_t>& alphabet() {
  static const std::vector<char32_t> code_points = {
      'a',     'b',    'e',     'H',    'z',    'Z',     '0',    '1',    '7',    '9',
      ' ',     ' ',    ' ',     '\n',   '\t',   '\r',    '\'',   's',    't',    'l',
      '.',     ',',    '!',     '?',    '(',    ')',     '{',    '}',    '<',    '>',
      '|',     '_',    '-',     '=',    '+',    '$',     '"',    '`',    '~',    '^',
      0xA0,    0xE9,   0xF6,    0xDF,   0x301,  0x85,    0x3000, 0x2003, 0x43D,  0x431,
      0x65E5,  0x672C, 0x8A9E,  0x4E00, 0xAC00, 0xD55C,  0x3042, 0xFF01, 0x3002, 0x1F680,
      0x1F600, 0x200D, 0x1F32B, 0xFE0F, 0x2705, 0x1F999, 0x17C1, 0x17A2, 0x0E01, 0x10400,
  };
  return code_points;
}

std::string random_text(std::mt19937& rng) {
  std::uniform_int_distribution<size_t> length(0, 60);
  std::uniform_int_distribution<size_t> pick(0, alphabet().size() - 1);
  std::string text;
  for (size_t n = length(rng); n > 0; --n) utf8::append(text, alphabet()[pick(rng)]);
  return text;
}

class RoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(RoundTrip, RandomTextDecodesToItself) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer = testing::shared_tokenizer(GetParam());
  ASSERT_NE(tokenizer, nullptr);
  std::mt19937 rng(1234);
  for (int round = 0; round < 200; ++round) {
    std::string text = random_text(rng);
    auto ids = tokenizer->encode(text, /*add_special=*/false, /*parse_special=*/false);
    ASSERT_EQ(tokenizer->decode(ids), text) << "round " << round;
    auto with_bos = tokenizer->encode(text, /*add_special=*/true, /*parse_special=*/false);
    ASSERT_EQ(tokenizer->decode(with_bos), text) << "round " << round << " with BOS";
  }
}

// Arbitrary bytes, malformed UTF-8 included: every vocabulary gives valid
// ids, and SentencePiece's byte fallback gives the bytes back exactly. (Not
// with spaces: like llama.cpp, a truncated lead byte swallows the bytes of
// the '▁' a following space became, so that space comes back as U+2581.)
TEST_P(RoundTrip, ArbitraryBytesEncodeToValidIds) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer = testing::shared_tokenizer(GetParam());
  ASSERT_NE(tokenizer, nullptr);
  const bool byte_fallback = tokenizer->vocab().kind() == VocabKind::kSentencePiece;
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<size_t> length(0, 40);
  for (int round = 0; round < 100; ++round) {
    std::string bytes;
    for (size_t n = length(rng); n > 0; --n) bytes += static_cast<char>(byte(rng));
    auto ids = tokenizer->encode(bytes, true, true);
    for (int32_t id : ids) ASSERT_TRUE(tokenizer->vocab().contains(id)) << id;
    if (byte_fallback) {
      std::replace(bytes.begin(), bytes.end(), ' ', 'x');
      EXPECT_EQ(tokenizer->decode(tokenizer->encode(bytes, false, false)), bytes);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Vocabularies, RoundTrip,
                         ::testing::Values("fixtures/tokenizer/ggml-vocab-llama-spm.gguf",
                                           "fixtures/tokenizer/ggml-vocab-phi-3.gguf",
                                           "fixtures/tokenizer/ggml-vocab-baichuan.gguf",
                                           "fixtures/tokenizer/ggml-vocab-gpt-2.gguf",
                                           "fixtures/tokenizer/ggml-vocab-deepseek-llm.gguf",
                                           "fixtures/tokenizer/ggml-vocab-deepseek-coder.gguf",
                                           "fixtures/tokenizer/ggml-vocab-falcon.gguf",
                                           "fixtures/tokenizer/ggml-vocab-mpt.gguf",
                                           "fixtures/tokenizer/ggml-vocab-refact.gguf",
                                           "fixtures/tokenizer/ggml-vocab-starcoder.gguf",
                                           "models/tiny-qwen2-f16.gguf",
                                           "models/tiny-llama3-f16.gguf"));

}  // namespace
}  // namespace ingot::tokenizer
