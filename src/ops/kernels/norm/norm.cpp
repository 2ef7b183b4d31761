// Normalization kernels: batch_norm (inference with running stats, and training mode with batch statistics
// and the running-stat update PyTorch does), _batch_norm_impl_index, native_batch_norm, layer_norm,
// native_layer_norm, group_norm, instance_norm. Direct loops over contiguous rows (NCHW) or channel vectors (channels_last);
// arithmetic as ATen's batch_norm_cpu_inference: y = x * (w * invstd) + (b - mean * w * invstd).
// rms_norm (PyTorch 2.4+): y = x * rsqrt(mean(x^2 over the normalized dims) + eps) * weight, computed in
// float for Half/BFloat16 inputs, eps defaulting to the machine epsilon of that computation type.
#include <cmath>
#include <limits>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/simd/layer_norm_row.h"
#include "ops/kernels/simd/vec_kernels.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

bool isChannelsLast4d(const Tensor& t) {
  if (t.dim() != 4 || t.is_contiguous()) return false;
  const IntArray& s = t.sizes();
  const IntArray want{s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
  for (int d = 0; d < 4; ++d)
    if (s[d] != 1 && t.strides()[d] != want[d]) return false;
  return true;
}

std::vector<double> toDoubles(const Tensor& t, int64_t n, double dflt) {
  std::vector<double> v(n, dflt);
  if (!t.defined()) return v;
  const Tensor c = t.to(ScalarType::Double).contiguous();
  const double* p = c.data_ptr<double>();
  for (int64_t i = 0; i < n; ++i) v[i] = p[i];
  return v;
}

/// y[n, c, i] = x[n, c, i] * scale[c] + shift[c] over a contiguous or channels-last input.
template <class T>
Tensor applyChannelAffine(const Tensor& x0, const std::vector<double>& scale, const std::vector<double>& shift) {
  const bool cl = isChannelsLast4d(x0);
  const Tensor x = cl || x0.is_contiguous() ? x0 : x0.contiguous();
  Tensor y = cl ? Tensor::emptyStrided(x.sizes(), x.strides(), x.dtype()) : Tensor::empty(x.sizes(), x.dtype());
  const int64_t N = x.sizes()[0], C = x.sizes()[1];
  const int64_t inner = C == 0 || N == 0 ? 0 : x.numel() / (N * C);
  const T* X = x.data_ptr<T>();
  T* Y = y.data_ptr<T>();
  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  std::vector<Acc> a(C), b(C);
  for (int64_t c = 0; c < C; ++c) {
    a[c] = static_cast<Acc>(scale[c]);
    b[c] = static_cast<Acc>(shift[c]);
  }
  if (!cl) {
#pragma omp parallel for collapse(2) if (x.numel() > kGrainSize)
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        const T* xi = X + (n * C + c) * inner;
        T* yi = Y + (n * C + c) * inner;
        const Acc ac = a[c], bc = b[c];
        for (int64_t i = 0; i < inner; ++i) yi[i] = static_cast<T>(static_cast<Acc>(xi[i]) * ac + bc);
      }
  } else {
    const int64_t positions = N * inner;
#pragma omp parallel for if (x.numel() > kGrainSize)
    for (int64_t p = 0; p < positions; ++p) {
      const T* xi = X + p * C;
      T* yi = Y + p * C;
      for (int64_t c = 0; c < C; ++c) yi[c] = static_cast<T>(static_cast<Acc>(xi[c]) * a[c] + b[c]);
    }
  }
  return y;
}

/// Per-channel mean and biased variance over all dims but 1.
void channelStats(const Tensor& x, std::vector<double>& mean, std::vector<double>& var) {
  const Tensor xd = x.to(ScalarType::Double).contiguous();
  const int64_t N = x.sizes()[0], C = x.sizes()[1];
  const int64_t inner = x.numel() / std::max<int64_t>(1, N * C);
  const double* X = xd.data_ptr<double>();
  mean.assign(C, 0.0);
  var.assign(C, 0.0);
  const double cnt = static_cast<double>(N * inner);
  for (int64_t c = 0; c < C; ++c) {
    double s = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < inner; ++i) s += X[(n * C + c) * inner + i];
    const double m = s / cnt;
    double v = 0;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t i = 0; i < inner; ++i) {
        const double d = X[(n * C + c) * inner + i] - m;
        v += d * d;
      }
    mean[c] = m;
    var[c] = v / cnt;
  }
}

