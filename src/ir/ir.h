// The TorchScript IR (torch/csrc/jit/ir/ir.h): an SSA graph of Nodes in nested Blocks.
//
//   Graph  — owns every Node and Value; has one top Block.
//   Block  — a list of Nodes with block inputs (a Param node's outputs) and outputs (a Return node's
//            inputs). prim::If has two blocks; prim::Loop one (inputs: iteration, carried; outputs:
//            continue-condition, carried).
//   Node   — kind (Symbol), inputs, outputs, attributes, nested blocks, optional SourceRange; for
//            operator calls the resolved `const Operator*`; for prim::CallFunction/CallMethod the callee.
//   Value  — produced by exactly one Node (or a block's Param), has a Type, a unique name ("x.1") and uses.
//
// Printing (ir/printer.h) follows PyTorch's textual format so graphs diff against print(fn.graph).
#pragma once
#include <functional>
#include <iterator>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/function.h"
#include "core/internal_error.h"
#include "core/ivalue.h"
#include "core/type.h"
#include "ir/symbol.h"
#include "ops/registry/operator.h"

namespace kindling {

class Graph;
class Block;
class Node;
class Value;

/// One call an inlined node was inlined through: the callee's qualified name and the call's source range
/// in its caller.
struct InlinedFrame {
  std::string callee;
  SourceRange callSite;
  const Function* function = nullptr;  // the callee, when known (the inliner's recursion check)
};

/// Where an inlined node came from (PyTorch's InlinedCallStack): the calls it was inlined through, as an
/// immutable list from the innermost call outward whose outer parts are shared. Inlining a call gives
/// the callee's nodes a new innermost frame pointing at the call node's own stack, in O(1), so a chain of
/// N nested calls costs one frame per call rather than a copy of the whole stack per node.
struct InlinedCallStack {
  InlinedFrame frame;                              // the innermost call
  std::shared_ptr<const InlinedCallStack> caller;  // the calls around it (null: called by the graph's function)
  InlinedCallStack(InlinedFrame f, std::shared_ptr<const InlinedCallStack> c) : frame(std::move(f)), caller(std::move(c)) {}
  InlinedCallStack(const InlinedCallStack&) = delete;
  InlinedCallStack& operator=(const InlinedCallStack&) = delete;
  /// Frees the callers this stack alone holds one by one (a stack may be thousands of calls deep).
  ~InlinedCallStack();
  /// The frames, outermost first.
  std::vector<const InlinedFrame*> frames() const {
    std::vector<const InlinedFrame*> r;
    for (const InlinedCallStack* s = this; s; s = s->caller.get()) r.push_back(&s->frame);
    return std::vector<const InlinedFrame*>(r.rbegin(), r.rend());
  }
};

struct Use {
  Node* user;
  size_t offset;  // input index in user
  bool operator==(const Use& o) const { return user == o.user && offset == o.offset; }
};

class Value {
 public:
  Node* node() const { return node_; }
  size_t offset() const { return offset_; }
  const TypePtr& type() const { return type_; }
  Value* setType(TypePtr t) { type_ = std::move(t); return this; }
  const std::vector<Use>& uses() const { return uses_; }
  bool hasUses() const { return !uses_.empty(); }
  /// Unique name within the graph: "x.1", or the numeric id ("12") when no debug name was set.
  std::string debugName() const;
  bool hasDebugName() const { return !uniqueName_.empty(); }
  /// Sets the debug name with PyTorch's rule (Value::setDebugName in torch/csrc/jit/ir/ir.cpp): the value
  /// takes `name`; if another value already has it, THAT value is renamed to "<base>.<N>" (base = name
  /// without a trailing ".<digits>", N the next free suffix for base). So a later value named "x" takes
  /// "x" and the earlier one becomes "x.1" — emit like PyTorch and the names match print(fn.graph).
  /// "" clears the name; all-digit names are rejected (Error). Names are freed when the value dies.
  Value* setDebugName(const std::string& name);
  /// Copies type and debug name (the name goes through setDebugName) from `from`.
  Value* copyMetadata(const Value* from);
  size_t unique() const { return unique_; }
  Graph* owningGraph() const;
  /// Replaces every use of this value by v.
  void replaceAllUsesWith(Value* v);
  /// If produced by prim::Constant, its value.
  std::optional<IValue> constantValue() const;
 private:
  friend class Node;
  friend class Graph;
  friend class Block;
  Value(Node* n, size_t offset, size_t unique) : node_(n), offset_(offset), unique_(unique) {}
  Node* node_;
  size_t offset_;
  size_t unique_;
  TypePtr type_;
  std::string uniqueName_;
  std::vector<Use> uses_;
};

class Node {
 public:
  Symbol kind() const { return kind_; }
  Graph* owningGraph() const { return graph_; }
  Block* owningBlock() const { return owningBlock_; }
  const std::vector<Value*>& inputs() const { return inputs_; }
  const std::vector<Value*>& outputs() const { return outputs_; }
  Value* input(size_t i) const { return inputs_.at(i); }
  Value* output(size_t i = 0) const { return outputs_.at(i); }
  Value* addInput(Value* v);
  Value* insertInput(size_t i, Value* v);
  void replaceInput(size_t i, Value* v);
  void replaceInputWith(Value* from, Value* to);
  void removeInput(size_t i);
  void removeAllInputs();
  Value* addOutput();
  Value* insertOutput(size_t i);
  void eraseOutput(size_t i);
  const std::vector<Block*>& blocks() const { return blocks_; }
  Block* block(size_t i = 0) const { return blocks_.at(i); }
  Block* addBlock();
  void eraseBlock(size_t i);

