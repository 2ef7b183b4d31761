// GraphBuilder bindings. See graph_builder.h.
#include "graph_builder.h"

#include <fmt/format.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "frontend/schema_matching.h"
#include "ops/registry/operator.h"
#include "passes/canonicalize/dead_code_elimination.h"
#include "runtime/compilation_unit.h"
#include "runtime/graph_function.h"
#include "script_objects.h"
#include "value_conversion.h"

namespace kindling::python {

namespace {

class GraphBuilder {
 public:
  GraphBuilder() : graph_(std::make_shared<Graph>()) {}

  GraphValueHandle wrap(Value* v) const { return GraphValueHandle{graph_, v}; }

  Value* own(const GraphValueHandle& h) const {
    if (h.graph != graph_) throw py::value_error("GraphValue belongs to another GraphBuilder");
    return h.value;
  }

  void checkOpen() const {
    if (finished_) throw py::value_error("GraphBuilder was already finished");
  }

  // An input typed from an example value (Tensor, int, tuples and lists of them, ...).
  GraphValueHandle addInput(const std::string& name, py::handle example) {
    checkOpen();
    std::string why;
    TypePtr t = inferType(example, &why);
    if (!t) throw py::type_error(fmt::format("cannot type the input '{}' from its example value: {}", name, why));
    return addTypedInput(name, t);
  }

  GraphValueHandle addTypedInput(const std::string& name, TypePtr t) {
    Value* v = graph_->addInput();
    v->setType(std::move(t));
    if (!name.empty()) v->setDebugName(name);
    return wrap(v);
  }

  // The Value for a Python argument: a GraphValue, a list/tuple holding GraphValues (a
  // prim::ListConstruct), or a constant.
  Value* valueOf(py::handle obj) {
    if (py::isinstance<GraphValueHandle>(obj)) return own(obj.cast<GraphValueHandle&>());
    if ((PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) && holdsGraphValue(obj)) {
      std::vector<Value*> elems;
      for (py::handle e : obj) elems.push_back(valueOf(e));
      return listOf(elems, nullptr);
    }
    return insertConstant(obj);
  }

  static bool holdsGraphValue(py::handle obj) {
    if (py::isinstance<GraphValueHandle>(obj)) return true;
    if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr()))
      for (py::handle e : obj)
        if (holdsGraphValue(e)) return true;
    return false;
  }

  Value* insertConstant(py::handle obj) {
    IValue v;
    try {
      v = toIValueInferred(obj);
    } catch (const py::type_error& e) {
      throw py::type_error(std::string("cannot record the value as a TorchScript constant: ") + e.what());
    }
    return graph_->insertConstant(v);
  }

  GraphValueHandle constant(py::handle obj) {
    checkOpen();
    return wrap(insertConstant(obj));
  }

  // prim::ListConstruct; the element type is `elemType` or the first element's (Tensor when empty).
  Value* listOf(const std::vector<Value*>& elems, TypePtr elemType) {
    if (!elemType) {
      elemType = elems.empty() ? TensorType() : elems[0]->type();
      // Optional[Tensor] elements (index lists with None) make a Tensor?[] list.
      for (Value* e : elems)
        if (e->type()->kind() == TypeKind::None || e->type()->kind() == TypeKind::Optional) {
          elemType = OptionalType::create(TensorType());
          break;
        }
    }
    Node* n = graph_->insert(prim::ListConstruct, elems, 1);
    n->output()->setType(ListType::create(elemType));
    return n->output();
  }

  GraphValueHandle list(const py::list& elems, bool optionalTensors) {
    checkOpen();
    std::vector<Value*> vs;
    for (py::handle e : elems) vs.push_back(valueOf(e));
    return wrap(listOf(vs, optionalTensors ? OptionalType::create(TensorType()) : nullptr));
  }

  GraphValueHandle tuple(const py::list& elems) {
    checkOpen();
    std::vector<Value*> vs;
    std::vector<TypePtr> ts;
    for (py::handle e : elems) {
      vs.push_back(valueOf(e));
      ts.push_back(vs.back()->type());
    }
    Node* n = graph_->insert(prim::TupleConstruct, vs, 1);
    n->output()->setType(TupleType::create(ts));
    return wrap(n->output());
  }

