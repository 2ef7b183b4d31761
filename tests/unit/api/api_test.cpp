// Public API: argument checking against schemas, threads, load + forward on a real archive.
#include "api/api.h"

#include <gtest/gtest.h>

#include "ops/registry/schema_parser.h"
#include "tensor/tensor.h"
#include "test_util.h"

namespace kindling {
namespace {

std::string errorOf(const FunctionSchema& s, std::vector<IValue> args, bool skipSelf = false) {
  try {
    checkArguments(s, std::move(args), skipSelf);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(Api, CheckArgumentsTypes) {
  FunctionSchema s = parseSchema("test::forward(Tensor x, int n=2, float f=1.5, int[] l=[1], str? name=None) -> Tensor");
  Tensor t = Tensor::zeros({2});
  auto out = checkArguments(s, {IValue(t)}, false);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[1].toInt(), 2);
  EXPECT_EQ(out[2].toDouble(), 1.5);
  out = checkArguments(s, {IValue(t), IValue(int64_t(3)), IValue(int64_t(4))}, false);
  EXPECT_TRUE(out[2].isDouble());  // int → float, as TorchScript does for Python callers
  EXPECT_EQ(out[2].toDouble(), 4.0);
  // An untyped empty list fits List[int].
  out = checkArguments(s, {IValue(t), IValue(int64_t(3)), IValue(1.0), IValue(makeIntrusive<ListValue>(AnyType()))}, false);
  EXPECT_EQ(out[3].toListRef().elementType->str(), "int");
  EXPECT_EQ(errorOf(s, {IValue(int64_t(5))}),
            "forward() Expected a value of type 'Tensor' for argument 'x' but instead found type 'int'.");
  EXPECT_NE(errorOf(s, {IValue(t), IValue(t)}).find("for argument 'n'"), std::string::npos);
  EXPECT_NE(errorOf(s, {IValue(t), IValue(1), IValue(1.0), makeDoubleList({1.5})}).find("'List[int]'"), std::string::npos);
  EXPECT_NE(errorOf(s, {}).find("missing value for argument 'x'"), std::string::npos);
  EXPECT_NE(errorOf(s, {IValue(t), 1, 1.0, makeIntList({}), IValue(), IValue()}).find("expected at most 5 argument(s)"),
            std::string::npos);
  EXPECT_EQ(checkArguments(s, {IValue(t), 1, 1.0, makeIntList({}), IValue("n")}, false)[4].toStringRef(), "n");
}

TEST(Api, CheckArgumentsSkipsSelf) {
  FunctionSchema s = parseSchema("test::forward(Tensor self, Tensor x) -> Tensor");
  EXPECT_EQ(checkArguments(s, {IValue(Tensor::zeros({1}))}, true).size(), 1u);
  EXPECT_NE(errorOf(s, {IValue(2.5)}, true).find("argument 'x'"), std::string::npos);
}

TEST(Api, Threads) {
  set_num_threads(1);
  EXPECT_EQ(get_num_threads(), 1);
  set_num_threads(2);
  EXPECT_EQ(get_num_threads(), 2);
  EXPECT_THROW(set_num_threads(0), UsageError);
}

TEST(Api, BindArgumentsByKeyword) {
  FunctionSchema s = parseSchema("test::f(Tensor x, int n=2, *, float scale=1.5, str? tag=None) -> Tensor");
  Tensor t = Tensor::zeros({2});
  auto out = bindArguments(s, {IValue(t)}, {{"scale", IValue(int64_t(3))}, {"tag", IValue("a")}}, false);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[1].toInt(), 2);
  EXPECT_TRUE(out[2].isDouble());  // int → float for the keyword too
  EXPECT_EQ(out[2].toDouble(), 3.0);
  EXPECT_EQ(out[3].toStringRef(), "a");
  out = bindArguments(s, {}, {{"x", IValue(t)}, {"n", IValue(int64_t(7))}}, false);
  EXPECT_EQ(out[1].toInt(), 7);
  auto err = [&](std::vector<IValue> args, std::vector<std::pair<std::string, IValue>> kw) {
    try {
      bindArguments(s, std::move(args), kw, false);
    } catch (const RuntimeError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  EXPECT_NE(err({IValue(t)}, {{"nope", IValue(1)}}).find("unexpected keyword argument 'nope'"), std::string::npos);
  EXPECT_NE(err({IValue(t)}, {{"x", IValue(t)}}).find("multiple values for argument 'x'"), std::string::npos);
  EXPECT_NE(err({}, {{"n", IValue(1)}}).find("missing value for argument 'x'"), std::string::npos);
  EXPECT_NE(err({IValue(t)}, {{"scale", IValue("s")}}).find("for argument 'scale'"), std::string::npos);
}

}  // namespace
}  // namespace kindling
