// Activation kernels: relu, relu6, hardtanh, leaky_relu, threshold, elu/selu/celu, sigmoid, tanh, silu,
// mish, gelu (exact and tanh), hardswish, hardsigmoid, softplus, log_sigmoid, softshrink/hardshrink, prelu,
// glu, and softmax / log_softmax over any dim. PyTorch 1.13 formulas; NaN propagates through the clamping
// activations as in ATen (relu(NaN) = NaN).
#include <cmath>

#include "ops/kernels/elementwise/elementwise.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "ops/kernels/simd/vec_loop.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

template <class T> constexpr bool isFloat = std::is_floating_point_v<T>;

/// Runs fn(T) -> T; integer inputs keep their dtype when `allowInt`, else error as ATen's float-only kernels.
/// `vecOp` (a simd::Unary, or -1) computes float/double through the vector kernels.
template <bool AllowInt = false, class Fn>
Tensor activation(const char* name, const Tensor& self, const Tensor& out, Fn fn, int vecOp = -1) {
  TensorIterator it;
  it.addOutput(out).addInput(self).build();
  if (vecOp >= 0 && simd::tryUnary(it, static_cast<simd::Unary>(vecOp))) return it.output();
  auto body = [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [&fn](T x) -> T { return fn(x); });
  };
  if constexpr (AllowInt) dispatchLoopTypesNoBool(it.loopComputeDtype(), name, body);
  else dispatchLoopFloating(it.loopComputeDtype(), name, body);
  return it.output();
}

/// Float-valued activations where integer inputs promote to float (sigmoid, tanh).
template <class Fn>
Tensor activationToFloat(const char* name, const Tensor& self, const Tensor& out, Fn fn, int vecOp = -1) {
  TensorIterator it;
  it.addOutput(out).addInput(self).promoteIntegerInputsToFloat(true).build();
  if (vecOp >= 0 && simd::tryUnary(it, static_cast<simd::Unary>(vecOp))) return it.output();
  dispatchLoopFloating(it.loopComputeDtype(), name, [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [&fn](T x) -> T { return fn(x); });
  });
  return it.output();
}

#define KD_VEC(OP) static_cast<int>(simd::Unary::OP)

template <class T> inline T reluOf(T x) { return x < T(0) ? T(0) : x; }  // NaN < 0 is false: NaN stays
template <class T> inline T clampOf(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }
template <class T> inline T sigmoidOf(T x) { return T(1) / (T(1) + std::exp(-x)); }

// relu
Tensor relu(const Tensor& self, const Tensor& out) {
  KD_CHECK(self.dtype() != ScalarType::Bool, "\"clamp_min_cpu\" not implemented for 'Bool'");
  return activation<true>("relu", self, out, [](auto x) { return reluOf(x); }, KD_VEC(Relu));
}
void reluK(Stack& s) { Args a(s, 1); Tensor r = relu(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void reluK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); relu(self, self); a.ret(std::move(self)); }

// hardtanh / relu6
Tensor hardtanh(const Tensor& self, const Scalar& lo, const Scalar& hi, const Tensor& out) {
  KD_CHECK(self.dtype() != ScalarType::Bool, "\"hardtanh_cpu\" not implemented for 'Bool'");
  TensorIterator it;
  it.addOutput(out).addInput(self).build();
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "hardtanh", [&](auto tag) {
    using T = decltype(tag);
    const T l = lo.to<T>(), h = hi.to<T>();
    // min(max(x, l), h) as ATen's clamp (min_val > max_val gives max_val); NaN stays NaN
    if constexpr (isFloat<T>) {
      simd::forEachUnary<T>(it, [l, h](const T* x, T* y, int64_t n) { simd::clamp(x, y, n, true, l, true, h); });
    } else {
      cpuKernel(it, [l, h](T x) -> T {
        const T t = x < l ? l : x;
        return t > h ? h : t;
      });
    }
  });
  return it.output();
}
void hardtanhK(Stack& s) { Args a(s, 3); Tensor r = hardtanh(a.tensor(0), a.scalar(1), a.scalar(2), Tensor()); a.ret(std::move(r)); }
void hardtanhK_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); hardtanh(self, a.scalar(1), a.scalar(2), self); a.ret(std::move(self)); }
void relu6K(Stack& s) { Args a(s, 1); Tensor r = hardtanh(a.tensor(0), Scalar(int64_t(0)), Scalar(int64_t(6)), Tensor()); a.ret(std::move(r)); }
void relu6K_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); hardtanh(self, Scalar(int64_t(0)), Scalar(int64_t(6)), self); a.ret(std::move(self)); }