  GraphValueHandle dict(const py::list& keys, const py::list& values) {
    checkOpen();
    if (keys.size() != values.size() || keys.empty()) throw py::value_error("dict needs as many keys as values (>= 1)");
    std::vector<Value*> vs;
    for (size_t i = 0; i < keys.size(); ++i) {
      vs.push_back(valueOf(keys[i]));
      vs.push_back(valueOf(values[i]));
    }
    Node* n = graph_->insert(prim::DictConstruct, vs, 1);
    n->output()->setType(DictType::create(vs[0]->type(), vs[1]->type()));
    return wrap(n->output());
  }

  // prim::TupleUnpack / prim::ListUnpack into `count` values (count is needed for lists only).
  std::vector<GraphValueHandle> unpack(const GraphValueHandle& h, size_t count) {
    checkOpen();
    Value* v = own(h);
    Node* n;
    if (auto* tt = v->type()->cast<TupleType>()) {
      n = graph_->insert(prim::TupleUnpack, {v}, tt->elements().size());
      for (size_t i = 0; i < tt->elements().size(); ++i) n->output(i)->setType(tt->elements()[i]);
    } else if (auto* lt = v->type()->cast<ListType>()) {
      n = graph_->insert(prim::ListUnpack, {v}, count);
      for (size_t i = 0; i < count; ++i) n->output(i)->setType(lt->elementType());
    } else {
      throw py::type_error("cannot unpack a value of type '" + v->type()->annotationStr() + "'");
    }
    std::vector<GraphValueHandle> out;
    for (Value* o : n->outputs()) out.push_back(wrap(o));
    return out;
  }

  std::vector<NamedValue> namedArgs(const py::list& args) {
    std::vector<NamedValue> out;
    for (py::handle a : args) {
      if ((PyList_Check(a.ptr()) || PyTuple_Check(a.ptr())) && py::len(a) == 0)
        out.push_back(NamedValue::emptyList(SourceRange()));
      else
        out.emplace_back(SourceRange(), valueOf(a));
    }
    return out;
  }

  std::vector<NamedValue> namedKwargs(const py::dict& kwargs) {
    std::vector<NamedValue> out;
    for (auto kv : kwargs) {
      std::string k = py::str(kv.first);
      if ((PyList_Check(kv.second.ptr()) || PyTuple_Check(kv.second.ptr())) && py::len(kv.second) == 0)
        out.push_back(NamedValue::emptyList(SourceRange(), k));
      else
        out.emplace_back(SourceRange(), k, valueOf(kv.second));
    }
    return out;
  }

  // An operator call ("aten::add"): the overload is chosen by schema matching.
  std::vector<GraphValueHandle> call(const std::string& name, const py::list& args, const py::dict& kwargs) {
    checkOpen();
    const OperatorRegistry& registry = OperatorRegistry::global();
    if (!isBuiltinOperator(name, registry)) throw py::key_error("no operator named '" + name + "'");
    Node* mark = graph_->insertPoint()->prev();
    std::vector<Value*> outs;
    try {
      outs = emitBuiltinCall(SourceRange(), *graph_, name, namedArgs(args), namedKwargs(kwargs), std::nullopt,
                             registry);
    } catch (...) {
      removeNodesAfter(mark);
      throw;
    }
    std::vector<GraphValueHandle> out;
    for (Value* v : outs) out.push_back(wrap(v));
    return out;
  }

  // Removes the nodes inserted after `mark` (argument constants of a failed call).
  void removeNodesAfter(Node* mark) {
    Node* end = graph_->insertPoint();
    for (Node* n = end->prev(); n != mark;) {
      Node* prev = n->prev();
      if (n->outputs().empty() || std::none_of(n->outputs().begin(), n->outputs().end(),
                                               [](Value* o) { return o->hasUses(); }))
        n->destroy();
      n = prev;
    }
  }

