// Type printing, subtyping and unification against PyTorch 1.13 (torch._C types: .str(), .annotation_str,
// .isSubtypeOf, torch._C.unify_type_list — the expressions are in the comments).
#include <gtest/gtest.h>

#include "core/ivalue.h"
#include "core/type.h"

using namespace kindling;

TEST(Type, Printing) {
  EXPECT_EQ(ListType::ofInts()->str(), "int[]");
  EXPECT_EQ(ListType::ofInts()->annotationStr(), "List[int]");
  EXPECT_EQ(OptionalType::create(TensorType())->str(), "Tensor?");
  EXPECT_EQ(OptionalType::create(TensorType())->annotationStr(), "Optional[Tensor]");
  auto d = DictType::create(StringType(), IntType());
  EXPECT_EQ(d->str(), "Dict(str, int)");
  EXPECT_EQ(d->annotationStr(), "Dict[str, int]");
  auto t = TupleType::create({IntType(), FloatType()});
  EXPECT_EQ(t->str(), "(int, float)");
  EXPECT_EQ(t->annotationStr(), "Tuple[int, float]");
  EXPECT_EQ(TupleType::create({})->str(), "()");
  EXPECT_EQ(TupleType::create({})->annotationStr(), "Tuple[()]");
  EXPECT_EQ(TupleType::create({IntType()})->str(), "(int)");
  // C.ListType(C.OptionalType(C.IntType.get())) → "int?[]" | "List[Optional[int]]"
  auto lo = ListType::create(OptionalType::create(IntType()));
  EXPECT_EQ(lo->str(), "int?[]");
  EXPECT_EQ(lo->annotationStr(), "List[Optional[int]]");
  EXPECT_EQ(NoneType()->str(), "NoneType");
  EXPECT_EQ(NumberType()->str(), "Scalar");
  EXPECT_EQ(NumberType()->annotationStr(), "number");
  EXPECT_EQ(DeviceObjType()->str(), "Device");
  EXPECT_EQ(FutureType::create(IntType())->str(), "Future[int]");
  EXPECT_EQ(OptionalType::create(OptionalType::create(IntType()))->str(), "int?");
}

TEST(Type, UnionPrintingAndNormalisation) {
  // C.UnionType([Int, Str]) → "Union(int, str)" | "Union[int, str]"
  auto u = UnionType::create({IntType(), StringType()});
  EXPECT_EQ(u->str(), "Union(int, str)");
  EXPECT_EQ(u->annotationStr(), "Union[int, str]");
  // C.UnionType([Str, Int, None]) → "Union(int, NoneType, str)" (c10 sorts members by kind)
  EXPECT_EQ(UnionType::create({StringType(), IntType(), NoneType()})->str(), "Union(int, NoneType, str)");
  // C.UnionType([Int, None]) → "int?"
  EXPECT_EQ(UnionType::create({IntType(), NoneType()})->str(), "int?");
  // C.UnionType([Int, Float, Str]) → "Union(float, int, str)"
  EXPECT_EQ(UnionType::create({IntType(), FloatType(), StringType()})->str(), "Union(float, int, str)");
  // C.UnionType([Int, Float, Complex]) → "Union(Scalar)" | "Union[number]"
  auto n = UnionType::create({IntType(), FloatType(), ComplexType()});
  EXPECT_EQ(n->str(), "Union(Scalar)");
  EXPECT_EQ(n->annotationStr(), "Union[number]");
  // nested unions flatten: C.UnionType([Int, C.UnionType([Str, Bool])]) → "Union(int, str, bool)"
  EXPECT_EQ(UnionType::create({IntType(), UnionType::create({StringType(), BoolType()})})->str(), "Union(int, str, bool)");
  // C.UnionType([Tensor, Int]) → "Union(Tensor, int)"
  EXPECT_EQ(UnionType::create({TensorType(), IntType()})->str(), "Union(Tensor, int)");
  EXPECT_EQ(UnionType::create({IntType(), IntType()})->str(), "int");
  EXPECT_TRUE(UnionType::create({IntType(), StringType()})->equals(*UnionType::create({StringType(), IntType()})));
}

