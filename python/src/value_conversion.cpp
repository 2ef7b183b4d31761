// Python <-> IValue conversion. See value_conversion.h.
#include "value_conversion.h"

#include <pybind11/stl.h>

#include <unordered_map>

#include "core/value_nesting.h"
#include "tensor_bridge.h"

namespace kindling::python {

namespace {

py::handle gModuleWrapper;  // (never released: used until exit) kindling.jit._script_module._wrap_module
std::unordered_map<std::string, py::object>& pythonClasses() {
  static auto* m = new std::unordered_map<std::string, py::object>();
  return *m;
}
// Python classes (NamedTuple, Enum) -> the TorchScript type scripted from them.
std::unordered_map<PyObject*, TypePtr>& typesOfPythonClasses() {
  static auto* m = new std::unordered_map<PyObject*, TypePtr>();
  return *m;
}
// NamedTuple types without a registered Python class get a collections.namedtuple made once.
std::unordered_map<std::string, py::object>& synthesizedTuples() {
  static auto* m = new std::unordered_map<std::string, py::object>();
  return *m;
}

std::string pythonTypeName(py::handle obj) { return py::str(py::type::handle_of(obj).attr("__name__")); }

// The name of a value's type for messages: its TorchScript type when one can be inferred.
std::string foundTypeName(py::handle obj) {
  if (TypePtr t = inferType(obj)) return t->annotationStr();
  return pythonTypeName(obj);
}

[[noreturn]] void mismatch(py::handle obj, const TypePtr& type) {
  throw py::type_error("expected a value of type '" + type->annotationStr() + "' but found '" + foundTypeName(obj) +
                       "'");
}

bool isEnumMember(py::handle obj) {
  static py::handle enumType = py::object(py::module_::import("enum").attr("Enum")).release();  // lives as long as the process
  return PyObject_IsInstance(obj.ptr(), enumType.ptr()) == 1;
}

bool isTorchDevice(py::handle obj) {
  static py::handle deviceType = py::object(py::module_::import("torch").attr("device")).release();  // lives as long as the process
  return Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(deviceType.ptr());
}

bool isTorchLayoutOrFormat(py::handle obj, int64_t* value) {
  static py::handle torch = py::object(py::module_::import("torch")).release();  // lives as long as the process
  static py::handle layoutType = py::object(torch.attr("layout")).release();  // lives as long as the process
  static py::handle formatType = py::object(torch.attr("memory_format")).release();  // lives as long as the process
  if (Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(layoutType.ptr())) {
    // c10::Layout: Strided 0, Sparse 1, SparseCsr 2, Mkldnn 3, ...
    static const std::pair<const char*, int64_t> layouts[] = {{"strided", 0}, {"sparse_coo", 1}, {"sparse_csr", 2},
                                                              {"_mkldnn", 3}, {"sparse_csc", 4}, {"sparse_bsr", 5},
                                                              {"sparse_bsc", 6}};
    for (auto& [n, v] : layouts)
      if (py::hasattr(torch, n) && torch.attr(n).ptr() == obj.ptr()) { *value = v; return true; }
    throw py::type_error("unknown torch.layout");
  }
  if (Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(formatType.ptr())) {
    // c10::MemoryFormat: Contiguous 0, Preserve 1, ChannelsLast 2, ChannelsLast3d 3
    static const std::pair<const char*, int64_t> formats[] = {
        {"contiguous_format", 0}, {"preserve_format", 1}, {"channels_last", 2}, {"channels_last_3d", 3}};
    for (auto& [n, v] : formats)
      if (torch.attr(n).ptr() == obj.ptr()) { *value = v; return true; }
    throw py::type_error("unknown torch.memory_format");
  }
  return false;
}

ObjectHandle* asObjectHandle(py::handle obj) {
  if (py::isinstance<ObjectHandle>(obj)) return obj.cast<ObjectHandle*>();
  // kindling.jit.ScriptModule and other Python wrappers keep the handle in `_c`.
  PyObject* c = PyObject_GetAttrString(obj.ptr(), "_c");
  if (!c) {
    PyErr_Clear();
    return nullptr;
  }
  py::object co = py::reinterpret_steal<py::object>(c);
  if (py::isinstance<ObjectHandle>(co)) return co.cast<ObjectHandle*>();
  return nullptr;
}

TypePtr typeOfPythonClass(py::handle cls) {
  auto it = typesOfPythonClasses().find(cls.ptr());
  return it == typesOfPythonClasses().end() ? nullptr : it->second;
}

bool isNamedTupleInstance(py::handle obj) {
  return PyTuple_Check(obj.ptr()) && py::hasattr(py::type::handle_of(obj), "_fields");
}

}  // namespace

TypePtr inferType(py::handle obj, std::string* why) {
  // A Python list nested 300,000 deep is a RecursionError; containers count against the walk's budget.
  ValueNestingGuard nesting("converting", PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()) || PyDict_Check(obj.ptr()));
  auto fail = [&](const std::string& w) -> TypePtr {
    if (why) *why = w;
    return nullptr;
  };
  PyObject* p = obj.ptr();
  if (isTorchTensor(obj)) return TensorType();
  if (p == Py_None) return NoneType();
  if (PyBool_Check(p)) return BoolType();
  if (PyLong_Check(p)) return IntType();
  if (PyFloat_Check(p)) return FloatType();
  if (PyComplex_Check(p)) return ComplexType();
  if (PyUnicode_Check(p)) return StringType();
  if (isTorchDevice(obj)) return DeviceObjType();
  if (isTorchDtype(obj)) return IntType();
  int64_t dummy;
  if (isTorchLayoutOrFormat(obj, &dummy)) return IntType();
  if (ObjectHandle* h = asObjectHandle(obj)) return h->module.type();
  if (TypePtr t = typeOfPythonClass(py::type::handle_of(obj)); t && t->kind() == TypeKind::Class)
    return t;  // an instance of a Python class compiled as a TorchScript class
  if (isEnumMember(obj)) {
    if (TypePtr t = typeOfPythonClass(py::type::handle_of(obj))) return t;
    return fail("Enum class '" + pythonTypeName(obj) + "' has not been compiled to TorchScript");
  }
  if (PyTuple_Check(p)) {
    if (isNamedTupleInstance(obj))
      if (TypePtr t = typeOfPythonClass(py::type::handle_of(obj))) return t;
    std::vector<TypePtr> elems;
    for (py::handle e : py::reinterpret_borrow<py::tuple>(obj)) {
      TypePtr t = inferType(e, why);
      if (!t) return nullptr;
      elems.push_back(t);
    }
    return TupleType::create(std::move(elems));
  }
  if (PyList_Check(p)) {
    py::list l = py::reinterpret_borrow<py::list>(obj);
    if (l.empty()) return fail("List trace inputs must have elements");
    TypePtr elem;
    for (py::handle e : l) {
      TypePtr t = inferType(e, why);
      if (!t) return nullptr;
      if (!elem) { elem = t; continue; }
      auto u = unifyTypes(elem, t);
      if (!u) return fail("List inputs to traced functions must have consistent element type. Found " +
                          elem->annotationStr() + " and " + t->annotationStr());
      elem = *u;
    }
    return ListType::create(elem);
  }
  if (PyDict_Check(p)) {
    py::dict d = py::reinterpret_borrow<py::dict>(obj);
    if (d.empty()) return fail("Dictionary inputs must have entries");
    TypePtr kt, vt;
    for (auto kv : d) {
      TypePtr k = inferType(kv.first, why);
      if (!k) return nullptr;
      TypePtr v = inferType(kv.second, why);
      if (!v) return nullptr;
      if (!kt) { kt = k; vt = v; continue; }
      auto uk = unifyTypes(kt, k);
      if (!uk) return fail("Dictionary inputs to traced functions must have consistent type. Found " +
                           kt->annotationStr() + " and " + k->annotationStr());
      auto uv = unifyTypes(vt, v);
      if (!uv) return fail("Dictionary inputs to traced functions must have consistent type. Found " +
                           vt->annotationStr() + " and " + v->annotationStr());
      kt = *uk;
      vt = *uv;
    }
    return DictType::create(kt, vt);
  }
  return fail("Only tensors and (possibly nested) tuples of tensors, lists, or dicts are supported as inputs or "
              "outputs of traced functions, but instead got value of type " + pythonTypeName(obj) + ".");
}

