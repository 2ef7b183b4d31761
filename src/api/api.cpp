// Argument checking and threads behind the public API and the CLI. See api.h.
#include "api/api.h"

#include <omp.h>

#include "tensor/tensor.h"

namespace kindling {


namespace {

std::string typeName(const IValue& v) { return v.type()->annotationStr(); }

/// Does v fit type t? May convert (int → float, untyped containers retagged); returns false if not.
bool coerce(IValue& v, const TypePtr& t, size_t depth = 0) {
  if (depth > 100) return false;
  switch (t->kind()) {
    case TypeKind::Any: return true;
    case TypeKind::Tensor: return v.isTensor();
    case TypeKind::Int:
    case TypeKind::ScalarTypeK:
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: return v.isInt();
    case TypeKind::Float:
      if (v.isInt()) { v = IValue(static_cast<double>(v.toInt())); return true; }
      return v.isDouble();
    case TypeKind::Bool: return v.isBool();
    case TypeKind::Str: return v.isString();
    case TypeKind::None: return v.isNone();
    case TypeKind::Number: return v.isInt() || v.isDouble() || v.isBool();
    case TypeKind::Device: return v.isDevice();
    case TypeKind::Optional:
      return v.isNone() || coerce(v, t->cast<OptionalType>()->elementType(), depth + 1);
    case TypeKind::Union:
      // a member the value already is wins (an int stays an int for Union[float, int]), as PyTorch
      for (const auto& u : t->cast<UnionType>()->types())
        if (v.type()->isSubtypeOf(u)) return true;
      for (const auto& u : t->cast<UnionType>()->types()) {
        IValue c = v;
        if (coerce(c, u, depth + 1)) { v = c; return true; }
      }
      return false;
    case TypeKind::List: {
      if (!v.isList()) return false;
      const TypePtr& et = t->cast<ListType>()->elementType();
      const ListValue& l = v.toListRef();
      if (l.elementType->equals(*et)) return true;
      std::vector<IValue> elems = l.elements;
      for (auto& e : elems)
        if (!coerce(e, et, depth + 1)) return false;
      v = IValue(makeIntrusive<ListValue>(et, std::move(elems)));
      return true;
    }
    case TypeKind::Tuple: {
      if (!v.isTuple()) return false;
      const auto& ets = t->cast<TupleType>()->elements();
      std::vector<IValue> elems = v.toTupleRef().elements;
      if (elems.size() != ets.size()) return false;
      for (size_t i = 0; i < elems.size(); ++i)
        if (!coerce(elems[i], ets[i], depth + 1)) return false;
      v = makeTuple(std::move(elems));
      return true;
    }
    case TypeKind::Dict: {
      if (!v.isDict()) return false;
      auto* dt = t->cast<DictType>();
      const DictValue& d = v.toDictRef();
      if (d.keyType->equals(*dt->keyType()) && d.valueType->equals(*dt->valueType())) return true;
      auto nd = makeIntrusive<DictValue>(dt->keyType(), dt->valueType());
      for (const auto& kv : d.items()) {
        IValue k = kv.first, val = kv.second;
        if (!coerce(k, dt->keyType(), depth + 1) || !coerce(val, dt->valueType(), depth + 1)) return false;
        nd->insertOrAssign(std::move(k), std::move(val));
      }
      v = IValue(nd);
      return true;
    }
    default:
      return v.type()->isSubtypeOf(t);
  }
}

}  // namespace

bool coerceToType(IValue& v, const TypePtr& t) { return coerce(v, t); }

std::vector<IValue> checkArguments(const FunctionSchema& schema, std::vector<IValue> args, bool skipSelf) {
  size_t first = skipSelf && !schema.arguments.empty() ? 1 : 0;
  size_t declared = schema.arguments.size() - first;
  std::string fn = schema.name;
  size_t dot = fn.find_last_of(".:");
  if (dot != std::string::npos) fn = fn.substr(dot + 1);
  if (args.size() > declared)
    throw RuntimeError(fmt::format("{}() expected at most {} argument(s) but received {} argument(s). Declaration: {}",
                                   fn, declared, args.size(), schema.str()));
  for (size_t i = 0; i < declared; ++i) {
    const Argument& a = schema.arguments[first + i];
    if (i >= args.size()) {
      if (!a.defaultValue)
        throw RuntimeError(fmt::format("{}() is missing value for argument '{}'. Declaration: {}", fn, a.name, schema.str()));
      args.push_back(*a.defaultValue);
      continue;
    }
    if (!coerce(args[i], a.type))
      throw RuntimeError(fmt::format("{}() Expected a value of type '{}' for argument '{}' but instead found type '{}'.",
                                     fn, a.type->annotationStr(), a.name, typeName(args[i])));
  }
  return args;
}

std::vector<IValue> bindArguments(const FunctionSchema& schema, std::vector<IValue> args,
                                  const std::vector<std::pair<std::string, IValue>>& kwargs, bool skipSelf) {
  if (kwargs.empty()) return checkArguments(schema, std::move(args), skipSelf);
  size_t first = skipSelf && !schema.arguments.empty() ? 1 : 0;
  std::string fn = schema.name;
  size_t dot = fn.find_last_of(".:");
  if (dot != std::string::npos) fn = fn.substr(dot + 1);
  size_t declared = schema.arguments.size() - first;
  if (args.size() > declared) return checkArguments(schema, std::move(args), skipSelf);  // the count error
  std::vector<std::optional<IValue>> slots(declared);
  for (size_t i = 0; i < args.size(); ++i) slots[i] = std::move(args[i]);
  for (const auto& [name, value] : kwargs) {
    int idx = schema.argumentIndex(name);
    if (idx < static_cast<int>(first))
      throw RuntimeError(fmt::format("{}() got an unexpected keyword argument '{}'. Declaration: {}", fn, name, schema.str()));
    size_t k = static_cast<size_t>(idx) - first;
    if (slots[k])
      throw RuntimeError(fmt::format("{}() got multiple values for argument '{}'", fn, name));
    slots[k] = value;
  }
  // Fill the gaps with defaults; whatever is still missing is reported by checkArguments.
  std::vector<IValue> full;
  for (size_t k = 0; k < declared; ++k) {
    const Argument& a = schema.arguments[first + k];
    if (slots[k]) { full.push_back(std::move(*slots[k])); continue; }
    if (!a.defaultValue)
      throw RuntimeError(fmt::format("{}() is missing value for argument '{}'. Declaration: {}", fn, a.name, schema.str()));
    full.push_back(*a.defaultValue);
  }
  return checkArguments(schema, std::move(full), skipSelf);
}

IValue runMethodChecked(const Module& m, const std::string& method, std::vector<IValue> args,
                        const std::vector<std::pair<std::string, IValue>>& kwargs) {
  Function* f = m.findMethod(method);
  if (!f) throw UsageError(fmt::format("Method '{}' is not defined on {}", method, m.type()->qualName()));
  args = bindArguments(f->getSchema(), std::move(args), kwargs, true);
  return m.runMethod(method, std::move(args));
}

void set_num_threads(int n) {
  if (n < 1) throw UsageError(fmt::format("number of threads must be at least 1, got {}", n));
  omp_set_num_threads(n);
}

int get_num_threads() { return omp_get_max_threads(); }

}  // namespace kindling
