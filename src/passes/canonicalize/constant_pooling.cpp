// Constant pooling (see passes/canonicalize/constant_pooling.h).
#include "passes/canonicalize/constant_pooling.h"

#include <cstring>
#include <unordered_map>
#include <vector>

namespace kindling {

namespace {

bool poolable(const IValue& v) {
  switch (v.tag()) {
    case IValue::Tag::List: case IValue::Tag::Dict: case IValue::Tag::Object: case IValue::Tag::Future:
      return false;
    case IValue::Tag::Tuple:
      for (const IValue& e : v.toTupleRef().elements)
        if (!poolable(e)) return false;
      return true;
    default:
      return true;
  }
}

bool sameConstant(const Node* a, const Node* b) {
  const TypePtr& ta = a->output()->type();
  const TypePtr& tb = b->output()->type();
  if ((ta == nullptr) != (tb == nullptr)) return false;
  if (ta && ta->str() != tb->str()) return false;
  if (ta && ta->kind() == TypeKind::Function) {
    return a->hasAttribute("name") && b->hasAttribute("name") && a->s("name") == b->s("name") &&
           a->output()->type()->equals(*b->output()->type());
  }
  bool ha = a->hasAttribute("value"), hb = b->hasAttribute("value");
  if (ha != hb) return false;
  if (!ha) return true;  // None
  const IValue& va = a->ival("value");
  const IValue& vb = b->ival("value");
  if (va.tag() != vb.tag()) return false;
  if (va.isTensor()) return va.is(vb);
  if (va.isDouble()) {
    // Bitwise: 0.0 and -0.0 differ, NaN equals itself.
    double x = va.toDouble(), y = vb.toDouble();
    return std::memcmp(&x, &y, sizeof x) == 0;
  }
  return va == vb;
}

// A hash consistent with sameConstant (equal constants hash equally); values whose equality is not
// covered by IValue::hash share one bucket per tag.
size_t constantKey(const Node* n) {
  if (!n->hasAttribute("value")) return n->hasAttribute("name") ? std::hash<std::string>()(n->s("name")) : 0;
  const IValue& v = n->ival("value");
  size_t tag = static_cast<size_t>(v.tag()) + 1;
  switch (v.tag()) {
    case IValue::Tag::Int: case IValue::Tag::Bool: case IValue::Tag::Double: case IValue::Tag::String:
    case IValue::Tag::Device: case IValue::Tag::Tensor:  // a tensor hashes by identity, as it compares
      return tag * 0x9e3779b97f4a7c15ULL ^ v.hash();
    default:
      return tag;
  }
}

// The constants kept so far, bucketed by constantKey, so each new constant is compared with the few
// that hash alike instead of all of them.
using SeenConstants = std::unordered_map<size_t, std::vector<Node*>>;

void poolBlock(Graph& g, Block* b, SeenConstants& seen) {
  for (auto it = b->begin(); it != b->end();) {
    Node* n = *it++;
    if (!n->blocks().empty()) {
      for (Block* sb : n->blocks()) poolBlock(g, sb, seen);
      continue;
    }
    if (n->kind() != prim::Constant || n->outputs().size() != 1) continue;
    if (n->hasAttribute("value") && !poolable(n->ival("value"))) continue;
    // PyTorch 1.13 never finds two enum constants equal (its node hashing/equality do not cover them):
    // each one is hoisted and kept.
    bool isEnum = n->hasAttribute("value") && n->ival("value").isEnum();
    Node* existing = nullptr;
    std::vector<Node*>& bucket = seen[constantKey(n)];
    if (!isEnum)
      for (Node* s : bucket)
        if (sameConstant(s, n)) { existing = s; break; }
    if (existing) {
      n->output()->replaceAllUsesWith(existing->output());
      n->destroy();
      continue;
    }
    bucket.push_back(n);
    Node* first = *g.block()->begin();
    if (n != first) n->moveBefore(first);
  }
}

}  // namespace

void poolConstants(Graph& graph) {
  SeenConstants seen;
  poolBlock(graph, graph.block(), seen);
}

}  // namespace kindling