void writeDoubles(Tensor& t, const std::vector<double>& v) {
  Tensor src = Tensor::fromVector<double>(v, ScalarType::Double);
  t.copy_(src.view(t.sizes()));
}

struct BatchNormResult {
  Tensor out;
  std::vector<double> saveMean, saveInvstd;
};

BatchNormResult batchNorm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& runningMean,
                          const Tensor& runningVar, bool training, double momentum, double eps) {
  KD_CHECK(input.dim() >= 2, "batch_norm: expected input with at least 2 dimensions, but got {}", input.sizesStr());
  const int64_t C = input.sizes()[1];
  auto checkLen = [&](const Tensor& t, const char* name) {
    if (t.defined()) KD_CHECK(t.numel() == C, "{} should contain {} elements not {}", name, C, t.numel());
  };
  checkLen(weight, "weight");
  checkLen(bias, "bias");
  checkLen(runningMean, "running_mean");
  checkLen(runningVar, "running_var");
  KD_CHECK(isFloatingType(input.dtype()), "\"batch_norm\" not implemented for '{}'", scalarTypeName(input.dtype()));
  BatchNormResult r;
  std::vector<double> mean, var;
  if (training) {
    int64_t count = input.numel() / std::max<int64_t>(C, 1);
    KD_CHECK(count > 1 || input.numel() == 0,
             "Expected more than 1 value per channel when training, got input size {}", input.sizesStr());
    channelStats(input, mean, var);
    if (runningMean.defined() && runningVar.defined()) {
      std::vector<double> rm = toDoubles(runningMean, C, 0), rv = toDoubles(runningVar, C, 1);
      for (int64_t c = 0; c < C; ++c) {
        rm[c] = momentum * mean[c] + (1 - momentum) * rm[c];
        rv[c] = momentum * var[c] * count / std::max<double>(count - 1, 1) + (1 - momentum) * rv[c];
      }
      Tensor m = runningMean, v = runningVar;
      writeDoubles(m, rm);
      writeDoubles(v, rv);
    }
  } else {
    KD_CHECK(runningMean.defined() && runningVar.defined(),
             "running_mean and running_var must be defined in evaluation mode");
    mean = toDoubles(runningMean, C, 0);
    var = toDoubles(runningVar, C, 1);
  }
  const std::vector<double> w = toDoubles(weight, C, 1.0), b = toDoubles(bias, C, 0.0);
  std::vector<double> scale(C), shift(C);
  r.saveMean = mean;
  r.saveInvstd.resize(C);
  for (int64_t c = 0; c < C; ++c) {
    // ATen computes invstd in the input's precision for float; do it in float too for identical rounding.
    double invstd;
    if (input.dtype() == ScalarType::Double) invstd = 1.0 / std::sqrt(var[c] + eps);
    else invstd = 1.0f / std::sqrt(static_cast<float>(var[c]) + static_cast<float>(eps));
    r.saveInvstd[c] = invstd;
    scale[c] = w[c] * invstd;
    shift[c] = b[c] - mean[c] * scale[c];
  }
  if (input.numel() == 0) {
    r.out = Tensor::empty(input.sizes(), input.dtype());
    return r;
  }
  if (input.dtype() == ScalarType::Double) {
    r.out = applyChannelAffine<double>(input, scale, shift);
  } else if (input.dtype() == ScalarType::Float) {
    r.out = applyChannelAffine<float>(input, scale, shift);
  } else {
    r.out = applyChannelAffine<float>(input.to(ScalarType::Float), scale, shift).to(input.dtype());
  }
  return r;
}

void batchNormOp(Stack& s) {
  Args a(s, 9);
  if (a.tensor(0).numel() == 0) {
    // ATen's _batch_norm_impl_index returns a copy of a 0-element input (times weight[0], plus bias[0]: the
    // only check it makes) before any shape or running-stat check.
    for (int i : {1, 2}) {
      const Tensor t = a.optTensor(i);
      if (t.defined())
        KD_CHECK(t.dim() > 0 && t.sizes()[0] > 0, "index 0 is out of bounds for dimension 0 with size {}",
                 t.dim() > 0 ? t.sizes()[0] : 0);
    }
    a.ret(a.tensor(0).clone());
    return;
  }
  BatchNormResult r = batchNorm(a.tensor(0), a.optTensor(1), a.optTensor(2), a.optTensor(3), a.optTensor(4),
                                a.toBool(5), a.toDouble(6), a.toDouble(7));
  a.ret(std::move(r.out));
}

