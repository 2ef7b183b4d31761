// Constant expressions (parameter defaults, class constants) evaluated at compile time, with Python's
// arithmetic on number literals.
#include "frontend/ir_emitter.h"

namespace kindling {

namespace {
/// Python's `l op r` on two int/float constants (int // and % floor, / always float); None for an operator
/// it does not fold. Throws CompileError on division by zero, as Python would raise evaluating the default.
IValue foldNumberBinOp(BinOpKind op, const IValue& l, const IValue& r, const SourceRange& loc) {
  if (l.isInt() && r.isInt()) {
    const int64_t a = l.toInt(), c = r.toInt();
    switch (op) {
      case BinOpKind::Add: return IValue(static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(c)));
      case BinOpKind::Sub: return IValue(static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(c)));
      case BinOpKind::Mul: return IValue(static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(c)));
      case BinOpKind::FloorDiv:
      case BinOpKind::Mod: {
        if (c == 0) throw CompileError("division by zero in a constant expression", loc);
        int64_t q = a / c, m = a % c;
        if (m != 0 && ((m < 0) != (c < 0))) { --q; m += c; }
        return IValue(op == BinOpKind::FloorDiv ? q : m);
      }
      case BinOpKind::Div: break;  // float below
      default: return IValue();
    }
  }
  const double a = l.isInt() ? static_cast<double>(l.toInt()) : l.toDouble();
  const double c = r.isInt() ? static_cast<double>(r.toInt()) : r.toDouble();
  switch (op) {
    case BinOpKind::Add: return IValue(a + c);
    case BinOpKind::Sub: return IValue(a - c);
    case BinOpKind::Mul: return IValue(a * c);
    case BinOpKind::Div:
      if (c == 0) throw CompileError("division by zero in a constant expression", loc);
      return IValue(a / c);
    default: return IValue();
  }
}
}  // namespace

IValue evalConstantExpr(const ExprPtr& e, const TypePtr& type) {
  switch (e->kind) {
    case ExprKind::Int: {
      if (type && type->kind() == TypeKind::Float) return IValue(static_cast<double>(e->as<IntExpr>().value));
      return IValue(e->as<IntExpr>().value);
    }
    case ExprKind::Float: return IValue(e->as<FloatExpr>().value);
    case ExprKind::Str: return IValue(e->as<StrExpr>().value);
    case ExprKind::Bool: return IValue(e->as<BoolExpr>().value);
    case ExprKind::None: return IValue();
    case ExprKind::UnaryOp: {
      auto& u = e->as<UnaryOpExpr>();
      if (u.op == UnaryOpKind::Neg) {
        IValue v = evalConstantExpr(u.operand, type);
        if (v.isInt()) return IValue(-v.toInt());
        if (v.isDouble()) return IValue(-v.toDouble());
      }
      break;
    }
    case ExprKind::BinOp: {
      // Arithmetic on number literals (`lower: float = 1.0 / 8`): Python evaluates a default before
      // TorchScript sees it, so PyTorch accepts any such expression.
      auto& b = e->as<BinOpExpr>();
      IValue l = evalConstantExpr(b.lhs, nullptr), r = evalConstantExpr(b.rhs, nullptr);
      if ((!l.isInt() && !l.isDouble()) || (!r.isInt() && !r.isDouble())) break;
      IValue v = foldNumberBinOp(b.op, l, r, e->range);
      if (v.isNone()) break;
      if (v.isInt() && type && type->kind() == TypeKind::Float) return IValue(static_cast<double>(v.toInt()));
      return v;
    }
    case ExprKind::Tuple: {
      std::vector<IValue> elems;
      const TupleType* tt = type ? type->cast<TupleType>() : nullptr;
      auto& s = e->as<SequenceExpr>();
      for (size_t i = 0; i < s.elts.size(); ++i)
        elems.push_back(evalConstantExpr(s.elts[i], tt && i < tt->elements().size() ? tt->elements()[i] : nullptr));
      return makeTuple(std::move(elems));
    }
    case ExprKind::List: {
      TypePtr elemType;
      TypePtr t = type && type->kind() == TypeKind::Optional ? type->cast<OptionalType>()->elementType() : type;
      if (t && t->kind() == TypeKind::List) elemType = t->cast<ListType>()->elementType();
      std::vector<IValue> elems;
      for (auto& x : e->as<SequenceExpr>().elts) elems.push_back(evalConstantExpr(x, elemType));
      if (!elemType) elemType = elems.empty() ? TensorType() : elems[0].type();
      return makeList(elemType, std::move(elems));
    }
    default: break;
  }
  throw CompileError("Expected a constant expression (a number, string, bool, None, or a tuple or list of them)",
                     e->range);
}

// ====================================================================== schema of a def

}  // namespace kindling
