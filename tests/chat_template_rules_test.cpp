// The CT rules, each in both verdicts, on templates given as .jinja files (every cut of them
// checked to give the same findings: chat_templates.cpp).
#include <gtest/gtest.h>

#include "chat_templates.hpp"

namespace {

using tgtest::check_jinja;
using tgtest::ct_ids;

constexpr const char* kInternals = "CT.python-internals";

TEST(CtPythonInternals, AttributesWithADoubleUnderscore) {
  EXPECT_EQ(ct_ids("{{ x.__class__ }}"), kInternals);
  EXPECT_EQ(ct_ids("{% set ns.__dict__ = 1 %}"), kInternals);
  EXPECT_EQ(ct_ids("{% for x in ().__class__.__base__.__subclasses__() %}{% endfor %}"), kInternals);
  EXPECT_EQ(ct_ids("{{ x.a1__class__ }}"), kInternals);
  EXPECT_EQ(ct_ids("{{ x._private }}{{ a_b_c }}{{ _ }}{{ x_ }}{{ _x_ }}"), "");
  // A bare name resolves in the render context, never in Python: undefined, or the template's own.
  EXPECT_EQ(ct_ids("{{ __import__('os') }}{% set a__b = 1 %}{% macro __render_tool(t) %}{% endmacro %}"
                   "{{ __render_tool(x) }}{{ 1__class__ }}{{ f(__class__=1) }}"),
            "");
  // Offsets are the name's first byte, after a probe for {% raw %} too.
  EXPECT_EQ(check_jinja("{%  rawx.__y %}").findings.at(0).offset, 9u);
  EXPECT_EQ(check_jinja("ab{{ x.__y }}").findings.at(0).offset, 7u);
}

TEST(CtPythonInternals, StringLiteralsWithTheirEscapesUndone) {
  EXPECT_EQ(ct_ids(R"({{ x['__class__'] }})"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x["__globals__"] }})"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x['\x5f\x5fclass\x5f\x5f'] }})"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x['\X5f'] }}{{ x['_\x5F'] }})"), kInternals) << "\\x5F: hex digits either case";
  EXPECT_EQ(ct_ids(R"({{ x['\u005f\u005fclass'] }})"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x['\U0000005f\U0000005f'] }})"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x['\137\137class'] }})"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x['\N{LOW LINE}\N{low line}init'] }})"), kInternals);
  EXPECT_EQ(ct_ids("{{ x['_\\\n_class'] }}"), kInternals) << "a line continuation between the two";
  EXPECT_EQ(ct_ids("{{ x['_\\\r\n_class'] }}"), kInternals);
  EXPECT_EQ(ct_ids(R"({{ x['\__'] }})"), kInternals) << "an unknown escape keeps its backslash: \\ then __";
  EXPECT_EQ(ct_ids("{{ 'a_b' }}{{ '_' }}{{ '\\\\_\\\\_' }}{{ '_\\n_' }}{{ '\\x5f\\x41\\x5f' }}"), "");
  EXPECT_EQ(ct_ids(R"({{ '\_\_' }})"), "") << "\\_\\_ is \\ _ \\ _";
  EXPECT_EQ(ct_ids(R"({{ '\1377' }})"), "") << "three octal digits at most: _ then 7";
}