Tensor statTensor(const std::vector<double>& v, ScalarType dt) {
  return Tensor::fromVector<double>(v, ScalarType::Double).to(dt == ScalarType::Double ? dt : ScalarType::Float);
}

void batchNormImplIndexOp(Stack& s) {
  Args a(s, 9);
  const bool training = a.toBool(5);
  const Tensor in = a.tensor(0);
  BatchNormResult r = batchNorm(in, a.optTensor(1), a.optTensor(2), a.optTensor(3), a.optTensor(4), training,
                                a.toDouble(6), a.toDouble(7));
  // ATen's native path (impl index 0): (output, save_mean, save_invstd, reserve, 0); in eval mode the saved
  // stats are empty tensors.
  Tensor sm = training ? statTensor(r.saveMean, in.dtype()) : Tensor::empty({0}, in.dtype());
  Tensor si = training ? statTensor(r.saveInvstd, in.dtype()) : Tensor::empty({0}, in.dtype());
  a.ret(std::move(r.out), std::move(sm), std::move(si), Tensor::empty({0}, ScalarType::Byte), int64_t(0));
}

void nativeBatchNormOp(Stack& s) {
  Args a(s, 8);
  const bool training = a.toBool(5);
  const Tensor in = a.tensor(0);
  BatchNormResult r = batchNorm(in, a.optTensor(1), a.optTensor(2), a.optTensor(3), a.optTensor(4), training,
                                a.toDouble(6), a.toDouble(7));
  Tensor sm = training ? statTensor(r.saveMean, in.dtype()) : Tensor::empty({0}, in.dtype());
  Tensor si = training ? statTensor(r.saveInvstd, in.dtype()) : Tensor::empty({0}, in.dtype());
  a.ret(std::move(r.out), std::move(sm), std::move(si));
}

// ---------------------------------------------------------------- layer_norm / group_norm

/// Normalizes rows of length M of a contiguous tensor: y = (x - mean) * rstd * w[j] + b[j] (w/b indexed by
/// the position in the row when perElementAffine, else none applied here).
template <class T>
void normalizeRows(const T* X, T* Y, int64_t rows, int64_t M, double eps, const T* w, const T* b, double* meanOut,
                   double* rstdOut) {
#pragma omp parallel for if (rows * M > kGrainSize)
  for (int64_t r = 0; r < rows; ++r) {
    const T* x = X + r * M;
    T* y = Y + r * M;
    // vectorized (ops/simd), every step in double as before: mean, sum of squared deviations, output
    double s;
    if constexpr (std::is_same_v<T, float>) s = simd::sumWide(x, M);
    else s = simd::sum(x, M);
    const double mean = s / static_cast<double>(M);
    const double v = simd::sumSquaredDiff(x, M, mean);
    const double rstd = 1.0 / std::sqrt(v / static_cast<double>(M) + eps);
    if (meanOut) meanOut[r] = mean;
    if (rstdOut) rstdOut[r] = rstd;
    simd::affineRow(x, y, M, mean, rstd, w, b);
  }
}

