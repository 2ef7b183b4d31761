// Builtins on int / float / bool (and `Scalar`, an int or a float) that TorchScript programs call:
// arithmetic with Python semantics, comparisons, conversions, bit operations and the math module.
// Registered with PyTorch 1.13's schemas (aten::add.int, aten::floordiv.float_int, prim::min.int, ...).
//
// Semantics follow PyTorch 1.13's TorchScript interpreter (register_prim_ops.cpp), checked against it:
//   int + - * wrap around (two's complement); `/` always gives a float (1/0 → inf, not an error);
//   // floors toward -inf; % is PyTorch's (b + a % b) % b on ints (wrapping) and fmod(b + fmod(a, b), b) on
//   floats (the sign follows the divisor); int // 0 and int % 0 raise "division by 0"; float // is
//   floor(a / b);
//   a ** b on ints is a float (aten::pow.int); 0.0 ** negative raises; int(float) truncates (nan/inf →
//   INT64_MIN as on x86); math.floor / ceil raise on nan/inf/out of range; round() rounds half to even;
//   << and >> shift by b mod 64. tests/unit/data/ops/scalar_arith_cases.txt holds 8708 PyTorch results
//   over edge values that these kernels reproduce bit for bit.
// One kernel serves every overload of an operator (int, float, int_float, float_int, Scalar): it looks
// at the IValue tags, so the result type always matches the schema the frontend picked.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <string>
#include <unordered_map>
#include <cstdio>
#include <limits>