  // prim::CallFunction of a TorchScript function (a kindling ScriptFunction's handle). The callee lives in
  // its own compilation unit: the caller's Python wrapper keeps the callee's handle alive.
  std::vector<GraphValueHandle> callFunction(const FunctionHandle& fh, const py::list& args, const py::dict& kwargs) {
    checkOpen();
    const FunctionSchema& schema = fh.fn->getSchema();
    auto [idx, matched] = matchSchemas({&schema}, SourceRange(), *graph_, namedArgs(args), namedKwargs(kwargs),
                                       std::nullopt, OperatorRegistry::global());
    (void)idx;
    Node* c = graph_->insert(prim::Constant, {}, 1);
    c->s_("name", fh.fn->name());
    c->output()->setType(std::make_shared<FunctionType>(fh.fn));
    std::vector<Value*> inputs{c->output()};
    inputs.insert(inputs.end(), matched.inputs.begin(), matched.inputs.end());
    Node* n = graph_->insert(prim::CallFunction, inputs, matched.returnTypes.size());
    n->setCallee(fh.fn);
    std::vector<GraphValueHandle> out;
    for (size_t i = 0; i < matched.returnTypes.size(); ++i) {
      n->output(i)->setType(matched.returnTypes[i]);
      out.push_back(wrap(n->output(i)));
    }
    return out;
  }

  // prim::GetAttr[name=...] on a module or object value.
  GraphValueHandle getAttr(const GraphValueHandle& h, const std::string& field) {
    checkOpen();
    Value* obj = own(h);
    auto* ct = obj->type()->cast<ClassType>();
    if (!ct) throw py::type_error("GetAttr needs an object, got a value of type '" + obj->type()->annotationStr() + "'");
    int slot = ct->findAttributeSlot(field);
    if (slot < 0) throw py::attribute_error("'" + ct->qualName() + "' has no attribute '" + field + "'");
    Node* n = graph_->insert(prim::GetAttr, {obj}, 1);
    n->s_("name", field);
    n->output()->setType(ct->attributes()[static_cast<size_t>(slot)].type);
    bool numeric = !field.empty() && field.find_first_not_of("0123456789") == std::string::npos;
    n->output()->setDebugName(numeric ? "_" + field : field);
    return wrap(n->output());
  }

  // prim::CallMethod[name=...] of a method of an object value's class.
  std::vector<GraphValueHandle> callMethod(const GraphValueHandle& h, const std::string& name, const py::list& args) {
    checkOpen();
    Value* self = own(h);
    auto* ct = self->type()->cast<ClassType>();
    Function* fn = ct ? ct->findMethod(name) : nullptr;
    if (!fn) throw py::attribute_error("'" + self->type()->annotationStr() + "' has no method '" + name + "'");
    std::vector<NamedValue> withSelf{NamedValue(SourceRange(), self)};
    for (const NamedValue& a : namedArgs(args)) withSelf.push_back(a);
    auto [idx, matched] =
        matchSchemas({&fn->getSchema()}, SourceRange(), *graph_, withSelf, {}, std::nullopt, OperatorRegistry::global());
    (void)idx;
    Node* n = graph_->insert(prim::CallMethod, matched.inputs, matched.returnTypes.size());
    n->s_("name", name);
    std::vector<GraphValueHandle> out;
    for (size_t i = 0; i < matched.returnTypes.size(); ++i) {
      n->output(i)->setType(matched.returnTypes[i]);
      out.push_back(wrap(n->output(i)));
    }
    return out;
  }

  void setOutput(const GraphValueHandle& h) {
    checkOpen();
    if (!graph_->outputs().empty()) throw py::value_error("the graph already has its output");
    graph_->registerOutput(own(h));
  }

  // Checks what the interpreter relies on: one output, every input of a node defined before it.
  void validate() const {
    if (graph_->outputs().size() != 1) throw py::value_error("the graph needs exactly one output");
    std::unordered_set<const Value*> defined(graph_->inputs().begin(), graph_->inputs().end());
    for (Node* n : *graph_->block()) {
      for (Value* in : n->inputs())
        if (!defined.count(in))
          throw py::value_error("an input of " + n->kind().toQualString() + " is used before its definition");
      for (Value* o : n->outputs()) defined.insert(o);
    }
  }

  void finalizeGraph() {
    checkOpen();
    validate();
    eliminateDeadCode(*graph_);
    finished_ = true;
  }

