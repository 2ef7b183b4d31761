# Embeds the TorchScript library sources (src/frontend/library/**/*.py) into kindling_frontend: at build
# time embed_sources.cmake writes them as byte arrays into a generated C++ file (frontend/library_sources.h).
set(KINDLING_LIBRARY_DIR ${CMAKE_CURRENT_LIST_DIR})
file(GLOB_RECURSE kindling_library_py CONFIGURE_DEPENDS ${KINDLING_LIBRARY_DIR}/*.py)
set(kindling_library_cpp ${CMAKE_CURRENT_BINARY_DIR}/generated/frontend/library_sources.cpp)
add_custom_command(
  OUTPUT ${kindling_library_cpp}
  COMMAND ${CMAKE_COMMAND} -DLIBRARY_DIR=${KINDLING_LIBRARY_DIR} -DOUTPUT=${kindling_library_cpp}
          -P ${KINDLING_LIBRARY_DIR}/embed_sources.cmake
  DEPENDS ${kindling_library_py} ${KINDLING_LIBRARY_DIR}/embed_sources.cmake
  COMMENT "Embedding the TorchScript library sources"
  VERBATIM)
target_sources(kindling_frontend PRIVATE ${kindling_library_cpp})
