// Small vocabularies built in memory: the algorithms' rules checked without
// ../shared (so a fresh clone tests them too), and the errors for
// vocabularies ingot cannot run.

#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "gguf/metadata.h"
#include "tokenizer/byte_level.h"
#include "tokenizer/tokenizer.h"

namespace ingot::tokenizer {
namespace {

using gguf::Array;
using gguf::Metadata;
using gguf::Value;
using gguf::ValueType;

// Metadata whose string values point into storage the builder owns.
class MetadataBuilder {
 public:
  MetadataBuilder& string(const std::string& key, const std::string& value) {
    metadata_.add(keep(key), Value{ValueType::kString, keep(value)});
    return *this;
  }
  MetadataBuilder& strings(const std::string& key, const std::vector<std::string>& values) {
    auto array = std::make_shared<Array>();
    array->element_type = ValueType::kString;
    for (const std::string& value : values) {
      array->items.push_back(Value{ValueType::kString, keep(value)});
    }
    metadata_.add(keep(key), Value{ValueType::kArray, std::shared_ptr<const Array>(array)});
    return *this;
  }
  MetadataBuilder& floats(const std::string& key, const std::vector<float>& values) {
    auto array = std::make_shared<Array>();
    array->element_type = ValueType::kFloat32;
    for (float value : values) array->items.push_back(Value{ValueType::kFloat32, value});
    metadata_.add(keep(key), Value{ValueType::kArray, std::shared_ptr<const Array>(array)});
    return *this;
  }
  MetadataBuilder& ints(const std::string& key, const std::vector<int32_t>& values) {
    auto array = std::make_shared<Array>();
    array->element_type = ValueType::kInt32;
    for (int32_t value : values) array->items.push_back(Value{ValueType::kInt32, value});
    metadata_.add(keep(key), Value{ValueType::kArray, std::shared_ptr<const Array>(array)});
    return *this;
  }
  MetadataBuilder& flag(const std::string& key, bool value) {
    metadata_.add(keep(key), Value{ValueType::kBool, value});
    return *this;
  }
  const Metadata& metadata() const { return metadata_; }

 private:
  std::string_view keep(const std::string& text) { return storage_.emplace_back(text); }