  // --- attributes (names like "value", "name") ---
  bool hasAttribute(const std::string& name) const { return attrs_.count(name) != 0; }
  Node* ival_(const std::string& name, IValue v);
  const IValue& ival(const std::string& name) const;
  Node* s_(const std::string& name, std::string v) { return ival_(name, IValue(std::move(v))); }
  const std::string& s(const std::string& name) const { return ival(name).toStringRef(); }
  Node* i_(const std::string& name, int64_t v) { return ival_(name, IValue(v)); }
  int64_t i(const std::string& name) const { return ival(name).toInt(); }
  Node* ty_(const std::string& name, TypePtr t);
  const TypePtr& ty(const std::string& name) const;
  bool hasTypeAttribute(const std::string& name) const { return typeAttrs_.count(name) != 0; }
  /// Type-list attributes: prim::isinstance[types=[int, float]] stores its candidate types as
  /// tys_("types", {...}) (printed "types=[int, float]").
  Node* tys_(const std::string& name, std::vector<TypePtr> ts);
  const std::vector<TypePtr>& tys(const std::string& name) const;
  bool hasTypeListAttribute(const std::string& name) const { return typeListAttrs_.count(name) != 0; }
  void removeAttribute(const std::string& name);
  /// Attribute names in insertion order (for printing).
  const std::vector<std::string>& attributeNames() const { return attrOrder_; }
  void copyAttributes(const Node& other);

  // --- resolution done by the frontend ---
  /// The resolved operator for aten::/prim:: operator calls (nullptr for structural nodes).
  const Operator* op() const { return op_; }
  Node* setOp(const Operator* op) { op_ = op; return this; }
  /// Callee for prim::CallFunction (the function) — methods are found by name on the self type.
  /// Convention (as PyTorch): prim::CallFunction's input 0 is a `Function`-typed prim::Constant[name="f"]
  /// (type FunctionType(f)); callee() returns the callee set here, or else input 0's FunctionType function.
  Function* callee() const;
  Node* setCallee(Function* f) { callee_ = f; return this; }

  const SourceRange& sourceRange() const { return range_; }
  Node* setSourceRange(SourceRange r) { range_ = std::move(r); return this; }
  /// Calls this node was inlined through (null when it was not inlined); copied by createClone.
  const std::shared_ptr<const InlinedCallStack>& inlinedCallStack() const { return callStack_; }
  Node* setInlinedCallStack(std::shared_ptr<const InlinedCallStack> cs) { callStack_ = std::move(cs); return this; }

