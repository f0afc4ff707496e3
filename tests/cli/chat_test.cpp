// `ingot chat` driven through a pseudo-terminal: two turns, a Ctrl-C in
// the middle of a reply, /quit.

#include <gtest/gtest.h>

#include "cli/pseudo_terminal.h"
#include "support/shared_data.h"
#include "support/synthetic_model.h"

namespace ingot::testing {
namespace {

// The end of the figures line printed after every reply.
constexpr char kFigures[] = " ms]";

std::vector<std::string> chat_command(const std::string& model, const std::string& max_tokens) {
  const bool absolute = !model.empty() && model.front() == '/';
  return {(build_dir() / "ingot").string(),
          "chat",
          "--model",
          absolute ? model : shared_path(model).string(),
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

// One greedy reply to "Once upon a time": the text between the terminal's
// echo of the line and the figures, and the figures.
std::pair<std::string, std::string> one_reply(std::vector<std::string> command) {
  PseudoTerminal terminal(std::move(command));
  EXPECT_TRUE(terminal.started());
  terminal.read_until("> ");
  terminal.type("Once upon a time\n");
  std::string shown = terminal.read_until(kFigures);
  terminal.read_until("> ");
  terminal.type("/quit\n");
  EXPECT_EQ(terminal.wait_exit(), 0);
  const std::string echo = "Once upon a time\r\n";
  const size_t begin = shown.find(echo), figures = shown.rfind("\n[");
  if (begin == std::string::npos || figures == std::string::npos || figures < begin) {
    ADD_FAILURE() << shown;
    return {};
  }
  return {shown.substr(begin + echo.size(), figures - begin - echo.size()), shown.substr(figures)};
}

// The echo prediction block drafts what the model will say, so most drafts
// stand; whatever it drafts, the reply is the model's own.
TEST(ChatCommand, MtpGivesTheSameGreedyReplyAndCountsItsDrafts) {
  INGOT_REQUIRE_SHARED();
  const std::string model = synthetic_model("tiny-qwen35", "f16", "echo");
  auto [plain, plain_figures] = one_reply(chat_command(model, "24"));
  std::vector<std::string> with_mtp = chat_command(model, "24");
  with_mtp.push_back("--mtp");
  auto [drafted, drafted_figures] = one_reply(with_mtp);
  EXPECT_FALSE(plain.empty());
  EXPECT_EQ(drafted, plain);
  EXPECT_NE(drafted_figures.find(" accepted, "), std::string::npos) << drafted_figures;
  EXPECT_EQ(plain_figures.find("drafts"), std::string::npos) << plain_figures;
}

TEST(ChatCommand, MtpOnAModelWithoutAPredictionBlockSaysSo) {
  INGOT_REQUIRE_SHARED();
  std::vector<std::string> command = chat_command("models/stories260K.gguf", "4");
  command.push_back("--mtp");
  PseudoTerminal terminal(command);
  ASSERT_TRUE(terminal.started());
  EXPECT_EQ(terminal.wait_exit(), 1);
  EXPECT_NE(terminal.transcript().find("multi-token-prediction"), std::string::npos)
      << terminal.transcript();
}

}  // namespace
}  // namespace ingot::testing
