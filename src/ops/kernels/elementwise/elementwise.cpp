// Elementwise arithmetic, comparison, logical/bitwise and unary math kernels (aten::add ... aten::where),
// with PyTorch 1.13's schemas, type promotion, integer semantics (floor division, remainder sign, division by
// zero raising "ZeroDivisionError") and error messages. Loops go through TensorIterator (vectorizable
// contiguous runs, OpenMP above 32k elements).
#include "ops/kernels/elementwise/elementwise.h"

#include "ops/kernels/elementwise/integer_wrap.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "ops/kernels/simd/compare_kernels.h"
#include "ops/kernels/simd/vec_loop.h"

namespace kindling {

namespace {

template <class T> constexpr bool isFloat = std::is_floating_point_v<T>;

// ---------------------------------------------------------------- integer / float helpers (c10 semantics)

template <class T>
T divFloor(T a, T b) {
  if constexpr (isFloat<T>) {
    if (b == 0) return a / b;
    T mod = std::fmod(a, b);
    T d = (a - mod) / b;
    if (mod != 0 && (b < 0) != (mod < 0)) d -= T(1);
    T fl;
    if (d != 0) {
      fl = std::floor(d);
      if (d - fl > T(0.5)) fl += T(1);
    } else {
      fl = std::copysign(T(0), a / b);
    }
    return fl;
  } else if constexpr (std::is_same_v<T, bool>) {
    return a;
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return wrap::neg(a);  // the minimum // -1 wraps (a / -1 would trap)
    }
    if ((a < 0) != (b < 0)) {
      const T q = static_cast<T>(a / b);
      const T r = static_cast<T>(a % b);
      return r ? static_cast<T>(q - 1) : q;
    }
    return static_cast<T>(a / b);
  }
}

template <class T>
T remainderOf(T a, T b) {
  if constexpr (isFloat<T>) {
    T mod = std::fmod(a, b);
    if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
    return mod;
  } else if constexpr (std::is_same_v<T, bool>) {
    return a;
  } else {
    T mod = wrap::modTrunc(a, b);
    if (mod != 0 && (b < 0) != (mod < 0)) mod = static_cast<T>(mod + b);
    return mod;
  }
}

/// Checks integer divisors for zero (PyTorch raises "ZeroDivisionError" for integer division by zero).
void checkNoIntegerZero(const Operand& o, ScalarType computeDtype) {
  if (!isIntegralType(computeDtype, true)) return;
  if (o.isScalar) {
    KD_CHECK(o.s.toDouble() != 0.0, "ZeroDivisionError");
    return;
  }
  const Tensor c = o.t.contiguous();
  bool zero = false;
  dispatchAllTypes(c.dtype(), "div", [&](auto tag) {
    using T = decltype(tag);
    const T* p = c.data_ptr<T>();
    for (int64_t i = 0; i < c.numel() && !zero; ++i) zero = static_cast<double>(static_cast<float>(p[i])) == 0.0;
  });
  KD_CHECK(!zero, "ZeroDivisionError");
}

// ---------------------------------------------------------------- generic runners

/// Runs fn(T a, T b) -> T over the loop dtypes `Dispatch` allows.
template <class Fn>
Tensor runBinary(const char* name, TensorIterator& it, Fn fn, bool allowBool = true) {
  auto body = [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [&fn](T a, T b) -> T { return fn(a, b); });
  };
  if (allowBool) dispatchLoopTypes(it.loopComputeDtype(), name, body);
  else dispatchLoopTypesNoBool(it.loopComputeDtype(), name, body);
  return it.output();
}

TensorIterator binaryIter(const Tensor& self, const Operand& other, const Tensor& out, bool intToFloat = false) {
  TensorIterator it;
  it.addOutput(out).addInput(self);
  addOperand(it, other);
  it.promoteIntegerInputsToFloat(intToFloat).build();
  return it;
}

void checkAlpha(ScalarType dtype, const Scalar& alpha) {
  KD_CHECK(!alpha.isBoolean() || dtype == ScalarType::Bool, "Boolean alpha only supported for Boolean results.");
  KD_CHECK(isFloatingType(dtype) || isComplexType(dtype) || alpha.isIntegral() || alpha.isBoolean(),
           "For integral input tensors, argument alpha must not be a floating point number.");
}

bool operandIsBool(const Operand& o) {
  return o.isScalar ? o.s.isBoolean() : o.t.dtype() == ScalarType::Bool;
}

}  // namespace

// ---------------------------------------------------------------- arithmetic

Tensor add(const Tensor& self, const Operand& other, const Scalar& alpha, const Tensor& out) {
  TensorIterator it = binaryIter(self, other, out);
  checkAlpha(it.commonDtype(), alpha);
  if (alpha.toDouble() == 1.0 && !alpha.isBoolean()) {
    if (simd::tryBinary(it, simd::Binary::Add)) return it.output();
    dispatchLoopTypes(it.loopComputeDtype(), "add", [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) cpuKernel(it, [](T a, T b) -> T { return a || b; });
      else cpuKernel(it, [](T a, T b) -> T { return wrap::add(a, b); });
    });
    return it.output();
  }
  dispatchLoopTypes(it.loopComputeDtype(), "add", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      const bool al = alpha.toBool();
      cpuKernel(it, [al](T a, T b) -> T { return a || (al && b); });
    } else {
      const T al = alpha.to<T>();
      cpuKernel(it, [al](T a, T b) -> T { return wrap::add(a, wrap::mul(al, b)); });
    }
  });
  return it.output();
}

Tensor sub(const Tensor& self, const Operand& other, const Scalar& alpha, const Tensor& out) {
  const bool selfBool = self.dtype() == ScalarType::Bool, otherBool = operandIsBool(other);
  KD_CHECK(!(selfBool && otherBool),
           "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` "
           "operator instead.");
  KD_CHECK(!(selfBool || otherBool),
           "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.");
  TensorIterator it = binaryIter(self, other, out);
  checkAlpha(it.commonDtype(), alpha);
  if (alpha.toDouble() == 1.0 && simd::tryBinary(it, simd::Binary::Sub)) return it.output();
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "sub", [&](auto tag) {
    using T = decltype(tag);
    const T al = alpha.to<T>();
    if (alpha.toDouble() == 1.0) cpuKernel(it, [](T a, T b) -> T { return wrap::sub(a, b); });
    else cpuKernel(it, [al](T a, T b) -> T { return wrap::sub(a, wrap::mul(al, b)); });
  });
  return it.output();
}

Tensor mul(const Tensor& self, const Operand& other, const Tensor& out) {
  TensorIterator it = binaryIter(self, other, out);
  if (simd::tryBinary(it, simd::Binary::Mul)) return it.output();
  dispatchLoopTypes(it.loopComputeDtype(), "mul", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) cpuKernel(it, [](T a, T b) -> T { return a && b; });
    else cpuKernel(it, [](T a, T b) -> T { return wrap::mul(a, b); });
  });
  return it.output();
}

