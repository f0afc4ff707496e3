// Tool-call parsing per family, whole and streamed: every way of cutting a
// reply into pieces streams to the same content and calls as the whole
// reply, and no piece of a call ever leaks into content.

#include "chat/tool_calls/tool_call_stream.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace ingot::chat::tool_calls {
namespace {

constexpr uint64_t kSeed = 42;

ParsedReply parse(std::string_view reply, ToolCallFamily family) {
  return parse_tool_calls(reply, family, ToolCallIdGenerator(kSeed, id_style_for(family)));
}

// Streams `reply` cut at `cuts` and checks the deltas' shape on the way.
ParsedReply stream(std::string_view reply, ToolCallFamily family, const std::vector<size_t>& cuts) {
  ToolCallStreamParser parser(family, ToolCallIdGenerator(kSeed, id_style_for(family)));
  ParsedReply built;
  size_t start = 0;
  auto take = [&](const ReplyDelta& delta) {
    for (const ToolCallDelta& call : delta.tool_calls) {
      if (call.id) {
        EXPECT_EQ(call.index, built.tool_calls.size());
        EXPECT_TRUE(call.name.has_value());
        EXPECT_EQ(call.arguments, "");
      } else {
        EXPECT_LT(call.index, built.tool_calls.size());
        EXPECT_FALSE(call.name.has_value());
      }
      accumulate(built, {"", {call}});
    }
    if (!delta.content.empty()) accumulate(built, {delta.content, {}});
  };
  for (size_t cut : cuts) {
    take(parser.push(reply.substr(start, cut - start)));
    start = cut;
  }
  take(parser.push(reply.substr(start)));
  take(parser.finish());
  return built;
}

std::string describe(const ParsedReply& reply) {
  std::string text = "content=" + (reply.content ? "\"" + *reply.content + "\"" : "null");
  for (const ToolCall& call : reply.tool_calls) {
    text += " call(" + call.id + ", " + call.name + ", " + call.arguments + ")";
  }
  return text;
}

// Every cut into two and three pieces, every byte its own piece, and random cuts.
void expect_split_invariant(std::string_view reply, ToolCallFamily family) {
  ParsedReply whole = parse(reply, family);
  for (size_t a = 0; a <= reply.size(); ++a) {
    ASSERT_EQ(stream(reply, family, {a}), whole)
        << "cut at " << a << ": " << describe(stream(reply, family, {a}));
    for (size_t b = a; b <= reply.size() && reply.size() <= 120; ++b) {
      ASSERT_EQ(stream(reply, family, {a, b}), whole) << "cuts at " << a << ", " << b;
    }
  }
  std::vector<size_t> every;
  for (size_t i = 1; i < reply.size(); ++i) every.push_back(i);
  ASSERT_EQ(stream(reply, family, every), whole) << "every byte a piece";
  std::mt19937 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<size_t> cuts;
    for (size_t i = 1; i < reply.size(); ++i) {
      if (rng() % 4 == 0) cuts.push_back(i);
    }
    ASSERT_EQ(stream(reply, family, cuts), whole) << "random cuts, trial " << trial;
  }
}

// The ids the whole-reply parser gives its calls, in order.
std::vector<std::string> ids(ToolCallFamily family, size_t count) {
  ToolCallIdGenerator generator(kSeed, id_style_for(family));
  std::vector<std::string> result;
  for (size_t i = 0; i < count; ++i) result.push_back(generator.next());
  return result;
}

TEST(ToolCallStream, HermesOneCallWithTextBefore) {
  ParsedReply reply = parse(
      "Let me look.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": "
      "\"Paris\", \"unit\": \"c\"}}\n</tool_call>",
      ToolCallFamily::kHermes);
  EXPECT_EQ(reply.content, "Let me look.");
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].name, "get_weather");
  EXPECT_EQ(reply.tool_calls[0].arguments, R"({"city":"Paris","unit":"c"})");
  EXPECT_EQ(reply.tool_calls[0].id, ids(ToolCallFamily::kHermes, 1)[0]);
}

