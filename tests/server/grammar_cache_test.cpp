#include "server/grammar_cache.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

TEST(GrammarCache, TheSameTextIsTheSameGrammar) {
  GrammarCache cache;
  auto first = cache.get(R"(root ::= "yes" | "no")");
  auto again = cache.get(R"(root ::= "yes" | "no")");
  auto other = cache.get(R"(root ::= "maybe")");
  ASSERT_TRUE(first.ok() && again.ok() && other.ok());
  EXPECT_EQ(first->get(), again->get());
  EXPECT_NE(first->get(), other->get());
  EXPECT_EQ(cache.size(), 2u);
}

TEST(GrammarCache, ParseErrorsAreReportedAndNotKept) {
  GrammarCache cache;
  auto bad = cache.get("root ::= [a-");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message().find("1:"), std::string::npos) << bad.error().message();
  EXPECT_EQ(cache.size(), 0u);
}

TEST(GrammarCache, TheLeastRecentlyUsedGrammarIsDroppedPastCapacity) {
  GrammarCache cache(2);
  auto a = cache.get(R"(root ::= "a")");
  ASSERT_TRUE(cache.get(R"(root ::= "b")").ok());
  ASSERT_TRUE(cache.get(R"(root ::= "a")").ok());  // "a" is now the most recent
  ASSERT_TRUE(cache.get(R"(root ::= "c")").ok());  // drops "b"
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.get(R"(root ::= "a")")->get(), a->get());
}

// A client that left stops its grammar's compile, and nothing is kept.
TEST(GrammarCache, ACompileWhoseClientLeftStopsAndIsNotKept) {
  GrammarCache cache;
  std::atomic<bool> gone = true;
  GrammarCompileWatch watch;
  watch.cancelled = &gone;
  auto stopped = cache.get(R"(root ::= "a" b
b ::= "b")",
                           watch);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().kind(), ErrorKind::kCancelled);
  EXPECT_EQ(cache.size(), 0u);
}

// Only a grammar the cache lacks is announced as a compile (a request
// steps out of the admission order for it).
TEST(GrammarCache, OnlyAGrammarNotCachedIsAnnouncedAsACompile) {
  GrammarCache cache;
  int compiles = 0;
  GrammarCompileWatch watch;
  watch.before_compile = [&compiles] { ++compiles; };
  ASSERT_TRUE(cache.get(R"(root ::= "a")", watch).ok());
  ASSERT_TRUE(cache.get(R"(root ::= "a")", watch).ok());
  EXPECT_EQ(compiles, 1);
}

}  // namespace
}  // namespace ingot::server
