// expat set up for untrusted XML: an allocator that counts what the parser holds and refuses
// past a cap (expat then fails with XML_ERROR_NO_MEMORY: OV.bounds, never the process's memory),
// parameter entities never parsed, and handlers that stop the parse at a DOCTYPE, an entity
// declaration, an external entity reference or a skipped entity, before anything is expanded.
#include <expat.h>

#include <cstdlib>
#include <cstring>

#include "openvino/validator.hpp"

namespace tensorgate::detail::openvino {
namespace {

// Each block carries its size and its counter in front of it, so that free and realloc need no
// context; malloc learns the counter from the parser being made or fed on this thread (expat's
// suite takes no user pointer). Feeding and making are synchronous, so this is exact.
struct alignas(std::max_align_t) BlockHead {
  std::size_t size;
  ExpatMemory* memory;
};
thread_local ExpatMemory* t_current = nullptr;

void* take(ExpatMemory* m, std::size_t size) {
  if (!m || size > m->cap - std::min(m->cap, m->used)) {
    if (m) m->refused = true;
    return nullptr;
  }
  auto* head = static_cast<BlockHead*>(std::malloc(sizeof(BlockHead) + size));
  if (!head) return nullptr;
  head->size = size;
  head->memory = m;
  m->used += size;
  return head + 1;
}

void* counted_malloc(std::size_t size) { return take(t_current, size); }

void counted_free(void* p) {
  if (!p) return;
  BlockHead* head = static_cast<BlockHead*>(p) - 1;
  head->memory->used -= head->size;
  std::free(head);
}

void* counted_realloc(void* p, std::size_t size) {
  if (!p) return counted_malloc(size);
  BlockHead* head = static_cast<BlockHead*>(p) - 1;
  ExpatMemory* m = head->memory;
  if (size > head->size && size - head->size > m->cap - std::min(m->cap, m->used)) {
    m->refused = true;
    return nullptr;
  }
  const std::size_t old = head->size;
  auto* moved = static_cast<BlockHead*>(std::realloc(head, sizeof(BlockHead) + size));
  if (!moved) return nullptr;
  moved->size = size;
  m->used = m->used - old + size;
  return moved + 1;
}

const XML_Memory_Handling_Suite kSuite{counted_malloc, counted_realloc, counted_free};

OpenVinoValidator* self(void* user) { return static_cast<OpenVinoValidator*>(user); }

void XMLCALL on_start(void* user, const XML_Char* name, const XML_Char** atts) { self(user)->on_start(name, atts); }
void XMLCALL on_end(void* user, const XML_Char*) { self(user)->on_end(); }
void XMLCALL on_doctype(void* user, const XML_Char*, const XML_Char*, const XML_Char*, int) {
  self(user)->on_doctype("a DOCTYPE declaration");
}
void XMLCALL on_entity(void* user, const XML_Char*, int parameter, const XML_Char*, int, const XML_Char*,
                       const XML_Char* system_id, const XML_Char*, const XML_Char*) {
  self(user)->on_doctype(parameter ? "a parameter entity declaration"
                                   : system_id ? "an external entity declaration" : "an entity declaration");
}
void XMLCALL on_skipped(void* user, const XML_Char*, int) { self(user)->on_doctype("a reference to an undeclared entity"); }
void XMLCALL on_unparsed(void* user, const XML_Char*, const XML_Char*, const XML_Char*, const XML_Char*, const XML_Char*) {
  self(user)->on_doctype("an unparsed entity declaration");
}
void XMLCALL on_notation(void* user, const XML_Char*, const XML_Char*, const XML_Char*, const XML_Char*) {
  self(user)->on_doctype("a notation declaration");
}
int XMLCALL on_external(XML_Parser parser, const XML_Char*, const XML_Char*, const XML_Char*, const XML_Char*) {
  self(XML_GetUserData(parser))->on_doctype("an external entity reference");
  return XML_STATUS_ERROR;
}

}  // namespace

void* make_guarded_parser(ExpatMemory& memory, void* user) {
  ExpatMemory* before = t_current;
  t_current = &memory;
  XML_Parser p = XML_ParserCreate_MM(nullptr, &kSuite, nullptr);
  t_current = before;
  if (!p) return nullptr;
  XML_SetUserData(p, user);
  XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_NEVER);
  XML_SetElementHandler(p, on_start, on_end);
  XML_SetStartDoctypeDeclHandler(p, on_doctype);
  XML_SetEntityDeclHandler(p, on_entity);
  XML_SetSkippedEntityHandler(p, on_skipped);
  XML_SetUnparsedEntityDeclHandler(p, on_unparsed);
  XML_SetNotationDeclHandler(p, on_notation);
  XML_SetExternalEntityRefHandler(p, on_external);
  return p;
}

