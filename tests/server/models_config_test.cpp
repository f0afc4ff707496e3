// --models-config: the same settings from TOML and from JSON, and every
// mistake an error naming where it is.

#include "server/models/models_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/shared_data.h"

namespace ingot::server {
namespace {

constexpr const char* kToml = R"(
[models.qwen3-8b]
aliases = ["chat", "default"]
ctx_size = 8192
parallel = 2
pinned = true
max_tokens = 512

[models.qwen3-8b.sampling]
temperature = 0.7
top_k = 20
top_p = 0.8
min_p = 0.0
repeat_penalty = 1.1

[models.coder]
ctx_size = 16384
)";

constexpr const char* kJson = R"({"models": {
  "qwen3-8b": {"aliases": ["chat", "default"], "ctx_size": 8192, "parallel": 2, "pinned": true,
               "max_tokens": 512,
               "sampling": {"temperature": 0.7, "top_k": 20, "top_p": 0.8, "min_p": 0.0,
                            "repeat_penalty": 1.1}},
  "coder": {"ctx_size": 16384}}})";

void expect_the_example(const ModelsConfig& config) {
  ASSERT_EQ(config.size(), 2u);
  const ModelSettings& qwen = config.at("qwen3-8b");
  EXPECT_EQ(qwen.aliases, (std::vector<std::string>{"chat", "default"}));
  EXPECT_EQ(qwen.ctx_size, 8192);
  EXPECT_EQ(qwen.parallel, 2);
  EXPECT_TRUE(qwen.pinned);
  EXPECT_EQ(qwen.max_tokens, 512);
  EXPECT_FLOAT_EQ(*qwen.temperature, 0.7f);
  EXPECT_EQ(qwen.top_k, 20);
  EXPECT_FLOAT_EQ(*qwen.top_p, 0.8f);
  EXPECT_FLOAT_EQ(*qwen.min_p, 0.0f);
  EXPECT_FLOAT_EQ(*qwen.repeat_penalty, 1.1f);
  const ModelSettings& coder = config.at("coder");
  EXPECT_EQ(coder.ctx_size, 16384);
  EXPECT_FALSE(coder.pinned);
  EXPECT_FALSE(coder.temperature.has_value());
}

TEST(ModelsConfig, TomlAndJsonGiveTheSameSettings) {
  auto toml = parse_models_config(kToml, "toml");
  ASSERT_TRUE(toml.ok()) << toml.error().describe();
  expect_the_example(*toml);
  auto json = parse_models_config(kJson, "json");
  ASSERT_TRUE(json.ok()) << json.error().describe();
  expect_the_example(*json);
}

TEST(ModelsConfig, EveryMistakeIsAnErrorNamingIt) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"models": {"m": {"ctx": 1}}})", "'ctx'"},
      {R"({"models": {"m": {"parallel": 0}}})", "parallel"},
      {R"({"models": {"m": {"pinned": "yes"}}})", "pinned"},
      {R"({"models": {"m": {"aliases": "chat"}}})", "aliases"},
      {R"({"models": {"m": {"sampling": {"top_p": 2}}}})", "sampling.top_p"},
      {R"({"models": {"m": {"sampling": {"heat": 1}}}})", "'heat'"},
      {R"({"model": {}})", "'model'"},
      {R"({"models": [1]})", "models"},
      {R"({"models": )", "--models-config"},
  };
  for (const auto& [text, named] : cases) {
    auto config = parse_models_config(text, "json");
    ASSERT_FALSE(config.ok()) << text;
    EXPECT_NE(config.error().message().find(named), std::string::npos)
        << text << ": " << config.error().message();
  }
  auto dates = parse_models_config("[models.m]\nctx_size = 1979-05-27\n", "toml");
  EXPECT_FALSE(dates.ok());
  auto broken = parse_models_config("[models.m\n", "toml");
  EXPECT_FALSE(broken.ok());
}

// A literal string cut inside a UTF-8 sequence made toml11 read past the
// text's end (found by the models_config fuzz target): refused first.
TEST(ModelsConfig, ATextThatIsNotUtf8IsRefusedBeforeParsing) {
  for (const char* format : {"toml", "json"}) {
    auto config = parse_models_config("[models.m]\naliases = ['a\xc3\xc3\xc3", format);
    ASSERT_FALSE(config.ok()) << format;
    EXPECT_NE(config.error().message().find("not UTF-8"), std::string::npos) << format;
  }
}

// toml11 recurses once per nested array or inline table, with no bound
// (found by the fuzz target as a stack overflow): deep nesting is refused
// before it parses; brackets inside strings and comments do not count.
TEST(ModelsConfig, DeepTomlNestingIsRefusedBeforeParsing) {
  const std::string deep = "[models.m]\naliases = " + std::string(100'000, '[');
  auto refused = parse_models_config(deep, "toml");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("nested deeper than 64"), std::string::npos);
  const std::string brackets(200, '[');
  auto quoted = parse_models_config("[models.m] # " + brackets + "\naliases = [\"" + brackets +
                                        "\", '" + brackets + "', \"\"\"" + brackets + "\"\"\"]\n",
                                    "toml");
  ASSERT_TRUE(quoted.ok()) << quoted.error().describe();
  EXPECT_EQ(quoted->at("m").aliases.size(), 3u);
}

// Files are read by their extension: .toml or .json.
TEST(ModelsConfig, FilesAreReadAsTomlOrJsonByTheirExtension) {
  const std::filesystem::path dir = ingot::testing::temp_dir();
  const std::pair<const char*, const char*> files[] = {{"models.toml", kToml},
                                                       {"models.json", kJson}};
  for (const auto& [name, text] : files) {
    std::ofstream(dir / name) << text;
    auto config = read_models_config((dir / name).string());
    ASSERT_TRUE(config.ok()) << name << ": " << config.error().describe();
    expect_the_example(*config);
  }
  std::ofstream(dir / "models.yaml") << "models: {}";
  EXPECT_FALSE(read_models_config((dir / "models.yaml").string()).ok());
}

}  // namespace
}  // namespace ingot::server
