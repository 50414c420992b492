// Chat templates in GGUF metadata: tokenizer.chat_template and tokenizer.chat_template.<name>
// are judged by the CT rules as the value streams (it is never buffered); offsets are file
// offsets; an error makes the file invalid, a warning leaves it valid.
#include <gtest/gtest.h>

#include "chat_templates.hpp"
#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"

namespace {

using namespace tgtest;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

TEST(ChatTemplateGguf, PythonInternalsMakeTheFileInvalid) {
  const std::string tmpl = "{% for m in messages %}{{ m.content }}{{ x.__globals__ }}{% endfor %}";
  GgufBuilder b = base();
  b.kv_str("tokenizer.chat_template", tmpl);
  const std::string file = b.tensor("w", 0, {8}).build();
  const auto r = check_gguf(file);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(gguf_errors(r), "CT.python-internals");
  const auto* f = find_rule(r, "CT.python-internals");
  ASSERT_TRUE(f && f->offset);
  EXPECT_EQ(file.substr(*f->offset, 11), "__globals__") << "the offset is the name's place in the file";
  EXPECT_NE(f->message.find("\"tokenizer.chat_template\" at byte 43"), std::string::npos) << f->message;
  EXPECT_EQ(f->message.find("{%"), std::string::npos) << "the template text stays out";
}

TEST(ChatTemplateGguf, NamedTemplatesAreJudgedToo) {
  GgufBuilder b = base();
  b.kv_str("tokenizer.chat_template", "{{ ok }}").kv_str("tokenizer.chat_template.tool_use", "{{ cycler.__init__ }}");
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "CT.python-internals");
  EXPECT_NE(find_rule(r, "CT.python-internals")->message.find("tokenizer.chat_template.tool_use"), std::string::npos);
}

TEST(ChatTemplateGguf, SubstringsTheOldCheckMissed) {
  for (const char* t : {"{{ x|attr('\\x5f\\x5fclass\\x5f\\x5f') }}", "{{ config.items() }}"}) {
    const auto r = check_gguf(base().kv_str("tokenizer.chat_template", t).build());
    EXPECT_EQ(gguf_errors(r), "CT.python-internals") << t;
  }
  // A name joined at render time is also a computed attr name.
  for (const char* t : {"{{ x|attr('__glo' ~ 'bals__') }}", "{{ x|attr('_' ~ '_class_' ~ '_') }}"}) {
    const auto r = check_gguf(base().kv_str("tokenizer.chat_template", t).build());
    EXPECT_EQ(gguf_errors(r), "CT.python-internals CT.attr-filter") << t;
  }
}

TEST(ChatTemplateGguf, ComputedNamesMakeTheFileInvalid) {
  const auto r = check_gguf(base().kv_str("tokenizer.chat_template", "{{ xs|map(attribute=n)|list }}").build());
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(gguf_errors(r), "CT.computed-attribute");
}

TEST(ChatTemplateGguf, WarningsLeaveItValid) {
  const auto r = check_gguf(base().kv_str("tokenizer.chat_template", "{{ x[y ~ 1] }}{{ '").build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "CT.computed-subscript CT.lex");
  EXPECT_TRUE(r.summary.get<tensorgate::GgufSummary>()->chat_template);
}

TEST(ChatTemplateGguf, OtherKeysAreNotTemplates) {
  const auto r = check_gguf(base().kv_str("x.note", "{{ x.__class__ }}").kv_str("tokenizer.chat_templates", "{{ __ }}").build());
  EXPECT_EQ(gguf_errors(r), "");
}

TEST(ChatTemplateGguf, ADuplicateKeyIsJudgedToo) {
  const auto r = check_gguf(base().kv_str("tokenizer.chat_template", "{{ ok }}").kv_str("tokenizer.chat_template", "{{ x.__y }}").build());
  EXPECT_NE(find_rule(r, "CT.python-internals"), nullptr);
}

TEST(ChatTemplateGguf, InvalidUtf8BetweenUnderscores) {
  const auto r = check_gguf(base().kv_str("tokenizer.chat_template", "{{ x._\xff_class__ }}").build());
  EXPECT_EQ(gguf_errors(r), "CT.python-internals");
  EXPECT_NE(find_rule(r, "GGW.string-utf8"), nullptr);
}

TEST(ChatTemplateGguf, ALongTemplateStreams) {
  // 8 MiB of template arrives in pieces (check_gguf feeds it several ways): one finding a rule.
  std::string t;
  while (t.size() < (8u << 20)) t += "{% for m in messages %}{{ m['content'] }}{{ m.__x }}{% endfor %}";
  const auto r = tensorgate::validate_gguf(base().kv_str("tokenizer.chat_template", t).build());
  EXPECT_EQ(gguf_errors(r), "CT.python-internals");
  EXPECT_NE(find_rule(r, "CT.python-internals")->message.find("more)"), std::string::npos);
}

}  // namespace
