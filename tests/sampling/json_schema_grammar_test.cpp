#include "sampling/grammar/json_schema_grammar.h"

#include <gtest/gtest.h>

// GCC 12 at -O1 (the asan preset) reports std::regex's internal
// std::function as maybe-uninitialized: a false positive in libstdc++.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "sampling/grammar/gbnf_parser.h"
#include "sampling/grammar/grammar_matcher.h"
#include "support/shared_data.h"

namespace ingot::sampling::grammar {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

std::shared_ptr<const Grammar> compile_schema(const Json& schema) {
  Result<std::string> text = json_schema_to_gbnf(schema);
  EXPECT_TRUE(text.ok()) << text.error().describe();
  if (!text.ok()) return nullptr;
  auto grammar = parse_gbnf(*text);
  EXPECT_TRUE(grammar.ok()) << grammar.error().describe() << "\n" << *text;
  return grammar.ok() ? *grammar : nullptr;
}

bool accepts(const std::shared_ptr<const Grammar>& grammar, std::string_view text) {
  GrammarMatcher matcher(grammar);
  return matcher.accept_bytes(text) && matcher.can_end();
}

// One byte at a time, so every UTF-8 character is split.
bool accepts_bytewise(const std::shared_ptr<const Grammar>& grammar, std::string_view text) {
  GrammarMatcher matcher(grammar);
  for (char c : text) {
    if (!matcher.accept_bytes(std::string_view(&c, 1))) return false;
  }
  return matcher.can_end();
}

std::string error_of(const Json& schema) {
  Result<std::string> text = json_schema_to_gbnf(schema);
  return text.ok() ? std::string("(no error)") : text.error().message();
}

struct CorpusCase {
  std::string name;
  Json data;
};

std::vector<CorpusCase> load_corpus() {
  std::vector<CorpusCase> cases;
  fs::path dir = ingot::testing::source_dir() / "tests/sampling/schemas";
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    cases.push_back({entry.path().stem().string(), Json::parse(in)});
  }
  std::sort(cases.begin(), cases.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return cases;
}

std::vector<std::string> texts(const Json& data, const char* values_key, const char* texts_key,
                               bool pretty_too) {
  std::vector<std::string> out;
  for (const Json& value : data.value(values_key, Json::array())) {
    out.push_back(value.dump());
    if (pretty_too) out.push_back(value.dump(2));
  }
  for (const Json& text : data.value(texts_key, Json::array()))
    out.push_back(text.get<std::string>());
  return out;
}

TEST(JsonSchemaCorpus, EveryGrammarAcceptsItsValidInstancesAndRejectsTheInvalidOnes) {
  std::vector<CorpusCase> corpus = load_corpus();
  ASSERT_GE(corpus.size(), 30u);
  for (const CorpusCase& entry : corpus) {
    SCOPED_TRACE(entry.name);
    auto grammar = compile_schema(entry.data["schema"]);
    if (!grammar) continue;
    for (const std::string& text : texts(entry.data, "valid", "valid_text", true)) {
      EXPECT_TRUE(accepts(grammar, text)) << "should accept: " << text;
      EXPECT_TRUE(accepts_bytewise(grammar, text)) << "should accept byte by byte: " << text;
    }
    std::vector<std::string> rejected = texts(entry.data, "invalid", "invalid_text", false);
    for (const std::string& text : texts(entry.data, "grammar_rejects", "-", false))
      rejected.push_back(text);
    for (const std::string& text : rejected)
      EXPECT_FALSE(accepts(grammar, text)) << "should reject: " << text;
  }
}

// --- errors ---------------------------------------------------------------

TEST(JsonSchemaGrammar, UnsupportedKeywordsAreErrorsThatNameThem) {
  for (const char* keyword :
       {"uniqueItems", "not", "patternProperties", "multipleOf", "if", "minProperties", "contains",
        "propertyNames", "unevaluatedProperties", "nullable"}) {
    Json schema = {{"type", "object"},
                   {"properties", {{"a", {{"type", "array"}, {keyword, true}}}}}};
    Result<std::string> text = json_schema_to_gbnf(schema);
    ASSERT_FALSE(text.ok()) << keyword;
    EXPECT_EQ(text.error().kind(), ErrorKind::kUnsupported);
    EXPECT_NE(text.error().message().find(std::string("'") + keyword + "'"), std::string::npos)
        << text.error().message();
    EXPECT_NE(text.error().message().find("#/properties/a"), std::string::npos)
        << text.error().message();
  }
}

TEST(JsonSchemaGrammar, UnsupportedFormatsPatternsAndReferencesAreNamed) {
  EXPECT_NE(error_of({{"type", "string"}, {"format", "ipv4"}}).find("'ipv4'"), std::string::npos);
  EXPECT_NE(error_of({{"type", "string"}, {"pattern", "^(?=a)b$"}}).find("lookaround"),
            std::string::npos);
  EXPECT_NE(error_of({{"type", "string"}, {"pattern", "(a)\\1"}}).find("backreference"),
            std::string::npos);
  EXPECT_NE(error_of({{"type", "string"}, {"pattern", "\\bword"}}).find("\\b"), std::string::npos);
  EXPECT_NE(error_of({{"type", "string"}, {"pattern", "\\p{L}"}}).find("\\p"), std::string::npos);
  EXPECT_NE(error_of({{"type", "string"}, {"pattern", "a(^b)"}}).find("'^'"), std::string::npos);
  EXPECT_NE(error_of({{"$ref", "https://example.com/s.json"}}).find("only references inside"),
            std::string::npos);
  EXPECT_NE(error_of({{"$ref", "#/$defs/missing"}}).find("points to nothing"), std::string::npos);
  EXPECT_NE(error_of({{"type", "number"}, {"minimum", 0.5}}).find("fractional bound"),
            std::string::npos);
  EXPECT_NE(error_of({{"type", "string"}, {"format", "date"}, {"maxLength", 3}})
                .find("'format' together"),
            std::string::npos);
}

TEST(JsonSchemaGrammar, MalformedSchemasAreInvalidArguments) {
  for (const Json& schema :
       {Json(false), Json(3), Json{{"type", "strung"}}, Json{{"type", "string"}, {"minLength", -1}},
        Json{{"type", "integer"}, {"minimum", 5}, {"maximum", 4}}, Json{{"enum", Json::array()}},
        Json{{"type", "string"}, {"enum", {1, 2}}},
        Json{{"properties", {{"a", true}}}, {"required", {"b"}}, {"additionalProperties", false}},
        Json{{"type", "array"}, {"prefixItems", {true}}, {"items", false}, {"minItems", 2}}}) {
    Result<std::string> text = json_schema_to_gbnf(schema);
    ASSERT_FALSE(text.ok()) << schema.dump();
    EXPECT_EQ(text.error().kind(), ErrorKind::kInvalidArgument) << text.error().message();
  }
}

TEST(JsonSchemaGrammar, AllOfMemberClosedToItsOwnPropertiesExcludesTheOthers) {
  // No value satisfies this (b is required, but the first member forbids it).
  Json unsatisfiable = {
      {"allOf",
       {{{"properties", {{"a", {{"type", "string"}}}}}, {"additionalProperties", false}},
        {{"properties", {{"b", {{"type", "string"}}}}}, {"required", {"b"}}}}}};
  EXPECT_NE(error_of(unsatisfiable).find("'b' is excluded"), std::string::npos)
      << error_of(unsatisfiable);
  // An optional property of another member is simply never generated, and
  // a member's additionalProperties schema binds the others' properties.
  auto grammar =
      compile_schema({{"allOf",
                       {{{"properties", {{"a", {{"type", "integer"}}}}},
                         {"additionalProperties", {{"type", "integer"}, {"maximum", 5}}}},
                        {{"properties", {{"b", {{"type", "integer"}}}, {"c", true}}},
                         {"required", {"a", "b"}}}}}});
  ASSERT_TRUE(grammar);
  EXPECT_TRUE(accepts(grammar, R"({"a":9,"b":5})"));
  EXPECT_FALSE(accepts(grammar, R"({"a":9,"b":6})"));
}

TEST(JsonSchemaGrammar, AReferenceCycleWithoutProgressIsAnErrorNotAHang) {
  Json schema = {{"$defs", {{"a", {{"allOf", {{{"$ref", "#/$defs/a"}}}}, {"type", "object"}}}}},
                 {"$ref", "#/$defs/a"}};
  EXPECT_NE(error_of(schema), "(no error)");
}

// Random damage to the corpus schemas and random patterns: every outcome
// is a grammar that parses or an error, never a crash (run under asan).
TEST(JsonSchemaGrammar, DamagedSchemasAndRandomPatternsGiveGrammarsOrErrors) {
  std::mt19937 random(7);
  const std::vector<Json> replacements = {Json(),
                                          Json(true),
                                          Json(false),
                                          Json(-1),
                                          Json(1e300),
                                          Json("x"),
                                          Json::array(),
                                          Json::object(),
                                          Json{{"$ref", "#"}},
                                          Json::array({1, "a"})};
  std::function<void(Json&)> damage = [&](Json& node) {
    if (!node.is_structured() || node.empty()) return;
    auto item = std::next(node.begin(), random() % node.size());
    if (random() % 3 == 0) {
      *item = replacements[random() % replacements.size()];
    } else {
      damage(*item);
    }
  };
  int grammars = 0;
  for (const CorpusCase& entry : load_corpus()) {
    for (int round = 0; round < 20; ++round) {
      Json schema = entry.data["schema"];
      damage(schema);
      Result<std::string> text = json_schema_to_gbnf(schema);
      if (!text.ok()) continue;
      grammars += parse_gbnf(*text).ok() ? 1 : 0;
    }
  }
  EXPECT_GT(grammars, 100);
  const std::string atoms[] = {"a", "\\",      "\\d", "[",     "]", "(",  ")",     "|",
                               "*", "+",       "?",   "{2,3}", "{", "^",  "$",     "[^a-c]",
                               ".", "\\u00e9", "\"",  "(?:",   "-", "\\", "{1000}"};
  for (int round = 0; round < 2000; ++round) {
    std::string pattern;
    for (int length = random() % 8; length > 0; --length)
      pattern += atoms[random() % std::size(atoms)];
    Result<std::string> text = json_schema_to_gbnf({{"type", "string"}, {"pattern", pattern}});
    if (!text.ok()) continue;
    auto grammar = parse_gbnf(*text);
    EXPECT_TRUE(grammar.ok()) << pattern << ": " << grammar.error().describe();
  }
}

// --- numbers ----------------------------------------------------------------

TEST(JsonSchemaGrammar, IntegerRangesAcceptExactlyTheirIntegers) {
  struct Range {
    std::optional<int64_t> min, max;
  };
  for (Range range : std::vector<Range>{{0, 9},
                                        {1, 10},
                                        {-10, 250},
                                        {-999, -100},
                                        {7, 7},
                                        {99, 1001},
                                        {-5, std::nullopt},
                                        {std::nullopt, -37},
                                        {123, 456},
                                        {0, 0}}) {
    Json schema = {{"type", "integer"}};
    if (range.min) schema["minimum"] = *range.min;
    if (range.max) schema["maximum"] = *range.max;
    SCOPED_TRACE(schema.dump());
    auto grammar = compile_schema(schema);
    ASSERT_TRUE(grammar);
    for (int64_t n = -1100; n <= 1100; ++n) {
      bool inside = (!range.min || n >= *range.min) && (!range.max || n <= *range.max);
      ASSERT_EQ(accepts(grammar, std::to_string(n)), inside) << n;
    }
    EXPECT_FALSE(accepts(grammar, "-0"));
    EXPECT_FALSE(accepts(grammar, "007"));
  }
}

TEST(JsonSchemaGrammar, NumberBoundsHoldForFractions) {
  auto grammar = compile_schema({{"type", "number"}, {"exclusiveMinimum", -2}, {"maximum", 3}});
  ASSERT_TRUE(grammar);
  for (int tenths = -40; tenths <= 40; ++tenths) {
    double value = tenths / 10.0;
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    bool inside = value > -2 && value <= 3;
    EXPECT_EQ(accepts(grammar, text), inside) << text;
  }
  EXPECT_FALSE(accepts(grammar, "1e2"));  // bounded numbers have no exponent
  EXPECT_TRUE(accepts(grammar, "-1.999"));
  EXPECT_FALSE(accepts(grammar, "-2.000"));
}

TEST(JsonSchemaGrammar, FractionalIntegerBoundsRoundInward) {
  auto grammar = compile_schema({{"type", "integer"}, {"minimum", 1.5}, {"exclusiveMaximum", 4.0}});
  ASSERT_TRUE(grammar);
  EXPECT_FALSE(accepts(grammar, "1"));
  EXPECT_TRUE(accepts(grammar, "2"));
  EXPECT_TRUE(accepts(grammar, "3"));
  EXPECT_FALSE(accepts(grammar, "4"));
}

TEST(JsonSchemaGrammar, Draft4BooleanExclusiveBounds) {
  auto grammar = compile_schema({{"type", "integer"},
                                 {"minimum", 0},
                                 {"exclusiveMinimum", true},
                                 {"maximum", 3},
                                 {"exclusiveMaximum", true}});
  ASSERT_TRUE(grammar);
  EXPECT_FALSE(accepts(grammar, "0"));
  EXPECT_TRUE(accepts(grammar, "1"));
  EXPECT_TRUE(accepts(grammar, "2"));
  EXPECT_FALSE(accepts(grammar, "3"));
}

TEST(JsonSchemaGrammar, UnboundedNumbersStayWithinFifteenIntegerDigits) {
  auto grammar = compile_schema({{"type", "integer"}});
  ASSERT_TRUE(grammar);
  EXPECT_TRUE(accepts(grammar, "999999999999999"));
  EXPECT_FALSE(accepts(grammar, "1000000000000000"));
}

// --- patterns -----------------------------------------------------------------

TEST(JsonSchemaGrammar, PatternsAgreeWithEcmaScriptRegexOnEveryShortString) {
  // Every string of length <= 4 over a small alphabet, compared with
  // std::regex (ECMAScript, search semantics as JSON Schema has).
  const std::string alphabet = "ab1-\"";
  std::vector<std::string> strings = {""};
  for (size_t begin = 0, length = 1; length <= 4; ++length) {
    size_t end = strings.size();
    for (size_t i = begin; i < end; ++i) {
      for (char c : alphabet) strings.push_back(strings[i] + c);
    }
    begin = end;
  }
  for (const char* pattern : {"^a+b?$", "a|b1", "^(ab|1)*$", "^[a-b]{2,3}$", "^[^a]*$", "^\\d\\D$",
                              "b$", "^a.", "^(a|)b$", "^[\\w-]+$", "^\"\\w*\"$", "^a{2,}$",
                              "^(?:a|1){1,2}-?$", "1", "^[\\--1]?$", "^a*?b+?$"}) {
    SCOPED_TRACE(pattern);
    auto grammar = compile_schema({{"type", "string"}, {"pattern", pattern}});
    ASSERT_TRUE(grammar);
    std::regex regex(pattern, std::regex::ECMAScript);
    for (const std::string& s : strings) {
      bool expected = std::regex_search(s, regex);
      ASSERT_EQ(accepts(grammar, Json(s).dump()), expected) << Json(s).dump();
    }
  }
}

// --- objects and rules -------------------------------------------------------

TEST(JsonSchemaGrammar, IdenticalSchemasShareOneRuleNamedAfterTheFirstPath) {
  Json point = {{"type", "object"},
                {"properties", {{"x", {{"type", "integer"}}}, {"y", {{"type", "integer"}}}}},
                {"required", {"x", "y"}}};
  Result<std::string> text = json_schema_to_gbnf({{"type", "object"},
                                                  {"properties", {{"from", point}, {"to", point}}},
                                                  {"required", {"from", "to"}}});
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("value-from ::="), std::string::npos) << *text;
  EXPECT_EQ(text->find("value-to ::="), std::string::npos) << *text;
}