#include "core/value_nesting.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {
namespace {

// ---- numeric helpers ----

inline bool isIntLike(const IValue& v) { return v.isInt() || v.isBool(); }
inline int64_t asInt(const IValue& v) { return v.isBool() ? int64_t(v.toBool()) : v.toInt(); }
inline double asDouble(const IValue& v) {
  if (v.isDouble()) return v.toDouble();
  if (v.isInt()) return static_cast<double>(v.toInt());
  if (v.isBool()) return v.toBool() ? 1.0 : 0.0;
  throw RuntimeError(fmt::format("expected a number but got {}", v.tagName()));
}

inline int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t wrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
inline int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

[[noreturn]] void divisionByZero() { throw RuntimeError("division by 0"); }

inline int64_t intFloorDiv(int64_t a, int64_t b) {
  if (b == 0) divisionByZero();
  if (b == -1) return wrapSub(0, a);  // INT64_MIN // -1 wraps instead of trapping
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
inline int64_t intMod(int64_t a, int64_t b) {  // PyTorch: (b + (a % b)) % b, with wrap-around
  if (b == 0) divisionByZero();
  if (b == -1) return 0;
  return wrapAdd(b, a % b) % b;
}
inline double floatMod(double a, double b) {  // PyTorch: fmod(b + fmod(a, b), b)
  return std::fmod(b + std::fmod(a, b), b);
}
inline double checkedPow(double a, double b) {
  if (a == 0 && b < 0) throw RuntimeError("0.0 cannot be raised to a negative power");
  return std::pow(a, b);
}
inline int64_t intPow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 0) throw RuntimeError("0.0 cannot be raised to a negative power");
    if (base == 1) return 1;
    if (base == -1) return (exp & 1) ? -1 : 1;
    return 0;
  }
  int64_t r = 1;
  while (exp) {
    if (exp & 1) r = wrapMul(r, base);
    base = wrapMul(base, base);
    exp >>= 1;
  }
  return r;
}
/// float → int as math.floor / math.ceil do: raises on nan, inf and out of range.
inline int64_t checkedToInt(double d) {
  if (!std::isfinite(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "Cannot convert float %f to integer", d);
    throw RuntimeError(buf);
  }
  return static_cast<int64_t>(d);
}
/// float → int as int(x): truncation; like x86's cvttsd2si (what PyTorch does), nan/inf/out of range
/// give INT64_MIN.
inline int64_t truncToInt(double d) {
  if (!(d > -9223372036854775809.0 && d < 9223372036854775808.0)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(d);
}

// ---- binary arithmetic: int op int → int, anything with a float → float ----

template <class Op>
void binaryArith(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  if (isIntLike(a) && isIntLike(b)) push(s, Op::i(asInt(a), asInt(b)));
  else push(s, Op::d(asDouble(a), asDouble(b)));
}
struct AddOp { static int64_t i(int64_t a, int64_t b) { return wrapAdd(a, b); } static double d(double a, double b) { return a + b; } };
struct SubOp { static int64_t i(int64_t a, int64_t b) { return wrapSub(a, b); } static double d(double a, double b) { return a - b; } };
struct MulOp { static int64_t i(int64_t a, int64_t b) { return wrapMul(a, b); } static double d(double a, double b) { return a * b; } };
struct FloorDivOp { static int64_t i(int64_t a, int64_t b) { return intFloorDiv(a, b); } static double d(double a, double b) { return std::floor(a / b); } };
struct RemainderOp { static int64_t i(int64_t a, int64_t b) { return intMod(a, b); } static double d(double a, double b) { return floatMod(a, b); } };
// As PyTorch: a < b ? a : b (so min(nan, 1.) is 1. and min(1., nan) is nan; min(0., -0.) is -0.).
struct MinOp { static int64_t i(int64_t a, int64_t b) { return a < b ? a : b; } static double d(double a, double b) { return a < b ? a : b; } };
struct MaxOp { static int64_t i(int64_t a, int64_t b) { return a > b ? a : b; } static double d(double a, double b) { return a > b ? a : b; } };

/// Binary ops whose result is always a float.
template <double (*F)(double, double)>
void binaryFloat(Stack& s) {
  double b = asDouble(pop(s));
  double a = asDouble(pop(s));
  push(s, F(a, b));
}
double divF(double a, double b) { return a / b; }
double powF(double a, double b) { return checkedPow(a, b); }
double atan2F(double a, double b) { return std::atan2(a, b); }
double copysignF(double a, double b) { return std::copysign(a, b); }
double fmodF(double a, double b) { return std::fmod(a, b); }
double ieeeRemainderF(double a, double b) { return std::remainder(a, b); }
double logBaseF(double a, double b) { return std::log(a) / std::log(b); }

void powIntToInt(Stack& s) {
  int64_t b = pop(s).toInt();
  int64_t a = pop(s).toInt();
  push(s, intPow(a, b));
}

// ---- comparisons ----

template <class Cmp>
void compare(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  if (isIntLike(a) && isIntLike(b)) push(s, Cmp()(asInt(a), asInt(b)));
  else push(s, Cmp()(asDouble(a), asDouble(b)));
}

// ---- unary ----

template <double (*F)(double)>
void unaryFloat(Stack& s) {  // X.int / X.float → float, X.Scalar → float
  double a = asDouble(pop(s));
  push(s, F(a));
}
double degreesF(double a) { return a * (180.0 / M_PI); }
double radiansF(double a) { return a * (M_PI / 180.0); }
double gammaF(double a) { return std::tgamma(a); }
double angleF(double a) { return a < 0 ? M_PI : (std::isnan(a) ? a : 0.0); }
double roundF(double a) { return std::nearbyint(a); }  // half to even, as Python's round()

template <double (*F)(double)>
void floatToIntRounding(Stack& s) {  // floor / ceil of a float → int (checked)
  IValue a = pop(s);
  if (isIntLike(a)) push(s, asInt(a));
  else push(s, checkedToInt(F(a.toDouble())));
}
/// aten::floor.int: PyTorch 1.13 goes through double (so floor(2**63 - 1) gives INT64_MIN); ceil.int does not.
void floorInt(Stack& s) { push(s, truncToInt(std::floor(static_cast<double>(pop(s).toInt())))); }
double floorF(double a) { return std::floor(a); }
double ceilF(double a) { return std::ceil(a); }

void negOp(Stack& s) {
  IValue a = pop(s);
  if (isIntLike(a)) push(s, wrapSub(0, asInt(a)));
  else push(s, -a.toDouble());
}
void absOp(Stack& s) {
  IValue a = pop(s);
  if (isIntLike(a)) {
    int64_t v = asInt(a);
    push(s, v < 0 ? wrapSub(0, v) : v);
  } else {
    push(s, std::fabs(a.toDouble()));
  }
}
void isnanOp(Stack& s) { push(s, std::isnan(pop(s).toDouble())); }
void isinfOp(Stack& s) { push(s, std::isinf(pop(s).toDouble())); }
void isfiniteOp(Stack& s) { push(s, static_cast<bool>(std::isfinite(pop(s).toDouble()))); }
void factorialOp(Stack& s) {
  int64_t n = pop(s).toInt();
  if (n == std::numeric_limits<int64_t>::min()) {  // PyTorch 1.13 returns 1 here (checked)
    push(s, int64_t(1));
    return;
  }
  KD_CHECK(n >= 0, "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i) r = wrapMul(r, i);
  push(s, r);
}
void gcdOp(Stack& s) {
  int64_t b = pop(s).toInt();
  int64_t a = pop(s).toInt();
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  push(s, a < 0 ? wrapSub(0, a) : a);
}

// ---- divmod, frexp, modf, ldexp ----

void divmodOp(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  if (isIntLike(a) && isIntLike(b)) {
    int64_t x = asInt(a), y = asInt(b);
    if (y == 0) throw RuntimeError("ZeroDivisionError: integer divmod()");
    push(s, intFloorDiv(x, y));  // two outputs (int, int), not one tuple
    push(s, intMod(x, y));
    return;
  }
  double x = asDouble(a), y = asDouble(b);
  if (y == 0) throw RuntimeError("ZeroDivisionError: float divmod()");
  double mod = std::fmod(x, y);
  double div = (x - mod) / y;
  if (mod != 0 && ((y < 0) != (mod < 0))) {
    mod += y;
    div -= 1.0;
  }
  push(s, div);
  push(s, mod);
}
void frexpOp(Stack& s) {
  double a = pop(s).toDouble();
  int e = 0;
  double m = std::frexp(a, &e);
  push(s, m);
  push(s, static_cast<int64_t>(e));
}
void modfOp(Stack& s) {
  double a = pop(s).toDouble();
  double ip = 0;
  double fp = std::modf(a, &ip);
  push(s, fp);
  push(s, ip);
}
void ldexpOp(Stack& s) {
  int64_t i = pop(s).toInt();
  double x = pop(s).toDouble();
  push(s, std::ldexp(x, static_cast<int>(std::max<int64_t>(std::min<int64_t>(i, 100000), -100000))));
}

// ---- conversions ----

void toIntOp(Stack& s) {  // aten::Int.float / .bool / .Scalar
  IValue a = pop(s);
  if (a.isDouble()) push(s, truncToInt(a.toDouble()));
  else push(s, asInt(a));
}
void toFloatOp(Stack& s) { push(s, asDouble(pop(s))); }
void toBoolOp(Stack& s) {
  IValue a = pop(s);
  if (a.isDouble()) push(s, a.toDouble() != 0);
  else push(s, asInt(a) != 0);
}
/// int(str): as std::stoll with PyTorch's checks ("invalid literal for int() with base 10: '1.5'").
void intFromStr(Stack& s) {
  std::string str = pop(s).toStringRef();
  errno = 0;
  const char* b = str.c_str();
  char* end = nullptr;
  long long v = std::strtoll(b, &end, 10);
  if (end == b || errno == ERANGE) throw RuntimeError("stoll");
  if (static_cast<size_t>(end - b) != str.size())
    throw RuntimeError(fmt::format("invalid literal for int() with base 10: '{}'", str));
  push(s, static_cast<int64_t>(v));
}
/// float(str): std::stod with PyTorch's checks ("could not convert string to float: '1.5x'").
void floatFromStr(Stack& s) {
  std::string str = pop(s).toStringRef();
  const char* b = str.c_str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(b, &end);
  if (end == b || errno == ERANGE) throw RuntimeError("stod");  // std::stod: also out of range
  if (static_cast<size_t>(end - b) != str.size())
    throw RuntimeError(fmt::format("could not convert string to float: '{}'", str));
  push(s, v);
}

// ---- bit and logic ----

template <class Op>
void bitOp(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  if (a.isBool() && b.isBool()) push(s, static_cast<bool>(Op()(a.toBool(), b.toBool())));
  else push(s, static_cast<int64_t>(Op()(asInt(a), asInt(b))));
}
void lshiftOp(Stack& s) {
  int64_t b = pop(s).toInt();
  int64_t a = pop(s).toInt();
  push(s, static_cast<int64_t>(static_cast<uint64_t>(a) << (b & 63)));
}
void rshiftOp(Stack& s) {
  int64_t b = pop(s).toInt();
  int64_t a = pop(s).toInt();
  push(s, a >> (b & 63));
}
void notOp(Stack& s) { push(s, !pop(s).toBool()); }
void isOp(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, a.is(b));
}
void isNotOp(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, !a.is(b));
}

