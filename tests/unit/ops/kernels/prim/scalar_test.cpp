// int / float / bool builtins. Expected values come from PyTorch 1.13 TorchScript (the expression that
// produced each is in the comment; run with torch.jit.CompilationUnit under /usr/bin/python3).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "prim_test_util.h"

using namespace kindling;
using kindling::testing::callOp;
using kindling::testing::errorOf;

static const int64_t kMin = std::numeric_limits<int64_t>::min();
static const int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(PrimScalar, IntArithmeticWraps) {
  EXPECT_EQ(callOp("aten::add.int", {int64_t(2), int64_t(3)}).toInt(), 5);
  EXPECT_EQ(callOp("aten::add.int", {kMax, int64_t(1)}).toInt(), kMin);            // (2**63-1) + 1
  EXPECT_EQ(callOp("aten::mul.int", {int64_t(1) << 62, int64_t(4)}).toInt(), 0);    // 2**62 * 4
  EXPECT_EQ(callOp("aten::neg.int", {kMin}).toInt(), kMin);                         // -(-2**63)
  EXPECT_EQ(callOp("aten::sub.int", {int64_t(3), int64_t(5)}).toInt(), -2);
  EXPECT_TRUE(callOp("aten::add.int_float", {int64_t(1), 0.5}).isDouble());
  EXPECT_DOUBLE_EQ(callOp("aten::add.int_float", {int64_t(1), 0.5}).toDouble(), 1.5);
  // torch.add(1.5, 1) through the Scalar overload → 2.5; two ints stay int.
  EXPECT_DOUBLE_EQ(callOp("aten::add", {1.5, int64_t(1)}).toDouble(), 2.5);
  EXPECT_EQ(callOp("aten::add", {int64_t(1), int64_t(2)}).toInt(), 3);
}

TEST(PrimScalar, DivisionFollowsTorchScript) {
  EXPECT_DOUBLE_EQ(callOp("aten::div.int", {int64_t(7), int64_t(2)}).toDouble(), 3.5);  // 7 / 2
  EXPECT_TRUE(std::isinf(callOp("aten::div.int", {int64_t(1), int64_t(0)}).toDouble()));  // 1 / 0 → inf
  EXPECT_EQ(callOp("aten::floordiv.int", {int64_t(-7), int64_t(2)}).toInt(), -4);   // -7 // 2
  EXPECT_EQ(callOp("aten::floordiv.int", {int64_t(7), int64_t(-2)}).toInt(), -4);   // 7 // -2
  EXPECT_EQ(callOp("aten::floordiv.int", {int64_t(6), int64_t(-2)}).toInt(), -3);
  EXPECT_EQ(errorOf("aten::floordiv.int", {int64_t(1), int64_t(0)}), "division by 0");  // 1 // 0
  EXPECT_EQ(callOp("aten::floordiv.int", {kMin, int64_t(-1)}).toInt(), kMin);       // no trap
  EXPECT_EQ(callOp("aten::remainder.int", {int64_t(-7), int64_t(2)}).toInt(), 1);   // -7 % 2
  EXPECT_EQ(callOp("aten::remainder.int", {int64_t(7), int64_t(-2)}).toInt(), -1);  // 7 % -2
  EXPECT_EQ(errorOf("aten::remainder.int", {int64_t(1), int64_t(0)}), "division by 0");
  EXPECT_DOUBLE_EQ(callOp("aten::floordiv.float", {-7.5, 2.0}).toDouble(), -4.0);   // -7.5 // 2.0
  EXPECT_DOUBLE_EQ(callOp("aten::floordiv.float", {1.0, 0.1}).toDouble(), 10.0);    // 1.0 // 0.1 → 10.0
  EXPECT_TRUE(std::isinf(callOp("aten::floordiv.float", {1.0, 0.0}).toDouble()));   // 1.0 // 0.0 → inf
  EXPECT_DOUBLE_EQ(callOp("aten::remainder.float", {-7.5, 2.0}).toDouble(), 0.5);   // -7.5 % 2.0
  EXPECT_DOUBLE_EQ(callOp("aten::remainder.float", {7.5, -2.0}).toDouble(), -0.5);  // 7.5 % -2.0
  EXPECT_DOUBLE_EQ(callOp("aten::remainder.float", {1.0, 0.1}).toDouble(), 0.09999999999999995);
  double negZero = callOp("aten::remainder.float", {2.0, -2.0}).toDouble();         // 2.0 % -2.0 → -0.0
  EXPECT_TRUE(negZero == 0 && std::signbit(negZero));
  double posZero = callOp("aten::remainder.float", {-0.0, 2.0}).toDouble();         // -0.0 % 2.0 → 0.0
  EXPECT_TRUE(posZero == 0 && !std::signbit(posZero));
  EXPECT_TRUE(std::isnan(callOp("aten::remainder.float", {1.0, 0.0}).toDouble()));  // 1.0 % 0.0 → nan
  // divmod(-7, 2) → (-4, 1); divmod(-7.5, 2.0) → (-4.0, 0.5)
  IValue d = callOp("aten::divmod.int", {int64_t(-7), int64_t(2)});
  EXPECT_EQ(d.toTupleRef().elements[0].toInt(), -4);
  EXPECT_EQ(d.toTupleRef().elements[1].toInt(), 1);
  IValue df = callOp("aten::divmod.float", {-7.5, 2.0});
  EXPECT_DOUBLE_EQ(df.toTupleRef().elements[0].toDouble(), -4.0);
  EXPECT_DOUBLE_EQ(df.toTupleRef().elements[1].toDouble(), 0.5);
  EXPECT_EQ(errorOf("aten::divmod.float", {-7.5, 0.0}), "ZeroDivisionError: float divmod()");
}

