// Randomized leaky ReLU and the gamma-function family PyTorch 1.13 exposes as tensor ops.
//   rrelu / rrelu_ / rrelu_with_noise(_): eval (training=False) is leaky_relu with slope (lower + upper) / 2;
//     training draws, for every element <= 0 in flat order, a slope uniform in [lower, upper) from the default
//     CPU generator as a double (ATen's at::uniform_real_distribution<double>, via aten::uniform_ on a double
//     tensor so the draws match PyTorch after torch.manual_seed), bounds first rounded to the op math type.
//   digamma, polygamma(n), mvlgamma(p): ATen's Math.h algorithms (calc_digamma, calc_trigamma, Hurwitz zeta),
//     computed in the input's floating type (integers and bool promote to float32; Half / BFloat16 in float).
//     mvlgamma checks p >= 1 and a non-bool input (1.13 has no domain check).
#include <cmath>
#include <limits>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------- rrelu

template <class F>
void forEachFloating(ScalarType t, const char* op, F&& f) {
  dispatchFloatingTypes(t, op, [&](auto tag) {
    using T = decltype(tag);
    using M = std::conditional_t<std::is_same_v<T, double>, double, float>;  // ATen's opmath_type
    f(T{}, M{});
  });
}

// out (contiguous, same dtype as x) = rrelu(x); noise (optional, contiguous) receives the slopes (1 for x > 0).
void rreluInto(const Tensor& xIn, Tensor& out, Tensor* noise, double lowerD, double upperD, bool training,
               const IValue& generator) {
  const Tensor x = xIn.contiguous();
  const int64_t n = x.numel();
  forEachFloating(x.dtype(), "rrelu_with_noise", [&](auto tTag, auto mTag) {
    using T = decltype(tTag);
    using M = decltype(mTag);
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    T* pn = noise ? noise->data_ptr<T>() : nullptr;
    if (!training) {
      const M slope = static_cast<M>((lowerD + upperD) / 2);
      for (int64_t i = 0; i < n; ++i) {
        const M v = static_cast<M>(px[i]);
        po[i] = static_cast<T>(v > M(0) ? v : v * slope);
      }
      return;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) k += static_cast<M>(px[i]) <= M(0);
    static const OpHandle kUniform("aten::uniform_");
    Tensor draws = Tensor::empty({k}, ScalarType::Double);
    kUniform.run(draws, static_cast<double>(static_cast<M>(lowerD)), static_cast<double>(static_cast<M>(upperD)),
                 generator);
    const double* pd = draws.data_ptr<double>();
    for (int64_t i = 0, j = 0; i < n; ++i) {
      const M v = static_cast<M>(px[i]);
      if (v <= M(0)) {
        const M r = static_cast<M>(pd[j++]);
        po[i] = static_cast<T>(v * r);
        if (pn) pn[i] = static_cast<T>(r);
      } else {
        po[i] = px[i];
        if (pn) pn[i] = T(1);
      }
    }
  });
}

// self: the input; into: where the result goes (self for the in-place form)
void rreluCommon(Stack& s, bool hasNoise, bool inplace) {
  const size_t base = hasNoise ? 1 : 0;
  Args a(s, 5 + base);
  Tensor self = a.tensor(0);
  Tensor noiseArg = hasNoise ? a.tensor(1) : Tensor();
  const double lower = a.toDouble(1 + base), upper = a.toDouble(2 + base);
  const bool training = a.toBool(3 + base);
  KD_CHECK(lower <= upper, "Lower bound should be less than or equal to the upper bound");
  Tensor out = Tensor::empty(self.sizes(), self.dtype());
  Tensor noise;
  if (hasNoise && training) {
    KD_CHECK(noiseArg.numel() == self.numel() && noiseArg.dtype() == self.dtype(),
             "rrelu_with_noise: noise must have the shape and dtype of self");
    noise = Tensor::empty(self.sizes(), self.dtype());
  }
  rreluInto(self, out, noise.defined() ? &noise : nullptr, lower, upper, training, a[4 + base]);
  if (noise.defined()) noiseArg.copy_(noise.view(noiseArg.sizes()));
  if (inplace) {
    self.copy_(out);
    a.ret(std::move(self));
  } else {
    a.ret(std::move(out));
  }
}

void rreluK(Stack& s) { rreluCommon(s, false, false); }
void rreluInplaceK(Stack& s) { rreluCommon(s, false, true); }
void rreluWithNoiseK(Stack& s) { rreluCommon(s, true, false); }
void rreluWithNoiseInplaceK(Stack& s) { rreluCommon(s, true, true); }