TEST(ToolCallStream, HermesParallelCallsAndNoContent) {
  ParsedReply reply = parse(
      "<tool_call>\n{\"name\": \"a\", \"arguments\": {}}\n</tool_call>\n"
      "<tool_call>\n{\"arguments\": {\"x\": [1, 2.5e3, true, null]}, \"name\": "
      "\"b\"}\n</tool_call>",
      ToolCallFamily::kHermes);
  EXPECT_EQ(reply.content, std::nullopt);
  ASSERT_EQ(reply.tool_calls.size(), 2u);
  EXPECT_EQ(reply.tool_calls[0].name, "a");
  EXPECT_EQ(reply.tool_calls[0].arguments, "{}");
  EXPECT_EQ(reply.tool_calls[1].name, "b");
  EXPECT_EQ(reply.tool_calls[1].arguments, R"({"x":[1,2.5e3,true,null]})");
  EXPECT_EQ(reply.tool_calls[0].id, ids(ToolCallFamily::kHermes, 2)[0]);
  EXPECT_EQ(reply.tool_calls[1].id, ids(ToolCallFamily::kHermes, 2)[1]);
}

TEST(ToolCallStream, ArgumentStringsKeepTheirSpacesAndEscapes) {
  ParsedReply reply = parse(
      "<tool_call>{\"name\": \"say\", \"arguments\": {\"text\": \"a  b\\n\\\"c\\\" \\u00e9 é\"}}"
      "</tool_call>",
      ToolCallFamily::kHermes);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].arguments, R"({"text":"a  b\n\"c\" \u00e9 é"})");
}

TEST(ToolCallStream, MalformedCallsStayContent) {
  for (std::string_view text : {
           "<tool_call>not json</tool_call>",
           "<tool_call>{\"name\": 3, \"arguments\": {}}</tool_call>",
           "<tool_call>{\"name\": \"\", \"arguments\": {}}</tool_call>",
           "<tool_call>{\"name\": \"f\"}</tool_call>",
           "<tool_call>{\"name\": \"f\", \"arguments\": \"x\"}</tool_call>",
           "<tool_call>{\"arguments\": {\"a\": 1}, \"name\": \"f\"",
           "<tool_call>{\"arguments\": {\"a\": 1,}, \"name\": \"f\"}</tool_call>",
           "<tool_call",
           "<tool_call>",
           "I use <tool_calls> often",
       }) {
    ParsedReply reply = parse(text, ToolCallFamily::kHermes);
    EXPECT_TRUE(reply.tool_calls.empty()) << text;
    EXPECT_EQ(reply.content, std::string(text)) << text;
  }
}

TEST(ToolCallStream, AMarkerInsideRejectedTextStillOpensACall) {
  ParsedReply reply =
      parse("<tool_call>oops <tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>",
            ToolCallFamily::kHermes);
  EXPECT_EQ(reply.content, "<tool_call>oops");
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].name, "f");
}

TEST(ToolCallStream, AnAnnouncedCallCutShortStands) {
  ParsedReply reply = parse("<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": \"unfini",
                            ToolCallFamily::kHermes);
  EXPECT_EQ(reply.content, std::nullopt);
  ASSERT_EQ(reply.tool_calls.size(), 1u);
  EXPECT_EQ(reply.tool_calls[0].arguments, R"({"a":"unfini)");
}

TEST(ToolCallStream, PartialMarkerIsHeldBackUntilDecided) {
  ToolCallStreamParser parser(ToolCallFamily::kHermes, ToolCallIdGenerator(1));
  EXPECT_EQ(parser.push("Sure <tool_").content, "Sure");
  ReplyDelta opened = parser.push("call>\n{\"name\": \"f\", \"argu");
  EXPECT_EQ(opened.content, "");
  EXPECT_TRUE(opened.tool_calls.empty());  // the name is known, the arguments not begun
  ReplyDelta header = parser.push("ments\": {\"k\"");
  ASSERT_EQ(header.tool_calls.size(), 2u);
  EXPECT_EQ(header.tool_calls[0].name, "f");
  EXPECT_EQ(header.tool_calls[0].arguments, "");
  EXPECT_EQ(header.tool_calls[1].arguments, "{\"k\"");
  ReplyDelta rest = parser.push(": 1}}\n</tool_call>");
  ASSERT_EQ(rest.tool_calls.size(), 1u);
  EXPECT_EQ(rest.tool_calls[0].arguments, ":1}");
  EXPECT_TRUE(parser.finish().empty());

  ToolCallStreamParser plain(ToolCallFamily::kHermes, ToolCallIdGenerator(1));
  EXPECT_EQ(plain.push("a <tool").content, "a");
  EXPECT_EQ(plain.push("box> b").content, " <toolbox> b");
}

