// List builtins. Expected values from PyTorch 1.13 TorchScript (expression in each comment).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "prim_test_util.h"

using namespace kindling;
using kindling::testing::callOp;
using kindling::testing::errorOf;

namespace {
IValue ints(std::vector<int64_t> v) { return makeIntList(v); }
IValue strs(std::vector<std::string> v) {
  std::vector<IValue> e;
  for (auto& s : v) e.emplace_back(s);
  return makeList(StringType(), std::move(e));
}
std::vector<int64_t> iv(const IValue& v) { return v.toIntVector(); }
}  // namespace

TEST(PrimList, IndexingAndErrors) {
  IValue l = ints({1, 2});
  EXPECT_EQ(callOp("aten::len.t", {l}).toInt(), 2);
  EXPECT_EQ(callOp("aten::__getitem__.t", {l, int64_t(-1)}).toInt(), 2);  // [1, 2][-1]
  EXPECT_EQ(errorOf("aten::__getitem__.t", {l, int64_t(5)}), "list index out of range");
  try {
    callOp("aten::__getitem__.t", {l, int64_t(-3)});
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.pythonClass(), "builtins.RuntimeError");  // PyTorch: "RuntimeError: list index out of range"
  }
  IValue r = callOp("aten::_set_item.t", {l, int64_t(0), int64_t(9)});
  EXPECT_TRUE(r.is(l));
  EXPECT_EQ(iv(l), (std::vector<int64_t>{9, 2}));
  EXPECT_EQ(errorOf("aten::_set_item.t", {l, int64_t(5), int64_t(1)}), "list index out of range");
  EXPECT_EQ(errorOf("aten::pop.t", {ints({1}), int64_t(5)}), "list index out of range");
  EXPECT_EQ(errorOf("aten::pop.t", {ints({}), int64_t(-1)}), "pop from empty list");
  EXPECT_EQ(errorOf("aten::Delete.t", {ints({1}), int64_t(3)}), "list index out of range");
  EXPECT_EQ(errorOf("aten::remove.int", {ints({1}), int64_t(3)}), "list.remove(x): x not in list");
  EXPECT_EQ(errorOf("aten::index.list_int", {ints({1}), int64_t(3)}), "'3' is not in list");
  EXPECT_EQ(errorOf("aten::index.list_str", {strs({"a"}), IValue("x")}), "'x' is not in list");
}

TEST(PrimList, Mutation) {
  IValue l = ints({1, 2});
  // a.insert(-10, 9); a.insert(100, 8); a.insert(-1, 7) on [1, 2] → [9, 1, 2, 7, 8]
  callOp("aten::insert.t", {l, int64_t(-10), int64_t(9)});
  callOp("aten::insert.t", {l, int64_t(100), int64_t(8)});
  callOp("aten::insert.t", {l, int64_t(-1), int64_t(7)});
  EXPECT_EQ(iv(l), (std::vector<int64_t>{9, 1, 2, 7, 8}));
  EXPECT_EQ(callOp("aten::pop.t", {l, int64_t(-1)}).toInt(), 8);
  EXPECT_EQ(callOp("aten::pop.t", {l, int64_t(0)}).toInt(), 9);
  callOp("aten::append.t", {l, int64_t(5)});
  callOp("aten::extend.t", {l, l});
  EXPECT_EQ(iv(l), (std::vector<int64_t>{1, 2, 7, 5, 1, 2, 7, 5}));
  callOp("aten::remove.int", {l, int64_t(2)});
  EXPECT_EQ(iv(l), (std::vector<int64_t>{1, 7, 5, 1, 2, 7, 5}));
  EXPECT_EQ(callOp("aten::count.int", {l, int64_t(7)}).toInt(), 2);
  EXPECT_EQ(callOp("aten::index.list_int", {l, int64_t(5)}).toInt(), 2);
  callOp("aten::Delete.t", {l, int64_t(-1)});
  callOp("aten::reverse.t", {l});
  EXPECT_EQ(iv(l), (std::vector<int64_t>{7, 2, 1, 5, 7, 1}));
  callOp("aten::sort.int", {l, false});
  EXPECT_EQ(iv(l), (std::vector<int64_t>{1, 1, 2, 5, 7, 7}));
  IValue sd = strs({"b", "a", "c"});
  callOp("aten::sort.str", {sd, true});  // a.sort(reverse=True) → ['c', 'b', 'a']
  EXPECT_EQ(sd.toListRef().elements[0].toStringRef(), "c");
  EXPECT_EQ(sd.toListRef().elements[2].toStringRef(), "a");
  callOp("aten::clear.t", {l});
  EXPECT_EQ(callOp("aten::len.t", {l}).toInt(), 0);
}

