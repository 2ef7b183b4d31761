# KINDLING_SANITIZE: build every Kindling target (layers, libkindling, the CLI, the tests) with sanitizers.
#   -DKINDLING_SANITIZE=address,undefined   AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer
#   -DKINDLING_SANITIZE=thread              ThreadSanitizer
#   empty (the default)                     no sanitizer; the build is unchanged
# Use a build directory of its own (build-asan/, build-tsan/; scripts/run-sanitizers.sh). Undefined
# behaviour aborts instead of printing and going on (-fno-sanitize-recover), so it fails the tests.
# Third-party libraries (oneDNN, OpenBLAS, libgomp, libzip) are Debian's, not instrumented; the
# suppression files for findings inside them are tests/sanitizers/*.supp.
set(KINDLING_SANITIZE "" CACHE STRING "Sanitizers for every Kindling target: address,undefined | thread | empty (off)")
set_property(CACHE KINDLING_SANITIZE PROPERTY STRINGS "" "address,undefined" "address" "undefined" "thread")

if(KINDLING_SANITIZE)
  string(REPLACE "," ";" _kd_sanitizers "${KINDLING_SANITIZE}")
  foreach(s ${_kd_sanitizers})
    if(NOT s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "KINDLING_SANITIZE: unknown sanitizer '${s}' (address, undefined or thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _kd_sanitizers AND "address" IN_LIST _kd_sanitizers)
    message(FATAL_ERROR "KINDLING_SANITIZE: thread and address cannot be combined (use two build directories)")
  endif()
  if(KINDLING_BUILD_PYTHON)
    message(WARNING "KINDLING_SANITIZE with KINDLING_BUILD_PYTHON=ON: the Python module needs the sanitizer "
                    "runtime preloaded into the interpreter; configure with -DKINDLING_BUILD_PYTHON=OFF")
  endif()
  # -g1: line tables, so reports name file:line. -O1 (after the build type's -O3): exact enough stack
  # traces, and the instrumented build compiles in about half the time.
  set(_kd_san_flags -fsanitize=${KINDLING_SANITIZE} -fno-omit-frame-pointer -g1 -O1)
  if("undefined" IN_LIST _kd_sanitizers)
    list(APPEND _kd_san_flags -fno-sanitize-recover=undefined)
  endif()
  add_compile_options(${_kd_san_flags})
  add_link_options(-fsanitize=${KINDLING_SANITIZE})
  message(STATUS "Kindling: sanitizers ${KINDLING_SANITIZE}")
endif()
