// Conv + add + activation fusion (see passes/optimize/fuse_conv_activation.h).
#include "passes/optimize/fuse_conv_activation.h"

#include "ops/kernels/conv/conv.h"
#include "ops/registry/schema_parser.h"
#include "tensor/tensor.h"

namespace kindling {

namespace {

IntArray expand(const IValue& v, size_t n) {
  IntArray a = v.toIntVector();
  if (a.size() == 1 && n > 1) a.assign(n, a[0]);
  KD_CHECK(a.size() == n, "expected {} values but got {}", n, a.size());
  return a;
}

void callOp(const char* name, Stack& s) {
  const Operator* op = OperatorRegistry::global().find(name);
  KD_CHECK(op != nullptr, "operator {} is not registered", name);
  op->fn(s);
}

// Pops the 11 arguments of kindling::conv_fused and pushes the result.
void convFusedKernel(Stack& stack) {
  double hi = pop(stack).toDouble();
  double lo = pop(stack).toDouble();
  int64_t act = pop(stack).toInt();
  IValue residualV = pop(stack);
  int64_t groups = pop(stack).toInt();
  IValue dilationV = pop(stack), paddingV = pop(stack), strideV = pop(stack);
  IValue biasV = pop(stack);
  Tensor weight = pop(stack).toTensor();
  Tensor input = pop(stack).toTensor();
  size_t spatial = weight.dim() >= 3 ? static_cast<size_t>(weight.dim() - 2) : 1;
  IntArray stride = expand(strideV, spatial), padding = expand(paddingV, spatial), dilation = expand(dilationV, spatial);
  Tensor bias = biasV.isNone() ? Tensor() : biasV.toTensor();
  Tensor residual = residualV.isNone() ? Tensor() : residualV.toTensor();
  bool fusable = input.dtype() == ScalarType::Float && weight.dtype() == ScalarType::Float &&
                 input.dim() == weight.dim() && (!residual.defined() || residual.dtype() == ScalarType::Float);
  if (fusable && residual.defined()) {
    // Expected output shape of a non-transposed convolution.
    IntArray out{input.size(0), weight.size(0)};
    for (size_t k = 0; k < spatial; ++k) {
      int64_t in = input.size(static_cast<int64_t>(2 + k)), kk = weight.size(static_cast<int64_t>(2 + k));
      out.push_back((in + 2 * padding[k] - dilation[k] * (kk - 1) - 1) / stride[k] + 1);
    }
    fusable = residual.sizes() == out;
  }
  if (fusable) {
    ConvPostOp post;
    post.residual = residual;
    post.act = act == 1 ? ConvPostOp::Act::Relu : act == 2 ? ConvPostOp::Act::Clamp : ConvPostOp::Act::None;
    post.lo = static_cast<float>(lo);
    post.hi = static_cast<float>(hi);
    push(stack, convolution(input, weight, bias, stride, padding, padding, dilation, groups, post));
    return;
  }
  // Unfused: exactly the ops the pattern replaced.
  Tensor y = convolution(input, weight, bias, stride, padding, padding, dilation, groups);
  if (residual.defined()) {
    push(stack, y, residual, IValue(int64_t(1)));
    callOp("aten::add_.Tensor", stack);
    y = pop(stack).toTensor();
  }
  if (act == 1) {
    push(stack, y);
    callOp("aten::relu_", stack);
    y = pop(stack).toTensor();
  } else if (act == 2) {
    push(stack, y, IValue(lo), IValue(hi));
    callOp("aten::hardtanh_", stack);
    y = pop(stack).toTensor();
  }
  push(stack, y);
}

const Operator* convFusedOperator() {
  static const Operator* op = [] {
    auto* o = new Operator{parseSchema("kindling::conv_fused(Tensor input, Tensor weight, Tensor? bias, int[] stride, "
                                       "int[] padding, int[] dilation, int groups, Tensor? residual, int act, "
                                       "float lo, float hi) -> Tensor"),
                           convFusedKernel};
    return o;
  }();
  return op;
}

std::optional<IValue> constantOf(const Value* v) { return v->constantValue(); }

// The conv node's (input, weight, bias, stride, padding, dilation, groups), or false.
bool convArgs(const Node* n, std::vector<Value*>& args) {
  const FunctionSchema* s = n->schema();
  if (!s) return false;
  Symbol k = n->kind();
  if ((k == aten::conv1d || k == aten::conv2d || k == aten::conv3d) && s->overloadName.empty()) {
  } else if (k == aten::_convolution) {
    auto transposed = constantOf(n->namedInput("transposed"));
    if (!transposed || !transposed->isBool() || transposed->toBool()) return false;
  } else {
    return false;
  }
  args.clear();
  for (const char* name : {"input", "weight", "bias", "stride", "padding", "dilation", "groups"})
    args.push_back(n->namedInput(name));
  return true;
}

bool metadataOnly(const Node* user) {
  Symbol k = user->kind();
  return k == aten::dim || k == aten::size || k == prim::dtype || k == prim::device;
}

// The single non-metadata user of v, or nullptr.
Node* soleUser(const Value* v) {
  Node* r = nullptr;
  for (const Use& u : v->uses()) {
    if (metadataOnly(u.user)) continue;
    if (r) return nullptr;
    r = u.user;
  }
  return r;
}

// Activation kind of n applied to its input 0: 1 relu, 2 clamp (lo/hi set); 0 when n is not one.
int activationOf(const Node* n, double& lo, double& hi) {
  if (!n->op()) return 0;
  Symbol k = n->kind();
  if (k == aten::relu || k == aten::relu_) return 1;
  if (k == aten::hardtanh || k == aten::hardtanh_) {
    auto a = constantOf(n->namedInput("min_val")), b = constantOf(n->namedInput("max_val"));
    if (!a || !b || !a->isScalar() || !b->isScalar()) return 0;
    lo = a->toScalar().toDouble();
    hi = b->toScalar().toDouble();
    return 2;
  }
  return 0;
}

// add / add_ (Tensor overload, alpha constant 1) with `x` as one operand: returns the other operand.
Value* residualOf(const Node* n, const Value* x) {
  const FunctionSchema* s = n->schema();
  if (!s || s->overloadName != "Tensor") return nullptr;
  if (n->kind() != aten::add && n->kind() != aten::add_) return nullptr;
  auto alpha = constantOf(n->namedInput("alpha"));
  if (!alpha || !alpha->isScalar() || alpha->toScalar().toDouble() != 1.0) return nullptr;
  Value* self = n->namedInput("self");
  Value* other = n->namedInput("other");
  if (self == x && other != x) return other;
  if (n->kind() == aten::add && other == x && self != x) return self;
  return nullptr;
}

// True when n may write memory other nodes read (in-place operators, calls, attribute writes).
bool mayMutate(const Node* n) {
  if (n->op() && n->op()->schema.isMutable()) return true;
  Symbol k = n->kind();
  if (k == prim::CallMethod || k == prim::CallFunction || k == prim::SetAttr || k == prim::fork || k == prim::Enter ||
      k == prim::Exit)
    return true;
  for (const Block* b : n->blocks())
    for (const Node* m : *b)
      if (mayMutate(m)) return true;
  return false;
}

// Makes v available before `point` (same block) by moving its producer — and, recursively, the producers
// of that node's inputs — up before `point`, when they are constants or pure operator nodes without
// blocks and nothing between `point` and them may mutate their inputs. ResNet's downsample branch is
// computed after the block's second conv but is the residual of its add.
bool hoistBefore(Value* v, Node* point, int depth = 0) {
  Node* p = v->node();
  if (p->kind() == prim::Param) return true;
  if (p->owningBlock() != point->owningBlock()) return p->owningBlock() != nullptr && !point->isBefore(p);
  if (p == point) return false;
  if (p->isBefore(point)) return true;
  if (depth > 8) return false;
  if (p->kind() != prim::Constant) {
    if (!p->op() || !p->blocks().empty() || p->hasSideEffects()) return false;
    for (Node* m = point; m != p; m = m->next())
      if (mayMutate(m)) return false;
  }
  for (Value* in : p->inputs())
    if (!hoistBefore(in, point, depth + 1)) return false;
  p->moveBefore(point);
  return true;
}

bool fuseAt(Graph& g, Node* conv, bool withResidual) {
  std::vector<Value*> args;
  if (!convArgs(conv, args)) return false;
  Value* y = conv->output();
  Node* next = soleUser(y);
  if (!next || next->owningBlock() != conv->owningBlock()) return false;
  Value* residual = nullptr;
  Node* last = nullptr;  // node whose output the fused node replaces
  Node* addNode = nullptr;
  Node* actNode = nullptr;
  double lo = 0, hi = 0;
  int act = activationOf(next, lo, hi);
  if (act) {
    actNode = next;
    last = next;
  } else if (withResidual && (residual = residualOf(next, y))) {
    addNode = next;
    last = next;
    Node* after = soleUser(next->output());
    if (after && after->owningBlock() == conv->owningBlock() && activationOf(after, lo, hi)) {
      act = activationOf(after, lo, hi);
      actNode = after;
      last = after;
      // Nothing else may use the add's result (relu_ writes the same tensor; relu makes a new one).
      for (const Use& u : next->output()->uses())
        if (u.user != after && !metadataOnly(u.user)) return false;
    }
  } else {
    return false;
  }
  // The fused node replaces the conv, so the residual must be computed before it.
  if (residual && !hoistBefore(residual, conv)) return false;
  WithInsertPoint guard(conv);
  std::vector<Value*> inputs = args;
  inputs.push_back(residual ? residual : g.insertConstant(IValue(), {}, OptionalType::create(TensorType())));
  inputs.push_back(g.insertConstant(IValue(int64_t(act))));
  inputs.push_back(g.insertConstant(IValue(lo)));
  inputs.push_back(g.insertConstant(IValue(hi)));
  Node* fused = g.create(Symbol::fromQualString("kindling::conv_fused"), inputs, 1);
  fused->setOp(convFusedOperator());
  fused->setSourceRange(conv->sourceRange());
  fused->insertBefore(conv);
  Value* out = fused->output();
  out->setType(TensorType());
  std::string name = last->output()->hasDebugName() ? last->output()->debugName() : "";
  // Every value of the chain (conv output, add result, act result) is the fused output now.
  if (actNode) actNode->output()->replaceAllUsesWith(out);
  if (addNode) addNode->output()->replaceAllUsesWith(out);
  y->replaceAllUsesWith(out);
  if (actNode) actNode->destroy();
  if (addNode) addNode->destroy();
  conv->destroy();
  if (!name.empty()) out->setDebugName(name);
  return true;
}

size_t fuseBlock(Graph& g, Block* b, bool withResidual) {
  size_t n = 0;
  for (auto it = b->begin(); it != b->end();) {
    Node* node = *it++;
    for (Block* sb : node->blocks()) n += fuseBlock(g, sb, withResidual);
    if (fuseAt(g, node, withResidual)) {
      ++n;
      it = Block::iterator(b->begin());  // the chain's nodes are gone; restart (cheap: patterns are local)
    }
  }
  return n;
}

}  // namespace

size_t fuseConvActivation(Graph& graph, bool withResidual) { return fuseBlock(graph, graph.block(), withResidual); }

}  // namespace kindling
