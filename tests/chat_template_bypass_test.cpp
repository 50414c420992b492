// The ways a template names an attribute by a string it builds at render time, past a check of
// its literals, each an error of its own rule (the payload shapes run against an unsandboxed
// jinja2.Environment, as llama-cpp-python rendered templates before CVE-2024-34359), and the
// literal forms real templates use, which stay quiet. Every template is also checked cut every
// way (chat_templates.cpp).
#include <gtest/gtest.h>

#include "chat_templates.hpp"

namespace {

using tgtest::check_jinja;
using tgtest::ct_ids;

constexpr const char* kInternals = "CT.python-internals";
constexpr const char* kAttr = "CT.attr-filter";
constexpr const char* kAttribute = "CT.computed-attribute";
constexpr const char* kFormat = "CT.str-format";

// Names built at render time with no double underscore in any literal.
const std::string kReplaced = "('xxinitxx'|replace('x', '_'))";
const std::string kFormatted = "('%c%cglobals%c%c'|format(95, 95, 95, 95))";

// `text` gives exactly `ids`, the first an error, and the template is invalid.
void expect_error(const std::string& text, const std::string& ids) {
  const auto r = check_jinja(text);
  EXPECT_EQ(ct_ids(r.findings), ids) << text;
  EXPECT_FALSE(r.valid) << text;
  if (!r.findings.empty()) {
    EXPECT_EQ(r.findings[0].severity, tensorgate::Severity::error) << text;
  }
}

TEST(CtComputedAttribute, EveryFilterThatReadsAttributesByName) {
  for (const std::string& name : {kReplaced, kFormatted, std::string("n"), std::string("'_' ~ n")}) {
    // attribute= of every filter that takes it.
    for (const char* f : {"map", "sort", "sum", "unique", "min", "max", "groupby", "join"})
      expect_error("{{ xs|" + std::string(f) + "(attribute=" + name + ") }}", kAttribute);
    // The positional argument that names it: first, second or third after the value.
    for (const char* f : {"selectattr(", "rejectattr(", "groupby(", "sum(", "unique(false, ", "min(false, ",
                          "max(true, ", "join(', ', ", "sort(false, false, "})
      expect_error("{{ xs|" + std::string(f) + name + ") }}", kAttribute);
  }
  expect_error("{{ xs|selectattr(n, 'equalto', 1)|list }}", kAttribute);
  expect_error("{% filter map(attribute=n) %}x{% endfilter %}", kAttribute);
}

TEST(CtComputedAttribute, ArgumentsByExpansion) {
  expect_error("{{ xs|map(**{'attribute': " + kFormatted + "})|list }}", kAttribute);
  expect_error("{% set d = {'attribute': n} %}{{ xs|map(**d)|list }}", kAttribute);
  expect_error("{{ xs|sort(*args) }}", kAttribute);
  expect_error("{{ xs|join(',', **kw) }}", kAttribute);
  expect_error("{{ x|attr(*names) }}", kAttr);
}

TEST(CtComputedAttribute, ThroughMapByName) {
  expect_error("{{ xs|map('sort', attribute=n)|list }}", kAttribute);
  expect_error("{{ xs|map('selectattr', n)|list }}", kAttribute);
  expect_error("{{ xs|map('join', ',', " + kReplaced + ")|list }}", kAttribute);
  expect_error("{{ xs|map('map', attribute=n)|list }}", kAttribute);
  EXPECT_EQ(ct_ids("{{ xs|map('sort', attribute='name')|list }}{{ xs|map('join', ', ')|list }}"), "");
}

TEST(CtComputedAttribute, LiteralsAsRealTemplatesUseThem) {
  EXPECT_EQ(ct_ids("{{ xs|map(attribute='content')|join('\\n') }}{{ xs|selectattr('role', 'equalto', 'user')|list }}"
                   "{{ xs|rejectattr('type', 'equalto', 'code_interpreter')|list }}{{ xs|groupby('role') }}"
                   "{{ xs|sort(attribute='name') }}{{ xs|sort(reverse=true, attribute='age,name') }}"
                   "{{ xs|sum(attribute='n') }}{{ xs|unique(attribute='id')|list }}{{ xs|min(attribute='a.b') }}"
                   "{{ xs|max(false, 'n') }}{{ xs|join(', ', attribute='name') }}{{ xs|join(', ') }}"
                   "{{ xs|map(attribute=0)|list }}{{ xs|sort(attribute=-1) }}{{ xs|selectattr('a' 'b') }}"
                   "{{ xs|sort(false, true) }}{{ xs|unique(false) }}{{ xs|map('upper')|list }}"
                   "{{ f(attribute=x) }}{{ xs|tojson(indent=n) }}{{ xs|groupby(attribute='role') }}"),
            "");
}

TEST(CtAttrFilter, ComputedNamesAreErrorsLiteralsAreNot) {
  expect_error("{{ x|attr(" + kReplaced + ") }}", kAttr);
  expect_error("{{ x | attr(y) }}", kAttr);
  expect_error("{{ x|attr('a' ~ b) }}", kAttr);
  expect_error("{% filter attr(n) %}{% endfilter %}", kAttr);
  expect_error("{{ xs|map('attr', " + kFormatted + ")|list }}", kAttr);
  expect_error("{{ xs|map('map', 'attr', n)|list }}", kAttr);
  // A variable holding 'attr' names the filter map applies.
  expect_error("{% set f = 'attr' %}{{ xs|map(f, " + kReplaced + ")|list }}", kAttr);
  expect_error("{{ xs|map(f)|list }}", kAttr);
  EXPECT_EQ(ct_ids("{{ x|attr('name') }}{{ xs|map('attr', 'content')|list }}{% filter attr('x') %}{% endfilter %}"
                   "{{ x.attr }}{{ attr }}{{ x|map(attribute='attr') }}"),
            "");
  EXPECT_EQ(ct_ids("{{ x|attr('__class__') }}"), kInternals) << "a literal: the name itself is judged";
}

TEST(CtStrFormat, FieldsThatReadAttributesOrItems) {
  expect_error("{{ '{0.__init__.__globals__}'.format(x) }}", std::string(kInternals) + " " + kFormat);
  for (const char* fmt : {"{0.gi_frame}", "{0.x}", "{0[x]}", "{x.y}", "{0[0].y}", "{0:{1.x}}", "a {{b}} {0.c}",
                          "\\x7b0.x}", "{0!r} {1.y}"}) {
    const std::string f(fmt);
    expect_error("{{ '" + f + "'.format(a, b) }}", kFormat);
    expect_error("{{ '" + f + "'.format_map(d) }}", kFormat);
  }
  EXPECT_EQ(ct_ids("{{ '{}'.format(x) }}{{ '{0} {1}'.format(a, b) }}{{ '{name}'.format(name=x) }}"
                   "{{ '{0:>8} {0!r:^5}'.format(x) }}{{ '{{0.x}}'.format() }}{{ x.format }}{{ tool.format }}"
                   "{{ '%s.%s'|format(a, b) }}{{ '%(a)s' % d }}"),
            "");
}

TEST(CtStrFormat, FormatStringsBuiltAtRenderTime) {
  expect_error("{{ ('{0.' ~ " + kReplaced + " ~ '}').format(x) }}", kFormat);
  expect_error("{% set f = '{0.' ~ n ~ '}' %}{{ f.format(x) }}", kFormat);
  // adjacent literals are put together at render time
  expect_error("{{ '{0' '.x}'.format(x) }}", kFormat);
  expect_error("{{ fmt.format_map(d) }}", kFormat);
  // The method by its name: an item lookup falls back to the attribute.
  expect_error("{{ '{0.x}'['format'](y) }}", kFormat);
  expect_error("{{ s|attr('format')(y) }}", kFormat);
  EXPECT_EQ(ct_ids("{{ param['format'] }}{{ x|attr('format') }}{{ f['format_map'] }}"), "")
      << "read, not called: a JSON schema's \"format\"";
}

TEST(CtPythonInternals, InternalsWithoutADoubleUnderscore) {
  // A generator's frame leads to eval; a macro's environment compiles a string built at render time.
  expect_error("{{ (xs|map('upper')).gi_frame.f_builtins.eval(code) }}", kInternals);
  expect_error("{% macro m() %}{% endmacro %}{{ m._environment.from_string(src).render() }}", kInternals);
  expect_error("{% for x in xs|select %}{{ loop._iterator.gi_frame }}{% endfor %}", kInternals);
  expect_error("{{ xs['gi_frame'] }}", kInternals);
  expect_error("{{ xs|attr('f_globals') }}", kInternals);
  expect_error("{{ xs|map(attribute='gi_frame.f_builtins')|list }}", kInternals);
  expect_error("{{ xs|sort(attribute='name,tb_frame') }}", kInternals);
  expect_error("{{ str.mro() }}", kInternals);
  EXPECT_EQ(ct_ids("{% set f_globals = 1 %}{{ f_globals }}{{ 'gi_frames' }}{{ 'use f_globals here' }}{{ x.frame }}"
                   "{{ x.mros }}{{ x.environment }}"),
            "")
      << "variables of those names, and longer or other strings";
}

}  // namespace
