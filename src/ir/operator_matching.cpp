// Overload matching on IR types (see ir/operator_matching.h).
#include "ir/operator_matching.h"

#include "ir/ir.h"

namespace kindling {

bool argumentTypeMatches(const TypePtr& actual, const TypePtr& formal) {
  if (!actual || !formal) return false;
  switch (formal->kind()) {
    case TypeKind::Any:
    case TypeKind::Var:
      return true;
    case TypeKind::Optional: {
      if (actual->kind() == TypeKind::None) return true;
      const TypePtr& elem = formal->cast<OptionalType>()->elementType();
      if (actual->kind() == TypeKind::Optional)
        return argumentTypeMatches(actual->cast<OptionalType>()->elementType(), elem);
      return argumentTypeMatches(actual, elem);
    }
    case TypeKind::Number:
      return actual->kind() == TypeKind::Int || actual->kind() == TypeKind::Float ||
             actual->kind() == TypeKind::Bool || actual->kind() == TypeKind::Number ||
             actual->kind() == TypeKind::Complex;
    case TypeKind::ScalarTypeK:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat:
      return actual->kind() == formal->kind() || actual->kind() == TypeKind::Int;
    case TypeKind::AnyList:
      return actual->kind() == TypeKind::List;
    case TypeKind::AnyTuple:
      return actual->kind() == TypeKind::Tuple;
    case TypeKind::List: {
      if (actual->kind() != TypeKind::List) return false;
      const TypePtr& fe = formal->cast<ListType>()->elementType();
      const TypePtr& ae = actual->cast<ListType>()->elementType();
      return argumentTypeMatches(ae, fe);
    }
    case TypeKind::Dict: {
      if (actual->kind() != TypeKind::Dict) return false;
      auto* fd = formal->cast<DictType>();
      auto* ad = actual->cast<DictType>();
      return argumentTypeMatches(ad->keyType(), fd->keyType()) && argumentTypeMatches(ad->valueType(), fd->valueType());
    }
    case TypeKind::Tuple: {
      if (actual->kind() != TypeKind::Tuple) return false;
      const auto& fe = formal->cast<TupleType>()->elements();
      const auto& ae = actual->cast<TupleType>()->elements();
      if (fe.size() != ae.size()) return false;
      for (size_t i = 0; i < fe.size(); ++i)
        if (!argumentTypeMatches(ae[i], fe[i])) return false;
      return true;
    }
    case TypeKind::Future: {
      if (actual->kind() != TypeKind::Future) return false;
      return argumentTypeMatches(actual->cast<FutureType>()->elementType(), formal->cast<FutureType>()->elementType());
    }
    default:
      return actual->isSubtypeOf(formal);
  }
}

const Operator* matchOperator(const OperatorRegistry& registry, const std::string& kind,
                              const std::vector<TypePtr>& inputs, size_t numOutputs) {
  for (const Operator* op : registry.lookup(kind)) {
    const FunctionSchema& s = op->schema;
    if (s.isVarArg ? inputs.size() < s.arguments.size() : inputs.size() != s.arguments.size()) continue;
    if (!s.isVarRet && s.returns.size() != numOutputs) continue;
    bool ok = true;
    for (size_t i = 0; i < s.arguments.size() && ok; ++i) ok = argumentTypeMatches(inputs[i], s.arguments[i].type);
    if (ok) return op;
  }
  return nullptr;
}

const Operator* matchOperator(const Node* node) {
  std::vector<TypePtr> types;
  types.reserve(node->inputs().size());
  for (Value* v : node->inputs()) types.push_back(v->type());
  return matchOperator(OperatorRegistry::global(), node->kind().toQualString(), types, node->outputs().size());
}

}  // namespace kindling
