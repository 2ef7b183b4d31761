// IValue: Python repr/str, TorchScript print format, equality, hashing, dict order, objects, runtime types.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "core/ivalue.h"

using namespace kindling;

namespace {
IValue strList(std::vector<std::string> v) {
  std::vector<IValue> e(v.begin(), v.end());
  return makeList(StringType(), std::move(e));
}
IValue dictOf(std::vector<std::pair<IValue, IValue>> kv, TypePtr k = StringType(), TypePtr v = IntType()) {
  auto d = makeIntrusive<DictValue>(k, v);
  for (auto& p : kv) d->insertOrAssign(p.first, p.second);
  return IValue(d);
}
}  // namespace

TEST(IValue, PythonFloatReprMatchesPython) {
  // Generated with python3: repr(struct.unpack('<d', bits)[0]) for fixed and random doubles.
  struct Case { uint64_t bits; const char* repr; };
  const Case cases[] = {
      {0x0000000000000000ULL, "0.0"},
      {0x8000000000000000ULL, "-0.0"},
      {0x3ff0000000000000ULL, "1.0"},
      {0x3fb999999999999aULL, "0.1"},
      {0x3ee4f8b588e368f1ULL, "1e-05"},
      {0x3f1a36e2eb1c432dULL, "0.0001"},
      {0x4341c37937e08000ULL, "1e+16"},
      {0x430c6bf526340000ULL, "1000000000000000.0"},
      {0x42dc12218377de40ULL, "123456789012345.0"},
      {0x43118b54f22aeb00ULL, "1234567890123456.0"},
      {0x4345ee2a2eb5a5c4ULL, "1.2345678901234568e+16"},
      {0x7e41eb2d66005835ULL, "1.5e+300"},
      {0x0000000000000001ULL, "5e-324"},
      {0x4004000000000000ULL, "2.5"},
      {0xc00e000000000000ULL, "-3.75"},
      {0x3fd5555555555555ULL, "0.3333333333333333"},
      {0x3fe5555555555555ULL, "0.6666666666666666"},
      {0x4480f0cf064dd592ULL, "1e+22"},
      {0x3e7ad7f29abcaf48ULL, "1e-07"},
      {0x3f202e4b6ce5dc68ULL, "0.00012345"},
      {0x4059000000000000ULL, "100.0"},
      {0x54b249ad2594c37dULL, "1e+100"},
      {0x400921f9f01b866eULL, "3.14159"},
      {0x40effc0000000000ULL, "65504.0"},
      {0x4340000000000000ULL, "9007199254740992.0"},
      {0x3dd89f250454edaaULL, "8.957307212181266e-11"},
      {0x3ec9529614d657f7ULL, "3.0186894607970752e-06"},
      {0x3a7fd1455f0d105aULL, "6.425485839826166e-27"},
      {0xbad4c89c3363fe1cULL, "-2.686221661748289e-25"},
      {0x3a503ae48f5bbaf1ULL, "8.194081262862046e-28"},
      {0xbc65544999b94733ULL, "-9.250086831160304e-18"},
      {0xbf25735fbc2ccb54ULL, "-0.00016365569725848106"},
      {0xbccd7e0325cd05cdULL, "-8.185739733122699e-16"},
      {0xbf4ce4e5f52163b2ULL, "-0.0008817789878420217"},
      {0xc126f61827c86327ULL, "-752396.0777007089"},
      {0x3c7e1ecb072a1bbaULL, "2.6125183146347418e-17"},
      {0x416114285b2c27e3ULL, "8954178.849140113"},
      {0x4104e256c32290f3ULL, "171082.84528077356"},
      {0x3a52ddccf1beab90ULL, "9.525102111858402e-28"},
      {0x39ecbb8637c8c026ULL, "1.1332979587418523e-29"},
      {0xbb496f46f7247e68ULL, "-4.2078142733664747e-23"},
      {0x3b5897d5f9b9a01fULL, "8.137177106428494e-23"},
      {0xc11760f1683d3ebbULL, "-383036.3517961313"},
      {0x4468aa7ca87bf99eULL, "3.6400538952240915e+21"},
      {0x3ac94107f170c7f8ULL, "1.632003273249325e-25"},
      {0xc1f7416340841d34ULL, "-6242579464.25713"},
      {0x3abd8d699ea1dfd5ULL, "9.548893141911562e-26"},
      {0x3a597fb86e5e72b1ULL, "1.2873658626677332e-27"},
      {0xc1c186b6c72e409eULL, "-588082574.361347"},
      {0x426276af610276d7ULL, "634404931603.7137"},
      {0xc3c9cad1a375ece5ULL, "-3.7170565924641695e+18"},
      {0x4160272b7587641dULL, "8468827.67277723"},
      {0xbe657ff67f5325f9ULL, "-4.0046600627263525e-08"},
      {0xc40bc69b475648bdULL, "-6.404665008337136e+19"},
      {0xc3d1c1c2569bf200ULL, "-5.118069785556943e+18"},
      {0xc11862370d37f382ULL, "-399501.7629087494"},
      {0x401e02d0df6f4c3aULL, "7.5027499114685785"},
      {0xc30d159af0abe535ULL, "-1023316191444134.6"},
      {0x4196e58265fe7b17ULL, "96034969.49851643"},
      {0x3ad27714cb6c69aaULL, "2.386566129509826e-25"},
      {0x3bb8494943221f64ULL, "5.142818591304987e-21"},
      {0x3b905e55164411f0ULL, "8.66540424361275e-22"},
      {0xbf1828a7cf18cf37ULL, "-9.215854859051248e-05"},
      {0xc26895f1fddecd16ULL, "-844759035638.4089"},
      {0x40cc86981233ad54ULL, "14605.188055476792"},
  };
  for (const auto& c : cases) {
    double d;
    std::memcpy(&d, &c.bits, 8);
    EXPECT_EQ(pythonFloatRepr(d), c.repr);
    EXPECT_EQ(IValue(d).repr(), c.repr);
  }
  EXPECT_EQ(pythonFloatRepr(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(pythonFloatRepr(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(pythonFloatRepr(std::nan("")), "nan");
}

TEST(IValue, ReprLikePython) {
  EXPECT_EQ(IValue().repr(), "None");
  EXPECT_EQ(IValue(true).repr(), "True");
  EXPECT_EQ(IValue(int64_t(-3)).repr(), "-3");
  EXPECT_EQ(IValue("a").repr(), "'a'");
  EXPECT_EQ(IValue("it's").repr(), "\"it's\"");
  EXPECT_EQ(IValue("a'b\"c").repr(), "'a\\'b\"c'");
  EXPECT_EQ(IValue("x\ny\t\\").repr(), "'x\\ny\\t\\\\'");
  EXPECT_EQ(makeIntList({1, 2}).repr(), "[1, 2]");
  EXPECT_EQ(makeIntList({}).repr(), "[]");
  EXPECT_EQ(makeTuple({IValue(1)}).repr(), "(1,)");
  EXPECT_EQ(makeTuple({}).repr(), "()");
  EXPECT_EQ(makeTuple({IValue(1), IValue("a")}).repr(), "(1, 'a')");
  EXPECT_EQ(makeDoubleList({1.0, 0.5}).repr(), "[1.0, 0.5]");
  EXPECT_EQ(dictOf({{IValue("a"), IValue(1)}, {IValue("b"), IValue(2)}}).repr(), "{'a': 1, 'b': 2}");
  EXPECT_EQ(IValue(Device{}).repr(), "device(type='cpu')");
  EXPECT_EQ(IValue(Device{}).str(), "cpu");
  EXPECT_EQ(IValue("a").str(), "a");
  EXPECT_EQ(strList({"a"}).str(), "['a']");
  auto named = TupleType::createNamed("__torch__.Point", {"x", "y"}, {IntType(), IntType()});
  IValue nt(makeIntrusive<TupleValue>(std::vector<IValue>{IValue(1), IValue(2)}, named));
  EXPECT_EQ(nt.repr(), "Point(x=1, y=2)");
}

TEST(IValue, TorchScriptPrintFormat) {
  // @torch.jit.script def f(x: float): print(1.0, 0.1, x, 1e-5, [1.0, 0.5], (1,), {'a': 1.5}, 'str',
  //   ['s', "it's"], None, True, 1e20, float('inf'), -0.0, 12345678901.0)   with f(2.5) printed
  // "1. 0.10000000000000001 2.5 1.0000000000000001e-05 [1., 0.5] (1,) {a: 1.5} str [s, it's] None True 1e+20 inf 0. 12345678901."
  std::vector<IValue> vals = {IValue(1.0), IValue(0.1), IValue(2.5), IValue(1e-5), makeDoubleList({1.0, 0.5}),
                              makeTuple({IValue(1)}),
                              dictOf({{IValue("a"), IValue(1.5)}}, StringType(), FloatType()),
                              IValue("str"), strList({"s", "it's"}), IValue(), IValue(true), IValue(1e20),
                              IValue(std::numeric_limits<double>::infinity()), IValue(-0.0), IValue(12345678901.0)};
  std::string out;
  for (size_t i = 0; i < vals.size(); ++i) {
    if (i) out += " ";
    out += vals[i].printStr();
  }
  EXPECT_EQ(out, "1. 0.10000000000000001 2.5 1.0000000000000001e-05 [1., 0.5] (1,) {a: 1.5} str [s, it's] None True "
                 "1e+20 inf 0. 12345678901.");
  // print((1, 'a'), [[1], [2, 3]], ('x',), 1e-20, 1.0/3) →
  // "(1, a) [[1], [2, 3]] (x,) 9.9999999999999995e-21 0.33333333333333331"
  EXPECT_EQ(makeTuple({IValue(1), IValue("a")}).printStr(), "(1, a)");
  EXPECT_EQ(makeList(ListType::ofInts(), {makeIntList({1}), makeIntList({2, 3})}).printStr(), "[[1], [2, 3]]");
  EXPECT_EQ(makeTuple({IValue("x")}).printStr(), "(x,)");
  EXPECT_EQ(IValue(1e-20).printStr(), "9.9999999999999995e-21");
  EXPECT_EQ(IValue(1.0 / 3).printStr(), "0.33333333333333331");
}

TEST(IValue, EqualityIsPythonLike) {
  EXPECT_EQ(IValue(1), IValue(1.0));
  EXPECT_EQ(IValue(true), IValue(1));
  EXPECT_NE(IValue(1), IValue(2));
  EXPECT_NE(IValue(1), IValue("1"));
  EXPECT_EQ(IValue(), IValue());
  EXPECT_NE(IValue(), IValue(0));
  EXPECT_EQ(makeIntList({1, 2}), makeDoubleList({1.0, 2.0}));
  EXPECT_NE(makeIntList({1, 2}), makeIntList({1, 2, 3}));
  EXPECT_EQ(makeTuple({IValue("a"), IValue(1)}), makeTuple({IValue("a"), IValue(1)}));
  EXPECT_EQ(dictOf({{IValue("a"), IValue(1)}, {IValue("b"), IValue(2)}}),
            dictOf({{IValue("b"), IValue(2)}, {IValue("a"), IValue(1)}}));
  EXPECT_NE(dictOf({{IValue("a"), IValue(1)}}), dictOf({{IValue("a"), IValue(2)}}));
  EXPECT_EQ(IValue(1).hash(), IValue(1.0).hash());
  EXPECT_EQ(IValue("ab").hash(), IValue(std::string("ab")).hash());
  EXPECT_THROW(makeIntList({1}).hash(), RuntimeError);
  IValue l = makeIntList({1});
  IValue l2 = l;
  EXPECT_TRUE(l.is(l2));
  EXPECT_FALSE(l.is(makeIntList({1})));
}

TEST(IValue, DictKeepsInsertionOrder) {
  auto d = makeIntrusive<DictValue>(StringType(), IntType());
  d->insertOrAssign("c", 1);
  d->insertOrAssign("a", 2);
  d->insertOrAssign("b", 3);
  d->insertOrAssign("c", 4);  // keeps position
  EXPECT_FALSE(d->insert("a", 9));
  EXPECT_TRUE(d->insert("d", 5));
  EXPECT_EQ(IValue(d).repr(), "{'c': 4, 'a': 2, 'b': 3, 'd': 5}");
  EXPECT_TRUE(d->erase("a"));
  EXPECT_FALSE(d->erase("zz"));
  EXPECT_EQ(IValue(d).repr(), "{'c': 4, 'b': 3, 'd': 5}");
  ASSERT_NE(d->find("d"), nullptr);
  EXPECT_EQ(d->find("d")->toInt(), 5);
  EXPECT_EQ(d->find("a"), nullptr);
  d->clear();
  EXPECT_EQ(d->size(), 0u);
  // int keys: 1 and 1.0 are the same key, as in Python
  auto di = makeIntrusive<DictValue>(IntType(), StringType());
  di->insertOrAssign(1, "x");
  ASSERT_NE(di->find(IValue(1.0)), nullptr);
}

TEST(IValue, AccessorsAndTypes) {
  EXPECT_EQ(makeIntList({3, 4}).toIntVector(), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(makeDoubleList({0.5}).toDoubleVector(), (std::vector<double>{0.5}));
  EXPECT_EQ(makeBoolList({true, false}).toBoolVector(), (std::vector<bool>{true, false}));
  EXPECT_THROW(IValue(1).toDouble(), RuntimeError);
  EXPECT_THROW(IValue("x").toInt(), RuntimeError);
  EXPECT_EQ(IValue(1.5).toScalar().toDouble(), 1.5);
  EXPECT_TRUE(IValue(3).toScalar().isIntegral());
  EXPECT_THROW(IValue("x").toScalar(), RuntimeError);
  EXPECT_EQ(IValue(Scalar(true)).tag(), IValue::Tag::Bool);
  EXPECT_EQ(IValue(1).type()->str(), "int");
  EXPECT_EQ(IValue(1.0).type()->str(), "float");
  EXPECT_EQ(IValue().type()->str(), "NoneType");
  EXPECT_EQ(makeIntList({}).type()->str(), "int[]");
  EXPECT_EQ(makeTuple({IValue(1), IValue("a")}).type()->str(), "(int, str)");
  EXPECT_EQ(dictOf({}).type()->str(), "Dict(str, int)");
  EXPECT_EQ(IValue(ScalarType::Float).toInt(), 6);
  EXPECT_STREQ(makeIntList({}).tagName(), "GenericList");
  // refcounting: copies share the list
  IValue a = makeIntList({1});
  IValue b = a;
  b.toListRef().elements.push_back(IValue(2));
  EXPECT_EQ(a.toIntVector().size(), 2u);
  EXPECT_EQ(a.toList()->use_count(), 3u);  // a, b and the temporary
}

TEST(IValue, ObjectAttributes) {
  auto cls = ClassType::create("__torch__.M", false);
  cls->addAttribute("w", IntType());
  auto obj = makeIntrusive<Object>(cls, 1);
  obj->setAttr("w", 3);
  EXPECT_EQ(obj->getAttr("w").toInt(), 3);
  try {
    obj->getAttr("missing");
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()), "__torch__.M does not have an attribute with name 'missing'");
  }
  EXPECT_THROW(obj->setAttr("missing", 1), RuntimeError);
  cls->addAttribute("late", IntType());  // added after the object was created
  EXPECT_TRUE(obj->getAttr("late").isNone());
  obj->setAttr("late", 5);
  EXPECT_EQ(obj->getAttr("late").toInt(), 5);
  IValue o(obj);
  EXPECT_EQ(o.type()->str(), "__torch__.M");
  EXPECT_EQ(o, IValue(obj));
}

TEST(IValue, Future) {
  auto f = makeIntrusive<FutureValue>(IntType());
  EXPECT_THROW(f->wait(), RuntimeError);
  f->markCompleted(7);
  EXPECT_EQ(f->wait().toInt(), 7);
  IValue v(f);
  EXPECT_EQ(v.type()->str(), "Future[int]");
  auto g = makeIntrusive<FutureValue>(IntType());
  g->setError("bad", "builtins.ValueError");
  try {
    g->wait();
    FAIL();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.pythonClass(), "builtins.ValueError");
  }
}

TEST(Scalar, StrAndNegation) {
  EXPECT_EQ(Scalar(1.0).str(), "1.0");
  EXPECT_EQ(Scalar(int64_t(3)).str(), "3");
  EXPECT_EQ(Scalar(true).str(), "True");
  EXPECT_EQ((-Scalar(2.5)).toDouble(), -2.5);
  EXPECT_EQ((-Scalar(int64_t(2))).toLong(), -2);
  EXPECT_TRUE((-Scalar(int64_t(2))).isIntegral());
}

TEST(Device, ParseAndPrint) {
  EXPECT_EQ(Device::parse("cpu").str(), "cpu");
  EXPECT_EQ(Device::parse("cuda:1").str(), "cuda:1");
  EXPECT_EQ(Device::parse("cuda").index, -1);
  EXPECT_THROW(Device::parse("tpu"), RuntimeError);
  EXPECT_THROW(Device::parse("cuda:x"), RuntimeError);
  EXPECT_THROW(Device::parse("cuda:"), RuntimeError);
}

TEST(IValue, SelfContainingContainersPrintLikePython) {
  // l = []; l.append(l); repr(l) == '[[...]]'
  IValue l = makeList(AnyType(), {});
  l.toListRef().elements.push_back(l);
  EXPECT_EQ(l.repr(), "[[...]]");
  EXPECT_EQ(l.printStr(), "[[...]]");
  l.toListRef().elements.clear();  // break the cycle so the list is freed
  // d = {}; d['a'] = d; repr(d) == "{'a': {...}}"
  auto d = makeIntrusive<DictValue>(StringType(), AnyType());
  d->insertOrAssign("a", IValue(d));
  EXPECT_EQ(IValue(d).repr(), "{'a': {...}}");
  d->clear();
}

TEST(IValue, EnumAndDevicePrinting) {
  // class Color(Enum): RED = 1 ; TorchScript print(c, torch.device('cpu'), (1.5, 'a', None), {1: 'x'})
  // → "Enum<Color.RED> cpu (1.5, a, None) {1: x}"; Python repr of a returned member: <Color.RED: 1>
  auto et = std::make_shared<EnumType>("__torch__.Color", IntType());
  IValue red(makeIntrusive<EnumHolder>(et, "RED", IValue(1)));
  EXPECT_EQ(red.printStr(), "Enum<Color.RED>");
  EXPECT_EQ(red.repr(), "<Color.RED: 1>");
  EXPECT_EQ(IValue(Device{}).printStr(), "cpu");
  EXPECT_EQ(makeTuple({IValue(1.5), IValue("a"), IValue()}).printStr(), "(1.5, a, None)");
  auto d = makeIntrusive<DictValue>(IntType(), StringType());
  d->insertOrAssign(1, "x");
  EXPECT_EQ(IValue(d).printStr(), "{1: x}");
  EXPECT_EQ(makeBoolList({true, false}).printStr(), "[True, False]");
  IValue red2(makeIntrusive<EnumHolder>(et, "RED", IValue(1)));
  EXPECT_EQ(red, red2);
  EXPECT_EQ(red.hash(), red2.hash());
}

namespace {
// [[[...[0]...]]] `depth` levels deep, built from the inside out.
IValue nestedList(int depth) {
  IValue v(int64_t(0));
  for (int i = 0; i < depth; ++i) v = makeList(AnyType(), {v});
  return v;
}
IValue nestedTuple(int depth) {
  IValue v(int64_t(0));
  for (int i = 0; i < depth; ++i) v = makeTuple({v});
  return v;
}
std::string recursionErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const RuntimeError& e) {
    EXPECT_EQ(e.pythonClass(), "builtins.RecursionError");
    return e.message();
  }
  ADD_FAILURE() << "no RecursionError";
  return "";
}
}  // namespace

