// Names: variables of the environment, then the resolver's globals, special forms, torch/math, archive
// names (ops, CONSTANTS, __torch__, inf/nan), Python builtins and exception classes.
#include "frontend/ir_emitter.h"
#include "core/echo_excerpt.h"

#include <limits>

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

namespace {

bool isExceptionName(const std::string& n) {
  static const char* const names[] = {
      "Exception", "ValueError", "RuntimeError", "TypeError", "IndexError", "KeyError", "AssertionError",
      "NotImplementedError", "StopIteration", "ZeroDivisionError", "AttributeError", "ArithmeticError",
      "OverflowError", "LookupError", "FloatingPointError", "ImportError", "OSError", "SystemError",
      "UnicodeError", "BufferError", "EOFError", "MemoryError", "NameError", "RecursionError",
      "ReferenceError", "UnboundLocalError", "Warning", "UserWarning", "DeprecationWarning"};
  for (const char* x : names)
    if (n == x) return true;
  return false;
}

// PyTorch's emitter reads a variable through a prim::Load whose output takes the variable's name, which
// renames the value holding that name to "x.N" (Value::setDebugName); SSA conversion then removes the
// load. Reproducing the renaming makes graphs print with PyTorch's names (%x.1 for a parameter x that is read).
// PyTorch creates the join values (prim::If/prim::Loop outputs, loop-carried block parameters) only in SSA
// conversion, after every read of the emission, so a read never renames them there: `if c: a = x ...; return a`
// prints `%a : int = prim::If(...)`, and a loop's result `%s`. We create them while emitting, so a read whose
// name is held by a join value renames nothing.
bool isJoinValue(const Value* v) {
  const Node* n = v->node();
  if (n->kind() == prim::If || n->kind() == prim::Loop) return true;
  if (n->kind() == prim::Param && v->offset() > 0) {  // input 0 of a loop body is the trip index
    const Block* b = n->owningBlock();
    return b && b->owningNode() && b->owningNode()->kind() == prim::Loop;
  }
  return false;
}

}  // namespace

void FunctionEmitter::noteVariableRead(const std::string& name) {
  if (!meaningfulName(name)) return;
  auto holder = graph_.uniqueNames().find(name);
  if (holder != graph_.uniqueNames().end() && isJoinValue(holder->second)) return;
  Node* load = graph_.create(prim::Load, {}, 1);
  load->output()->setDebugName(name);
  load->destroy();
}

SugaredValuePtr FunctionEmitter::lookupName(const NameExpr& n) {
  const std::string& id = n.id;
  if (auto v = env_->find(id, n.range)) {
    if (dynamic_cast<SimpleValue*>(v.get())) noteVariableRead(id);
    return v;
  }
  if (id == "super" && ctx_.super) return ctx_.super;
  if (ctx_.resolver)
    if (auto v = ctx_.resolver->resolveValue(id, n.range)) return v;
  static const char* const specialForms[] = {"annotate", "unchecked_cast", "uninitialized", "isinstance", "getattr",
                                             "hasattr", "range", "enumerate", "zip", "len", "tuple"};
  for (const char* f : specialForms)
    if (id == f) {
      if (!ctx_.archiveMode && (id == "annotate" || id == "unchecked_cast" || id == "uninitialized")) break;
      return std::make_shared<SpecialFormValue>(id);
    }
  if (id == "torch") return std::make_shared<BuiltinModule>("torch");
  if (id == "math") return std::make_shared<BuiltinModule>("math");
  if (ctx_.archiveMode) {
    if (id == "ops") return std::make_shared<BuiltinModule>("ops");
    if (id == "fork") return std::make_shared<SpecialFormValue>("fork");
    if (id == "__torch__") return std::make_shared<QualifiedNamespace>("__torch__");
    if (id == "CONSTANTS") return std::make_shared<ConstantTableValue>();
    // PyTorch's code printer writes non-finite floats as bare names (`torch.mul(x, inf)`), and its
    // importer resolves them as float constants.
    if (id == "inf" || id == "nan") {
      double d = id == "inf" ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
      return std::make_shared<SimpleValue>(graph_.insertConstant(IValue(d), n.range));
    }
  }
  if (id == "print") return std::make_shared<PrintValue>();
  if (id == "int") return std::make_shared<CastValue>(IntType(), "aten::Int");
  if (id == "float") return std::make_shared<CastValue>(FloatType(), "aten::Float");
  if (id == "bool") return std::make_shared<CastValue>(BoolType(), "aten::Bool");
  if (id == "str") return std::make_shared<CastValue>(StringType(), "aten::str");
  if (id == "complex") return std::make_shared<CastValue>(ComplexType(), "aten::Complex");
  static const std::pair<const char*, const char*> builtins[] = {
      {"min", "prim::min"}, {"max", "prim::max"}, {"abs", "prim::abs"}, {"round", "aten::round"},
      {"divmod", "aten::divmod"}, {"ord", "aten::ord"}, {"chr", "aten::chr"}, {"hex", "aten::hex"},
      {"oct", "aten::oct"}, {"bin", "aten::bin"}, {"sum", "aten::sum"}, {"any", "aten::any"}, {"all", "aten::all"},
      {"sorted", "aten::sorted"}, {"hash", "aten::hash"}, {"list", "aten::list"}, {"dict", "aten::dict"},
      {"pow", "aten::pow"}};
  for (auto& [py, op] : builtins)
    if (id == py) return std::make_shared<BuiltinFunction>(op);
  if (isExceptionName(id)) return std::make_shared<ExceptionValue>(id);
  if (ctx_.resolver) {
    if (Function* f = ctx_.resolver->resolveFunction(id, n.range)) return std::make_shared<FunctionValue>(f);
    if (TypePtr t = ctx_.resolver->resolveType(id, n.range)) return std::make_shared<ClassValue>(t);
  }
  throw CompileError("undefined value " + echoExcerpt(id), n.range);
}

}  // namespace kindling
