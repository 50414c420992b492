// Checks real answers against docs/openapi.json: the route, method and status must be documented
// and the body must match the documented schema. A small JSON Schema subset (the keywords the
// document uses) is enough and keeps the tests free of another dependency.
#include <boost/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>

#include "service_support.hpp"

namespace tgservice {
namespace json = boost::json;
namespace {

const json::object& document() {
  static const json::value doc = [] {
    std::ifstream in(TG_OPENAPI_PATH);
    std::stringstream text;
    text << in.rdbuf();
    return json::parse(text.str());
  }();
  return doc.as_object();
}

// Follows a local "$ref" ("#/components/schemas/x").
const json::value& deref(const json::value& v) {
  if (!v.is_object() || !v.as_object().contains("$ref")) return v;
  const std::string ref(v.as_object().at("$ref").as_string());
  const json::value* at = nullptr;
  static const json::value root = json::value(document());
  at = &root;
  std::size_t pos = 2;  // after "#/"
  while (pos <= ref.size()) {
    const std::size_t slash = std::min(ref.find('/', pos), ref.size());
    at = &at->as_object().at(ref.substr(pos, slash - pos));
    pos = slash + 1;
  }
  return deref(*at);
}

bool has_type(const json::value& v, std::string_view type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_bool();
  if (type == "string") return v.is_string();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "integer") return v.is_int64() || v.is_uint64();
  if (type == "number") return v.is_number();
  return false;
}

double number(const json::value& v) { return v.to_number<double>(); }

std::string check(const json::value& schema_ref, const json::value& v, const std::string& at);

std::string check_object(const json::object& s, const json::object& o, const std::string& at) {
  if (s.contains("required"))
    for (const auto& k : s.at("required").as_array())
      if (!o.contains(k.as_string())) return at + ": missing " + std::string(k.as_string());
  const json::object empty;
  const json::object& props = s.contains("properties") ? s.at("properties").as_object() : empty;
  for (const auto& [k, val] : o) {
    if (props.contains(k)) {
      if (auto e = check(props.at(k), val, at + "." + std::string(k)); !e.empty()) return e;
    } else if (s.contains("additionalProperties")) {
      const json::value& ap = s.at("additionalProperties");
      if (ap.is_bool() && !ap.as_bool()) return at + ": unexpected " + std::string(k);
      if (ap.is_object())
        if (auto e = check(ap, val, at + "." + std::string(k)); !e.empty()) return e;
    }
  }
  return {};
}

std::string check_array(const json::object& s, const json::array& a, const std::string& at) {
  if (s.contains("minItems") && static_cast<double>(a.size()) < number(s.at("minItems"))) return at + ": too few items";
  if (s.contains("maxItems") && static_cast<double>(a.size()) > number(s.at("maxItems"))) return at + ": too many items";
  if (s.contains("items"))
    for (std::size_t i = 0; i < a.size(); ++i)
      if (auto e = check(s.at("items"), a[i], at + "[" + std::to_string(i) + "]"); !e.empty())
        return e;
  return {};
}

std::string check_scalar(const json::object& s, const json::value& v, const std::string& at) {
  if (v.is_number()) {
    if (s.contains("minimum") && number(v) < number(s.at("minimum"))) return at + ": below minimum";
    if (s.contains("maximum") && number(v) > number(s.at("maximum"))) return at + ": above maximum";
  }
  if (v.is_string()) {
    const std::string str(v.as_string());
    if (s.contains("minLength") && static_cast<double>(str.size()) < number(s.at("minLength"))) return at + ": too short";
    if (s.contains("pattern") &&
        !std::regex_search(str, std::regex(std::string(s.at("pattern").as_string()))))
      return at + ": does not match " + std::string(s.at("pattern").as_string());
  }
  return {};
}

std::string check_choices(const json::object& s, const json::value& v, const std::string& at) {
  if (s.contains("const") && s.at("const") != v) return at + ": not the constant";
  if (s.contains("enum")) {
    bool found = false;
    for (const auto& e : s.at("enum").as_array()) found = found || e == v;
    if (!found) return at + ": not in enum: " + json::serialize(v);
  }
  if (s.contains("oneOf")) {
    int matches = 0;
    for (const auto& alt : s.at("oneOf").as_array()) matches += check(alt, v, at).empty() ? 1 : 0;
    if (matches != 1) return at + ": matches " + std::to_string(matches) + " oneOf schemas";
  }
  return {};
}

std::string check(const json::value& schema_ref, const json::value& v, const std::string& at) {
  const json::object& s = deref(schema_ref).as_object();
  if (s.contains("type")) {
    const json::value& t = s.at("type");
    bool ok = false;
    if (t.is_string()) ok = has_type(v, t.as_string());
    else for (const auto& alt : t.as_array()) ok = ok || has_type(v, alt.as_string());
    if (!ok) return at + ": wrong type " + json::serialize(v).substr(0, 80);
  }
  if (auto e = check_choices(s, v, at); !e.empty()) return e;
  if (v.is_object()) return check_object(s, v.as_object(), at);
  if (v.is_array()) return check_array(s, v.as_array(), at);
  return check_scalar(s, v, at);
}

// "/ui/{asset}" matches "/ui/main.js": a {name} segment matches one non-empty segment.
bool template_matches(std::string_view tmpl, std::string_view path) {
  while (!tmpl.empty() && !path.empty()) {
    const std::size_t t = std::min(tmpl.find('/', 1), tmpl.size());
    const std::size_t p = std::min(path.find('/', 1), path.size());
    const std::string_view ts = tmpl.substr(0, t), ps = path.substr(0, p);
    const bool variable = ts.size() > 3 && ts[1] == '{' && ts.back() == '}';
    if (variable ? ps.size() < 2 : ts != ps) return false;
    tmpl.remove_prefix(t);
    path.remove_prefix(p);
  }
  return tmpl.empty() && path.empty();
}

// The path item for a request path: the exact path, or the one template it matches.
const json::object* find_path(std::string_view path) {
  const json::object& paths = document().at("paths").as_object();
  if (paths.contains(path)) return &paths.at(path).as_object();
  for (const auto& [k, v] : paths)
    if (k.find('{') != json::string_view::npos && template_matches(k, path)) return &v.as_object();
  return nullptr;
}

const json::value* find_response(std::string_view method, std::string_view path, unsigned status) {
  const json::object& shared = document().at("components").as_object().at("responses").as_object();
  const json::object* found = find_path(path);
  if (!found) return status == 404 ? &shared.at("NotFound") : nullptr;
  std::string m(method);
  for (char& c : m) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const json::object& item = *found;
  if (!item.contains(m)) return status == 405 ? &shared.at("MethodNotAllowed") : nullptr;
  const json::object& responses = item.at(m).as_object().at("responses").as_object();
  const std::string code = std::to_string(status);
  return responses.contains(code) ? &responses.at(code) : nullptr;
}

}  // namespace

std::string openapi_mismatch(std::string_view method, std::string_view target, unsigned status,
                             std::string_view content_type, std::string_view body) {
  const std::string_view path = target.substr(0, target.find('?'));
  const json::value* response = find_response(method, path, status);
  if (!response) return "status " + std::to_string(status) + " is not documented";
  if (method == "HEAD") return {};  // no body to check
  const json::object& documented = deref(*response).as_object();
  if (!documented.contains("content"))  // 304: no body
    return body.empty() ? std::string{} : "a body where none is documented";
  const json::object& content = documented.at("content").as_object();
  const std::string media(content_type.substr(0, content_type.find(';')));
  if (!content.contains(media)) return "content type " + media + " is not documented";
  const json::value& schema = content.at(media).as_object().at("schema");
  // Text (metrics, the web page's files) is documented by its media type only.
  if (media.find("json") == std::string::npos) return {};
  boost::system::error_code ec;
  const json::value v = json::parse(body, ec);
  if (ec) return "the body is not JSON";
  return check(schema, v, "$");
}

}  // namespace tgservice
