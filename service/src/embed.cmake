# Writes OUTPUT, a C++ file defining tensorgate::service::openapi_json(), from INPUT's bytes.
# Run at build time (cmake -P) so an edit of docs/openapi.json rebuilds the embedded copy.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
file(WRITE "${OUTPUT}.tmp"
  "// Generated from docs/openapi.json by service/src/embed.cmake. Do not edit.\n"
  "#include <string_view>\n"
  "namespace tensorgate::service {\n"
  "namespace { constexpr char kOpenApi[] = {${bytes} '\\0'}; }\n"
  "std::string_view openapi_json() { return {kOpenApi, ${size}}; }\n"
  "}  // namespace tensorgate::service\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
