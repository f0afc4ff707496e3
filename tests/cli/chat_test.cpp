// `ingot chat` driven through a pseudo-terminal: two turns, a Ctrl-C in
// the middle of a reply, /quit.

#include <gtest/gtest.h>

#include "cli/pseudo_terminal.h"
#include "support/shared_data.h"

namespace ingot::testing {
namespace {

// The end of the figures line printed after every reply.
constexpr char kFigures[] = " ms]";

std::vector<std::string> chat_command(const std::string& model, const std::string& max_tokens) {
  return {(build_dir() / "ingot").string(),
          "chat",
          "--model",
          shared_path(model).string(),
          "--threads",
          "1",
          "--temp",
          "0",
          "-n",
          max_tokens};
}

void two_turns_and_quit(const std::string& model) {
  PseudoTerminal terminal(chat_command(model, "12"));
  ASSERT_TRUE(terminal.started());
  ASSERT_NE(terminal.read_until("> ").find("ingot chat"), std::string::npos);

  terminal.type("Once upon a time\n");
  std::string first = terminal.read_until(kFigures);
  EXPECT_NE(first.find("[12 tokens"), std::string::npos) << first;
  terminal.read_until("> ");

  // The second turn reuses the first from the cache.
  terminal.type("Tell me more\n");
  std::string second = terminal.read_until(kFigures);
  EXPECT_NE(second.find("cached)"), std::string::npos) << second;
  EXPECT_EQ(second.find("(0 cached)"), std::string::npos) << second;
  terminal.read_until("> ");

  terminal.type("/quit\n");
  EXPECT_EQ(terminal.wait_exit(), 0);
  EXPECT_FALSE(terminal.stalled()) << terminal.transcript();
}

// A reply with no token limit, stopped by Ctrl-C once its text has begun;
// the program stays at its prompt.
void interrupt_a_reply(const std::string& model) {
  PseudoTerminal terminal(chat_command(model, "-1"));
  ASSERT_TRUE(terminal.started());
  terminal.read_until("> ");
  terminal.type("Once upon a time\n");
  terminal.read_until("Once upon a time\r\n");  // the terminal's echo
  terminal.read_some();                         // the reply has begun
  terminal.press_ctrl_c();
  std::string stopped = terminal.read_until(kFigures);
  EXPECT_NE(stopped.find("[stopped]"), std::string::npos) << stopped;
  terminal.read_until("> ");
  terminal.type("/quit\n");
  EXPECT_EQ(terminal.wait_exit(), 0);
  EXPECT_FALSE(terminal.stalled()) << terminal.transcript();
}

TEST(ChatCommand, Stories260KTwoTurns) {
  INGOT_REQUIRE_SHARED();
  two_turns_and_quit("models/stories260K.gguf");
}

TEST(ChatCommand, TinyQwen3TwoTurnsWithItsChatTemplate) {
  INGOT_REQUIRE_SHARED();
  two_turns_and_quit("models/tiny-qwen3-f16.gguf");
}

TEST(ChatCommand, CtrlCStopsTheReplyNotTheProgram) {
  INGOT_REQUIRE_SHARED();
  // tiny-qwen3's random weights rarely end a reply, so it runs until stopped.
  interrupt_a_reply("models/tiny-qwen3-f16.gguf");
}

}  // namespace
}  // namespace ingot::testing