// leaky_relu
Tensor leakyRelu(const Tensor& self, const Scalar& slope, const Tensor& out) {
  const double sl = slope.toDouble();
  return activation("leaky_relu_cpu", self, out, [sl](auto x) {
    using T = decltype(x);
    return x > T(0) ? x : x * static_cast<T>(sl);
  });
}
void leakyReluK(Stack& s) { Args a(s, 2); Tensor r = leakyRelu(a.tensor(0), a.scalar(1), Tensor()); a.ret(std::move(r)); }
void leakyReluK_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); leakyRelu(self, a.scalar(1), self); a.ret(std::move(self)); }

// threshold(self, threshold, value): x <= threshold ? value : x
Tensor thresholdOp(const Tensor& self, const Scalar& th, const Scalar& val, const Tensor& out) {
  TensorIterator it;
  it.addOutput(out).addInput(self).build();
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "threshold_cpu", [&](auto tag) {
    using T = decltype(tag);
    const T t = th.to<T>(), v = val.to<T>();
    cpuKernel(it, [t, v](T x) -> T { return x <= t ? v : x; });
  });
  return it.output();
}
void thresholdK(Stack& s) { Args a(s, 3); Tensor r = thresholdOp(a.tensor(0), a.scalar(1), a.scalar(2), Tensor()); a.ret(std::move(r)); }
void thresholdK_(Stack& s) { Args a(s, 3); Tensor self = a.tensor(0); thresholdOp(self, a.scalar(1), a.scalar(2), self); a.ret(std::move(self)); }

// elu family: scale * (x > 0 ? x : alpha * (exp(x * input_scale) - 1))
Tensor eluOp(const Tensor& self, double alpha, double scale, double inputScale, const Tensor& out) {
  return activation("elu_cpu", self, out, [=](auto x) {
    using T = decltype(x);
    return x > T(0) ? static_cast<T>(scale) * x
                    : static_cast<T>(scale) * static_cast<T>(alpha) * (std::expm1(x * static_cast<T>(inputScale)));
  });
}
void eluK(Stack& s) { Args a(s, 4); Tensor r = eluOp(a.tensor(0), a.scalar(1).toDouble(), a.scalar(2).toDouble(), a.scalar(3).toDouble(), Tensor()); a.ret(std::move(r)); }
void eluK_(Stack& s) { Args a(s, 4); Tensor self = a.tensor(0); eluOp(self, a.scalar(1).toDouble(), a.scalar(2).toDouble(), a.scalar(3).toDouble(), self); a.ret(std::move(self)); }
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
void seluK(Stack& s) { Args a(s, 1); Tensor r = eluOp(a.tensor(0), kSeluAlpha, kSeluScale, 1.0, Tensor()); a.ret(std::move(r)); }
void seluK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); eluOp(self, kSeluAlpha, kSeluScale, 1.0, self); a.ret(std::move(self)); }
void celuK(Stack& s) {
  Args a(s, 2);
  const double al = a.scalar(1).toDouble();
  KD_CHECK(al != 0.0, "ZeroDivisionError");
  Tensor r = eluOp(a.tensor(0), al, 1.0, 1.0 / al, Tensor());
  a.ret(std::move(r));
}

// sigmoid / tanh / silu / mish
Tensor sigmoid(const Tensor& self, const Tensor& out) {
  return activationToFloat("sigmoid", self, out, [](auto x) { return sigmoidOf(x); }, KD_VEC(Sigmoid));
}
void sigmoidK(Stack& s) { Args a(s, 1); Tensor r = sigmoid(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void sigmoidK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); sigmoid(self, self); a.ret(std::move(self)); }
Tensor tanhOp(const Tensor& self, const Tensor& out) {
  return activationToFloat("tanh", self, out, [](auto x) { return std::tanh(x); }, KD_VEC(Tanh));
}
void tanhK(Stack& s) { Args a(s, 1); Tensor r = tanhOp(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void tanhK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); tanhOp(self, self); a.ret(std::move(self)); }
Tensor silu(const Tensor& self, const Tensor& out) {
  return activation("silu", self, out, [](auto x) {
    using T = decltype(x);
    return x / (T(1) + std::exp(-x));
  }, KD_VEC(Silu));
}
void siluK(Stack& s) { Args a(s, 1); Tensor r = silu(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void siluK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); silu(self, self); a.ret(std::move(self)); }
Tensor mish(const Tensor& self, const Tensor& out) {
  return activation("mish", self, out, [](auto x) { return x * std::tanh(std::log1p(std::exp(x))); }, KD_VEC(Mish));
}
void mishK(Stack& s) { Args a(s, 1); Tensor r = mish(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void mishK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); mish(self, self); a.ret(std::move(self)); }