TEST(IValue, DeepValuesRaiseRecursionErrorInsteadOfOverflowingTheStack) {
  // 5,000 levels: past the bound of recursive walks (1,000), within what the test's own stack survives.
  IValue l = nestedList(5000), t = nestedTuple(5000);
  EXPECT_NE(recursionErrorOf([&] { (void)l.repr(); }).find("printing"), std::string::npos);
  EXPECT_NE(recursionErrorOf([&] { (void)l.printStr(); }).find("nested more than 1000"), std::string::npos);
  EXPECT_NE(recursionErrorOf([&] { (void)t.str(); }).find("printing"), std::string::npos);
  EXPECT_NE(recursionErrorOf([&] { (void)(l == nestedList(5000)); }).find("comparing"), std::string::npos);
  EXPECT_NE(recursionErrorOf([&] { (void)t.hash(); }).find("hashing"), std::string::npos);
  EXPECT_NE(recursionErrorOf([&] { (void)t.type(); }).find("typing"), std::string::npos);
  // The guard unwinds: shallow values still print, compare and hash afterwards.
  EXPECT_EQ(nestedList(3).repr(), "[[[0]]]");
  EXPECT_EQ(nestedTuple(2).repr(), "((0,),)");
  EXPECT_TRUE(nestedList(999) == nestedList(999));
  EXPECT_EQ(nestedTuple(900).hash(), nestedTuple(900).hash());
  EXPECT_EQ(nestedTuple(2).type()->annotationStr(), "Tuple[Tuple[int]]");
}

