// Python's builtin `sum(iterable, start=0)` where the elements are tensors: `start + e0 + e1 + ...`, as
// Python adds them (torch.jit 1.13 maps the builtin to aten::sum, which rejects a list of tensors and sums
// every element of a tensor, where Python adds the tensor's rows). Numbers keep aten::sum (plus `start`).
//   a tuple                  unrolled: start + e0 + ...; () gives start
//   a list of tensors, or a tensor (its rows, iterated along dim 0)
//                            a loop over the elements after the first; no element raises TypeError at run
//                            time (Python's sum gives the int start there, which is no Tensor)
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"
#include "frontend/parser.h"

namespace kindling {

using namespace emitter;

namespace {

// The loop over a list or a tensor, in TorchScript (names no program uses). With the int start 0, `0 + e0` is
// written as the copy it is (an int64 one of a bool tensor): torch.jit's peephole pass rewrites
// aten::add(x, 0) to x whatever x's dtype, so the archive torch.jit.load runs would otherwise give bool.
const std::shared_ptr<SourceFile>& sumLoop(bool zeroStart) {
  auto parse = [](const std::string& first) {
    return parseFile(std::make_shared<Source>(
        "if len(__kd_sum_xs) == 0:\n"
        "    raise TypeError(\"sum() of no tensors: Python gives the int start, which is not a Tensor\")\n" +
            first +
            "for __kd_sum_e in __kd_sum_xs[1:]:\n"
            "    __kd_sum_acc = __kd_sum_acc + __kd_sum_e\n",
        "<builtin sum>", 1));
  };
  static const std::shared_ptr<SourceFile> general = parse("__kd_sum_acc = __kd_sum_start + __kd_sum_xs[0]\n");
  static const std::shared_ptr<SourceFile> zero = parse(
      "if __kd_sum_xs[0].dtype == torch.bool:\n"
      "    __kd_sum_acc = __kd_sum_xs[0].to(torch.int64)\n"
      "else:\n"
      "    __kd_sum_acc = __kd_sum_xs[0].clone()\n");
  return zeroStart ? zero : general;
}

}  // namespace

SugaredValuePtr FunctionEmitter::tryEmitPythonSum(const CallExpr& c) {
  const SourceRange& loc = c.range;
  if (c.args.empty() || c.args.size() > 2 || c.args[0]->kind == ExprKind::Starred) return nullptr;
  ExprPtr startExpr = c.args.size() == 2 ? c.args[1] : nullptr;
  for (const Keyword& k : c.keywords) {
    if (k.name != "start" || startExpr) return nullptr;
    startExpr = k.value;
  }
  SugaredValuePtr iterable = emitSugaredExpr(c.args[0]);
  auto start = [&]() -> Value* { return startExpr ? emitExpr(startExpr) : insertConstant(IValue(int64_t(0)), loc); };
  // a sugared tuple (module list elements, kwargs values) or a tuple holding a tensor: unrolled
  auto unrolled = [&](const std::vector<SugaredValuePtr>& elems) -> SugaredValuePtr {
    Value* acc = start();
    for (const SugaredValuePtr& e : elems) acc = emitBinOp(loc, BinOpKind::Add, acc, e->asValue(loc, *this), loc, loc);
    return std::make_shared<SimpleValue>(acc);
  };
  if (iterable->shouldUnroll() && !dynamic_cast<SimpleValue*>(iterable.get())) return unrolled(iterable->asTuple(loc, *this));
  Value* v = iterable->asValue(c.args[0]->range, *this);
  const TypePtr& t = v->type();
  bool tensors = t->kind() == TypeKind::Tensor ||
                 (t->kind() == TypeKind::List && t->containedTypes().at(0)->kind() == TypeKind::Tensor);
  if (t->kind() == TypeKind::Tuple) {
    bool anyTensor = false;
    for (const TypePtr& e : t->containedTypes()) anyTensor |= e->kind() == TypeKind::Tensor;
    if (!anyTensor) return nullptr;
    return unrolled(SimpleValue(v).asTuple(loc, *this, std::nullopt));
  }
  if (!tensors) {
    if (!startExpr) return nullptr;
    Value* total = builtinCallValue(loc, "aten::sum", {NamedValue(c.args[0]->range, v)});
    return std::make_shared<SimpleValue>(emitBinOp(loc, BinOpKind::Add, start(), total, loc, loc));
  }
  Value* first = start();
  auto startValue = first->constantValue();
  bool zeroStart = startValue && startValue->isInt() && startValue->toInt() == 0;
  auto scope = std::make_shared<Environment>(env_->block, env_);
  env_ = scope;
  env_->table["__kd_sum_xs"] = std::make_shared<SimpleValue>(v);  // not setVar: the values keep their names
  env_->table["__kd_sum_start"] = std::make_shared<SimpleValue>(first);
  try {
    emitStatements(sumLoop(zeroStart)->body);
  } catch (...) {
    env_ = scope->next;
    throw;
  }
  SugaredValuePtr acc = env_->find("__kd_sum_acc", loc);
  env_ = scope->next;
  return acc;
}

}  // namespace kindling