TEST(PrimScalar, PowAndMath) {
  EXPECT_DOUBLE_EQ(callOp("aten::pow.int", {int64_t(2), int64_t(10)}).toDouble(), 1024.0);  // 2 ** 10 → 1024.0
  EXPECT_DOUBLE_EQ(callOp("aten::pow.int", {int64_t(2), int64_t(-1)}).toDouble(), 0.5);
  EXPECT_EQ(errorOf("aten::pow.int", {int64_t(0), int64_t(-1)}), "0.0 cannot be raised to a negative power");
  EXPECT_EQ(errorOf("aten::pow.float", {0.0, -1.0}), "0.0 cannot be raised to a negative power");
  EXPECT_TRUE(std::isnan(callOp("aten::pow.float", {-8.0, 1.0 / 3}).toDouble()));
  EXPECT_EQ(callOp("aten::pow.int_to_int", {int64_t(3), int64_t(4)}).toInt(), 81);
  EXPECT_DOUBLE_EQ(callOp("aten::sqrt.int", {int64_t(4)}).toDouble(), 2.0);          // math.sqrt(4)
  EXPECT_TRUE(std::isnan(callOp("aten::sqrt.float", {-1.0}).toDouble()));
  EXPECT_DOUBLE_EQ(callOp("aten::erf.float", {0.5}).toDouble(), 0.5204998778130465);  // math.erf(0.5)
  EXPECT_DOUBLE_EQ(callOp("aten::log.int_int", {int64_t(8), int64_t(2)}).toDouble(), 3.0);  // math.log(8, 2)
  EXPECT_TRUE(std::isinf(callOp("aten::log.float", {0.0}).toDouble()));
  EXPECT_EQ(callOp("aten::floor.float", {-2.5}).toInt(), -3);                        // math.floor(-2.5)
  EXPECT_EQ(callOp("aten::ceil.float", {2.1}).toInt(), 3);
  EXPECT_EQ(callOp("aten::floor.Scalar", {2.5}).toInt(), 2);
  EXPECT_EQ(errorOf("aten::ceil.float", {INFINITY}), "Cannot convert float inf to integer");
  EXPECT_EQ(errorOf("aten::floor.float", {NAN}), "Cannot convert float nan to integer");
  EXPECT_EQ(errorOf("aten::floor.float", {1e30}),
            "Cannot convert float 1000000000000000019884624838656.000000 to integer");
  EXPECT_DOUBLE_EQ(callOp("aten::round.float", {2.5}).toDouble(), 2.0);   // round(2.5) → 2.0
  EXPECT_DOUBLE_EQ(callOp("aten::round.float", {3.5}).toDouble(), 4.0);
  EXPECT_TRUE(std::signbit(callOp("aten::round.float", {-0.5}).toDouble()));  // round(-0.5) → -0.0
  EXPECT_DOUBLE_EQ(callOp("aten::fmod.int", {int64_t(-7), int64_t(2)}).toDouble(), -1.0);  // math.fmod(-7, 2)
  EXPECT_DOUBLE_EQ(callOp("aten::mathremainder.int", {int64_t(7), int64_t(2)}).toDouble(), -1.0);  // math.remainder(7, 2)
  EXPECT_EQ(callOp("aten::gcd.int", {int64_t(-12), int64_t(18)}).toInt(), 6);
  EXPECT_EQ(callOp("aten::factorial.int", {int64_t(20)}).toInt(), 2432902008176640000);
  EXPECT_EQ(callOp("aten::factorial.int", {int64_t(21)}).toInt(), -4249290049419214848);  // wraps
  EXPECT_EQ(errorOf("aten::factorial.int", {int64_t(-1)}), "factorial() not defined for negative values");
  EXPECT_DOUBLE_EQ(callOp("aten::copysign.int", {int64_t(3), int64_t(0)}).toDouble(), 3.0);
  EXPECT_TRUE(std::isinf(callOp("aten::gamma.float", {0.0}).toDouble()));
  EXPECT_EQ(callOp("prim::abs.int", {int64_t(-5)}).toInt(), 5);
  EXPECT_EQ(callOp("prim::abs.int", {kMin}).toInt(), kMin);                          // abs(-2**63)
  EXPECT_DOUBLE_EQ(callOp("aten::neg.Scalar", {2.0}).toDouble(), -2.0);
}

