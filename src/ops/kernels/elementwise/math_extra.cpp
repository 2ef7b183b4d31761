// Elementwise tensor operators beyond the core arithmetic of elementwise.cpp (which registers only the
// scalar `math` overloads of some of these names): copysign, ldexp, gcd/lcm, lerp.Tensor, frexp, angle,
// logaddexp(2), deg2rad/rad2deg, sinc, sgn, signbit, isposinf/isneginf/isreal, heaviside, fmax/fmin, xlogy,
// logit, erfinv, positive, float_power, nextafter, bitwise shifts. Dtype rules follow ATen 1.13: "float
// ops" (copysign, ldexp, xlogy, sinc, deg2rad, logit, erfinv, ...) compute integer inputs in the default
// float dtype; the rest promote normally; boolean results for the predicates.
#include <cmath>
#include <limits>
#include <numeric>
#include <type_traits>

#include "ops/kernels/elementwise/integer_wrap.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

template <class T> constexpr bool isFloat = std::is_floating_point_v<T>;

TensorIterator unaryIt(const Tensor& x, bool intToFloat, ScalarType outDt = ScalarType::Undefined) {
  TensorIterator it;
  it.addOutput(Tensor()).addInput(x).promoteIntegerInputsToFloat(intToFloat);
  if (outDt != ScalarType::Undefined) it.outputDtype(outDt);
  it.build();
  return it;
}

TensorIterator binaryIt(const Tensor& a, const Tensor& b, bool intToFloat) {
  TensorIterator it;
  it.addOutput(Tensor()).addInput(a).addInput(b).promoteIntegerInputsToFloat(intToFloat).build();
  return it;
}

TensorIterator binaryScalarIt(const Tensor& a, const Scalar& b, bool intToFloat, bool scalarFirst = false) {
  TensorIterator it;
  it.addOutput(Tensor());
  if (scalarFirst) it.addInput(b).addInput(a);
  else it.addInput(a).addInput(b);
  it.promoteIntegerInputsToFloat(intToFloat).build();
  return it;
}

// ---------------------------------------------------------------- binary float ops

template <class T> T copysignOf(T a, T b) {
  if constexpr (isFloat<T>) return std::copysign(a, b);
  else return a;
}

void copysignRun(TensorIterator& it) {
  dispatchLoopFloating(it.loopComputeDtype(), "copysign", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T a, T b) -> T { return std::copysign(a, b); });
  });
}
void copysignTensorK(Stack& s) { Args a(s, 2); auto it = binaryIt(a.tensor(0), a.tensor(1), true); copysignRun(it); a.ret(it.output()); }
void copysignScalarK(Stack& s) { Args a(s, 2); auto it = binaryScalarIt(a.tensor(0), a.scalar(1), true); copysignRun(it); a.ret(it.output()); }

void ldexpK(Stack& s) {
  Args a(s, 2);
  auto it = binaryIt(a.tensor(0), a.tensor(1), true);
  dispatchLoopFloating(it.loopComputeDtype(), "ldexp", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T e) -> T { return x * std::pow(T(2), e); });
  });
  a.ret(it.output());
}

template <int Kind>  // 0 xlogy(T,T), 1 xlogy(T,S), 2 xlogy(S,T)
void xlogyK(Stack& s) {
  Args a(s, 2);
  TensorIterator it = Kind == 0 ? binaryIt(a.tensor(0), a.tensor(1), true)
                                : (Kind == 1 ? binaryScalarIt(a.tensor(0), a.scalar(1), true)
                                             : binaryScalarIt(a.tensor(1), a.scalar(0), true, true));
  dispatchLoopFloating(it.loopComputeDtype(), "xlogy", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T {
      if (std::isnan(y)) return std::numeric_limits<T>::quiet_NaN();
      if (x == 0) return T(0);
      return x * std::log(y);
    });
  });
  a.ret(it.output());
}

template <bool Two>
void logaddexpK(Stack& s) {
  Args a(s, 2);
  auto it = binaryIt(a.tensor(0), a.tensor(1), false);
  dispatchLoopFloating(it.loopComputeDtype(), Two ? "logaddexp2_cpu" : "logaddexp_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T {
      if (std::isinf(x) && x == y) return x;
      const T m = std::max(x, y);
      if constexpr (Two) return m + std::log1p(std::exp2(-std::abs(x - y))) / T(M_LN2);
      else return m + std::log1p(std::exp(-std::abs(x - y)));
    });
  });
  a.ret(it.output());
}