IValue toIValueInferred(py::handle obj) {
  std::string why;
  TypePtr t = inferType(obj, &why);
  if (!t) throw py::type_error("cannot convert a value of Python type '" + pythonTypeName(obj) +
                               "' to a TorchScript value: " + why);
  return toIValue(obj, t);
}

IValue toIValue(py::handle obj, const TypePtr& type) {
  PyObject* p = obj.ptr();
  switch (type->kind()) {
    case TypeKind::Tensor:
      if (isTorchTensor(obj)) return IValue(tensorFromTorch(obj));
      mismatch(obj, type);
    case TypeKind::Int:
      if (PyLong_Check(p)) {  // bool is an int in Python (torch accepts it too)
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
        if (overflow) throw py::type_error("int value out of the range of a 64-bit integer");
        return IValue(static_cast<int64_t>(v));
      }
      if (isTorchDtype(obj)) return IValue(static_cast<int64_t>(scalarTypeFromTorch(obj)));
      {
        int64_t v;
        if (isTorchLayoutOrFormat(obj, &v)) return IValue(v);
      }
      mismatch(obj, type);
    case TypeKind::ScalarTypeK:
      if (isTorchDtype(obj)) return IValue(static_cast<int64_t>(scalarTypeFromTorch(obj)));
      if (PyLong_Check(p) && !PyBool_Check(p)) return IValue(static_cast<int64_t>(PyLong_AsLongLong(p)));
      mismatch(obj, type);
    case TypeKind::Layout:
    case TypeKind::MemoryFormat: {
      int64_t v;
      if (isTorchLayoutOrFormat(obj, &v)) return IValue(v);
      if (PyLong_Check(p) && !PyBool_Check(p)) return IValue(static_cast<int64_t>(PyLong_AsLongLong(p)));
      mismatch(obj, type);
    }
    case TypeKind::Float:
      if (PyFloat_Check(p)) return IValue(PyFloat_AS_DOUBLE(p));
      if (PyLong_Check(p) && !PyBool_Check(p)) return IValue(PyLong_AsDouble(p));
      mismatch(obj, type);
    case TypeKind::Bool:
      if (PyBool_Check(p)) return IValue(p == Py_True);
      mismatch(obj, type);
    case TypeKind::Str:
      if (PyUnicode_Check(p)) return IValue(obj.cast<std::string>());
      mismatch(obj, type);
    case TypeKind::None:
      if (p == Py_None) return IValue();
      mismatch(obj, type);
    case TypeKind::Number:
      if (PyBool_Check(p)) return IValue(p == Py_True);
      if (PyLong_Check(p)) return IValue(static_cast<int64_t>(PyLong_AsLongLong(p)));
      if (PyFloat_Check(p)) return IValue(PyFloat_AS_DOUBLE(p));
      mismatch(obj, type);
    case TypeKind::Device:
      if (isTorchDevice(obj)) return IValue(Device::parse(py::str(obj)));
      if (PyUnicode_Check(p)) return IValue(Device::parse(obj.cast<std::string>()));
      mismatch(obj, type);
    case TypeKind::Optional:
      if (p == Py_None) return IValue();
      return toIValue(obj, type->cast<OptionalType>()->elementType());
    case TypeKind::Union: {
      const auto& members = type->cast<UnionType>()->types();
      // A member the value already is wins (an int stays an int for Union[float, int]).
      if (TypePtr t = inferType(obj))
        for (const auto& m : members)
          if (t->isSubtypeOf(m)) return toIValue(obj, m);
      for (const auto& m : members) {
        try {
          return toIValue(obj, m);
        } catch (const py::type_error&) {
        }
      }
      mismatch(obj, type);
    }
    case TypeKind::List: {
      if (!PyList_Check(p) && !PyTuple_Check(p)) mismatch(obj, type);
      const TypePtr& et = type->cast<ListType>()->elementType();
      auto list = makeIntrusive<ListValue>(et);
      py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
      list->elements.reserve(seq.size());
      for (py::handle e : seq) list->elements.push_back(toIValue(e, et));
      return IValue(list);
    }
    case TypeKind::Tuple: {
      if (!PyTuple_Check(p)) mismatch(obj, type);
      auto* tt = type->cast<TupleType>();
      py::tuple t = py::reinterpret_borrow<py::tuple>(obj);
      if (t.size() != tt->elements().size())
        throw py::type_error("expected a tuple of " + std::to_string(tt->elements().size()) + " elements (" +
                             type->annotationStr() + ") but found one of " + std::to_string(t.size()));
      std::vector<IValue> elems;
      elems.reserve(t.size());
      for (size_t i = 0; i < t.size(); ++i) elems.push_back(toIValue(t[i], tt->elements()[i]));
      return IValue(makeIntrusive<TupleValue>(std::move(elems), tt->qualName() ? type : nullptr));
    }
    case TypeKind::Dict: {
      if (!PyDict_Check(p)) mismatch(obj, type);
      auto* dt = type->cast<DictType>();
      auto d = makeIntrusive<DictValue>(dt->keyType(), dt->valueType());
      for (auto kv : py::reinterpret_borrow<py::dict>(obj))
        d->insertOrAssign(toIValue(kv.first, dt->keyType()), toIValue(kv.second, dt->valueType()));
      return IValue(d);
    }
    case TypeKind::Class: {
      ObjectHandle* h = asObjectHandle(obj);
      if (h) {
        if (!h->module.type()->isSubtypeOf(type)) mismatch(obj, type);
        return IValue(h->module.object());
      }
      // An instance of a plain Python class compiled as a TorchScript class (a module attribute such as
      // torchvision's BoxCoder): a new object whose slots are converted from the instance's attributes,
      // as torch's toIValue does. Modules must be scripted (they are never converted from Python).
      // An instance of a subclass converts to the base class's type, as in torch (its methods are the base's:
      // torchvision's SSDMatcher held by an attribute annotated Matcher).
      const auto* ct = type->cast<ClassType>();
      bool fromClass = false;
      for (py::handle base : py::reinterpret_borrow<py::tuple>(py::type::handle_of(obj).attr("__mro__")))
        if (TypePtr t = typeOfPythonClass(base); t && t->equals(*type)) fromClass = true;
      if (ct->isModule() || !fromClass) mismatch(obj, type);
      auto cls = std::const_pointer_cast<ClassType>(std::static_pointer_cast<const ClassType>(type));
      const auto& attrs = ct->attributes();
      auto o = makeIntrusive<Object>(cls, attrs.size());
      for (size_t i = 0; i < attrs.size(); ++i) {
        const auto& a = attrs[i];
        if (!py::hasattr(obj, a.name.c_str()))
          throw py::type_error("object of class '" + ct->qualName() + "' has no attribute '" + a.name +
                               "' (its TorchScript class declares it)");
        try {
          o->slots[i] = toIValue(obj.attr(a.name.c_str()), a.type);
        } catch (const py::type_error& e) {
          throw py::type_error("attribute '" + a.name + "' of '" + ct->qualName() + "' (declared '" +
                               a.type->annotationStr() + "'): " + e.what());
        }
      }
      return IValue(o);
    }
    case TypeKind::Enum: {
      auto* et = type->cast<EnumType>();
      if (!isEnumMember(obj)) mismatch(obj, type);
      TypePtr t = typeOfPythonClass(py::type::handle_of(obj));
      if (!t || !t->equals(*type)) mismatch(obj, type);
      std::string name = py::str(obj.attr("name"));
      for (const auto& [n, v] : et->members)
        if (n == name)
          return IValue(makeIntrusive<EnumHolder>(std::static_pointer_cast<const EnumType>(type), n, *v));
      mismatch(obj, type);
    }
    case TypeKind::Any:
    case TypeKind::AnyList:
    case TypeKind::AnyTuple:
    case TypeKind::AnyClass:
    case TypeKind::AnyEnum:
      return toIValueInferred(obj);
    default:
      throw py::type_error("cannot convert a Python value to TorchScript type '" + type->annotationStr() + "'");
  }
}