  // --- list position ---
  Node* next() const { return next_; }
  Node* prev() const { return prev_; }
  void insertBefore(Node* n);  // inserts this before n
  void insertAfter(Node* n);   // inserts this after n
  void moveBefore(Node* n);
  void moveAfter(Node* n);
  /// Removes the node from its block and deletes it; its outputs must have no uses.
  void destroy();
  /// True if this node is before n in the same block (topological position).
  bool isBefore(const Node* n) const;
  /// True for nodes whose removal would change behaviour (mutation, raise, print, calls...).
  bool hasSideEffects() const;
  /// The resolved operator's schema, or nullptr.
  const FunctionSchema* schema() const { return op_ ? &op_->schema : nullptr; }
  /// The input passed for the bound schema's argument `name` (PyTorch's Node::namedInput):
  /// `bn->namedInput("running_var")` for aten::batch_norm. InternalError when the node is unbound or its
  /// schema has no such argument (a pass asking for it is wrong), or the node has fewer inputs.
  Value* namedInput(const std::string& name) const;
  /// The input index of the bound schema's argument `name` (same errors as namedInput): for
  /// replaceInput(namedInputIndex("weight"), w).
  size_t namedInputIndex(const std::string& name) const;
  /// Whether the bound schema has an argument `name` (false when unbound).
  bool hasNamedInput(const std::string& name) const;
  /// Replaces all uses of output i with the corresponding output of n (same count).
  void replaceAllUsesWith(Node* n);

 private:
  friend class Graph;
  friend class Block;
  friend class Value;
  friend struct std::default_delete<Node>;
  Node(Graph* g, Symbol kind);
  ~Node();
  Graph* graph_;
  Block* owningBlock_ = nullptr;
  Symbol kind_;
  std::vector<Value*> inputs_;
  std::vector<Value*> outputs_;
  std::vector<Block*> blocks_;
  std::unordered_map<std::string, IValue> attrs_;
  std::unordered_map<std::string, TypePtr> typeAttrs_;
  std::unordered_map<std::string, std::vector<TypePtr>> typeListAttrs_;
  std::vector<std::string> attrOrder_;
  size_t graphIndex_ = 0;  // position in Graph::allNodes_
  const Operator* op_ = nullptr;
  Function* callee_ = nullptr;
  SourceRange range_;
  std::shared_ptr<const InlinedCallStack> callStack_;
  Node* next_ = nullptr;
  Node* prev_ = nullptr;
  mutable int64_t topoPosition_ = 0;
};

class Block {
 public:
  Graph* owningGraph() const { return graph_; }
  Node* owningNode() const { return owningNode_; }
  const std::vector<Value*>& inputs() const;
  const std::vector<Value*>& outputs() const;
  Value* addInput(const std::string& name = "");
  Value* insertInput(size_t i, const std::string& name = "");
  void eraseInput(size_t i);
  size_t registerOutput(Value* v);
  void insertOutput(size_t i, Value* v);
  void eraseOutput(size_t i);
  void replaceOutput(size_t i, Value* v);
  Node* paramNode() const { return input_; }
  Node* returnNode() const { return output_; }

  /// Iteration over the nodes (excluding Param and Return), safe against erasing the current node
  /// when using `for (auto it = b->begin(); it != b->end();) { Node* n = *it++; ... }`.
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Node*;
    using difference_type = std::ptrdiff_t;
    using pointer = Node* const*;
    using reference = Node*;
    iterator() : n_(nullptr) {}
    explicit iterator(Node* n) : n_(n) {}
    Node* operator*() const { return n_; }
    iterator& operator++() { n_ = n_->next(); return *this; }
    iterator operator++(int) { iterator r = *this; n_ = n_->next(); return r; }
    bool operator==(const iterator& o) const { return n_ == o.n_; }
    bool operator!=(const iterator& o) const { return n_ != o.n_; }
   private:
    Node* n_;
  };
  iterator begin() const { return iterator(input_->next()); }
  iterator end() const { return iterator(output_); }
  /// Appends n at the end of the block (before Return).
  Node* appendNode(Node* n);
  Node* prependNode(Node* n);
  /// Clones src's inputs, nodes and outputs into this (empty) block; valueMap maps outer values.
  void cloneFrom(const Block* src, const std::function<Value*(Value*)>& valueMap);
  /// Reverse iteration helpers: last node (or paramNode() when empty).
  Node* lastNode() const { return output_->prev(); }
  bool empty() const { return input_->next() == output_; }

