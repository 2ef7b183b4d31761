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
  // Conventions the graph must follow (the frontend emits them, PyTorch's layout):
  //   prim::Loop(max_trip_count, cond, carried...) with block0(%iter, carried...) -> (cond', carried'...);
  //   prim::If(cond) with block0 (true) / block1 (false), both returning one value per If output;
  //   prim::CallFunction(%fn, args...) where %fn is a prim::Constant[name=...] of FunctionType (or
  //   Node::callee() is set); prim::CallMethod[name=...](self, args...) resolved on self's ClassType at
  //   compile time (looked up on the object's runtime type when self is not a ClassType, e.g. interfaces);
  //   prim::GetAttr/SetAttr[name=...] resolved to slots when the object's type is a ClassType;
  //   prim::isinstance with tys_("types", {...}); prim::ListConstruct's element type from its output's
  //   ListType; prim::TupleSlice[beg=, end=]. Operator nodes use Node::op() (or a registry match).
  ~Code();
  /// Pops the graph's inputs from the stack, runs, pushes the outputs. Errors raised by the program
  /// propagate as RuntimeError with this function's frame added to callStack: frames are ordered
  /// outermost first (the failing function last); each is "<functionName>" or "<functionName> (<file:line:col>)"
  /// with the location of the node that failed (for inlined calls, the callee's source location).
  void run(Stack& stack) const;
  /// Instruction listing for debugging.
  std::string dump() const;
  struct Impl;
 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace kindling
