// `with` statements: torch.no_grad() & co. (no effect on inference), and classes with
// __enter__/__exit__.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

void FunctionEmitter::emitWith(const WithStmt& s) {
  std::vector<std::pair<Value*, bool>> entered;  // (object, is a class with __exit__)
  for (auto& item : s.items) {
    std::string name = dottedName(item.context->kind == ExprKind::Call ? item.context->as<CallExpr>().func : item.context);
    if (name == "torch.no_grad" || name == "torch.enable_grad" || name == "torch.autograd.profiler.record_function" ||
        name == "torch.jit.strict_fusion") {
      if (item.context->kind == ExprKind::Call)
        for (auto& a : item.context->as<CallExpr>().args) emitExpr(a);
      if (item.target)
        emitAssignTarget(item.target, std::make_shared<SimpleValue>(insertConstant(IValue(), item.context->range)),
                         s.range, nullptr);
      continue;
    }
    Value* obj = emitExpr(item.context);
    auto* ct = obj->type()->cast<ClassType>();
    if (!ct || !ct->findMethod("__enter__") || !ct->findMethod("__exit__"))
      throw CompileError("The type of a `with` item must be a class with __enter__ and __exit__ methods", item.context->range);
    Value* res = callMethod(item.context->range, obj, "__enter__", {}, {})->asValue(item.context->range, *this);
    if (item.target) emitAssignTarget(item.target, std::make_shared<SimpleValue>(res), s.range, nullptr);
    entered.emplace_back(obj, true);
  }
  emitStatements(s.body);
  for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
    Value* none = insertConstant(IValue(), s.range);
    callMethod(s.range, it->first, "__exit__",
               {NamedValue(s.range, none), NamedValue(s.range, none), NamedValue(s.range, none)}, {});
  }
}

// ====================================================================== expressions

}  // namespace kindling
