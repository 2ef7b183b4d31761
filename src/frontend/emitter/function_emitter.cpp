// The FunctionEmitter's basics: construction, constants and literals, tuples and lists built by the
// emitter, packing of call outputs; the call graph that rejects recursion; emitFunctionBody.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/emitter/none_widening.h"

namespace kindling {

bool CallGraph::addAndCheckCycle(const Function* caller, const Function* callee) {
  if (caller == callee) return true;
  callees[caller].push_back(callee);
  std::vector<const Function*> stack{callee};
  std::unordered_map<const Function*, bool> seen;
  while (!stack.empty()) {
    const Function* f = stack.back();
    stack.pop_back();
    if (f == caller) return true;
    if (seen[f]) continue;
    seen[f] = true;
    auto it = callees.find(f);
    if (it != callees.end())
      for (const Function* g : it->second) stack.push_back(g);
  }
  return false;
}

// ====================================================================== constants

void emitFunctionBody(Graph& graph, const DefStmt& def, const FunctionSchema& schema, const TypePtr& selfType,
                      const EmitContext& ctx) {
  NoneWidenings widen = emitter::settleNoneWidenings(def, schema, selfType, ctx);
  FunctionEmitter e(graph, ctx);
  e.setNoneWidenings(std::move(widen), false);
  e.emitDef(def, schema, selfType);
}

// ====================================================================== emitter basics

FunctionEmitter::FunctionEmitter(Graph& graph, const EmitContext& ctx)
    : graph_(graph),
      ctx_(ctx),
      registry_(ctx.registry ? ctx.registry : &OperatorRegistry::global()),
      typeParser_(ctx.resolver ? TypeResolver([r = ctx.resolver](const std::string& n, const SourceRange& l) {
                    return r->resolveType(n, l);
                  })
                               : TypeResolver()) {}

FunctionEmitter::~FunctionEmitter() = default;

Value* FunctionEmitter::insertConstant(const IValue& v, const SourceRange& loc, TypePtr type) {
  return graph_.insertConstant(v, loc, std::move(type));
}

Value* FunctionEmitter::literalConstant(const IValue& v, const SourceRange& loc) {
  // Inside a fork body the call is lifted into its own graph: keep its constants local.
  for (Block* b = graph_.insertPoint()->owningBlock(); b && b->owningNode(); b = b->owningNode()->owningBlock())
    if (b->owningNode()->kind() == prim::fork) return insertConstant(v, loc);
  Value*& slot = v.isInt() ? intLiterals_[v.toInt()] : floatLiterals_[v.toDouble()];
  if (!slot) {
    WithInsertPoint guard(*graph_.block()->begin());
    slot = insertConstant(v, loc);
  }
  return slot;
}

SugaredValuePtr FunctionEmitter::packOutputs(const std::vector<Value*>& outs, const SourceRange& loc) {
  if (outs.empty()) return std::make_shared<NoneValue>();
  if (outs.size() == 1) return std::make_shared<SimpleValue>(outs[0]);
  return std::make_shared<SimpleValue>(createTuple(outs, loc));
}

Value* FunctionEmitter::createTuple(const std::vector<Value*>& elems, const SourceRange& loc) {
  Node* n = graph_.insert(prim::TupleConstruct, elems, 1);  // no source range, as PyTorch's createTuple
  std::vector<TypePtr> types;
  for (Value* v : elems) types.push_back(v->type());
  n->output()->setType(TupleType::create(std::move(types)));
  return n->output();
}

Value* FunctionEmitter::createList(const TypePtr& elemType, const std::vector<Value*>& elems, const SourceRange& loc) {
  Node* n = graph_.insert(prim::ListConstruct, elems, 1);  // no source range, as PyTorch's createList
  n->output()->setType(ListType::create(elemType));
  return n->output();
}

}  // namespace kindling