TEST(ToolCallStream, LlamaJsonReplyAndPythonTag) {
  ParsedReply bare = parse("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\"}}",
                           ToolCallFamily::kLlama3);
  EXPECT_EQ(bare.content, std::nullopt);
  ASSERT_EQ(bare.tool_calls.size(), 1u);
  EXPECT_EQ(bare.tool_calls[0].name, "get_weather");
  EXPECT_EQ(bare.tool_calls[0].arguments, R"({"city":"Oslo"})");

  ParsedReply tagged =
      parse("<|python_tag|>{\"name\": \"f\", \"parameters\": {}}", ToolCallFamily::kLlama3);
  ASSERT_EQ(tagged.tool_calls.size(), 1u);
  EXPECT_EQ(tagged.tool_calls[0].name, "f");

  ParsedReply prose = parse("The answer is {\"name\": \"x\"}.", ToolCallFamily::kLlama3);
  EXPECT_EQ(prose.content, "The answer is {\"name\": \"x\"}.");
  EXPECT_TRUE(prose.tool_calls.empty());

  ParsedReply not_a_call = parse("{\"name\": \"Bob\", \"age\": 3}", ToolCallFamily::kLlama3);
  EXPECT_EQ(not_a_call.content, "{\"name\": \"Bob\", \"age\": 3}");
  EXPECT_TRUE(not_a_call.tool_calls.empty());
}

TEST(ToolCallStream, LlamaBuiltinToolsAndCode) {
  ParsedReply builtin = parse("<|python_tag|>brave_search.call(query=\"ingot, llm\", count=3)",
                              ToolCallFamily::kLlama3);
  ASSERT_EQ(builtin.tool_calls.size(), 1u);
  EXPECT_EQ(builtin.tool_calls[0].name, "brave_search");
  EXPECT_EQ(builtin.tool_calls[0].arguments, R"({"query":"ingot, llm","count":3})");

  ParsedReply code =
      parse("<|python_tag|>import math\nprint(\"pi\", math.pi)", ToolCallFamily::kLlama3);
  ASSERT_EQ(code.tool_calls.size(), 1u);
  EXPECT_EQ(code.tool_calls[0].name, "python");
  EXPECT_EQ(code.tool_calls[0].arguments, R"x({"code":"import math\nprint(\"pi\", math.pi)"})x");
  EXPECT_EQ(code.content, std::nullopt);
}

TEST(ToolCallStream, MistralArrayAndTaggedSyntaxes) {
  ParsedReply array = parse(
      "[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {\"q\": 1}, \"id\": \"abcDEF123\"}, "
      "{\"name\": \"b\", \"arguments\": {}}]",
      ToolCallFamily::kMistralArray);
  EXPECT_EQ(array.content, std::nullopt);
  ASSERT_EQ(array.tool_calls.size(), 2u);
  EXPECT_EQ(array.tool_calls[0].arguments, R"({"q":1})");
  EXPECT_EQ(array.tool_calls[1].name, "b");
  EXPECT_EQ(array.tool_calls[0].id.size(), 9u);

  ParsedReply tagged = parse(
      "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Rome\"}[TOOL_CALLS]get_time[CALL_ID]x1Y2z3A4b"
      "[ARGS]{}",
      ToolCallFamily::kMistralTagged);
  EXPECT_EQ(tagged.content, std::nullopt);
  ASSERT_EQ(tagged.tool_calls.size(), 2u);
  EXPECT_EQ(tagged.tool_calls[0].name, "get_weather");
  EXPECT_EQ(tagged.tool_calls[0].arguments, R"({"city":"Rome"})");
  EXPECT_EQ(tagged.tool_calls[1].name, "get_time");
  EXPECT_EQ(tagged.tool_calls[1].arguments, "{}");

  ParsedReply broken = parse("[TOOL_CALLS]oops no", ToolCallFamily::kMistralTagged);
  EXPECT_EQ(broken.content, "[TOOL_CALLS]oops no");
}

// gpt-oss's call as the engine's harmony channels pass it on: the
// recipient, anything up to <|message|>, the arguments.
TEST(ToolCallStream, HarmonyRecipientAndArguments) {
  ParsedReply call =
      parse("to=functions.get_weather<|message|>{\"city\": \"Rome\"}", ToolCallFamily::kHarmony);
  EXPECT_EQ(call.content, std::nullopt);
  ASSERT_EQ(call.tool_calls.size(), 1u);
  EXPECT_EQ(call.tool_calls[0].name, "get_weather");
  EXPECT_EQ(call.tool_calls[0].arguments, R"({"city":"Rome"})");

  ParsedReply with_header =
      parse("Checking. to=functions.lookup<|channel|>commentary json<|message|>{}",
            ToolCallFamily::kHarmony);
  EXPECT_EQ(with_header.content, "Checking.");
  ASSERT_EQ(with_header.tool_calls.size(), 1u);
  EXPECT_EQ(with_header.tool_calls[0].name, "lookup");

  ParsedReply broken = parse("to=functions.f no message", ToolCallFamily::kHarmony);
  EXPECT_TRUE(broken.tool_calls.empty());
  EXPECT_EQ(broken.content, "to=functions.f no message");
}

