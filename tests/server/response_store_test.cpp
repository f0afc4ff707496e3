// The stored responses: found while kept, the least recently used evicted
// past either bound, an entry too large for the store never kept.

#include "server/responses/response_store.h"

#include <gtest/gtest.h>

namespace ingot::server::responses {
namespace {

std::shared_ptr<const StoredResponse> response_with(std::string text) {
  auto stored = std::make_shared<StoredResponse>();
  stored->response = {{"output_text", std::move(text)}};
  stored->input_items = nlohmann::ordered_json::array();
  stored->conversation = nlohmann::ordered_json::array();
  return stored;
}

TEST(ResponseStore, KeepsAndForgets) {
  ResponseStore store(4, 1 << 20);
  store.put("a", response_with("one"));
  ASSERT_NE(store.get("a"), nullptr);
  EXPECT_EQ(store.get("a")->response["output_text"], "one");
  EXPECT_EQ(store.get("b"), nullptr);
  EXPECT_TRUE(store.erase("a"));
  EXPECT_FALSE(store.erase("a"));
  EXPECT_EQ(store.get("a"), nullptr);
  EXPECT_EQ(store.size(), 0u);
  EXPECT_EQ(store.bytes(), 0u);
}

TEST(ResponseStore, TheLeastRecentlyUsedGoesFirstPastTheEntryBound) {
  ResponseStore store(2, 1 << 20);
  store.put("a", response_with("1"));
  store.put("b", response_with("2"));
  ASSERT_NE(store.get("a"), nullptr);  // now b is the least recently used
  store.put("c", response_with("3"));
  EXPECT_NE(store.get("a"), nullptr);
  EXPECT_EQ(store.get("b"), nullptr);
  EXPECT_NE(store.get("c"), nullptr);
  EXPECT_EQ(store.size(), 2u);
}

TEST(ResponseStore, TheByteBoundEvictsToo) {
  const size_t one = response_with(std::string(100, 'x'))->response.dump().size() + 4;
  ResponseStore store(100, 2 * one + one / 2);
  store.put("a", response_with(std::string(100, 'x')));
  store.put("b", response_with(std::string(100, 'y')));
  store.put("c", response_with(std::string(100, 'z')));
  EXPECT_EQ(store.get("a"), nullptr);
  EXPECT_NE(store.get("b"), nullptr);
  EXPECT_NE(store.get("c"), nullptr);
  EXPECT_LE(store.bytes(), 2 * one + one / 2);
}

TEST(ResponseStore, AnEntryLargerThanTheStoreIsNotKept) {
  ResponseStore store(100, 64);
  store.put("small", response_with("s"));
  store.put("large", response_with(std::string(1000, 'x')));
  EXPECT_EQ(store.get("large"), nullptr);
  EXPECT_NE(store.get("small"), nullptr);
}

TEST(ResponseStore, ReplacingAnIdCountsItOnce) {
  ResponseStore store(4, 1 << 20);
  store.put("a", response_with("first"));
  store.put("a", response_with("second"));
  EXPECT_EQ(store.size(), 1u);
  EXPECT_EQ(store.get("a")->response["output_text"], "second");
}

TEST(ResponseStore, WhatWasReturnedOutlivesItsEviction) {
  ResponseStore store(1, 1 << 20);
  store.put("a", response_with("kept"));
  std::shared_ptr<const StoredResponse> held = store.get("a");
  store.put("b", response_with("newer"));
  EXPECT_EQ(store.get("a"), nullptr);
  EXPECT_EQ(held->response["output_text"], "kept");
}

TEST(ResponseStore, ASizeOfZeroKeepsNothing) {
  ResponseStore store(0, 1 << 20);
  store.put("a", response_with("x"));
  EXPECT_EQ(store.get("a"), nullptr);
}

}  // namespace
}  // namespace ingot::server::responses
