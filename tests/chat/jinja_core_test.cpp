// Unit tests of the template engine's core: statements, expressions,
// filters, tests and methods. Expected outputs were produced by Python's
// Jinja2 with transformers' settings (trim_blocks, lstrip_blocks,
// loopcontrols, json.dumps-based tojson).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chat/jinja/template.h"

namespace ingot::chat::jinja {
namespace {

struct Case {
  const char* source;
  const char* expected;
};

const std::vector<Case> kCases = {
    {R"J({% for x in [1, 2, 3] %}{{ loop.index }}{{ loop.index0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.revindex }}{{ loop.revindex0 }}|{% endfor %})J",
     R"J(10TrueFalse332|21FalseFalse321|32FalseTrue310|)J"},
    {R"J({% for x in 'abc' %}{{ loop.previtem }}-{{ x }}-{{ loop.nextitem }}{{ loop.cycle('o', 'e') }};{% endfor %})J",
     R"J(-a-bo;a-b-ce;b-c-o;)J"},
    {R"J({% for x in range(10) if x is odd %}{% if x > 6 %}{% break %}{% endif %}{% if x == 3 %}{% continue %}{% endif %}{{ x }}{% else %}none{% endfor %})J",
     R"J(15)J"},
    {R"J({% for x in [] %}{{ x }}{% else %}empty{% endfor %})J", R"J(empty)J"},
    {R"J({% if 1 > 2 %}a{% elif 2 > 1 %}b{% else %}c{% endif %})J", R"J(b)J"},
    {R"J({% set ns = namespace(n=0) %}{% for i in range(4) %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }})J",
     R"J(6)J"},
    {R"J({% set x %}  block {{ 1 + 1 }}  {% endset %}[{{ x }}])J", R"J([  block 2  ])J"},
    {R"J({% set x | upper %}shout{% endset %}{{ x }})J", R"J(SHOUT)J"},
    {R"J({% macro greet(name, greeting='Hello') %}{{ greeting }}, {{ name }}!{% endmacro %}{{ greet('Ann') }} {{ greet('Bob', greeting='Hi') }})J",
     R"J(Hello, Ann! Hi, Bob!)J"},
    {R"J({% macro wrap() %}<{{ caller() }}>{% endmacro %}{% call wrap() %}inner{% endcall %})J",
     R"J(<inner>)J"},
    {R"J({% filter upper %}hello {{ 'world' }}{% endfilter %})J", R"J(HELLO WORLD)J"},
    {R"J({% raw %}{{ not parsed }}{% endraw %})J", R"J({{ not parsed }})J"},
    {R"J(a  
  {%- if true -%}  
  b  
  {%- endif %}
c)J",
     R"J(abc)J"},
    {R"J(line1
    {% if true %}
    x
    {% endif %}
line2
)J",
     R"J(line1
    x
line2)J"},
    {R"J({{ [1, 2, 3, 4, 5][1:4] }} {{ [1, 2, 3, 4, 5][::-2] }} {{ 'hello'[1:-1] }} {{ (1, 2) }} {{ (1,) }})J",
     R"J([2, 3, 4] [5, 3, 1] ell (1, 2) (1,))J"},
    {R"J({{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 7 / 2 }} {{ 1 ~ 2 }} {{ 'a' * 3 }})J",
     R"J(3 -4 1 2 1024 3.5 12 aaa)J"},
    {R"J({{ 1 < 2 < 3 }} {{ 'a' in 'abc' }} {{ 'x' not in ['a'] }} {{ not true }} {{ none is none }} {{ 1 == 1.0 }})J",
     R"J(True True True False True True)J"},
    {R"J({{ 'yes' if false }}|{{ 'yes' if true else 'no' }}|{{ undefined_thing }}|{{ none }}|{{ true }})J",
     R"J(|yes||None|True)J"},
    {R"J({{ 1.0 }} {{ 0.1 }} {{ 1e-05 }} {{ 1.5e20 }} {{ 100000000000000000.0 }} {{ 3.14159 }} {{ -0.0 }})J",
     R"J(1.0 0.1 1e-05 1.5e+20 1e+17 3.14159 -0.0)J"},
    {R"J({{ {'k': 'v', 'n': [1, 'two', none, true, 1.5]} }} {{ ["it's"] }})J",
     R"J({'k': 'v', 'n': [1, 'two', None, True, 1.5]} ["it's"])J"},
    {R"J({{ '  x  '|trim }}|{{ 'ab'|upper }}|{{ 'AB'|lower }}|{{ 'hello world-foo'|title }}|{{ 'hELLO'|capitalize }})J",
     R"J(x|AB|ab|Hello World-Foo|Hello)J"},
    {R"J({{ [1, 2, 3]|length }} {{ 'héllo'|length }} {{ [3, 1, 2]|first }} {{ [3, 1, 2]|last }} {{ [1, 2]|join(', ') }})J",
     R"J(3 5 3 2 1, 2)J"},
    {R"J({{ x|default('d') }} {{ ''|default('d', true) }} {{ {'a': 1, 'b': 2}|tojson }} {{ {'a': [1, 2]}|tojson(indent=2) }})J",
     R"J(d d {"a": 1, "b": 2} {
  "a": [
    1,
    2
  ]
})J"},
    {R"J({{ 3.7|int }} {{ '42'|int }} {{ 'x'|int }} {{ '2.5'|float }} {{ 5|string }} {{ 'ab'|list }} {{ {'b': 1, 'A': 2}|dictsort }})J",
     R"J(3 42 0 2.5 5 ['a', 'b'] [('A', 2), ('b', 1)])J"},
    {R"J({{ [{'a': 1}, {'a': 0}, {}]|selectattr('a')|list }} {{ [{'a': 1}, {'a': 0}]|rejectattr('a')|list }} {{ [1, 2, 3, 4]|select('even')|list }} {{ [1, 2, 3]|reject('odd')|list }})J",
     R"J([{'a': 1}] [{'a': 0}] [2, 4] [2])J"},
    {R"J({{ [{'n': 'x'}, {'n': 'y'}]|map(attribute='n')|join }} {{ ['a', 'b']|map('upper')|list }} {{ ['a', 'A', 'b']|unique|list }} {{ 'aXbX'|replace('X', '-') }})J",
     R"J(xy ['A', 'B'] ['a', 'b'] a-b-)J"},
    {R"J({{ 'a\nb'|indent(2) }}|{{ 'a\nb'|indent(2, true) }}|{{ 2.5|round }} {{ 2.675|round(2) }} {{ -3|abs }} {{ [1, 2, 3]|sum }} {{ [1, 2]|reverse|list }} {{ [3, 1, 2]|sort }} {{ ['b', 'A']|sort(reverse=true) }})J",
     R"J(a
  b|  a
  b|2.0 2.67 3 6 [2, 1] [1, 2, 3] ['b', 'A'])J"},
    {R"J({{ ' a b '.strip() }}|{{ 'a,b,c'.split(',') }}|{{ 'a b  c'.split() }}|{{ 'abc'.startswith('a') }}|{{ 'abc'.endswith(('x', 'c')) }}|{{ 'Ab'.upper() }}{{ 'Ab'.lower() }}|{{ 'a-a'.replace('a', 'b') }}|{{ 'hi there'.title() }}|{{ 'aaa'.count('a') }}|{{ 'abc'.find('c') }})J",
     R"J(a b|['a', 'b', 'c']|['a', 'b', 'c']|True|True|ABab|b-b|Hi There|3|2)J"},
    {R"J({% set d = {'a': 1, 'b': 2} %}{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}{{ d.keys()|list }}{{ d.values()|list }}{{ d.get('a') }}{{ d.get('z', 'dflt') }}{{ d.get('z') }})J",
     R"J(a=1;b=2;['a', 'b'][1, 2]1dfltNone)J"},
    {R"J({{ x is defined }} {{ x is undefined }} {{ 'a' is string }} {{ 1 is number }} {{ 1 is integer }} {{ true is boolean }} {{ {} is mapping }} {{ [] is iterable }} {{ 'a' is sequence }} {{ true is true }} {{ false is false }} {{ 4 is even }} {{ 3 is odd }} {{ 9 is divisibleby 3 }} {{ 1.5 is number }} {{ 1.5 is integer }})J",
     R"J(False True True True True True True True True True True True True True True False)J"},
    {R"J({{ dict(a=1, b='x') }} {{ range(3)|list }} {{ range(1, 10, 3)|list }} {{ '%s and %d' % ('a', 5) }} {{ '{} {}'.format('x', 1) }})J",
     R"J({'a': 1, 'b': 'x'} [0, 1, 2] [1, 4, 7] a and 5 x 1)J"},
    {R"J({{ 'é'|upper }} {{ {'ключ': 'значение'}|tojson }} {{ ['ü'] }} {{ 'a\u00e9'|tojson }} {{ 'x"y'|tojson }} {{ '\t\n'|tojson }})J",
     R"J(É {"ключ": "значение"} ['ü'] "aé" "x\"y" "\t\n")J"},
    {R"J({{ [1, [2, 3]]|tojson(separators=(',', ':')) }} {{ {'z': 1, 'a': 2}|tojson(sort_keys=true) }} {{ 1.0|tojson }} {{ none|tojson }} {{ 'é'|tojson(ensure_ascii=true) }})J",
     R"J([1,[2,3]] {"a": 2, "z": 1} 1.0 null "\u00e9")J"},
    {R"J({% for a, b in [[1, 2], [3, 4]] %}{{ a }}{{ b }}{% endfor %} {% set a, b = 1, 2 %}{{ a }}{{ b }})J",
     R"J(1234 12)J"},
    {R"J({{- '  x  ' -}}  {{ 'y' }}
{#- comment -#}
  z)J",
     R"J(  x  yz)J"},
    {R"J({% if true %}
  yes
{% endif %}
{# c #}
after)J",
     R"J(  yes
after)J"},
    {R"J({{ [1, 2, 3] | max }} {{ ['b', 'a'] | min }} {{ ([1] + [2]) | length }} {{ 'ab' ~ 1.5 ~ none }})J",
     R"J(3 a 2 ab1.5None)J"},
};