TEST(ToolCallStream, GenericObjectAndWrapper) {
  ParsedReply single =
      parse("{\"name\": \"f\", \"arguments\": {\"a\": \"b\"}}", ToolCallFamily::kGeneric);
  ASSERT_EQ(single.tool_calls.size(), 1u);
  EXPECT_EQ(single.tool_calls[0].arguments, R"({"a":"b"})");

  ParsedReply wrapped = parse(
      " {\"tool_calls\": [{\"name\": \"f\", \"arguments\": {}}, {\"name\": \"g\", \"arguments\": "
      "{\"n\": -1}}]}",
      ToolCallFamily::kGeneric);
  EXPECT_EQ(wrapped.content, std::nullopt);
  ASSERT_EQ(wrapped.tool_calls.size(), 2u);
  EXPECT_EQ(wrapped.tool_calls[1].name, "g");
  EXPECT_EQ(wrapped.tool_calls[1].arguments, R"({"n":-1})");

  ParsedReply text = parse("Hello there.", ToolCallFamily::kGeneric);
  EXPECT_EQ(text.content, "Hello there.");
  EXPECT_TRUE(text.tool_calls.empty());
}

TEST(ToolCallStream, StreamedRepliesMatchWholeRepliesHoweverTheyAreCut) {
  struct Case {
    ToolCallFamily family;
    std::string reply;
  };
  std::vector<Case> cases = {
      {ToolCallFamily::kHermes,
       "Checking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
       "</tool_call>\n<tool_call>\n{\"name\": \"b\", \"arguments\": {\"x\": [1, {\"y\": null}]}}\n"
       "</tool_call>"},
      {ToolCallFamily::kHermes,
       "<tool_call>{\"arguments\": {\"a\": 1}, \"name\": \"f\"}</tool_call>"},
      {ToolCallFamily::kHermes, "a <tool_call>bad</tool_call> <tool_call>{\"name\": \"f\"}"},
      {ToolCallFamily::kHermes,
       "<tool_call>{\"name\": \"f\", \"arguments\": {\"s\": \"x y\"}} trailing"},
      {ToolCallFamily::kHermes, "plain text < with [brackets] and {braces}"},
      {ToolCallFamily::kHermes,
       "<<tool_call>{\"name\": \"f\", \"arguments\": {\"é\": \"ü\"}}</tool_call>"},
      {ToolCallFamily::kLlama3, "  {\"name\": \"f\", \"parameters\": {\"n\": 12}}"},
      {ToolCallFamily::kLlama3, "{\"name\": \"Bob\", \"age\": 3} is a person"},
      {ToolCallFamily::kLlama3, "<|python_tag|>wolfram_alpha.call(query=\"2+2\")"},
      {ToolCallFamily::kLlama3, "<|python_tag|>print(1 + 2)\n"},
      {ToolCallFamily::kMistralArray,
       "[TOOL_CALLS] [{\"name\": \"a\", \"arguments\": {\"q\": \"1\"}}, {\"name\": \"b\", "
       "\"arguments\": {}}]"},
      {ToolCallFamily::kMistralTagged,
       "[TOOL_CALLS]a[ARGS]{\"k\": [1,2]}[TOOL_CALLS]b[CALL_ID]abc123XYZ[ARGS]{}"},
      {ToolCallFamily::kMistralTagged, "Sure. [TOOL_CA and [TOOL_CALLS]x[ARG"},
      {ToolCallFamily::kHarmony, "to=functions.f<|message|>{\"a\": [1, {\"b\": null}]}"},
      {ToolCallFamily::kHarmony, "Hm. to=functions.x <|constrain|>json<|message|>{\"k\": \"v\""},
      {ToolCallFamily::kGeneric,
       "{\"tool_calls\": [{\"name\": \"f\", \"arguments\": {\"a\": true}}]}"},
      {ToolCallFamily::kGeneric, "{\"tool_calls\": [{\"name\": \"f\"}]} no"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.reply);
    expect_split_invariant(c.reply, c.family);
  }
}

