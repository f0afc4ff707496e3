// Which Hosts and Origins a server on loopback answers: the DNS-rebinding
// and cross-origin guards, as pure decisions.

#include "server/http/browser_boundary.h"

#include <gtest/gtest.h>

namespace ingot::server {
namespace {

TEST(BrowserBoundary, OnLoopbackOnlyLoopbackHostsAndAllowedNamesPass) {
  const BrowserPolicy policy{true, {"my-box.lan"}, {}};
  for (const char* host : {"127.0.0.1:8080", "localhost", "LOCALHOST:1", "app.localhost:8080",
                           "[::1]:8080", "127.1.2.3", "my-box.lan:8080", ""}) {
    EXPECT_TRUE(host_allowed(policy, host)) << host;
  }
  for (const char* host : {"evil.example", "evil.example:8080", "127.0.0.1.evil.example",
                           "localhost.evil.example", "128.0.0.1", "127.0.0.256", "[::2]:80"}) {
    EXPECT_FALSE(host_allowed(policy, host)) << host;
  }
  EXPECT_TRUE(host_allowed({true, {"*"}, {}}, "anything.example"));
  EXPECT_TRUE(host_allowed({false, {}, {}}, "evil.example"));  // listening beyond loopback
}

TEST(BrowserBoundary, LoopbackOriginsTheServersOwnAndNamedOnesMayCall) {
  const BrowserPolicy policy{true, {}, {"https://app.example"}};
  EXPECT_TRUE(origin_allowed(policy, "http://localhost:5173", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed(policy, "http://127.0.0.1:3000", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed(policy, "http://[::1]:3000", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed(policy, "https://app.example", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed(policy, "http://box.lan:8080", "box.lan:8080"));  // its own page
  EXPECT_FALSE(origin_allowed(policy, "https://evil.example", "127.0.0.1:8080"));
  EXPECT_FALSE(origin_allowed(policy, "http://app.example", "127.0.0.1:8080"));  // scheme differs
  EXPECT_FALSE(origin_allowed(policy, "null", "127.0.0.1:8080"));
  EXPECT_TRUE(origin_allowed({true, {}, {"*"}}, "https://evil.example", "127.0.0.1:8080"));
}

TEST(BrowserBoundary, LoopbackAddresses) {
  EXPECT_TRUE(is_loopback_address("127.0.0.1"));
  EXPECT_TRUE(is_loopback_address("::1"));
  EXPECT_FALSE(is_loopback_address("0.0.0.0"));
  EXPECT_FALSE(is_loopback_address("192.168.1.5"));
}

}  // namespace
}  // namespace ingot::server