TEST(CtPythonInternals, LiteralsJoinedRepeatedOrListedForAJoin) {
  EXPECT_EQ(ct_ids("{{ x|attr('_' ~ '_class_' ~ '_') }}"), std::string(kInternals) + " CT.attr-filter");
  EXPECT_EQ(ct_ids("{{ x[('_' + '_globals_') + '_'] }}"), std::string(kInternals) + " CT.computed-subscript");
  EXPECT_EQ(ct_ids("{{ x['_' '_init_' '_'] }}"), kInternals) << "adjacent literals are one";
  EXPECT_EQ(ct_ids("{{ '_' ~ '' ~ '_' }}"), kInternals) << "an empty literal joins nothing";
  EXPECT_EQ(ct_ids("{{ ['_', '_class_', '_']|join }}"), kInternals);
  EXPECT_EQ(ct_ids("{{ ('_', '_class_', '_')|join }}"), kInternals) << "a tuple joins as a list does";
  EXPECT_EQ(ct_ids("{% set t = '_', '_' %}{{ t|join }}"), kInternals) << "a tuple without parentheses";
  EXPECT_EQ(ct_ids("{% set a, b = 'x_', 'y' %}{{ {'a_': 1, '_b': 2} }}{{ f('a_', '_b') }}"), "");
  EXPECT_EQ(ct_ids("{{ '_' * 2 ~ 'class' }}"), kInternals);
  EXPECT_EQ(ct_ids("{{ 2 * '_' }}"), kInternals);
  EXPECT_EQ(ct_ids("{{ 'x_' * 2 ~ '_y' }}"), kInternals) << "repetition keeps the ends";
  EXPECT_EQ(ct_ids("{{ '<|' ~ role ~ '_' }}{{ 'a_' ~ name ~ '_b' }}{{ 'a_' ~ 'b_' }}{{ f('a_', '_b') }}"), "");
  EXPECT_EQ(ct_ids("{{ 'a_' }}{{ '_b' }}"), "") << "output side by side is not a value";
  EXPECT_EQ(ct_ids("{{ '_a' * 3 }}{{ '-' * 80 }}"), "");
}

TEST(CtPythonInternals, SandboxEscapeGadgets) {
  for (const char* gadget : {"self", "cycler", "joiner", "namespace", "lipsum", "config", "request", "range"}) {
    const std::string g(gadget);
    EXPECT_EQ(ct_ids("{{ " + g + ".x }}"), kInternals) << g;
    EXPECT_EQ(ct_ids("{{ " + g + "['x'] }}"), kInternals) << g;
    EXPECT_EQ(ct_ids("{{ " + g + "|attr('x') }}"), kInternals) << g;
    EXPECT_EQ(ct_ids("{{ " + g + " . x }}"), kInternals) << g;
    EXPECT_EQ(ct_ids("{{ " + g + "\xc2\xa0.x }}"), kInternals) << g << ": U+00A0 is whitespace to Jinja";
    EXPECT_EQ(ct_ids("{{ " + g + " }}{{ " + g + "(1) }}{{ f(" + g + "=1) }}{{ x." + g + ".y }}{{ x|" + g + " }}"), "") << g;
  }
  EXPECT_EQ(ct_ids("{{ config.items() }}"), kInternals);
  EXPECT_EQ(ct_ids("{{ request.environ }}"), kInternals);
  EXPECT_EQ(ct_ids("{% set c = cycler('a', 'b') %}{{ c.next() }}{% set s = joiner() %}{{ s() }}"
                   "{% set ns = namespace(n=0) %}{% set ns.n = ns.n + 1 %}{% for i in range(3) %}{{ i }}{% endfor %}"
                   "{{ x is sameas none }}"),
            "");
}

TEST(CtPythonInternals, NeverInTextCommentsOrRawBlocks) {
  EXPECT_EQ(ct_ids("some __bold__ text {{ x }} __init__"), "");
  EXPECT_EQ(ct_ids("{# {{ x.__class__ }} #}{{ y }}"), "");
  EXPECT_EQ(ct_ids("{% raw %}{{ x.__class__ }}{% endraw %}"), "");
  EXPECT_EQ(ct_ids("{%- raw -%}{{ __ }}{%- endraw +%}"), "");
  EXPECT_EQ(ct_ids("{%  raw  %}{{ __ }}{%\xe3\x80\x80" "endraw\t%}{{ y.__z }}"), kInternals) << "U+3000 is whitespace too";
  EXPECT_EQ(ct_ids("{% raw %}{% endraw x %}{{ __ }}{% endraw %}"), "") << "not an endraw: still raw";
  EXPECT_EQ(ct_ids("{% rawx %}{{ y.__z }}"), kInternals) << "not a raw block";
  EXPECT_EQ(ct_ids("{{ '{#' }}{{ x.__class__ }}{{ '#}' }}"), kInternals) << "a comment opener in a string";
}