// ---- loops over range() ----

void rangeLength(Stack& s) {  // aten::__range_length(int lo, int hi, int step) -> int
  int64_t step = pop(s).toInt();
  int64_t hi = pop(s).toInt();
  int64_t lo = pop(s).toInt();
  KD_CHECK(step != 0, "range() arg 3 must not be zero");
  // Unsigned differences: no overflow for any lo, hi, step.
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  if (step > 0 && lo < hi) push(s, static_cast<int64_t>(1 + (u(hi) - u(lo) - 1) / u(step)));
  else if (step < 0 && lo > hi) push(s, static_cast<int64_t>(1 + (u(lo) - u(hi) - 1) / (0 - u(step))));
  else push(s, int64_t(0));
}
void deriveIndex(Stack& s) {  // aten::__derive_index(int index, int start, int step) -> int
  int64_t step = pop(s).toInt();
  int64_t start = pop(s).toInt();
  int64_t index = pop(s).toInt();
  push(s, wrapAdd(start, wrapMul(index, step)));
}
void roundToZeroFloorDiv(Stack& s) {
  int64_t b = pop(s).toInt();
  int64_t a = pop(s).toInt();
  if (b == 0) divisionByZero();
  push(s, b == -1 ? wrapSub(0, a) : a / b);
}