// gelu
Tensor gelu(const Tensor& self, const std::string& approximate, const Tensor& out) {
  KD_CHECK(approximate == "none" || approximate == "tanh", "approximate argument must be either none or tanh.");
  if (approximate == "tanh") {
    return activation("GeluKernelImpl", self, out, [](auto x) {
      using T = decltype(x);
      const T kBeta = static_cast<T>(M_SQRT2 * M_2_SQRTPI * 0.5);
      const T kKappa = static_cast<T>(0.044715);
      const T inner = kBeta * (x + kKappa * x * x * x);
      return static_cast<T>(0.5) * x * (T(1) + std::tanh(inner));
    }, KD_VEC(GeluTanh));
  }
  return activation("GeluKernelImpl", self, out, [](auto x) {
    using T = decltype(x);
    return x * static_cast<T>(0.5) * (T(1) + std::erf(x * static_cast<T>(M_SQRT1_2)));
  }, KD_VEC(GeluErf));
}
void geluK(Stack& s) { Args a(s, 2); Tensor r = gelu(a.tensor(0), a[1].toStringRef(), Tensor()); a.ret(std::move(r)); }
void geluK_(Stack& s) { Args a(s, 2); Tensor self = a.tensor(0); gelu(self, a[1].toStringRef(), self); a.ret(std::move(self)); }

// hardswish / hardsigmoid
Tensor hardswish(const Tensor& self, const Tensor& out) {
  return activation("hardswish_cpu", self, out, [](auto x) {
    using T = decltype(x);
    return x * clampOf(x + T(3), T(0), T(6)) / T(6);
  });
}
void hardswishK(Stack& s) { Args a(s, 1); Tensor r = hardswish(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void hardswishK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); hardswish(self, self); a.ret(std::move(self)); }
Tensor hardsigmoid(const Tensor& self, const Tensor& out) {
  return activation("hardsigmoid_cpu", self, out, [](auto x) {
    using T = decltype(x);
    return clampOf(x + T(3), T(0), T(6)) / T(6);
  });
}
void hardsigmoidK(Stack& s) { Args a(s, 1); Tensor r = hardsigmoid(a.tensor(0), Tensor()); a.ret(std::move(r)); }
void hardsigmoidK_(Stack& s) { Args a(s, 1); Tensor self = a.tensor(0); hardsigmoid(self, self); a.ret(std::move(self)); }

// softplus(x, beta, threshold) = x*beta > threshold ? x : log1p(exp(x*beta))/beta
void softplusK(Stack& s) {
  Args a(s, 3);
  const double beta = a.scalar(1).toDouble(), th = a.scalar(2).toDouble();
  Tensor r = activation("softplus_cpu", a.tensor(0), Tensor(), [beta, th](auto x) {
    using T = decltype(x);
    const T b = static_cast<T>(beta);
    return x * b > static_cast<T>(th) ? x : std::log1p(std::exp(x * b)) / b;
  });
  a.ret(std::move(r));
}
void logSigmoidK(Stack& s) {
  Args a(s, 1);
  Tensor r = activation("log_sigmoid_cpu", a.tensor(0), Tensor(), [](auto x) {
    using T = decltype(x);
    const T m = std::min(x, T(0));
    return m - std::log1p(std::exp(-std::abs(x)));
  });
  a.ret(std::move(r));
}
void hardshrinkK(Stack& s) {
  Args a(s, 2);
  const double l = a.scalar(1).toDouble();
  Tensor r = activation("hardshrink_cpu", a.tensor(0), Tensor(), [l](auto x) {
    using T = decltype(x);
    return (x >= static_cast<T>(-l) && x <= static_cast<T>(l)) ? T(0) : x;
  });
  a.ret(std::move(r));
}
void softshrinkK(Stack& s) {
  Args a(s, 2);
  const double l = a.scalar(1).toDouble();
  KD_CHECK(l >= 0, "lambda must be greater or equal to 0, but found to be {}.", l);
  Tensor r = activation("softshrink_cpu", a.tensor(0), Tensor(), [l](auto x) {
    using T = decltype(x);
    const T lt = static_cast<T>(l);
    return x > lt ? x - lt : (x < -lt ? x + lt : T(0));
  });
  a.ret(std::move(r));
}

