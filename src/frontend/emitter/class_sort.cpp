// Sorting a list of TorchScript class instances that define __lt__ (`xs.sort()`, `sorted(xs)`, with
// `reverse=`): lowered to a stable insertion sort that calls __lt__, so the saved code is plain TorchScript
// loops. Python's list.sort compares with `<` only and keeps equal elements in order; the insertion
// moves an element before its predecessor only while `cur < prev` (`prev < cur` for reverse=True), which
// keeps equal elements in order too. PyTorch 1.13 sorts such lists in its interpreter (aten::sort.any
// calling __lt__); Kindling's kernels cannot call TorchScript methods, so the frontend lowers the call,
// for archive code too.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

SugaredValuePtr FunctionEmitter::tryEmitClassListSort(const SourceRange& loc, const BuiltinFunction& f,
                                                       const std::vector<NamedValue>& args,
                                                       const std::vector<NamedValue>& kwargs) {
  // `xs.sort()`, or archive code's spelling of it, `torch.sort(xs, reverse)`
  bool inPlace = f.name == "aten::sort";
  if (!inPlace && f.name != "aten::sorted") return nullptr;
  std::vector<NamedValue> rest = args;
  Value* list = nullptr;
  if (f.self) {
    list = f.self->value;
  } else {
    if (rest.empty() || !rest[0].value) return nullptr;
    list = rest[0].value;
    rest.erase(rest.begin());
  }
  auto* lt = list ? list->type()->cast<ListType>() : nullptr;
  auto* ct = lt ? lt->elementType()->cast<ClassType>() : nullptr;
  if (!ct) return nullptr;
  if (!ct->findMethod("__lt__"))
    throw CompileError("sorting a list of '" + ct->str() + "' needs the class to define __lt__", loc);
  Value* reverse = nullptr;
  if (!rest.empty()) reverse = rest[0].value;
  if (rest.size() > 1) throw CompileError("sort() takes at most one positional argument (reverse)", loc);
  for (const NamedValue& kw : kwargs) {
    if (kw.name == "reverse" && !reverse) reverse = kw.value;
    else throw CompileError("sort() of a list of '" + ct->str() + "' got an unexpected keyword argument '" + kw.name + "'", kw.loc);
  }
  if (reverse && reverse->type()->kind() != TypeKind::Bool)
    throw CompileError("sort()'s reverse must be a bool, got " + reverse->type()->annotationStr(), loc);
  if (!inPlace) list = builtinCallValue(loc, "aten::list", {NamedValue(loc, list)});

  // for $i in range(1, len($l)):
  //     $cur = $l[$i]; $j = $i - 1
  //     while $j >= 0 and (($l[$j] < $cur) if $rev else ($cur < $l[$j])):
  //         $l[$j + 1] = $l[$j]; $j = $j - 1
  //     $l[$j + 1] = $cur
  std::string k = std::to_string(tmpCounter_++);
  auto name = [&](const std::string& n) { return std::make_shared<NameExpr>(loc, "$sort_" + n + k); };
  auto num = [&](int64_t v) { return std::make_shared<IntExpr>(loc, v); };
  auto item = [&](ExprPtr idx) { return std::make_shared<SubscriptExpr>(loc, name("l"), std::vector<ExprPtr>{idx}, false); };
  auto plus1 = [&](ExprPtr x) { return std::make_shared<BinOpExpr>(loc, BinOpKind::Add, x, num(1)); };
  auto less = [&](ExprPtr a, ExprPtr b) {
    return std::make_shared<CompareExpr>(loc, a, std::vector<CmpOpKind>{CmpOpKind::Lt}, std::vector<ExprPtr>{b});
  };
  ExprPtr forward = less(name("cur"), item(name("j")));
  ExprPtr backward = less(item(name("j")), name("cur"));
  std::optional<bool> staticRev;
  if (!reverse) staticRev = false;
  else if (auto c = reverse->constantValue()) staticRev = c->toBool();
  ExprPtr moves = staticRev ? (*staticRev ? backward : forward)
                            : std::static_pointer_cast<const Expr>(std::make_shared<IfExpExpr>(loc, name("rev"), backward, forward));
  ExprPtr test = std::make_shared<BoolOpExpr>(
      loc, BoolOpKind::And,
      std::vector<ExprPtr>{std::make_shared<CompareExpr>(loc, name("j"), std::vector<CmpOpKind>{CmpOpKind::Ge},
                                                          std::vector<ExprPtr>{num(0)}),
                           moves});
  auto assign = [&](ExprPtr target, ExprPtr value) -> StmtPtr {
    return std::make_shared<AssignStmt>(loc, std::vector<ExprPtr>{target}, value, nullptr);
  };
  StmtList whileBody{assign(item(plus1(name("j"))), item(name("j"))),
                     assign(name("j"), std::make_shared<BinOpExpr>(loc, BinOpKind::Sub, name("j"), num(1)))};
  StmtList forBody{assign(name("cur"), item(name("i"))),
                   assign(name("j"), std::make_shared<BinOpExpr>(loc, BinOpKind::Sub, name("i"), num(1))),
                   std::make_shared<WhileStmt>(loc, test, whileBody, StmtList{}),
                   assign(item(plus1(name("j"))), name("cur"))};
  auto lenCall = std::make_shared<CallExpr>(loc, std::make_shared<NameExpr>(loc, "len"), std::vector<ExprPtr>{name("l")},
                                            std::vector<Keyword>{});
  auto rangeCall = std::make_shared<CallExpr>(loc, std::make_shared<NameExpr>(loc, "range"),
                                              std::vector<ExprPtr>{num(1), lenCall}, std::vector<Keyword>{});
  StmtList prog{std::make_shared<ForStmt>(loc, name("i"), rangeCall, forBody, StmtList{})};

  auto scope = std::make_shared<Environment>(env_->block, env_);
  env_ = scope;
  setVar(*this, *env_, "$sort_l" + k, std::make_shared<SimpleValue>(list), loc);
  if (!staticRev) setVar(*this, *env_, "$sort_rev" + k, std::make_shared<SimpleValue>(reverse), loc);
  emitStatements(prog);
  env_ = scope->next;
  if (inPlace) return std::make_shared<NoneValue>();
  return std::make_shared<SimpleValue>(list);
}

}  // namespace kindling
