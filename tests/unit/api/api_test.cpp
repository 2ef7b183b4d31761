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

TEST(Api, LoadMissingFile) { EXPECT_THROW(jit::load("/nonexistent/model.pt"), LoadError); }

TEST(Api, SaveAndLoadWithExtraFiles) {
  std::string path = testing::scratchPath("api_extra.py");
  testing::writeFile(path, "import torch\ndef f(x: torch.Tensor) -> torch.Tensor:\n    return x * 2\n");
  std::string dir = testing::scratchPath("");
  std::string src = dir + "api_src.pt";
  ASSERT_EQ(testing::runPython("import torch\n"
                               "class M(torch.nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        return x + 1\n"
                               "torch.jit.save(torch.jit.script(M()), '" + src + "', _extra_files={'a.txt': 'A'})\n"),
            0);
  ExtraFilesMap files{{"a.txt", ""}, {"missing", "as given"}};
  jit::Module m = jit::load(src, files);
  EXPECT_EQ(files.at("a.txt"), "A");
  EXPECT_EQ(files.at("missing"), "as given");  // libtorch leaves absent keys alone
  std::string out = dir + "api_out.pt";
  m.save(out, {{"b.txt", "B"}});
  ExtraFilesMap back{{"b.txt", ""}};
  jit::Module m2 = jit::load(out, Device{}, back);
  EXPECT_EQ(back.at("b.txt"), "B");
  EXPECT_EQ(m2.forward({IValue(Tensor::zeros({2}))}).toTensor().doubleAt(0), 1.0);
  EXPECT_THROW(jit::load(out, Device{DeviceType::CUDA, 0}, back), UsageError);
}

}  // namespace
}  // namespace kindling
