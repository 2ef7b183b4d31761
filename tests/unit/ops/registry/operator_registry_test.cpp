// OperatorRegistry: add / lookup / find, duplicate rejection, and the global registry's schemas all
// being PyTorch 1.13 schemas spelled exactly as torch._C._jit_get_all_schemas() prints them.
#include "ops/registry/operator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <unordered_set>

#include "tensor/tensor.h"


using namespace kindling;

namespace {
void k1(Stack& s) { push(s, int64_t(1)); }
void k2(Stack& s) { push(s, int64_t(2)); }
}  // namespace

TEST(Registry, AddLookupFind) {
  OperatorRegistry r;
  r.add("aten::foo.int(int a) -> int", k1);
  r.add("aten::foo.float(float a) -> float", k2);
  r.add("aten::bar(Tensor self) -> Tensor", k1);
  EXPECT_EQ(r.lookup("aten::foo").size(), 2u);
  EXPECT_EQ(r.lookup("aten::nope").size(), 0u);
  ASSERT_NE(r.find("aten::foo.float"), nullptr);
  EXPECT_EQ(r.find("aten::foo.float")->fn, &k2);
  EXPECT_EQ(r.find("aten::foo.float")->name(), "aten::foo");
  ASSERT_NE(r.find("aten::bar"), nullptr);
  EXPECT_EQ(r.find("aten::foo"), nullptr);  // no empty overload registered
  EXPECT_EQ(r.all().size(), 3u);
  EXPECT_THROW(r.add("aten::foo.int(int x) -> int", k2), Error);  // duplicate name.overload
  EXPECT_THROW(r.add("aten::baz(int x -> int", k2), Error);       // malformed
  EXPECT_THROW(r.add("aten::baz(int x) -> int", nullptr), Error);
  EXPECT_EQ(r.all().size(), 3u);
  Stack s;
  r.find("aten::foo.int")->fn(s);
  EXPECT_EQ(s.back().toInt(), 1);
}

TEST(Registry, GlobalSchemasAreExactlyPyTorchs) {
  std::ifstream f(std::string(KINDLING_TEST_DATA_DIR) + "/ops/jit_schemas_1_13.txt");
  std::unordered_set<std::string> torch;
  std::string line;
  while (std::getline(f, line)) torch.insert(line);
  ASSERT_EQ(torch.size(), 4165u);
  // torchvision 0.14's operators (torchvision::nms, roi_align, ...), registered once torchvision is imported.
  std::ifstream tv(std::string(KINDLING_TEST_DATA_DIR) + "/ops/torchvision_schemas_0_14.txt");
  while (std::getline(tv, line)) torch.insert(line);
  // Operators of PyTorch 2.x that 1.13 lacks, with 2.x's schemas (ops/attention.cpp, ops/norm.cpp).
  std::ifstream v2(std::string(KINDLING_TEST_DATA_DIR) + "/ops/pytorch2_schemas.txt");
  size_t newer = 0;
  for (; std::getline(v2, line); ++newer) torch.insert(line);
  EXPECT_EQ(newer, 3u);
  auto all = allSchemaStrings();
  EXPECT_EQ(all.size(), OperatorRegistry::global().all().size());
  EXPECT_GT(all.size(), 100u);
  size_t unknown = 0;
  for (const auto& s : all) {
    if (!torch.count(s)) {
      ++unknown;
      ADD_FAILURE() << "registered schema is not a PyTorch 1.13 schema: " << s;
    }
  }
  EXPECT_EQ(unknown, 0u);
  // A few that the frontend relies on.
  const auto& g = OperatorRegistry::global();
  for (const char* q : {"aten::add.int", "aten::floordiv.float_int", "prim::min.int", "aten::__is__", "aten::Int.str"})
    EXPECT_NE(g.find(q), nullptr) << q;
}

TEST(Registry, PrimFamiliesRegisterIndependently) {
  struct Family {
    const char* name;
    void (*fn)(OperatorRegistry&);
  };
  const Family families[] = {{"prim_scalar", registerPrimScalarOps}, {"prim_list", registerPrimListOps},
                             {"prim_string", registerPrimStringOps}, {"prim_dict", registerPrimDictOps},
                             {"tensor_prim", registerTensorPrimOps}};
  size_t total = 0;
  for (const auto& f : families) {
    OperatorRegistry r;
    f.fn(r);
    EXPECT_GT(r.all().size(), 0u) << f.name;
    std::cout << "[ info ] " << f.name << ": " << r.all().size() << " overloads\n";
    total += r.all().size();
  }
  std::cout << "[ info ] prim families: " << total << " overloads; global registry: "
            << OperatorRegistry::global().all().size() << "\n";
}

TEST(Registry, WrittenTensorArgumentsBumpVersions) {
  OperatorRegistry r;
  r.add("test::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", k1);
  r.add("test::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", k1);
  r.add("test::foreach_zero_(Tensor(a!)[] self) -> ()", k1);
  r.add("test::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)", k1);
  r.add("test::view(Tensor(a) self, int[] size) -> Tensor(a)", k1);
  r.add("test::opt_(Tensor(a!)? self) -> ()", k1);
  EXPECT_EQ(r.find("test::add_.Tensor")->writtenArgs, 1u);
  EXPECT_EQ(r.find("test::add.out")->writtenArgs, 8u);
  EXPECT_EQ(r.find("test::foreach_zero_")->writtenArgs, 1u);
  EXPECT_EQ(r.find("test::append.t")->writtenArgs, 0u);  // the list is written, not its tensors
  EXPECT_EQ(r.find("test::view")->writtenArgs, 0u);
  EXPECT_EQ(r.find("test::opt_")->writtenArgs, 1u);

  Tensor a = Tensor::zeros({2}), b = Tensor::zeros({2}), c = Tensor::zeros({2});
  const uint64_t va = a.storage()->version(), vb = b.storage()->version(), vc = c.storage()->version();
  Stack s{IValue(a.select(0, 1)), IValue(b), IValue(Scalar(int64_t(1))), IValue(c)};
  bumpWrittenVersions(r.find("test::add.out")->writtenArgs, s.data());
  EXPECT_EQ(a.storage()->version(), va);
  EXPECT_EQ(b.storage()->version(), vb);
  EXPECT_EQ(c.storage()->version(), vc + 1);
  bumpWrittenVersions(r.find("test::add_.Tensor")->writtenArgs, s.data());
  EXPECT_EQ(a.storage()->version(), va + 1);  // through a view: the storage's counter
  Stack l{IValue(makeIntrusive<ListValue>(TensorType(), std::vector<IValue>{IValue(b), IValue(c)}))};
  bumpWrittenVersions(r.find("test::foreach_zero_")->writtenArgs, l.data());
  EXPECT_EQ(b.storage()->version(), vb + 1);
  EXPECT_EQ(c.storage()->version(), vc + 2);
  // Every in-place operator of the global registry is tracked.
  size_t inplace = 0;
  for (const auto& op : OperatorRegistry::global().all()) {
    const FunctionSchema& sc = op->schema;
    const bool dunder = sc.name.size() > 2 && sc.name.compare(sc.name.size() - 2, 2, "__") == 0;  // __and__
    if (sc.name.size() > 1 && sc.name.back() == '_' && !dunder && sc.name.rfind("aten::", 0) == 0 && !sc.arguments.empty() &&
        sc.arguments[0].type->kind() == TypeKind::Tensor) {
      EXPECT_EQ(op->writtenArgs & 1u, 1u) << sc.str();
      ++inplace;
    }
  }
  EXPECT_GT(inplace, 100u);
}