Tensor div(const Tensor& self, const Operand& other, const std::optional<std::string>& mode, const Tensor& out) {
  if (!mode) {
    TensorIterator it = binaryIter(self, other, out, /*intToFloat=*/true);
    if (simd::tryBinary(it, simd::Binary::Div)) return it.output();
    dispatchLoopFloating(it.loopComputeDtype(), "div_true", [&](auto tag) {
      using T = decltype(tag);
      cpuKernel(it, [](T a, T b) -> T { return a / b; });
    });
    return it.output();
  }
  KD_CHECK(*mode == "trunc" || *mode == "floor",
           "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{}'", *mode);
  TensorIterator it = binaryIter(self, other, out);
  checkNoIntegerZero(other, it.loopComputeDtype());
  const bool trunc = *mode == "trunc";
  dispatchLoopTypesNoBool(it.loopComputeDtype(), trunc ? "div_trunc_cpu" : "div_floor_cpu", [&](auto tag) {
    using T = decltype(tag);
    if (trunc) {
      if constexpr (isFloat<T>) cpuKernel(it, [](T a, T b) -> T { return std::trunc(a / b); });
      else cpuKernel(it, [](T a, T b) -> T { return wrap::divTrunc(a, b); });
    } else {
      cpuKernel(it, [](T a, T b) -> T { return divFloor(a, b); });
    }
  });
  return it.output();
}

Tensor clamp(const Tensor& self, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi, const Tensor& out) {
  KD_CHECK(lo || hi, "torch.clamp: At least one of 'min' or 'max' must not be None");
  TensorIterator it;
  it.addOutput(out).addInput(self);
  if (lo) it.addInput(*lo);
  if (hi) it.addInput(*hi);
  it.build();
  // min(max(x, lo), hi) as ATen (lo > hi gives hi); NaN stays NaN. The bounds are read once, in the loop
  // dtype (the iterator's scalar operands are not read by the loops below).
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "clamp", [&](auto tag) {
    using T = decltype(tag);
    const T l = lo ? lo->to<T>() : T(0), h = hi ? hi->to<T>() : T(0);
    if constexpr (isFloat<T>) {
      if (it.loopOutputDtype() == it.loopComputeDtype()) {
        const bool hasLo = lo.has_value(), hasHi = hi.has_value();
        simd::forEachUnary<T>(it, [=](const T* x, T* y, int64_t n) { simd::clamp(x, y, n, hasLo, l, hasHi, h); });
        return;
      }
    }
    auto cl = [l, h, hasLo = lo.has_value(), hasHi = hi.has_value()](T x) -> T {
      T t = x;
      if (hasLo && t < l) t = l;
      if (hasHi && t > h) t = h;
      return t;
    };
    it.forEach([&cl](char** data, const int64_t* st, int64_t n) {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<T*>(data[0] + i * st[0]) = cl(*reinterpret_cast<const T*>(data[1] + i * st[1]));
    });
  });
  return it.output();
}

namespace {

// ---------------------------------------------------------------- boxed arithmetic kernels

// add/sub: (self, other, alpha)
void addTensor(Stack& s) { Args a(s, 3); Tensor r = add(a.tensor(0), a.tensor(1), a.scalar(2)); a.ret(std::move(r)); }
void addScalar(Stack& s) { Args a(s, 3); Tensor r = add(a.tensor(0), a.scalar(1), a.scalar(2)); a.ret(std::move(r)); }
void addTensor_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); add(self, a.tensor(1), a.scalar(2), self); a.ret(std::move(self)); }
void addScalar_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); add(self, a.scalar(1), a.scalar(2), self); a.ret(std::move(self)); }
void subTensor(Stack& s) { Args a(s, 3); Tensor r = sub(a.tensor(0), a.tensor(1), a.scalar(2)); a.ret(std::move(r)); }
void subScalar(Stack& s) { Args a(s, 3); Tensor r = sub(a.tensor(0), a.scalar(1), a.scalar(2)); a.ret(std::move(r)); }
void subTensor_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); sub(self, a.tensor(1), a.scalar(2), self); a.ret(std::move(self)); }
void subScalar_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); sub(self, a.scalar(1), a.scalar(2), self); a.ret(std::move(self)); }
// rsub(self, other, alpha) = other - alpha * self
void rsubTensor(Stack& s) {
  Args a(s, 3);
  Tensor r = sub(a.tensor(1), a.tensor(0), a.scalar(2));
  a.ret(std::move(r));
}
void rsubScalar(Stack& s) {
  Args a(s, 3);
  // other - alpha*self with self's promotion against a wrapped scalar: compute as (-alpha*self) + other
  const Tensor self = a.tensor(0);
  const Scalar other = a.scalar(1), alpha = a.scalar(2);
  KD_CHECK(self.dtype() != ScalarType::Bool && !other.isBoolean(),
           "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
           "use the `~` or `logical_not()` operator instead.");
  TensorIterator it;
  it.addOutput(Tensor()).addInput(self).addInput(other).build();
  checkAlpha(it.commonDtype(), alpha);
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "rsub", [&](auto tag) {
    using T = decltype(tag);
    const T al = alpha.to<T>();
    cpuKernel(it, [al](T x, T o) -> T { return wrap::sub(o, wrap::mul(al, x)); });
  });
  a.ret(it.output());
}
void mulTensor(Stack& s) { Args a(s, 2); Tensor r = mul(a.tensor(0), a.tensor(1)); a.ret(std::move(r)); }
void mulScalar(Stack& s) { Args a(s, 2); Tensor r = mul(a.tensor(0), a.scalar(1)); a.ret(std::move(r)); }
void mulTensor_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); mul(self, a.tensor(1), self); a.ret(std::move(self)); }
void mulScalar_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); mul(self, a.scalar(1), self); a.ret(std::move(self)); }
void divTensor(Stack& s) { Args a(s, 2); Tensor r = div(a.tensor(0), a.tensor(1)); a.ret(std::move(r)); }
void divScalar(Stack& s) { Args a(s, 2); Tensor r = div(a.tensor(0), a.scalar(1)); a.ret(std::move(r)); }
void divTensor_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); div(self, a.tensor(1), std::nullopt, self); a.ret(std::move(self)); }
void divScalar_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); div(self, a.scalar(1), std::nullopt, self); a.ret(std::move(self)); }
void divTensorMode(Stack& s) { Args a(s, 3); Tensor r = div(a.tensor(0), a.tensor(1), a.optString(2)); a.ret(std::move(r)); }
void divScalarMode(Stack& s) { Args a(s, 3); Tensor r = div(a.tensor(0), a.scalar(1), a.optString(2)); a.ret(std::move(r)); }
void divTensorMode_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); div(self, a.tensor(1), a.optString(2), self); a.ret(std::move(self)); }
void divScalarMode_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); div(self, a.scalar(1), a.optString(2), self); a.ret(std::move(self)); }
void floorDivideTensor(Stack& s) { Args a(s, 2); Tensor r = div(a.tensor(0), a.tensor(1), std::string("floor")); a.ret(std::move(r)); }
void floorDivideScalar(Stack& s) { Args a(s, 2); Tensor r = div(a.tensor(0), a.scalar(1), std::string("floor")); a.ret(std::move(r)); }
void floorDivideTensor_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); div(self, a.tensor(1), std::string("floor"), self); a.ret(std::move(self)); }
void floorDivideScalar_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); div(self, a.scalar(1), std::string("floor"), self); a.ret(std::move(self)); }

