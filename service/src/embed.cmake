# Embeds files into the binary as C++ byte arrays. Run at build time (cmake -P) so an edit of an
# embedded file rebuilds its copy. Two uses:
#   -DINPUT=docs/openapi.json -DOUTPUT=x.cpp   defines tensorgate::service::openapi_json()
#   -DUI_DIR=service/ui -DOUTPUT=x.cpp         defines tensorgate::service::ui_files(): every file
#                                              of the folder (flat: no subfolders), its name and
#                                              the SHA-256 of its bytes (the page's ETag)

# The bytes of FILE as a C initializer list ('\xNN', ...), and their count.
function(embed_bytes file out_bytes out_size)
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  set(${out_bytes} "${bytes}" PARENT_SCOPE)
  set(${out_size} "${size}" PARENT_SCOPE)
endfunction()

# Writes the variable named TEXT_VAR (by name: its semicolons must not split it into a list).
function(write_if_changed output text_var)
  file(WRITE "${output}.tmp" "${${text_var}}")
  file(COPY_FILE "${output}.tmp" "${output}" ONLY_IF_DIFFERENT)
  file(REMOVE "${output}.tmp")
endfunction()

if(DEFINED UI_DIR)
  file(GLOB names RELATIVE "${UI_DIR}" "${UI_DIR}/*")
  list(SORT names)
  set(arrays "")
  set(rows "")
  set(i 0)
  foreach(name IN LISTS names)
    if(IS_DIRECTORY "${UI_DIR}/${name}")
      message(FATAL_ERROR "embed.cmake: ${UI_DIR}/${name}: the page's folder is flat (served as /ui/<name>)")
    endif()
    if(NOT name MATCHES "^[A-Za-z0-9._-]+$")
      message(FATAL_ERROR "embed.cmake: ${name}: asset names are plain (letters, digits, . _ -)")
    endif()
    embed_bytes("${UI_DIR}/${name}" bytes size)
    file(SHA256 "${UI_DIR}/${name}" digest)
    string(APPEND arrays "constexpr char kFile${i}[] = {${bytes} '\\0'};\n")
    string(APPEND rows "    UiFile{\"${name}\", {kFile${i}, ${size}}, \"${digest}\"},\n")
    math(EXPR i "${i} + 1")
  endforeach()
  string(CONCAT text
    "// Generated from service/ui/ by service/src/embed.cmake. Do not edit.\n"
    "#include \"ui_files.hpp\"\n"
    "namespace tensorgate::service {\n"
    "namespace {\n${arrays}"
    "constexpr UiFile kFiles[] = {\n${rows}};\n"
    "}  // namespace\n"
    "std::span<const UiFile> ui_files() { return kFiles; }\n"
    "}  // namespace tensorgate::service\n")
  write_if_changed("${OUTPUT}" text)
else()
  embed_bytes("${INPUT}" bytes size)
  string(CONCAT text
    "// Generated from docs/openapi.json by service/src/embed.cmake. Do not edit.\n"
    "#include <string_view>\n"
    "namespace tensorgate::service {\n"
    "namespace { constexpr char kOpenApi[] = {${bytes} '\\0'}; }\n"
    "std::string_view openapi_json() { return {kOpenApi, ${size}}; }\n"
    "}  // namespace tensorgate::service\n")
  write_if_changed("${OUTPUT}" text)
endif()
