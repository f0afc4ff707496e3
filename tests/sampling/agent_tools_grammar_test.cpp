// The tools coding agents send (Claude Code's and Codex's schemas, as
// captured in tests/fixtures/agent-tools) give a usable call grammar in
// every family's syntax, for each tool_choice: relaxed as the server
// relaxes non-strict tools, then compiled.

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "chat/tool_calls/tool_call_family.h"
#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/schema_relaxation.h"
#include "sampling/grammar/tool_call_grammar.h"
#include "support/shared_data.h"

namespace ingot::sampling::grammar {
namespace {

using Json = nlohmann::ordered_json;

Json agent_tools(const std::string& file) {
  std::ifstream in(testing::source_dir() / "tests/fixtures/agent-tools" / file);
  Json tools = Json::parse(in, nullptr, false);
  EXPECT_TRUE(tools.is_array()) << file;
  for (Json& tool : tools) {
    Json& function = tool["function"];
    function["parameters"] = relax_schema(function["parameters"]).schema;
  }
  return tools;
}

TEST(AgentToolsGrammar, EveryFamilyCompilesClaudeCodesAndCodexsTools) {
  for (const char* file : {"claude-code-2.1.332.json", "codex-0.171.0.json"}) {
    Json tools = agent_tools(file);
    ASSERT_TRUE(tools.is_array());
    for (chat::tool_calls::ToolCallFamily family : chat::tool_calls::all_tool_call_families()) {
      for (ToolChoice choice : {ToolChoice::kRequired, ToolChoice::kAuto}) {
        SCOPED_TRACE(std::string(file) + " " + std::string(chat::tool_calls::family_name(family)) +
                     (choice == ToolChoice::kAuto ? " auto" : " required"));
        ToolCallGrammarOptions options;
        options.family = family;
        options.tools = tools;
        options.choice = choice;
        options.reasoning = ReasoningBlock{"<think>", "</think>", true};
        Result<ToolCallGrammar> grammar = tool_call_grammar(options);
        ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
        Result<std::shared_ptr<const Grammar>> parsed = parse_gbnf(grammar->gbnf);
        EXPECT_TRUE(parsed.ok()) << parsed.error().describe();
      }
    }
  }
}

}  // namespace
}  // namespace ingot::sampling::grammar