std::tuple<Tensor, Tensor, Tensor> layerNorm(const Tensor& input, const IntArray& shape, const Tensor& weight,
                                             const Tensor& bias, double eps) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  KD_CHECK(nd >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []");
  if (weight.defined())
    KD_CHECK(weight.sizes() == shape, "Expected weight to be of same shape as normalized_shape, but got weight of shape {} and normalized_shape = {}",
             weight.sizesStr(), Tensor::empty(shape).sizesStr());
  if (bias.defined())
    KD_CHECK(bias.sizes() == shape, "Expected bias to be of same shape as normalized_shape, but got bias of shape {} and normalized_shape = {}",
             bias.sizesStr(), Tensor::empty(shape).sizesStr());
  bool ok = input.dim() >= nd;
  for (int64_t i = 0; ok && i < nd; ++i) ok = input.sizes()[input.dim() - nd + i] == shape[i];
  KD_CHECK(ok, "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
           Tensor::empty(shape).sizesStr(), Tensor::empty(shape).sizesStr().substr(1, Tensor::empty(shape).sizesStr().size() - 2),
           input.sizesStr());
  int64_t M = 1;
  for (int64_t v : shape) M *= v;
  const int64_t rows = M == 0 ? 0 : input.numel() / M;
  Tensor out = Tensor::empty(input.sizes(), input.dtype());
  IntArray statShape(input.sizes().begin(), input.sizes().end() - nd);
  for (int64_t i = 0; i < nd; ++i) statShape.push_back(1);
  const ScalarType st = input.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor m = Tensor::empty({rows}, st), r = Tensor::empty({rows}, st);
  dispatchLoopFloating(st, "layer_norm", [&](auto tag) {
    using T = decltype(tag);
    const Tensor x = input.to(scalarTypeOf<T>()).contiguous();
    const Tensor w = weight.defined() ? weight.to(scalarTypeOf<T>()).contiguous() : Tensor();
    const Tensor b = bias.defined() ? bias.to(scalarTypeOf<T>()).contiguous() : Tensor();
    Tensor y = out.dtype() == scalarTypeOf<T>() ? out : Tensor::empty(input.sizes(), scalarTypeOf<T>());
    const T* X = x.data_ptr<T>();
    T* Y = y.data_ptr<T>();
    const T* W = w.defined() ? w.data_ptr<T>() : nullptr;
    const T* B = b.defined() ? b.data_ptr<T>() : nullptr;
    T* Mean = m.data_ptr<T>();
    T* Rstd = r.data_ptr<T>();
    // PyTorch's own float arithmetic per row (ops/kernels/simd/layer_norm_row.h), eps rounded to T as ATen does
    const T e = static_cast<T>(eps);
#pragma omp parallel for if (rows * M > kGrainSize)
    for (int64_t i = 0; i < rows; ++i) simd::layerNormRow(X + i * M, Y + i * M, M, e, W, B, Mean + i, Rstd + i);
    if (!y.is_same(out)) out.copy_(y);
  });
  return {out, m.reshape(statShape), r.reshape(statShape)};
}

void layerNormOp(Stack& s) {
  Args a(s, 6);
  auto [o, m, r] = layerNorm(a.tensor(0), a.intList(1), a.optTensor(2), a.optTensor(3), a.toDouble(4));
  a.ret(std::move(o));
}

void nativeLayerNormOp(Stack& s) {
  Args a(s, 5);
  auto [o, m, r] = layerNorm(a.tensor(0), a.intList(1), a.optTensor(2), a.optTensor(3), a.toDouble(4));
  a.ret(std::move(o), std::move(m), std::move(r));
}

void groupNormOp(Stack& s) {
  Args a(s, 6);
  const Tensor input = a.tensor(0);
  const int64_t G = a.toInt(1);
  const Tensor weight = a.optTensor(2), bias = a.optTensor(3);
  const double eps = a.toDouble(4);
  KD_CHECK(input.dim() >= 2, "Expected at least 2 dimensions for input tensor but received {}", input.dim());
  const int64_t N = input.sizes()[0], C = input.sizes()[1];
  KD_CHECK(G > 0 && C % G == 0, "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and num_groups={}",
           input.sizesStr(), G);
  const int64_t HxW = C == 0 || N == 0 ? 0 : input.numel() / (N * C);
  const ScalarType st = input.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor out = Tensor::empty(input.sizes(), st);
  dispatchLoopFloating(st, "group_norm", [&](auto tag) {
    using T = decltype(tag);
    const Tensor x = input.to(st).contiguous();
    normalizeRows<T>(x.data_ptr<T>(), out.data_ptr<T>(), N * G, (C / G) * HxW, eps, nullptr, nullptr, nullptr, nullptr);
    const std::vector<double> w = toDoubles(weight, C, 1.0), b = toDoubles(bias, C, 0.0);
    T* Y = out.data_ptr<T>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        T* y = Y + (n * C + c) * HxW;
        for (int64_t i = 0; i < HxW; ++i) y[i] = static_cast<T>(y[i] * w[c] + b[c]);
      }
  });
  a.ret(out.dtype() == input.dtype() ? out : out.to(input.dtype()));
}


