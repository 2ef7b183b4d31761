// Subgraph attributes (see ir/subgraph.h).
#include "ir/subgraph.h"

namespace kindling {

namespace {
constexpr const char* kSubgraph = "Subgraph";

struct GraphCapsule : IntrusiveTarget {
  explicit GraphCapsule(std::shared_ptr<Graph> g) : graph(std::move(g)) {}
  std::shared_ptr<Graph> graph;
};
}  // namespace

void setSubgraph(Node* n, std::shared_ptr<Graph> g) {
  n->ival_(kSubgraph, IValue::fromPtr(IValue::Tag::Capsule, new GraphCapsule(std::move(g))));
}

std::shared_ptr<Graph> subgraphOf(const Node* n) {
  if (!n->hasAttribute(kSubgraph)) return nullptr;
  const IValue& v = n->ival(kSubgraph);
  if (v.tag() != IValue::Tag::Capsule) return nullptr;
  auto* c = dynamic_cast<GraphCapsule*>(v.rawPtr());
  return c ? c->graph : nullptr;
}

bool isSubgraphAttribute(const Node* n, const std::string& name) {
  return name == kSubgraph && subgraphOf(n) != nullptr;
}

}  // namespace kindling