TEST(PrimScalar, ComparisonsMinMax) {
  EXPECT_TRUE(callOp("aten::eq.int_float", {int64_t(3), 3.0}).toBool());   // 3 == 3.0
  EXPECT_TRUE(callOp("aten::lt.float_int", {2.5, int64_t(3)}).toBool());
  EXPECT_FALSE(callOp("aten::ge.int", {int64_t(2), int64_t(3)}).toBool());
  EXPECT_TRUE(callOp("aten::ne.bool", {true, false}).toBool());
  EXPECT_FALSE(callOp("aten::eq.float", {NAN, NAN}).toBool());
  IValue m = callOp("prim::min.int_float", {int64_t(3), 2.5});              // min(3, 2.5) → 2.5
  EXPECT_TRUE(m.isDouble());
  EXPECT_DOUBLE_EQ(m.toDouble(), 2.5);
  EXPECT_EQ(callOp("prim::max.int", {int64_t(3), int64_t(-4)}).toInt(), 3);
  EXPECT_TRUE(callOp("prim::max", {int64_t(3), int64_t(-4)}).isInt());
}

TEST(PrimScalar, Conversions) {
  EXPECT_EQ(callOp("aten::Int.float", {-2.7}).toInt(), -2);                 // int(-2.7)
  EXPECT_EQ(callOp("aten::Int.float", {1e30}).toInt(), kMin);               // int(1e30) on x86
  EXPECT_EQ(callOp("aten::Int.float", {NAN}).toInt(), kMin);
  EXPECT_EQ(callOp("aten::Int.bool", {true}).toInt(), 1);
  EXPECT_EQ(callOp("aten::Int.str", {IValue("12")}).toInt(), 12);
  EXPECT_EQ(callOp("aten::Int.str", {IValue("+5")}).toInt(), 5);
  EXPECT_EQ(errorOf("aten::Int.str", {IValue(" 12 ")}), "invalid literal for int() with base 10: ' 12 '");
  EXPECT_EQ(errorOf("aten::Int.str", {IValue("1.5")}), "invalid literal for int() with base 10: '1.5'");
  EXPECT_EQ(errorOf("aten::Int.str", {IValue("0x10")}), "invalid literal for int() with base 10: '0x10'");
  EXPECT_EQ(errorOf("aten::Int.str", {IValue("abc")}), "stoll");
  EXPECT_EQ(errorOf("aten::Int.str", {IValue("99999999999999999999")}), "stoll");
  EXPECT_DOUBLE_EQ(callOp("aten::Float.str", {IValue(" 1.5")}).toDouble(), 1.5);
  EXPECT_TRUE(std::isinf(callOp("aten::Float.str", {IValue("inf")}).toDouble()));
  EXPECT_EQ(errorOf("aten::Float.str", {IValue("1.5x")}), "could not convert string to float: '1.5x'");
  EXPECT_EQ(errorOf("aten::Float.str", {IValue("abc")}), "stod");
  EXPECT_EQ(errorOf("aten::Float.str", {IValue("1e999")}), "stod");   // float("1e999") in TorchScript
  EXPECT_EQ(errorOf("aten::Float.str", {IValue("1e-400")}), "stod");
  EXPECT_DOUBLE_EQ(callOp("aten::Float.str", {IValue("0x1p3")}).toDouble(), 8.0);
  EXPECT_DOUBLE_EQ(callOp("aten::Float.int", {int64_t(3)}).toDouble(), 3.0);
  EXPECT_TRUE(callOp("aten::Bool.float", {0.5}).toBool());
  EXPECT_FALSE(callOp("aten::Bool.int", {int64_t(0)}).toBool());
}