Tensor remainderOp(const Tensor& self, const Operand& other, const Tensor& out) {
  TensorIterator it = binaryIter(self, other, out);
  checkNoIntegerZero(other, it.loopComputeDtype());
  return runBinary("remainder_cpu", it, [](auto x, auto y) { return remainderOf(x, y); }, false);
}
Tensor fmodOp(const Tensor& self, const Operand& other, const Tensor& out) {
  TensorIterator it = binaryIter(self, other, out);
  checkNoIntegerZero(other, it.loopComputeDtype());
  return runBinary("fmod_cpu", it, [](auto x, auto y) {
    using T = decltype(x);
    if constexpr (isFloat<T>) return std::fmod(x, y);
    else return wrap::modTrunc(x, y);
  }, false);
}
void remainderTensor(Stack& s) { Args a(s, 2); Tensor r = remainderOp(a.tensor(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
void remainderScalar(Stack& s) { Args a(s, 2); Tensor r = remainderOp(a.tensor(0), a.scalar(1), Tensor()); a.ret(std::move(r)); }
void remainderTensor_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); remainderOp(self, a.tensor(1), self); a.ret(std::move(self)); }
void remainderScalar_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); remainderOp(self, a.scalar(1), self); a.ret(std::move(self)); }
void fmodTensor(Stack& s) { Args a(s, 2); Tensor r = fmodOp(a.tensor(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
void fmodScalar(Stack& s) { Args a(s, 2); Tensor r = fmodOp(a.tensor(0), a.scalar(1), Tensor()); a.ret(std::move(r)); }

// pow
template <class T>
T powOf(T a, T b) {
  if constexpr (isFloat<T>) {
    return std::pow(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a || !b;
  } else {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == -1) return (b % 2 == 0) ? 1 : -1;
      return 0;
    }
    T r = 1;
    T base = a;
    using U = std::make_unsigned_t<T>;
    U e = static_cast<U>(b);
    while (e) {
      if (e & 1) r = wrap::mul(r, base);
      base = wrap::mul(base, base);
      e >>= 1;
    }
    return r;
  }
}
Tensor powOp(const Operand& self, const Operand& exp, const Tensor& out) {
  TensorIterator it;
  it.addOutput(out);
  addOperand(it, self);
  addOperand(it, exp);
  it.build();
  // ATen rejects a negative Scalar exponent of an integer tensor (pow.Tensor_Scalar); a tensor of negative
  // integer exponents is computed (1 for base 1, +-1 for base -1, else 0)
  if (isIntegralType(it.loopComputeDtype(), false) && exp.isScalar)
    KD_CHECK(exp.s.toDouble() >= 0, "Integers to negative integer powers are not allowed.");
  if (exp.isScalar && isFloatingType(it.loopComputeDtype())) {
    const double e = exp.s.toDouble();
    if (e == 2.0) return runBinary("pow", it, [](auto x, auto) { return x * x; });
    if (e == 0.5) return runBinary("pow", it, [](auto x, auto) {
      using T = decltype(x);
      if constexpr (isFloat<T>) return std::sqrt(x);
      else return x;
    });
  }
  return runBinary("pow", it, [](auto x, auto y) { return powOf(x, y); });
}
void powTensorTensor(Stack& s) { Args a(s, 2); Tensor r = powOp(a.tensor(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
void powTensorScalar(Stack& s) { Args a(s, 2); Tensor r = powOp(a.tensor(0), a.scalar(1), Tensor()); a.ret(std::move(r)); }
void powScalar(Stack& s) { Args a(s, 2); Tensor r = powOp(a.scalar(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
void powTensorScalar_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); powOp(self, a.scalar(1), self); a.ret(std::move(self)); }
void powTensorTensor_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); powOp(self, a.tensor(1), self); a.ret(std::move(self)); }

// maximum / minimum (NaN propagates)
template <bool Max>
void maxMin(Stack& s) {
  Args a(s, 2);
  TensorIterator it = binaryIter(a.tensor(0), a.tensor(1), Tensor());
  if (simd::tryBinary(it, Max ? simd::Binary::Max : simd::Binary::Min)) {
    a.ret(it.output());
    return;
  }
  Tensor r = runBinary(Max ? "maximum_cpu" : "minimum_cpu", it, [](auto x, auto y) {
    using T = decltype(x);
    if constexpr (isFloat<T>) {
      if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
    }
    return Max ? (x > y ? x : y) : (x < y ? x : y);
  });
  a.ret(std::move(r));
}

// ---------------------------------------------------------------- comparisons

enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };

template <Cmp C, class T>
inline bool compare(T a, T b) {
  if constexpr (C == Cmp::Eq) return a == b;
  else if constexpr (C == Cmp::Ne) return a != b;
  else if constexpr (C == Cmp::Lt) return a < b;
  else if constexpr (C == Cmp::Le) return a <= b;
  else if constexpr (C == Cmp::Gt) return a > b;
  else return a >= b;
}

template <Cmp C>
Tensor compareOp(const Tensor& self, const Operand& other, const Tensor& out) {
  TensorIterator it;
  it.addOutput(out).addInput(self);
  addOperand(it, other);
  it.outputDtype(ScalarType::Bool);
  it.build();
  // float, double, int64, int32: the vector kernels (Cmp and simd::Compare list the ops in one order)
  if (simd::tryCompare(it, static_cast<simd::Compare>(static_cast<int>(C)))) return it.output();
  dispatchLoopTypes(it.loopComputeDtype(), "comparison", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T a, T b) -> bool { return compare<C>(a, b); });
  });
  return it.output();
}

