// Weight packing at load for frozen graphs (see passes/optimize/prepack_weights.h).
#include "passes/optimize/prepack_weights.h"

#include "ops/kernels/conv/conv.h"
#include "ops/kernels/linalg/linalg.h"
#include "tensor/tensor.h"

namespace kindling {

namespace {

/// The constant float32 tensor a value holds, or an undefined tensor.
Tensor constantFloatTensor(const Value* v) {
  auto c = v->constantValue();
  if (!c || !c->isTensor()) return Tensor();
  Tensor t = c->toTensor();
  return t.defined() && t.dtype() == ScalarType::Float ? t : Tensor();
}

/// A constant int list (or int, broadcast) with `n` entries, as the convolution kernels expand it.
bool constantInts(const Value* v, size_t n, IntArray& out) {
  auto c = v->constantValue();
  if (!c) return false;
  if (c->isInt()) {
    out.assign(n, c->toInt());
    return true;
  }
  if (!c->isList()) return false;
  out.clear();
  for (const IValue& e : c->toListRef().elements) {
    if (!e.isInt()) return false;
    out.push_back(e.toInt());
  }
  if (out.size() == 1) out.assign(n, out[0]);
  return out.size() == n;
}

/// Bias: a constant tensor or None.
bool constantBias(const Value* v, bool& hasBias) {
  auto c = v->constantValue();
  if (!c) return false;
  hasBias = c->isTensor() && c->toTensor().defined();
  return hasBias || c->isNone();
}

/// aten::conv{1,2,3}d(input, weight, bias, stride, padding, dilation, groups) and aten::_convolution /
/// aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, ...).
bool prepackConv(const Node* n) {
  static const Symbol c1 = Symbol::fromQualString("aten::conv1d");
  static const Symbol c2 = Symbol::fromQualString("aten::conv2d");
  static const Symbol c3 = Symbol::fromQualString("aten::conv3d");
  static const Symbol underscore = Symbol::fromQualString("aten::_convolution");
  static const Symbol convolution = Symbol::fromQualString("aten::convolution");
  const FunctionSchema* s = n->schema();
  if (!s) return false;
  const Symbol k = n->kind();
  size_t groupsArg;
  if ((k == c1 || k == c2 || k == c3) && s->overloadName.empty() && n->inputs().size() == 7) {
    groupsArg = 6;
  } else if ((k == underscore || k == convolution) && n->inputs().size() >= 9) {
    auto transposed = n->input(6)->constantValue();
    if (!transposed || !transposed->isBool() || transposed->toBool()) return false;
    groupsArg = 8;
  } else {
    return false;
  }
  const Tensor w = constantFloatTensor(n->input(1));
  if (!w.defined() || w.dim() < 3 || w.dim() > 5) return false;
  const size_t spatial = static_cast<size_t>(w.dim() - 2);
  bool hasBias = false;
  IntArray stride, padding, dilation;
  auto groups = n->input(groupsArg)->constantValue();
  if (!constantBias(n->input(2), hasBias) || !constantInts(n->input(3), spatial, stride) ||
      !constantInts(n->input(4), spatial, padding) || !constantInts(n->input(5), spatial, dilation) || !groups ||
      !groups->isInt())
    return false;
  prepackConvolutionWeight(w, hasBias, stride, padding, padding, dilation, groups->toInt());
  return true;
}

/// aten::linear(input, weight, bias)
bool prepackLinear(const Node* n) {
  static const Symbol linear = Symbol::fromQualString("aten::linear");
  if (n->kind() != linear || !n->schema() || n->inputs().size() != 3) return false;
  const Tensor w = constantFloatTensor(n->input(1));
  bool hasBias = false;
  if (!w.defined() || w.dim() != 2 || !constantBias(n->input(2), hasBias)) return false;
  prepackLinearWeight(w, hasBias);
  return true;
}

size_t prepackBlock(Block* b) {
  size_t n = 0;
  for (Node* node : *b) {
    for (Block* sb : node->blocks()) n += prepackBlock(sb);
    if (prepackConv(node) || prepackLinear(node)) ++n;
  }
  return n;
}

}  // namespace

size_t prepackWeights(Graph& graph) { return prepackBlock(graph.block()); }

}  // namespace kindling