void setModuleWrapper(py::object factory) { gModuleWrapper = factory.release(); }

void registerPythonClass(const std::string& qualName, py::object cls) { pythonClasses()[qualName] = std::move(cls); }

py::object findPythonClass(const std::string& qualName) {
  auto it = pythonClasses().find(qualName);
  return it == pythonClasses().end() ? py::object() : it->second;
}

void registerTypeOfPythonClass(py::handle cls, TypePtr type) {
  typesOfPythonClasses()[cls.inc_ref().ptr()] = std::move(type);  // classes registered live for the process
}

std::shared_ptr<CompilationUnit> pythonCompilationUnit() {
  static auto* cu = new std::shared_ptr<CompilationUnit>(std::make_shared<CompilationUnit>());
  return *cu;
}

py::object wrapObject(const IValue& objectValue, const std::shared_ptr<CompilationUnit>& cu) {
  ObjectHandle h{Module(cu, objectValue.toObject())};
  const ClassType& type = *h.module.type();
  if (type.isModule() && gModuleWrapper) return gModuleWrapper(py::cast(std::move(h)));
  if (!type.isModule())
    if (py::object cls = findPythonClass(type.qualName())) {
      py::object out = cls.attr("__new__")(cls);
      py::object setattr = py::module_::import("builtins").attr("object").attr("__setattr__");
      const Object& o = *objectValue.toObject();
      for (size_t i = 0; i < type.attributes().size(); ++i)
        setattr(out, py::str(type.attributes()[i].name), toPyObject(o.slots[i], cu));
      return out;
    }
  return py::cast(std::move(h));
}

