// The developer role: kept for templates that name it, a system turn for
// the rest.

#include "chat/message_roles.h"

#include <gtest/gtest.h>

namespace ingot::chat {
namespace {

using json = nlohmann::ordered_json;

TEST(MessageRoles, OnlyTemplatesThatNameTheRoleReadIt) {
  EXPECT_TRUE(template_reads_developer_role(
      R"({%- if messages[0].role == "developer" or messages[0].role == "system" %})"));
  EXPECT_TRUE(
      template_reads_developer_role("{%- if messages[0]['role'] in ['system', 'developer'] -%}"));
  EXPECT_FALSE(template_reads_developer_role(
      "{%- if message.role == \"user\" or (message.role == \"system\" and not loop.first) %}"));
  EXPECT_FALSE(template_reads_developer_role("{# a developer's note #}{{ messages }}"));
}

TEST(MessageRoles, DeveloperTurnsBecomeSystemTurnsAndNothingElseChanges) {
  const json messages = json::parse(R"([
    {"role": "developer", "content": "Be brief."},
    {"role": "system", "content": "Extra."},
    {"role": "user", "content": "hi"}])");
  const json mapped = developer_as_system(messages);
  EXPECT_EQ(mapped[0], json::parse(R"({"role": "system", "content": "Be brief."})"));
  EXPECT_EQ(mapped[1], messages[1]);
  EXPECT_EQ(mapped[2], messages[2]);
}

}  // namespace
}  // namespace ingot::chat
