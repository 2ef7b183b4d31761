// The interpreter: a Graph compiled once to a flat instruction list over register slots, with every
// operator resolved to a function pointer and every constant pre-loaded (as torch::jit's InterpreterState,
// but without a graph executor's profiling runs). Running Code is a loop over instructions: no string
// look-ups, no allocation of frames beyond one register vector per call.
#pragma once
#include <memory>
#include <vector>

#include "core/ivalue.h"
#include "ir/ir.h"

namespace kindling {

class Code {
 public:
  /// Compiles `graph` (after passes). Throws CompileError for nodes it cannot run.
  explicit Code(std::shared_ptr<Graph> graph, std::string functionName);
  ~Code();
  /// Pops the graph's inputs from the stack, runs, pushes the outputs. Errors raised by the program
  /// propagate as RuntimeError with this function's frame appended to callStack.
  void run(Stack& stack) const;
  /// Instruction listing for debugging.
  std::string dump() const;
  struct Impl;
 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kindling