// prelu(self, weight): weight has 1 or C elements (channel dim 1)
void preluK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0), w = a.tensor(1);
  KD_CHECK(w.dim() <= 1, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = {}", w.dim());
  const int64_t n = w.numel();
  Tensor wb = w;
  if (self.dim() >= 2 && n > 1) {
    KD_CHECK(self.sizes()[1] == n,
             "Mismatch of parameter numbers and input channel size. Found parameter numbers = {} and channel size = {}.",
             n, self.sizes()[1]);
    IntArray shape(self.dim(), 1);
    shape[1] = n;
    wb = w.reshape(shape);
  } else {
    KD_CHECK(n == 1, "Mismatch of parameter numbers and input channel size. Found parameter numbers = {} and channel size = {}.",
             n, self.dim() >= 2 ? self.sizes()[1] : 1);
    wb = w.reshape({});
  }
  TensorIterator it;
  it.addOutput(Tensor()).addInput(self).addInput(wb).build();
  dispatchLoopFloating(it.loopComputeDtype(), "prelu_cpu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T x, T ww) -> T { return x > T(0) ? x : ww * x; });
  });
  a.ret(it.output());
}

// glu(self, dim): a * sigmoid(b) with self split in halves along dim
void gluK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  KD_CHECK(self.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t d = maybeWrapDim(a.toInt(1), self.dim());
  const int64_t n = self.sizes()[d];
  KD_CHECK(n % 2 == 0, "Halving dimension must be even, but dimension {} is size {}", d, n);
  const Tensor x = self.narrow(d, 0, n / 2), g = self.narrow(d, n / 2, n / 2);
  TensorIterator it;
  it.addOutput(Tensor()).addInput(x).addInput(g).build();
  dispatchLoopFloating(it.loopComputeDtype(), "glu", [&](auto tag) {
    using T = decltype(tag);
    cpuKernel(it, [](T u, T v) -> T { return u * sigmoidOf(v); });
  });
  a.ret(it.output());
}

// ---------------------------------------------------------------- softmax

template <class T, bool Log>
void softmaxContig(const T* X, T* Y, int64_t outer, int64_t dimSize, int64_t inner) {
  if (inner == 1) {
    parallelFor(outer, outer * dimSize > kGrainSize,
                [&](int64_t o) { simd::softmaxRow(X + o * dimSize, Y + o * dimSize, dimSize, Log); });
    return;
  }
  parallelFor(outer, outer * dimSize * inner > kGrainSize, [&](int64_t o) {
    std::vector<T> scratch(2 * inner);
    simd::softmaxColumns(X + o * dimSize * inner, Y + o * dimSize * inner, dimSize, inner, Log, scratch.data());
  });
}