// ---------------------------------------------------------------- gamma family (ATen Math.h)

template <class T>
T polevl(T x, const T* a, int n) {
  T r = a[0];
  for (int i = 1; i <= n; ++i) r = r * x + a[i];
  return r;
}

template <class T>
T calcDigamma(T x) {
  const T psi10 = T(2.25175258906672110764);
  if (x == T(0)) return std::copysign(std::numeric_limits<T>::infinity(), -x);
  if (x < T(0)) {
    if (x == std::trunc(x)) return std::numeric_limits<T>::quiet_NaN();
    T q;
    const T r = std::modf(x, &q);
    return calcDigamma<T>(T(1) - x) - T(kPi) / std::tan(T(kPi) * r);
  }
  T result = 0;
  while (x < T(10)) {
    result -= T(1) / x;
    x += T(1);
  }
  if (x == T(10)) return result + psi10;
  static const T A[] = {T(8.33333333333333333333E-2), T(-2.10927960927960927961E-2), T(7.57575757575757575758E-3),
                        T(-4.16666666666666666667E-3), T(3.96825396825396825397E-3),  T(-8.33333333333333333333E-3),
                        T(8.33333333333333333333E-2)};
  T y = 0;
  if (x < T(1.0e17)) {
    const T z = T(1) / (x * x);
    y = z * polevl<T>(z, A, 6);
  }
  return result + std::log(x) - (T(0.5) / x) - y;
}

template <class T>
T calcTrigamma(T x) {
  T sign = 1, result = 0;
  if (x < T(0.5)) {
    sign = -1;
    const T sinPiX = std::sin(T(kPi) * x);
    result -= T(kPi * kPi) / (sinPiX * sinPiX);
    x = T(1) - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += T(1) / (x * x);
    x += T(1);
  }
  const T ixx = T(1) / (x * x);
  result += (T(1) + T(1) / (T(2) * x) + ixx * (T(1) / T(6) - ixx * (T(1) / T(30) - ixx * (T(1) / T(42))))) / x;
  return sign * result;
}

// Hurwitz zeta(x, q) (Cephes), accumulated in double as ATen's CPU acc_type.
template <class T>
T zeta(T xT, T qT) {
  const double x = xT, q = qT;
  const double machep = 1.11022302462515654042E-16;
  static const double A[] = {12.0,
                             -720.0,
                             30240.0,
                             -1209600.0,
                             47900160.0,
                             -1.8924375803183791606e9,
                             7.47242496e10,
                             -2.950130727918164224e12,
                             1.1646782814350067249e14,
                             -4.5979787224074726105e15,
                             1.8152105401943546773e17,
                             -7.1661652561756670113e18};
  if (x == 1) return std::numeric_limits<T>::infinity();
  if (x < 1) return std::numeric_limits<T>::quiet_NaN();
  if (q <= 0) {
    if (q == std::floor(q)) return std::numeric_limits<T>::infinity();
    if (x != std::floor(x)) return std::numeric_limits<T>::quiet_NaN();
  }
  double s = std::pow(q, -x), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1;
    b = std::pow(a, -x);
    s += b;
    if (-machep * s < b && b < machep * s) return static_cast<T>(s);
  }
  const double w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1;
  double k = 0;
  for (int j = 0; j < 12; ++j) {
    a *= x + k;
    b /= w;
    double t = a * b / A[j];
    s = s + t;
    t = std::fabs(t / s);
    if (t < machep) return static_cast<T>(s);
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return static_cast<T>(s);
}

template <class T>
T calcPolygamma(T x, int64_t n) {
  if (n == 0) return calcDigamma<T>(x);
  if (n == 1) return calcTrigamma<T>(x);
  const T factorial = static_cast<T>(std::exp(std::lgamma(static_cast<double>(n) + 1.0)));
  return static_cast<T>((n % 2) ? 1.0 : -1.0) * factorial * zeta<T>(static_cast<T>(n + 1), x);
}