std::string render_or_error(std::string_view source, const Variables& variables = {}) {
  Result<Template> parsed = Template::parse(source);
  if (!parsed.ok()) return "PARSE ERROR: " + parsed.error().describe();
  Result<std::string> rendered = parsed->render(variables);
  if (!rendered.ok()) return "RENDER ERROR: " + rendered.error().describe();
  return rendered.value();
}

TEST(JinjaCore, MatchesJinja2OnHandWrittenCases) {
  for (const Case& c : kCases) {
    EXPECT_EQ(render_or_error(c.source), c.expected) << "template: " << c.source;
  }
}

TEST(JinjaCore, RaiseExceptionHasItsOwnKindAndMessage) {
  Result<Template> parsed = Template::parse("line\n{{ raise_exception('bad role') }}");
  ASSERT_TRUE(parsed.ok());
  Result<std::string> rendered = parsed->render({});
  ASSERT_FALSE(rendered.ok());
  EXPECT_EQ(rendered.error().kind(), ErrorKind::kTemplateRaised);
  EXPECT_EQ(rendered.error().message(), "bad role");
  EXPECT_NE(rendered.error().describe().find("line 2"), std::string::npos);
}

TEST(JinjaCore, SyntaxErrorsNameLineAndColumn) {
  Result<Template> parsed = Template::parse("ok\n{% if x %}never closed");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().kind(), ErrorKind::kInvalidFormat);
  EXPECT_NE(parsed.error().describe().find("line 2"), std::string::npos)
      << parsed.error().describe();
}

