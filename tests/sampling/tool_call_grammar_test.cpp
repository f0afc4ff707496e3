// Tool-call grammars per family, the ones written as data among them: they
// parse as GBNF, accept the calls the tool-call parser reads (in the
// family's own syntax, with arguments valid for the tool's schema) and
// refuse unknown tools, arguments against the schema, and a second call
// where only one is allowed.

#include "sampling/grammar/tool_call_grammar.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chat/tool_calls/call_format.h"
#include "chat/tool_calls/tool_call_stream.h"
#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/grammar_matcher.h"

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

ToolCallGrammar build(ToolCallFamily family, ToolChoice choice, bool parallel = true,
                      std::string function = "") {
  ToolCallGrammarOptions options;
  options.family = family;
  options.tools = tools();
  options.choice = choice;
  options.function_name = std::move(function);
  options.parallel_tool_calls = parallel;
  Result<ToolCallGrammar> grammar = tool_call_grammar(options);
  EXPECT_TRUE(grammar.ok()) << grammar.error().describe();
  return grammar.ok() ? *grammar : ToolCallGrammar();
}

bool accepts(const ToolCallGrammar& grammar, std::string_view text) {
  Result<std::shared_ptr<const Grammar>> parsed = parse_gbnf(grammar.gbnf);
  EXPECT_TRUE(parsed.ok()) << parsed.error().describe() << "\n" << grammar.gbnf;
  if (!parsed.ok()) return false;
  GrammarMatcher matcher(*parsed);
  return matcher.accept_bytes(text) && matcher.can_end();
}

struct FamilyTexts {
  ToolCallFamily family;
  std::string one;       // get_weather(Paris, 3)
  std::string two;       // get_weather then get_time
  std::string bad_name;  // an unknown tool
  std::string bad_args;  // days as a string
};

std::vector<FamilyTexts> family_texts() {
  return {
      {ToolCallFamily::kHermes,
       "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": "
       "3}}\n</tool_call>",
       "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": "
       "3}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {\"zone\": "
       "\"CET\"}}\n</tool_call>",
       "<tool_call>\n{\"name\": \"get_wether\", \"arguments\": {}}\n</tool_call>",
       "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": "
       "\"3\"}}\n</tool_call>"},
      {ToolCallFamily::kLlama3,
       "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}",
       "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3}}\n"
       "{\"name\": \"get_time\", \"parameters\": {\"zone\": \"CET\"}}",
       "{\"name\": \"get_wether\", \"parameters\": {}}",
       "{\"name\": \"get_weather\", \"parameters\": {\"city\": 1, \"days\": 3}}"},
      {ToolCallFamily::kMistralArray,
       "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": "
       "3}}]",
       "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": "
       "3}}, {\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}}]",
       "[TOOL_CALLS][{\"name\": \"get_wether\", \"arguments\": {}}]",
       "[TOOL_CALLS][{\"name\": \"get_time\", \"arguments\": {\"zone\": \"PST\"}}]"},
      {ToolCallFamily::kMistralTagged,
       "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3}",
       "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3}"
       "[TOOL_CALLS]get_time[ARGS]{\"zone\": \"CET\"}",
       "[TOOL_CALLS]get_wether[ARGS]{}", "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}"},
      {ToolCallFamily::kGeneric,
       "{\"tool_calls\": [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", "
       "\"days\": 3}}]}",
       "{\"tool_calls\": [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", "
       "\"days\": 3}}, {\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}}]}",
       "{\"tool_calls\": [{\"name\": \"get_wether\", \"arguments\": {}}]}",
       "{\"tool_calls\": [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", "
       "\"days\": 3, \"extra\": 1}}]}"},
  };
}

