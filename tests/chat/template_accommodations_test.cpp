// The reshaping ChatTemplate::render falls back to when a template refuses
// what clients send: system turns after the first, and tool-call arguments
// as objects.

#include "chat/template_accommodations.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "chat/chat_template.h"
#include "support/shared_data.h"

namespace ingot::chat {
namespace {

using Json = nlohmann::ordered_json;

Json turn(const std::string& role, const std::string& text) {
  return {{"role", role}, {"content", text}};
}

TEST(TemplateAccommodations, LaterSystemTurnsJoinTheLeadingOne) {
  Json messages = Json::array({turn("system", "Be brief."), turn("user", "Hi"),
                               turn("system", "Sandbox: read-only."), turn("assistant", "Hello"),
                               turn("system", "Mind the time.")});
  ASSERT_TRUE(system_turns_first(messages));
  EXPECT_EQ(messages,
            Json::array({turn("system", "Be brief.\n\nSandbox: read-only.\n\nMind the time."),
                         turn("user", "Hi"), turn("assistant", "Hello")}));
}

TEST(TemplateAccommodations, ALeadingSystemTurnIsMadeWhenThereIsNone) {
  Json parts = {{"role", "system"},
                {"content", Json::array({{{"type", "text"}, {"text", "Use tools."}}})}};
  Json messages = Json::array({turn("user", "Hi"), parts});
  ASSERT_TRUE(system_turns_first(messages));
  EXPECT_EQ(messages, Json::array({turn("system", "Use tools."), turn("user", "Hi")}));
}

TEST(TemplateAccommodations, SeveralLeadingSystemTurnsBecomeOne) {
  Json messages = Json::array({turn("system", "A"), turn("system", "B"), turn("user", "Hi")});
  ASSERT_TRUE(system_turns_first(messages));
  EXPECT_EQ(messages, Json::array({turn("system", "A\n\nB"), turn("user", "Hi")}));
}

TEST(TemplateAccommodations, NothingToMoveOrToWriteAsText) {
  Json messages = Json::array({turn("system", "A"), turn("user", "Hi")});
  Json before = messages;
  EXPECT_FALSE(system_turns_first(messages));
  EXPECT_FALSE(arguments_as_text(messages));
  EXPECT_EQ(messages, before);
}

TEST(TemplateAccommodations, ArgumentsObjectsBecomeTheirJsonText) {
  Json messages =
      Json::array({{{"role", "assistant"},
                    {"tool_calls",
                     Json::array({{{"function", {{"name", "f"}, {"arguments", {{"a", 1}}}}}}})}}});
  ASSERT_TRUE(arguments_as_text(messages));
  EXPECT_EQ(messages[0]["tool_calls"][0]["function"]["arguments"], R"({"a":1})");
}

// Qwen3.5's template raises on a system turn that is not first; Codex and
// Claude Code send them mid-conversation.
TEST(TemplateAccommodations, Qwen35RendersASystemTurnSentMidConversation) {
  INGOT_REQUIRE_SHARED();
  std::ifstream file(testing::shared_path("fixtures/templates/Qwen3.5-4B.jinja"));
  std::stringstream source;
  source << file.rdbuf();
  ChatPromptInput input;
  input.messages = Json::array({turn("system", "Be brief."), turn("system", "Use tools."),
                                turn("user", "Hi"), turn("system", "Sandbox: read-only.")});
  Result<std::string> prompt = render_chat_prompt(source.str(), input);
  ASSERT_TRUE(prompt.ok()) << prompt.error().describe();
  EXPECT_NE(prompt->find("Be brief.\n\nUse tools.\n\nSandbox: read-only."), std::string::npos)
      << *prompt;
  EXPECT_LT(prompt->find("Sandbox"), prompt->find("Hi"));
}

}  // namespace
}  // namespace ingot::chat
