# `cmake --install build --prefix P`: the kindling CLI, libkindling.so (+ SONAME link) and libkindling.a,
# the public headers under P/include/kindling/, a CMake package (find_package(kindling) →
# kindling::kindling, the shared library; COMPONENTS static → kindling::kindling_static, whose
# dependencies the package finds with find_dependency) and pkg-config's kindling.pc. The Debian package
# (cpack -G DEB) is described at the end.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS kindling RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(TARGETS kindling_shared EXPORT kindlingTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development)
install(TARGETS kindling_static EXPORT kindlingStaticTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kindling DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT development FILES_MATCHING PATTERN "*.h")

set(KINDLING_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kindling)
install(EXPORT kindlingTargets NAMESPACE kindling:: DESTINATION ${KINDLING_CMAKE_DIR} COMPONENT development)
install(EXPORT kindlingStaticTargets NAMESPACE kindling:: DESTINATION ${KINDLING_CMAKE_DIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kindlingConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kindlingConfig.cmake INSTALL_DESTINATION ${KINDLING_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kindlingConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kindlingConfig.cmake ${PROJECT_BINARY_DIR}/kindlingConfigVersion.cmake
  DESTINATION ${KINDLING_CMAKE_DIR} COMPONENT development)

# pkg-config: `pkg-config --cflags --libs kindling` (shared), `--static` adds what libkindling.a needs.
# The prefix is found from the .pc file's own place, so the file is right for any --prefix.
file(RELATIVE_PATH KINDLING_PC_UP /r/${CMAKE_INSTALL_LIBDIR}/pkgconfig /r)
configure_file(${PROJECT_SOURCE_DIR}/cmake/kindling.pc.in ${PROJECT_BINARY_DIR}/kindling.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/kindling.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

include(${PROJECT_SOURCE_DIR}/cmake/KindlingPackage.cmake)
