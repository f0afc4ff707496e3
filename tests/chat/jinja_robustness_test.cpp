// Malformed and hostile templates: past the bounds, unterminated, unknown
// names, and seeded random token soup. Each must give an Error that names
// a template line and column, never a crash (this suite runs under ASan
// and UBSan too).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "chat/chat_template.h"
#include "chat/jinja/template.h"
#include "support/shared_data.h"

namespace ingot::chat::jinja {
namespace {

std::string repeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

// Parses and renders; returns the error, or nullopt when it rendered.
std::optional<Error> try_render(std::string_view source, const RenderOptions& options = {}) {
  Result<Template> parsed = Template::parse(source);
  if (!parsed.ok()) return parsed.error();
  Variables vars = {{"messages", Value::list({Value::string("hi")})}, {"x", Value::integer(1)}};
  Result<std::string> rendered = parsed->render(vars, options);
  if (!rendered.ok()) return rendered.error();
  return std::nullopt;
}

void expect_positioned_error(std::string_view source, const RenderOptions& options = {}) {
  std::optional<Error> error = try_render(source, options);
  ASSERT_TRUE(error.has_value()) << "expected an error for: " << source.substr(0, 120);
  EXPECT_NE(error->describe().find("template line "), std::string::npos) << error->describe();
}

TEST(JinjaBounds, NestingPastTheLimitIsAnError) {
  expect_positioned_error(repeat("{% if true %}", 5000) + "x" + repeat("{% endif %}", 5000));
  expect_positioned_error("{{ " + repeat("(", 20000) + "1" + repeat(")", 20000) + " }}");
  expect_positioned_error("{{ " + repeat("[", 20000) + repeat("]", 20000) + " }}");
  expect_positioned_error("{{ " + repeat("not ", 20000) + "x }}");
  expect_positioned_error("{{ " + repeat("-", 20000) + "1 }}");
  expect_positioned_error("{{ x" + repeat(" + x", 100000) + " }}");
  expect_positioned_error("{{ x" + repeat("|string", 100000) + " }}");
  expect_positioned_error("{{ x" + repeat(".a", 100000) + " }}");
}

TEST(JinjaBounds, LoopIterationsAreLimited) {
  expect_positioned_error(
      "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}");
  expect_positioned_error("{{ range(1000000)|list|length }}");
}

TEST(JinjaBounds, MacroRecursionIsLimited) {
  expect_positioned_error("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}");
}

TEST(JinjaBounds, OutputSizeIsLimited) {
  RenderOptions options;
  options.limits.max_output_bytes = 1 << 20;
  expect_positioned_error("{% for i in range(10000) %}{{ 'x' * 1000 }}{% endfor %}", options);
  expect_positioned_error("{{ 'x' * 100000000 }}", options);
  expect_positioned_error("{% for i in range(100000) %}0123456789abcdef{% endfor %}", options);
}

TEST(JinjaErrors, UnterminatedConstructsAreSyntaxErrors) {
  for (std::string_view source :
       {"{% if x %}", "{% for x in y %}", "{% macro m() %}", "{% set x %}", "{{ x", "{{ x }",
        "{# comment", "{% raw %}never", "{% if x %}{% else %}", "{% for %}", "{{ 'open }}",
        "{% endif %}", "{{ (1 }}", "{{ [1, }}", "{% call m() %}", "{% filter upper %}x"}) {
    SCOPED_TRACE(source);
    Result<Template> parsed = Template::parse(source);
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidFormat);
    EXPECT_NE(parsed.error().describe().find("template line 1, column"), std::string::npos)
        << parsed.error().describe();
  }
}

TEST(JinjaErrors, UnknownNamesArePositioned) {
  expect_positioned_error("line one\n{{ x | frobnicate }}");
  expect_positioned_error("{% if x is frobnicated %}{% endif %}");
  expect_positioned_error("{% frobnicate %}");
  expect_positioned_error("{% for x in [1] %}{{ x | frobnicate }}{% endfor %}");
}

TEST(JinjaErrors, DeepJsonInputIsRefused) {
  ChatPromptInput input;
  nlohmann::ordered_json deep = "leaf";
  for (int i = 0; i < 1000; ++i) deep = nlohmann::ordered_json::array({deep});
  input.messages = nlohmann::ordered_json::array({{{"role", "user"}, {"content", deep}}});
  Result<std::string> rendered = render_chat_prompt("{{ messages }}", input);
  EXPECT_FALSE(rendered.ok());
}

// Seeded random token soup: sequences of template syntax fragments.
TEST(JinjaFuzz, RandomTokenSoupNeverCrashes) {
  const std::vector<std::string> pieces = {"{%",
                                           "%}",
                                           "{{",
                                           "}}",
                                           "{#",
                                           "#}",
                                           "{%-",
                                           "-%}",
                                           "{{-",
                                           "-}}",
                                           " if ",
                                           " for ",
                                           " in ",
                                           " endif ",
                                           " endfor ",
                                           " else ",
                                           " elif ",
                                           " set ",
                                           " endset ",
                                           " macro ",
                                           " endmacro ",
                                           " call ",
                                           " endcall ",
                                           " filter ",
                                           " endfilter ",
                                           " raw ",
                                           " endraw ",
                                           " break ",
                                           " continue ",
                                           "x",
                                           "y",
                                           "loop",
                                           "ns",
                                           "namespace(",
                                           "range(",
                                           "messages",
                                           "(",
                                           ")",
                                           "[",
                                           "]",
                                           "{",
                                           "}",
                                           ",",
                                           ":",
                                           ".",
                                           "|",
                                           "~",
                                           "+",
                                           "-",
                                           "*",
                                           "/",
                                           "//",
                                           "%",
                                           "**",
                                           "==",
                                           "!=",
                                           "<",
                                           ">",
                                           "=",
                                           " is ",
                                           " not ",
                                           " and ",
                                           " or ",
                                           " defined ",
                                           "'str'",
                                           "\"s\"",
                                           "1",
                                           "2.5",
                                           "1e300",
                                           "99999999999999999999",
                                           "none",
                                           "true",
                                           "\n",
                                           " ",
                                           "tojson",
                                           "length",
                                           "trim",
                                           "join",
                                           "map",
                                           "select",
                                           "default",
                                           "'\\u00e9'",
                                           "'\\x'",
                                           "items()",
                                           "split",
                                           "[::-1]",
                                           "raise_exception(",
                                           "caller()",
                                           "varargs",
                                           "*",
                                           "**x"};
  std::mt19937 rng(20250314);
  std::uniform_int_distribution<size_t> pick(0, pieces.size() - 1);
  std::uniform_int_distribution<int> length(1, 40);
  int parsed_ok = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    std::string source;
    int n = length(rng);
    for (int i = 0; i < n; ++i) source += pieces[pick(rng)];
    std::optional<Error> error = try_render(source);
    if (!error) {
      ++parsed_ok;
      continue;
    }
    EXPECT_NE(error->describe().find("template line "), std::string::npos) << source << "\n"
                                                                           << error->describe();
  }
  EXPECT_GT(parsed_ok, 0);
}

// Byte-level mutations of the real templates: cut, duplicate and splice.
TEST(JinjaFuzz, MutatedFixtureTemplatesNeverCrash) {
  INGOT_REQUIRE_SHARED();
  std::vector<std::string> sources;
  for (const auto& entry :
       std::filesystem::directory_iterator(ingot::testing::shared_path("fixtures/templates"))) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    sources.push_back(buffer.str());
  }
  std::sort(sources.begin(), sources.end());
  ASSERT_FALSE(sources.empty());
  std::mt19937 rng(7);
  for (int iteration = 0; iteration < 600; ++iteration) {
    std::string source = sources[rng() % sources.size()];
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !source.empty(); ++e) {
      size_t at = rng() % source.size();
      size_t len = std::min<size_t>(rng() % 40, source.size() - at);
      switch (rng() % 3) {
        case 0:
          source.erase(at, len);
          break;
        case 1:
          source.insert(at, source.substr(at, len));
          break;
        default:
          source[at] = static_cast<char>(rng() % 128);
          break;
      }
    }
    std::optional<Error> error = try_render(source);
    if (error) {
      EXPECT_NE(error->describe().find("template line "), std::string::npos) << error->describe();
    }
  }
}

}  // namespace
}  // namespace ingot::chat::jinja
