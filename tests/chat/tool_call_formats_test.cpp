// The families written as data (call_format.h): a reply in each family's
// own syntax parses to its calls, whole and in any split, with arguments
// typed by the tools' schemas where the syntax writes them as text.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chat/tool_calls/argument_typing.h"
#include "chat/tool_calls/call_format.h"
#include "chat/tool_calls/python_literal.h"
#include "chat/tool_calls/tool_call_stream.h"

namespace ingot::chat::tool_calls {
namespace {

using Json = nlohmann::ordered_json;

Json tools() {
  return Json::parse(R"([
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object",
      "properties": {"city": {"type": "string"}, "days": {"type": "integer"},
                     "opts": {"type": "object"}, "code": {"type": "string"}}}}},
    {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object",
      "properties": {"zone": {"type": "string"}}}}}])");
}

const Json kWeather =
    Json::parse(R"({"city": "Paris \"x\" é", "days": 2, "opts": {"a": [1, "b"]}})");
const Json kTime = Json::parse(R"({"zone": "CET"})");

struct FamilyReply {
  ToolCallFamily family;
  std::string reply;  // "Let me check." then the two calls
};

std::vector<FamilyReply> family_replies() {
  return {
      {ToolCallFamily::kQwen3Coder,
       "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis \"x\" é\n"
       "</parameter>\n<parameter=days>\n2\n</parameter>\n<parameter=opts>\n{\"a\": [1, \"b\"]}\n"
       "</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n"
       "<parameter=zone>\nCET\n</parameter>\n</function>\n</tool_call>"},
      {ToolCallFamily::kSeedOss,
       "Let me check.<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris \"x\" é"
       "</parameter>\n<parameter=days>2</parameter>\n<parameter=opts>{'a': [1, 'b']}</parameter>\n"
       "</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=get_time>\n"
       "<parameter=zone>CET</parameter>\n</function>\n</seed:tool_call>"},
      {ToolCallFamily::kGlm,
       "Let me check.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris \"x\" é"
       "</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n<arg_key>opts</arg_key>\n"
       "<arg_value>{\"a\": [1, \"b\"]}</arg_value>\n</tool_call>\n<tool_call>get_time"
       "<arg_key>zone</arg_key><arg_value>CET</arg_value></tool_call>"},
      {ToolCallFamily::kHunyuan,
       "Let me check.<tool_calls:opensource>\n<tool_call:opensource>get_weather"
       "<tool_sep:opensource>\n<arg_key:opensource>city</arg_key:opensource>\n"
       "<arg_value:opensource>Paris \"x\" é</arg_value:opensource>\n<arg_key:opensource>days"
       "</arg_key:opensource>\n<arg_value:opensource>2</arg_value:opensource>\n"
       "<arg_key:opensource>opts</arg_key:opensource>\n<arg_value:opensource>{\"a\": [1, \"b\"]}"
       "</arg_value:opensource>\n</tool_call:opensource>\n<tool_call:opensource>get_time"
       "<tool_sep:opensource>\n<arg_key:opensource>zone</arg_key:opensource>\n"
       "<arg_value:opensource>CET</arg_value:opensource>\n</tool_call:opensource>\n"
       "</tool_calls:opensource>"},
      {ToolCallFamily::kMiniMaxM2,
       "Let me check.\n\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter "
       "name=\"city\">Paris \"x\" é</parameter>\n<parameter name=\"days\">2</parameter>\n"
       "<parameter name=\"opts\">{\"a\": [1, \"b\"]}</parameter>\n</invoke>\n<invoke "
       "name=\"get_time\">\n<parameter name=\"zone\">CET</parameter>\n</invoke>\n"
       "</minimax:tool_call>"},
      {ToolCallFamily::kMiniMaxM3,
       "Let me check.]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"get_weather\">"
       "]<]minimax[>[<city>Paris \"x\" é]<]minimax[>[</city>]<]minimax[>[<days>2]<]minimax[>["
       "</days>]<]minimax[>[<opts>]<]minimax[>[<a>]<]minimax[>[<item>1]<]minimax[>[</item>"
       "]<]minimax[>[<item>b]<]minimax[>[</item>]<]minimax[>[</a>]<]minimax[>[</opts>"
       "]<]minimax[>[</invoke>\n]<]minimax[>[<invoke name=\"get_time\">]<]minimax[>[<zone>CET"
       "]<]minimax[>[</zone>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>"},
      {ToolCallFamily::kDeepSeekDsml,
       "Let me check.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n"
       "<｜DSML｜parameter name=\"city\" string=\"true\">Paris \"x\" é</｜DSML｜parameter>\n"
       "<｜DSML｜parameter name=\"days\" string=\"false\">2</｜DSML｜parameter>\n"
       "<｜DSML｜parameter name=\"opts\" string=\"false\">{\"a\": [1, \"b\"]}</｜DSML｜parameter>\n"
       "</｜DSML｜invoke>\n<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"zone\" "
       "string=\"true\">CET</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>"},
      {ToolCallFamily::kDeepSeekV4Dsml,
       "Let me check.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n"
       "<｜DSML｜parameter name=\"city\" string=\"true\">Paris \"x\" é</｜DSML｜parameter>\n"
       "<｜DSML｜parameter name=\"days\" string=\"false\">2</｜DSML｜parameter>\n"
       "<｜DSML｜parameter name=\"opts\" string=\"false\">{\"a\": [1, \"b\"]}</｜DSML｜parameter>\n"
       "</｜DSML｜invoke>\n<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"zone\" "
       "string=\"true\">CET</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"},
      {ToolCallFamily::kMiniCpm,
       "Let me check.<function name=\"get_weather\"><param name=\"city\">Paris \"x\" é</param>"
       "<param name=\"days\">2</param><param name=\"opts\">{'a': [1, 'b']}</param></function>\n"
       "<function name=\"get_time\"><param name=\"zone\">CET</param></function>"},
      {ToolCallFamily::kFunctionaryV31,
       "Let me check.<function=get_weather>{\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, "
       "\"opts\": {\"a\": [1, \"b\"]}}</function><function=get_time>{\"zone\": \"CET\"}"
       "</function>"},
      {ToolCallFamily::kFunctionaryV32,
       "all\nLet me check.>>>get_weather\n{\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, "
       "\"opts\": {\"a\": [1, \"b\"]}}>>>get_time\n{\"zone\": \"CET\"}"},
      {ToolCallFamily::kDeepSeekR1,
       "Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
       "```json\n{\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}\n```"
       "<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n"
       "{\"zone\": \"CET\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"},
      {ToolCallFamily::kDeepSeekV31,
       "Let me "
       "check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": "
       "\"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}<｜tool▁call▁end｜>"
       "<｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{\"zone\": \"CET\"}<｜tool▁call▁end｜>"
       "<｜tool▁calls▁end｜>"},
      {ToolCallFamily::kKimiK2,
       "Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
       "<|tool_call_argument_begin|>{\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": "
       "{\"a\": [1, \"b\"]}}<|tool_call_end|><|tool_call_begin|>functions.get_time:1"
       "<|tool_call_argument_begin|>{\"zone\": \"CET\"}<|tool_call_end|>"
       "<|tool_calls_section_end|>"},
      {ToolCallFamily::kSolarOpen,
       "Let me check.<|tool_calls|><|tool_call:begin|>a1B2c3D4e<|tool_call:name|>get_weather"
       "<|tool_call:args|>{\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, "
       "\"b\"]}}<|tool_call:end|><|tool_call:begin|>f5G6h7I8j<|tool_call:name|>get_time"
       "<|tool_call:args|>{\"zone\": \"CET\"}<|tool_call:end|>"},
      {ToolCallFamily::kGemma4,
       "Let me check.<|tool_call>call:get_weather{city:<|\"|>Paris \"x\" é<|\"|>,days:2,"
       "opts:{a:[1,<|\"|>b<|\"|>]}}<tool_call|><|tool_call>call:get_time{zone:<|\"|>CET<|\"|>}"
       "<tool_call|>"},
      {ToolCallFamily::kApriel,
       "Let me check.\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": "
       "\"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}}, {\"name\": "
       "\"get_time\", \"arguments\": {\"zone\": \"CET\"}}]</tool_calls>"},
      {ToolCallFamily::kNemotronV2,
       "Let me check.\n<TOOLCALL>[{\"name\": \"get_weather\", \"arguments\": {\"city\": "
       "\"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}}, {\"name\": "
       "\"get_time\", \"arguments\": {\"zone\": \"CET\"}}]</TOOLCALL>"},
      {ToolCallFamily::kCommandR7b,
       "Let me check.<|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": "
       "\"get_weather\", \"parameters\": {\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": "
       "{\"a\": [1, \"b\"]}}},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", "
       "\"parameters\": {\"zone\": \"CET\"}}\n]<|END_ACTION|>"},
      {ToolCallFamily::kApertus,
       "Let me check.<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris \\\"x\\\" é\", "
       "\"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}}, {\"get_time\": {\"zone\": \"CET\"}}]"
       "<|tools_suffix|>"},
      {ToolCallFamily::kGigaChat31,
       "Let me check.<|function_call|>{\"name\": \"get_weather\", \"arguments\": {\"city\": "
       "\"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}}<|function_call|>"
       "{\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}}"},
      {ToolCallFamily::kGigaChat3,
       "Let me check.function call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": "
       "{\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}}"
       "function call<|role_sep|>\n{\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}}"},
      {ToolCallFamily::kGranite3,
       "Let me check.<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": "
       "\"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": {\"a\": [1, \"b\"]}}}, {\"name\": "
       "\"get_time\", \"arguments\": {\"zone\": \"CET\"}}]"},
      {ToolCallFamily::kCommandRPlus,
       "Let me check.\nAction:\n```json\n[\n    {\n        \"tool_name\": \"get_weather\",\n"
       "        \"parameters\": {\"city\": \"Paris \\\"x\\\" é\", \"days\": 2, \"opts\": "
       "{\"a\": [1, \"b\"]}}\n    },\n    {\"tool_name\": \"get_time\", \"parameters\": "
       "{\"zone\": \"CET\"}}\n]```\n"},
      {ToolCallFamily::kPythonicList,
       "Let me check.<|tool_call_start|>[get_weather(city='Paris \"x\" é', days=2, "
       "opts={\"a\": [1, \"b\"]}), get_time(zone='CET')]<|tool_call_end|>"},
  };
}

ParsedReply parse(const FamilyReply& c) {
  return parse_tool_calls(c.reply, c.family, ToolCallIdGenerator(7), ToolSchemas(tools()));
}

TEST(ToolCallFormats, EachFamilysReplyParsesToItsCalls) {
  for (const FamilyReply& c : family_replies()) {
    SCOPED_TRACE(std::string(family_name(c.family)));
    ParsedReply parsed = parse(c);
    EXPECT_EQ(parsed.content, "Let me check.");
    ASSERT_EQ(parsed.tool_calls.size(), 2u);
    EXPECT_EQ(parsed.tool_calls[0].name, "get_weather");
    EXPECT_EQ(Json::parse(parsed.tool_calls[0].arguments), kWeather)
        << parsed.tool_calls[0].arguments;
    EXPECT_EQ(parsed.tool_calls[1].name, "get_time");
    EXPECT_EQ(Json::parse(parsed.tool_calls[1].arguments), kTime);
  }
}

TEST(ToolCallFormats, EverySplitOfAReplyStreamsToTheWholeParse) {
  for (const FamilyReply& c : family_replies()) {
    SCOPED_TRACE(std::string(family_name(c.family)));
    ParsedReply whole = parse(c);
    for (size_t split = 1; split < c.reply.size(); ++split) {
      ToolCallStreamParser parser(c.family, ToolCallIdGenerator(7), ToolSchemas(tools()));
      ParsedReply streamed;
      accumulate(streamed, parser.push(std::string_view(c.reply).substr(0, split)));
      accumulate(streamed, parser.push(std::string_view(c.reply).substr(split)));
      accumulate(streamed, parser.finish());
      ASSERT_EQ(streamed, whole) << "split at " << split;
    }
  }
}

TEST(ToolCallFormats, ByteByByteTheNameComesFirstAndArgumentsFollowInPieces) {
  for (const FamilyReply& c : family_replies()) {
    SCOPED_TRACE(std::string(family_name(c.family)));
    ToolCallStreamParser parser(c.family, ToolCallIdGenerator(7), ToolSchemas(tools()));
    std::vector<ToolCallDelta> deltas;
    std::string content;
    for (char byte : c.reply) {
      ReplyDelta delta = parser.push(std::string_view(&byte, 1));
      content += delta.content;
      for (auto& d : delta.tool_calls) deltas.push_back(d);
    }
    ReplyDelta last = parser.finish();
    content += last.content;
    for (auto& d : last.tool_calls) deltas.push_back(d);
    EXPECT_EQ(content, "Let me check.");
    ASSERT_FALSE(deltas.empty());
    EXPECT_TRUE(deltas[0].id.has_value());
    EXPECT_EQ(deltas[0].name, "get_weather");
    EXPECT_TRUE(deltas[0].arguments.empty());
  }
}

TEST(ToolCallFormats, TheFormatsNameEveryDataFamily) {
  size_t formats = 0;
  for (ToolCallFamily family : all_tool_call_families()) {
    if (call_format(family)) ++formats;
  }
  EXPECT_EQ(formats, family_replies().size());
}

TEST(ToolCallFormats, AContentOnlyReplyStaysContent) {
  for (const FamilyReply& c : family_replies()) {
    SCOPED_TRACE(std::string(family_name(c.family)));
    std::string text = c.family == ToolCallFamily::kFunctionaryV32 ? "all\nHello <b>there</b>"
                                                                   : "Hello <b>there</b>";
    ParsedReply parsed =
        parse_tool_calls(text, c.family, ToolCallIdGenerator(7), ToolSchemas(tools()));
    EXPECT_EQ(parsed.content, "Hello <b>there</b>");
    EXPECT_TRUE(parsed.tool_calls.empty());
  }
}

// Nothing written (the model ended at once) is no call in every family,
// Functionary v3.2 too, whose prompt opened the call.
TEST(ToolCallFormats, AnEmptyReplyIsNoCallInEveryFamily) {
  for (ToolCallFamily family : all_tool_call_families()) {
    SCOPED_TRACE(std::string(family_name(family)));
    for (std::string_view reply : {"", " "}) {
      ParsedReply parsed = parse_tool_calls(reply, family, ToolCallIdGenerator(1));
      EXPECT_TRUE(parsed.tool_calls.empty());
    }
  }
}

TEST(ArgumentTyping, TextIsTypedByTheSchema) {
  Json integer = {{"type", "integer"}};
  Json string = {{"type", "string"}};
  Json object = {{"type", "object"}};
  Json nullable = {{"type", Json::array({"integer", "null"})}};
  EXPECT_EQ(typed_argument("3", &integer), "3");
  EXPECT_EQ(typed_argument("3", &string), "\"3\"");
  EXPECT_EQ(typed_argument("  3\n", &integer), "3");
  EXPECT_EQ(typed_argument("three", &integer), "\"three\"");
  EXPECT_EQ(typed_argument("{'a': True, 'b': None}", &object), R"({"a":true,"b":null})");
  EXPECT_EQ(typed_argument("{\"a\": 1}", &object), R"({"a":1})");
  EXPECT_EQ(typed_argument("null", &nullable), "null");
  EXPECT_EQ(typed_argument("true", &string), "\"true\"");
  // Without a schema JSON stays JSON and anything else is a string.
  EXPECT_EQ(typed_argument("2.5", nullptr), "2.5");
  EXPECT_EQ(typed_argument("CET", nullptr), "\"CET\"");
  EXPECT_EQ(typed_argument("[1, 2]", nullptr), "[1,2]");
}

TEST(PythonLiteral, ReadsWhatStrWrites) {
  EXPECT_EQ(parse_python_literal("{'a': [1, 'b'], 'c': (True, None), 'd': -1.5e3}"),
            Json::parse(R"({"a": [1, "b"], "c": [true, null], "d": -1500.0})"));
  EXPECT_EQ(parse_python_literal("'it\\'s \\u00e9\\n'"), Json("it's é\n"));
  EXPECT_EQ(parse_python_literal("\"double\""), Json("double"));
  EXPECT_EQ(parse_python_literal("[1, 2,]"), Json::parse("[1, 2]"));
  EXPECT_FALSE(parse_python_literal("{'a': }"));
  EXPECT_FALSE(parse_python_literal("'open"));
  EXPECT_FALSE(parse_python_literal("[1] 2"));
  EXPECT_FALSE(parse_python_literal(std::string(200, '[')));
}

ParsedReply parse_qwen3_coder(std::string_view reply) {
  return parse_tool_calls(reply, ToolCallFamily::kQwen3Coder, ToolCallIdGenerator(1),
                          ToolSchemas(tools()));
}

TEST(ToolCallFormats, ATaggedStringThatLooksLikeANumberStaysAString) {
  std::string reply =
      "<tool_call>\n<function=get_weather>\n<parameter=city>\n1234\n</parameter>\n"
      "<parameter=days>\n5\n</parameter>\n</function>\n</tool_call>";
  ParsedReply parsed = parse_qwen3_coder(reply);
  ASSERT_EQ(parsed.tool_calls.size(), 1u);
  EXPECT_EQ(parsed.tool_calls[0].arguments, R"({"city":"1234","days":5})");
}

TEST(ToolCallFormats, ACallCutShortStillClosesItsArguments) {
  std::string reply =
      "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
      "<parameter=days>\n5";
  ParsedReply parsed = parse_qwen3_coder(reply);
  ASSERT_EQ(parsed.tool_calls.size(), 1u);
  EXPECT_EQ(parsed.tool_calls[0].arguments, R"({"city":"Paris"})");
}

}  // namespace
}  // namespace ingot::chat::tool_calls
