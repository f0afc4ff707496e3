// Differential tests against Python's Jinja2 on small templates that probe
// one semantic each (number formatting, whitespace control, scoping,
// filters, methods, errors). Both engines render every case; where Jinja2
// renders, the bytes must match, and where it raises, ingot must fail.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "chat/jinja/json_convert.h"
#include "chat/jinja/template.h"
#include "reference_runner.h"

namespace ingot::chat::jinja {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::time_t kPinnedNow = 1741964966;

const std::vector<std::string> kDifferentialCases = {
    R"J({% for k in {'b': 1, 'a': 2} %}{{ k }}{% endfor %})J",
    R"J({% for k, v in {'b': 1, 'a': 2}|dictsort(reverse=true) %}{{ k }}{{ v }}{% endfor %})J",
    R"J({{ {1: 'a', 2: 'b'} }}{{ {1: 'a'}[1] }}{{ {1: 'x'}|tojson }})J",
    R"J({{ [1, 2, 3]|map('string')|join('-') }}{{ [1, 2]|map('string') is iterable }})J",
    R"J({% set g = [1, 2, 3]|select('odd') %}{{ g|list }}{{ g|list }})J",
    R"J({{ ([1, 2]|select)|length }})J",
    R"J({{ [] is sequence }}{{ none is sequence }}{{ x is sequence }}{{ x is iterable }}{{ 1 is iterable }})J",
    R"J({{ 'abc'|first }}{{ 'abc'|last }}{{ {'a': 1}|first }}{{ []|first is undefined }})J",
    R"J({{ 10 / 4 }} {{ 10 // 4 }} {{ -10 // 4 }} {{ 10 % -3 }} {{ 2 ** -1 }} {{ 1e3 }} {{ 1.5e-7 }} {{ 123456789.123456789 }} {{ 1/3*3 }})J",
    R"J({{ 0.1 + 0.2 }} {{ 1e16 }} {{ 1e15 }} {{ 12345678901234567.0 }} {{ 0.0001 }} {{ 0.00001 }} {{ -1.5 }})J",
    R"J({{ 3.0|int }} {{ '  7  '|int }} {{ '0x10'|int }} {{ '1_000'|int }} {{ true|int }} {{ none|int }} {{ '3.9'|int }} {{ '-2'|float }} {{ 'nan'|float }} {{ 'inf'|float }})J",
    R"J({{ 2.5|round }} {{ 3.5|round }} {{ -2.5|round }} {{ 1.005|round(2) }} {{ 7|round }} {{ 7.25|round(1, 'floor') }} {{ 7.21|round(1, 'ceil') }})J",
    R"J({{ 'a' < 'b' }} {{ [1, 2] < [1, 3] }} {{ (1, 2) == (1, 2) }} {{ [1] == (1,) }} {{ 1 == true }} {{ 0 == false }} {{ 1.0 is integer }} {{ true is number }})J",
    R"J({{ 'x' ~ [1, 'a'] ~ {'k': none} }})J",
    R"J({{ "it's" }} {{ ["it's", 'say "hi"', 'both \' and "'] }} {{ ['\n\t\\'] }} {{ ['é', '\u00a0', '\u200b', '\x07'] }})J",
    R"J({{ '  a  '|trim('') }}|{{ 'xxaxx'|trim('x') }}|{{ 'ab'.strip('b') }}|{{ ' a '.lstrip() }}|{{ ' a '.rstrip() }}|)J",
    R"J({{ 'a b c'.split(' ', 1) }} {{ 'a,b,,c'.split(',') }} {{ ''.split() }} {{ ''.split(',') }} {{ 'a b c'.rsplit(' ', 1) }} {{ 'l1\nl2\r\nl3'.splitlines() }})J",
    R"J({{ 'hello world'.title() }} {{ "they're bill's" | title }} {{ 'ABC def'.capitalize() }} {{ 'hello-world (x) [y]'|title }})J",
    R"J({{ '{0}-{1}-{0}'.format('a', 'b') }} {{ '{name}!'.format(name='n') }} {{ '{:>5}|{:<5}|{:^5}'.format('a', 'b', 'c') }} {{ '{:.2f}'.format(3.14159) }} {{ '{{}}'.format() }})J",
    R"J({{ '%s=%r' % ('k', 'v') }} {{ '%d%%' % 50 }} {{ '%.2f' % 2.5 }} {{ '%(a)s' % {'a': 1} }})J",
    R"J({% macro m(a, b=2) %}{{ a }}{{ b }}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1) }}{{ m(1, 3, 4, z=5) }})J",
    R"J({% macro m(a) %}[{{ caller(a) }}]{% endmacro %}{% call(x) m(5) %}got {{ x }}{% endcall %})J",
    R"J({% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}{% set y = 1 %}{{ y }}{% endcall %})J",
    R"J({% set ns = namespace(items=[]) %}{% set ns.items = ns.items + [1] %}{{ ns.items }}{{ ns }})J",
    R"J({% set ns = namespace({'a': 1}, b=2) %}{{ ns.a }}{{ ns.b }}{{ ns['a'] }}{{ ns.c is defined }})J",
    R"J({% for i in range(3) %}{{ loop.changed(i // 2) }}{% endfor %}{% for a in [1] %}{% for b in [2] %}{{ loop.depth }}{% endfor %}{% endfor %})J",
    R"J({% for x in [1, 2, 3] if x > 1 %}{{ loop.index }}/{{ loop.length }}{% endfor %})J",
    R"J({% for x in [1, 2] %}{% set y = x %}{% endfor %}{{ y }}|{% set z = 0 %}{% if true %}{% set z = 5 %}{% endif %}{{ z }})J",
    R"J(  {% if true %})J",
    R"J(  a)J",
    R"J(  {%- endif %})J",
    R"J(  {%+ if true %}b{% endif %})J",
    R"J({# comment #}  x)J",
    R"J(  {#- c -#}  y)J",
    R"J({% raw -%}   {{ a }}   {%- endraw %})J",
    R"J({{- ' a ' -}})J",
    R"J({%- set x = 1 -%})J",
    R"J(  {{ x }}  )J",
    R"J({% for i in [1, 2] -%})J",
    R"J(  {{ i }})J",
    R"J({% endfor %})J",
    R"J({{ [1, 2, 3, 4, 5, 6][1::2] }} {{ [1, 2, 3][-1:] }} {{ [1, 2, 3][:-1] }} {{ 'abcdef'[::3] }} {{ [1, 2, 3][5:] }} {{ [1,2,3][::-1][0] }})J",
    R"J({{ x|default(none) }}{{ none|default('d') }}{{ false|default('d') }}{{ false|d('d', true) }})J",
    R"J({{ [{'a': 2}, {'a': 1}]|sort(attribute='a') }} {{ ['B', 'a', 'C']|sort }} {{ ['B', 'a', 'C']|sort(case_sensitive=true) }} {{ [{'a': {'b': 1}}]|map(attribute='a.b')|list }})J",
    R"J({{ [1, 'a']|join }} {{ [none, true]|join(', ') }} {{ [{'n': 1}]|join(attribute='n') }})J",
    R"J({{ [1, 2, 3]|sum(start=10) }} {{ [{'v': 1}, {'v': 2}]|sum(attribute='v') }} {{ [0.1, 0.2]|sum }})J",
    R"J({{ 'abc' in 'xabcx' }} {{ 'k' in {'k': 1} }} {{ 1 in [1.0] }} {{ none in [none] }})J",
    R"J({{ [1, 2]|tojson(indent=4) }} {{ {}|tojson(indent=2) }} {{ []|tojson }} {{ {'a': {}}|tojson(indent=1) }} {{ 'x'|tojson(indent='\t') }} {{ {'a': [1, {'b': 2}]}|tojson(indent='--') }})J",
    R"J({{ 1.5|tojson }} {{ 1e100|tojson }} {{ (1, 2)|tojson }} {{ '\u2028 \x1f \x7f'|tojson }} {{ '🙂'|tojson(ensure_ascii=true) }} {{ true|tojson }})J",
    R"J({{ 'a\u00e9\U0001F600\x41\101\N' }})J",
    R"J({{ 'abc'|center(9) }})J",
    R"J({{ [3, 1, 2]|max }} {{ ['a', 'B']|max }} {{ []|max is undefined }} {{ [{'a': 1}, {'a': 3}]|max(attribute='a') }})J",
    R"J({{ 'x'|upper is string }} {{ 'Hello'|lower }} {{ 'ß'|upper }} {{ 'ÀÉÎ'|lower }} {{ 'straße'.upper() }})J",
    R"J({{ 'a-b'.replace('-', '') }} {{ 'aaa'.replace('a', 'b', 2) }} {{ 'abc'|replace('', '-') }} {{ 'x'.startswith(('a', 'x')) }})J",
    R"J({{ [1, 2]|reverse|list }} {{ 'abc'|reverse }} {{ [1, 2]|reverse is sequence }})J",
    R"J({{ {'a': 1}.items()|list }} {{ {'a': 1}.keys() }} {{ {'a': 1}|items|list }})J",
    R"J({{ range(2, -3, -1)|list }} {{ range(5)|list }})J",
    R"J({% set a = [1, 2] %}{% set b = a %}{{ a is sameas b }}{{ [1] is sameas [1] }}{{ none is sameas none }})J",
    R"J({{ -3|abs }} {{ -x|default(1) }} {{ not 1 == 2 }} {{ 1 if 0 else 2 if 0 else 3 }} {{ 1 + 2 * 3 ** 2 }} {{ 2 ** 3 ** 2 }} {{ -2 ** 2 }})J",
    R"J({{ 'a' 'b' "c" }} {{ (1) }} {{ () }} {{ (1, 2,) }} {{ [1, 2,] }} {{ {'a': 1,} }})J",
    R"J({{ messages }})J",
    R"J({{ undefined_var is defined and undefined_var.x }}{{ undefined_var.x is defined if false else 'ok' }})J",
    R"J({{ none.x is defined }})J",
    R"J({{ 'a'.x is defined }}{{ {'a': 1}.a }}{{ {'items': 5}['items'] }}{{ {'items': 5}.items is defined }})J",
    R"J({{ ''.join(['a', 'b']) }} {{ ', '.join(['x']) }})J",
    R"J({{ 'Hello'[0] }}{{ 'Hello'[-1] }}{{ 'Hello'[10] is defined }}{{ [1][3] is undefined }})J",
    R"J({{ 1 + none }})J",
    R"J({{ [1] + none }})J",
    R"J({{ 'abc' * -1 }}|{{ [1] * 2 }}|{{ 2 * 'ab' }})J",
    R"J({{ 5 is divisibleby 0 }})J",
    R"J({{ 3 is divisibleby(3) }} {{ 4 is even }} {{ 4.0 is even }} {{ x is not none }} {{ none is not none }})J",
    R"J({{ 'abc' is lower }} {{ 'ABC' is upper }} {{ 'a1' is lower }} {{ '1' is lower }})J",
    R"J({% if [] %}t{% else %}f{% endif %}{% if {} %}t{% else %}f{% endif %}{% if '0' %}t{% endif %}{% if 0.0 %}t{% else %}f{% endif %})J",
    R"J({%- for m in messages -%}{{ m }}{{ loop.revindex }}{%- endfor -%})J",
    R"J({{ strftime_now('%Y-%m-%d %H:%M %A %b') }})J",
    R"J({{ raise_exception('stop here') }})J",
    R"J({% set x = [1, 2, 3] %}{{ x|last }}{{ x|first }}{{ x|length }}{{ x|count }}{{ x|list|length }})J",
    R"J({{ [1, [2, [3]]] }} {{ [1, [2, [3]]]|tojson }} {{ {'a': (1, 2)} }})J",
    R"J({{ {'b': 1, 'a': 2}|dictsort(by='value') }} {{ {'B': 1, 'a': 2}|dictsort(true) }})J",
    R"J({{ ['a', 'A', 'b', 'B']|unique|list }} {{ ['a', 'A']|unique(case_sensitive=true)|list }} {{ [{'x': 1}, {'x': 1}]|unique(attribute='x')|list }})J",
    R"J({{ 'a\nb\n'|indent }}|{{ 'a\n\nb'|indent(2, blank=true) }}|{{ 'a\n\nb'|indent('> ', first=true) }}|{{ ''|indent(first=true) }})J",
    R"J({{ 'one two  three'|wordcount }})J",
    R"J({{ "<b>&</b>"|e }} {{ "<b>"|safe }} {{ ("<a>"|safe) + "<b>" }} {{ "<b>" + ("<a>"|safe) }} {{ ("<a>"|safe) ~ "<b>" }} {{ ("x"|safe) is string }})J",
    R"J({{ ('<'|safe + '<')|length }} {{ ('<'|safe + '<')|upper }} {{ ('<'|safe + '>')|replace('&', '+') }})J",
    R"J({{ 1 // 0 }})J",
    R"J({{ 7 % 0 }})J",
    R"J({{ [1, 2] | map('int') | first }})J",
    R"J({{ {'a': 1} | attr('a') }}{{ 'x'|attr('upper') is defined }})J",
    R"J(  {% if true %}
  a
  {%- endif %}
  {%+ if true %}b{% endif %}
{# comment #}  x
  {#- c -#}  y
)J",
    R"J({% raw -%}   {{ a }}   {%- endraw %}
{{- ' a ' -}}
{%- set x = 1 -%}
  {{ x }}  
{% for i in [1, 2] -%}
  {{ i }}
{% endfor %}
end)J",
    R"J(<ul>
    {% for m in messages %}
        <li>{{ m.role }}</li>
    {% endfor %}
</ul>

)J",
    R"J({% if true %}  
  x
{% endif %}
	{% if true %}	y{% endif %}
  {{ 'z' }}
)J",
    R"J(a