template <bool Max>
void fmaxminK(Stack& s) {
  Args a(s, 2);
  auto it = binaryIt(a.tensor(0), a.tensor(1), false);
  dispatchLoopTypes(it.loopComputeDtype(), Max ? "fmax" : "fmin", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T {
      if constexpr (isFloat<T>) return Max ? std::fmax(x, y) : std::fmin(x, y);
      else if constexpr (std::is_same_v<T, bool>) return Max ? (x || y) : (x && y);
      else return Max ? std::max(x, y) : std::min(x, y);
    });
  });
  a.ret(it.output());
}

void nextafterK(Stack& s) {
  Args a(s, 2);
  auto it = binaryIt(a.tensor(0), a.tensor(1), false);
  dispatchLoopFloating(it.loopComputeDtype(), "nextafter_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T y) -> T { return std::nextafter(x, y); });
  });
  a.ret(it.output());
}

void heavisideK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), v = a.tensor(1);
  KD_CHECK(x.dtype() == v.dtype(), "heaviside is not yet implemented for tensors with different dtypes");
  auto it = binaryIt(x, v, false);
  dispatchLoopTypes(it.loopComputeDtype(), "heaviside", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T v) -> T { return x == T(0) ? v : static_cast<T>(x > T(0)); });
  });
  a.ret(it.output());
}

template <bool Lcm>
void gcdK(Stack& s) {
  Args a(s, 2);
  auto it = binaryIt(a.tensor(0), a.tensor(1), false);
  const ScalarType dt = it.loopComputeDtype();
  KD_CHECK(isIntegralType(dt, false), "\"{}\" not implemented for '{}'", Lcm ? "lcm_cpu" : "gcd_cpu", scalarTypeName(dt));
  dispatchLoopTypesNoBool(dt, Lcm ? "lcm" : "gcd", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!isFloat<T>) {
      cpuKernel(it, [](T x, T y) -> T {
        // ATen's calc_gcd: Euclid on absolute values
        T g;
        {
          T p = wrap::abs(x), q = wrap::abs(y);
          while (q != 0) { T r = wrap::modTrunc(p, q); p = q; q = r; }
          g = p;
        }
        if constexpr (Lcm) {
          if (g == 0) return T(0);
          // in int for int8/int16, as ATen's promoted arithmetic: lcm(-127, 2) is (int8)254
          using W = std::conditional_t<(sizeof(T) < sizeof(int)), int, T>;
          return static_cast<T>(wrap::abs(wrap::mul(static_cast<W>(wrap::divTrunc(x, g)), static_cast<W>(y))));
        } else {
          return g;
        }
      });
    }
  });
  a.ret(it.output());
}

template <bool Left, int Kind>  // Kind 0 (T,T), 1 (T,S), 2 (S,T)
void shiftK(Stack& s) {
  Args a(s, 2);
  TensorIterator it = Kind == 0 ? binaryIt(a.tensor(0), a.tensor(1), false)
                                : (Kind == 1 ? binaryScalarIt(a.tensor(0), a.scalar(1), false)
                                             : binaryScalarIt(a.tensor(1), a.scalar(0), false, true));
  const ScalarType dt = it.loopComputeDtype();
  KD_CHECK(isIntegralType(dt, false), "\"{}\" not implemented for '{}'", Left ? "lshift_cpu" : "rshift_cpu", scalarTypeName(dt));
  dispatchLoopTypesNoBool(dt, "shift", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!isFloat<T>) {
      // As ATen 1.13 computes `(unsigned)a << b` and `a >> b` on x86: in T promoted to int (int8, int16,
      // uint8) or T itself, with the count taken modulo the width of that promoted type (a count of 32
      // shifts an int8 by 0, -1 shifts an int32 by 31). Spelled so that no shift is undefined in C++.
      cpuKernel(it, [](T x, T y) -> T {
        using P = std::conditional_t<(sizeof(T) < sizeof(int)), int, T>;
        using UP = std::make_unsigned_t<P>;
        constexpr P kMask = static_cast<P>(sizeof(P) * 8 - 1);
        const int count = static_cast<int>(static_cast<P>(y) & kMask);
        if constexpr (Left) {
          return static_cast<T>(static_cast<UP>(static_cast<std::make_unsigned_t<T>>(x)) << count);
        } else {
          return static_cast<T>(static_cast<P>(x) >> count);
        }
      });
    }
  });
  a.ret(it.output());
}

