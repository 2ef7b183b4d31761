// `with` statements: torch.no_grad() / enable_grad() / set_grad_enabled(b) / inference_mode() set the
// thread's grad mode for their body (aten::set_grad_enabled, restored after it; the grad mode changes no
// value Kindling computes, only what torch.is_grad_enabled() answers), record_function & co. do nothing, and
// classes with __enter__/__exit__.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

void FunctionEmitter::emitWith(const WithStmt& s) {
  std::vector<std::pair<Value*, bool>> entered;  // (object, is a class with __exit__)
  std::vector<Value*> gradModes;                 // the grad mode before each grad-mode item, to restore
  for (auto& item : s.items) {
    std::string name = dottedName(item.context->kind == ExprKind::Call ? item.context->as<CallExpr>().func : item.context);
    bool gradMode = name == "torch.no_grad" || name == "torch.enable_grad" || name == "torch.inference_mode" ||
                    name == "torch.set_grad_enabled";
    if (gradMode || name == "torch.autograd.profiler.record_function" || name == "torch.jit.strict_fusion") {
      std::vector<Value*> args;
      if (item.context->kind == ExprKind::Call)
        for (auto& a : item.context->as<CallExpr>().args) args.push_back(emitExpr(a));
      if (gradMode) {
        // the body runs with the grad mode the item sets (ops/kernels/prim/grad_mode.h), restored after it
        const SourceRange& loc = item.context->range;
        Value* mode = nullptr;
        if (name == "torch.set_grad_enabled") {
          if (args.size() != 1) throw CompileError("torch.set_grad_enabled() takes one argument, the mode", loc);
          mode = args[0];
        } else if (name == "torch.inference_mode" && !args.empty()) {
          mode = builtinCallValue(loc, "aten::__not__", {NamedValue(loc, args[0])});
        } else {
          mode = insertConstant(IValue(name == "torch.enable_grad"), loc);
        }
        gradModes.push_back(builtinCallValue(loc, "aten::is_grad_enabled", {}));
        builtinCall(loc, "aten::set_grad_enabled", {NamedValue(loc, mode)});
      }
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
  for (auto it = gradModes.rbegin(); it != gradModes.rend(); ++it)
    builtinCall(s.range, "aten::set_grad_enabled", {NamedValue(s.range, *it)});
  for (auto it = entered.rbegin(); it != entered.rend(); ++it) {
    Value* none = insertConstant(IValue(), s.range);
    callMethod(s.range, it->first, "__exit__",
               {NamedValue(s.range, none), NamedValue(s.range, none), NamedValue(s.range, none)}, {});
  }
}

// ====================================================================== expressions

}  // namespace kindling