TEST(CtPythonInternals, InvalidUtf8IsDroppedNotAWall) {
  // A reader that decodes with errors="ignore" sees __class__ and config.items.
  EXPECT_EQ(ct_ids("{{ x._\xff_class }}"), std::string(kInternals) + " CT.lex");
  EXPECT_EQ(ct_ids("{{ x['_\xc3_'] }}"), std::string(kInternals) + " CT.lex");
  EXPECT_EQ(ct_ids("{{ con\xfe" "fig.items() }}"), std::string(kInternals) + " CT.lex");
  EXPECT_EQ(ct_ids("{\xff{ x.__y }}"), std::string(kInternals) + " CT.lex");
}

TEST(CtPythonInternals, OneFindingPerTemplateWithTheCount) {
  const auto r = check_jinja("{{ a.__x }}\n{{ b.__y }}\n{{ c.__z }}");
  ASSERT_EQ(ct_ids(r.findings), kInternals);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.findings[0].offset, 5u);
  EXPECT_NE(r.findings[0].message.find("\"__x\""), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("(and 2 more)"), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[0].message.find("at byte 5"), std::string::npos) << r.findings[0].message;
}

TEST(CtAttrFilter, BothVerdicts) {
  // The bypass shapes are chat_template_bypass_test.cpp; here the verdicts.
  EXPECT_EQ(ct_ids("{{ x | attr(y) }}"), "CT.attr-filter");
  EXPECT_FALSE(check_jinja("{{ x|attr(y) }}").valid) << "an error";
  EXPECT_EQ(ct_ids("{{ x|attr('name') }}{{ xs|map('attr', 'name')|list }}{% filter attr('x') %}{% endfilter %}"), "");
  EXPECT_TRUE(check_jinja("{{ x|attr('a') }}").valid);
}

TEST(CtComputedSubscript, BothVerdicts) {
  // The data flow is chat_template_flow_test.cpp; here the verdicts.
  EXPECT_EQ(ct_ids("{{ x['a' ~ b] }}"), "CT.computed-subscript");
  EXPECT_TRUE(check_jinja("{{ x['a' ~ b] }}").valid) << "a warning";
  EXPECT_EQ(ct_ids("{{ x[y] }}{{ messages[loop.index0 - 1] }}{{ x[0] }}{{ x['role'] }}{{ x[1:] }}"), "");
}

TEST(CtComputedAttribute, BothVerdicts) {
  EXPECT_EQ(ct_ids("{{ xs|map(attribute=name)|list }}"), "CT.computed-attribute");
  EXPECT_EQ(ct_ids("{{ xs|sort(attribute='a' ~ b) }}"), "CT.computed-attribute");
  EXPECT_EQ(ct_ids("{{ xs|selectattr(name) }}"), "CT.computed-attribute");
  EXPECT_EQ(ct_ids("{{ xs|rejectattr(a, 'equalto', 1) }}"), "CT.computed-attribute");
  EXPECT_EQ(ct_ids("{{ xs|groupby(attribute=k) }}"), "CT.computed-attribute");
  EXPECT_EQ(ct_ids("{{ xs|sum(attribute=k) }}{{ xs|unique(attribute=k) }}"), "CT.computed-attribute");
  EXPECT_EQ(ct_ids("{{ xs|map(attribute='content')|join('\\n') }}{{ xs|selectattr('role', 'equalto', r) }}"
                   "{{ xs|groupby('a') }}{{ xs|sort(reverse=true, attribute='name') }}{{ f(attribute=x) }}"
                   "{{ xs|min(attribute='n') }}{{ xs|map('lower') }}"),
            "");
  EXPECT_FALSE(check_jinja("{{ xs|selectattr(name) }}").valid) << "an error";
}

