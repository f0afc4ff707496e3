// Grammars for the tool-call families written as data: each parses as GBNF,
// accepts the family's own spelling of valid calls (which the family's parser
// reads back to the same calls), and refuses unknown tools and arguments
// against the schema.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chat/tool_calls/call_format.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/grammar_matcher.h"
#include "sampling/grammar/tool_call_grammar.h"

namespace ingot::sampling::grammar {
namespace {

using chat::tool_calls::ToolCallFamily;
using Json = nlohmann::ordered_json;

Json tools() {
  return Json::parse(R"([
    {"type": "function", "function": {"name": "get_weather", "parameters": {
      "type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
      "required": ["city", "days"], "additionalProperties": false}}},
    {"type": "function", "function": {"name": "get_time", "parameters": {
      "type": "object", "properties": {"zone": {"enum": ["UTC", "CET"]}},
      "required": ["zone"], "additionalProperties": false}}}])");
}

std::shared_ptr<const Grammar> build(ToolCallFamily family, ToolChoice choice) {
  ToolCallGrammarOptions options;
  options.family = family;
  options.tools = tools();
  options.choice = choice;
  Result<ToolCallGrammar> grammar = tool_call_grammar(options);
  EXPECT_TRUE(grammar.ok()) << grammar.error().describe();
  if (!grammar.ok()) return nullptr;
  Result<std::shared_ptr<const Grammar>> parsed = parse_gbnf(grammar->gbnf);
  EXPECT_TRUE(parsed.ok()) << parsed.error().describe() << "\n" << grammar->gbnf;
  return parsed.ok() ? *parsed : nullptr;
}

bool accepts(const std::shared_ptr<const Grammar>& grammar, std::string_view text) {
  if (!grammar) return false;
  GrammarMatcher matcher(grammar);
  return matcher.accept_bytes(text) && matcher.can_end();
}

struct Spelling {
  ToolCallFamily family;
  std::string two;       // get_weather(Paris, 3) then get_time(CET)
  std::string bad_args;  // days not an integer
};

std::vector<Spelling> spellings() {
  return {
      {ToolCallFamily::kQwen3Coder,
       "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis <b>\n</parameter>\n"
       "<parameter=days>\n3\n</parameter>\n</function>\n<function=get_time>\n<parameter=zone>\n"
       "CET\n</parameter>\n</function>\n</tool_call>",
       "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
       "<parameter=days>\nthree\n</parameter>\n</function>\n</tool_call>"},
      {ToolCallFamily::kGlm,
       "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"
       "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n<tool_call>get_time\n"
       "<arg_key>zone</arg_key>\n<arg_value>CET</arg_value>\n</tool_call>",
       "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value>"
       "<arg_key>days</arg_key><arg_value>3.5</arg_value></tool_call>"},
      {ToolCallFamily::kMiniMaxM2,
       "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris"
       "</parameter>\n<parameter name=\"days\">3</parameter>\n</invoke>\n<invoke "
       "name=\"get_time\">\n<parameter name=\"zone\">CET</parameter>\n</invoke>\n"
       "</minimax:tool_call>",
       "<minimax:tool_call>\n<invoke name=\"get_time\">\n<parameter name=\"zone\">PST"
       "</parameter>\n</invoke>\n</minimax:tool_call>"},
      {ToolCallFamily::kDeepSeekDsml,
       "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter "
       "name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" "
       "string=\"false\">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke "
       "name=\"get_time\">\n<｜DSML｜parameter name=\"zone\" string=\"true\">CET"
       "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
       "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter "
       "name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
       "</｜DSML｜function_calls>"},
      {ToolCallFamily::kGemma4,
       "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3}<tool_call|>"
       "<|tool_call>call:get_time{zone:<|\"|>CET<|\"|>}<tool_call|>",
       "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:<|\"|>3<|\"|>}<tool_call|>"},
      {ToolCallFamily::kKimiK2,
       "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
       "<|tool_call_argument_begin|>{\"city\": \"Paris\", \"days\": 3}<|tool_call_end|>"
       "<|tool_call_begin|>functions.get_time:0<|tool_call_argument_begin|>{\"zone\": \"CET\"}"
       "<|tool_call_end|><|tool_calls_section_end|>",
       "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
       "<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|>"
       "<|tool_calls_section_end|>"},
      {ToolCallFamily::kFunctionaryV32,
       "get_weather\n{\"city\": \"Paris\", \"days\": 3}>>>get_time\n{\"zone\": \"CET\"}",
       "get_weather\n{\"city\": \"Paris\", \"days\": \"3\"}"},
      {ToolCallFamily::kCommandR7b,
       "<|START_ACTION|>[{\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", "
       "\"days\": 3}}, {\"tool_name\": \"get_time\", \"parameters\": {\"zone\": \"CET\"}}]"
       "<|END_ACTION|>",
       "<|START_ACTION|>[{\"tool_name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}]"
       "<|END_ACTION|>"},
      {ToolCallFamily::kApertus,
       "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\", \"days\": 3}}, {\"get_time\": "
       "{\"zone\": \"CET\"}}]<|tools_suffix|>",
       "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\", \"days\": 3.5}}]"
       "<|tools_suffix|>"},
      {ToolCallFamily::kPythonicList,
       "<|tool_call_start|>[get_weather(city=\"Paris\", days=3), get_time(zone=\"CET\")]"
       "<|tool_call_end|>",
       "<|tool_call_start|>[get_weather(city=\"Paris\")]<|tool_call_end|>"},
  };
}

TEST(FormatCallGrammar, AcceptsTheFamilysOwnSpellingAndItParsesBack) {
  for (const Spelling& s : spellings()) {
    SCOPED_TRACE(std::string(chat::tool_calls::family_name(s.family)));
    auto grammar = build(s.family, ToolChoice::kRequired);
    EXPECT_TRUE(accepts(grammar, s.two));
    EXPECT_FALSE(accepts(grammar, s.bad_args));
    EXPECT_FALSE(accepts(grammar, ""));
    EXPECT_FALSE(accepts(grammar, "Sure! " + s.two));

    chat::tool_calls::ParsedReply parsed = chat::tool_calls::parse_tool_calls(
        s.two, s.family, chat::tool_calls::ToolCallIdGenerator(1),
        chat::tool_calls::ToolSchemas(tools()));
    ASSERT_EQ(parsed.tool_calls.size(), 2u);
    EXPECT_EQ(parsed.tool_calls[0].name, "get_weather");
    EXPECT_EQ(nlohmann::json::parse(parsed.tool_calls[0].arguments)["days"], 3);
    EXPECT_EQ(parsed.tool_calls[1].arguments, R"({"zone":"CET"})");
  }
}

TEST(FormatCallGrammar, EveryDataFamilyHasAGrammarForEachChoice) {
  for (ToolCallFamily family : chat::tool_calls::all_tool_call_families()) {
    if (!chat::tool_calls::call_format(family)) continue;
    SCOPED_TRACE(std::string(chat::tool_calls::family_name(family)));
    EXPECT_NE(build(family, ToolChoice::kRequired), nullptr);
    EXPECT_NE(build(family, ToolChoice::kAuto), nullptr);
  }
}

}  // namespace
}  // namespace ingot::sampling::grammar
