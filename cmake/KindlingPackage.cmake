# The Debian package of Kindling (`cpack -G DEB` in the build folder → kindling_<version>_<arch>.deb):
# the CLI, libkindling.so/.a, the headers, the CMake and pkg-config files, installed under /usr. Its
# Depends are the Debian runtime packages of the shared libraries the binaries link (dpkg-shlibdeps),
# so `apt install ./kindling_*.deb` brings them in.
set(CPACK_PACKAGE_NAME kindling)
set(CPACK_PACKAGE_VENDOR "Kindling")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "TorchScript without libtorch: run torch.jit.save archives from C++ and the shell")
set(CPACK_PACKAGE_DESCRIPTION "Kindling loads the archives torch.jit.save writes, compiles their TorchScript with its own
frontend and runs them with its own interpreter and kernels, without Python or libtorch. This package
holds the kindling command, the libkindling shared and static libraries, their C++ headers and the
CMake (find_package(kindling)) and pkg-config files.")
set(CPACK_PACKAGE_CONTACT "Kindling maintainers <kindling@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_STRIP_FILES ON)
# One package with everything (a program built against it needs only a C++ compiler besides).
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)
