// SourceImporter tests: archive-style code/ files served from memory; classes found by longest existing
// file prefix (incl. ___torch_mangle_N files), attributes/parameters/buffers/constants, free functions,
// CONSTANTS.cN, lazy bodies, errors for missing classes.
#include "serialize/import_source.h"

#include <gtest/gtest.h>

#include <map>

#include "../frontend/frontend_test_util.h"
#include "tensor/tensor.h"

namespace kindling {
namespace {

using testing::TestTarget;

const std::map<std::string, std::string> kFiles = {
    {"code/__torch__/torch/nn/modules/conv.py",
     "class Conv2d(Module):\n"
     "  __parameters__ = [\"weight\", \"bias\", ]\n"
     "  __buffers__ = []\n"
     "  weight : Tensor\n"
     "  bias : Optional[Tensor]\n"
     "  training : bool\n"
     "  stride : Final[Tuple[int, int]] = (2, 2)\n"
     "  padding_mode : Final[str] = \"zeros\"\n"
     "  def forward(self: __torch__.torch.nn.modules.conv.Conv2d,\n"
     "    input: Tensor) -> Tensor:\n"
     "    weight = self.weight\n"
     "    bias = self.bias\n"
     "    _0 = (self)._conv_forward(input, weight, bias, )\n"
     "    return _0\n"
     "  def _conv_forward(self: __torch__.torch.nn.modules.conv.Conv2d,\n"
     "    input: Tensor,\n"
     "    weight: Tensor,\n"
     "    bias: Optional[Tensor]) -> Tensor:\n"
     "    _1 = torch.conv2d(input, weight, bias, [2, 2], [3, 3], [1, 1])\n"
     "    return _1\n"},
    {"code/__torch__/torch/nn/modules/conv/___torch_mangle_1.py",
     "class Conv2d(Module):\n"
     "  __parameters__ = [\"weight\", ]\n"
     "  __buffers__ = [\"scale\", ]\n"
     "  weight : Tensor\n"
     "  scale : Tensor\n"
     "  training : bool\n"
     "  def forward(self: __torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d,\n"
     "    argument_1: Tensor) -> Tensor:\n"
     "    weight = self.weight\n"
     "    input = torch._convolution(argument_1, weight, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, False, False, True, True)\n"
     "    return torch.mul(input, CONSTANTS.c0)\n"},
    {"code/__torch__/torch/nn/functional.py",
     "def relu(input: Tensor,\n"
     "    inplace: bool=False) -> Tensor:\n"
     "  if inplace:\n"
     "    result = torch.relu_(input)\n"
     "  else:\n"
     "    result = torch.relu(input)\n"
     "  return result\n"},
    {"code/__torch__.py",
     "class Net(Module):\n"
     "  __parameters__ = []\n"
     "  __buffers__ = []\n"
     "  training : bool\n"
     "  __annotations__[\"0\"] = __torch__.torch.nn.modules.conv.Conv2d\n"
     "  __annotations__[\"1\"] = __torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d\n"
     "  def forward(self: __torch__.Net,\n"
     "    x: Tensor) -> Tensor:\n"
     "    _0 = getattr(self, \"0\")\n"
     "    _1 = getattr(self, \"1\")\n"
     "    _2 = __torch__.torch.nn.functional.relu((_0).forward(x, ), True, )\n"
     "    return (_1).forward(_2, )\n"},
    {"code/__torch__/extra.py",
     "class Color(Enum):\n"
     "  RED = 1\n"
     "  GREEN = 2\n"
     "class Holder:\n"
     "  x : int\n"
     "  def __init__(self: __torch__.extra.Holder,\n"
     "    x: int) -> NoneType:\n"
     "    self.x = x\n"
     "    return None\n"
     "class User(Module):\n"
     "  training : bool\n"
     "  c : __torch__.extra.Color\n"
     "  def forward(s: __torch__.extra.User,\n"
     "    x: Tensor) -> int:\n"
     "    h = __torch__.extra.Holder.__new__(__torch__.extra.Holder)\n"
     "    _0 = (h).__init__(3, )\n"
     "    c = s.c\n"
     "    if torch.eq(c, __torch__.extra.Color.GREEN):\n"
     "      _1 = h.x\n"
     "    else:\n"
     "      _1 = 0\n"
     "    return _1\n"},
    {"code/__torch__/broken.py",
     "class Broken(Module):\n"
     "  training : bool\n"
     "  def forward(self: __torch__.broken.Broken,\n"
     "    x: Tensor) -> Tensor:\n"
     "    return torch.no_such_op(x)\n"},
};

SourceImporter::Reader memoryReader(int* reads) {
  return [reads](const std::string& path) -> std::optional<std::string> {
    ++*reads;
    auto it = kFiles.find(path);
    if (it == kFiles.end()) return std::nullopt;
    return it->second;
  };
}

TEST(SourceImporter, LoadsClassesByLongestFilePrefix) {
  TestTarget target;
  int reads = 0;
  std::vector<IValue> constants{IValue(Tensor::full({1}, Scalar(1.0), ScalarType::Float))};
  SourceImporter imp(target, memoryReader(&reads), constants, 3, &testing::allSchemasRegistry());
  ClassTypePtr net = imp.loadClass("__torch__.Net");
  ASSERT_TRUE(net);
  EXPECT_TRUE(net->isModule());
  ASSERT_EQ(net->attributes().size(), 3u);
  EXPECT_EQ(net->attributes()[1].name, "0");
  EXPECT_EQ(net->attributes()[1].type->str(), "__torch__.torch.nn.modules.conv.Conv2d");
  EXPECT_EQ(net->attributes()[2].type->str(), "__torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d");

  auto conv = imp.loadClass("__torch__.torch.nn.modules.conv.Conv2d");
  ASSERT_EQ(conv->attributes().size(), 3u);
  EXPECT_TRUE(conv->attributes()[0].isParameter);
  EXPECT_TRUE(conv->attributes()[1].isParameter);
  EXPECT_EQ(conv->attributes()[1].type->str(), "Tensor?");
  EXPECT_FALSE(conv->attributes()[2].isParameter);
  ASSERT_TRUE(conv->findConstant("stride"));
  EXPECT_EQ(conv->findConstant("stride")->repr(), "(2, 2)");
  EXPECT_EQ(conv->findConstant("padding_mode")->toStringRef(), "zeros");
  EXPECT_TRUE(conv->findMethod("forward"));
  EXPECT_TRUE(conv->findMethod("_conv_forward"));

  auto mangled = imp.loadClass("__torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d");
  EXPECT_TRUE(mangled->attributes()[1].isBuffer);
  EXPECT_NE(mangled.get(), conv.get());

  // loading again returns the same type without re-reading files
  int before = reads;
  EXPECT_EQ(imp.loadClass("__torch__.Net").get(), net.get());
  EXPECT_EQ(reads, before);
}

TEST(SourceImporter, BodiesCompileLazilyAndResolveAcrossFiles) {
  TestTarget target;
  int reads = 0;
  std::vector<IValue> constants{IValue(Tensor::full({1}, Scalar(1.0), ScalarType::Float))};
  SourceImporter imp(target, memoryReader(&reads), constants, 3, &testing::allSchemasRegistry());
  ClassTypePtr net = imp.loadClass("__torch__.Net");
  EXPECT_FALSE(target.findFunction("__torch__.torch.nn.functional.relu"));  // not needed yet
  auto* fwd = target.get("__torch__.Net.forward");
  ASSERT_TRUE(fwd);
  std::string g = fwd->graph()->toString(false);
  EXPECT_NE(g.find("prim::GetAttr[name=\"0\"](%self.1)"), std::string::npos) << g;
  EXPECT_NE(g.find("prim::Constant[name=\"relu\"]()"), std::string::npos) << g;
  EXPECT_NE(g.find("prim::CallFunction("), std::string::npos) << g;
  // GetAttr outputs are named after the attribute, "_1" for the numeric "1" (PyTorch's createGetAttr)
  EXPECT_NE(g.find("prim::CallMethod[name=\"forward\"](%_1, %10)"), std::string::npos) << g;
  ASSERT_TRUE(target.findFunction("__torch__.torch.nn.functional.relu"));

  std::string m = target.get("__torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d.forward")->graph()->toString(false);
  EXPECT_NE(m.find("aten::_convolution(%argument_1.1, %weight.1,"), std::string::npos) << m;
  EXPECT_NE(m.find("Tensor = prim::Constant[value="), std::string::npos) << m;

  std::string c = target.get("__torch__.torch.nn.modules.conv.Conv2d._conv_forward")->graph()->toString(false);
  EXPECT_NE(c.find("aten::conv2d(%input.1, %weight.1, %bias.1,"), std::string::npos) << c;
  EXPECT_EQ(imp.loadFunction("__torch__.torch.nn.functional.relu"), target.findFunction("__torch__.torch.nn.functional.relu"));
  EXPECT_EQ(imp.version(), 3u);
}

TEST(SourceImporter, ScriptClassesAndEnums) {
  TestTarget target;
  int reads = 0;
  SourceImporter imp(target, memoryReader(&reads), {}, 3, &testing::allSchemasRegistry());
  auto user = imp.loadClass("__torch__.extra.User");
  TypePtr color = imp.loadType("__torch__.extra.Color");
  ASSERT_EQ(color->kind(), TypeKind::Enum);
  ASSERT_EQ(color->cast<EnumType>()->members.size(), 2u);
  EXPECT_EQ(color->cast<EnumType>()->members[1].second->toInt(), 2);  // raw member values
  EXPECT_EQ(user->attributes()[1].type.get(), color.get());
  std::string g = target.get("__torch__.extra.User.forward")->graph()->toString(false);
  EXPECT_NE(g.find("%h.1 : __torch__.extra.Holder = prim::CreateObject()"), std::string::npos) << g;
  EXPECT_NE(g.find("prim::CallMethod[name=\"__init__\"](%h.1,"), std::string::npos) << g;
  EXPECT_NE(g.find("Enum<__torch__.extra.Color> = prim::Constant[value=__torch__.extra.Color.GREEN]"), std::string::npos) << g;
  EXPECT_NE(g.find("aten::eq(%c.1,"), std::string::npos) << g;
}

TEST(SourceImporter, Errors) {
  TestTarget target;
  int reads = 0;
  SourceImporter imp(target, memoryReader(&reads), {}, 3, &testing::allSchemasRegistry());
  EXPECT_THROW(imp.loadType("__torch__.nope.Missing"), LoadError);
  EXPECT_THROW(imp.loadType("__torch__.Nope"), LoadError);
  EXPECT_EQ(imp.loadFunction("__torch__.torch.nn.functional.missing"), nullptr);
  // A body with an unknown op fails when compiled, with the archive path in the message.
  imp.loadClass("__torch__.broken.Broken");
  try {
    target.get("__torch__.broken.Broken.forward")->graph();
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    std::string w = e.what();
    EXPECT_NE(w.find("Unknown builtin op: aten::no_such_op"), std::string::npos) << w;
    EXPECT_NE(w.find("code/__torch__/broken.py"), std::string::npos) << w;
  }
  // CONSTANTS out of range
  imp.loadClass("__torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d");
  EXPECT_THROW(target.get("__torch__.torch.nn.modules.conv.___torch_mangle_1.Conv2d.forward")->graph(), CompileError);
}

}  // namespace
}  // namespace kindling
