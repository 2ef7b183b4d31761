// KINDLING_API marks the classes and functions of the public API (namespace kindling::api), which
// libkindling.so exports; its linker version script keeps every other symbol of the library local, so a
// program linking it sees only the API of these headers.
#pragma once

#if defined(_WIN32)
#define KINDLING_API
#else
#define KINDLING_API __attribute__((visibility("default")))
#endif

// Kindling's own sources define types of the same names (kindling::Tensor, kindling::IValue, ...) for
// its internals; they include these headers with KINDLING_INTERNAL_BUILD defined and name the public
// types kindling::api::*. Programs using Kindling get them in namespace kindling (see the end of
// kindling/kindling.h's headers: `namespace kindling { using namespace api; }`).
#if defined(KINDLING_INTERNAL_BUILD)
#define KINDLING_EXPOSE_PUBLIC_NAMES 0
#else
#define KINDLING_EXPOSE_PUBLIC_NAMES 1
#endif