template <Cmp C> void cmpTensor(Stack& s) { Args a(s, 2); Tensor r = compareOp<C>(a.tensor(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
template <Cmp C> void cmpScalar(Stack& s) { Args a(s, 2); Tensor r = compareOp<C>(a.tensor(0), a.scalar(1), Tensor()); a.ret(std::move(r)); }
/// In-place comparison: the boolean result is written into self's dtype.
template <Cmp C> void cmpTensor_(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  Tensor r = compareOp<C>(self, a.tensor(1), Tensor());
  KD_CHECK(r.sizes() == self.sizes(), "output with shape {} doesn't match the broadcast shape {}", self.sizesStr(), r.sizesStr());
  self.copy_(r);
  a.ret(std::move(self));
}
template <Cmp C> void cmpScalar_(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  self.copy_(compareOp<C>(self, a.scalar(1), Tensor()));
  a.ret(std::move(self));
}

// ---------------------------------------------------------------- logical / bitwise

enum class Logic { And, Or, Xor };

template <Logic L>
Tensor logicalOp(const Tensor& self, const Tensor& other, const Tensor& out) {
  TensorIterator it;
  it.addOutput(out).addInput(self).addInput(other).outputDtype(ScalarType::Bool).build();
  dispatchLoopTypes(it.loopComputeDtype(), "logical", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T a, T b) -> bool {
      const bool x = a != T(0), y = b != T(0);
      if constexpr (L == Logic::And) return x && y;
      else if constexpr (L == Logic::Or) return x || y;
      else return x != y;
    });
  });
  return it.output();
}
template <Logic L> void logicalK(Stack& s) { Args a(s, 2); Tensor r = logicalOp<L>(a.tensor(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
template <Logic L> void logicalK_(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  self.copy_(logicalOp<L>(self, a.tensor(1), Tensor()));
  a.ret(std::move(self));
}

template <Logic L>
Tensor bitwiseOp(const Tensor& self, const Operand& other, const Tensor& out) {
  TensorIterator it;
  it.addOutput(out).addInput(self);
  addOperand(it, other);
  it.build();
  const char* name = L == Logic::And ? "bitwise_and_cpu" : L == Logic::Or ? "bitwise_or_cpu" : "bitwise_xor_cpu";
  KD_CHECK(isIntegralType(it.loopComputeDtype(), true), "\"{}\" not implemented for '{}'", name,
           scalarTypeName(it.loopComputeDtype()));
  dispatchLoopTypes(it.loopComputeDtype(), name, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!isFloat<T>) {
      cpuKernel(it, [](T a, T b) -> T {
        if constexpr (L == Logic::And) return static_cast<T>(a & b);
        else if constexpr (L == Logic::Or) return static_cast<T>(a | b);
        else return static_cast<T>(a ^ b);
      });
    }
  });
  return it.output();
}
template <Logic L> void bitwiseTensor(Stack& s) { Args a(s, 2); Tensor r = bitwiseOp<L>(a.tensor(0), a.tensor(1), Tensor()); a.ret(std::move(r)); }
template <Logic L> void bitwiseScalar(Stack& s) { Args a(s, 2); Tensor r = bitwiseOp<L>(a.tensor(0), a.scalar(1), Tensor()); a.ret(std::move(r)); }
template <Logic L> void bitwiseTensor_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); bitwiseOp<L>(self, a.tensor(1), self); a.ret(std::move(self)); }
template <Logic L> void bitwiseScalar_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); bitwiseOp<L>(self, a.scalar(1), self); a.ret(std::move(self)); }

// ---------------------------------------------------------------- where

Tensor whereOp(const Tensor& cond, const Operand& a, const Operand& b) {
  KD_CHECK(cond.dtype() == ScalarType::Bool || cond.dtype() == ScalarType::Byte,
           "where expected condition to be a boolean tensor, but got a tensor with dtype {}", scalarTypeName(cond.dtype()));
  const Tensor c = cond.dtype() == ScalarType::Bool ? cond : cond.to(ScalarType::Bool);
  TensorIterator it;
  it.addOutput(Tensor()).addInputNoCast(c);
  addOperand(it, a);
  addOperand(it, b);
  it.build();
  dispatchLoopTypes(it.loopComputeDtype(), "where_cpu", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
      // a bit select instead of a branch: random masks would mispredict on every other element
      using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      it.forEach([](char** data, const int64_t* st, int64_t n) {
        auto sel = [](bool m, const char* x, const char* y, char* o) {
          U a, b;
          std::memcpy(&a, x, sizeof(U));
          std::memcpy(&b, y, sizeof(U));
          const U mask = U(0) - static_cast<U>(m);
          const U r = (a & mask) | (b & ~mask);
          std::memcpy(o, &r, sizeof(U));
        };
        if (st[0] == sizeof(T) && st[1] == 1 && st[2] == sizeof(T) && st[3] == sizeof(T)) {
          const bool* m = reinterpret_cast<const bool*>(data[1]);
          for (int64_t i = 0; i < n; ++i)
            sel(m[i], data[2] + i * sizeof(T), data[3] + i * sizeof(T), data[0] + i * sizeof(T));
          return;
        }
        for (int64_t i = 0; i < n; ++i)
          sel(*reinterpret_cast<const bool*>(data[1] + i * st[1]), data[2] + i * st[2], data[3] + i * st[3],
              data[0] + i * st[0]);
      });
    } else {
      cpuKernel(it, [](bool m, T x, T y) -> T { return m ? x : y; });
    }
  });
  return it.output();
}
void whereSelf(Stack& s) { Args a(s, 3); Tensor r = whereOp(a.tensor(0), a.tensor(1), a.tensor(2)); a.ret(std::move(r)); }
void whereScalarOther(Stack& s) { Args a(s, 3); Tensor r = whereOp(a.tensor(0), a.tensor(1), a.scalar(2)); a.ret(std::move(r)); }
void whereScalarSelf(Stack& s) { Args a(s, 3); Tensor r = whereOp(a.tensor(0), a.scalar(1), a.tensor(2)); a.ret(std::move(r)); }
void whereScalar(Stack& s) { Args a(s, 3); Tensor r = whereOp(a.tensor(0), a.scalar(1), a.scalar(2)); a.ret(std::move(r)); }

// ---------------------------------------------------------------- clamp family

void clampK(Stack& s) { Args a(s, 3); Tensor r = clamp(a.tensor(0), a.optScalar(1), a.optScalar(2)); a.ret(std::move(r)); }
void clampK_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); clamp(self, a.optScalar(1), a.optScalar(2), self); a.ret(std::move(self)); }
void clampMin(Stack& s) { Args a(s, 2); Tensor r = clamp(a.tensor(0), a.scalar(1), std::nullopt); a.ret(std::move(r)); }
void clampMin_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); clamp(self, a.scalar(1), std::nullopt, self); a.ret(std::move(self)); }
void clampMax(Stack& s) { Args a(s, 2); Tensor r = clamp(a.tensor(0), std::nullopt, a.scalar(1)); a.ret(std::move(r)); }
void clampMax_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); clamp(self, std::nullopt, a.scalar(1), self); a.ret(std::move(self)); }

