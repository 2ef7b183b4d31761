// Kindling's version: the one source of it (CMake reads these lines for the project and library
// versions; libkindling.so's SONAME carries the major number). kindling::version() gives the version of
// the library a program runs with, KINDLING_VERSION_* the one it was compiled against.
#pragma once

#define KINDLING_VERSION_MAJOR 0
#define KINDLING_VERSION_MINOR 1
#define KINDLING_VERSION_PATCH 0
#define KINDLING_VERSION_STRING "0.1.0"