void lerpTensorK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), end = a.tensor(1), w = a.tensor(2);
  KD_CHECK(self.dtype() == end.dtype(), "expected dtype {} for `end` but got dtype {}", scalarTypeName(self.dtype()),
           scalarTypeName(end.dtype()));
  KD_CHECK(self.dtype() == w.dtype(), "expected dtype {} for `weight` but got dtype {}", scalarTypeName(self.dtype()),
           scalarTypeName(w.dtype()));
  TensorIterator it;
  it.addOutput(Tensor()).addInput(self).addInput(end).addInput(w).build();
  dispatchLoopFloating(it.loopComputeDtype(), "lerp_kernel_tensor", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T e, T wt) -> T {
      return std::abs(wt) < T(0.5) ? x + wt * (e - x) : e - (e - x) * (T(1) - wt);
    });
  });
  a.ret(it.output());
}

void floatPowerRun(TensorIterator& it, Args& a) {
  cpuKernel(it, [](double x, double y) -> double { return std::pow(x, y); });
  a.ret(it.output());
}
template <int Kind>  // 0 (T,T), 1 (T,S), 2 (S,T)
void floatPowerK(Stack& s) {
  Args a(s, 2);
  TensorIterator it;
  it.addOutput(Tensor());
  if (Kind == 0) it.addInput(a.tensor(0)).addInput(a.tensor(1));
  else if (Kind == 1) it.addInput(a.tensor(0)).addInput(a.scalar(1));
  else it.addInput(a.scalar(0)).addInput(a.tensor(1));
  it.computeDtype(ScalarType::Double).outputDtype(ScalarType::Double).build();
  floatPowerRun(it, a);
}

// ---------------------------------------------------------------- unary

template <class F>
void unaryFloatOp(Stack& s, const char* name, F f) {
  Args a(s, 1);
  auto it = unaryIt(a.tensor(0), true);
  dispatchLoopFloating(it.loopComputeDtype(), name, [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [f](T x) -> T { return static_cast<T>(f(x)); });
  });
  a.ret(it.output());
}

void deg2radK(Stack& s) { unaryFloatOp(s, "deg2rad", [](auto x) { return x * static_cast<decltype(x)>(M_PI / 180.0); }); }
void rad2degK(Stack& s) { unaryFloatOp(s, "rad2deg", [](auto x) { return x * static_cast<decltype(x)>(180.0 / M_PI); }); }
void sincK(Stack& s) {
  unaryFloatOp(s, "sinc", [](auto x) {
    using T = decltype(x);
    if (x == T(0)) return T(1);
    const T px = static_cast<T>(M_PI) * x;
    return std::sin(px) / px;
  });
}

