// Fuzz target: the IR text parser (ir/irparser.h), as `kindling graph TEXT --parse-ir` reads a graph. The
// parser checks the IR's rules itself (lintWithoutOperators: text may name operators Kindling lacks), so a
// graph it returns is printed; an InternalError from either is a finding.
#include "fuzz_input.h"
#include "ir/irparser.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<Graph> g;
  fuzz::acceptCleanErrors([&] { g = parseIR(text); });
  if (g) (void)g->toString();
  return 0;
}
