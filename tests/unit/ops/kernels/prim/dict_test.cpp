// Dict builtins. Expected values from PyTorch 1.13 TorchScript (expression in each comment).
#include <gtest/gtest.h>

#include "prim_test_util.h"

using namespace kindling;
using kindling::testing::callOp;
using kindling::testing::errorOf;

namespace {
IValue S(const char* s) { return IValue(std::string(s)); }
IValue strIntDict(std::vector<std::pair<std::string, int64_t>> kv) {
  auto d = makeIntrusive<DictValue>(StringType(), IntType());
  for (auto& [k, v] : kv) d->insertOrAssign(IValue(k), IValue(v));
  return IValue(d);
}
std::string keysOf(const IValue& d) {
  std::string out;
  for (const auto& kv : d.toDictRef().items()) out += kv.first.toStringRef() + "=" + std::to_string(kv.second.toInt()) + ";";
  return out;
}
}  // namespace

TEST(PrimDict, AccessAndErrors) {
  IValue d = strIntDict({{"a", 1}});
  EXPECT_EQ(callOp("aten::__getitem__.Dict_str", {d, S("a")}).toInt(), 1);
  EXPECT_EQ(errorOf("aten::__getitem__.Dict_str", {d, S("x")}), "KeyError: x");   // d["x"]
  EXPECT_EQ(errorOf("aten::pop.Dict_str", {d, S("x")}), "KeyError: x");
  EXPECT_EQ(errorOf("aten::Delete.Dict_str", {d, S("x")}), "KeyError: x");
  EXPECT_EQ(errorOf("aten::popitem.str", {strIntDict({})}), "popitem(): dictionary is empty");
  auto di = makeIntrusive<DictValue>(IntType(), IntType());
  EXPECT_EQ(errorOf("aten::__getitem__.Dict_int", {IValue(di), int64_t(3)}), "KeyError: 3");
  try {
    callOp("aten::__getitem__.Dict_str", {d, S("x")});
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.pythonClass(), "builtins.RuntimeError");  // PyTorch prints "RuntimeError: KeyError: x"
  }
  EXPECT_TRUE(callOp("aten::__contains__.str", {d, S("a")}).toBool());
  EXPECT_FALSE(callOp("aten::__contains__.str", {d, S("b")}).toBool());
  EXPECT_TRUE(callOp("aten::get.str", {d, S("b")}).isNone());                     // d.get("b") → None
  EXPECT_EQ(callOp("aten::get.default_str", {d, S("b"), int64_t(7)}).toInt(), 7);
  EXPECT_EQ(callOp("aten::len.Dict_str", {d}).toInt(), 1);
}

TEST(PrimDict, Mutation) {
  IValue d = strIntDict({{"a", 1}});
  // x = d.setdefault("b", 5) → (5, {'a': 1, 'b': 5})
  EXPECT_EQ(callOp("aten::setdefault.str", {d, S("b"), int64_t(5)}).toInt(), 5);
  EXPECT_EQ(callOp("aten::setdefault.str", {d, S("a"), int64_t(9)}).toInt(), 1);
  EXPECT_EQ(keysOf(d), "a=1;b=5;");
  // {"a": 1, "b": 2}.update({"a": 3, "c": 4}) → {'a': 3, 'b': 2, 'c': 4}
  IValue u = strIntDict({{"a", 1}, {"b", 2}});
  callOp("aten::update.str", {u, strIntDict({{"a", 3}, {"c", 4}})});
  EXPECT_EQ(keysOf(u), "a=3;b=2;c=4;");
  callOp("aten::_set_item.str", {u, S("b"), int64_t(8)});
  EXPECT_EQ(keysOf(u), "a=3;b=8;c=4;");
  // {"a": 1, "b": 2}.popitem() → ('a', 1)   (PyTorch removes the first entry)
  IValue p = callOp("aten::popitem.str", {strIntDict({{"a", 1}, {"b", 2}})});
  EXPECT_EQ(p.toTupleRef().elements[0].toStringRef(), "a");
  EXPECT_EQ(callOp("aten::pop.Dict_str", {u, S("a")}).toInt(), 3);
  EXPECT_EQ(callOp("aten::pop.Dict_default_str", {u, S("zz"), int64_t(-1)}).toInt(), -1);
  callOp("aten::Delete.Dict_str", {u, S("b")});
  EXPECT_EQ(keysOf(u), "c=4;");
  IValue c = callOp("aten::copy.Dict_str", {u});
  EXPECT_FALSE(c.is(u));
  callOp("aten::clear.str", {u});
  EXPECT_EQ(callOp("aten::len.Dict_str", {u}).toInt(), 0);
  EXPECT_EQ(keysOf(c), "c=4;");
}

TEST(PrimDict, Views) {
  IValue d = strIntDict({{"b", 1}, {"a", 2}});
  IValue k = callOp("aten::keys.str", {d});
  EXPECT_EQ(k.toListRef().elements[0].toStringRef(), "b");
  EXPECT_EQ(k.toListRef().elementType->kind(), TypeKind::Str);
  EXPECT_EQ(callOp("aten::values.str", {d}).toIntVector(), (std::vector<int64_t>{1, 2}));
  // d.items() → [('b', 1), ('a', 2)]
  IValue it = callOp("aten::items.str", {d});
  ASSERT_EQ(it.toListRef().elements.size(), 2u);
  EXPECT_EQ(it.toListRef().elements[1].toTupleRef().elements[0].toStringRef(), "a");
  EXPECT_EQ(it.toListRef().elements[1].toTupleRef().elements[1].toInt(), 2);
  // dict([("x", 1), ("y", 2)])
  TypePtr pair = TupleType::create({StringType(), IntType()});
  IValue pairs = makeList(pair, {makeTuple({S("x"), int64_t(1)}), makeTuple({S("y"), int64_t(2)})});
  IValue nd = callOp("aten::dict.str", {pairs});
  EXPECT_EQ(keysOf(nd), "x=1;y=2;");
  EXPECT_EQ(nd.toDictRef().valueType->kind(), TypeKind::Int);
  IValue e = callOp("aten::dict", {});
  EXPECT_EQ(e.toDictRef().size(), 0u);
  EXPECT_EQ(e.toDictRef().valueType->kind(), TypeKind::Tensor);
  // float keys: {1.0: 2}[1.0]
  auto df = makeIntrusive<DictValue>(FloatType(), IntType());
  df->insertOrAssign(IValue(1.0), IValue(int64_t(2)));
  EXPECT_EQ(callOp("aten::__getitem__.Dict_float", {IValue(df), 1.0}).toInt(), 2);
}