TEST(ToolCallGrammar, AcceptsWhatTheParserReadsPerFamily) {
  for (const FamilyTexts& t : family_texts()) {
    SCOPED_TRACE(chat::tool_calls::family_name(t.family));
    ToolCallGrammar grammar = build(t.family, ToolChoice::kRequired);
    EXPECT_TRUE(grammar.triggers.empty());
    EXPECT_TRUE(accepts(grammar, t.one));
    EXPECT_TRUE(accepts(grammar, t.two));
    EXPECT_FALSE(accepts(grammar, t.bad_name));
    EXPECT_FALSE(accepts(grammar, t.bad_args));
    EXPECT_FALSE(accepts(grammar, ""));
    EXPECT_FALSE(accepts(grammar, "Sure! " + t.one));

    chat::tool_calls::ParsedReply parsed = chat::tool_calls::parse_tool_calls(
        t.two, t.family, chat::tool_calls::ToolCallIdGenerator(1));
    EXPECT_EQ(parsed.content, std::nullopt);
    ASSERT_EQ(parsed.tool_calls.size(), 2u);
    EXPECT_EQ(parsed.tool_calls[0].name, "get_weather");
    EXPECT_EQ(parsed.tool_calls[0].arguments, R"({"city":"Paris","days":3})");
    EXPECT_EQ(parsed.tool_calls[1].name, "get_time");
    EXPECT_EQ(parsed.tool_calls[1].arguments, R"({"zone":"CET"})");
  }
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
      {ToolCallFamily::kMiniMaxM3,
       "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>"
       "Paris]<]minimax[>[</city>]<]minimax[>[<days>3]<]minimax[>[</days>]<]minimax[>[</invoke>\n"
       "]<]minimax[>[<invoke name=\"get_time\">]<]minimax[>[<zone>CET]<]minimax[>[</zone>"
       "]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
       "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"get_weather\">]<]minimax[>[<city>"
       "Paris]<]minimax[>[</city>]<]minimax[>[<days>three]<]minimax[>[</days>]<]minimax[>["
       "</invoke>\n]<]minimax[>[</tool_call>"},
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

// The families written as data (call_format.h): their own spelling of
// valid calls is accepted and parses back to the same calls.
TEST(FormatCallGrammar, AcceptsTheFamilysOwnSpellingAndItParsesBack) {
  for (const Spelling& s : spellings()) {
    SCOPED_TRACE(std::string(chat::tool_calls::family_name(s.family)));
    ToolCallGrammar grammar = build(s.family, ToolChoice::kRequired);
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

// MiniMax M3 writes objects and arrays as nested elements; the grammar
// spells them so, and what it allows parses back to the schema's types.
TEST(FormatCallGrammar, NestedElementsFollowTheSchema) {
  ToolCallGrammarOptions options;
  options.family = ToolCallFamily::kMiniMaxM3;
  options.tools = Json::parse(R"([{"type": "function", "function": {"name": "plan",
    "parameters": {"type": "object", "properties": {
      "stops": {"type": "array", "minItems": 1, "items": {"type": "object",
        "properties": {"city": {"type": "string"}, "nights": {"type": "integer"}},
        "required": ["city", "nights"]}},
      "rush": {"type": "boolean"}}, "required": ["stops"]}}}])");
  options.choice = ToolChoice::kRequired;
  Result<ToolCallGrammar> grammar = tool_call_grammar(options);
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
  const std::string m = "]<]minimax[>[";
  std::string call = m + "<tool_call>\n" + m + "<invoke name=\"plan\">" + m + "<stops>" + m +
                     "<item>" + m + "<city>Lyon 2" + m + "</city>" + m + "<nights>2" + m +
                     "</nights>" + m + "</item>" + m + "</stops>" + m + "<rush>true" + m +
                     "</rush>" + m + "</invoke>\n" + m + "</tool_call>";
  EXPECT_TRUE(accepts(*grammar, call));
  std::string empty = m + "<tool_call>\n" + m + "<invoke name=\"plan\">" + m + "<stops>" + m +
                      "</stops>" + m + "</invoke>\n" + m + "</tool_call>";
  EXPECT_FALSE(accepts(*grammar, empty));  // minItems

  chat::tool_calls::ParsedReply parsed = chat::tool_calls::parse_tool_calls(
      call, ToolCallFamily::kMiniMaxM3, chat::tool_calls::ToolCallIdGenerator(1),
      chat::tool_calls::ToolSchemas(options.tools));
  ASSERT_EQ(parsed.tool_calls.size(), 1u);
  EXPECT_EQ(parsed.tool_calls[0].arguments,
            R"({"stops":[{"city":"Lyon 2","nights":2}],"rush":true})");
}