TEST(JinjaCore, UnknownFilterFailsAtParseOutsideConditionals) {
  EXPECT_FALSE(Template::parse("{{ x | no_such_filter }}").ok());
  Result<Template> lazy = Template::parse("{% if false %}{{ x | no_such_filter }}{% endif %}ok");
  ASSERT_TRUE(lazy.ok());
  EXPECT_EQ(lazy->render({}).value(), "ok");
}

TEST(JinjaCore, UndefinedAttributeOfUndefinedRaisesWithPosition) {
  Result<Template> parsed = Template::parse("{{ a }}\n  {{ missing.attr }}");
  ASSERT_TRUE(parsed.ok());
  Result<std::string> rendered = parsed->render({});
  ASSERT_FALSE(rendered.ok());
  EXPECT_NE(rendered.error().describe().find("line 2, column"), std::string::npos)
      << rendered.error().describe();
}

TEST(JinjaCore, ListMutationIsRefusedLikeTheImmutableSandbox) {
  EXPECT_NE(render_or_error("{% set l = [1] %}{% set _ = l.append(2) %}{{ l }}").find("unsafe"),
            std::string::npos);
}

TEST(JinjaCore, VariablesArePassedIn) {
  Variables vars = {{"name", Value::string("Zoë")}, {"n", Value::integer(3)}};
  EXPECT_EQ(render_or_error("{{ name }}:{{ n * 2 }}", vars), "Zoë:6");
}

}  // namespace
}  // namespace ingot::chat::jinja
