# KINDLING_FUZZ: the libFuzzer build of the fuzz targets in tests/fuzz/ (scripts/run-fuzz.sh builds it in
# build-fuzz/). Needs clang (CC=clang CXX=clang++). Every Kindling target is compiled with the coverage
# instrumentation libFuzzer uses (-fsanitize=fuzzer-no-link) and with AddressSanitizer and
# UndefinedBehaviorSanitizer (KINDLING_SANITIZE defaults to address,undefined here); the fuzz_<name>
# executables link libFuzzer's driver. Off by default: the ordinary build replays the same targets on
# their corpora instead (tests/fuzz/CMakeLists.txt).
option(KINDLING_FUZZ "Build the libFuzzer fuzz targets (clang only; tests/fuzz/README.md)" OFF)

if(KINDLING_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "KINDLING_FUZZ needs clang (configure with CC=clang CXX=clang++), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  if(NOT KINDLING_SANITIZE)
    set(KINDLING_SANITIZE "address,undefined" CACHE STRING "" FORCE)
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
  message(STATUS "Kindling: libFuzzer fuzz targets (sanitizers ${KINDLING_SANITIZE})")
endif()