// Gemma 4's objects and arrays follow their schemas member by member.
TEST(FormatCallGrammar, GemmaNestedValuesFollowTheSchema) {
  ToolCallGrammarOptions options;
  options.family = ToolCallFamily::kGemma4;
  options.tools = Json::parse(R"([{"type": "function", "function": {"name": "plan",
    "parameters": {"type": "object", "properties": {
      "units": {"type": "object", "properties": {"scale": {"enum": ["C", "F"]}},
                "required": ["scale"]},
      "hours": {"type": "array", "items": {"type": "integer"}, "maxItems": 2}},
      "required": ["units"]}}}])");
  options.choice = ToolChoice::kRequired;
  Result<ToolCallGrammar> grammar = tool_call_grammar(options);
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
  const std::string q = "<|\"|>";
  EXPECT_TRUE(accepts(*grammar, "<|tool_call>call:plan{units:{scale:" + q + "C" + q +
                                    "},hours:[1,2]}<tool_call|>"));
  EXPECT_TRUE(accepts(
      *grammar, "<|tool_call>call:plan{units:{scale:" + q + "F" + q + "},hours:[]}<tool_call|>"));
  EXPECT_FALSE(accepts(*grammar, "<|tool_call>call:plan{units:false}<tool_call|>"));
  EXPECT_FALSE(accepts(*grammar, "<|tool_call>call:plan{units:{scale:" + q + "C" + q +
                                     "},hours:[1,2,3]}<tool_call|>"));
}

// A required call may follow the template's reasoning block: one the
// prompt opened must close first; one it did not is optional.
TEST(ToolCallGrammar, RequiredCallMayFollowTheReasoningBlock) {
  const std::string call =
      "<tool_call>\n<function=get_time>\n<parameter=zone>\nCET\n</parameter>\n</function>\n"
      "</tool_call>";
  ToolCallGrammarOptions options;
  options.family = ToolCallFamily::kQwen3Coder;
  options.tools = tools();
  options.choice = ToolChoice::kRequired;
  options.reasoning = ReasoningBlock{"<think>", "</think>", /*opened=*/true};
  Result<ToolCallGrammar> opened = tool_call_grammar(options);
  ASSERT_TRUE(opened.ok()) << opened.error().describe();
  EXPECT_TRUE(accepts(*opened, "\nThe zone is CET.\n</think>\n\n" + call));
  EXPECT_TRUE(accepts(*opened, "</think>" + call));
  EXPECT_FALSE(accepts(*opened, call));

  options.reasoning->opened = false;
  Result<ToolCallGrammar> optional = tool_call_grammar(options);
  ASSERT_TRUE(optional.ok()) << optional.error().describe();
  EXPECT_TRUE(accepts(*optional, call));
  EXPECT_TRUE(accepts(*optional, "<think>Zone: CET.</think>\n\n" + call));
  EXPECT_FALSE(accepts(*optional, "Zone: CET.</think>" + call));
}

TEST(FormatCallGrammar, EveryDataFamilyHasAGrammarForEachChoice) {
  for (ToolCallFamily family : chat::tool_calls::all_tool_call_families()) {
    if (!chat::tool_calls::call_format(family)) continue;
    SCOPED_TRACE(std::string(chat::tool_calls::family_name(family)));
    for (ToolChoice choice : {ToolChoice::kRequired, ToolChoice::kAuto}) {
      Result<std::shared_ptr<const Grammar>> parsed = parse_gbnf(build(family, choice).gbnf);
      EXPECT_TRUE(parsed.ok()) << parsed.error().describe();
    }
  }
}

TEST(ToolCallGrammar, OneCallWithoutParallelCallsOrForANamedFunction) {
  for (const FamilyTexts& t : family_texts()) {
    SCOPED_TRACE(chat::tool_calls::family_name(t.family));
    ToolCallGrammar single = build(t.family, ToolChoice::kRequired, false);
    EXPECT_TRUE(accepts(single, t.one));
    EXPECT_FALSE(accepts(single, t.two));

    ToolCallGrammar named = build(t.family, ToolChoice::kFunction, true, "get_weather");
    EXPECT_TRUE(accepts(named, t.one));
    EXPECT_FALSE(accepts(named, t.two));  // get_time is not allowed, nor a second call
  }
}

