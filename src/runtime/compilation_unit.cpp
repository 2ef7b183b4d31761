// CompilationUnit (see runtime/compilation_unit.h).
#include "runtime/compilation_unit.h"

namespace kindling {

Function* CompilationUnit::defineFunction(const std::string& qualname, FunctionSchema schema,
                                          std::function<void(Graph& graph)> emitBody) {
  auto fn = std::make_unique<GraphFunction>(
      qualname, nullptr, [body = std::move(emitBody)](GraphFunction& f) { body(*f.graphUnchecked()); });
  fn->setSchema(std::move(schema));
  return addFunction(std::move(fn));
}

GraphFunction* CompilationUnit::addFunction(std::unique_ptr<GraphFunction> fn) {
  const std::string& q = fn->qualname();
  if (functionIndex_.count(q)) throw Error("function '" + q + "' is already defined");
  GraphFunction* raw = fn.get();
  functionIndex_.emplace(q, raw);
  functions_.push_back(std::move(fn));
  return raw;
}

GraphFunction* CompilationUnit::findGraphFunction(const std::string& qualname) const {
  auto it = functionIndex_.find(qualname);
  return it == functionIndex_.end() ? nullptr : it->second;
}

static std::string typeQualName(const TypePtr& t) {
  if (auto* c = t->cast<ClassType>()) return c->qualName();
  if (auto* e = t->cast<EnumType>()) return e->qualName();
  if (auto* tt = t->cast<TupleType>())
    if (tt->qualName()) return *tt->qualName();
  return t->str();
}

void CompilationUnit::addType(TypePtr type) {
  std::string q = typeQualName(type);
  if (types_.count(q)) throw Error("type '" + q + "' is already defined");
  types_.emplace(q, type);
  typeOrder_.push_back(std::move(type));
}

TypePtr CompilationUnit::findType(const std::string& qualname) const {
  auto it = types_.find(qualname);
  return it == types_.end() ? nullptr : it->second;
}

ClassTypePtr CompilationUnit::findClass(const std::string& qualname) const {
  TypePtr t = findType(qualname);
  if (!t || !t->cast<ClassType>()) return nullptr;
  return std::const_pointer_cast<ClassType>(std::static_pointer_cast<const ClassType>(t));
}

}  // namespace kindling