b
{% if true %}
c{% endif %}

)J",
    R"J({%- macro render(m) -%}
  [{{ m.role | upper }}]
{%- endmacro -%}
{% for m in messages %}{{ render(m) }}
{% endfor %})J",
};

TEST(JinjaDifferential, SmallTemplatesMatchJinja2) {
  setenv("TZ", "UTC", 1);
  tzset();
  Json context = {{"messages", Json::array({{{"role", "user"}, {"content", "hi"}},
                                            {{"role", "assistant"}, {"content", "yo"}}})}};
  Json batch = {{"now", kPinnedNow}, {"templates", Json::array()}, {"cases", Json::array()}};
  for (size_t i = 0; i < kDifferentialCases.size(); ++i) {
    batch["templates"].push_back(kDifferentialCases[i]);
    batch["cases"].push_back({{"template", i}, {"context", context}});
  }
  Json reference = chat::testing::run_jinja_reference(batch);
  ASSERT_TRUE(reference.is_array()) << "the Jinja2 reference (/usr/bin/python3) failed";
  ASSERT_EQ(reference.size(), kDifferentialCases.size());

  Variables variables = {{"messages", value_from_json(context["messages"])}};
  RenderOptions options;
  options.fixed_now = kPinnedNow;
  for (size_t i = 0; i < kDifferentialCases.size(); ++i) {
    Result<Template> parsed = Template::parse(kDifferentialCases[i]);
    Result<std::string> actual =
        parsed.ok() ? parsed->render(variables, options) : Result<std::string>(parsed.error());
    const Json& expected = reference[i];
    if (expected["ok"].get<bool>()) {
      EXPECT_TRUE(actual.ok() && *actual == expected["output"].get<std::string>())
          << "template: " << kDifferentialCases[i] << "\n--- Jinja2:\n"
          << expected["output"].get<std::string>() << "\n--- ingot:\n"
          << (actual.ok() ? *actual : "ERROR " + actual.error().describe());
    } else {
      EXPECT_FALSE(actual.ok()) << "template: " << kDifferentialCases[i] << "\nJinja2 raised "
                                << expected["error"].get<std::string>() << "\ningot rendered:\n"
                                << *actual;
    }
  }
}

}  // namespace
}  // namespace ingot::chat::jinja