// ATen's calc_erfinv: a rational approximation refined by two Newton steps.
template <class T>
T erfinvOf(T y) {
  if (y < T(-1) || y > T(1)) return std::numeric_limits<T>::quiet_NaN();
  if (y == T(1)) return std::numeric_limits<T>::infinity();
  if (y == T(-1)) return -std::numeric_limits<T>::infinity();
  static const T a[4] = {T(0.886226899), T(-1.645349621), T(0.914624893), T(-0.140543331)};
  static const T b[4] = {T(-2.118377725), T(1.442710462), T(-0.329097515), T(0.012229801)};
  static const T c[4] = {T(-1.970840454), T(-1.624906493), T(3.429567803), T(1.641345311)};
  static const T d[2] = {T(3.543889200), T(1.637067800)};
  const T y_abs = std::abs(y);
  T x;
  if (y_abs <= T(0.7)) {
    const T z = y * y;
    const T num = (((a[3] * z + a[2]) * z + a[1]) * z + a[0]);
    const T dem = ((((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + T(1.0));
    x = y * num / dem;
  } else {
    const T z = std::sqrt(-std::log((T(1.0) - y_abs) / T(2.0)));
    const T num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
    const T dem = (d[1] * z + d[0]) * z + T(1.0);
    x = std::copysign(num, y) / dem;
  }
  const T k = T(2) / std::sqrt(static_cast<T>(M_PI));
  x = x - (std::erf(x) - y) / (k * std::exp(-x * x));
  x = x - (std::erf(x) - y) / (k * std::exp(-x * x));
  return x;
}
void erfinvK(Stack& s) { unaryFloatOp(s, "erfinv", [](auto x) { return erfinvOf(x); }); }

void logitK(Stack& s) {
  Args a(s, 2);
  const auto eps = a.optDouble(1);
  auto it = unaryIt(a.tensor(0), true);
  dispatchLoopFloating(it.loopComputeDtype(), "logit", [&](auto tag) {
    using T = decltype(tag);
    if (!eps || *eps < 0) {
      cpuKernel(it, [](T x) -> T { return std::log(x / (T(1) - x)); });
    } else {
      const T lo = static_cast<T>(*eps), hi = T(1) - static_cast<T>(*eps);
      cpuKernel(it, [lo, hi](T x) -> T {
        const T z = x < lo ? lo : (x > hi ? hi : x);
        return std::isnan(x) ? x : std::log(z / (T(1) - z));
      });
    }
  });
  a.ret(it.output());
}

void angleK(Stack& s) {
  Args a(s, 1);
  auto it = unaryIt(a.tensor(0), true);
  dispatchLoopFloating(it.loopComputeDtype(), "angle", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> T {
      if (std::isnan(x)) return x;
      return x < T(0) ? static_cast<T>(M_PI) : T(0);
    });
  });
  a.ret(it.output());
}

void sgnK(Stack& s) {
  Args a(s, 1);
  auto it = unaryIt(a.tensor(0), false);
  dispatchLoopTypes(it.loopComputeDtype(), "sgn", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x) -> T {
      if constexpr (std::is_same_v<T, bool>) return x;
      else return static_cast<T>((T(0) < x) - (x < T(0)));
    });
  });
  a.ret(it.output());
}

template <int Which>  // 0 signbit, 1 isposinf, 2 isneginf, 3 isreal
void predicateK(Stack& s) {
  Args a(s, 1);
  const Tensor x = a.tensor(0);
  if (Which == 3) {
    a.ret(Tensor::full(x.sizes(), Scalar(true), ScalarType::Bool));
    return;
  }
  TensorIterator it;
  it.addOutput(Tensor()).addInput(x).outputDtype(ScalarType::Bool).build();
  dispatchLoopTypes(it.loopComputeDtype(), "signbit", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T v) -> bool {
      bool r = false;
      if constexpr (isFloat<T>) {
        if (Which == 0) r = std::signbit(v);
        else if (Which == 1) r = v == std::numeric_limits<T>::infinity();
        else r = v == -std::numeric_limits<T>::infinity();
      } else if constexpr (std::is_signed_v<T>) {
        r = Which == 0 && v < 0;
      } else {
        (void)v;
      }
      return r;
    });
  });
  a.ret(it.output());
}

void frexpK(Stack& s) {
  Args a(s, 1);
  const Tensor x = a.tensor(0);
  KD_CHECK(isFloatingType(x.dtype()), "torch.frexp() only supports floating-point dtypes");
  const Tensor c = x.contiguous();
  Tensor m = Tensor::empty(x.sizes(), x.dtype()), e = Tensor::empty(x.sizes(), ScalarType::Int);
  dispatchLoopFloating(x.dtype(), "frexp", [&](auto tag) {
    using T = decltype(tag);
    const T* X = c.data_ptr<T>();
    T* M = m.data_ptr<T>();
    int32_t* E = e.data_ptr<int32_t>();
    for (int64_t i = 0; i < c.numel(); ++i) {
      int ex = 0;
      M[i] = std::frexp(X[i], &ex);
      E[i] = ex;
    }
  });
  a.ret(std::move(m), std::move(e));
}

void positiveK(Stack& s) {
  Args a(s, 1);
  const Tensor x = a.tensor(0);
  KD_CHECK(x.dtype() != ScalarType::Bool, "The `+` operator, on a bool tensor is not supported.");
  a.ret(x);
}

// celu_ (the out-of-place celu lives in activation.cpp): max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
void celuInplaceK(Stack& s) {
  Args a(s, 2);
  Tensor self = a.tensor(0);
  const double alpha = a.scalar(1).toDouble();
  TensorIterator it;
  it.addOutput(self).addInput(self).build();
  dispatchLoopFloating(it.loopComputeDtype(), "celu", [&](auto tag) {
    using T = decltype(tag);
    const T al = static_cast<T>(alpha);
    cpuKernel(it, [al](T x) -> T { return x > T(0) ? x : al * std::expm1(x / al); });
  });
  a.ret(std::move(self));
}