// Mutated calls (bytes dropped, doubled, replaced by syntax characters):
// whatever the text, streaming agrees with the whole parse and nothing
// crashes (run under the asan preset too).
TEST(ToolCallStream, MutatedRepliesStillStreamLikeWholeOnes) {
  const std::vector<std::pair<ToolCallFamily, std::string>> seeds = {
      {ToolCallFamily::kHermes,
       "Ok <tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": [1, \"x\\\"y\"]}}\n</tool_call>"},
      {ToolCallFamily::kLlama3, "{\"name\": \"f\", \"parameters\": {\"b\": {\"c\": null}}}"},
      {ToolCallFamily::kLlama3, "<|python_tag|>search.call(q=\"a, b\", n=2)"},
      {ToolCallFamily::kMistralArray, "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}]"},
      {ToolCallFamily::kMistralTagged, "[TOOL_CALLS]f[CALL_ID]abc123def[ARGS]{\"k\": 1.5}"},
      {ToolCallFamily::kGeneric, "{\"tool_calls\": [{\"name\": \"f\", \"arguments\": {}}]}"},
      {ToolCallFamily::kHarmony, "to=functions.f <|constrain|>json<|message|>{\"a\": [1]}"},
  };
  const std::string noise = "{}[]\":,<>|\\ \n_tca";
  std::mt19937 rng(2024);
  for (const auto& [family, seed] : seeds) {
    for (int trial = 0; trial < 150; ++trial) {
      std::string text = seed;
      int edits = 1 + static_cast<int>(rng() % 3);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0:
            text.erase(at, 1);
            break;
          case 1:
            text.insert(at, 1, text[at]);
            break;
          default:
            text[at] = noise[rng() % noise.size()];
        }
      }
      ParsedReply whole = parse(text, family);
      std::vector<size_t> every;
      for (size_t i = 1; i < text.size(); ++i) every.push_back(i);
      ASSERT_EQ(stream(text, family, every), whole) << text;
      std::vector<size_t> cuts;
      for (size_t i = 1; i < text.size(); ++i) {
        if (rng() % 3 == 0) cuts.push_back(i);
      }
      ASSERT_EQ(stream(text, family, cuts), whole) << text;
    }
  }
}

// Whether `text` is whole UTF-8 characters (no sequence cut at either end).
bool whole_utf8(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    auto lead = static_cast<unsigned char>(text[i]);
    size_t length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

// The engine hands over whole characters; held-back text starts at ASCII
// marker bytes, so no delta ends inside a character either.
TEST(ToolCallStream, DeltasOfWholeCharactersStayWholeCharacters) {
  std::string reply =
      "Température à Paris — je regarde <tool_call>\n{\"name\": \"météo\", \"arguments\": "
      "{\"ville\": \"Zürich 東京\"}}\n</tool_call> 🙂 fin";
  ToolCallStreamParser parser(ToolCallFamily::kHermes, ToolCallIdGenerator(3));
  size_t i = 0;
  while (i < reply.size()) {
    size_t length = 1;
    while (i + length < reply.size() &&
           (static_cast<unsigned char>(reply[i + length]) & 0xC0) == 0x80) {
      ++length;
    }
    ReplyDelta delta = parser.push(std::string_view(reply).substr(i, length));
    EXPECT_TRUE(whole_utf8(delta.content)) << delta.content;
    for (const ToolCallDelta& call : delta.tool_calls) EXPECT_TRUE(whole_utf8(call.arguments));
    i += length;
  }
  EXPECT_TRUE(whole_utf8(parser.finish().content));
  ParsedReply whole = parse(reply, ToolCallFamily::kHermes);
  EXPECT_EQ(whole.content, "Température à Paris — je regarde🙂 fin");
  ASSERT_EQ(whole.tool_calls.size(), 1u);
  EXPECT_EQ(whole.tool_calls[0].name, "météo");
}

TEST(ToolCallStream, SameSeedSameIdsStyleByFamily) {
  ToolCallIdGenerator a(9), b(9), c(10);
  std::string first = a.next();
  EXPECT_EQ(first, b.next());
  EXPECT_NE(first, c.next());
  ASSERT_EQ(first.size(), 29u);
  EXPECT_EQ(first.substr(0, 5), "call_");
  for (char ch : first.substr(5)) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)));
  std::string mistral = ToolCallIdGenerator(9, ToolCallIdStyle::kMistral).next();
  EXPECT_EQ(mistral.size(), 9u);
  EXPECT_NE(ToolCallIdGenerator::unseeded().next(), ToolCallIdGenerator::unseeded().next());
}

}  // namespace
}  // namespace ingot::chat::tool_calls
