// Public API: load, checked method calls, threads. See api.h.
#include "api/api.h"

#include <omp.h>

#include "serialize/import_archive.h"
#include "tensor/tensor.h"

namespace kindling {

namespace jit {
Module load(const std::string& path) { return loadArchive(path); }

Module load(const std::string& path, ExtraFilesMap& extraFiles) {
  ImportedArchive a = importArchive(path);
  for (auto& [name, value] : extraFiles) {
    auto it = a.extraFiles.find(name);
    if (it != a.extraFiles.end()) value = it->second;
  }
  return a.module;
}

Module load(const std::string& path, const Device& device, ExtraFilesMap& extraFiles) {
  if (device.type != DeviceType::CPU)
    throw UsageError(fmt::format("Kindling runs on the CPU only; cannot load '{}' onto device '{}'", path, device.str()));
  return load(path, extraFiles);
}

void Module::save(const std::string& path, const ExtraFilesMap& extraFiles) const { exportModule(*this, path, extraFiles); }

void save(const ::kindling::Module& module, const std::string& path, const ExtraFilesMap& extraFiles) {
  exportModule(module, path, extraFiles);
}
}  // namespace jit

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

IValue runMethodChecked(const Module& m, const std::string& method, std::vector<IValue> args) {
  Function* f = m.findMethod(method);
  if (!f) throw Error(fmt::format("Method '{}' is not defined on {}", method, m.type()->qualName()));
  args = checkArguments(f->getSchema(), std::move(args), true);
  return m.runMethod(method, std::move(args));
}

void set_num_threads(int n) {
  if (n < 1) throw UsageError(fmt::format("number of threads must be at least 1, got {}", n));
  omp_set_num_threads(n);
}

int get_num_threads() { return omp_get_max_threads(); }

}  // namespace kindling