 private:
  friend class Graph;
  friend class Node;
  Block(Graph* g, Node* owner);
  // Spaces the nodes' topological positions evenly again (see Node::insertAfter).
  void renumberTopology() const;
  size_t graphIndex_ = 0;
  mutable bool topoStale_ = false;  // positions need renumbering before the next comparison
  Graph* graph_;
  Node* owningNode_;
  Node* input_;   // prim::Param
  Node* output_;  // prim::Return
};

class Graph {
 public:
  Graph();
  ~Graph();
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  Block* block() const { return block_; }
  const std::vector<Value*>& inputs() const { return block_->inputs(); }
  const std::vector<Value*>& outputs() const { return block_->outputs(); }
  Value* addInput(const std::string& name = "") { return block_->addInput(name); }
  size_t registerOutput(Value* v) { return block_->registerOutput(v); }

  /// Creates a node (not yet inserted) with the given inputs and `numOutputs` outputs.
  Node* create(Symbol kind, const std::vector<Value*>& inputs = {}, size_t numOutputs = 1);
  /// Creates and inserts at the insertion point.
  Node* insertNode(Node* n);
  Node* insert(Symbol kind, const std::vector<Value*>& inputs = {}, size_t numOutputs = 1) {
    return insertNode(create(kind, inputs, numOutputs));
  }
  /// Inserts (at the insertion point) a prim::Constant for v and returns its output, typed from v.
  Value* insertConstant(const IValue& v, const SourceRange& range = {}, TypePtr type = nullptr);

  /// New nodes go before `n` (default: the end of the top block).
  void setInsertPoint(Node* n) { insertBefore_ = n; }
  void setInsertPoint(Block* b) { insertBefore_ = b->returnNode(); }
  Node* insertPoint() const { return insertBefore_; }

  /// Copies of nodes from other graphs: `valueMap` maps other graph's values to this graph's.
  Node* createClone(Node* n, const std::function<Value*(Value*)>& valueMap, bool copyBlocks = true);
  /// Deep copy.
  std::shared_ptr<Graph> copy() const;

  /// Text in PyTorch's format (see ir/printer.h).
  std::string toString(bool printSourceLocations = true) const;
  /// The graph verifier (ir/lint.h lists its rules): returns when the IR invariants hold, else throws
  /// InternalError naming the rule and printing the offending node.
  void lint() const;

  /// Internal: name bookkeeping and unique ids.
  size_t nextUnique() { return nextUnique_++; }
  std::unordered_map<std::string, Value*>& uniqueNames() { return uniqueNames_; }
  void freeNode(Node* n);
  /// Number of live nodes (including Param/Return nodes of every block).
  size_t numNodes() const { return allNodes_.size(); }

 private:
  Block* newBlock(Node* owner);
  void freeBlock(Block* b);
  Block* block_;
  Node* insertBefore_;
  size_t nextUnique_ = 0;
  std::unordered_map<std::string, Value*> uniqueNames_;
  std::unordered_map<std::string, size_t> nameBaseSuffix_;
  std::vector<std::unique_ptr<Node>> allNodes_;     // owner; destroyed nodes are freed lazily
  std::vector<std::unique_ptr<Block>> allBlocks_;
  friend class Node;
  friend class Block;
  friend class Value;
};

/// How deeply blocks nest in `block` (0 when no node in it has blocks; prim::If in prim::If is 2), found
/// without recursion. `deepest`, when given, receives a node owning a block at that depth.
size_t blockNestingDepth(const Block* block, const Node** deepest = nullptr);

/// RAII: sets the graph's insertion point, restores it on scope exit.
class WithInsertPoint {
 public:
  explicit WithInsertPoint(Node* n) : g_(n->owningGraph()), prev_(g_->insertPoint()) { g_->setInsertPoint(n); }
  explicit WithInsertPoint(Block* b) : g_(b->owningGraph()), prev_(g_->insertPoint()) { g_->setInsertPoint(b); }
  ~WithInsertPoint() { g_->setInsertPoint(prev_); }
 private:
  Graph* g_;
  Node* prev_;
};

}  // namespace kindling