TEST(PrimScalar, BitsLogicIdentity) {
  EXPECT_EQ(callOp("aten::__lshift__.int", {int64_t(1), int64_t(65)}).toInt(), 2);     // 1 << 65 → 2
  EXPECT_EQ(callOp("aten::__lshift__.int", {int64_t(1), int64_t(-1)}).toInt(), kMin);  // 1 << -1
  EXPECT_EQ(callOp("aten::__rshift__.int", {int64_t(-8), int64_t(1)}).toInt(), -4);
  EXPECT_TRUE(callOp("aten::__xor__.bool", {true, false}).toBool());
  EXPECT_TRUE(callOp("aten::__xor__.bool", {true, false}).isBool());
  EXPECT_EQ(callOp("aten::__and__.int", {int64_t(6), int64_t(3)}).toInt(), 2);
  EXPECT_FALSE(callOp("aten::__not__", {true}).toBool());
  EXPECT_TRUE(callOp("aten::__is__", {IValue(), IValue()}).toBool());
  EXPECT_TRUE(callOp("aten::__isnot__", {int64_t(1), IValue()}).toBool());
  // for i in range(1, 10, 3): 3 iterations, values 1, 4, 7
  EXPECT_EQ(callOp("aten::__range_length", {int64_t(1), int64_t(10), int64_t(3)}).toInt(), 3);
  EXPECT_EQ(callOp("aten::__range_length", {int64_t(10), int64_t(1), int64_t(-3)}).toInt(), 3);
  EXPECT_EQ(callOp("aten::__range_length", {int64_t(5), int64_t(1), int64_t(1)}).toInt(), 0);
  EXPECT_EQ(callOp("aten::__range_length", {kMin, kMax, kMax}).toInt(), 3);  // len(range(-2**63, 2**63-1, 2**63-1)) in Python
  EXPECT_EQ(callOp("aten::__range_length", {kMax, kMin, kMin}).toInt(), 2);  // len(range(2**63-1, -2**63, -2**63))
  EXPECT_EQ(callOp("aten::__derive_index", {int64_t(2), int64_t(1), int64_t(3)}).toInt(), 7);
}

TEST(PrimScalar, Enums) {
  // class Color(Enum): RED = 1; GREEN = 2 — c.name, c.value, c == Color.RED
  auto color = std::make_shared<EnumType>("__torch__.Color", IntType());
  IValue red(makeIntrusive<EnumHolder>(color, "RED", IValue(int64_t(1))));
  IValue red2(makeIntrusive<EnumHolder>(color, "RED", IValue(int64_t(1))));
  IValue green(makeIntrusive<EnumHolder>(color, "GREEN", IValue(int64_t(2))));
  EXPECT_EQ(callOp("prim::EnumName", {red}).toStringRef(), "RED");
  EXPECT_EQ(callOp("prim::EnumValue.int", {green}).toInt(), 2);
  EXPECT_TRUE(callOp("aten::eq.enum", {red, red2}).toBool());
  EXPECT_TRUE(callOp("aten::ne.enum", {red, green}).toBool());
}

TEST(PrimScalar, Hash) {
  // hash('abc'), hash(1.5), hash(-3), hash(True), hash((-3, 'abc')), hash((1, 2)) in TorchScript
  EXPECT_EQ(callOp("aten::hash.generic", {IValue("abc")}).toInt(), 3663726644998027833);
  EXPECT_EQ(callOp("aten::hash.generic", {1.5}).toInt(), 4982507072649106663);
  EXPECT_EQ(callOp("aten::hash.generic", {int64_t(-3)}).toInt(), -3);
  EXPECT_EQ(callOp("aten::hash.generic", {true}).toInt(), 1);
  EXPECT_EQ(callOp("aten::hash.generic", {makeTuple({int64_t(-3), IValue("abc")})}).toInt(), 3663726820850009705);
  EXPECT_EQ(callOp("aten::hash.generic", {makeTuple({int64_t(1), int64_t(2)})}).toInt(), 175247769363);
}

