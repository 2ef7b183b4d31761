// Module (see runtime/module.h).
#include "runtime/module.h"

#include "passes/optimize/freeze_module.h"
#include "passes/pipeline.h"
#include "runtime/interpreter.h"

namespace kindling {

Function* Module::findMethod(const std::string& name) const {
  if (!obj_) return nullptr;
  return obj_->type->findMethod(name);
}

Function* Module::frozenMethod(const std::string& name) const {
  if (!frozen_) return nullptr;
  for (auto& [n, f] : frozen_->methods)
    if (n == name) return f.get();
  return nullptr;
}

void Module::setattr(const std::string& name, IValue v) {
  obj_->setAttr(name, std::move(v));
  if (frozen_) frozen_->methods.clear();
}

void Module::freezeMethod(const std::string& name) {
  if (!obj_) throw Error("Module::freezeMethod on an empty module");
  auto* gf = dynamic_cast<GraphFunction*>(findMethod(name));
  if (!gf) throw Error("Method '" + name + "' is not defined on " + obj_->type->qualName());
  std::shared_ptr<Graph> g = gf->optimizedGraphCopy();
  freezeModuleAttributes(*g, IValue(obj_));
  runFrozenGraphPasses(*g);
  auto frozen = std::make_shared<GraphFunction>(gf->qualname(), g);
  frozen->setOptimizedGraph(g);
  frozen->setSchema(gf->getSchema());
  frozen->code();
  if (!frozen_) frozen_ = std::make_shared<FrozenMethods>();
  for (auto& entry : frozen_->methods)
    if (entry.first == name) { entry.second = frozen; return; }
  frozen_->methods.emplace_back(name, std::move(frozen));
}

IValue Module::runMethod(const std::string& name, std::vector<IValue> args) const {
  if (!obj_) throw Error("Module::runMethod on an empty module");
  Function* fn = frozenMethod(name);
  if (!fn) fn = findMethod(name);
  if (!fn) throw Error("Method '" + name + "' is not defined on " + obj_->type->qualName());
  Stack stack;
  stack.reserve(args.size() + 1);
  stack.emplace_back(obj_);
  for (IValue& a : args) stack.push_back(std::move(a));
  fn->run(stack);
  return stack.empty() ? IValue() : std::move(stack.back());
}

bool Module::hasattr(const std::string& name) const {
  return obj_ && obj_->type->findAttributeSlot(name) >= 0;
}

static void collect(const Module& m, const std::string& prefix, bool recurse, bool params,
                    std::vector<std::pair<std::string, Tensor>>& out) {
  const auto& attrs = m.type()->attributes();
  for (size_t i = 0; i < attrs.size(); ++i) {
    const auto& a = attrs[i];
    if (params ? !a.isParameter : !a.isBuffer) continue;
    const IValue& v = m.object()->slots[i];
    if (v.isTensor()) out.emplace_back(prefix + a.name, v.toTensor());
  }
  if (!recurse) return;
  for (auto& [name, child] : m.namedChildren()) collect(child, prefix + name + ".", true, params, out);
}

std::vector<std::pair<std::string, Tensor>> Module::namedParameters(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out;
  if (obj_) collect(*this, "", recurse, true, out);
  return out;
}

std::vector<std::pair<std::string, Tensor>> Module::namedBuffers(bool recurse) const {
  std::vector<std::pair<std::string, Tensor>> out;
  if (obj_) collect(*this, "", recurse, false, out);
  return out;
}

std::vector<std::pair<std::string, Module>> Module::namedChildren() const {
  std::vector<std::pair<std::string, Module>> out;
  if (!obj_) return out;
  const auto& attrs = obj_->type->attributes();
  for (size_t i = 0; i < attrs.size(); ++i) {
    const IValue& v = obj_->slots[i];
    if (!v.isObject()) continue;
    const ClassType* ct = attrs[i].type ? attrs[i].type->cast<ClassType>() : nullptr;
    if (!ct || !ct->isModule()) continue;
    out.emplace_back(attrs[i].name, Module(cu_, v.toObject()));
  }
  return out;
}

}  // namespace kindling