// The validator's own use of expat, with the counter set for its calls.
void OpenVinoValidator::parse(const char* data, std::size_t size, bool final) {
  auto* p = static_cast<XML_Parser>(parser_);
  ExpatMemory* before = t_current;
  t_current = &expat_memory_;
  const XML_Status status = XML_Parse(p, data, static_cast<int>(size), final ? XML_TRUE : XML_FALSE);
  t_current = before;
  if (status == XML_STATUS_ERROR) on_error();
}

// expat may hold back an error inside a token it has not seen the end of, depending on where
// its input was cut: the final parse of the bytes within the bound says whether one came before
// it (then it is the finding, as when the whole input arrived at once); one that only says the
// input ends there (a token, a character, the root left open) is the bound's.
void OpenVinoValidator::end_at_bound() {
  auto* p = static_cast<XML_Parser>(parser_);
  ExpatMemory* before = t_current;
  t_current = &expat_memory_;
  const XML_Status status = XML_Parse(p, nullptr, 0, XML_TRUE);
  t_current = before;
  if (stopped_) return;  // a handler made its finding
  if (status == XML_STATUS_ERROR) {
    const XML_Error code = XML_GetErrorCode(p);
    if (code != XML_ERROR_UNCLOSED_TOKEN && code != XML_ERROR_PARTIAL_CHAR && code != XML_ERROR_NO_ELEMENTS &&
        code != XML_ERROR_UNCLOSED_CDATA_SECTION && code != XML_ERROR_ABORTED) {
      on_error();
      return;
    }
  }
  findings_.add(Rule::ov_bounds,
                "model.xml is longer than Limits::openvino.max_xml_bytes (" + std::to_string(limits_.openvino.max_xml_bytes) + " bytes)",
                parsed_);
  stopped_ = true;
}

OpenVinoValidator::~OpenVinoValidator() {
  if (parser_) XML_ParserFree(static_cast<XML_Parser>(parser_));
}

void OpenVinoValidator::stop() {
  stopped_ = true;
  if (parser_) XML_StopParser(static_cast<XML_Parser>(parser_), XML_FALSE);
}

void OpenVinoValidator::on_start(const char* name, const char** atts) {
  if (stopped_) return;
  auto* p = static_cast<XML_Parser>(parser_);
  const auto at = static_cast<std::uint64_t>(XML_GetCurrentByteIndex(p));
  if (!reader_.start(name, atts, at, static_cast<std::uint64_t>(XML_GetCurrentByteCount(p)))) stop();
}

void OpenVinoValidator::on_end() {
  if (stopped_) return;
  const auto at = static_cast<std::uint64_t>(XML_GetCurrentByteIndex(static_cast<XML_Parser>(parser_)));
  if (!reader_.end(at)) stop();
}

void OpenVinoValidator::on_doctype(const char* what) {
  if (stopped_) return;
  const auto at = static_cast<std::uint64_t>(XML_GetCurrentByteIndex(static_cast<XML_Parser>(parser_)));
  findings_.add(Rule::ov_doctype,
                std::string("model.xml holds ") + what +
                    ": OpenVINO's serializer writes none, and entities are how XML reads local files or expands without bound; "
                    "refused before anything is expanded",
                at);
  stop();
}

void OpenVinoValidator::on_error() {
  auto* p = static_cast<XML_Parser>(parser_);
  const XML_Error code = XML_GetErrorCode(p);
  if (code == XML_ERROR_ABORTED || stopped_) {
    stopped_ = true;
    return;
  }
  stopped_ = true;
  const auto at = static_cast<std::uint64_t>(XML_GetCurrentByteIndex(p));
  const std::string where = " at line " + std::to_string(XML_GetCurrentLineNumber(p)) + ", column " +
                            std::to_string(XML_GetCurrentColumnNumber(p));
  if (code == XML_ERROR_NO_MEMORY && expat_memory_.refused) {
    findings_.add(Rule::ov_bounds,
                  "parsing the XML needs more than " + std::to_string(expat_memory_.cap) +
                      " bytes of the parser's memory (one token of it is that long: Limits::openvino.max_attribute_bytes)",
                  at);
  } else if (code == XML_ERROR_UNDEFINED_ENTITY || code == XML_ERROR_EXTERNAL_ENTITY_HANDLING ||
             code == XML_ERROR_ENTITY_DECLARED_IN_PE || code == XML_ERROR_PARAM_ENTITY_REF || code == XML_ERROR_RECURSIVE_ENTITY_REF ||
             code == XML_ERROR_AMPLIFICATION_LIMIT_BREACH) {
    findings_.add(Rule::ov_doctype, std::string("model.xml refers to an entity (") + XML_ErrorString(code) + where +
                                        "): only XML's five predefined entities are allowed",
                  at);
  } else {
    findings_.add(Rule::ov_xml, std::string("model.xml is not well-formed XML: ") + XML_ErrorString(code) + where, at);
  }
}

}  // namespace tensorgate::detail::openvino
