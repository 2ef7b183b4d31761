# Writes the C++ file that embeds the TorchScript library sources (run as `cmake -P` at build time):
#   cmake -DLIBRARY_DIR=<dir of .py files> -DOUTPUT=<file.cpp> -P embed_sources.cmake
# Every *.py below LIBRARY_DIR becomes a byte array reachable as embeddedLibrarySource("<relative path>")
# (frontend/library_sources.h). The .py files are the only copy of these sources.
file(GLOB_RECURSE sources RELATIVE "${LIBRARY_DIR}" "${LIBRARY_DIR}/*.py")
list(SORT sources)
set(arrays "")
set(table "")
set(index 0)
foreach(rel IN LISTS sources)
  file(READ "${LIBRARY_DIR}/${rel}" hex HEX)
  string(LENGTH "${hex}" hexLength)
  math(EXPR size "${hexLength} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){24})" "\\1\n    " bytes "${bytes}")
  string(APPEND arrays "// ${rel}\nconst unsigned char kSource${index}[] = {\n    ${bytes}0x00};\n\n")
  string(APPEND table "    {\"${rel}\", std::string_view(reinterpret_cast<const char*>(kSource${index}), ${size})},\n")
  math(EXPR index "${index} + 1")
endforeach()
set(text "// Generated from src/frontend/library/*.py by src/frontend/library/embed_sources.cmake: do not edit.
#include \"frontend/library_sources.h\"

namespace kindling {
namespace {

${arrays}struct Entry {
  std::string_view path;
  std::string_view text;
};

const Entry kEntries[] = {
${table}};

}  // namespace

std::optional<std::string_view> embeddedLibrarySource(std::string_view path) {
  for (const Entry& e : kEntries)
    if (e.path == path) return e.text;
  return std::nullopt;
}

std::vector<std::string_view> embeddedLibraryPaths() {
  std::vector<std::string_view> out;
  for (const Entry& e : kEntries) out.push_back(e.path);
  return out;
}

}  // namespace kindling
")
# Rewrite only on change, so an unchanged library does not recompile the frontend.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
  if(previous STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${text}")
