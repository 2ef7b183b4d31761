// Module: freezing a method (attributes → constants, conv + batch_norm folded) keeps the results and the
// attributes the program writes.
#include "runtime/module.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ir/irparser.h"
#include "passes/optimize/fuse_conv_activation.h"
#include "runtime/graph_function.h"
#include "runtime/interpreter.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

Tensor pseudoRandom(const IntArray& sizes, uint32_t seed, double lo, double hi) {
  Tensor t = Tensor::empty(sizes, ScalarType::Float);
  uint32_t s = seed;
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    p[i] = static_cast<float>(lo + (hi - lo) * ((s >> 8) / double(1 << 24)));
  }
  return t;
}

const char* kNetIR = R"IR(graph(%self : __torch__.Net,
      %x : Tensor):
  %w : Tensor = prim::GetAttr[name="conv_w"](%self)
  %b : Tensor = prim::GetAttr[name="conv_b"](%self)
  %one : int = prim::Constant[value=1]()
  %s : int[] = prim::ListConstruct(%one, %one)
  %p : int[] = prim::ListConstruct(%one, %one)
  %d : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::conv2d(%x, %w, %b, %s, %p, %d, %one)
  %training : bool = prim::GetAttr[name="training"](%self)
  %gw : Tensor = prim::GetAttr[name="bn_w"](%self)
  %gb : Tensor = prim::GetAttr[name="bn_b"](%self)
  %m : Tensor = prim::GetAttr[name="bn_mean"](%self)
  %v : Tensor = prim::GetAttr[name="bn_var"](%self)
  %mom : float = prim::Constant[value=0.10000000000000001]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %cud : bool = prim::Constant[value=1]()
  %z : Tensor = aten::batch_norm(%y, %gw, %gb, %m, %v, %training, %mom, %eps, %cud)
  %c : int = prim::GetAttr[name="counter"](%self)
  %c2 : int = aten::add(%c, %one)
   = prim::SetAttr[name="counter"](%self, %c2)
  return (%z)
)IR";

TEST(ModuleTest, FreezeMethodFoldsConvBatchNormAndKeepsResults) {
  auto cls = ClassType::create("__torch__.Net", true);
  cls->addAttribute("training", BoolType());
  cls->addAttribute("conv_w", TensorType(), true);
  cls->addAttribute("conv_b", TensorType(), true);
  cls->addAttribute("bn_w", TensorType(), true);
  cls->addAttribute("bn_b", TensorType(), true);
  cls->addAttribute("bn_mean", TensorType(), false, true);
  cls->addAttribute("bn_var", TensorType(), false, true);
  cls->addAttribute("counter", IntType());
  auto cu = std::make_shared<CompilationUnit>();
  cu->addType(cls);
  IRParserOptions o;
  o.resolveType = [&](const std::string&) -> TypePtr { return cls; };
  GraphFunction* fwd = cu->addFunction(std::make_unique<GraphFunction>("__torch__.Net.forward", parseIR(kNetIR, o)));
  cls->addMethod(fwd);
  auto obj = makeIntrusive<Object>(cls, cls->attributes().size());
  obj->setAttr("training", IValue(false));
  obj->setAttr("conv_w", IValue(pseudoRandom({4, 3, 3, 3}, 1, -0.5, 0.5)));
  obj->setAttr("conv_b", IValue(pseudoRandom({4}, 2, -0.5, 0.5)));
  obj->setAttr("bn_w", IValue(pseudoRandom({4}, 3, 0.5, 1.5)));
  obj->setAttr("bn_b", IValue(pseudoRandom({4}, 4, -0.5, 0.5)));
  obj->setAttr("bn_mean", IValue(pseudoRandom({4}, 5, -0.5, 0.5)));
  obj->setAttr("bn_var", IValue(pseudoRandom({4}, 6, 0.5, 2.0)));
  obj->setAttr("counter", IValue(int64_t(0)));
  Module m(cu, obj);
  Tensor x = pseudoRandom({1, 3, 8, 8}, 7, -1.0, 1.0);
  Tensor ref = m.forward({IValue(x)}).toTensor();

  m.freezeMethod("forward");
  auto* frozen = dynamic_cast<GraphFunction*>(m.frozenMethod("forward"));
  ASSERT_NE(frozen, nullptr);
  std::string text = frozen->optimizedGraph()->toString();
  EXPECT_EQ(text.find("batch_norm"), std::string::npos) << text;
  EXPECT_EQ(text.find("conv_w"), std::string::npos) << text;
  EXPECT_NE(text.find("prim::GetAttr[name=\"counter\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("aten::conv2d"), std::string::npos) << text;

  Tensor got = m.forward({IValue(x)}).toTensor();
  ASSERT_EQ(got.sizes(), ref.sizes());
  double maxDiff = 0;
  for (int64_t i = 0; i < ref.numel(); ++i) maxDiff = std::max(maxDiff, std::abs(got.doubleAt(i) - ref.doubleAt(i)));
  EXPECT_LT(maxDiff, 1e-5);
  EXPECT_EQ(m.attr("counter").toInt(), 2);  // written by the program: never frozen
  // The unfrozen parameters were not modified by folding.
  Module fresh(cu, obj);
  EXPECT_EQ(fresh.frozenMethod("forward"), nullptr);
  Tensor again = fresh.forward({IValue(x)}).toTensor();
  for (int64_t i = 0; i < ref.numel(); ++i) EXPECT_FLOAT_EQ(static_cast<float>(again.doubleAt(i)), static_cast<float>(ref.doubleAt(i)));
  // setattr drops frozen methods.
  m.setattr("training", IValue(false));
  EXPECT_EQ(m.frozenMethod("forward"), nullptr);
}

TEST(ModuleTest, NamedParametersBuffersChildren) {
  auto child = ClassType::create("__torch__.Child", true);
  child->addAttribute("weight", TensorType(), true);
  auto root = ClassType::create("__torch__.Root", true);
  root->addAttribute("bias", TensorType(), true);
  root->addAttribute("stat", TensorType(), false, true);
  root->addAttribute("sub", child);
  auto c = makeIntrusive<Object>(child, 1);
  c->slots[0] = IValue(Tensor::zeros({2}));
  auto r = makeIntrusive<Object>(root, 3);
  r->slots[0] = IValue(Tensor::zeros({1}));
  r->slots[1] = IValue(Tensor::zeros({3}));
  r->slots[2] = IValue(c);
  Module m(std::make_shared<CompilationUnit>(), r);
  auto params = m.namedParameters();
  ASSERT_EQ(params.size(), 2u);
  EXPECT_EQ(params[0].first, "bias");
  EXPECT_EQ(params[1].first, "sub.weight");
  EXPECT_EQ(m.namedParameters(false).size(), 1u);
  auto buffers = m.namedBuffers();
  ASSERT_EQ(buffers.size(), 1u);
  EXPECT_EQ(buffers[0].first, "stat");
  auto children = m.namedChildren();
  ASSERT_EQ(children.size(), 1u);
  EXPECT_EQ(children[0].first, "sub");
}

}  // namespace
}  // namespace kindling

