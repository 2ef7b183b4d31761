// Weight packing at load (src/passes/optimize/prepack_weights.cpp): constant conv / linear weights of a graph
// are packed when the pass runs, kept with the weight's storage, found by the kernels' first call, and packed
// again after an in-place write.
#include "passes/optimize/prepack_weights.h"

#include <gtest/gtest.h>

#include "ir/irparser.h"
#include "passes/canonicalize/constant_propagation.h"
#include "ops/kernels/conv/conv.h"
#include "ops/registry/operator.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

Tensor pseudoRandom(const IntArray& sizes, uint32_t seed) {
  Tensor t = Tensor::empty(sizes, ScalarType::Float);
  uint32_t s = seed;
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    p[i] = static_cast<float>((s >> 8) / double(1 << 24) - 0.5);
  }
  return t;
}

const char* kIR = R"IR(graph(%x : Tensor,
      %w : Tensor,
      %lw : Tensor,
      %lb : Tensor):
  %none : NoneType = prim::Constant()
  %one : int = prim::Constant[value=1]()
  %s : int[] = prim::ListConstruct(%one, %one)
  %d : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::conv2d(%x, %w, %none, %s, %s, %d, %one)
  %last : int = prim::Constant[value=-1]()
  %f : Tensor = aten::flatten(%y, %one, %last)
  %z : Tensor = aten::linear(%f, %lw, %lb)
  return (%z)
)IR";

/// The max abs difference of two float tensors of the same size.
double maxDiff(const Tensor& a, const Tensor& b) {
  const Tensor x = a.contiguous(), y = b.contiguous();
  double d = 0;
  for (int64_t i = 0; i < x.numel(); ++i) d = std::max(d, std::abs(x.doubleAt(i) - y.doubleAt(i)));
  return d;
}

/// conv2d (padding 1) then linear of the flattened result, through the registered kernels.
Tensor convThenLinear(const Tensor& x, const Tensor& w, const Tensor& lw, const Tensor& lb) {
  const Tensor y = convolution(x, w, Tensor(), {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1);
  Stack s{IValue(y.reshape({1, -1})), IValue(lw), IValue(lb)};
  OperatorRegistry::global().find("aten::linear")->fn(s);
  return s.back().toTensor();
}

TEST(PrepackWeights, ConstantWeightsArePackedAtLoadAndRepackedAfterAWrite) {
  std::shared_ptr<Graph> g = parseIR(kIR);
  const Tensor w = pseudoRandom({16, 8, 3, 3}, 1), lw = pseudoRandom({4, 16 * 56 * 56}, 2), lb = pseudoRandom({4}, 3);
  const Tensor x = pseudoRandom({1, 8, 56, 56}, 4);
  const Tensor want = convThenLinear(x, w.clone(), lw.clone(), lb.clone());  // fresh storages, packed on use

  // Weights as constants, as freezing leaves them.
  g->inputs()[1]->replaceAllUsesWith(g->insertConstant(IValue(w)));
  g->inputs()[2]->replaceAllUsesWith(g->insertConstant(IValue(lw)));
  g->inputs()[3]->replaceAllUsesWith(g->insertConstant(IValue(lb)));
  propagateConstants(*g);
  EXPECT_EQ(w.storage()->derivedCount(), 0u);
  EXPECT_EQ(prepackWeights(*g), 2u);
  EXPECT_EQ(w.storage()->derivedCount(), 1u);
  EXPECT_EQ(lw.storage()->derivedCount(), 1u);
  EXPECT_EQ(lb.storage()->derivedCount(), 0u);  // biases are read in place

  EXPECT_LT(maxDiff(convThenLinear(x, w, lw, lb), want), 1e-4);
  // The input of size 56 is the one the weights were packed for: the calls found the packed copies.
  EXPECT_EQ(w.storage()->derivedCount(), 1u);
  EXPECT_EQ(lw.storage()->derivedCount(), 1u);

  // In-place writes make the packed copies stale; the next call packs the new values.
  Tensor(w).copy_(pseudoRandom({16, 8, 3, 3}, 5));
  Tensor(lw).select(0, 1).fill_(Scalar(0.25));
  const Tensor want2 = convThenLinear(x, w.clone(), lw.clone(), lb.clone());
  EXPECT_GT(maxDiff(want2, want), 1e-2);
  EXPECT_LT(maxDiff(convThenLinear(x, w, lw, lb), want2), 1e-4);
  EXPECT_EQ(w.storage()->derivedCount(), 1u);  // replaced, not added
  EXPECT_EQ(lw.storage()->derivedCount(), 1u);
}

TEST(PrepackWeights, NonConstantAndNonFloatWeightsAreLeftAlone) {
  std::shared_ptr<Graph> g = parseIR(kIR);
  EXPECT_EQ(prepackWeights(*g), 0u);
  const Tensor w = pseudoRandom({16, 8, 3, 3}, 1).to(ScalarType::Double);
  g->inputs()[1]->replaceAllUsesWith(g->insertConstant(IValue(w)));
  propagateConstants(*g);
  EXPECT_EQ(prepackWeights(*g), 0u);
  EXPECT_EQ(w.storage()->derivedCount(), 0u);
}

const char* kTwoLinearsIR = R"IR(graph(%x : Tensor,
      %whole : Tensor,
      %part : Tensor):
  %none : NoneType = prim::Constant()
  %a : Tensor = aten::linear(%x, %whole, %none)
  %b : Tensor = aten::linear(%x, %part, %none)
  return (%a, %b)
)IR";

TEST(PrepackWeights, PartsOfAWeightPackedWholeAreLeftToTheirFirstCall) {
  // A fused projection [3N, K] used whole and as its first N rows (MultiheadAttention's in_proj_weight and
  // its q chunk, on two branches of a frozen graph): only the whole is packed at load.
  const Tensor whole = pseudoRandom({3 * 64, 128}, 3), part = whole.narrow(0, 0, 64);
  std::shared_ptr<Graph> g = parseIR(kTwoLinearsIR);
  g->inputs()[1]->replaceAllUsesWith(g->insertConstant(IValue(whole)));
  g->inputs()[2]->replaceAllUsesWith(g->insertConstant(IValue(part)));
  EXPECT_EQ(prepackWeights(*g), 1u);
  // The part alone is packed.
  std::shared_ptr<Graph> g2 = parseIR(kTwoLinearsIR);
  const Tensor other = pseudoRandom({3 * 64, 128}, 4);
  g2->inputs()[1]->replaceAllUsesWith(g2->insertConstant(IValue(pseudoRandom({64, 128}, 5))));
  g2->inputs()[2]->replaceAllUsesWith(g2->insertConstant(IValue(other.narrow(0, 64, 64))));
  EXPECT_EQ(prepackWeights(*g2), 2u);
  // A part left to its first call gives the values of its own copy.
  const Tensor x = pseudoRandom({2, 128}, 6);
  Stack s{IValue(x), IValue(part), IValue(Tensor())};
  OperatorRegistry::global().find("aten::linear")->fn(s);
  Stack r{IValue(x), IValue(part.clone()), IValue(Tensor())};
  OperatorRegistry::global().find("aten::linear")->fn(r);
  EXPECT_LT(maxDiff(s.back().toTensor(), r.back().toTensor()), 1e-5);
}

}  // namespace
}  // namespace kindling
