// Fuzz target: the IR text parser (ir/irparser.h), as `kindling graph TEXT --parse-ir` reads a graph. A
// graph that parses is verified (Graph::lint; a parsed graph that breaks the IR's invariants must have been
// rejected by the parser, so a lint failure is a finding) and printed.
#include "fuzz_input.h"
#include "ir/irparser.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<Graph> g;
  fuzz::acceptCleanErrors([&] { g = parseIR(text); });
  if (g) {
    g->lint();
    (void)g->toString();
  }
  return 0;
}