Tensor clampTensor(const Tensor& self, const Tensor& lo, const Tensor& hi, const Tensor& out) {
  KD_CHECK(lo.defined() || hi.defined(), "torch.clamp: At least one of 'min' or 'max' must not be None");
  TensorIterator it;
  it.addOutput(out).addInput(self);
  if (lo.defined()) it.addInput(lo);
  if (hi.defined()) it.addInput(hi);
  it.build();
  // clamp with both bounds rejects bool; one tensor bound is clamp_min/clamp_max.Tensor, which ATen dispatches
  // over bool too (max/min of bools).
  if (it.loopComputeDtype() == ScalarType::Bool && !(lo.defined() && hi.defined())) {
    if (lo.defined()) cpuKernel(it, [](bool x, bool l) -> bool { return x || l; });
    else cpuKernel(it, [](bool x, bool h) -> bool { return x && h; });
    return it.output();
  }
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "clamp", [&](auto tag) {
    using T = decltype(tag);
    auto nanOr = [](T x, T r) -> T {
      if constexpr (isFloat<T>) {
        if (std::isnan(x)) return x;
      }
      return r;
    };
    if (lo.defined() && hi.defined())
      cpuKernel(it, [nanOr](T x, T l, T h) -> T { return nanOr(x, std::min(std::max(x, l), h)); });
    else if (lo.defined())
      cpuKernel(it, [nanOr](T x, T l) -> T { return nanOr(x, std::max(x, l)); });
    else
      cpuKernel(it, [nanOr](T x, T h) -> T { return nanOr(x, std::min(x, h)); });
  });
  return it.output();
}
void clampT(Stack& s) { Args a(s, 3); Tensor r = clampTensor(a.tensor(0), a.optTensor(1), a.optTensor(2), Tensor()); a.ret(std::move(r)); }
void clampT_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); clampTensor(self, a.optTensor(1), a.optTensor(2), self); a.ret(std::move(self)); }
void clampMinT(Stack& s) { Args a(s, 2); Tensor r = clampTensor(a.tensor(0), a.tensor(1), Tensor(), Tensor()); a.ret(std::move(r)); }
void clampMaxT(Stack& s) { Args a(s, 2); Tensor r = clampTensor(a.tensor(0), Tensor(), a.tensor(1), Tensor()); a.ret(std::move(r)); }

// ---------------------------------------------------------------- unary

/// Float-valued unary math (integers promote to float32).
template <class Fn>
Tensor unaryFloat(const char* name, const Tensor& self, const Tensor& out, Fn fn, int vecOp = -1) {
  TensorIterator it;
  it.addOutput(out).addInput(self).promoteIntegerInputsToFloat(true).build();
  if (vecOp >= 0 && simd::tryUnary(it, static_cast<simd::Unary>(vecOp))) return it.output();
  dispatchLoopFloating(it.loopComputeDtype(), name, [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [&fn](T x) -> T { return fn(x); });
  });
  return it.output();
}

/// Dtype-preserving unary ops (integers stay integers).
template <class Fn>
Tensor unaryKeep(const char* name, const Tensor& self, const Tensor& out, Fn fn, bool allowBool, int vecOp = -1) {
  TensorIterator it;
  it.addOutput(out).addInput(self).build();
  if (vecOp >= 0 && simd::tryUnary(it, static_cast<simd::Unary>(vecOp))) return it.output();
  auto body = [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [&fn](T x) -> T { return fn(x); });
  };
  if (allowBool) dispatchLoopTypes(it.loopComputeDtype(), name, body);
  else dispatchLoopTypesNoBool(it.loopComputeDtype(), name, body);
  return it.output();
}

// VEC: the simd::Unary computing it for float/double (-1: the scalar loop only).
#define KD_UNARY_FLOAT(NAME, EXPR, VEC)                                                                  \
  void NAME##K(Stack& s) {                                                                               \
    Args a(s, 1);                                                                                        \
    Tensor r = unaryFloat(#NAME, a.tensor(0), Tensor(), [](auto x) { using T = decltype(x); (void)sizeof(T); return EXPR; }, VEC); \
    a.ret(std::move(r));                                                                                 \
  }                                                                                                      \
  void NAME##K_(Stack& s) {                                                                              \
    Args a(s, 1);                                                                                        \
    Tensor self = a.tensor(0);                                                                           \
    unaryFloat(#NAME, self, self, [](auto x) { using T = decltype(x); (void)sizeof(T); return EXPR; }, VEC); \
    a.ret(std::move(self));                                                                              \
  }
#define KD_VEC(OP) static_cast<int>(simd::Unary::OP)

KD_UNARY_FLOAT(exp, std::exp(x), KD_VEC(Exp))
KD_UNARY_FLOAT(exp2, std::exp2(x), KD_VEC(Exp2))
KD_UNARY_FLOAT(expm1, std::expm1(x), KD_VEC(Expm1))
KD_UNARY_FLOAT(log, std::log(x), KD_VEC(Log))
KD_UNARY_FLOAT(log2, std::log2(x), KD_VEC(Log2))
KD_UNARY_FLOAT(log10, std::log10(x), KD_VEC(Log10))
KD_UNARY_FLOAT(log1p, std::log1p(x), KD_VEC(Log1p))
KD_UNARY_FLOAT(sqrt, std::sqrt(x), KD_VEC(Sqrt))
KD_UNARY_FLOAT(rsqrt, T(1) / std::sqrt(x), KD_VEC(Rsqrt))
KD_UNARY_FLOAT(sin, std::sin(x), KD_VEC(Sin))
KD_UNARY_FLOAT(cos, std::cos(x), KD_VEC(Cos))
KD_UNARY_FLOAT(tan, std::tan(x), KD_VEC(Tan))
KD_UNARY_FLOAT(asin, std::asin(x), KD_VEC(Asin))
KD_UNARY_FLOAT(acos, std::acos(x), KD_VEC(Acos))
KD_UNARY_FLOAT(atan, std::atan(x), KD_VEC(Atan))
KD_UNARY_FLOAT(sinh, std::sinh(x), KD_VEC(Sinh))
KD_UNARY_FLOAT(cosh, std::cosh(x), KD_VEC(Cosh))
KD_UNARY_FLOAT(asinh, std::asinh(x), KD_VEC(Asinh))
KD_UNARY_FLOAT(acosh, std::acosh(x), KD_VEC(Acosh))
KD_UNARY_FLOAT(atanh, std::atanh(x), KD_VEC(Atanh))
KD_UNARY_FLOAT(erf, std::erf(x), KD_VEC(Erf))
KD_UNARY_FLOAT(erfc, std::erfc(x), KD_VEC(Erfc))
KD_UNARY_FLOAT(reciprocal, T(1) / x, KD_VEC(Reciprocal))
KD_UNARY_FLOAT(lgamma, std::lgamma(x), KD_VEC(Lgamma))
#undef KD_UNARY_FLOAT

#define KD_UNARY_KEEP(NAME, OPNAME, ALLOWBOOL, EXPR, ...)                                                \
  void NAME##K(Stack& s) {                                                                               \
    Args a(s, 1);                                                                                        \
    Tensor r = unaryKeep(OPNAME, a.tensor(0), Tensor(), [](auto x) { using T = decltype(x); (void)sizeof(T); return EXPR; }, ALLOWBOOL __VA_OPT__(,) __VA_ARGS__); \
    a.ret(std::move(r));                                                                                 \
  }                                                                                                      \
  void NAME##K_(Stack& s) {                                                                              \
    Args a(s, 1);                                                                                        \
    Tensor self = a.tensor(0);                                                                           \
    unaryKeep(OPNAME, self, self, [](auto x) { using T = decltype(x); (void)sizeof(T); return EXPR; }, ALLOWBOOL __VA_OPT__(,) __VA_ARGS__); \
    a.ret(std::move(self));                                                                              \
  }