TEST(CtLex, WhatJinjaRefuses) {
  for (const char* t : {"{{ x", "{% if x", "{# never closed", "{% raw %} never closed", "{{ 'never closed }}",
                        "{{ x ! y }}", "{{ x @ y }}", "{{ ) }}", "{{ (] }}", "{% if x }}", "{{ '\\x5' }}",
                        "{{ '\\N{LOW LINE' }}", "{{ '\\U00110000' }}", "{{ x }}\xff"}) {
    const auto r = check_jinja(t);
    EXPECT_EQ(ct_ids(r.findings), "CT.lex") << t;
    EXPECT_TRUE(r.valid) << t;
  }
}

TEST(CtLex, WhatJinjaReads) {
  const char* ok[] = {
      "{{ '}}' }}{{ \"%}\" }}{% set x = '{%' %}",         // end tags inside strings
      "{{ {'a': {'b': 1}} }}{{ [{'a': [1]}] }}",           // }} while a bracket is open
      "{{- x -}} {%- if x -%}{%+ endif +%} {{+ y }}",      // whitespace control
      "{{ 1-}} {{ a-b }} {% set x = 5%2 %} {{ 2**3 // 1 }}",  // - and % next to the end tags
      "{#- a comment -#}{##}{#}#}",                         // comments, including {#}#}
      "{{ 1_000 + 0x1F + 0o17 + 0b101 + 1.5e-3 + 2E+4 + .5|int }}",
      "{{ 'a\\'b' ~ \"c\\\"d\" ~ '\\\\' ~ '\\q' ~ '\\N{LATIN SMALL LETTER A}' }}",
      "{%raw%}{{{%endraw%}{%- raw -%} x {%-endraw-%}",
      "{{ x\xe2\x80\x83|e }}",  // U+2003 em space
      "{{ 'd\xc3\xa9j\xc3\xa0 vu' }}<｜User｜>",
      "{{ x }}{ { } %} #} }}",
  };
  for (const char* t : ok) EXPECT_EQ(ct_ids(t), "") << t;
}

TEST(CtLex, NestingPastTheLimitIsCountedNotKept) {
  tensorgate::Limits limits;
  limits.chat_template.max_bracket_depth = 4;
  EXPECT_EQ(ct_ids(check_jinja("{{ ((((((x)))))) }}", limits).findings), "CT.lex");
  EXPECT_EQ(ct_ids(check_jinja("{{ ((((x)))) }}", limits).findings), "");
  EXPECT_EQ(ct_ids(check_jinja("{{ ((((((x.__y)))))) }}", limits).findings), "CT.python-internals CT.lex");
}

TEST(CtBounds, LongInputsKeepFindingsAndMemoryFixed) {
  // 4 MiB of payloads: one finding per rule; a name and a string of 1 MiB each; deep nesting.
  std::string t;
  while (t.size() < (4u << 20)) t += "{{ x.__a }}{{ y[z ~ 1] }}{{ w|attr(q) }}";
  auto r = tensorgate::check_chat_template(t);
  EXPECT_EQ(ct_ids(r), "CT.python-internals CT.attr-filter CT.computed-subscript");
  EXPECT_EQ(ct_ids(tensorgate::check_chat_template("{{ x." + std::string(1u << 20, 'a') + "__ }}")), "CT.python-internals");
  EXPECT_EQ(ct_ids(tensorgate::check_chat_template("{{ '" + std::string(1u << 20, 'a') + "' }}")), "");
  EXPECT_EQ(ct_ids(tensorgate::check_chat_template("{{ " + std::string(1u << 20, '(') + " }}")), "CT.lex");
  EXPECT_EQ(ct_ids(tensorgate::check_chat_template(std::string(1u << 20, '{'))), "CT.lex");
}

TEST(CtMessages, QuoteUntrustedTextShortly) {
  const auto r = check_jinja("{{ x['__" + std::string(500, 'q') + "\n'] }}");
  ASSERT_EQ(ct_ids(r.findings), kInternals);
  EXPECT_LT(r.findings[0].message.size(), 300u);
  EXPECT_EQ(r.findings[0].message.find('\n'), std::string::npos);
}

}  // namespace
