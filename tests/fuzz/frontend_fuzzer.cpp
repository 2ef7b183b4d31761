// Fuzz target: the TorchScript frontend (lexer, parser, emitter and the compile-time passes) on a source
// file, as `kindling graph FILE.py` compiles it. Each function's graph is printed, then optimized as for a
// run (the optimizer's passes on whatever the emitter accepted) and printed again.
#include "api/program.h"
#include "fuzz_input.h"
#include "ir/ir.h"
#include "runtime/compilation_unit.h"

using namespace kindling;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  fuzz::acceptCleanErrors([&] {
    std::shared_ptr<CompilationUnit> cu = compileSourceFile("fuzz.py", text);
    // By index: optimizing a function can compile its callees into the unit, growing functions().
    for (size_t i = 0; i < cu->functions().size(); ++i) {
      GraphFunction* f = cu->functions()[i].get();
      fuzz::acceptCleanErrors([&] {
        (void)f->graph()->toString();
        (void)f->optimizedGraph()->toString();
      });
    }
  });
  return 0;
}
