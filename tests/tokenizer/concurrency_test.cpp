// One Tokenizer shared by threads gives every thread the same ids it gives
// one thread: encode keeps no state between calls.

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "tokenizer_fixtures.h"

namespace ingot::tokenizer {
namespace {

TEST(Concurrency, ThreadsSharingATokenizerGetTheSameIds) {
  INGOT_REQUIRE_SHARED();
  const Tokenizer* tokenizer = testing::shared_tokenizer("models/tiny-qwen2-f16.gguf");
  ASSERT_NE(tokenizer, nullptr);
  const std::vector<std::string> texts = {
      "<|im_start|>user\nHello, world! 1234<|im_end|>\n",
      "int main() {\n    return 0;\n}\n",
      "日本語のテキストと English words mixed 🚀",
      std::string(2000, ' ') + "tail",
  };
  std::vector<std::vector<int32_t>> expected;
  for (const std::string& text : texts) expected.push_back(tokenizer->encode(text, true, true));

  constexpr int kThreads = 4;
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 50; ++round) {
        size_t which = static_cast<size_t>(round + t) % texts.size();
        if (tokenizer->encode(texts[which], true, true) != expected[which]) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace ingot::tokenizer
