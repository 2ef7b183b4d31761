// Graph, Block, Node and Value (see ir/ir.h). Nodes of a block form a doubly linked list between the
// block's prim::Param and prim::Return nodes; the Graph owns every Node and Block and frees a node as
// soon as it is destroyed. Values are owned by the node that produces them.
#include "ir/ir.h"

#include <algorithm>
#include <limits>


namespace kindling {

namespace {
constexpr int64_t kTopoSpacing = int64_t(1) << 20;
constexpr int64_t kTopoLow = std::numeric_limits<int64_t>::min() / 2;
constexpr int64_t kTopoHigh = std::numeric_limits<int64_t>::max() / 2;
}  // namespace

// ---------------------------------------------------------------- InlinedCallStack

InlinedCallStack::~InlinedCallStack() {
  std::shared_ptr<const InlinedCallStack> next = std::move(caller);
  while (next && next.use_count() == 1) {
    // The last owner of `next`: take its caller before it goes, so no destructor recurses.
    std::shared_ptr<const InlinedCallStack> after = std::move(const_cast<InlinedCallStack&>(*next).caller);
    next = std::move(after);
  }
}

// ---------------------------------------------------------------- Value

std::string Value::debugName() const {
  if (!uniqueName_.empty()) return uniqueName_;
  return std::to_string(unique_);
}

Graph* Value::owningGraph() const { return node_->owningGraph(); }

static bool isAllDigits(const std::string& s, size_t from = 0) {
  if (from >= s.size()) return false;
  for (size_t i = from; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

Value* Value::setDebugName(const std::string& name) {
  if (!name.empty() && isAllDigits(name)) throw Error("names may not be integers: " + name);
  Graph* g = owningGraph();
  auto& names = g->uniqueNames();
  if (!uniqueName_.empty()) {
    auto it = names.find(uniqueName_);
    if (it != names.end() && it->second == this) names.erase(it);
    uniqueName_.clear();
  }
  if (name.empty()) return this;
  auto old = names.find(name);
  if (old != names.end()) {
    size_t suffix = 1;
    std::string base = name;
    auto dot = name.find_last_of('.');
    if (dot != std::string::npos && dot + 1 != name.size() && isAllDigits(name, dot + 1)) {
      suffix = std::stoull(name.substr(dot + 1));
      base = name.substr(0, dot);
    }
    auto& suffixes = g->nameBaseSuffix_;
    auto sit = suffixes.find(base);
    if (sit != suffixes.end()) suffix = std::max(suffix, sit->second + 1);
    std::string replacement;
    do {
      replacement = base + "." + std::to_string(suffix++);
    } while (names.count(replacement) > 0);
    suffixes[base] = suffix;
    old->second->setDebugName(replacement);
  }
  names[name] = this;
  uniqueName_ = name;
  return this;
}

Value* Value::copyMetadata(const Value* from) {
  setType(from->type());
  if (from->hasDebugName()) setDebugName(from->debugName());
  return this;
}

void Value::replaceAllUsesWith(Value* v) {
  if (v == this) return;
  for (const Use& u : uses_) {
    u.user->inputs_[u.offset] = v;
    v->uses_.push_back(u);
  }
  uses_.clear();
}

std::optional<IValue> Value::constantValue() const {
  if (node_->kind() != prim::Constant) return std::nullopt;
  if (type_ && type_->kind() == TypeKind::Function) return std::nullopt;
  if (!node_->hasAttribute("value")) return IValue();
  return node_->ival("value");
}

// ---------------------------------------------------------------- Node

Node::Node(Graph* g, Symbol kind) : graph_(g), kind_(kind) {}

Node::~Node() {
  for (Value* v : outputs_) delete v;
}

namespace {
// Both search the use list from its end: uses are appended as users are created, and passes remove
// users back to front (DCE, freeing a block) or just after adding them, so the use sought is at or near
// the end and removing every use of a value with many uses stays linear instead of quadratic.
void removeUse(Value* v, Node* user, size_t offset) {
  auto& uses = const_cast<std::vector<Use>&>(v->uses());
  auto it = std::find(uses.rbegin(), uses.rend(), Use{user, offset});
  if (it != uses.rend()) uses.erase(std::next(it).base());
}
void setUseOffset(Value* v, Node* user, size_t from, size_t to) {
  auto& uses = const_cast<std::vector<Use>&>(v->uses());
  for (auto it = uses.rbegin(); it != uses.rend(); ++it)
    if (it->user == user && it->offset == from) { it->offset = to; return; }
}
}  // namespace

Value* Node::addInput(Value* v) {
  inputs_.push_back(v);
  v->uses_.push_back({this, inputs_.size() - 1});
  return v;
}

Value* Node::insertInput(size_t i, Value* v) {
  if (i > inputs_.size()) throw InternalError("Node::insertInput: index out of range");
  for (size_t j = inputs_.size(); j-- > i;) setUseOffset(inputs_[j], this, j, j + 1);
  inputs_.insert(inputs_.begin() + i, v);
  v->uses_.push_back({this, i});
  return v;
}

void Node::replaceInput(size_t i, Value* v) {
  Value* old = inputs_.at(i);
  removeUse(old, this, i);
  inputs_[i] = v;
  v->uses_.push_back({this, i});
}

void Node::replaceInputWith(Value* from, Value* to) {
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (inputs_[i] == from) replaceInput(i, to);
}

void Node::removeInput(size_t i) {
  Value* old = inputs_.at(i);
  removeUse(old, this, i);
  for (size_t j = i + 1; j < inputs_.size(); ++j) setUseOffset(inputs_[j], this, j, j - 1);
  inputs_.erase(inputs_.begin() + i);
}

void Node::removeAllInputs() {
  for (size_t i = 0; i < inputs_.size(); ++i) removeUse(inputs_[i], this, i);
  inputs_.clear();
}

Value* Node::addOutput() {
  Value* v = new Value(this, outputs_.size(), graph_->nextUnique());
  outputs_.push_back(v);
  return v;
}

Value* Node::insertOutput(size_t i) {
  if (i > outputs_.size()) throw InternalError("Node::insertOutput: index out of range");
  Value* v = new Value(this, i, graph_->nextUnique());
  outputs_.insert(outputs_.begin() + i, v);
  for (size_t j = i + 1; j < outputs_.size(); ++j) outputs_[j]->offset_ = j;
  return v;
}

void Node::eraseOutput(size_t i) {
  Value* v = outputs_.at(i);
  if (v->hasUses()) throw InternalError("Node::eraseOutput: output %" + v->debugName() + " still has uses");
  v->setDebugName("");
  outputs_.erase(outputs_.begin() + i);
  delete v;
  for (size_t j = i; j < outputs_.size(); ++j) outputs_[j]->offset_ = j;
}

Block* Node::addBlock() {
  Block* b = graph_->newBlock(this);
  blocks_.push_back(b);
  return b;
}

void Node::eraseBlock(size_t i) {
  Block* b = blocks_.at(i);
  blocks_.erase(blocks_.begin() + i);
  graph_->freeBlock(b);
}

Node* Node::ival_(const std::string& name, IValue v) {
  if (!attrs_.count(name) && !typeAttrs_.count(name) && !typeListAttrs_.count(name)) attrOrder_.push_back(name);
  attrs_[name] = std::move(v);
  return this;
}

const IValue& Node::ival(const std::string& name) const {
  auto it = attrs_.find(name);
  if (it == attrs_.end()) throw Error("node " + kind_.toQualString() + " has no attribute '" + name + "'");
  return it->second;
}

Node* Node::ty_(const std::string& name, TypePtr t) {
  if (!attrs_.count(name) && !typeAttrs_.count(name) && !typeListAttrs_.count(name)) attrOrder_.push_back(name);
  typeAttrs_[name] = std::move(t);
  return this;
}

const TypePtr& Node::ty(const std::string& name) const {
  auto it = typeAttrs_.find(name);
  if (it == typeAttrs_.end()) throw Error("node " + kind_.toQualString() + " has no type attribute '" + name + "'");
  return it->second;
}

Node* Node::tys_(const std::string& name, std::vector<TypePtr> ts) {
  if (!attrs_.count(name) && !typeAttrs_.count(name) && !typeListAttrs_.count(name)) attrOrder_.push_back(name);
  typeListAttrs_[name] = std::move(ts);
  return this;
}

const std::vector<TypePtr>& Node::tys(const std::string& name) const {
  auto it = typeListAttrs_.find(name);
  if (it == typeListAttrs_.end())
    throw Error("node " + kind_.toQualString() + " has no type list attribute '" + name + "'");
  return it->second;
}

void Node::removeAttribute(const std::string& name) {
  attrs_.erase(name);
  typeAttrs_.erase(name);
  typeListAttrs_.erase(name);
  attrOrder_.erase(std::remove(attrOrder_.begin(), attrOrder_.end(), name), attrOrder_.end());
}

void Node::copyAttributes(const Node& other) {
  for (const std::string& n : other.attrOrder_) {
    if (auto it = other.attrs_.find(n); it != other.attrs_.end()) ival_(n, it->second);
    if (auto it = other.typeAttrs_.find(n); it != other.typeAttrs_.end()) ty_(n, it->second);
    if (auto it = other.typeListAttrs_.find(n); it != other.typeListAttrs_.end()) tys_(n, it->second);
  }
}

Function* Node::callee() const {
  if (callee_) return callee_;
  if (kind_ == prim::CallFunction && !inputs_.empty() && inputs_[0]->type()) {
    if (auto* ft = inputs_[0]->type()->cast<FunctionType>()) return ft->function();
  }
  return nullptr;
}

Value* Node::namedInput(const std::string& name) const { return inputs_[namedInputIndex(name)]; }

size_t Node::namedInputIndex(const std::string& name) const {
  if (!op_) throw InternalError("Node::namedInput(\"" + name + "\") on an unbound " + kind_.toQualString() + " node");
  int i = op_->schema.argumentIndex(name);
  if (i < 0)
    throw InternalError("Node::namedInput: " + op_->schema.qualifiedName() + " has no argument '" + name + "'");
  if (static_cast<size_t>(i) >= inputs_.size())
    throw InternalError("Node::namedInput: " + kind_.toQualString() + " node has " + std::to_string(inputs_.size()) +
                        " inputs, argument '" + name + "' is input " + std::to_string(i));
  return static_cast<size_t>(i);
}

bool Node::hasNamedInput(const std::string& name) const {
  return op_ != nullptr && op_->schema.argumentIndex(name) >= 0;
}

void Node::replaceAllUsesWith(Node* n) {
  if (n->outputs_.size() != outputs_.size()) throw InternalError("Node::replaceAllUsesWith: output count mismatch");
  for (size_t i = 0; i < outputs_.size(); ++i) outputs_[i]->replaceAllUsesWith(n->outputs_[i]);
}

void Node::insertBefore(Node* n) {
  if (owningBlock_ != nullptr || next_ || prev_) throw InternalError("Node::insertBefore: node is already in a block");
  if (!n->prev_) throw InternalError("Node::insertBefore: cannot insert before a block's Param node");
  insertAfter(n->prev_);
}

void Node::insertAfter(Node* n) {
  if (owningBlock_ != nullptr || next_ || prev_) throw InternalError("Node::insertAfter: node is already in a block");
  if (!n->next_) throw InternalError("Node::insertAfter: cannot insert after a block's Return node");
  Node* nx = n->next_;
  prev_ = n;
  next_ = nx;
  n->next_ = this;
  nx->prev_ = this;
  owningBlock_ = n->owningBlock_;
  int64_t lo = n->topoPosition_, hi = nx->topoPosition_;
  if (hi - lo > 1) {
    if (nx->next_ == nullptr && hi - lo > 2 * kTopoSpacing) {
      topoPosition_ = lo + kTopoSpacing;  // appending: leave room for more appends
    } else {
      topoPosition_ = lo + (hi - lo) / 2;
    }
  } else {
    // No room: the block is renumbered when a position is next compared (isBefore), so a pass that
    // inserts many nodes at one place (constants hoisted to the front) renumbers once, not every ~20 nodes.
    owningBlock_->topoStale_ = true;
  }
}

void Block::renumberTopology() const {
  int64_t pos = kTopoLow;
  for (Node* c = input_; c != output_; c = c->next_) {
    c->topoPosition_ = pos;
    pos += kTopoSpacing;
  }
  output_->topoPosition_ = kTopoHigh;
  topoStale_ = false;
}

void Node::moveBefore(Node* n) {
  if (prev_) prev_->next_ = next_;
  if (next_) next_->prev_ = prev_;
  prev_ = next_ = nullptr;
  owningBlock_ = nullptr;
  insertBefore(n);
}

void Node::moveAfter(Node* n) {
  if (prev_) prev_->next_ = next_;
  if (next_) next_->prev_ = prev_;
  prev_ = next_ = nullptr;
  owningBlock_ = nullptr;
  insertAfter(n);
}

void Node::destroy() {
  for (Value* v : outputs_)
    if (v->hasUses())
      throw InternalError("cannot destroy node " + kind_.toQualString() + ": output %" + v->debugName() + " still has uses");
  while (!blocks_.empty()) eraseBlock(blocks_.size() - 1);
  removeAllInputs();
  if (prev_) prev_->next_ = next_;
  if (next_) next_->prev_ = prev_;
  prev_ = next_ = nullptr;
  owningBlock_ = nullptr;
  for (Value* v : outputs_) v->setDebugName("");
  graph_->freeNode(this);
}

bool Node::isBefore(const Node* n) const {
  if (this == n) return false;
  // Bring both to the same block by walking up owning nodes.
  auto depth = [](const Node* x) {
    size_t d = 0;
    for (Block* b = x->owningBlock_; b && b->owningNode(); b = b->owningNode()->owningBlock()) ++d;
    return d;
  };
  const Node* a = this;
  const Node* b = n;
  size_t da = depth(a), db = depth(b);
  while (da > db) { a = a->owningBlock_->owningNode(); --da; }
  while (db > da) { b = b->owningBlock_->owningNode(); --db; }
  if (a == b) return false;  // one contains the other
  while (a->owningBlock_ != b->owningBlock_) {
    a = a->owningBlock_->owningNode();
    b = b->owningBlock_->owningNode();
    if (!a || !b) return false;
  }
  if (a == b) return false;  // siblings blocks of the same node: not ordered
  if (a->owningBlock_->topoStale_) a->owningBlock_->renumberTopology();
  return a->topoPosition_ < b->topoPosition_;
}

bool Node::hasSideEffects() const {
  static const Symbol kRaise = Symbol::fromQualString("prim::RaiseException");
  // reads the thread's grad mode, which aten::set_grad_enabled and `with torch.no_grad()` change: never
  // folded or moved (torch registers it with conservative alias analysis)
  static const Symbol kIsGradEnabled = Symbol::fromQualString("aten::is_grad_enabled");
  if (kind_ == prim::Print || kind_ == kRaise || kind_ == kIsGradEnabled || kind_ == prim::SetAttr || kind_ == prim::CallMethod ||
      kind_ == prim::CallFunction || kind_ == prim::Enter || kind_ == prim::Exit || kind_ == prim::fork ||
      kind_ == prim::wait || kind_ == prim::Store || kind_ == prim::IgnoredPythonOp || kind_ == aten::warn ||
      kind_ == aten::manual_seed || kind_ == prim::Param || kind_ == prim::Return)
    return true;
  if (op_ && op_->schema.isMutable()) return true;
  // An operator that returns nothing is only called for its effect (aten::warn, aten::save, ...).
  if (op_ && op_->schema.returns.empty() && !op_->schema.isVarRet) return true;
  for (Block* b : blocks_)
    for (Node* n : *b)
      if (n->hasSideEffects()) return true;
  return false;
}

// ---------------------------------------------------------------- Block

Block::Block(Graph* g, Node* owner) : graph_(g), owningNode_(owner) {
  input_ = g->create(prim::Param, {}, 0);
  output_ = g->create(prim::Return, {}, 0);
  input_->owningBlock_ = this;
  output_->owningBlock_ = this;
  input_->next_ = output_;
  output_->prev_ = input_;
  input_->topoPosition_ = kTopoLow;
  output_->topoPosition_ = kTopoHigh;
}

const std::vector<Value*>& Block::inputs() const { return input_->outputs(); }
const std::vector<Value*>& Block::outputs() const { return output_->inputs(); }

Value* Block::addInput(const std::string& name) {
  Value* v = input_->addOutput();
  if (!name.empty()) v->setDebugName(name);
  return v;
}

Value* Block::insertInput(size_t i, const std::string& name) {
  Value* v = input_->insertOutput(i);
  if (!name.empty()) v->setDebugName(name);
  return v;
}

void Block::eraseInput(size_t i) { input_->eraseOutput(i); }

size_t Block::registerOutput(Value* v) {
  output_->addInput(v);
  return output_->inputs().size() - 1;
}

void Block::insertOutput(size_t i, Value* v) { output_->insertInput(i, v); }
void Block::eraseOutput(size_t i) { output_->removeInput(i); }
void Block::replaceOutput(size_t i, Value* v) { output_->replaceInput(i, v); }

Node* Block::appendNode(Node* n) {
  n->insertBefore(output_);
  return n;
}

Node* Block::prependNode(Node* n) {
  n->insertAfter(input_);
  return n;
}

void Block::cloneFrom(const Block* src, const std::function<Value*(Value*)>& valueMap) {
  std::unordered_map<const Value*, Value*> local;
  auto env = [&](Value* v) -> Value* {
    auto it = local.find(v);
    if (it != local.end()) return it->second;
    return valueMap(v);
  };
  for (Value* in : src->inputs()) local[in] = addInput()->copyMetadata(in);
  for (Node* n : *src) {
    Node* c = graph_->createClone(n, env, true);
    appendNode(c);
    for (size_t i = 0; i < n->outputs().size(); ++i) local[n->outputs()[i]] = c->outputs()[i];
  }
  for (Value* o : src->outputs()) registerOutput(env(o));
}

// ---------------------------------------------------------------- Graph

Graph::Graph() {
  block_ = newBlock(nullptr);
  insertBefore_ = block_->returnNode();
}

Graph::~Graph() {
  // Nodes own their outputs; no use lists need maintaining while everything goes.
  allNodes_.clear();
  allBlocks_.clear();
}

Block* Graph::newBlock(Node* owner) {
  Block* b = new Block(this, owner);
  b->graphIndex_ = allBlocks_.size();
  allBlocks_.emplace_back(b);
  return b;
}

void Graph::freeBlock(Block* b) {
  // Destroy contained nodes back to front so users go before their producers.
  while (!b->outputs().empty()) b->eraseOutput(b->outputs().size() - 1);
  while (!b->empty()) {
    Node* n = b->lastNode();
    for (Value* v : n->outputs()) {
      // Uses from outside a block being erased are a caller bug; drop them defensively.
      while (v->hasUses()) {
        Use u = v->uses().back();
        u.user->removeInput(u.offset);
      }
    }
    n->destroy();
  }
  Node* p = b->paramNode();
  for (Value* v : p->outputs()) {
    while (v->hasUses()) {
      Use u = v->uses().back();
      u.user->removeInput(u.offset);
    }
    v->setDebugName("");
  }
  freeNode(b->output_);
  freeNode(p);
  size_t idx = b->graphIndex_;
  if (idx != allBlocks_.size() - 1) {
    allBlocks_[idx] = std::move(allBlocks_.back());
    allBlocks_[idx]->graphIndex_ = idx;
  }
  allBlocks_.pop_back();
}

void Graph::freeNode(Node* n) {
  if (insertBefore_ == n) insertBefore_ = block_->returnNode();
  size_t idx = n->graphIndex_;
  if (idx >= allNodes_.size() || allNodes_[idx].get() != n) throw InternalError("Graph::freeNode: node not owned by graph");
  for (Value* v : n->outputs_) {
    if (v->hasDebugName()) {
      auto it = uniqueNames_.find(v->uniqueName_);
      if (it != uniqueNames_.end() && it->second == v) uniqueNames_.erase(it);
    }
  }
  if (idx != allNodes_.size() - 1) {
    allNodes_[idx] = std::move(allNodes_.back());
    allNodes_[idx]->graphIndex_ = idx;
  }
  allNodes_.pop_back();
}

Node* Graph::create(Symbol kind, const std::vector<Value*>& inputs, size_t numOutputs) {
  Node* n = new Node(this, kind);
  n->graphIndex_ = allNodes_.size();
  allNodes_.emplace_back(n);
  for (Value* v : inputs) n->addInput(v);
  for (size_t i = 0; i < numOutputs; ++i) n->addOutput();
  return n;
}

Node* Graph::insertNode(Node* n) {
  n->insertBefore(insertBefore_);
  return n;
}

Value* Graph::insertConstant(const IValue& v, const SourceRange& range, TypePtr type) {
  Node* n = create(prim::Constant, {}, 1);
  if (!v.isNone()) n->ival_("value", v);
  if (range.valid()) n->setSourceRange(range);
  if (!type) type = v.type();
  n->output()->setType(std::move(type));
  insertNode(n);
  return n->output();
}

Node* Graph::createClone(Node* n, const std::function<Value*(Value*)>& valueMap, bool copyBlocks) {
  Node* r = create(n->kind(), {}, 0);
  for (Value* o : n->outputs()) r->addOutput()->copyMetadata(o);
  r->copyAttributes(*n);
  r->op_ = n->op_;
  r->callee_ = n->callee_;
  r->range_ = n->range_;
  r->callStack_ = n->callStack_;
  for (Value* i : n->inputs()) r->addInput(valueMap(i));
  if (copyBlocks) {
    for (Block* b : n->blocks()) r->addBlock()->cloneFrom(b, valueMap);
  }
  return r;
}

size_t blockNestingDepth(const Block* block, const Node** deepest) {
  size_t best = 0;
  std::vector<std::pair<const Block*, size_t>> work{{block, 0}};
  while (!work.empty()) {
    auto [b, depth] = work.back();
    work.pop_back();
    for (const Node* n : *b) {
      if (n->blocks().empty()) continue;
      if (depth + 1 > best) {
        best = depth + 1;
        if (deepest) *deepest = n;
      }
      for (const Block* sb : n->blocks()) work.emplace_back(sb, depth + 1);
    }
  }
  return best;
}

std::shared_ptr<Graph> Graph::copy() const {
  auto g = std::make_shared<Graph>();
  std::unordered_map<const Value*, Value*> env;
  auto map = [&](Value* v) -> Value* {
    auto it = env.find(v);
    if (it == env.end()) throw InternalError("Graph::copy: value %" + v->debugName() + " used before definition");
    return it->second;
  };
  g->block()->cloneFrom(block_, map);
  return g;
}

}  // namespace kindling