TEST(ToolCallGrammar, AutoArmsAtTheFamilysTriggers) {
  std::vector<std::pair<ToolCallFamily, std::vector<std::string>>> expected = {
      {ToolCallFamily::kHermes, {"<tool_call>"}},
      {ToolCallFamily::kLlama3, {"<|python_tag|>", "{\"name\""}},
      {ToolCallFamily::kMistralArray, {"[TOOL_CALLS]"}},
      {ToolCallFamily::kMistralTagged, {"[TOOL_CALLS]"}},
      {ToolCallFamily::kGeneric, {"{\"tool_calls\""}},
  };
  for (const auto& [family, triggers] : expected) {
    EXPECT_EQ(build(family, ToolChoice::kAuto).triggers, triggers);
  }
  // Each trigger starts a text the armed grammar accepts.
  for (const FamilyTexts& t : family_texts()) {
    ToolCallGrammar grammar = build(t.family, ToolChoice::kAuto);
    bool starts_with_a_trigger = false;
    for (const std::string& trigger : grammar.triggers) {
      starts_with_a_trigger = starts_with_a_trigger || t.one.starts_with(trigger);
    }
    EXPECT_TRUE(starts_with_a_trigger) << t.one;
    EXPECT_TRUE(accepts(grammar, t.one)) << t.one;
  }
  EXPECT_TRUE(
      accepts(build(ToolCallFamily::kLlama3, ToolChoice::kAuto),
              "<|python_tag|>{\"name\": \"get_time\", \"parameters\": {\"zone\": \"UTC\"}}"));
}

TEST(ToolCallGrammar, BadToolsAreClearErrors) {
  ToolCallGrammarOptions options;
  options.tools = tools();
  options.choice = ToolChoice::kFunction;
  options.function_name = "nope";
  Result<ToolCallGrammar> unknown = tool_call_grammar(options);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind(), ErrorKind::kInvalidArgument);
  EXPECT_NE(unknown.error().message().find("nope"), std::string::npos);

  for (std::string_view bad :
       {R"([])", R"([{"type": "function"}])",
        R"([{"type": "function", "function": {"name": "a b"}}])",
        R"([{"type": "function", "function": {"name": "f", "parameters": 3}}])"}) {
    options = ToolCallGrammarOptions();
    options.tools = Json::parse(bad);
    Result<ToolCallGrammar> result = tool_call_grammar(options);
    ASSERT_FALSE(result.ok()) << bad;
    EXPECT_EQ(result.error().kind(), ErrorKind::kInvalidArgument) << bad;
  }

  // Absent parameters: any object.
  options = ToolCallGrammarOptions();
  options.family = ToolCallFamily::kHermes;
  options.tools = Json::parse(R"([{"type": "function", "function": {"name": "ping"}}])");
  Result<ToolCallGrammar> any = tool_call_grammar(options);
  ASSERT_TRUE(any.ok()) << any.error().describe();
  EXPECT_TRUE(accepts(
      *any, "<tool_call>\n{\"name\": \"ping\", \"arguments\": {\"x\": [1]}}\n</tool_call>"));
  EXPECT_FALSE(accepts(*any, "<tool_call>\n{\"name\": \"ping\", \"arguments\": 3}\n</tool_call>"));
}

TEST(ToolCallGrammar, UnsupportedSchemaKeywordIsNamedWithItsTool) {
  ToolCallGrammarOptions options;
  options.tools = Json::parse(R"([{"type": "function", "function": {"name": "f",
      "parameters": {"type": "object", "properties": {"x": {"type": "string", "format": "ipv9"}}}}}])");
  Result<ToolCallGrammar> result = tool_call_grammar(options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind(), ErrorKind::kUnsupported);
  EXPECT_NE(result.error().describe().find("ipv9"), std::string::npos);
  EXPECT_NE(result.error().describe().find("tool 'f'"), std::string::npos);
}

TEST(ToolCallGrammar, ToolNamesThatSpellAlikeAsRulesStayApart) {
  ToolCallGrammarOptions options;
  options.family = ToolCallFamily::kMistralTagged;
  options.tools = Json::parse(R"([
      {"type": "function", "function": {"name": "a_b", "parameters": {"type": "object",
        "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false}}},
      {"type": "function", "function": {"name": "a-b", "parameters": {"type": "object",
        "properties": {"s": {"type": "string"}}, "required": ["s"], "additionalProperties": false}}}])");
  Result<ToolCallGrammar> grammar = tool_call_grammar(options);
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
  EXPECT_TRUE(accepts(*grammar, "[TOOL_CALLS]a_b[ARGS]{\"n\": 1}"));
  EXPECT_TRUE(accepts(*grammar, "[TOOL_CALLS]a-b[ARGS]{\"s\": \"x\"}"));
  EXPECT_FALSE(accepts(*grammar, "[TOOL_CALLS]a-b[ARGS]{\"n\": 1}"));
}

}  // namespace
}  // namespace ingot::sampling::grammar