TEST(PrimList, SliceConcatRepeat) {
  IValue l = ints({1, 2, 3, 4, 5});
  EXPECT_EQ(iv(callOp("aten::slice.t", {l, IValue(), IValue(), int64_t(-2)})), (std::vector<int64_t>{5, 3, 1}));  // a[::-2]
  EXPECT_EQ(iv(callOp("aten::slice.t", {l, int64_t(-10), int64_t(10), int64_t(3)})), (std::vector<int64_t>{1, 4}));  // a[-10:10:3]
  EXPECT_EQ(iv(callOp("aten::slice.t", {l, int64_t(1), int64_t(-1), int64_t(1)})), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(iv(callOp("aten::slice.t", {l, int64_t(-1), int64_t(-4), int64_t(-1)})), (std::vector<int64_t>{5, 4, 3}));  // a[-1:-4:-1]
  EXPECT_EQ(iv(callOp("aten::slice.t", {l, int64_t(3), int64_t(1), int64_t(1)})), (std::vector<int64_t>{}));
  EXPECT_EQ(iv(callOp("aten::slice.t", {l, int64_t(10), IValue(), int64_t(-1)})), (std::vector<int64_t>{5, 4, 3, 2, 1}));  // a[10::-1]
  EXPECT_EQ(errorOf("aten::slice.t", {l, IValue(), IValue(), int64_t(0)}), "List slice should have non-zero step");
  IValue c = callOp("aten::add.t", {ints({1}), ints({2, 3})});
  EXPECT_EQ(iv(c), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(iv(callOp("aten::mul.left_t", {ints({1, 2}), int64_t(2)})), (std::vector<int64_t>{1, 2, 1, 2}));
  EXPECT_EQ(iv(callOp("aten::mul.right_", {int64_t(0), ints({1, 2})})), (std::vector<int64_t>{}));
  IValue cp = callOp("aten::copy.t", {l});
  EXPECT_FALSE(cp.is(l));
  EXPECT_EQ(iv(cp), iv(l));
  EXPECT_EQ(cp.toListRef().elementType->kind(), TypeKind::Int);
}

TEST(PrimList, ComparisonsAndReductions) {
  EXPECT_TRUE(callOp("aten::eq.int_list", {ints({1, 2}), ints({1, 2})}).toBool());
  EXPECT_TRUE(callOp("aten::ne.int_list", {ints({1, 2}), ints({1})}).toBool());
  // [nan] == [nan] → False
  EXPECT_FALSE(callOp("aten::eq.float_list", {makeDoubleList({NAN}), makeDoubleList({NAN})}).toBool());
  EXPECT_TRUE(callOp("aten::__contains__.str_list", {strs({"a", "b"}), IValue("b")}).toBool());
  EXPECT_FALSE(callOp("aten::__contains__.int_list", {ints({1}), int64_t(2)}).toBool());
  EXPECT_DOUBLE_EQ(callOp("prim::min.self_float", {makeDoubleList({2.0, NAN, 1.0})}).toDouble(), 1.0);  // min([2., nan, 1.])
  EXPECT_TRUE(std::isnan(callOp("prim::max.self_float", {makeDoubleList({NAN, 2.0})}).toDouble()));      // max([nan, 2.])
  EXPECT_EQ(errorOf("prim::max.self_int", {ints({})}), "max() arg is an empty sequence");
  EXPECT_EQ(iv(callOp("prim::min.int_list", {ints({1, 2}), ints({1, 1, 5})})), (std::vector<int64_t>{1, 1, 5}));  // min([1,2],[1,1,5])
  EXPECT_EQ(iv(callOp("prim::max.int_list", {ints({1, 2}), ints({1, 1, 5})})), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(callOp("aten::sum.int", {ints({1, 2})}).toInt(), 3);
  EXPECT_DOUBLE_EQ(callOp("aten::sum.float", {makeDoubleList({0.1, 0.2})}).toDouble(), 0.30000000000000004);
  EXPECT_FALSE(callOp("aten::all.int", {ints({1, 0})}).toBool());  // all([1, 0])
  EXPECT_TRUE(callOp("aten::any.int", {ints({0, 3})}).toBool());
  IValue sorted = callOp("aten::sorted.float", {makeDoubleList({2.5, -1.0, 0.0})});
  EXPECT_EQ(sorted.toDoubleVector(), (std::vector<double>{-1.0, 0.0, 2.5}));
}

TEST(PrimList, SortAny) {
  // sorted([(2, 'a'), (1, 'b'), (1, 'a')]) → [(1, 'a'), (1, 'b'), (2, 'a')]
  auto tup = [](int64_t i, const char* s) { return makeTuple({IValue(i), IValue(std::string(s))}); };
  IValue l = makeList(TupleType::create({IntType(), StringType()}), {tup(2, "a"), tup(1, "b"), tup(1, "a")});
  IValue sorted = callOp("aten::sorted.any", {l});
  EXPECT_EQ(sorted.toListRef().elements[0].toTupleRef().elements[1].toStringRef(), "a");
  EXPECT_EQ(sorted.toListRef().elements[1].toTupleRef().elements[1].toStringRef(), "b");
  EXPECT_EQ(sorted.toListRef().elements[2].toTupleRef().elements[0].toInt(), 2);
  callOp("aten::sort.any", {l, true});
  EXPECT_EQ(l.toListRef().elements[0].toTupleRef().elements[0].toInt(), 2);
}

// data/ops/list_slice_cases.txt: "<start|None> <end|None> <step> <result>" for l = [0, 1, 2, 3, 4].
TEST(PrimList, MatchesTorchScriptSliceTable) {
  std::ifstream f(std::string(KINDLING_TEST_DATA_DIR) + "/ops/list_slice_cases.txt");
  ASSERT_TRUE(f.good());
  std::string line;
  size_t n = 0, bad = 0;
  auto opt = [](const std::string& v) { return v == "None" ? IValue() : IValue(static_cast<int64_t>(std::stoll(v))); };
  while (std::getline(f, line)) {
    std::istringstream is(line);
    std::string a, b, c, expected;
    is >> a >> b >> c;
    std::getline(is, expected);
    expected.erase(0, expected.find_first_not_of(' '));
    std::string got;
    try {
      IValue r = callOp("aten::slice.t", {ints({0, 1, 2, 3, 4}), opt(a), opt(b), opt(c)});
      for (int64_t x : r.toIntVector()) {
        if (!got.empty()) got += ',';
        got += std::to_string(x);
      }
    } catch (const RuntimeError& e) {
      got = "error:" + e.message();
    }
    ++n;
    if (got != expected && ++bad <= 30) ADD_FAILURE() << line << "\n  kindling: " << got;
  }
  EXPECT_EQ(n, 2592u);
  EXPECT_EQ(bad, 0u);
}