// Applies f (on float or double) elementwise; returns a new tensor in the op's result dtype, or writes into
// self (in-place forms, which keep self's dtype and reject integer self as ATen's result-type check does).
template <class F>
Tensor unaryGamma(const char* op, const Tensor& self, bool inplace, F f) {
  const ScalarType st = self.dtype();
  const ScalarType outType = isFloatingType(st) ? st : ScalarType::Float;
  if (inplace)
    KD_CHECK(isFloatingType(st), "result type Float can't be cast to the desired output type {}", scalarTypeName(st));
  const ScalarType work = outType == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor w = self.to(work, /*copy=*/true).contiguous();
  dispatchFloatingTypes(work, op, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      T* p = w.data_ptr<T>();
      const int64_t n = w.numel();
      for (int64_t i = 0; i < n; ++i) p[i] = f(p[i]);
    }
  });
  Tensor r = w.to(outType);
  if (inplace) {
    Tensor out = self;
    out.copy_(r);
    return out;
  }
  return r;
}

void digammaK(Stack& s) {
  Args a(s, 1);
  a.ret(unaryGamma("digamma", a.tensor(0), false, [](auto x) { return calcDigamma(x); }));
}
void digammaInplaceK(Stack& s) {
  Args a(s, 1);
  a.ret(unaryGamma("digamma", a.tensor(0), true, [](auto x) { return calcDigamma(x); }));
}
void polygammaK(Stack& s) {  // polygamma(int n, Tensor self)
  Args a(s, 2);
  const int64_t n = a.toInt(0);
  KD_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  a.ret(unaryGamma("polygamma", a.tensor(1), false, [n](auto x) { return calcPolygamma(x, n); }));
}
void polygammaInplaceK(Stack& s) {  // polygamma_(Tensor self, int n)
  Args a(s, 2);
  const int64_t n = a.toInt(1);
  KD_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  a.ret(unaryGamma("polygamma", a.tensor(0), true, [n](auto x) { return calcPolygamma(x, n); }));
}

Tensor mvlgamma(const Tensor& self, int64_t p, bool inplace) {
  // ATen 1.13's mvlgamma_check (no domain check: elements <= (p - 1) / 2 give lgamma's values).
  KD_CHECK(self.dtype() != ScalarType::Bool, "The input tensor may not be a boolean tensor.");
  KD_CHECK(p >= 1, "p has to be greater than or equal to 1");
  const double constant = static_cast<double>(p * (p - 1)) * std::log(kPi) * 0.25;
  return unaryGamma("mvlgamma", self, inplace, [p, constant](auto x) {
    using T = decltype(x);
    T sum = 0;
    for (int64_t j = 0; j < p; ++j) sum += std::lgamma(x - static_cast<T>(j) * T(0.5));
    return static_cast<T>(sum + static_cast<T>(constant));
  });
}
void mvlgammaK(Stack& s) {
  Args a(s, 2);
  a.ret(mvlgamma(a.tensor(0), a.toInt(1), false));
}
void mvlgammaInplaceK(Stack& s) {
  Args a(s, 2);
  a.ret(mvlgamma(a.tensor(0), a.toInt(1), true));
}

}  // namespace

void registerRreluGammaOps(OperatorRegistry& r) {
  r.add("aten::rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, "
        "Generator? generator=None) -> Tensor",
        rreluK);
  r.add("aten::rrelu_(Tensor(a!) self, Scalar lower=0.125, Scalar upper=0.33333333333333331, bool training=False, "
        "Generator? generator=None) -> Tensor(a!)",
        rreluInplaceK);
  r.add("aten::rrelu_with_noise(Tensor self, Tensor noise, Scalar lower=0.125, Scalar upper=0.33333333333333331, "
        "bool training=False, Generator? generator=None) -> Tensor",
        rreluWithNoiseK);
  r.add("aten::rrelu_with_noise_(Tensor(a!) self, Tensor noise, Scalar lower=0.125, "
        "Scalar upper=0.33333333333333331, bool training=False, Generator? generator=None) -> Tensor(a!)",
        rreluWithNoiseInplaceK);
  r.add("aten::digamma(Tensor self) -> Tensor", digammaK);
  r.add("aten::digamma_(Tensor(a!) self) -> Tensor(a!)", digammaInplaceK);
  r.add("aten::special_digamma(Tensor self) -> Tensor", digammaK);
  r.add("aten::polygamma(int n, Tensor self) -> Tensor", polygammaK);
  r.add("aten::special_polygamma(int n, Tensor self) -> Tensor", polygammaK);
  r.add("aten::polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", polygammaInplaceK);
  r.add("aten::mvlgamma(Tensor self, int p) -> Tensor", mvlgammaK);
  r.add("aten::mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)", mvlgammaInplaceK);
}

}  // namespace kindling
