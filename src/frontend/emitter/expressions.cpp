// The dispatch of an expression to its emitter, as a Value (emitExpr) or a SugaredValue
// (emitSugaredExpr: names, attributes, calls and subscripts may be modules, functions, builtins...).
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

Value* FunctionEmitter::emitExpr(const ExprPtr& e, const TypePtr& typeHint) {
  ExprDepthGuard guard(exprDepth_, e->range);
  switch (e->kind) {
    case ExprKind::Int: return literalConstant(IValue(e->as<IntExpr>().value), e->range);
    case ExprKind::Float: return literalConstant(IValue(e->as<FloatExpr>().value), e->range);
    case ExprKind::Str: return insertConstant(IValue(e->as<StrExpr>().value), e->range);
    case ExprKind::Bool: return insertConstant(IValue(e->as<BoolExpr>().value), e->range);
    case ExprKind::None: return insertConstant(IValue(), e->range);
    case ExprKind::BinOp: {
      auto& b = e->as<BinOpExpr>();
      Value* l = emitExpr(b.lhs);
      Value* r = emitExpr(b.rhs);
      return emitBinOp(e->range, b.op, l, r, b.lhs->range, b.rhs->range);
    }
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      if (u.op == UnaryOpKind::Not) return emitCondExpr(e).value;
      return emitUnaryOp(u);
    }
    case ExprKind::BoolOp: return emitCondExpr(e).value;
    case ExprKind::Compare: return emitCompare(e->as<CompareExpr>()).value;  // a tensor comparison stays a Tensor
    case ExprKind::IfExp: return emitIfExp(e->as<IfExpExpr>(), typeHint);
    case ExprKind::Tuple: return emitTupleLiteral(e->as<SequenceExpr>(), typeHint);
    case ExprKind::List: return emitListLiteral(e->as<SequenceExpr>(), typeHint);
    case ExprKind::Dict: return emitDictLiteral(e->as<DictExpr>(), typeHint);
    case ExprKind::ListComp: return emitListComprehension(e->as<ComprehensionExpr>(), typeHint);
    case ExprKind::DictComp: return emitDictComprehension(e->as<ComprehensionExpr>(), typeHint);
    case ExprKind::JoinedStr: return emitJoinedStr(e->as<JoinedStrExpr>());
    case ExprKind::Starred: throw CompileError("Starred expressions are only allowed as call arguments or assignment targets", e->range);
    case ExprKind::Lambda: return emitLambda(e)->asValue(e->range, *this);
    case ExprKind::Ellipsis: throw CompileError("'...' is only allowed in tensor subscripts", e->range);
    case ExprKind::Slice: throw CompileError("slices are only allowed in subscripts", e->range);
    default: return emitSugaredExpr(e, 1, typeHint)->asValue(e->range, *this);
  }
}

SugaredValuePtr FunctionEmitter::emitSugaredExpr(const ExprPtr& e, size_t nBinders, const TypePtr& typeHint) {
  ExprDepthGuard guard(exprDepth_, e->range);
  switch (e->kind) {
    case ExprKind::Name: return lookupName(e->as<NameExpr>());
    case ExprKind::Attribute: {
      auto& a = e->as<AttributeExpr>();
      SugaredValuePtr v = emitSugaredExpr(a.value)->attr(e->range, *this, a.attr);
      auto* sv = dynamic_cast<SimpleValue*>(v.get());
      if (sv && sv->value->type()->kind() == TypeKind::Optional)
        if (TypePtr refined = env_->refinedAttribute(attributePath(e)))
          if (refined->equals(*sv->value->type()->cast<OptionalType>()->elementType()))
            return std::make_shared<SimpleValue>(
                builtinCallValue(e->range, "aten::_unwrap_optional", {NamedValue(e->range, sv->value)}));
      return v;
    }
    case ExprKind::Call: return emitApply(e->as<CallExpr>(), nBinders, typeHint);
    case ExprKind::Subscript: return emitSubscript(e->as<SubscriptExpr>(), typeHint);
    case ExprKind::Lambda: return emitLambda(e);
    default: return std::make_shared<SimpleValue>(emitExpr(e, typeHint));
  }
}

}  // namespace kindling