// Every line of data/ops/scalar_arith_cases.txt (PyTorch 1.13 TorchScript results, see its generator):
// run the overload TorchScript picks for (op, type a, type b) and compare bit for bit (nan with nan).
TEST(PrimScalar, MatchesTorchScriptArithmeticTable) {
  std::ifstream f(std::string(KINDLING_TEST_DATA_DIR) + "/ops/scalar_arith_cases.txt");
  ASSERT_TRUE(f.good());
  std::string line;
  size_t n = 0, bad = 0;
  auto parseValue = [](const std::string& t, const std::string& v) -> IValue {
    if (t == "int") return IValue(static_cast<int64_t>(std::stoll(v)));
    return IValue(std::strtod(v.c_str(), nullptr));
  };
  while (std::getline(f, line)) {
    std::istringstream is(line);
    std::string op, ta, a, tb, b;
    is >> op >> ta >> a >> tb >> b;
    std::string expected;
    std::getline(is, expected);
    expected.erase(0, expected.find_first_not_of(' '));
    std::string suffix = ta == tb ? ta : ta + "_" + tb;
    const Operator* o = OperatorRegistry::global().find("aten::" + op + "." + suffix);
    if (!o) o = OperatorRegistry::global().find("aten::" + op);  // mixed div uses aten::div(Scalar, Scalar)
    ASSERT_NE(o, nullptr) << line;
    Stack s{parseValue(ta, a), parseValue(tb, b)};
    std::string got;
    try {
      o->fn(s);
      const IValue& r = s.back();
      if (r.isBool()) got = std::string("bool:") + (r.toBool() ? "1" : "0");
      else if (r.isInt()) got = "int:" + std::to_string(r.toInt());
      else got = "float:" + std::to_string(r.toDouble());
      if (r.isDouble() && expected.rfind("float:", 0) == 0) {
        double e = std::strtod(expected.c_str() + 6, nullptr);
        double g = r.toDouble();
        bool same = (std::isnan(e) && std::isnan(g)) || (e == g && std::signbit(e) == std::signbit(g));
        if (same) got = expected;
      }
    } catch (const RuntimeError& e) {
      got = "error:" + e.message();
    }
    ++n;
    if (got != expected && ++bad <= 20) ADD_FAILURE() << line << "\n  kindling: " << got;
  }
  EXPECT_EQ(n, 8708u);
  EXPECT_EQ(bad, 0u);
}

// data/ops/scalar_math_cases.txt: "<overload> <nargs> (<type> <value>)* <result>" from PyTorch 1.13.
TEST(PrimScalar, MatchesTorchScriptMathTable) {
  std::ifstream f(std::string(KINDLING_TEST_DATA_DIR) + "/ops/scalar_math_cases.txt");
  ASSERT_TRUE(f.good());
  std::string line;
  size_t n = 0, bad = 0;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    std::string op;
    int nargs = 0;
    is >> op >> nargs;
    Stack s;
    for (int i = 0; i < nargs; ++i) {
      std::string t, v;
      is >> t >> v;
      if (t == "int") s.emplace_back(static_cast<int64_t>(std::stoll(v)));
      else s.emplace_back(std::strtod(v.c_str(), nullptr));
    }
    std::string expected;
    std::getline(is, expected);
    expected.erase(0, expected.find_first_not_of(' '));
    const Operator* o = OperatorRegistry::global().find(op);
    ASSERT_NE(o, nullptr) << line;
    std::string got;
    try {
      o->fn(s);
      const IValue& r = s.back();
      if (r.isBool()) got = std::string("bool:") + (r.toBool() ? "1" : "0");
      else if (r.isInt()) got = "int:" + std::to_string(r.toInt());
      else got = "float:" + std::to_string(r.toDouble());
      if (r.isDouble() && expected.rfind("float:", 0) == 0) {
        double e = std::strtod(expected.c_str() + 6, nullptr);
        double g = r.toDouble();
        bool same = (std::isnan(e) && std::isnan(g)) || (e == g && std::signbit(e) == std::signbit(g));
        if (same) got = expected;
      }
    } catch (const RuntimeError& e) {
      got = "error:" + e.message();
    }
    ++n;
    if (got != expected && ++bad <= 30) ADD_FAILURE() << line << "\n  kindling: " << got;
  }
  EXPECT_EQ(n, 7392u);
  EXPECT_EQ(bad, 0u);
}