namespace kindling {
namespace {

// Conv + residual add + relu / hardtanh fusion: same numbers as the separate ops.
TEST(ModuleTest, ConvActivationFusionKeepsResults) {
  const char* ir = R"IR(graph(%x : Tensor, %w : Tensor, %b : Tensor, %w2 : Tensor, %r : Tensor):
  %one : int = prim::Constant[value=1]()
  %zero : float = prim::Constant[value=0.]()
  %six : float = prim::Constant[value=6.]()
  %s : int[] = prim::ListConstruct(%one, %one)
  %y : Tensor = aten::conv2d(%x, %w, %b, %s, %s, %s, %one)
  %d : int = aten::dim(%y)
  %y2 : Tensor = aten::relu_(%y)
  %z : Tensor = aten::conv2d(%y2, %w2, %b, %s, %s, %s, %one)
  %z2 : Tensor = aten::add_(%z, %r, %one)
  %z3 : Tensor = aten::relu(%z2)
  %u : Tensor = aten::conv2d(%z3, %w2, %b, %s, %s, %s, %one)
  %u2 : Tensor = aten::hardtanh(%u, %zero, %six)
  %out : (Tensor, int) = prim::TupleConstruct(%u2, %d)
  return (%out)
)IR";
  auto g = parseIR(ir);
  auto fusedGraph = g->copy();
  EXPECT_EQ(fuseConvActivation(*fusedGraph), 3u);
  std::string text = fusedGraph->toString();
  EXPECT_EQ(text.find("aten::conv2d"), std::string::npos) << text;
  EXPECT_EQ(text.find("relu"), std::string::npos) << text;
  EXPECT_NE(text.find("kindling::conv_fused"), std::string::npos) << text;
  Code plain(g, "plain"), fused(fusedGraph, "fused");
  std::vector<IValue> args{IValue(pseudoRandom({1, 4, 6, 6}, 11, -1, 1)), IValue(pseudoRandom({4, 4, 3, 3}, 12, -0.5, 0.5)),
                           IValue(pseudoRandom({4}, 13, -0.5, 0.5)), IValue(pseudoRandom({4, 4, 3, 3}, 14, -0.5, 0.5)),
                           IValue(pseudoRandom({1, 4, 6, 6}, 15, -1, 1))};
  Stack s1(args.begin(), args.end()), s2(args.begin(), args.end());
  plain.run(s1);
  fused.run(s2);
  Tensor a = s1.at(0).toTupleRef().elements[0].toTensor(), b = s2.at(0).toTupleRef().elements[0].toTensor();
  EXPECT_EQ(s2.at(0).toTupleRef().elements[1].toInt(), 4);
  ASSERT_EQ(a.sizes(), b.sizes());
  for (int64_t i = 0; i < a.numel(); ++i) EXPECT_NEAR(a.doubleAt(i), b.doubleAt(i), 1e-5);
  // A residual that broadcasts runs the unfused fallback.
  Stack s3(args.begin(), args.end());
  s3[4] = IValue(pseudoRandom({1, 4, 1, 6}, 16, -1, 1));
  Stack s4 = s3;
  plain.run(s3);
  fused.run(s4);
  a = s3.at(0).toTupleRef().elements[0].toTensor();
  b = s4.at(0).toTupleRef().elements[0].toTensor();
  for (int64_t i = 0; i < a.numel(); ++i) EXPECT_NEAR(a.doubleAt(i), b.doubleAt(i), 1e-5);
}

}  // namespace
}  // namespace kindling
