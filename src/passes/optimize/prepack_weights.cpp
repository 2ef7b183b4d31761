// Weight packing at load for frozen graphs (see passes/optimize/prepack_weights.h).
#include "passes/optimize/prepack_weights.h"

#include <optional>
#include <unordered_set>

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

/// The index of the `groups` input when `n` is a convolution that reads its weight (input 1) only through
/// its oneDNN primitive's packed copy: aten::conv{1,2,3}d (not the padding-string overloads; groups is input
/// 6) and non-transposed aten::_convolution / aten::convolution (input 8); see convolution() in
/// ops/kernels/conv/conv.h. Nullopt for every other node.
std::optional<size_t> packedConvolutionGroupsInput(const Node* n);
bool isPackedConvolution(const Node* n) { return packedConvolutionGroupsInput(n).has_value(); }

/// True when nothing but packed convolutions can read the weight constant `v` holds (`w`, its tensor): the
/// graph's constant is the only holder of the tensor (as for a weight a load pass folded; never a module's
/// attribute nor a value the graph returns), and every use is a packed convolution's weight.
bool onlyPrimitivesRead(const Value* v, const Tensor& w) {
  if (w.use_count() != 2 || w.storage()->use_count() != 1) return false;  // the constant's and `w`
  for (const Use& u : v->uses())
    if (u.offset != 1 || !isPackedConvolution(u.user)) return false;
  return true;
}

/// Storages some packed weight spans whole. A weight that is only part of its storage (a chunk of a fused
/// projection: MultiheadAttention's in_proj_weight split into q, k and v) is not packed at load when the whole
/// is too: the graph holds both forms on different branches, one runs, and packing the parts as well would
/// hold the bytes twice more. A part that does run is packed by its first call.
using Storages = std::unordered_set<const StorageImpl*>;

bool spansStorage(const Tensor& w) { return w.storage_offset() == 0 && w.nbytes() == w.storage()->nbytes(); }

bool leftToFirstCall(const Tensor& w, const Storages& wholes) {
  return !spansStorage(w) && wholes.count(w.storage().get()) > 0;
}

/// aten::conv{1,2,3}d(input, weight, bias, stride, padding, dilation, groups) and aten::_convolution /
/// aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, ...).
bool prepackConv(const Node* n, const Storages& wholes) {
  std::optional<size_t> groupsArg = packedConvolutionGroupsInput(n);
  if (!groupsArg) return false;
  const Tensor w = constantFloatTensor(n->input(1));
  if (!w.defined() || w.dim() < 3 || w.dim() > 5 || leftToFirstCall(w, wholes)) return false;
  const size_t spatial = static_cast<size_t>(w.dim() - 2);
  bool hasBias = false;
  IntArray stride, padding, dilation;
  auto groups = n->input(*groupsArg)->constantValue();
  if (!constantBias(n->input(2), hasBias) || !constantInts(n->input(3), spatial, stride) ||
      !constantInts(n->input(4), spatial, padding) || !constantInts(n->input(5), spatial, dilation) || !groups ||
      !groups->isInt())
    return false;
  prepackConvolutionWeight(w, hasBias, stride, padding, padding, dilation, groups->toInt(),
                           /*releasePlain=*/onlyPrimitivesRead(n->input(1), w));
  return true;
}

std::optional<size_t> packedConvolutionGroupsInput(const Node* n) {
  static const Symbol c1 = Symbol::fromQualString("aten::conv1d");
  static const Symbol c2 = Symbol::fromQualString("aten::conv2d");
  static const Symbol c3 = Symbol::fromQualString("aten::conv3d");
  static const Symbol underscore = Symbol::fromQualString("aten::_convolution");
  static const Symbol convolution = Symbol::fromQualString("aten::convolution");
  const FunctionSchema* s = n->schema();
  if (!s) return std::nullopt;
  const Symbol k = n->kind();
  if (k == c1 || k == c2 || k == c3) {
    if (s->overloadName.empty() && n->inputs().size() == 7) return 6;
    return std::nullopt;
  }
  if ((k != underscore && k != convolution) || n->inputs().size() < 9) return std::nullopt;
  auto transposed = n->input(6)->constantValue();
  if (!transposed || !transposed->isBool() || transposed->toBool()) return std::nullopt;
  return 8;
}

/// aten::linear(input, weight, bias)
bool prepackLinear(const Node* n, const Storages& wholes) {
  static const Symbol linear = Symbol::fromQualString("aten::linear");
  if (n->kind() != linear || !n->schema() || n->inputs().size() != 3) return false;
  const Tensor w = constantFloatTensor(n->input(1));
  bool hasBias = false;
  if (!w.defined() || w.dim() != 2 || !constantBias(n->input(2), hasBias) || leftToFirstCall(w, wholes)) return false;
  prepackLinearWeight(w, hasBias);
  return true;
}

/// The storages of the constant float32 weights (input 1) of convolutions and linears that span them whole.
void collectWholes(const Block* b, Storages& wholes) {
  static const Symbol linear = Symbol::fromQualString("aten::linear");
  for (const Node* node : *b) {
    for (const Block* sb : node->blocks()) collectWholes(sb, wholes);
    if (node->inputs().size() < 2 || (node->kind() != linear && !isPackedConvolution(node))) continue;
    const Tensor w = constantFloatTensor(node->input(1));
    if (w.defined() && spansStorage(w)) wholes.insert(w.storage().get());
  }
}

size_t prepackBlock(Block* b, const Storages& wholes) {
  size_t n = 0;
  for (Node* node : *b) {
    for (Block* sb : node->blocks()) n += prepackBlock(sb, wholes);
    if (prepackConv(node, wholes) || prepackLinear(node, wholes)) ++n;
  }
  return n;
}

}  // namespace

size_t prepackWeights(Graph& graph) {
  Storages wholes;
  collectWholes(graph.block(), wholes);
  return prepackBlock(graph.block(), wholes);
}

}  // namespace kindling