TEST(JsonSchemaGrammar, RecursiveReferencesBecomeRecursiveRules) {
  Json schema = {
      {"$defs",
       {{"list",
         {{"type", "object"},
          {"properties", {{"next", {{"anyOf", {{{"$ref", "#/$defs/list"}}, {{"type", "null"}}}}}}}},
          {"required", {"next"}}}}}},
      {"$ref", "#/$defs/list"}};
  Result<std::string> text = json_schema_to_gbnf(schema);
  ASSERT_TRUE(text.ok()) << text.error().describe();
  EXPECT_NE(text->find("list ::="), std::string::npos) << *text;
  auto grammar = compile_schema(schema);
  ASSERT_TRUE(grammar);
  std::string deep = "null";
  for (int i = 0; i < 50; ++i) deep = "{\"next\":" + deep + "}";
  EXPECT_TRUE(accepts(grammar, deep));
}

TEST(JsonSchemaGrammar, BuilderCombinesSchemasWithRawRules) {
  JsonSchemaGrammarBuilder builder;
  Result<std::string> weather =
      builder.add_schema({{"type", "object"},
                          {"properties", {{"city", {{"type", "string"}}}}},
                          {"required", {"city"}}},
                         "get_weather");
  Result<std::string> time = builder.add_schema({{"type", "object"},
                                                 {"properties", {{"zone", {{"type", "string"}}}}},
                                                 {"required", {"zone"}}},
                                                "get_time");
  ASSERT_TRUE(weather.ok() && time.ok());
  EXPECT_EQ(*weather, "get-weather");
  builder.add_rule("call-weather",
                   R"("{\"name\":\"get_weather\",\"arguments\":" )" + *weather + R"( "}")");
  builder.add_rule("call-time", R"("{\"name\":\"get_time\",\"arguments\":" )" + *time + R"( "}")");
  std::string text = builder.build(R"("<tool_call>" ( call-weather | call-time ) "</tool_call>")");
  auto grammar = parse_gbnf(text);
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe() << "\n" << text;
  EXPECT_TRUE(accepts(*grammar,
                      R"(<tool_call>{"name":"get_time","arguments":{"zone":"UTC"}}</tool_call>)"));
  EXPECT_FALSE(accepts(
      *grammar, R"(<tool_call>{"name":"get_time","arguments":{"city":"Oslo"}}</tool_call>)"));
}

TEST(JsonSchemaGrammar, AnyJsonObjectAcceptsObjectsOnly) {
  auto grammar = parse_gbnf(any_json_object_gbnf());
  ASSERT_TRUE(grammar.ok()) << grammar.error().describe();
  EXPECT_TRUE(accepts(*grammar, R"({"a": [1, {"b": null}], "c": "d"})"));
  EXPECT_TRUE(accepts(*grammar, "{}"));
  EXPECT_FALSE(accepts(*grammar, "[1]"));
  EXPECT_FALSE(accepts(*grammar, "\"a\""));
}

TEST(JsonSchemaGrammar, AValueEndsTheGrammarWithNothingAfterIt) {
  auto grammar = compile_schema(
      {{"type", "object"}, {"properties", {{"a", {{"type", "boolean"}}}}}, {"required", {"a"}}});
  ASSERT_TRUE(grammar);
  GrammarMatcher matcher(grammar);
  ASSERT_TRUE(matcher.accept_bytes(R"({"a":true})"));
  EXPECT_TRUE(matcher.must_end());
}

// Ten thousand properties, required or not, translate to a grammar whose
// size grows with their number, not its square (nor does the work).
TEST(JsonSchemaGrammar, TenThousandPropertiesTranslateInLinearSize) {
  for (bool required : {true, false}) {
    nlohmann::ordered_json schema = {{"type", "object"},
                                     {"properties", nlohmann::ordered_json::object()},
                                     {"required", nlohmann::ordered_json::array()}};
    for (int i = 0; i < 10'000; ++i) {
      const std::string key = "p" + std::to_string(i);
      schema["properties"][key] = {{"type", "integer"}};
      if (required) schema["required"].push_back(key);
    }
    auto gbnf = json_schema_to_gbnf(schema);
    ASSERT_TRUE(gbnf.ok()) << gbnf.error().describe();
    EXPECT_LT(gbnf->size(), 10'000u * 200) << (required ? "required" : "optional");
  }
}

// A long enum shares the starts of its values: it compiles (one
// alternative per value would start the matcher past its bounds) and
// still admits exactly its values.
TEST(JsonSchemaGrammar, AnEnumOfManyValuesAdmitsExactlyThem) {
  Json values = Json::array();
  for (int i = 0; i < 100'000; ++i) values.push_back("value" + std::to_string(i));
  values.push_back(7);
  values.push_back(Json{{"a", 1}});
  auto grammar = compile_schema({{"enum", values}});
  ASSERT_TRUE(grammar);
  for (const char* text : {"\"value0\"", "\"value99999\"", "\"value4242\"", "7", "{\"a\":1}"})
    EXPECT_TRUE(accepts(grammar, text)) << text;
  for (const char* text : {"\"value100000\"", "\"value01\"", "\"value\"", "70", "\"value1"})
    EXPECT_FALSE(accepts(grammar, text)) << text;
}

// Keys outside the declared ones avoid every declared name, however long
// (the exclusion nests a group per character, in rules of their own past
// GBNF's nesting bound); names past the stated bounds are refused.
TEST(JsonSchemaGrammar, OtherKeysAvoidLongDeclaredNames) {
  const std::string long_name(600, 'n');
  auto grammar = compile_schema({{"type", "object"},
                                 {"properties", {{long_name, {{"type", "integer"}}}}},
                                 {"additionalProperties", {{"type", "boolean"}}}});
  ASSERT_TRUE(grammar);
  EXPECT_TRUE(accepts(grammar, "{\"" + long_name + "\":1}"));
  EXPECT_TRUE(accepts(grammar, "{\"" + long_name + "x\":true}"));
  EXPECT_FALSE(accepts(grammar, "{\"" + long_name + "\":true}"));
  for (size_t length : {size_t{1025}, size_t{1} << 20}) {
    const std::string too_long(length, 'n');
    EXPECT_NE(error_of({{"type", "object"},
                        {"properties", {{too_long, {{"type", "integer"}}}}},
                        {"additionalProperties", true}})
                  .find("property names longer than 1024"),
              std::string::npos)
        << length;
  }
}

}  // namespace
}  // namespace ingot::sampling::grammar
