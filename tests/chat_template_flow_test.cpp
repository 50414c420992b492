// CT.computed-subscript: a key the template may build is a warning, wherever it is built (in the
// subscript, or bound to a name the key reads, anywhere in the template); numbers, slices,
// literals and the caller's own data are not. Every template is also checked cut every way.
#include <gtest/gtest.h>

#include "chat_templates.hpp"

namespace {

using tgtest::check_jinja;
using tgtest::ct_ids;

constexpr const char* kSubscript = "CT.computed-subscript";

void expect_warning(const std::string& text) {
  const auto r = check_jinja(text);
  EXPECT_EQ(ct_ids(r.findings), kSubscript) << text;
  EXPECT_TRUE(r.valid) << text;
  if (!r.findings.empty()) {
    EXPECT_EQ(r.findings[0].severity, tensorgate::Severity::warning) << text;
  }
}

TEST(CtComputedSubscript, KeysBuiltInPlace) {
  expect_warning("{{ x['xxclassxx'|replace('x', '_')] }}");
  expect_warning("{{ x['%c%cclass%c%c'|format(95, 95, 95, 95)] }}");
  expect_warning("{{ x['a' ~ b] }}");
  expect_warning("{{ x[a ~ b] }}");
  expect_warning("{{ x['a' * n] }}");
  expect_warning("{{ x['%s' % n] }}");
  expect_warning("{{ x[f()] }}");
  expect_warning("{{ x[n|string] }}");
  expect_warning("{{ x[n.join(parts)] }}");
  expect_warning("{{ x[[a, b]|join] }}");
  expect_warning("{{ x[xs|map('replace', 'x', '_')|first] }}");
  // A slice with a step picks characters apart: '_?_?c?l?a?s?s?_?_'[::2] is '__class__'.
  expect_warning("{{ x['_?_?c?l?a?s?s?_?_'[::2]] }}");
  expect_warning("{{ x[k[1::n]] }}");
  expect_warning("{% set k = s[::-2] %}{{ x[k] }}");
  EXPECT_EQ(ct_ids("{{ x[k[::-1]] }}{{ x[k[1:]] }}{{ x[k[::1]] }}{{ x[k[:-1:]] }}{% for m in messages[::-1] %}{{ x[m] }}{% endfor %}"), "");
}

TEST(CtComputedSubscript, KeysReadFromNamesTheTemplateBuilds) {
  expect_warning("{% set k = 'xxclassxx'|replace('x', '_') %}{{ x[k] }}");
  // bound after the subscript that reads it
  expect_warning("{{ x[k] }}{% set k = 'a' ~ b %}");
  // a block set captures output text
  expect_warning("{% set k %}__class__{% endset %}{{ x[k] }}");
  expect_warning("{% set k | lower %}x{% endset %}{{ x[k] }}");
  // through another name
  expect_warning("{% set j = 'a' ~ b %}{% set k = j %}{{ x[k] }}");
  expect_warning("{% set ns = namespace(k='a' ~ b) %}{{ x[ns.k] }}");
  expect_warning("{% set ns = namespace(k=0) %}{% set ns.k = a ~ b %}{{ x[ns.k] }}");
  expect_warning("{% for k in ['a' ~ b] %}{{ x[k] }}{% endfor %}");
  expect_warning("{% for k, v in {'a': 1}.items() if v %}{{ x[k] }}{% endfor %}{% set k = b|trim ~ c %}");
  expect_warning("{% with k = a ~ b %}{{ x[k] }}{% endwith %}");
  expect_warning("{% with j = 1, k = a ~ b %}{{ x[k] }}{% endwith %}");
  expect_warning("{% set ks = [] %}{% set _ = ks.append(a ~ b) %}{% for k in ks %}{{ x[k] }}{% endfor %}");
  // a macro parameter
  expect_warning("{% macro m(k) %}{{ x[k] }}{% endmacro %}{{ m('a' ~ b) }}");
  // a default
  expect_warning("{% macro m(j, k='a' ~ b) %}{{ x[k] }}{% endmacro %}");
  expect_warning("{% macro m() %}{{ x[varargs[0]] }}{% endmacro %}{{ m(a ~ b) }}");
  expect_warning("{% macro m() %}{{ x[kwargs.k] }}{% endmacro %}{{ m(k=a ~ b) }}");
  // a macro kept as a value is called another way
  expect_warning("{% macro m(k) %}{{ x[k] }}{% endmacro %}{% set d = {'f': m} %}{{ d.f(a ~ b) }}");
  expect_warning("{% macro m() %}{{ caller(a ~ b) }}{% endmacro %}{% call(k) m() %}{{ x[k] }}{% endcall %}");
  expect_warning("{% for k in [1] recursive %}{{ x[k] }}{{ loop([a ~ b]) }}{% endfor %}");
  // adds a string literal
  expect_warning("{% set u = '_' %}{{ x[u + u + 'class' + u + u] }}");
  expect_warning("{% set u = '_' %}{% set v = u + u %}{{ x[v] }}");
  expect_warning("{% set u = '_' %}{{ x[u * 2] }}");
}

TEST(CtComputedSubscript, WhatRealTemplatesDo) {
  EXPECT_EQ(ct_ids("{% for message in messages %}{% if loop.index0 > 0 and messages[loop.index0 - 1].role == 'tool' %}"
                   "{{ messages[loop.index0 + 1]['content'] }}{% endif %}{% endfor %}"),
            "");
  EXPECT_EQ(ct_ids("{% set ns = namespace(last_query_index=messages|length - 1) %}"
                   "{% for message in messages[::-1] %}{% set index = (messages|length - 1) - loop.index0 %}"
                   "{% set ns.last_query_index = index %}{% endfor %}{{ messages[ns.last_query_index] }}"),
            "");
  EXPECT_EQ(ct_ids("{% set idx = messages|length - 1 - loop.index0 %}{{ messages[idx] }}{{ messages[idx + 1] }}"
                   "{% for i in range(start, messages|length) %}{{ messages[i - 1] }}{{ messages[i + 1] }}{% endfor %}"),
            "");
  EXPECT_EQ(ct_ids("{% macro json_to_python_type(json_spec) %}{% set basic_type_map = {'string': 'str', 'number': 'float'} %}"
                   "{% if basic_type_map[json_spec.type] is defined %}{{ basic_type_map[json_spec.type] }}"
                   "{% elif json_spec.type == 'array' %}{{ 'list[' + json_to_python_type(json_spec|items) + ']' }}"
                   "{% else %}{% for t in json_spec.type %}{{ json_to_python_type({'type': t}) }}{% endfor %}{% endif %}"
                   "{% endmacro %}{% for tool in tools %}{% for name, fields in tool.parameters.properties|items %}"
                   "{{ name + ': ' + json_to_python_type(fields) }}{% endfor %}{% endfor %}"
                   "{{ raise_exception('Unexpected role: ' ~ message.role) }}"),
            "")
      << "a macro's parameter takes only that macro's arguments";
  EXPECT_EQ(ct_ids("{% macro render_extra_keys(json_dict, handled_keys) %}{% for json_key in json_dict if json_key not in "
                   "handled_keys %}{{ json_dict[json_key]|tojson }}{% endfor %}{% endmacro %}"
                   "{{ render_extra_keys(tool.function, ['type', 'name']) }}"),
            "");
  EXPECT_EQ(ct_ids("{% set assistant_idx = namespace(value=-1) %}{% for m in messages %}"
                   "{% set assistant_idx.value = loop.index0 %}{% endfor %}{{ messages[assistant_idx.value] }}"
                   "{% set u = 'role' %}{{ m[u] }}{{ x[y] }}{{ x[a.b[0]] }}{{ x[a:b] }}{{ x[a, b] }}{{ x[(0)] }}"
                   "{{ f(x)[y] }}{{ x[y|length + 1] }}{{ x[-n] }}{{ x[n // 2] }}"),
            "");
  EXPECT_EQ(ct_ids("{{ x[0] }}{{ x[-1] }}{{ x['role'] }}{{ x[1:] }}{{ x[:-1] }}{{ x[::-1] }}{{ x[0]['a'][1] }}"
                   "{{ [a, b] }}{% for m in [x, y] %}{% endfor %}{{ {'a': 1}['a'] }}{{ 'abc'[0] }}"),
            "");
}

TEST(CtComputedSubscript, OneFindingWithTheFirstPlaceAndTheCount) {
  const auto r = check_jinja("{{ x[k] }}{{ y[k] }}{{ z[a ~ b] }}{% set k = c ~ d %}");
  ASSERT_EQ(ct_ids(r.findings), kSubscript);
  EXPECT_EQ(r.findings[0].offset, 4u);
  EXPECT_NE(r.findings[0].message.find("\"k\""), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("(and 1 more)"), std::string::npos) << r.findings[0].message;
}

TEST(CtComputedSubscript, PastTheNameBoundEveryNameMayBeBuilt) {
  tensorgate::Limits limits;
  limits.chat_template.max_names = 2;
  EXPECT_EQ(ct_ids(check_jinja("{{ a }}{{ b }}{{ x[c] }}", limits).findings), kSubscript);
  EXPECT_EQ(ct_ids(check_jinja("{{ x[c] }}", limits).findings), "");
}

}  // namespace
