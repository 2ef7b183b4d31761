// Freezing of module attributes (see passes/optimize/freeze_module.h).
#include "passes/optimize/freeze_module.h"

#include <set>
#include <unordered_map>

namespace kindling {

namespace {

bool argumentWrites(const AliasInfo& a) {
  if (a.isWrite) return true;
  for (const AliasInfo& c : a.containedTypes)
    if (argumentWrites(c)) return true;
  return false;
}

// True when a value (a frozen tensor or list, or something holding it) may be written through this use
// or anything derived from it.
bool mayBeMutated(const Value* v, int depth = 0) {
  if (depth > 16) return true;
  for (const Use& u : v->uses()) {
    const Node* n = u.user;
    Symbol k = n->kind();
    if (k == prim::Return) {
      // Graph outputs are fine (PyTorch returns the same parameter tensor); block outputs flow on into the
      // If/Loop outputs, which we do not follow: be conservative.
      if (n->owningBlock()->owningNode() != nullptr) return true;
      continue;
    }
    if (const FunctionSchema* s = n->schema()) {
      if (u.offset >= s->arguments.size()) {
        if (!s->isVarArg) return true;
        continue;  // vararg inputs (prim::Print, aten::format): read only
      }
      const auto& ai = s->arguments[u.offset].aliasInfo;
      if (!ai) continue;
      if (argumentWrites(*ai)) return true;
      // A view or container element: follow outputs that alias something.
      for (size_t r = 0; r < n->outputs().size(); ++r) {
        bool aliasing = r < s->returns.size() ? s->returns[r].aliasInfo.has_value() : true;
        if (aliasing && mayBeMutated(n->outputs()[r], depth + 1)) return true;
      }
      continue;
    }
    if (k == prim::ListConstruct || k == prim::TupleConstruct || k == prim::DictConstruct ||
        k == prim::unchecked_cast || k == prim::ListUnpack || k == prim::TupleUnpack || k == prim::TupleIndex) {
      for (const Value* o : n->outputs())
        if (mayBeMutated(o, depth + 1)) return true;
      continue;
    }
    if (k == aten::__is__ || k == aten::__isnot__ || k == prim::isinstance || k == prim::dtype || k == prim::device ||
        k == aten::__not__ || k == prim::If /* condition */)
      continue;
    return true;  // calls, SetAttr of the value elsewhere, unknown nodes
  }
  return false;
}

bool isImmutableValue(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::None: case IValue::Tag::Int: case IValue::Tag::Double: case IValue::Tag::Bool:
    case IValue::Tag::String: case IValue::Tag::Device: case IValue::Tag::Enum:
      return true;
    case IValue::Tag::Tuple:
      for (const IValue& e : v.toTupleRef().elements)
        if (!isImmutableValue(e)) return false;
      return true;
    default:
      return false;
  }
}

struct Freezer {
  std::unordered_map<const Value*, IValue> objects;  // values known to be a specific object
  std::set<std::pair<const Object*, int>> written;
  bool untracedWrite = false;
  std::vector<Node*> getAttrs;

  void scan(Block* b) {
    for (Node* n : *b) {
      if (n->kind() == prim::GetAttr) {
        getAttrs.push_back(n);
        auto it = objects.find(n->input(0));
        if (it != objects.end()) {
          const Object& o = it->second.toObjectRef();
          int slot = o.type->findAttributeSlot(n->s("name"));
          if (slot >= 0 && o.slots[slot].isObject()) objects[n->output()] = o.slots[slot];
        }
      } else if (n->kind() == prim::CallMethod || n->kind() == prim::CallFunction || n->kind() == prim::fork) {
        untracedWrite = true;  // a call that was not inlined may write any attribute
      } else if (n->kind() == prim::SetAttr) {
        auto it = objects.find(n->input(0));
        if (it == objects.end()) {
          untracedWrite = true;
        } else {
          const Object& o = it->second.toObjectRef();
          written.insert({&o, o.type->findAttributeSlot(n->s("name"))});
        }
      }
      for (Block* sb : n->blocks()) scan(sb);
    }
  }
};

}  // namespace

size_t freezeModuleAttributes(Graph& graph, const IValue& self) {
  if (graph.inputs().empty() || !self.isObject()) return 0;
  Freezer f;
  f.objects[graph.inputs()[0]] = self;
  f.scan(graph.block());
  if (f.untracedWrite) return 0;
  size_t frozen = 0;
  for (Node* n : f.getAttrs) {
    auto it = f.objects.find(n->input(0));
    if (it == f.objects.end()) continue;
    const Object& o = it->second.toObjectRef();
    int slot = o.type->findAttributeSlot(n->s("name"));
    if (slot < 0 || f.written.count({&o, slot})) continue;
    const IValue& v = o.slots[slot];
    if (v.isObject()) continue;  // submodules stay values; their attributes freeze through the chain
    bool ok = isImmutableValue(v);
    if (!ok && (v.isTensor() || v.isList())) ok = !mayBeMutated(n->output());
    if (!ok) continue;
    WithInsertPoint guard(n);
    Value* c = graph.insertConstant(v, n->sourceRange(), n->output()->type());
    if (n->output()->hasDebugName()) {
      std::string name = n->output()->debugName();
      n->output()->setDebugName("");
      c->setDebugName(name);
    }
    n->output()->replaceAllUsesWith(c);
    ++frozen;
  }
  return frozen;
}

}  // namespace kindling