// ---- hash(x): c10's IValue hash (std::hash for str/float, identity for int/bool, boost-style combine
// for tuples, identity of the object for tensors), so values match PyTorch's ----

uint64_t hashCombine(uint64_t seed, uint64_t v) { return seed ^ (v + 0x9e3779b9ULL + (seed << 6) + (seed >> 2)); }
// `seen`: the hash of every tuple hashed so far in this walk, so that a tuple shared within the value
// (t = (t, t) thirty times) is hashed once, not once per reference.
uint64_t c10Hash(const IValue& v, std::unordered_map<const void*, uint64_t>& seen) {
  switch (v.tag()) {
    case IValue::Tag::None: return 0;
    case IValue::Tag::Bool: return v.toBool() ? 1 : 0;
    case IValue::Tag::Int: return static_cast<uint64_t>(v.toInt());
    case IValue::Tag::Double: return std::hash<double>()(v.toDouble());
    case IValue::Tag::String: return std::hash<std::string>()(v.toStringRef());
    case IValue::Tag::Tuple: {
      auto it = seen.find(v.rawPtr());
      if (it != seen.end()) return it->second;
      ValueNestingGuard nesting("hashing");
      uint64_t seed = 0;
      for (const auto& e : v.toTupleRef().elements) seed = hashCombine(seed, c10Hash(e, seen));
      seen.emplace(v.rawPtr(), seed);
      return seed;
    }
    case IValue::Tag::Tensor: return std::hash<const void*>()(v.rawPtr());
    default:
      throw RuntimeError(fmt::format("Can't hash IValues with tag '{}'", v.tagName()));
  }
}
void hashOp(Stack& s) {
  std::unordered_map<const void*, uint64_t> seen;
  push(s, static_cast<int64_t>(c10Hash(pop(s), seen)));
}

// ---- Enum members (class Color(Enum): RED = 1) ----

void enumName(Stack& s) { push(s, pop(s).toEnum()->name); }
void enumValue(Stack& s) { push(s, pop(s).toEnum()->value); }
void enumEq(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, a == b);
}
void enumNe(Stack& s) {
  IValue b = pop(s);
  IValue a = pop(s);
  push(s, a != b);
}

}  // namespace