TEST(IValue, DeepContainersAreFreedWithoutRecursion) {
  // A million levels: freed recursively, each level costs a few destructor frames and overflows the
  // stack (SIGSEGV); the containers release what they hold last in a loop.
  constexpr int kDepth = 1000000;
  {
    IValue v = nestedList(kDepth);
  }
  {
    IValue v = nestedTuple(kDepth);
  }
  {
    IValue v(int64_t(0));
    for (int i = 0; i < kDepth; ++i) v = dictOf({{IValue("k"), v}}, StringType(), AnyType());
  }
  {
    IValue v(int64_t(0));  // a dict's key and value both hold the nesting (the key by a shallow tuple)
    for (int i = 0; i < kDepth; ++i) {
      auto d = makeIntrusive<DictValue>(AnyType(), AnyType());
      d->insertOrAssign(makeTuple({IValue(int64_t(i))}), v);
      v = makeList(AnyType(), {IValue(d)});
    }
  }
  {
    // A linked list of objects (next in slot 0).
    auto cls = ClassType::create("__torch__.Node", false);
    cls->addAttribute("next", AnyType());
    IValue v;
    for (int i = 0; i < kDepth; ++i) {
      auto o = makeIntrusive<Object>(cls, 1);
      o->slots[0] = v;
      v = IValue(o);
    }
  }
  {
    IValue v(int64_t(0));  // futures and lists alternating
    for (int i = 0; i < kDepth; ++i) {
      auto f = makeIntrusive<FutureValue>(AnyType());
      f->markCompleted(makeList(AnyType(), {v}));
      v = IValue(f);
    }
  }
}

TEST(IValue, SharedElementsOutliveTheContainerThatDies) {
  IValue inner = makeList(IntType(), {IValue(int64_t(7))});
  IValue deep = inner;
  for (int i = 0; i < 100000; ++i) deep = makeList(AnyType(), {deep});
  deep = IValue();  // frees the 100,000 outer lists; `inner` is still referenced here
  ASSERT_TRUE(inner.isList());
  EXPECT_EQ(inner.toListRef().elements.size(), 1u);
  EXPECT_EQ(inner.repr(), "[7]");
  // A value freed while another one is being freed (a destructor that drops an unrelated deep value).
  IValue a = nestedList(100000), b = nestedList(100000);
  IValue pair = makeTuple({a, b});
  a = IValue();
  b = IValue();
  pair = IValue();
}