template <class T> T floorOf(T x) { if constexpr (isFloat<T>) return std::floor(x); else return x; }
template <class T> T ceilOf(T x) { if constexpr (isFloat<T>) return std::ceil(x); else return x; }
template <class T> T truncOf(T x) { if constexpr (isFloat<T>) return std::trunc(x); else return x; }
template <class T> T roundOf(T x) { if constexpr (isFloat<T>) return std::nearbyint(x); else return x; }
template <class T> T absOf(T x) {
  if constexpr (isFloat<T>) return std::fabs(x);
  else if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) return x;
  else return wrap::abs(x);
}
template <class T> T negOf(T x) { if constexpr (std::is_same_v<T, bool>) return x; else return wrap::neg(x); }
template <class T> T signOf(T x) {
  if constexpr (std::is_same_v<T, bool>) return x;
  else if constexpr (std::is_unsigned_v<T>) return static_cast<T>(x > 0);
  else return static_cast<T>((T(0) < x) - (x < T(0)));
}
template <class T> T squareOf(T x) { if constexpr (std::is_same_v<T, bool>) return x; else return wrap::mul(x, x); }
template <class T> T bitNot(T x) {
  if constexpr (std::is_same_v<T, bool>) return !x;
  else if constexpr (isFloat<T>) return x;
  else return static_cast<T>(~x);
}

KD_UNARY_KEEP(floor, "floor", false, floorOf(x))
KD_UNARY_KEEP(ceil, "ceil", false, ceilOf(x))
KD_UNARY_KEEP(trunc, "trunc", false, truncOf(x))
KD_UNARY_KEEP(round, "round", false, roundOf(x))
KD_UNARY_KEEP(abs, "abs_cpu", false, absOf(x), KD_VEC(Abs))
KD_UNARY_KEEP(sign, "sign_cpu", true, signOf(x))
#undef KD_UNARY_KEEP

void negK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  KD_CHECK(self.dtype() != ScalarType::Bool,
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
           "`~` or `logical_not()` operator instead.");
  Tensor r = unaryKeep("neg_cpu", self, Tensor(), [](auto x) { return negOf(x); }, false, KD_VEC(Neg));
  a.ret(std::move(r));
}
void negK_(Stack& s) {
  Args a(s, 1);
  Tensor self = a.tensor(0);
  KD_CHECK(self.dtype() != ScalarType::Bool,
           "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the "
           "`~` or `logical_not()` operator instead.");
  unaryKeep("neg_cpu", self, self, [](auto x) { return negOf(x); }, false, KD_VEC(Neg));
  a.ret(std::move(self));
}
void squareK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  // torch.square is pow(self, 2): bool promotes to int64
  Tensor in = self.dtype() == ScalarType::Bool ? self.to(ScalarType::Long) : self;
  Tensor r = unaryKeep("square", in, Tensor(), [](auto x) { return squareOf(x); }, false);
  a.ret(std::move(r));
}
void bitwiseNotK(Stack& s) {
  Args a(s, 1);
  const Tensor self = a.tensor(0);
  KD_CHECK(isIntegralType(self.dtype(), true), "\"bitwise_not_cpu\" not implemented for '{}'", scalarTypeName(self.dtype()));
  Tensor r = unaryKeep("bitwise_not_cpu", self, Tensor(), [](auto x) { return bitNot(x); }, true);
  a.ret(std::move(r));
}
void bitwiseNotK_(Stack& s) {
  Args a(s, 1);
  Tensor self = a.tensor(0);
  KD_CHECK(isIntegralType(self.dtype(), true), "\"bitwise_not_cpu\" not implemented for '{}'", scalarTypeName(self.dtype()));
  unaryKeep("bitwise_not_cpu", self, self, [](auto x) { return bitNot(x); }, true);
  a.ret(std::move(self));
}
void logicalNotK(Stack& s) {
  Args a(s, 1);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(a.tensor(0)).outputDtype(ScalarType::Bool).build();
  dispatchLoopTypes(it.loopComputeDtype(), "logical_not_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> bool { return x == T(0); });
  });
  a.ret(it.output());
}
void logicalNotK_(Stack& s) {
  Args a(s, 1);
  Tensor self = a.tensor(0);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(self).outputDtype(ScalarType::Bool).build();
  dispatchLoopTypes(it.loopComputeDtype(), "logical_not_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> bool { return x == T(0); });
  });
  self.copy_(it.output());
  a.ret(std::move(self));
}
void roundDecimals(Stack& s) {
  Args a(s, 2);
  const int64_t d = a.toInt(1);
  const double ten = std::pow(10.0, static_cast<double>(std::abs(d)));
  const bool neg = d < 0;
  Tensor r = unaryFloat("round", a.tensor(0), Tensor(), [ten, neg](auto x) {
    using T = decltype(x);
    return neg ? static_cast<T>(std::nearbyint(x / T(ten)) * T(ten)) : static_cast<T>(std::nearbyint(x * T(ten)) / T(ten));
  });
  a.ret(std::move(r));
}
void atan2K(Stack& s) {
  Args a(s, 2);
  TensorIterator it = binaryIter(a.tensor(0), a.tensor(1), Tensor(), true);
  dispatchLoopFloating(it.loopComputeDtype(), "atan2", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T y, T x) -> T { return std::atan2(y, x); });
  });
  a.ret(it.output());
}
void isnanK(Stack& s) {
  Args a(s, 1);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(a.tensor(0)).outputDtype(ScalarType::Bool).build();
  dispatchLoopTypes(it.loopComputeDtype(), "isnan", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> bool { if constexpr (isFloat<T>) return std::isnan(x); else return false; });
  });
  a.ret(it.output());
}
void lerpScalar(Stack& s) {
  Args a(s, 3);
  TensorIterator it = binaryIter(a.tensor(0), a.tensor(1), Tensor());
  const double w = a.scalar(2).toDouble();
  dispatchLoopFloating(it.loopComputeDtype(), "lerp", [&](auto tag) {
    using T = decltype(tag);
    const T wt = static_cast<T>(w);
    cpuKernel(it, [wt](T x, T y) -> T { return std::abs(wt) < T(0.5) ? x + wt * (y - x) : y - (y - x) * (T(1) - wt); });
  });
  a.ret(it.output());
}


// addcmul / addcdiv: self + value * t1 (* or /) t2
template <bool Div>
void addcK(Stack& s) {
  Args a(s, 4);
  const Scalar value = a.scalar(3);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(a.tensor(0)).addInput(a.tensor(1)).addInput(a.tensor(2)).build();
  if (Div) {
    KD_CHECK(!isIntegralType(it.commonDtype(), true),
             "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / tensor2), for all dtypes.");
  }
  dispatchLoopTypesNoBool(it.loopComputeDtype(), Div ? "addcdiv_cpu_out" : "addcmul_cpu_out", [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    if constexpr (Div) cpuKernel(it, [v](T x, T y, T z) -> T { return static_cast<T>(x + v * (y / z)); });
    else cpuKernel(it, [v](T x, T y, T z) -> T { return static_cast<T>(x + v * y * z); });
  });
  a.ret(it.output());
}