  FunctionHandle finishFunction(const std::string& qualname) {
    finalizeGraph();
    auto cu = std::make_shared<CompilationUnit>();
    GraphFunction* fn = cu->addFunction(std::make_unique<GraphFunction>(qualname, graph_));
    return FunctionHandle{cu, fn};
  }

  // Adds the graph as method `name` of the module's class (its first input must be the module).
  void finishMethod(ObjectHandle& owner, const std::string& name) {
    if (graph_->inputs().empty() || graph_->inputs()[0]->type() != TypePtr(owner.module.type()))
      throw py::value_error("a method's graph needs the module as its first input");
    finalizeGraph();
    auto cls = owner.module.type();
    auto cu = owner.module.compilationUnit();
    GraphFunction* fn = cu->addFunction(std::make_unique<GraphFunction>(cls->qualName() + "." + name, graph_));
    cls->addMethod(fn);
  }

  std::string str() const { return graph_->toString(); }

  const std::shared_ptr<Graph>& graph() const { return graph_; }

 private:
  std::shared_ptr<Graph> graph_;
  bool finished_ = false;
};

}  // namespace

void initGraphBuilderBindings(py::module_& m) {
  m.def("_has_operator", [](const std::string& name) { return isBuiltinOperator(name, OperatorRegistry::global()); },
        "True when the registry has an operator of this name (\"aten::add\"), any overload.");
  py::class_<GraphValueHandle>(m, "GraphValue", "A value of a GraphBuilder's graph.")
      .def_property_readonly("type", [](const GraphValueHandle& h) { return h.value->type()->annotationStr(); })
      .def_property_readonly("kind", [](const GraphValueHandle& h) { return h.value->node()->kind().toQualString(); })
      .def_property_readonly("debug_name", [](const GraphValueHandle& h) { return h.value->debugName(); })
      .def("set_debug_name", [](GraphValueHandle& h, const std::string& n) { h.value->setDebugName(n); })
      .def("__repr__", [](const GraphValueHandle& h) {
        return "%" + h.value->debugName() + " : " + h.value->type()->annotationStr();
      });

  py::class_<GraphBuilder>(m, "GraphBuilder",
                           "Builds a TorchScript graph node by node (operator calls matched against the registry's "
                           "overloads), then wraps it as a function or a module method.")
      .def(py::init<>())
      .def("add_input", &GraphBuilder::addInput, py::arg("name"), py::arg("example"),
           "A graph input typed from an example value.")
      .def("add_self_input",
           [](GraphBuilder& b, const ObjectHandle& owner) {
             b.checkOpen();
             return b.addTypedInput("self", owner.module.type());
           },
           "The module input (`self`) of a method graph.")
      .def("constant", &GraphBuilder::constant, "A prim::Constant for a Python value (tensors are shared).")
      .def("list", &GraphBuilder::list, py::arg("elements"), py::arg("optional_tensors") = false)
      .def("tuple", &GraphBuilder::tuple)
      .def("dict", &GraphBuilder::dict)
      .def("unpack", &GraphBuilder::unpack, py::arg("value"), py::arg("count") = 0)
      .def("call", &GraphBuilder::call, py::arg("name"), py::arg("args"), py::arg("kwargs") = py::dict(),
           "Inserts a call of operator `name`; the overload is chosen by schema matching. Returns its outputs.")
      .def("call_function", &GraphBuilder::callFunction, py::arg("function"), py::arg("args"),
           py::arg("kwargs") = py::dict())
      .def("getattr", &GraphBuilder::getAttr)
      .def("call_method", &GraphBuilder::callMethod)
      .def("set_output", &GraphBuilder::setOutput)
      .def("finish_function", &GraphBuilder::finishFunction, py::arg("qualified_name"),
           "Validates the graph, removes dead code and returns it as a TorchScript function.")
      .def("finish_method", &GraphBuilder::finishMethod, py::arg("owner"), py::arg("name"),
           "Validates the graph, removes dead code and adds it as a method of the module's class.")
      .def("__str__", &GraphBuilder::str);
}

}  // namespace kindling::python