// instance_norm: per-(n, c) statistics when use_input_stats, else batch_norm with the running stats.
void instanceNormOp(Stack& s) {
  Args a(s, 9);
  const Tensor input = a.tensor(0), weight = a.optTensor(1), bias = a.optTensor(2);
  const bool useInputStats = a.toBool(5);
  const double eps = a.toDouble(7);
  if (!useInputStats) {
    BatchNormResult r = batchNorm(input, weight, bias, a.optTensor(3), a.optTensor(4), false, a.toDouble(6), eps);
    a.ret(std::move(r.out));
    return;
  }
  KD_CHECK(input.dim() >= 2, "instance_norm: expected input with at least 2 dimensions, but got {}", input.sizesStr());
  const int64_t N = input.sizes()[0], C = input.sizes()[1];
  const int64_t HxW = C == 0 || N == 0 ? 0 : input.numel() / (N * C);
  KD_CHECK(HxW > 1 || input.numel() == 0, "Expected more than 1 spatial element when training, got input size {}", input.sizesStr());
  const ScalarType st = input.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor out = Tensor::empty(input.sizes(), st);
  dispatchLoopFloating(st, "instance_norm", [&](auto tag) {
    using T = decltype(tag);
    const Tensor x = input.to(st).contiguous();
    normalizeRows<T>(x.data_ptr<T>(), out.data_ptr<T>(), N * C, HxW, eps, nullptr, nullptr, nullptr, nullptr);
    const std::vector<double> w = toDoubles(weight, C, 1.0), b = toDoubles(bias, C, 0.0);
    T* Y = out.data_ptr<T>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        T* y = Y + (n * C + c) * HxW;
        for (int64_t i = 0; i < HxW; ++i) y[i] = static_cast<T>(y[i] * w[c] + b[c]);
      }
  });
  a.ret(out.dtype() == input.dtype() ? out : out.to(input.dtype()));
}

}  // namespace

namespace {

void rmsNormOp(Stack& s) {
  static const OpHandle kPow("aten::pow.Tensor_Scalar"), kMean("aten::mean.dim"), kAddScalar("aten::add.Scalar"),
      kRsqrt("aten::rsqrt"), kMul("aten::mul.Tensor");
  IValue epsArg = pop(s);
  IValue weightArg = pop(s);
  std::vector<int64_t> shape = pop(s).toIntVector();
  Tensor x = pop(s).toTensor();
  KD_CHECK(isFloatingType(x.dtype()), "rms_norm: expected a floating point input, got {}", scalarTypeName(x.dtype()));
  const int64_t n = static_cast<int64_t>(shape.size());
  bool fits = n >= 1 && n <= x.dim();
  for (int64_t i = 0; fits && i < n; ++i) fits = x.size(x.dim() - n + i) == shape[static_cast<size_t>(i)];
  std::string shapeStr;
  for (int64_t d : shape) shapeStr += (shapeStr.empty() ? "" : ", ") + std::to_string(d);
  KD_CHECK(fits, "Given normalized_shape=[{}], expected input with shape [*, {}], but got input of size{}", shapeStr, shapeStr,
           x.sizesStr());
  const bool reduced = x.dtype() == ScalarType::Half || x.dtype() == ScalarType::BFloat16;
  const ScalarType compute = reduced ? ScalarType::Float : x.dtype();
  const double eps = !epsArg.isNone() ? epsArg.toDouble()
                     : compute == ScalarType::Double ? std::numeric_limits<double>::epsilon()
                                                     : static_cast<double>(std::numeric_limits<float>::epsilon());
  Tensor xc = x.to(compute);
  std::vector<int64_t> dims;
  for (int64_t i = x.dim() - n; i < x.dim(); ++i) dims.push_back(i);
  Tensor ms = kMean(kPow(xc, Scalar(int64_t(2))), makeIntList(dims), true, IValue());
  Tensor y = kMul(xc, kRsqrt(kAddScalar(ms, Scalar(eps), Scalar(int64_t(1)))));
  if (!weightArg.isNone()) y = kMul(y, weightArg.toTensor());
  s.emplace_back(y.to(x.dtype()));
}

}  // namespace

void registerNormOps(OperatorRegistry& r) {
  r.add("aten::rms_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None) -> Tensor", rmsNormOp);
  r.add("aten::batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor", batchNormOp);
  r.add("aten::_batch_norm_impl_index(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> (Tensor, Tensor, Tensor, Tensor, int)", batchNormImplIndexOp);
  r.add("aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)", nativeBatchNormOp);
  r.add("aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor", layerNormOp);
  r.add("aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)", nativeLayerNormOp);
  r.add("aten::instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor", instanceNormOp);
  r.add("aten::group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor", groupNormOp);
}

}  // namespace kindling
