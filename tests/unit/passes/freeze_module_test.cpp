// Freezing: which attribute reads become constants.
#include "passes/optimize/freeze_module.h"

#include <gtest/gtest.h>

#include "ir/irparser.h"
#include "passes/canonicalize/constant_propagation.h"
#include "passes/canonicalize/dead_code_elimination.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

TEST(FreezeModuleTest, FreezesReadOnlyAttributesThroughSubmodules) {
  auto sub = ClassType::create("__torch__.Sub", true);
  sub->addAttribute("w", TensorType(), true);
  sub->addAttribute("scale", IntType());
  auto cls = ClassType::create("__torch__.M", true);
  cls->addAttribute("training", BoolType());
  cls->addAttribute("sub", sub);
  cls->addAttribute("buf", TensorType(), false, true);
  cls->addAttribute("n", IntType());
  auto so = makeIntrusive<Object>(sub, 2);
  so->slots[0] = IValue(Tensor::zeros({2}));
  so->slots[1] = IValue(int64_t(3));
  auto o = makeIntrusive<Object>(cls, 4);
  o->slots[0] = IValue(false);
  o->slots[1] = IValue(so);
  o->slots[2] = IValue(Tensor::zeros({2}));
  o->slots[3] = IValue(int64_t(0));
  IRParserOptions opts;
  opts.resolveType = [&](const std::string& n) -> TypePtr { return n == "__torch__.M" ? TypePtr(cls) : TypePtr(sub); };
  auto g = parseIR(R"IR(graph(%self : __torch__.M,
      %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %training : bool = prim::GetAttr[name="training"](%self)
  %sub : __torch__.Sub = prim::GetAttr[name="sub"](%self)
  %w : Tensor = prim::GetAttr[name="w"](%sub)
  %scale : int = prim::GetAttr[name="scale"](%sub)
  %buf : Tensor = prim::GetAttr[name="buf"](%self)
  %b2 : Tensor = aten::add_(%buf, %x, %one)
  %n : int = prim::GetAttr[name="n"](%self)
  %n2 : int = aten::add(%n, %scale)
   = prim::SetAttr[name="n"](%self, %n2)
  %r : Tensor = prim::If(%training)
    block0():
      -> (%x)
    block1():
      %y : Tensor = aten::add(%x, %w, %scale)
      -> (%y)
  return (%r)
)IR", opts);
  EXPECT_EQ(freezeModuleAttributes(*g, IValue(o)), 3u);  // training, w, scale
  propagateConstants(*g);
  eliminateDeadCode(*g);
  EXPECT_EQ(g->toString(), R"IR(graph(%self : __torch__.M,
      %x : Tensor):
  %one : int = prim::Constant[value=1]()
  %w : Tensor = prim::Constant[value= 0  0 [ CPUFloatType{2} ]]()
  %scale : int = prim::Constant[value=3]()
  %buf : Tensor = prim::GetAttr[name="buf"](%self)
  %b2 : Tensor = aten::add_(%buf, %x, %one)
  %n : int = prim::GetAttr[name="n"](%self)
  %n2 : int = aten::add(%n, %scale)
   = prim::SetAttr[name="n"](%self, %n2)
  %y : Tensor = aten::add(%x, %w, %scale)
  return (%y)
)IR");
}

}  // namespace
}  // namespace kindling
