// Graph printing in PyTorch's format: hand-built graphs and constant formatting, checked against text
// printed by PyTorch 1.13 (tests/unit/data/ir/make_graphs.py).
#include "ir/printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ir/ir.h"
#include "tensor/tensor.h"
#include "test_util.h"

namespace kindling {
namespace {

using testing::canonicalNumbers;
using testing::readDataFile;

TEST(PrinterTest, ValuesAndStrings) {
  EXPECT_EQ(quotedString("a\"b\n"), "\"a\\\"b\\n\"");
  EXPECT_EQ(graphValueString(makeTuple({IValue(int64_t(1)), IValue(2.0), IValue("s")})), "(1, 2., \"s\")");
  EXPECT_EQ(graphValueString(makeTuple({IValue(int64_t(1))})), "(1,)");
  EXPECT_EQ(graphValueString(makeIntList({1, 2})), "[1, 2]");
  EXPECT_EQ(graphValueString(makeBoolList({true, false})), "[True, False]");
  EXPECT_EQ(graphValueString(IValue()), "None");
}

std::string line(const Value* v, const std::string& rest) {
  std::string s = "%";
  s += v->debugName();
  s += rest;
  return s;
}

TEST(PrinterTest, TensorConstantsAsPyTorch) {
  // From print(torch.jit.freeze(...).graph) in PyTorch 1.13.
  Graph g;
  Value* a = g.insertConstant(IValue(Tensor::fromVector<float>({1.5f, 2.0f}, ScalarType::Float)));
  Value* b = g.insertConstant(IValue(Tensor::fromVector<int64_t>({1, 2, 3, 4}, ScalarType::Long).view({2, 2})));
  Value* c = g.insertConstant(IValue(Tensor::scalarTensor(Scalar(2.5), ScalarType::Float)));
  Value* d = g.insertConstant(IValue(Tensor::fromVector<bool>({true, false}, ScalarType::Bool)));
  Value* e = g.insertConstant(IValue(Tensor::zeros({20})));
  EXPECT_EQ(nodeToString(a->node()), line(a, " : Tensor = prim::Constant[value= 1.5000  2.0000 [ CPUFloatType{2} ]]()\n"));
  EXPECT_EQ(nodeToString(b->node()), line(b, " : Tensor = prim::Constant[value= 1  2  3  4 [ CPULongType{2,2} ]]()\n"));
  EXPECT_EQ(nodeToString(c->node()), line(c, " : Tensor = prim::Constant[value={2.5}]()\n"));
  EXPECT_EQ(nodeToString(d->node()), line(d, " : Tensor = prim::Constant[value= 1  0 [ CPUBoolType{2} ]]()\n"));
  EXPECT_EQ(nodeToString(e->node()), line(e, " : Tensor = prim::Constant[value=<Tensor>]()\n"));
}

// Builds the graph of `loops` in make_graphs.py by hand.
TEST(PrinterTest, HandBuiltLoopsGraphMatchesPyTorch) {
  Graph g;
  Value* t = g.addInput("t.1")->setType(TupleType::create({IntType(), IntType(), IntType()}));
  Value* i = g.addInput("i.1")->setType(IntType());
  g.addInput("l")->setType(ListType::ofInts());
  Value* tru = g.insertConstant(IValue(true));
  Value* two = g.insertConstant(IValue(int64_t(2)));
  Value* one = g.insertConstant(IValue(int64_t(1)));
  Value* big = g.insertConstant(IValue(int64_t(9223372036854775807LL)));
  Value* ten = g.insertConstant(IValue(int64_t(10)));
  auto tupleIndex = [&](Value* idx) {
    Node* n = g.insert(prim::TupleIndex, {t, idx});
    n->output()->setType(IntType());
    return n->output();
  };
  Value* e1 = tupleIndex(one);
  Value* e2 = tupleIndex(two);
  Node* tc = g.insert(prim::TupleConstruct, {e1, e2});
  tc->output()->setType(TupleType::create({IntType(), IntType()}))->setDebugName("a.1");
  Value* b = tupleIndex(i);
  b->setDebugName("b.1");
  Value* c = tupleIndex(one);
  c->setDebugName("c.1");
  Symbol add = Symbol::fromQualString("aten::add");
  Symbol lt = Symbol::fromQualString("aten::lt");

  Node* loop1 = g.insert(prim::Loop, {i, tru, i}, 1);
  loop1->output()->setType(IntType())->setDebugName("i.25");
  Block* body1 = loop1->addBlock();
  Value* j = body1->addInput("j.1")->setType(IntType());
  Value* ic = body1->addInput("i.23")->setType(IntType());
  Node* a1 = body1->appendNode(g.create(add, {ic, j}));
  a1->output()->setType(IntType())->setDebugName("i.9");
  body1->registerOutput(tru);
  body1->registerOutput(a1->output());

  Node* cmp = g.insert(lt, {loop1->output(), ten});
  cmp->output()->setType(BoolType());
  Node* loop2 = g.insert(prim::Loop, {big, cmp->output(), loop1->output()}, 1);
  loop2->output()->setType(IntType())->setDebugName("i");
  Block* body2 = loop2->addBlock();
  body2->addInput()->setType(IntType());
  Value* ic2 = body2->addInput("i.27")->setType(IntType());
  Node* a2 = body2->appendNode(g.create(add, {ic2, one}));
  a2->output()->setType(IntType())->setDebugName("i.17");
  Node* cmp2 = body2->appendNode(g.create(lt, {a2->output(), ten}));
  cmp2->output()->setType(BoolType());
  body2->registerOutput(cmp2->output());
  body2->registerOutput(a2->output());

  Node* out = g.insert(prim::TupleConstruct, {tc->output(), b, c, loop2->output()});
  out->output()->setType(TupleType::create(
      {TupleType::create({IntType(), IntType()}), IntType(), IntType(), IntType()}));
  g.registerOutput(out->output());
  EXPECT_EQ(canonicalNumbers(g.toString()), canonicalNumbers(readDataFile("ir/loops.graph")));
}

TEST(PrinterTest, NodesWithoutOutputsAndAttributes) {
  auto cls = ClassType::create("__torch__.M", true);
  cls->addAttribute("u", TensorType());
  Graph g;
  Value* self = g.addInput("self")->setType(cls);
  Value* x = g.addInput("x")->setType(TensorType());
  Node* get = g.insert(prim::GetAttr, {self});
  get->s_("name", "u");
  get->output()->setType(TensorType())->setDebugName("u");
  Node* set = g.insert(prim::SetAttr, {self, x}, 0);
  set->s_("name", "u");
  Node* isi = g.insert(prim::isinstance, {x});
  isi->tys_("types", {IntType(), FloatType()});
  isi->output()->setType(BoolType());
  Value* none = g.insertConstant(IValue());
  Value* dev = g.insertConstant(IValue(Device{DeviceType::CPU, -1}));
  Value* s = g.insertConstant(IValue("a\"b"));
  Value* f = g.insertConstant(IValue(0.1));
  Node* tup = g.insert(prim::TupleConstruct, {get->output(), isi->output(), none, dev, s, f});
  tup->output()->setType(TupleType::create({TensorType(), BoolType(), NoneType(), DeviceObjType(), StringType(), FloatType()}));
  g.registerOutput(tup->output());
  std::string expected =
      "graph(%self : __torch__.M,\n"
      "      %x : Tensor):\n"
      "  %u : Tensor = prim::GetAttr[name=\"u\"](%self)\n"
      "   = prim::SetAttr[name=\"u\"](%self, %x)\n"
      "  %0 : bool = prim::isinstance[types=[int, float]](%x)\n"
      "  %1 : NoneType = prim::Constant()\n"
      "  %2 : Device = prim::Constant[value=\"cpu\"]()\n"
      "  %3 : str = prim::Constant[value=\"a\\\"b\"]()\n"
      "  %4 : float = prim::Constant[value=0.10000000000000001]()\n"
      "  %5 : (Tensor, bool, NoneType, Device, str, float) = prim::TupleConstruct(%u, %0, %1, %2, %3, %4)\n"
      "  return (%5)\n";
  EXPECT_EQ(canonicalNumbers(g.toString()), expected);
}

TEST(PrinterTest, SourceLocations) {
  auto src = std::make_shared<Source>("def f(x):\n    return x + x\n", "f.py");
  Graph g;
  Value* x = g.addInput("x");
  x->setType(TensorType());
  Node* n = g.insert(Symbol::fromQualString("aten::neg"), {x});
  n->output()->setType(TensorType())->setDebugName("y");
  n->setSourceRange(SourceRange(src, 21, 26));
  g.registerOutput(n->output());
  std::string withLoc = g.toString(true);
  EXPECT_NE(withLoc.find("%y : Tensor = aten::neg(%x) # f.py:2:11\n"), std::string::npos) << withLoc;
  EXPECT_EQ(g.toString(false).find('#'), std::string::npos);
}

}  // namespace
}  // namespace kindling
