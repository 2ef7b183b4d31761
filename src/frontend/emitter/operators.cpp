// Binary and unary operators: magic methods of classes, `str % args`, number (op) Tensor reordered as
// PyTorch's builtins, Tensor // x as floor_divide, constant folding of negation.
#include "frontend/ir_emitter.h"

#include "frontend/emitter/environment.h"

namespace kindling {

using namespace emitter;

namespace {

const char* binOpAten(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: return "aten::add";
    case BinOpKind::Sub: return "aten::sub";
    case BinOpKind::Mul: return "aten::mul";
    case BinOpKind::Div: return "aten::div";
    case BinOpKind::FloorDiv: return "aten::floordiv";
    case BinOpKind::Mod: return "aten::remainder";
    case BinOpKind::Pow: return "aten::pow";
    case BinOpKind::MatMul: return "aten::matmul";
    case BinOpKind::LShift: return "aten::__lshift__";
    case BinOpKind::RShift: return "aten::__rshift__";
    case BinOpKind::BitAnd: return "aten::__and__";
    case BinOpKind::BitOr: return "aten::__or__";
    case BinOpKind::BitXor: return "aten::__xor__";
  }
  return "";
}

}  // namespace

Value* FunctionEmitter::emitBinOp(const SourceRange& loc, BinOpKind op, Value* lhs, Value* rhs, const SourceRange& lloc,
                                  const SourceRange& rloc) {
  if (auto* ct = lhs->type()->cast<ClassType>()) {
    static const std::pair<BinOpKind, const char*> magic[] = {
        {BinOpKind::Add, "__add__"}, {BinOpKind::Sub, "__sub__"}, {BinOpKind::Mul, "__mul__"},
        {BinOpKind::Div, "__truediv__"}, {BinOpKind::FloorDiv, "__floordiv__"}, {BinOpKind::Mod, "__mod__"},
        {BinOpKind::Pow, "__pow__"}, {BinOpKind::MatMul, "__matmul__"}, {BinOpKind::LShift, "__lshift__"},
        {BinOpKind::RShift, "__rshift__"}, {BinOpKind::BitAnd, "__and__"}, {BinOpKind::BitOr, "__or__"},
        {BinOpKind::BitXor, "__xor__"}};
    for (auto& [k, m] : magic)
      if (k == op && ct->findMethod(m))
        return callMethod(loc, lhs, m, {NamedValue(rloc, rhs)}, {})->asValue(loc, *this);
  }
  // tuple + tuple: the tuple of both element lists (torch's tuple concatenation), `(x,) + outputs[1:]`
  if (op == BinOpKind::Add && lhs->type()->kind() == TypeKind::Tuple && rhs->type()->kind() == TypeKind::Tuple) {
    std::vector<Value*> elems;
    for (Value* t : {lhs, rhs})
      for (const SugaredValuePtr& e : SimpleValue(t).asTuple(loc, *this, std::nullopt)) elems.push_back(e->asValue(loc, *this));
    return createTuple(elems, loc);
  }
  // "fmt" % args → aten::percentFormat(fmt, args): the tuple is passed whole, as PyTorch does
  if (op == BinOpKind::Mod && lhs->type()->kind() == TypeKind::Str) {
    std::vector<NamedValue> args{NamedValue(lloc, lhs), NamedValue(rloc, rhs)};
    return builtinCallValue(loc, "aten::percentFormat", args);
  }
  // number (op) Tensor: PyTorch's builtin functions reorder these (e.g. 2 * x → x * 2)
  bool lNum = lhs->type()->kind() == TypeKind::Int || lhs->type()->kind() == TypeKind::Float ||
              lhs->type()->kind() == TypeKind::Bool || lhs->type()->kind() == TypeKind::Number;
  if (lNum && rhs->type()->kind() == TypeKind::Tensor) {
    switch (op) {
      case BinOpKind::Add:
      case BinOpKind::Mul:
        return builtinCallValue(loc, binOpAten(op), {NamedValue(rloc, rhs), NamedValue(lloc, lhs)});
      case BinOpKind::Sub:
        return builtinCallValue(loc, "aten::rsub", {NamedValue(rloc, rhs), NamedValue(lloc, lhs)});
      case BinOpKind::Div: {
        Value* r = builtinCallValue(loc, "aten::reciprocal", {NamedValue(rloc, rhs)});
        return builtinCallValue(loc, "aten::mul", {NamedValue(rloc, r), NamedValue(lloc, lhs)});
      }
      case BinOpKind::Pow:
        return builtinCallValue(loc, "aten::pow", {NamedValue(lloc, lhs), NamedValue(rloc, rhs)});
      default: {
        // Python's Tensor.__rfloordiv__, __rmod__, __ror__, ...: the number becomes a 0-dim tensor that
        // promotes with rhs as the number would: an int one int64, a bool one bool (integral 0-dim tensors
        // never outrank rhs's own integral or floating dtype), a float one of the dtype
        // torch.result_type(rhs, number) (a float64 one would make an integer tensor's result float64;
        // Python's is the default float32). `number // tensor` is torch.floor_divide, a Tensor as in Python
        // (PyTorch 1.13 converts the tensor to an int, raising for more than one element).
        std::vector<NamedValue> kw;
        if (lhs->type()->kind() == TypeKind::Float)
          kw.emplace_back(loc, "dtype",
                          builtinCallValue(loc, "aten::result_type", {NamedValue(rloc, rhs), NamedValue(lloc, lhs)}));
        Value* t = builtinCallValue(loc, "aten::tensor", {NamedValue(lloc, lhs)}, kw);
        const char* name = op == BinOpKind::FloorDiv ? "aten::floor_divide" : binOpAten(op);
        return builtinCallValue(loc, name, {NamedValue(lloc, t), NamedValue(rloc, rhs)});
      }
    }
  }
  // Tensor // x: PyTorch's builtin `floordiv(Tensor, number)` is torch.floor_divide
  if (op == BinOpKind::FloorDiv && lhs->type()->kind() == TypeKind::Tensor)
    return builtinCallValue(loc, "aten::floor_divide", {NamedValue(lloc, lhs), NamedValue(rloc, rhs)});
  return builtinCallValue(loc, binOpAten(op), {NamedValue(lloc, lhs), NamedValue(rloc, rhs)});
}

Value* FunctionEmitter::emitUnaryOp(const UnaryOpExpr& u) {
  Value* v = emitExpr(u.operand);
  switch (u.op) {
    case UnaryOpKind::Neg: {
      if (auto c = v->constantValue()) {
        // As PyTorch's emitUnaryOp: aten::neg of a constant int or float runs at once; the folded constant
        // replaces the node (whose output still took a value number) where it stands.
        if (c->isInt() || c->isDouble()) {
          Node* neg = graph_.create(prim::Load, {}, 1);
          neg->destroy();
          if (c->isInt())  // 64-bit wrap-around, as aten::neg.int
            return insertConstant(IValue(static_cast<int64_t>(0ULL - static_cast<uint64_t>(c->toInt()))), u.range);
          return insertConstant(IValue(-c->toDouble()), u.range);
        }
      }
      return builtinCallValue(u.range, "aten::neg", {NamedValue(u.operand->range, v)});
    }
    case UnaryOpKind::Pos: return v;
    case UnaryOpKind::Invert: return builtinCallValue(u.range, "aten::bitwise_not", {NamedValue(u.operand->range, v)});
    case UnaryOpKind::Not: break;
  }
  return builtinCallValue(u.range, "aten::__not__", {NamedValue(u.operand->range, emitToBool(u.range, v))});
}

}  // namespace kindling