template <bool Log>
Tensor softmax(const Tensor& self, int64_t dim, ScalarType dtype) {
  const char* name = Log ? "log_softmax" : "softmax";
  Tensor x = dtype != ScalarType::Undefined ? self.to(dtype) : self;
  KD_CHECK(isFloatingType(x.dtype()), "\"{}_lastdim_kernel_impl\" not implemented for '{}'", Log ? "log_softmax" : "softmax",
           scalarTypeName(x.dtype()));
  const int64_t d = maybeWrapDim(dim, x.dim());
  const ScalarType outDt = x.dtype();
  const ScalarType comp = outDt == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  const Tensor xc = (x.dtype() == comp ? x : x.to(comp)).contiguous();
  Tensor y = Tensor::empty(xc.sizes(), comp);
  if (xc.numel() > 0) {
    int64_t outer = 1, inner = 1;
    const int64_t n = xc.dim() == 0 ? 1 : xc.sizes()[d];
    for (int64_t i = 0; i < d; ++i) outer *= xc.sizes()[i];
    for (int64_t i = d + 1; i < xc.dim(); ++i) inner *= xc.sizes()[i];
    dispatchLoopFloating(comp, name, [&](auto tag) {
      using T = decltype(tag);
      softmaxContig<T, Log>(xc.data_ptr<T>(), y.data_ptr<T>(), outer, n, inner);
    });
  }
  return comp == outDt ? y : y.to(outDt);
}
void softmaxK(Stack& s) { Args a(s, 3); Tensor r = softmax<false>(a.tensor(0), a.toInt(1), a.optDtype(2)); a.ret(std::move(r)); }
void logSoftmaxK(Stack& s) { Args a(s, 3); Tensor r = softmax<true>(a.tensor(0), a.toInt(1), a.optDtype(2)); a.ret(std::move(r)); }
void softmaxInternalK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const bool halfToFloat = a.toBool(2);
  Tensor r = softmax<false>(self, a.toInt(1), halfToFloat ? ScalarType::Float : ScalarType::Undefined);
  a.ret(std::move(r));
}
void logSoftmaxInternalK(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const bool halfToFloat = a.toBool(2);
  Tensor r = softmax<true>(self, a.toInt(1), halfToFloat ? ScalarType::Float : ScalarType::Undefined);
  a.ret(std::move(r));
}

}  // namespace

void registerActivationOps(OperatorRegistry& r) {
  r.add("aten::relu(Tensor self) -> Tensor", reluK);
  r.add("aten::relu_(Tensor(a!) self) -> Tensor(a!)", reluK_);
  r.add("aten::relu6(Tensor self) -> Tensor", relu6K);
  r.add("aten::relu6_(Tensor(a!) self) -> Tensor(a!)", relu6K_);
  r.add("aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor", hardtanhK);
  r.add("aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)", hardtanhK_);
  r.add("aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor", leakyReluK);
  r.add("aten::leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)", leakyReluK_);
  r.add("aten::threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor", thresholdK);
  r.add("aten::threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)", thresholdK_);
  r.add("aten::elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor", eluK);
  r.add("aten::elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)", eluK_);
  r.add("aten::selu(Tensor self) -> Tensor", seluK);
  r.add("aten::selu_(Tensor(a!) self) -> Tensor(a!)", seluK_);
  r.add("aten::celu(Tensor self, Scalar alpha=1.) -> Tensor", celuK);
  r.add("aten::sigmoid(Tensor self) -> Tensor", sigmoidK);
  r.add("aten::sigmoid_(Tensor(a!) self) -> Tensor(a!)", sigmoidK_);
  r.add("aten::tanh(Tensor self) -> Tensor", tanhK);
  r.add("aten::tanh_(Tensor(a!) self) -> Tensor(a!)", tanhK_);
  r.add("aten::silu(Tensor self) -> Tensor", siluK);
  r.add("aten::silu_(Tensor(a!) self) -> Tensor(a!)", siluK_);
  r.add("aten::mish(Tensor self) -> Tensor", mishK);
  r.add("aten::mish_(Tensor(a!) self) -> Tensor(a!)", mishK_);
  r.add("aten::gelu(Tensor self, *, str approximate=\"none\") -> Tensor", geluK);
  r.add("aten::gelu_(Tensor(a!) self, *, str approximate=\"none\") -> Tensor(a!)", geluK_);
  r.add("aten::hardswish(Tensor self) -> Tensor", hardswishK);
  r.add("aten::hardswish_(Tensor(a!) self) -> Tensor(a!)", hardswishK_);
  r.add("aten::hardsigmoid(Tensor self) -> Tensor", hardsigmoidK);
  r.add("aten::hardsigmoid_(Tensor(a!) self) -> Tensor(a!)", hardsigmoidK_);
  r.add("aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor", softplusK);
  r.add("aten::log_sigmoid(Tensor self) -> Tensor", logSigmoidK);
  r.add("aten::hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor", hardshrinkK);
  r.add("aten::softshrink(Tensor self, Scalar lambd=0.5) -> Tensor", softshrinkK);
  r.add("aten::prelu(Tensor self, Tensor weight) -> Tensor", preluK);
  r.add("aten::glu(Tensor self, int dim=-1) -> Tensor", gluK);
  r.add("aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", softmaxK);
  r.add("aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", logSoftmaxK);
  r.add("aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", softmaxInternalK);
  r.add("aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", logSoftmaxInternalK);
}

}  // namespace kindling
