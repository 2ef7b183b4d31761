// kindling::api::call_op and operator_schemas (include/kindling/ivalue.h): operators by PyTorch name,
// overloads chosen by the arguments as torch.ops does from Python.
#include "api/api.h"
#include "api/public_bridge.h"
#include "ops/registry/operator.h"

namespace kindling::api {

using detail::in;
using detail::out;

IValue call_op(const std::string& name, std::vector<IValue> args,
               const std::vector<std::pair<std::string, IValue>>& kwargs) {
  auto& reg = ::kindling::OperatorRegistry::global();
  std::vector<const ::kindling::Operator*> candidates;
  const size_t ns = name.find("::");
  const bool overloadNamed = ns != std::string::npos && name.find('.', ns + 2) != std::string::npos;
  if (overloadNamed) {
    if (const ::kindling::Operator* exact = reg.find(name)) candidates.push_back(exact);
  } else {
    for (const ::kindling::Operator* op : reg.lookup(name)) candidates.push_back(op);
  }
  if (candidates.empty()) throw UsageError("call_op: unknown operator '" + name + "'");
  std::vector<::kindling::IValue> inArgs;
  for (IValue& a : args) inArgs.push_back(in(a));
  std::vector<std::pair<std::string, ::kindling::IValue>> inKw;
  for (const auto& [k, v] : kwargs) inKw.emplace_back(k, in(v));
  // The first overload whose schema accepts the arguments, in registration order (PyTorch's order).
  std::vector<::kindling::IValue> bound;
  const ::kindling::Operator* chosen = nullptr;
  std::string tried;
  for (const ::kindling::Operator* op : candidates) {
    if (op->schema.isVarArg) continue;
    try {
      bound = ::kindling::bindArguments(op->schema, inArgs, inKw, false);
      chosen = op;
      break;
    } catch (const ::kindling::Error& e) {
      tried += "\n  " + op->schema.str() + ": " + e.what();
    }
  }
  if (!chosen) throw UsageError("call_op: no overload of '" + name + "' accepts these arguments:" + tried);
  return detail::translateErrors([&] {
    ::kindling::Stack stack(std::move(bound));
    if (chosen->writtenArgs) ::kindling::bumpWrittenVersions(chosen->writtenArgs, stack.data());
    chosen->fn(stack);
    if (stack.empty()) return IValue();
    if (stack.size() == 1) return out(std::move(stack.back()));
    return out(::kindling::makeTuple(std::move(stack)));
  });
}

std::vector<std::string> operator_schemas() { return ::kindling::allSchemaStrings(); }

}  // namespace kindling::api
