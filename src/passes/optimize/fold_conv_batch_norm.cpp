// Conv + BatchNorm folding (see passes/optimize/fold_conv_batch_norm.h).
#include "passes/optimize/fold_conv_batch_norm.h"

#include <cmath>

#include "tensor/tensor.h"

namespace kindling {

namespace {

std::optional<IValue> constantOf(const Value* v) { return v->constantValue(); }

// aten::conv{1,2,3}d(input, weight, bias, stride, padding, dilation, groups) (not the `padding: str`
// overloads), or aten::_convolution with transposed=False.
bool isConv(const Node* n) {
  const FunctionSchema* s = n->schema();
  if (!s) return false;
  Symbol k = n->kind();
  if ((k == aten::conv1d || k == aten::conv2d || k == aten::conv3d) && s->overloadName.empty()) return true;
  if (k == aten::_convolution) {
    auto transposed = constantOf(n->namedInput("transposed"));
    return transposed && transposed->isBool() && !transposed->toBool();
  }
  return false;
}

// Tensor values as doubles, in contiguous order (one dtype-converting copy).
std::vector<double> toDoubles(const Tensor& t) {
  Tensor c = t.to(ScalarType::Double).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

bool foldOne(Graph& g, Node* bn) {
  if (bn->kind() != aten::batch_norm || !bn->schema()) return false;
  Value* y = bn->namedInput("input");
  Node* conv = y->node();
  if (!isConv(conv)) return false;
  // Other uses may only read metadata (BatchNorm's _check_input_dim calls input.dim()): the folded conv
  // output has the same shape, dtype and device.
  for (const Use& u : y->uses()) {
    if (u.user == bn) continue;
    Symbol k = u.user->kind();
    if (k != aten::dim && k != aten::size && k != prim::dtype && k != prim::device) return false;
  }
  auto training = constantOf(bn->namedInput("training"));
  auto eps = constantOf(bn->namedInput("eps"));
  auto gamma = constantOf(bn->namedInput("weight")), beta = constantOf(bn->namedInput("bias"));
  auto mean = constantOf(bn->namedInput("running_mean")), var = constantOf(bn->namedInput("running_var"));
  auto w = constantOf(conv->namedInput("weight")), b = constantOf(conv->namedInput("bias"));
  if (!training || !training->isBool() || training->toBool()) return false;
  if (!eps || !(eps->isDouble() || eps->isInt())) return false;
  if (!mean || !mean->isTensor() || !var || !var->isTensor() || !w || !w->isTensor()) return false;
  if (!gamma || !(gamma->isTensor() || gamma->isNone()) || !beta || !(beta->isTensor() || beta->isNone())) return false;
  if (!b || !(b->isTensor() || b->isNone())) return false;
  Tensor W = w->toTensor();
  ScalarType dt = W.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) return false;
  int64_t outC = W.dim() > 0 ? W.size(0) : 0;
  auto channels = [&](const std::optional<IValue>& v) { return v->isNone() || v->toTensor().numel() == outC; };
  if (outC == 0 || !channels(gamma) || !channels(beta) || !channels(mean) || !channels(var) || !channels(b)) return false;

  double e = eps->isDouble() ? eps->toDouble() : static_cast<double>(eps->toInt());
  std::vector<double> m = toDoubles(mean->toTensor()), v = toDoubles(var->toTensor());
  std::vector<double> ga = gamma->isNone() ? std::vector<double>(outC, 1.0) : toDoubles(gamma->toTensor());
  std::vector<double> be = beta->isNone() ? std::vector<double>(outC, 0.0) : toDoubles(beta->toTensor());
  std::vector<double> bias = b->isNone() ? std::vector<double>(outC, 0.0) : toDoubles(b->toTensor());
  // The weight is read in its own dtype (no full-size double copy: a transient the size of the largest
  // weight twice over would stay in the process's peak memory).
  const Tensor Wc = W.contiguous();
  int64_t per = W.numel() / outC;
  Tensor newW = Tensor::empty(W.sizes(), dt);
  Tensor newB = Tensor::empty({outC}, dt);
  for (int64_t o = 0; o < outC; ++o) {
    double scale = ga[o] / std::sqrt(v[o] + e);
    double nb = (bias[o] - m[o]) * scale + be[o];
    if (dt == ScalarType::Float) {
      const float* src = Wc.data_ptr<float>() + o * per;
      float* pw = newW.data_ptr<float>() + o * per;
      for (int64_t i = 0; i < per; ++i) pw[i] = static_cast<float>(static_cast<double>(src[i]) * scale);
      newB.data_ptr<float>()[o] = static_cast<float>(nb);
    } else {
      const double* src = Wc.data_ptr<double>() + o * per;
      double* pw = newW.data_ptr<double>() + o * per;
      for (int64_t i = 0; i < per; ++i) pw[i] = src[i] * scale;
      newB.data_ptr<double>()[o] = nb;
    }
  }
  // The unfolded weight stays reachable (the module's attribute) but no longer runs: when it is mapped from
  // the archive its pages go back until something reads it.
  W.releaseResidentPages();
  WithInsertPoint guard(conv);
  Value* cw = g.insertConstant(IValue(newW), conv->sourceRange(), conv->namedInput("weight")->type());
  Value* cb = g.insertConstant(IValue(newB), conv->sourceRange(), OptionalType::create(TensorType()));
  conv->replaceInput(conv->namedInputIndex("weight"), cw);
  conv->replaceInput(conv->namedInputIndex("bias"), cb);
  if (bn->output()->hasDebugName() && !y->hasDebugName()) {
    std::string name = bn->output()->debugName();
    bn->output()->setDebugName("");
    y->setDebugName(name);
  }
  bn->output()->replaceAllUsesWith(y);
  bn->destroy();
  return true;
}

size_t foldBlock(Graph& g, Block* b) {
  size_t n = 0;
  for (auto it = b->begin(); it != b->end();) {
    Node* node = *it++;
    for (Block* sb : node->blocks()) n += foldBlock(g, sb);
    if (foldOne(g, node)) ++n;
  }
  return n;
}

}  // namespace

size_t foldConvBatchNorm(Graph& graph) { return foldBlock(graph, graph.block()); }

}  // namespace kindling