py::object toPyObject(IValue v, const std::shared_ptr<CompilationUnit>& cu) {
  ValueNestingGuard nesting("converting", v.isTuple() || v.isList() || v.isDict());
  switch (v.tag()) {
    case IValue::Tag::None: return py::none();
    case IValue::Tag::Tensor: return tensorToTorch(v.toTensor());
    case IValue::Tag::Double: return py::float_(v.toDouble());
    case IValue::Tag::Int: return py::int_(v.toInt());
    case IValue::Tag::Bool: return py::bool_(v.toBool());
    case IValue::Tag::String: return py::str(v.toStringRef());
    case IValue::Tag::Device: {
      static py::handle device = py::object(py::module_::import("torch").attr("device")).release();  // lives as long as the process
      return device(v.toDevice().str());
    }
    case IValue::Tag::Tuple: {
      const TupleValue& t = v.toTupleRef();
      py::tuple out(t.elements.size());
      for (size_t i = 0; i < t.elements.size(); ++i) out[i] = toPyObject(t.elements[i], cu);
      const TupleType* tt = t.type ? t.type->cast<TupleType>() : nullptr;
      if (tt && tt->qualName()) {
        py::object cls = findPythonClass(*tt->qualName());
        if (!cls) {
          py::object& made = synthesizedTuples()[*tt->qualName()];
          if (!made) {
            static py::handle namedtuple = py::object(py::module_::import("collections").attr("namedtuple")).release();  // lives as long as the process
            std::string q = *tt->qualName();
            made = namedtuple(q.substr(q.rfind('.') + 1), py::cast(tt->names()));
          }
          cls = made;
        }
        return cls(*out);
      }
      return out;
    }
    case IValue::Tag::List: {
      const ListValue& l = v.toListRef();
      py::list out(l.elements.size());
      for (size_t i = 0; i < l.elements.size(); ++i) out[i] = toPyObject(l.elements[i], cu);
      return out;
    }
    case IValue::Tag::Dict: {
      py::dict out;
      for (const auto& [k, val] : v.toDictRef().items()) out[toPyObject(k, cu)] = toPyObject(val, cu);
      return out;
    }
    case IValue::Tag::Object: return wrapObject(v, cu);
    case IValue::Tag::Enum: {
      auto e = v.toEnum();
      py::object cls = findPythonClass(e->type->qualName());
      if (cls) return cls.attr(py::str(e->name));
      return toPyObject(e->value, cu);
    }
    case IValue::Tag::Future: {
      const IValue& r = v.toFuture()->wait();
      return toPyObject(r, cu);
    }
    default:
      throw py::type_error(std::string("cannot convert a TorchScript value of kind ") + v.tagName() + " to Python");
  }
}

}  // namespace kindling::python
