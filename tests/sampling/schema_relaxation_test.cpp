// The relaxation of validator-style schemas, on hand-made cases and on the
// tool schemas of real MCP servers (tests/fixtures/mcp-tools).

#include "sampling/grammar/schema_relaxation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "sampling/grammar/json_schema_grammar.h"
#include "sampling/grammar_test_util.h"
#include "support/shared_data.h"

namespace ingot::sampling::grammar {
namespace {

using Json = nlohmann::ordered_json;
using ::testing::ElementsAre;

TEST(SchemaRelaxation, DropsWhatAGrammarCannotExpressAndNamesIt) {
  Json schema = Json::parse(R"({
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
      "url": {"type": "string", "format": "uri", "minLength": 1},
      "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
      "when": {"type": "string", "format": "date-time", "maxLength": 40},
      "ratio": {"type": "number", "exclusiveMinimum": 0.5},
      "anything": {"not": {}}
    },
    "propertyNames": {"pattern": "^[a-z]+$"},
    "required": ["url"]
  })");
  RelaxedSchema relaxed = relax_schema(schema);
  EXPECT_THAT(relaxed.dropped, ElementsAre("#: propertyNames", "#/properties/url: format uri",
                                           "#/properties/tags: uniqueItems",
                                           "#/properties/when: maxLength beside format date-time",
                                           "#/properties/ratio: exclusiveMinimum fractional",
                                           "#/properties/anything: not"));
  EXPECT_EQ(relaxed.schema["properties"]["url"], Json::parse(R"({"type":"string","minLength":1})"));
  EXPECT_TRUE(json_schema_to_gbnf(relaxed.schema).ok());
  // Unrelaxed, the same schema is refused with the first keyword named.
  auto strict = json_schema_to_gbnf(schema);
  ASSERT_FALSE(strict.ok());
  EXPECT_THAT(strict.error().message(), ::testing::HasSubstr("propertyNames"));
}

TEST(SchemaRelaxation, AnUnknownFormatWithoutATypeKeepsItsBaseType) {
  RelaxedSchema relaxed = relax_schema(Json::parse(R"({"format": "hostname"})"));
  EXPECT_EQ(relaxed.schema, Json::parse(R"({"type": "string"})"));
  EXPECT_THAT(relaxed.dropped, ElementsAre("#: format hostname"));
}

TEST(SchemaRelaxation, AnEnforceableSchemaIsLeftAlone) {
  Json schema = Json::parse(R"({"type":"object","properties":{"a":{"type":"integer","minimum":1.5},
    "b":{"anyOf":[{"type":"string","pattern":"^x+$"},{"$ref":"#/$defs/c"}]}},
    "$defs":{"c":{"type":"null"}},"title":"T"})");
  RelaxedSchema relaxed = relax_schema(schema);
  EXPECT_TRUE(relaxed.dropped.empty());
  EXPECT_EQ(relaxed.schema, schema);
}

// Claude Code's SendMessage tool bounds its `to` by two patterns at once.
TEST(SchemaRelaxation, AllOfMembersKeepTheFirstOfTwoPatterns) {
  Json schema = Json::parse(R"({"type": "object", "properties": {"to": {"type": "string",
    "allOf": [{"pattern": "^[^\\n\\r]*$"}, {"pattern": "^[\\s\\S]{0,300}$"}]}},
    "required": ["to"]})");
  EXPECT_FALSE(json_schema_to_gbnf(schema).ok());
  RelaxedSchema relaxed = relax_schema(schema);
  EXPECT_THAT(relaxed.dropped,
              ElementsAre("#/properties/to/allOf/1: pattern beside another allOf member's"));
  auto gbnf = json_schema_to_gbnf(relaxed.schema);
  ASSERT_TRUE(gbnf.ok()) << gbnf.error().describe();
  EXPECT_NE(testing::compile(*gbnf), nullptr);
}

TEST(SchemaRelaxation, ALengthInOneAllOfMemberGoesBesideAPatternInAnother) {
  RelaxedSchema relaxed = relax_schema(
      Json::parse(R"({"type": "string", "allOf": [{"pattern": "^a+$"}, {"maxLength": 5}]})"));
  EXPECT_THAT(relaxed.dropped, ElementsAre("#/allOf/1: maxLength beside pattern"));
  EXPECT_TRUE(json_schema_to_gbnf(relaxed.schema).ok());
}

struct McpTool {
  std::string server;
  std::string name;
  Json schema;
};

std::vector<McpTool> mcp_tools() {
  std::vector<McpTool> tools;
  std::filesystem::path dir = ingot::testing::source_dir() / "tests/fixtures/mcp-tools";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    Json file = Json::parse(in);
    for (const Json& tool : file["tools"]) {
      tools.push_back({file["server"], tool["name"], tool["inputSchema"]});
    }
  }
  return tools;
}

// Every tool schema of the corpus compiles once relaxed, into a grammar
// that parses; the corpus does hold assertions the grammar drops.
TEST(SchemaRelaxation, EveryMcpToolSchemaCompilesOnceRelaxed) {
  std::vector<McpTool> tools = mcp_tools();
  std::set<std::string> servers;
  size_t refused_strictly = 0;
  size_t relaxed_count = 0;
  for (const McpTool& tool : tools) {
    servers.insert(tool.server);
    bool refused = !json_schema_to_gbnf(tool.schema).ok();
    RelaxedSchema relaxed = relax_schema(tool.schema);
    // Only what the strict translator refuses is dropped.
    EXPECT_EQ(refused, !relaxed.dropped.empty()) << tool.server << "/" << tool.name;
    refused_strictly += refused ? 1 : 0;
    relaxed_count += relaxed.dropped.empty() ? 0 : 1;
    auto gbnf = json_schema_to_gbnf(relaxed.schema);
    ASSERT_TRUE(gbnf.ok()) << tool.server << "/" << tool.name << ": " << gbnf.error().describe();
    EXPECT_NE(testing::compile(*gbnf), nullptr) << tool.server << "/" << tool.name;
  }
  EXPECT_GE(servers.size(), 20u);
  EXPECT_GT(refused_strictly, 0u);
  std::cout << tools.size() << " tools of " << servers.size() << " servers; " << refused_strictly
            << " refused unrelaxed, " << relaxed_count << " relaxed\n";
}

}  // namespace
}  // namespace ingot::sampling::grammar
