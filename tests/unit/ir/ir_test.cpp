// Graph / Node / Value structure: names (PyTorch's setDebugName rule), uses, insertion, destruction, copy.
#include "ir/ir.h"

#include <gtest/gtest.h>

namespace kindling {
namespace {

TEST(IrTest, DebugNamesFollowPyTorch) {
  // Same sequence as torch._C.Graph() with setDebugName, results from PyTorch 1.13.
  Graph g;
  std::vector<Value*> v;
  for (int i = 0; i < 6; ++i) v.push_back(g.addInput());
  v[0]->setDebugName("x");
  v[1]->setDebugName("x");
  EXPECT_EQ(v[0]->debugName(), "x.1");
  EXPECT_EQ(v[1]->debugName(), "x");
  v[2]->setDebugName("x.1");
  EXPECT_EQ(v[0]->debugName(), "x.3");
  EXPECT_EQ(v[2]->debugName(), "x.1");
  v[3]->setDebugName("x");
  EXPECT_EQ(v[1]->debugName(), "x.5");
  EXPECT_EQ(v[3]->debugName(), "x");
  v[4]->setDebugName("y.5");
  v[5]->setDebugName("y.5");
  EXPECT_EQ(v[4]->debugName(), "y.6");
  EXPECT_EQ(v[5]->debugName(), "y.5");
}

TEST(IrTest, UnnamedValuesPrintTheirNumber) {
  Graph g;
  Value* a = g.addInput();
  Value* b = g.addInput("b");
  EXPECT_EQ(a->debugName(), std::to_string(a->unique()));
  EXPECT_FALSE(a->hasDebugName());
  EXPECT_EQ(b->debugName(), "b");
  EXPECT_THROW(a->setDebugName("12"), Error);
  b->setDebugName("");
  EXPECT_FALSE(b->hasDebugName());
}

TEST(IrTest, NamesAreFreedWhenValuesDie) {
  Graph g;
  Value* x = g.addInput("x");
  Node* n = g.insert(Symbol::fromQualString("test::id"), {x});
  n->output()->setDebugName("y");
  n->destroy();
  Value* y2 = g.addInput("y");
  EXPECT_EQ(y2->debugName(), "y");  // not y.1: the old owner is gone
}

TEST(IrTest, UsesAreTracked) {
  Graph g;
  Value* x = g.addInput("x");
  Value* y = g.addInput("y");
  Symbol k = Symbol::fromQualString("test::f");
  Node* n = g.insert(k, {x, x, y});
  ASSERT_EQ(x->uses().size(), 2u);
  EXPECT_EQ(x->uses()[1].offset, 1u);
  n->removeInput(0);
  ASSERT_EQ(x->uses().size(), 1u);
  EXPECT_EQ(x->uses()[0].offset, 0u);
  EXPECT_EQ(y->uses()[0].offset, 1u);
  n->insertInput(0, y);
  EXPECT_EQ(n->input(0), y);
  EXPECT_EQ(x->uses()[0].offset, 1u);
  x->replaceAllUsesWith(y);
  EXPECT_FALSE(x->hasUses());
  EXPECT_EQ(y->uses().size(), 3u);
  g.registerOutput(n->output());
  EXPECT_THROW(n->destroy(), Error);  // output still used by the graph's return
}

TEST(IrTest, InsertionOrderAndIsBefore) {
  Graph g;
  Value* x = g.addInput("x");
  Symbol k = Symbol::fromQualString("test::f");
  Node* a = g.insert(k, {x});
  Node* c = g.insert(k, {x});
  Node* b = g.create(k, {x});
  b->insertAfter(a);
  std::vector<Node*> order(g.block()->begin(), g.block()->end());
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[0], a);
  EXPECT_EQ(order[1], b);
  EXPECT_EQ(order[2], c);
  EXPECT_TRUE(a->isBefore(b));
  EXPECT_TRUE(b->isBefore(c));
  EXPECT_FALSE(c->isBefore(a));
  // Many insertions between two nodes force renumbering; order must stay right.
  Node* last = a;
  for (int i = 0; i < 100; ++i) {
    Node* m = g.create(k, {x});
    m->insertAfter(a);
    EXPECT_TRUE(a->isBefore(m));
    EXPECT_TRUE(m->isBefore(last == a ? b : last));
    last = m;
  }
  c->moveBefore(a);
  EXPECT_TRUE(c->isBefore(a));
  // Nested blocks.
  Node* ifn = g.insert(prim::If, {x}, 0);
  Block* b0 = ifn->addBlock();
  ifn->addBlock();
  Node* inner = b0->appendNode(g.create(k, {x}));
  EXPECT_TRUE(a->isBefore(inner));
  EXPECT_FALSE(inner->isBefore(a));
}

TEST(IrTest, CopyAndBlocks) {
  Graph g;
  Value* x = g.addInput("x");
  Value* c = g.insertConstant(IValue(true));
  Node* ifn = g.insert(prim::If, {c}, 1);
  ifn->output()->setType(TensorType())->setDebugName("r");
  Block* b0 = ifn->addBlock();
  Block* b1 = ifn->addBlock();
  Node* inner = g.create(Symbol::fromQualString("test::f"), {x});
  inner->output()->setType(TensorType());
  b0->appendNode(inner);
  b0->registerOutput(inner->output());
  b1->registerOutput(x);
  g.registerOutput(ifn->output());
  auto g2 = g.copy();
  EXPECT_EQ(g2->toString(), g.toString());
  size_t before = g.numNodes();
  ifn->eraseBlock(0);
  EXPECT_EQ(g.numNodes(), before - 3);  // inner node + Param + Return of block0
  EXPECT_FALSE(x->uses().empty());
  EXPECT_EQ(x->uses().size(), 1u);  // only block1's return remains
}

TEST(IrTest, ConstantValue) {
  Graph g;
  Value* c = g.insertConstant(IValue(int64_t(3)));
  ASSERT_TRUE(c->constantValue().has_value());
  EXPECT_EQ(c->constantValue()->toInt(), 3);
  EXPECT_EQ(c->type()->str(), "int");
  Value* n = g.insertConstant(IValue());
  EXPECT_TRUE(n->constantValue()->isNone());
  EXPECT_FALSE(g.addInput()->constantValue().has_value());
}

TEST(IrTest, Symbols) {
  Symbol a = Symbol::fromQualString("aten::add");
  EXPECT_EQ(a, Symbol::fromQualString("aten::add"));
  EXPECT_TRUE(a.isAten());
  EXPECT_FALSE(a.isPrim());
  EXPECT_EQ(a.ns(), "aten");
  EXPECT_EQ(a.unqualName(), "add");
  EXPECT_EQ(prim::If.toQualString(), "prim::If");
  EXPECT_TRUE(prim::If.isPrim());
}

}  // namespace
}  // namespace kindling