  std::deque<std::string> storage_;  // stable addresses
  Metadata metadata_;
};

std::vector<std::string> byte_alphabet() {
  std::vector<std::string> tokens;
  for (int byte = 0; byte < 256; ++byte) {
    tokens.emplace_back(byte_level::encode_byte(static_cast<uint8_t>(byte)));
  }
  return tokens;
}

Tokenizer bpe(std::vector<std::string> extra_tokens, const std::vector<std::string>& merges,
              const std::string& pre = "gpt-2") {
  std::vector<std::string> tokens = byte_alphabet();
  tokens.insert(tokens.end(), extra_tokens.begin(), extra_tokens.end());
  MetadataBuilder builder;
  builder.string("tokenizer.ggml.model", "gpt2")
      .string("tokenizer.ggml.pre", pre)
      .strings("tokenizer.ggml.tokens", tokens)
      .strings("tokenizer.ggml.merges", merges);
  auto tokenizer = Tokenizer::from_metadata(builder.metadata());
  EXPECT_TRUE(tokenizer.ok()) << tokenizer.error().describe();
  return std::move(tokenizer).value();
}

std::vector<std::string_view> texts(const Tokenizer& tokenizer, const std::vector<int32_t>& ids) {
  std::vector<std::string_view> out;
  for (int32_t id : ids) out.push_back(tokenizer.vocab().text(id));
  return out;
}

TEST(SyntheticBpe, LowerRankMergesFirst) {
  // "b c" outranks "a b", so "abc" becomes a + bc, never ab + c.
  Tokenizer tokenizer = bpe({"ab", "bc", "abc"}, {"b c", "a b", "ab c"});
  EXPECT_EQ(texts(tokenizer, tokenizer.encode("abc", false, false)),
            (std::vector<std::string_view>{"a", "bc"}));
  Tokenizer other = bpe({"ab", "bc", "abc"}, {"a b", "ab c", "b c"});
  EXPECT_EQ(texts(other, other.encode("abc", false, false)),
            (std::vector<std::string_view>{"abc"}));
}

TEST(SyntheticBpe, EqualRanksMergeLeftmostFirst) {
  Tokenizer tokenizer = bpe({"aa", "aaa"}, {"a a", "aa a"});
  EXPECT_EQ(texts(tokenizer, tokenizer.encode("aaa", false, false)),
            (std::vector<std::string_view>{"aaa"}));
  EXPECT_EQ(texts(tokenizer, tokenizer.encode("aaaaa", false, false)),
            (std::vector<std::string_view>{"aa", "aaa"}));  // "a a" everywhere first
}

TEST(SyntheticBpe, SpacesAreByteLevelAndWordsDoNotMergeAcrossTheSplit) {
  Tokenizer tokenizer = bpe({"\xC4\xA0"
                             "a",
                             "aa"},
                            {"\xC4\xA0 a", "a a"});  // "Ġ a"
  EXPECT_EQ(texts(tokenizer, tokenizer.encode("aa aa", false, false)),
            (std::vector<std::string_view>{"aa",
                                           "\xC4\xA0"
                                           "a",
                                           "a"}));
  EXPECT_EQ(tokenizer.decode(tokenizer.encode("aa aa", false, false)), "aa aa");
}

TEST(SyntheticBpe, UnknownPreTokenizerIsAnErrorNamingIt) {
  MetadataBuilder builder;
  builder.string("tokenizer.ggml.model", "gpt2")
      .string("tokenizer.ggml.pre", "martian")
      .strings("tokenizer.ggml.tokens", byte_alphabet())
      .strings("tokenizer.ggml.merges", {});
  auto tokenizer = Tokenizer::from_metadata(builder.metadata());
  ASSERT_FALSE(tokenizer.ok());
  EXPECT_NE(tokenizer.error().describe().find("'martian'"), std::string::npos);
}

TEST(SyntheticVocab, UnsupportedModelIsAnErrorNamingIt) {
  MetadataBuilder builder;
  builder.string("tokenizer.ggml.model", "t5").strings("tokenizer.ggml.tokens", {"a"});
  auto tokenizer = Tokenizer::from_metadata(builder.metadata());
  ASSERT_FALSE(tokenizer.ok());
  EXPECT_EQ(tokenizer.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(tokenizer.error().message().find("'t5'"), std::string::npos);
}

TEST(SyntheticVocab, MissingTokensIsAnError) {
  MetadataBuilder builder;
  builder.string("tokenizer.ggml.model", "llama");
  EXPECT_FALSE(Tokenizer::from_metadata(builder.metadata()).ok());
}

TEST(SyntheticSpm, HighestScoreMergesFirstAndUnknownCharactersFallBackToBytes) {
  // "▁a", "ab" and "▁ab" are tokens; "▁a" scores higher than "ab".
  std::vector<std::string> tokens = {"<unk>",
                                     "<s>",
                                     "</s>",
                                     "\xE2\x96\x81",
                                     "a",
                                     "b",
                                     "\xE2\x96\x81"
                                     "a",
                                     "ab",
                                     "\xE2\x96\x81"
                                     "ab"};
  std::vector<float> scores = {0, 0, 0, -1, -1, -1, -2, -3, -4};
  std::vector<int32_t> types = {2, 3, 3, 1, 1, 1, 1, 1, 1};  // unknown, control, normal
  for (int byte = 0; byte < 256; ++byte) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", byte);
    tokens.push_back(name);
    scores.push_back(0);
    types.push_back(6);  // byte
  }
  MetadataBuilder builder;
  builder.string("tokenizer.ggml.model", "llama")
      .strings("tokenizer.ggml.tokens", tokens)
      .floats("tokenizer.ggml.scores", scores)
      .ints("tokenizer.ggml.token_type", types);
  auto tokenizer = Tokenizer::from_metadata(builder.metadata());
  ASSERT_TRUE(tokenizer.ok()) << tokenizer.error().describe();
  // "▁a" + "b" first (score -2 beats -3), then "▁ab".
  EXPECT_EQ(texts(*tokenizer, tokenizer->encode("ab", false, false)),
            (std::vector<std::string_view>{"\xE2\x96\x81"
                                           "ab"}));
  // "é" is no token: its two bytes.
  EXPECT_EQ(texts(*tokenizer, tokenizer->encode("é", false, false)),
            (std::vector<std::string_view>{"\xE2\x96\x81", "<0xC3>", "<0xA9>"}));
  EXPECT_EQ(tokenizer->decode(tokenizer->encode("é ab", true, false)), "é ab");
}

}  // namespace
}  // namespace ingot::tokenizer