void registerPrimScalarOps(OperatorRegistry& r) {
  // Registers name.{int,float,int_float,float_int} and the untyped Scalar form with one kernel.
  auto arith = [&](const char* name, OperationFn fn, const char* intRet, const char* scalarRet, bool mixed = true) {
    r.add(fmt::format("aten::{}.int(int a, int b) -> {}", name, intRet), fn);
    r.add(fmt::format("aten::{}.float(float a, float b) -> float", name), fn);
    if (mixed) {
      r.add(fmt::format("aten::{}.int_float(int a, float b) -> float", name), fn);
      r.add(fmt::format("aten::{}.float_int(float a, int b) -> float", name), fn);
    }
    r.add(fmt::format("aten::{}(Scalar a, Scalar b) -> {}", name, scalarRet), fn);
  };
  arith("add", binaryArith<AddOp>, "int", "Scalar");
  arith("sub", binaryArith<SubOp>, "int", "Scalar");
  arith("mul", binaryArith<MulOp>, "int", "Scalar");
  arith("div", binaryFloat<divF>, "float", "float", /*mixed=*/false);
  arith("floordiv", binaryArith<FloorDivOp>, "int", "Scalar");
  arith("remainder", binaryArith<RemainderOp>, "int", "Scalar");
  arith("fmod", binaryFloat<fmodF>, "float", "float");
  arith("copysign", binaryFloat<copysignF>, "float", "float");
  arith("mathremainder", binaryFloat<ieeeRemainderF>, "float", "float");

  r.add("aten::pow.int(int a, int b) -> float", binaryFloat<powF>);
  r.add("aten::pow.float(float a, float b) -> float", binaryFloat<powF>);
  r.add("aten::pow.int_float(int a, float b) -> float", binaryFloat<powF>);
  r.add("aten::pow.float_int(float a, int b) -> float", binaryFloat<powF>);
  r.add("aten::pow.Scalar_Scalar(Scalar a, Scalar b) -> float", binaryFloat<powF>);
  r.add("aten::pow.int_to_int(int a, int b) -> int", powIntToInt);

  r.add("aten::atan2.int(int a, int b) -> float", binaryFloat<atan2F>);
  r.add("aten::atan2.float(float a, float b) -> float", binaryFloat<atan2F>);
  r.add("aten::atan2.int_float(int a, float b) -> float", binaryFloat<atan2F>);
  r.add("aten::atan2.float_int(float a, int b) -> float", binaryFloat<atan2F>);
  r.add("aten::atan2.Scalar_Scalar(Scalar a, Scalar b) -> float", binaryFloat<atan2F>);

  r.add("aten::log.int_int(int a, int b) -> float", binaryFloat<logBaseF>);
  r.add("aten::log.float_float(float a, float b) -> float", binaryFloat<logBaseF>);
  r.add("aten::log.int_float(int a, float b) -> float", binaryFloat<logBaseF>);
  r.add("aten::log.float_int(float a, int b) -> float", binaryFloat<logBaseF>);
  r.add("aten::log.Scalar_Scalar(Scalar a, Scalar b) -> float", binaryFloat<logBaseF>);

  // Comparisons.
  auto cmp = [&](const char* name, OperationFn fn) {
    r.add(fmt::format("aten::{}.int(int a, int b) -> bool", name), fn);
    r.add(fmt::format("aten::{}.float(float a, float b) -> bool", name), fn);
    r.add(fmt::format("aten::{}.int_float(int a, float b) -> bool", name), fn);
    r.add(fmt::format("aten::{}.float_int(float a, int b) -> bool", name), fn);
    r.add(fmt::format("aten::{}(Scalar a, Scalar b) -> bool", name), fn);
  };
  cmp("eq", compare<std::equal_to<>>);
  cmp("ne", compare<std::not_equal_to<>>);
  cmp("lt", compare<std::less<>>);
  cmp("le", compare<std::less_equal<>>);
  cmp("gt", compare<std::greater<>>);
  cmp("ge", compare<std::greater_equal<>>);
  r.add("aten::eq.bool(bool a, bool b) -> bool", compare<std::equal_to<>>);
  r.add("aten::ne.bool(bool a, bool b) -> bool", compare<std::not_equal_to<>>);

  // min / max of two numbers (builtins min(a, b) / max(a, b)).
  for (const char* name : {"min", "max"}) {
    OperationFn fn = name[1] == 'i' ? binaryArith<MinOp> : binaryArith<MaxOp>;
    r.add(fmt::format("prim::{}.int(int a, int b) -> int", name), fn);
    r.add(fmt::format("prim::{}.float(float a, float b) -> float", name), fn);
    r.add(fmt::format("prim::{}.int_float(int a, float b) -> float", name), fn);
    r.add(fmt::format("prim::{}.float_int(float a, int b) -> float", name), fn);
    r.add(fmt::format("prim::{}(Scalar a, Scalar b) -> Scalar", name), fn);
  }

  // Unary.
  r.add("aten::neg.int(int a) -> int", negOp);
  r.add("aten::neg.float(float a) -> float", negOp);
  r.add("aten::neg.Scalar(Scalar a) -> Scalar", negOp);
  // builtin abs() of a Tensor is torch.abs (torch's prim::abs(Tensor x) overload), never an int conversion
  r.add("prim::abs(Tensor x) -> Tensor", [](Stack& st) {
    static const OpHandle kAbs("aten::abs");
    Tensor x = pop(st).toTensor();
    push(st, std::move(kAbs.run(x).back()));
  });
  r.add("prim::abs.int(int a) -> int", absOp);
  r.add("prim::abs.float(float a) -> float", absOp);
  r.add("prim::abs.Scalar(Scalar a) -> Scalar", absOp);
  auto unary = [&](const char* name, OperationFn fn) {
    r.add(fmt::format("aten::{}.int(int a) -> float", name), fn);
    r.add(fmt::format("aten::{}.float(float a) -> float", name), fn);
    r.add(fmt::format("aten::{}.Scalar(Scalar a) -> Scalar", name), fn);
  };
  unary("sqrt", unaryFloat<static_cast<double (*)(double)>(std::sqrt)>);
  unary("exp", unaryFloat<static_cast<double (*)(double)>(std::exp)>);
  unary("expm1", unaryFloat<static_cast<double (*)(double)>(std::expm1)>);
  unary("log", unaryFloat<static_cast<double (*)(double)>(std::log)>);
  unary("log10", unaryFloat<static_cast<double (*)(double)>(std::log10)>);
  unary("log1p", unaryFloat<static_cast<double (*)(double)>(std::log1p)>);
  unary("sin", unaryFloat<static_cast<double (*)(double)>(std::sin)>);
  unary("cos", unaryFloat<static_cast<double (*)(double)>(std::cos)>);
  unary("tan", unaryFloat<static_cast<double (*)(double)>(std::tan)>);
  unary("asin", unaryFloat<static_cast<double (*)(double)>(std::asin)>);
  unary("acos", unaryFloat<static_cast<double (*)(double)>(std::acos)>);
  unary("atan", unaryFloat<static_cast<double (*)(double)>(std::atan)>);
  unary("sinh", unaryFloat<static_cast<double (*)(double)>(std::sinh)>);
  unary("cosh", unaryFloat<static_cast<double (*)(double)>(std::cosh)>);
  unary("tanh", unaryFloat<static_cast<double (*)(double)>(std::tanh)>);
  unary("asinh", unaryFloat<static_cast<double (*)(double)>(std::asinh)>);
  unary("acosh", unaryFloat<static_cast<double (*)(double)>(std::acosh)>);
  unary("atanh", unaryFloat<static_cast<double (*)(double)>(std::atanh)>);
  unary("erf", unaryFloat<static_cast<double (*)(double)>(std::erf)>);
  unary("erfc", unaryFloat<static_cast<double (*)(double)>(std::erfc)>);
  unary("lgamma", unaryFloat<static_cast<double (*)(double)>(std::lgamma)>);
  unary("fabs", unaryFloat<static_cast<double (*)(double)>(std::fabs)>);
  unary("gamma", unaryFloat<gammaF>);
  unary("degrees", unaryFloat<degreesF>);
  unary("radians", unaryFloat<radiansF>);
  unary("angle", unaryFloat<angleF>);
  unary("round", unaryFloat<roundF>);
  r.add("aten::floor.int(int a) -> int", floorInt);
  r.add("aten::floor.float(float a) -> int", floatToIntRounding<floorF>);
  r.add("aten::floor.Scalar(Scalar a) -> Scalar", floatToIntRounding<floorF>);
  r.add("aten::ceil.int(int a) -> int", floatToIntRounding<ceilF>);
  r.add("aten::ceil.float(float a) -> int", floatToIntRounding<ceilF>);
  r.add("aten::ceil.Scalar(Scalar a) -> Scalar", floatToIntRounding<ceilF>);
  r.add("aten::isnan.float(float a) -> bool", isnanOp);
  r.add("aten::isinf.float(float a) -> bool", isinfOp);
  r.add("aten::isfinite.float(float a) -> bool", isfiniteOp);
  r.add("aten::factorial.int(int a) -> int", factorialOp);
  r.add("aten::gcd.int(int a, int b) -> int", gcdOp);

  r.add("aten::divmod.int(int x, int y) -> (int, int)", divmodOp);
  r.add("aten::divmod.float(float x, float y) -> (float, float)", divmodOp);
  r.add("aten::divmod.int_float(int x, float y) -> (float, float)", divmodOp);
  r.add("aten::divmod.float_int(float x, int y) -> (float, float)", divmodOp);
  r.add("aten::frexp(float a) -> (float, int)", frexpOp);
  r.add("aten::modf(float a) -> (float, float)", modfOp);
  r.add("aten::ldexp(float x, int i) -> float", ldexpOp);

  // Conversions.
  r.add("aten::Int.float(float a) -> int", toIntOp);
  r.add("aten::Int.bool(bool a) -> int", toIntOp);
  r.add("aten::Int.Scalar(Scalar a) -> int", toIntOp);
  r.add("aten::Int.str(str a) -> int", intFromStr);
  r.add("aten::Float.int(int a) -> float", toFloatOp);
  r.add("aten::Float.bool(bool a) -> float", toFloatOp);
  r.add("aten::Float.Scalar(Scalar a) -> float", toFloatOp);
  r.add("aten::Float.str(str a) -> float", floatFromStr);
  r.add("aten::Bool.int(int a) -> bool", toBoolOp);
  r.add("aten::Bool.float(float a) -> bool", toBoolOp);

  // Bits and logic.
  r.add("aten::__and__.int(int a, int b) -> int", bitOp<std::bit_and<>>);
  r.add("aten::__and__.bool(bool a, bool b) -> bool", bitOp<std::bit_and<>>);
  r.add("aten::__or__.int(int a, int b) -> int", bitOp<std::bit_or<>>);
  r.add("aten::__or__.bool(bool a, bool b) -> bool", bitOp<std::bit_or<>>);
  r.add("aten::__xor__.int(int a, int b) -> int", bitOp<std::bit_xor<>>);
  r.add("aten::__xor__.bool(bool a, bool b) -> bool", bitOp<std::bit_xor<>>);
  r.add("aten::__lshift__.int(int a, int b) -> int", lshiftOp);
  r.add("aten::__rshift__.int(int a, int b) -> int", rshiftOp);
  r.add("aten::__not__(bool self) -> bool", notOp);
  r.add("aten::__is__(t1 self, t2 obj) -> bool", isOp);
  r.add("aten::__isnot__(t1 self, t2 obj) -> bool", isNotOp);

  r.add("aten::hash.generic(t value) -> int", hashOp);
  r.add("prim::EnumName(AnyEnumType enum) -> str", enumName);
  r.add("prim::EnumValue.int(AnyEnumType enum) -> int", enumValue);
  r.add("prim::EnumValue.float(AnyEnumType enum) -> float", enumValue);
  r.add("prim::EnumValue.str(AnyEnumType enum) -> str", enumValue);
  r.add("aten::eq.enum(AnyEnumType a, AnyEnumType b) -> bool", enumEq);
  r.add("aten::ne.enum(AnyEnumType a, AnyEnumType b) -> bool", enumNe);

  r.add("aten::__range_length(int lo, int hi, int step) -> int", rangeLength);
  r.add("aten::__derive_index(int index, int start, int step) -> int", deriveIndex);
  r.add("aten::__round_to_zero_floordiv.int(int a, int b) -> int", roundToZeroFloorDiv);
}

}  // namespace kindling