template <int Which>  // 0 isinf, 1 isfinite
void classifyK(Stack& s) {
  Args a(s, 1);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(a.tensor(0)).outputDtype(ScalarType::Bool).build();
  dispatchLoopTypes(it.loopComputeDtype(), Which == 0 ? "isinf" : "isfinite", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> bool {
      bool r = Which != 0;
      if constexpr (isFloat<T>) r = Which == 0 ? std::isinf(x) : std::isfinite(x);
      (void)x;
      return r;
    });
  });
  a.ret(it.output());
}

void nanToNumK(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0);
  const auto nan = a.optDouble(1), pos = a.optDouble(2), neg = a.optDouble(3);
  if (!isFloatingType(self.dtype())) {
    a.ret(self.clone());
    return;
  }
  TensorIterator it;
  it.addOutput(Tensor()).addInput(self).build();
  dispatchLoopFloating(it.loopComputeDtype(), "nan_to_num", [&](auto tag) {
    using T = decltype(tag);
    // posinf/neginf default to the limits of the tensor's own dtype
    double big = std::numeric_limits<T>::max();
    if (self.dtype() == ScalarType::Half) big = 65504.0;
    if (self.dtype() == ScalarType::BFloat16) big = 3.3895313892515355e38;
    const T n = static_cast<T>(nan.value_or(0.0)), p = static_cast<T>(pos.value_or(big)), m = static_cast<T>(neg.value_or(-big));
    cpuKernel(it, [n, p, m](T x) -> T { return std::isnan(x) ? n : (x == std::numeric_limits<T>::infinity() ? p : (x == -std::numeric_limits<T>::infinity() ? m : x)); });
  });
  a.ret(it.output());
}

void fracK(Stack& s) {
  Args a(s, 1);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(a.tensor(0)).build();
  dispatchLoopFloating(it.loopComputeDtype(), "frac_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> T { return x - std::trunc(x); });
  });
  a.ret(it.output());
}

void hypotK(Stack& s) {
  Args a(s, 2);
  TensorIterator it = binaryIter(a.tensor(0), a.tensor(1), Tensor());
  dispatchLoopFloating(it.loopComputeDtype(), "hypot_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T { return std::hypot(x, y); });
  });
  a.ret(it.output());
}

}  // namespace

