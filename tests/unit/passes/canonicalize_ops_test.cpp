// Scalar canonicalization: what torch._C._jit_pass_canonicalize_graph_fuser_ops does to traced
// `a * 2.5`-style graphs in PyTorch 1.13 (checked on traces of add, sub, mul, div, rsub, pow, remainder,
// floor_divide, eq: only the first four are rewritten).
#include "passes/canonicalize/canonicalize_ops.h"

#include <gtest/gtest.h>

#include "ir/operator_matching.h"
#include "tensor/tensor.h"
#include "passes/canonicalize/dead_code_elimination.h"
#include "passes_test_util.h"

namespace kindling {
namespace {

// Parses `ir` (whose input %c is a Tensor), then replaces %c with a prim::Constant holding `c`.
std::shared_ptr<Graph> withTensorConstant(const std::string& ir, const Tensor& c) {
  auto g = parseIR(ir);
  Value* in = g->inputs().back();
  Value* k;
  {
    WithInsertPoint guard(*g->block()->begin());
    k = g->insertConstant(IValue(c));
  }
  in->replaceAllUsesWith(k);
  g->block()->eraseInput(g->inputs().size() - 1);
  return g;
}

std::string kinds(const Graph& g) {
  std::string s;
  for (Node* n : *g.block())
    if (n->schema()) s += n->schema()->qualifiedName() + " ";
  return s;
}

TEST(CanonicalizeOpsTest, ZeroDimConstantOtherBecomesScalar) {
  for (const char* op : {"mul", "div"}) {
    auto g = withTensorConstant(std::string(R"IR(graph(%a : Tensor, %c : Tensor):
  %r : Tensor = aten::)IR") + op + R"IR((%a, %c)
  return (%r)
)IR", Tensor::scalarTensor(Scalar(2.5), ScalarType::Double));
    EXPECT_EQ(canonicalizeScalarOperands(*g), 1u) << op;
    eliminateDeadCode(*g);
    EXPECT_EQ(kinds(*g), std::string("aten::") + op + ".Scalar ");
    EXPECT_NE(g->toString().find("float = prim::Constant[value=2.5]"), std::string::npos) << g->toString();
  }
  auto g = withTensorConstant(R"IR(graph(%a : Tensor, %c : Tensor):
  %one : int = prim::Constant[value=1]()
  %r : Tensor = aten::sub(%a, %c, %one)
  return (%r)
)IR", Tensor::scalarTensor(Scalar(int64_t(3)), ScalarType::Long));
  EXPECT_EQ(canonicalizeScalarOperands(*g), 1u);
  eliminateDeadCode(*g);
  EXPECT_EQ(kinds(*g), "aten::sub.Scalar ");
  EXPECT_NE(g->toString().find("int = prim::Constant[value=3]"), std::string::npos) << g->toString();
}

TEST(CanonicalizeOpsTest, LeavesOtherOpsShapesAndPositionsAlone) {
  const Tensor zeroDim = Tensor::scalarTensor(Scalar(2.5), ScalarType::Double);
  // Not one of add/sub/mul/div (PyTorch keeps pow, remainder, floor_divide, eq, rsub).
  auto pow = withTensorConstant(R"IR(graph(%a : Tensor, %c : Tensor):
  %r : Tensor = aten::pow(%a, %c)
  return (%r)
)IR", zeroDim);
  EXPECT_EQ(canonicalizeScalarOperands(*pow), 0u);
  // The constant is `self`, not `other`.
  auto first = withTensorConstant(R"IR(graph(%a : Tensor, %c : Tensor):
  %r : Tensor = aten::mul(%c, %a)
  return (%r)
)IR", zeroDim);
  EXPECT_EQ(canonicalizeScalarOperands(*first), 0u);
  // A one-element tensor with a dimension is not a scalar.
  auto oneDim = withTensorConstant(R"IR(graph(%a : Tensor, %c : Tensor):
  %r : Tensor = aten::mul(%a, %c)
  return (%r)
)IR", Tensor::full({1}, Scalar(2.5), ScalarType::Float));
  EXPECT_EQ(canonicalizeScalarOperands(*oneDim), 0u);
  // In-place variants are kept.
  auto inplace = withTensorConstant(R"IR(graph(%a : Tensor, %c : Tensor):
  %r : Tensor = aten::mul_(%a, %c)
  return (%r)
)IR", zeroDim);
  EXPECT_EQ(canonicalizeScalarOperands(*inplace), 0u);
}

}  // namespace
}  // namespace kindling