// torch.equal: same dtype required, then same sizes and equal elements (NaN != NaN)
void equalK(Stack& s) {
  Args a(s, 2);
  const Tensor x = a.tensor(0), y = a.tensor(1);
  KD_CHECK(x.dtype() == y.dtype(), "Expected object of scalar type {} but got scalar type {} for argument 'other'",
           scalarTypeName(x.dtype()), scalarTypeName(y.dtype()));
  bool eq = x.sizes() == y.sizes();
  if (eq) {
    const Tensor xc = x.contiguous(), yc = y.contiguous();
    dispatchLoopTypes(x.dtype(), "equal", [&](auto tag) {
      using T = decltype(tag);
      const T* X = xc.data_ptr<T>();
      const T* Y = yc.data_ptr<T>();
      for (int64_t i = 0; i < xc.numel() && eq; ++i) eq = X[i] == Y[i];
    });
  }
  a.ret(eq);
}

}  // namespace

void registerMathExtraOps(OperatorRegistry& r) {
  r.add("aten::copysign.Tensor(Tensor self, Tensor other) -> Tensor", copysignTensorK);
  r.add("aten::copysign.Scalar(Tensor self, Scalar other) -> Tensor", copysignScalarK);
  r.add("aten::ldexp.Tensor(Tensor self, Tensor other) -> Tensor", ldexpK);
  r.add("aten::xlogy.Tensor(Tensor self, Tensor other) -> Tensor", xlogyK<0>);
  r.add("aten::xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor", xlogyK<1>);
  r.add("aten::xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor", xlogyK<2>);
  r.add("aten::logaddexp(Tensor self, Tensor other) -> Tensor", logaddexpK<false>);
  r.add("aten::logaddexp2(Tensor self, Tensor other) -> Tensor", logaddexpK<true>);
  r.add("aten::fmax(Tensor self, Tensor other) -> Tensor", fmaxminK<true>);
  r.add("aten::fmin(Tensor self, Tensor other) -> Tensor", fmaxminK<false>);
  r.add("aten::nextafter(Tensor self, Tensor other) -> Tensor", nextafterK);
  r.add("aten::heaviside(Tensor self, Tensor values) -> Tensor", heavisideK);
  r.add("aten::gcd(Tensor self, Tensor other) -> Tensor", gcdK<false>);
  r.add("aten::lcm(Tensor self, Tensor other) -> Tensor", gcdK<true>);
  r.add("aten::bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor", shiftK<true, 0>);
  r.add("aten::bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", shiftK<true, 1>);
  r.add("aten::bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", shiftK<true, 2>);
  r.add("aten::bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor", shiftK<false, 0>);
  r.add("aten::bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor", shiftK<false, 1>);
  r.add("aten::bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor", shiftK<false, 2>);
  r.add("aten::lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor", lerpTensorK);
  r.add("aten::float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", floatPowerK<0>);
  r.add("aten::float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", floatPowerK<1>);
  r.add("aten::float_power.Scalar(Scalar self, Tensor exponent) -> Tensor", floatPowerK<2>);
  r.add("aten::deg2rad(Tensor self) -> Tensor", deg2radK);
  r.add("aten::rad2deg(Tensor self) -> Tensor", rad2degK);
  r.add("aten::sinc(Tensor self) -> Tensor", sincK);
  r.add("aten::erfinv(Tensor self) -> Tensor", erfinvK);
  r.add("aten::logit(Tensor self, float? eps=None) -> Tensor", logitK);
  r.add("aten::angle(Tensor self) -> Tensor", angleK);
  r.add("aten::sgn(Tensor self) -> Tensor", sgnK);
  r.add("aten::signbit(Tensor self) -> Tensor", predicateK<0>);
  r.add("aten::isposinf(Tensor self) -> Tensor", predicateK<1>);
  r.add("aten::isneginf(Tensor self) -> Tensor", predicateK<2>);
  r.add("aten::isreal(Tensor self) -> Tensor", predicateK<3>);
  r.add("aten::frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", frexpK);
  r.add("aten::positive(Tensor(a) self) -> Tensor(a)", positiveK);
  r.add("aten::equal(Tensor self, Tensor other) -> bool", equalK);
  r.add("aten::celu_(Tensor(a!) self, Scalar alpha=1.) -> Tensor(a!)", celuInplaceK);
}

}  // namespace kindling