void registerElementwiseOps(OperatorRegistry& r) {
  r.add("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", addTensor);
  r.add("aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", addScalar);
  r.add("aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", addTensor_);
  r.add("aten::add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", addScalar_);
  r.add("aten::sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", subTensor);
  r.add("aten::sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", subScalar);
  r.add("aten::sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", subTensor_);
  r.add("aten::sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", subScalar_);
  r.add("aten::rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", rsubTensor);
  r.add("aten::rsub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", rsubScalar);
  r.add("aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", mulTensor);
  r.add("aten::mul.Scalar(Tensor self, Scalar other) -> Tensor", mulScalar);
  r.add("aten::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", mulTensor_);
  r.add("aten::mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", mulScalar_);
  r.add("aten::div.Tensor(Tensor self, Tensor other) -> Tensor", divTensor);
  r.add("aten::div.Scalar(Tensor self, Scalar other) -> Tensor", divScalar);
  r.add("aten::div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", divTensorMode);
  r.add("aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", divScalarMode);
  r.add("aten::div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", divTensor_);
  r.add("aten::div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", divScalar_);
  r.add("aten::div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)", divTensorMode_);
  r.add("aten::div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)", divScalarMode_);
  r.add("aten::true_divide.Tensor(Tensor self, Tensor other) -> Tensor", divTensor);
  r.add("aten::true_divide.Scalar(Tensor self, Scalar other) -> Tensor", divScalar);
  r.add("aten::floor_divide(Tensor self, Tensor other) -> Tensor", floorDivideTensor);
  r.add("aten::floor_divide.Scalar(Tensor self, Scalar other) -> Tensor", floorDivideScalar);
  r.add("aten::floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", floorDivideTensor_);
  r.add("aten::floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", floorDivideScalar_);
  r.add("aten::remainder.Tensor(Tensor self, Tensor other) -> Tensor", remainderTensor);
  r.add("aten::remainder.Scalar(Tensor self, Scalar other) -> Tensor", remainderScalar);
  r.add("aten::remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", remainderTensor_);
  r.add("aten::remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", remainderScalar_);
  r.add("aten::fmod.Tensor(Tensor self, Tensor other) -> Tensor", fmodTensor);
  r.add("aten::fmod.Scalar(Tensor self, Scalar other) -> Tensor", fmodScalar);
  r.add("aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", powTensorTensor);
  r.add("aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", powTensorScalar);
  r.add("aten::pow.Scalar(Scalar self, Tensor exponent) -> Tensor", powScalar);
  r.add("aten::pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", powTensorScalar_);
  r.add("aten::pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", powTensorTensor_);
  r.add("aten::maximum(Tensor self, Tensor other) -> Tensor", maxMin<true>);
  r.add("aten::minimum(Tensor self, Tensor other) -> Tensor", maxMin<false>);
  r.add("aten::atan2(Tensor self, Tensor other) -> Tensor", atan2K);
  r.add("aten::lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor", lerpScalar);

  r.add("aten::eq.Tensor(Tensor self, Tensor other) -> Tensor", cmpTensor<Cmp::Eq>);
  r.add("aten::eq.Scalar(Tensor self, Scalar other) -> Tensor", cmpScalar<Cmp::Eq>);
  r.add("aten::ne.Tensor(Tensor self, Tensor other) -> Tensor", cmpTensor<Cmp::Ne>);
  r.add("aten::ne.Scalar(Tensor self, Scalar other) -> Tensor", cmpScalar<Cmp::Ne>);
  r.add("aten::lt.Tensor(Tensor self, Tensor other) -> Tensor", cmpTensor<Cmp::Lt>);
  r.add("aten::lt.Scalar(Tensor self, Scalar other) -> Tensor", cmpScalar<Cmp::Lt>);
  r.add("aten::le.Tensor(Tensor self, Tensor other) -> Tensor", cmpTensor<Cmp::Le>);
  r.add("aten::le.Scalar(Tensor self, Scalar other) -> Tensor", cmpScalar<Cmp::Le>);
  r.add("aten::gt.Tensor(Tensor self, Tensor other) -> Tensor", cmpTensor<Cmp::Gt>);
  r.add("aten::gt.Scalar(Tensor self, Scalar other) -> Tensor", cmpScalar<Cmp::Gt>);
  r.add("aten::ge.Tensor(Tensor self, Tensor other) -> Tensor", cmpTensor<Cmp::Ge>);
  r.add("aten::ge.Scalar(Tensor self, Scalar other) -> Tensor", cmpScalar<Cmp::Ge>);
  r.add("aten::eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", cmpTensor_<Cmp::Eq>);
  r.add("aten::eq_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", cmpScalar_<Cmp::Eq>);
  r.add("aten::ne_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", cmpTensor_<Cmp::Ne>);
  r.add("aten::ne_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", cmpScalar_<Cmp::Ne>);
  r.add("aten::lt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", cmpTensor_<Cmp::Lt>);
  r.add("aten::lt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", cmpScalar_<Cmp::Lt>);
  r.add("aten::le_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", cmpTensor_<Cmp::Le>);
  r.add("aten::le_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", cmpScalar_<Cmp::Le>);
  r.add("aten::gt_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", cmpTensor_<Cmp::Gt>);
  r.add("aten::gt_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", cmpScalar_<Cmp::Gt>);
  r.add("aten::ge_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", cmpTensor_<Cmp::Ge>);
  r.add("aten::ge_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", cmpScalar_<Cmp::Ge>);

  r.add("aten::logical_and(Tensor self, Tensor other) -> Tensor", logicalK<Logic::And>);
  r.add("aten::logical_or(Tensor self, Tensor other) -> Tensor", logicalK<Logic::Or>);
  r.add("aten::logical_xor(Tensor self, Tensor other) -> Tensor", logicalK<Logic::Xor>);
  r.add("aten::logical_and_(Tensor(a!) self, Tensor other) -> Tensor(a!)", logicalK_<Logic::And>);
  r.add("aten::logical_or_(Tensor(a!) self, Tensor other) -> Tensor(a!)", logicalK_<Logic::Or>);
  r.add("aten::logical_xor_(Tensor(a!) self, Tensor other) -> Tensor(a!)", logicalK_<Logic::Xor>);
  r.add("aten::logical_not(Tensor self) -> Tensor", logicalNotK);
  r.add("aten::logical_not_(Tensor(a!) self) -> Tensor(a!)", logicalNotK_);
  r.add("aten::bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor", bitwiseTensor<Logic::And>);
  r.add("aten::bitwise_and.Scalar(Tensor self, Scalar other) -> Tensor", bitwiseScalar<Logic::And>);
  r.add("aten::bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor", bitwiseTensor<Logic::Or>);
  r.add("aten::bitwise_or.Scalar(Tensor self, Scalar other) -> Tensor", bitwiseScalar<Logic::Or>);
  r.add("aten::bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor", bitwiseTensor<Logic::Xor>);
  r.add("aten::bitwise_xor.Scalar(Tensor self, Scalar other) -> Tensor", bitwiseScalar<Logic::Xor>);
  r.add("aten::bitwise_and_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwiseTensor_<Logic::And>);
  r.add("aten::bitwise_or_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwiseTensor_<Logic::Or>);
  r.add("aten::__and__.Tensor(Tensor self, Tensor other) -> Tensor", bitwiseTensor<Logic::And>);
  r.add("aten::__and__.Scalar(Tensor self, Scalar other) -> Tensor", bitwiseScalar<Logic::And>);
  r.add("aten::__or__.Tensor(Tensor self, Tensor other) -> Tensor", bitwiseTensor<Logic::Or>);
  r.add("aten::__or__.Scalar(Tensor self, Scalar other) -> Tensor", bitwiseScalar<Logic::Or>);
  r.add("aten::__xor__.Tensor(Tensor self, Tensor other) -> Tensor", bitwiseTensor<Logic::Xor>);
  r.add("aten::__xor__.Scalar(Tensor self, Scalar other) -> Tensor", bitwiseScalar<Logic::Xor>);
  r.add("aten::__iand__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwiseTensor_<Logic::And>);
  r.add("aten::__iand__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwiseScalar_<Logic::And>);
  r.add("aten::__ior__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", bitwiseTensor_<Logic::Or>);
  r.add("aten::__ior__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", bitwiseScalar_<Logic::Or>);
  r.add("aten::bitwise_not(Tensor self) -> Tensor", bitwiseNotK);
  r.add("aten::bitwise_not_(Tensor(a!) self) -> Tensor(a!)", bitwiseNotK_);

  r.add("aten::where.self(Tensor condition, Tensor self, Tensor other) -> Tensor", whereSelf);
  r.add("aten::where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor", whereScalarOther);
  r.add("aten::where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor", whereScalarSelf);
  r.add("aten::where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor", whereScalar);

  r.add("aten::clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", clampK);
  r.add("aten::clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", clampK_);
  r.add("aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor", clampT);
  r.add("aten::clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", clampT_);
  r.add("aten::clamp_min(Tensor self, Scalar min) -> Tensor", clampMin);
  r.add("aten::clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)", clampMin_);
  r.add("aten::clamp_max(Tensor self, Scalar max) -> Tensor", clampMax);
  r.add("aten::clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)", clampMax_);
  r.add("aten::clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", clampMinT);
  r.add("aten::clamp_max.Tensor(Tensor self, Tensor max) -> Tensor", clampMaxT);
  r.add("aten::clip(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor", clampK);
  r.add("aten::clip_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)", clampK_);

#define KD_REG_UNARY(NAME)                                                         \
  r.add("aten::" #NAME "(Tensor self) -> Tensor", NAME##K);                        \
  r.add("aten::" #NAME "_(Tensor(a!) self) -> Tensor(a!)", NAME##K_);
  KD_REG_UNARY(exp)
  KD_REG_UNARY(exp2)
  KD_REG_UNARY(expm1)
  KD_REG_UNARY(log)
  KD_REG_UNARY(log2)
  KD_REG_UNARY(log10)
  KD_REG_UNARY(log1p)
  KD_REG_UNARY(sqrt)
  KD_REG_UNARY(rsqrt)
  KD_REG_UNARY(sin)
  KD_REG_UNARY(cos)
  KD_REG_UNARY(tan)
  KD_REG_UNARY(asin)
  KD_REG_UNARY(acos)
  KD_REG_UNARY(atan)
  KD_REG_UNARY(sinh)
  KD_REG_UNARY(cosh)
  KD_REG_UNARY(asinh)
  KD_REG_UNARY(acosh)
  KD_REG_UNARY(atanh)
  KD_REG_UNARY(erf)
  KD_REG_UNARY(erfc)
  KD_REG_UNARY(reciprocal)
  KD_REG_UNARY(lgamma)
  KD_REG_UNARY(floor)
  KD_REG_UNARY(ceil)
  KD_REG_UNARY(trunc)
  KD_REG_UNARY(round)
  KD_REG_UNARY(abs)
  KD_REG_UNARY(sign)
  KD_REG_UNARY(neg)
#undef KD_REG_UNARY
  r.add("aten::negative(Tensor self) -> Tensor", negK);
  r.add("aten::absolute(Tensor self) -> Tensor", absK);
  r.add("aten::square(Tensor self) -> Tensor", squareK);
  r.add("aten::round.decimals(Tensor self, *, int decimals) -> Tensor", roundDecimals);
  r.add("aten::isnan(Tensor self) -> Tensor", isnanK);
  r.add("aten::isinf(Tensor self) -> Tensor", classifyK<0>);
  r.add("aten::isfinite(Tensor self) -> Tensor", classifyK<1>);
  r.add("aten::nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor", nanToNumK);
  r.add("aten::frac(Tensor self) -> Tensor", fracK);
  r.add("aten::hypot(Tensor self, Tensor other) -> Tensor", hypotK);
  r.add("aten::addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", addcK<false>);
  r.add("aten::addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", addcK<true>);
}

}  // namespace kindling
