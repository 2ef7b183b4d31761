# The installed libraries: every layer's objects (src/, one static library per layer for the in-tree
# build) combined into libkindling.so (VERSION, SONAME libkindling.so.<major>) and libkindling.a.
# The shared library exports only the public API (namespace kindling::api, include/kindling/): a linker
# version script makes every other symbol local. Its dependencies are private. The static one carries
# them as its link interface.
# CMAKE_INSTALL_INCLUDEDIR must be set before the INSTALL_INTERFACE include directories below name it (on a
# build folder's first configure it is not yet in the cache, and the installed targets got no include path).
include(GNUInstallDirs)
set(KINDLING_LAYERS core tensor ops ir frontend passes runtime serialize api)
set(_kd_objects)
foreach(layer ${KINDLING_LAYERS})
  list(APPEND _kd_objects $<TARGET_OBJECTS:kindling_${layer}>)
endforeach()
set(KINDLING_DEPENDENCIES fmt::fmt OpenMP::OpenMP_CXX DNNL::dnnl hwy::hwy PkgConfig::SLEEF PkgConfig::LIBZIP)

add_library(kindling_shared SHARED ${_kd_objects})
set_target_properties(kindling_shared PROPERTIES
  OUTPUT_NAME kindling EXPORT_NAME kindling
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_link_libraries(kindling_shared PRIVATE ${KINDLING_DEPENDENCIES})
target_link_options(kindling_shared PRIVATE -Wl,--no-undefined -Wl,--as-needed
  -Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/libkindling.map)
set_property(TARGET kindling_shared APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cmake/libkindling.map)
target_include_directories(kindling_shared INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(kindling_shared INTERFACE cxx_std_17)
add_library(kindling::kindling ALIAS kindling_shared)

# libkindling.a holds ONE relocatable object, every layer partially linked together (ld -r): the kernel
# families are reached from the operator registry only through weak references, which would not pull
# separate archive members into a program.
set(_kd_layer_archives)
set(_kd_layer_targets)
foreach(layer ${KINDLING_LAYERS})
  list(APPEND _kd_layer_archives $<TARGET_FILE:kindling_${layer}>)
  list(APPEND _kd_layer_targets kindling_${layer})
endforeach()
set(_kd_whole ${CMAKE_CURRENT_BINARY_DIR}/kindling_whole.o)
add_custom_command(OUTPUT ${_kd_whole}
  COMMAND ${CMAKE_LINKER} -r -o ${_kd_whole} --whole-archive ${_kd_layer_archives} --no-whole-archive
  DEPENDS ${_kd_layer_targets} ${_kd_layer_archives} COMMAND_EXPAND_LISTS
  COMMENT "ld -r: the layers as one object for libkindling.a")
set_source_files_properties(${_kd_whole} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
add_library(kindling_static STATIC ${_kd_whole})
set_target_properties(kindling_static PROPERTIES LINKER_LANGUAGE CXX)
set_target_properties(kindling_static PROPERTIES OUTPUT_NAME kindling EXPORT_NAME kindling_static)
target_link_libraries(kindling_static INTERFACE ${KINDLING_DEPENDENCIES})
target_include_directories(kindling_static INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(kindling_static INTERFACE cxx_std_17)
add_library(kindling::kindling_static ALIAS kindling_static)