TEST(Type, Subtyping) {
  EXPECT_TRUE(IntType()->isSubtypeOf(NumberType()));
  EXPECT_TRUE(FloatType()->isSubtypeOf(NumberType()));
  EXPECT_FALSE(BoolType()->isSubtypeOf(NumberType()));
  EXPECT_TRUE(IntType()->isSubtypeOf(OptionalType::create(IntType())));
  EXPECT_TRUE(NoneType()->isSubtypeOf(OptionalType::create(TensorType())));
  EXPECT_FALSE(OptionalType::create(IntType())->isSubtypeOf(IntType()));
  EXPECT_TRUE(TensorType()->isSubtypeOf(AnyType()));
  EXPECT_TRUE(ListType::ofInts()->isSubtypeOf(AnyType()));
  // C.OptionalType(Int).isSubtypeOf(C.UnionType([Int, None, Str])) → True
  EXPECT_TRUE(OptionalType::create(IntType())->isSubtypeOf(UnionType::create({IntType(), NoneType(), StringType()})));
  // C.UnionType([Int, Float]).isSubtypeOf(Number) → True
  EXPECT_TRUE(UnionType::create({IntType(), FloatType()})->isSubtypeOf(NumberType()));
  // C.TupleType([Int]).isSubtypeOf(C.TupleType([Number])) → True (covariant)
  EXPECT_TRUE(TupleType::create({IntType()})->isSubtypeOf(TupleType::create({NumberType()})));
  // C.ListType(Int).isSubtypeOf(C.ListType(Number)) → False (invariant)
  EXPECT_FALSE(ListType::ofInts()->isSubtypeOf(ListType::create(NumberType())));
  EXPECT_TRUE(ListType::ofInts()->isSubtypeOf(AnyListType()));
  EXPECT_TRUE(TupleType::create({IntType()})->isSubtypeOf(AnyTupleType()));
  EXPECT_FALSE(TupleType::create({IntType()})->isSubtypeOf(TupleType::create({IntType(), IntType()})));
  auto named = TupleType::createNamed("__torch__.P", {"x", "y"}, {IntType(), IntType()});
  EXPECT_TRUE(named->isSubtypeOf(TupleType::create({IntType(), IntType()})));
  EXPECT_FALSE(TupleType::create({IntType(), IntType()})->isSubtypeOf(named));
  EXPECT_EQ(named->str(), "__torch__.P");
  auto cls = ClassType::create("__torch__.M", true);
  EXPECT_TRUE(cls->isSubtypeOf(AnyClassType()));
  EXPECT_TRUE(cls->isSubtypeOf(ClassType::create("__torch__.M", true)));
  EXPECT_FALSE(cls->isSubtypeOf(ClassType::create("__torch__.N", true)));
  EXPECT_TRUE(FutureType::create(IntType())->isSubtypeOf(FutureType::create(NumberType())));
}

TEST(Type, Unify) {
  auto show = [](const TypePtr& a, const TypePtr& b) {
    auto r = unifyTypes(a, b);
    return r ? (*r)->annotationStr() : std::string("none");
  };
  // torch._C.unify_type_list([...]).annotation_str
  EXPECT_EQ(show(IntType(), IntType()), "int");
  EXPECT_EQ(show(IntType(), NoneType()), "Optional[int]");
  EXPECT_EQ(show(NoneType(), TensorType()), "Optional[Tensor]");
  EXPECT_EQ(show(IntType(), FloatType()), "none");
  EXPECT_EQ(show(OptionalType::create(IntType()), IntType()), "Optional[int]");
  EXPECT_EQ(show(OptionalType::create(IntType()), NoneType()), "Optional[int]");
  EXPECT_EQ(show(TupleType::create({IntType(), NoneType()}), TupleType::create({IntType(), StringType()})),
            "Tuple[int, Optional[str]]");
  EXPECT_EQ(show(ListType::ofInts(), ListType::create(FloatType())), "none");
  EXPECT_EQ(show(TupleType::create({IntType()}), TupleType::create({IntType(), IntType()})), "none");
  EXPECT_EQ(show(IntType(), NumberType()), "number");
  EXPECT_EQ(show(OptionalType::create(IntType()), StringType()), "none");
  EXPECT_EQ(show(TensorType(), OptionalType::create(TensorType())), "Optional[Tensor]");
  EXPECT_EQ(show(TupleType::create({IntType(), FloatType()}), TupleType::create({NoneType(), FloatType()})),
            "Tuple[Optional[int], float]");
}

TEST(Type, ClassTypeSlotsAndConstants) {
  auto cls = ClassType::create("__torch__.torchvision.models.resnet.ResNet", true);
  EXPECT_EQ(cls->name(), "ResNet");
  EXPECT_EQ(cls->addAttribute("conv1", TensorType(), true), 0u);
  EXPECT_EQ(cls->addAttribute("training", BoolType()), 1u);
  EXPECT_EQ(cls->findAttributeSlot("training"), 1);
  EXPECT_EQ(cls->findAttributeSlot("nope"), -1);
  EXPECT_THROW(cls->addAttribute("conv1", TensorType()), RuntimeError);
  cls->addConstant("eps", IValue(1e-5));
  ASSERT_NE(cls->findConstant("eps"), nullptr);
  EXPECT_EQ(cls->findConstant("eps")->toDouble(), 1e-5);
  EXPECT_EQ(cls->findConstant("x"), nullptr);
  EXPECT_EQ(cls->findMethod("forward"), nullptr);
}
