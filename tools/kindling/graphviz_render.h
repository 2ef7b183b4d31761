// Rendering DOT text to SVG or PNG with Graphviz's `dot` program (Debian package graphviz), for
// `kindling graph --format svg|png`. Kindling does not link Graphviz: pictures are optional.
#pragma once
#include <string>

namespace kindling {

/// Runs `dot -T<format>` with `dotText` on its input and returns what it writes. Throws LoadError
/// "rendering svg needs Graphviz's 'dot' program, which is not installed (Debian: apt install graphviz);
/// --format dot writes the DOT text without it" when dot cannot be run, and LoadError with dot's own
/// message when it fails.
std::string renderDot(const std::string& dotText, const std::string& format);

}  // namespace kindling
