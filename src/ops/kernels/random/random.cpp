// Random tensors from one process-wide CPU generator that reproduces PyTorch 1.13's default CPU
// generator: MT19937 seeded like torch.manual_seed (default seed 67280421310721, as a fresh PyTorch
// process), 32-bit draws for float / 64-bit (two 32-bit words, first one high) for double, and ATen's
// transformations:
//   rand / uniform_      (x & (2^digits - 1)) * 2^-digits, scaled in double          (bit-exact)
//   randint / random_    draw % range + low (64-bit draw when range >= 2^32)          (bit-exact)
//   randperm             Fisher-Yates with draw % (n - i)                             (bit-exact)
//   randn / normal_      < 16 elements: Box-Muller on two doubles with the cached second sample;
//                        >= 16: uniform fill then Box-Muller on 16-element blocks (the last block
//                        recomputed), as normal_fill (values equal up to libm rounding: PyTorch's
//                        AVX2 path uses SLEEF's float log/cos)
//   exponential_         -1 / lambda * log(1 - u) of a double uniform u per element (ATen without MKL)
//   bernoulli(p_tensor)  float (double for a double p) uniform < p per element         (bit-exact)
//   bernoulli(p float)   double uniform < p per element (ATen without MKL)            (bit-exact)
//   dropout family       bernoulli_(1 - p) noise as ATen's _dropout_impl              (bit-exact)
// Explicit Generator arguments are not supported (only None).
#include <algorithm>
#include <cmath>
#include <mutex>
#include <random>
#include <type_traits>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // c10::default_rng_seed_val

struct CpuGenerator {
  std::mutex mu;
  std::mt19937 engine{static_cast<uint32_t>(kDefaultSeed)};
  bool hasNormal = false;
  double nextNormal = 0;
  uint32_t random() { return engine(); }
  uint64_t random64() {
    const uint64_t hi = engine();
    const uint64_t lo = engine();
    return (hi << 32) | lo;
  }
  void seed(uint64_t s) {
    engine.seed(static_cast<uint32_t>(s));
    hasNormal = false;
  }
};

CpuGenerator& gen() {
  static CpuGenerator* g = new CpuGenerator();
  return *g;
}

void checkGenerator(const IValue& v) {
  KD_CHECK(v.isNone(), "Kindling supports only the default generator (generator=None)");
}

template <class T>
T uniformReal(CpuGenerator& g, double from, double to) {
  if constexpr (std::is_same_v<T, double>) {
    const uint64_t v = g.random64() & ((uint64_t(1) << 53) - 1);
    const double x = static_cast<double>(v) * (1.0 / static_cast<double>(uint64_t(1) << 53));
    return x * (to - from) + from;
  } else {
    const uint32_t v = g.random() & ((uint32_t(1) << 24) - 1);
    const double x = static_cast<double>(v) * (1.0 / static_cast<double>(uint32_t(1) << 24));
    return static_cast<T>(x * (to - from) + from);
  }
}

double normalDouble(CpuGenerator& g, double mean, double std) {
  if (g.hasNormal) {
    g.hasNormal = false;
    return g.nextNormal * std + mean;
  }
  const double u1 = uniformReal<double>(g, 0, 1), u2 = uniformReal<double>(g, 0, 1);
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * M_PI * u1;
  g.hasNormal = true;
  g.nextNormal = r * std::sin(theta);
  return r * std::cos(theta) * std + mean;
}

// Fills `t` (any layout) element by element in the order ATen's cpu_serial_kernel visits it: memory order,
// the dims taken from the largest stride to the smallest (TensorIterator's order; equal strides keep the
// outer dim outside), so a transposed tensor gets the draws of its contiguous storage.
template <class T, class F>
void fillSerial(Tensor& t, F draw) {
  if (t.is_contiguous()) {
    T* p = t.data_ptr<T>();
    for (int64_t i = 0; i < t.numel(); ++i) p[i] = draw();
    return;
  }
  IntArray order, multi;  // dims of size 1 visit nothing: first; the others by decreasing stride
  for (size_t d = 0; d < t.sizes().size(); ++d) (t.sizes()[d] == 1 ? order : multi).push_back(static_cast<int64_t>(d));
  std::stable_sort(multi.begin(), multi.end(), [&](int64_t a, int64_t b) { return t.strides()[a] > t.strides()[b]; });
  order.insert(order.end(), multi.begin(), multi.end());
  Tensor visited = t.permute(order);
  Tensor c = Tensor::empty(visited.sizes(), t.dtype());
  T* p = c.data_ptr<T>();
  for (int64_t i = 0; i < c.numel(); ++i) p[i] = draw();
  visited.copy_(c);
}

void uniformFill(Tensor& t, double from, double to) {
  KD_CHECK(isFloatingType(t.dtype()), "\"check_uniform_bounds\" not implemented for '{}'", scalarTypeName(t.dtype()));
  KD_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from={} > to={}", from, to);
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  dispatchLoopFloating(t.dtype(), "uniform_", [&](auto tag) {
    using T = decltype(tag);
    fillSerial<T>(t, [&]() { return uniformReal<T>(g, from, to); });
  });
}

template <class T>
void normalFill16(T* d, T mean, T std) {
  for (int j = 0; j < 8; ++j) {
    const T u1 = 1 - d[j];
    const T u2 = d[j + 8];
    const T radius = std::sqrt(-2 * std::log(u1));
    const T theta = static_cast<T>(2.0 * M_PI) * u2;
    d[j] = radius * std::cos(theta) * std + mean;
    d[j + 8] = radius * std::sin(theta) * std + mean;
  }
}

void normalFill(Tensor& t, double mean, double std) {
  KD_CHECK(isFloatingType(t.dtype()), "\"normal_kernel_cpu\" not implemented for '{}'", scalarTypeName(t.dtype()));
  KD_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std {}", std);
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  dispatchLoopFloating(t.dtype(), "normal_", [&](auto tag) {
    using T = decltype(tag);
    const int64_t n = t.numel();
    if (n >= 16 && t.is_contiguous()) {
      T* d = t.data_ptr<T>();
      for (int64_t i = 0; i < n; ++i) d[i] = uniformReal<T>(g, 0, 1);
      for (int64_t i = 0; i + 16 <= n; i += 16) normalFill16<T>(d + i, static_cast<T>(mean), static_cast<T>(std));
      if (n % 16 != 0) {
        T* last = d + n - 16;
        for (int i = 0; i < 16; ++i) last[i] = uniformReal<T>(g, 0, 1);
        normalFill16<T>(last, static_cast<T>(mean), static_cast<T>(std));
      }
      return;
    }
    fillSerial<T>(t, [&]() { return static_cast<T>(normalDouble(g, mean, std)); });
  });
}

void randomFromTo(Tensor& t, int64_t low, int64_t high) {
  KD_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from={} >= to={}", low, high);
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  dispatchLoopTypes(t.dtype(), "random_from_to", [&](auto tag) {
    using T = decltype(tag);
    const bool wide = range >= (uint64_t(1) << 32) &&
                      (std::is_same_v<T, int64_t> || std::is_same_v<T, double> || std::is_same_v<T, float>);
    fillSerial<T>(t, [&]() {
      const uint64_t v = wide ? g.random64() : static_cast<uint64_t>(g.random());
      return static_cast<T>(static_cast<int64_t>(v % range) + low);
    });
  });
}

ScalarType dtypeOr(ScalarType t, ScalarType d) { return t == ScalarType::Undefined ? d : t; }

void checkCpu(const IValue& dev) {
  if (dev.isNone()) return;
  const Device d = dev.isString() ? Device::parse(dev.toStringRef()) : dev.toDevice();
  KD_CHECK(d.type == DeviceType::CPU, "Kindling runs on CPU only; cannot create a tensor on device '{}'", d.str());
}

IntArray checkedSize(const IntArray& s) {
  for (int64_t v : s) KD_CHECK(v >= 0, "Trying to create tensor with negative dimension {}", v);
  return s;
}

// rand(size, *, dtype, layout, device, pin_memory) and the .generator overload (generator first)
template <bool Normal, bool WithGen>
void randK(Stack& s) {
  Args a(s, WithGen ? 6 : 5);
  const size_t o = WithGen ? 1 : 0;
  if (WithGen) checkGenerator(a[1]);
  checkCpu(a[3 + o]);
  Tensor t = Tensor::empty(checkedSize(a.intList(0)), dtypeOr(a.optDtype(1 + o), ScalarType::Float));
  if (Normal) normalFill(t, 0.0, 1.0);
  else uniformFill(t, 0.0, 1.0);
  a.ret(std::move(t));
}

template <bool Normal>
void randLikeK(Stack& s) {
  Args a(s, 6);
  const Tensor self = a.tensor(0);
  checkCpu(a[3]);
  Tensor t = Tensor::empty(self.sizes(), dtypeOr(a.optDtype(1), self.dtype()));
  if (Normal) normalFill(t, 0.0, 1.0);
  else uniformFill(t, 0.0, 1.0);
  a.ret(std::move(t));
}

// randint(high, size, ...) / randint.low(low, high, size, ...) and their .generator overloads
template <bool Low, bool WithGen>
void randintK(Stack& s) {
  constexpr size_t base = Low ? 3 : 2;
  Args a(s, base + (WithGen ? 5 : 4));
  const int64_t low = Low ? a.toInt(0) : 0, high = a.toInt(Low ? 1 : 0);
  const size_t o = base + (WithGen ? 1 : 0);
  if (WithGen) checkGenerator(a[base]);
  checkCpu(a[o + 2]);
  Tensor t = Tensor::empty(checkedSize(a.intList(base - 1)), dtypeOr(a.optDtype(o), ScalarType::Long));
  randomFromTo(t, low, high);
  a.ret(std::move(t));
}

template <bool Low>
void randintLikeK(Stack& s) {
  Args a(s, Low ? 8 : 7);
  const Tensor self = a.tensor(0);
  const int64_t low = Low ? a.toInt(1) : 0, high = a.toInt(Low ? 2 : 1);
  const size_t o = Low ? 3 : 2;
  checkCpu(a[o + 2]);
  Tensor t = Tensor::empty(self.sizes(), dtypeOr(a.optDtype(o), self.dtype()));
  randomFromTo(t, low, high);
  a.ret(std::move(t));
}

template <bool WithGen>
void randpermK(Stack& s) {
  Args a(s, WithGen ? 6 : 5);
  const int64_t n = a.toInt(0);
  const size_t o = WithGen ? 2 : 1;
  if (WithGen) checkGenerator(a[1]);
  KD_CHECK(n >= 0, "n must be non-negative, got{}", n);
  Tensor t = Tensor::empty({n}, dtypeOr(a.optDtype(o), ScalarType::Long));
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  dispatchLoopTypesNoBool(t.dtype(), "randperm", [&](auto tag) {
    using T = decltype(tag);
    T* d = t.data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<T>(i);
    for (int64_t i = 0; i + 1 < n; ++i) {
      const int64_t z = static_cast<int64_t>(g.random() % static_cast<uint64_t>(n - i));
      std::swap(d[i], d[z + i]);
    }
  });
  a.ret(std::move(t));
}

void uniformInplaceK(Stack& s) {
  Args a(s, 4);
  Tensor self = a.tensor(0);
  checkGenerator(a[3]);
  uniformFill(self, a.toDouble(1), a.toDouble(2));
  a.ret(std::move(self));
}

void exponentialInplaceK(Stack& s) {
  Args a(s, 3);
  Tensor self = a.tensor(0);
  const double lambda = a.toDouble(1);
  checkGenerator(a[2]);
  KD_CHECK(isFloatingType(self.dtype()), "\"exponential_cpu\" not implemented for '{}'", scalarTypeName(self.dtype()));
  KD_CHECK(lambda > 0.0, "exponential_ expects lambda > 0.0, but found lambda={}", lambda);
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  dispatchLoopFloating(self.dtype(), "exponential_", [&](auto tag) {
    using T = decltype(tag);
    fillSerial<T>(self, [&]() { return static_cast<T>(-1.0 / lambda * std::log(1.0 - uniformReal<double>(g, 0, 1))); });
  });
  a.ret(std::move(self));
}

void normalInplaceK(Stack& s) {
  Args a(s, 4);
  Tensor self = a.tensor(0);
  checkGenerator(a[3]);
  normalFill(self, a.toDouble(1), a.toDouble(2));
  a.ret(std::move(self));
}

void normalFloatFloatK(Stack& s) {
  Args a(s, 8);
  checkGenerator(a[3]);
  checkCpu(a[6]);
  Tensor t = Tensor::empty(checkedSize(a.intList(2)), dtypeOr(a.optDtype(4), ScalarType::Float));
  normalFill(t, a.toDouble(0), a.toDouble(1));
  a.ret(std::move(t));
}

// normal(mean, std) with tensor arguments, as ATen: a standard (or std-scaled) normal draw of the output's
// shape, then scaled by the std tensor and shifted by the mean (broadcast).
Tensor normalFromTensors(const Tensor& mean, const Tensor& stdT, double meanS, double stdS) {
  IntArray shape = mean.defined() && stdT.defined() ? inferSize(mean.sizes(), stdT.sizes())
                                                    : (mean.defined() ? mean.sizes() : stdT.sizes());
  ScalarType dt = mean.defined() && stdT.defined() ? promoteTypes(mean.dtype(), stdT.dtype())
                                                   : (mean.defined() ? mean.dtype() : stdT.dtype());
  KD_CHECK(isFloatingType(dt), "\"normal_kernel_cpu\" not implemented for '{}'", scalarTypeName(dt));
  if (stdT.defined()) {
    const Tensor sd = stdT.to(ScalarType::Double).contiguous();
    for (int64_t i = 0; i < sd.numel(); ++i)
      KD_CHECK(sd.data_ptr<double>()[i] >= 0.0, "normal expects all elements of std >= 0.0");
  } else {
    KD_CHECK(stdS >= 0.0, "normal expects std >= 0.0, but found std {}", stdS);
  }
  Tensor out = Tensor::empty(shape, dt);
  normalFill(out, 0.0, stdT.defined() ? 1.0 : stdS);
  const Tensor m = mean.defined() ? mean.to(ScalarType::Double).expand(shape).contiguous() : Tensor();
  const Tensor sd = stdT.defined() ? stdT.to(ScalarType::Double).expand(shape).contiguous() : Tensor();
  dispatchLoopFloating(dt, "normal", [&](auto tag) {
    using T = decltype(tag);
    T* o = out.data_ptr<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      double v = static_cast<double>(o[i]);
      if (sd.defined()) v *= sd.data_ptr<double>()[i];
      v += m.defined() ? m.data_ptr<double>()[i] : meanS;
      o[i] = static_cast<T>(v);
    }
  });
  return out;
}
void normalTensorFloatK(Stack& s) {
  Args a(s, 3);
  checkGenerator(a[2]);
  a.ret(normalFromTensors(a.tensor(0), Tensor(), 0.0, a.toDouble(1)));
}
void normalFloatTensorK(Stack& s) {
  Args a(s, 3);
  checkGenerator(a[2]);
  a.ret(normalFromTensors(Tensor(), a.tensor(1), a.toDouble(0), 1.0));
}
void normalTensorTensorK(Stack& s) {
  Args a(s, 3);
  checkGenerator(a[2]);
  a.ret(normalFromTensors(a.tensor(0), a.tensor(1), 0.0, 1.0));
}

void randomToK(Stack& s) {
  Args a(s, 3);
  Tensor self = a.tensor(0);
  checkGenerator(a[2]);
  randomFromTo(self, 0, a.toInt(1));
  a.ret(std::move(self));
}

void randomFromK(Stack& s) {
  Args a(s, 4);
  Tensor self = a.tensor(0);
  checkGenerator(a[3]);
  const auto to = a.optInt(2);
  KD_CHECK(to.has_value(), "random_ with to=None is not supported by Kindling");
  randomFromTo(self, a.toInt(1), *to);
  a.ret(std::move(self));
}

// bernoulli_(p): each element of t is 1 with probability p (ATen's bernoulli_distribution<double>).
void bernoulliFill(Tensor& t, double p) {
  KD_CHECK(p >= 0 && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p={}", p);
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  dispatchLoopTypes(t.dtype(), "bernoulli", [&](auto tag) {
    using T = decltype(tag);
    fillSerial<T>(t, [&]() { return static_cast<T>(uniformReal<double>(g, 0, 1) < p); });
  });
}

void bernoulliPK(Stack& s, bool inplace) {
  Args a(s, 3);
  const Tensor self = a.tensor(0);
  const double p = a.toDouble(1);
  checkGenerator(a[2]);
  Tensor out = inplace ? self : Tensor::empty(self.sizes(), self.dtype());
  bernoulliFill(out, p);
  a.ret(std::move(out));
}
void bernoulliPFuncK(Stack& s) { bernoulliPK(s, false); }
void bernoulliPInplaceK(Stack& s) { bernoulliPK(s, true); }

// bernoulli(self): each element is 1 with probability self[i]
void bernoulliSelfK(Stack& s) {
  Args a(s, 2);
  const Tensor self = a.tensor(0);
  checkGenerator(a[1]);
  KD_CHECK(isFloatingType(self.dtype()), "\"bernoulli_tensor_cpu_self_\" not implemented for '{}'", scalarTypeName(self.dtype()));
  const Tensor p = self.to(ScalarType::Double).contiguous();
  Tensor out = Tensor::empty(self.sizes(), self.dtype());
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  const double* P = p.data_ptr<double>();
  dispatchLoopFloating(out.dtype(), "bernoulli", [&](auto tag) {
    using T = decltype(tag);
    T* O = out.data_ptr<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      KD_CHECK(P[i] >= 0 && P[i] <= 1, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.");
      // ATen's bernoulli_tensor_cpu_kernel draws bernoulli_distribution<double> for double probabilities
      // (a 53-bit uniform), bernoulli_distribution<float> (a 24-bit uniform) for the other dtypes
      if constexpr (std::is_same_v<T, double>) O[i] = static_cast<T>(uniformReal<double>(g, 0, 1) < P[i]);
      else O[i] = static_cast<T>(uniformReal<float>(g, 0, 1) < static_cast<float>(P[i]));
    }
  });
  a.ret(std::move(out));
}

// The dropout family (aten::dropout, feature_dropout, alpha_dropout, feature_alpha_dropout and their in-place
// forms) as ATen's _dropout_impl on CPU: in eval mode, with p == 0 or an empty input, the input itself; p == 1
// multiplies by a zero scalar (NaN stays NaN); otherwise noise = bernoulli_(1 - p) in the input's dtype, of
// the input's shape (feature dropout: (N, C, 1, ...), one draw per channel), then noise / (1 - p) multiplied
// in; alpha dropout keeps SELU's self-normalization: input * (noise * a) + ((noise - 1) * alpha * a + alpha *
// a * p). The noise draws are those of bernoulli_(float), so masks equal PyTorch's after torch.manual_seed.
template <bool Feature, bool Alpha, bool Inplace>
void dropoutK(Stack& s) {
  Args a(s, 3);
  Tensor input = a.tensor(0);
  const double p = a.toDouble(1);
  const bool train = a.toBool(2);
  KD_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got {}", p);
  if (p == 0 || !train || input.numel() == 0) {
    a.ret(std::move(input));
    return;
  }
  static const OpHandle mul("aten::mul.Tensor"), mulInplace("aten::mul_.Tensor");
  static const OpHandle mulScalarInplace("aten::mul_.Scalar"), divScalarInplace("aten::div_.Scalar");
  static const OpHandle addScalar("aten::add.Scalar"), addScalarInplace("aten::add_.Scalar");
  static const OpHandle addInplace("aten::add_.Tensor");
  auto multiply = [&](const Tensor& x, const Tensor& y) { return Inplace ? mulInplace(x, y) : mul(x, y); };
  if (p == 1) {
    a.ret(multiply(input, Tensor::zeros({}, input.dtype())));
    return;
  }
  IntArray shape = input.sizes();
  if (Feature) {
    KD_CHECK(input.dim() >= 2, "Feature dropout requires at least 2 dimensions in the input");
    for (size_t d = 2; d < shape.size(); ++d) shape[d] = 1;
  }
  Tensor noise = Tensor::empty(shape, input.dtype());
  bernoulliFill(noise, 1 - p);
  if (!Alpha) {
    divScalarInplace(noise, 1 - p);
    a.ret(multiply(input, noise));
    return;
  }
  constexpr double alpha = 1.7580993408473766;
  const double sa = 1. / std::sqrt((alpha * alpha * p + 1) * (1 - p));
  Tensor b = addScalar(noise, int64_t(-1), int64_t(1));
  mulScalarInplace(b, alpha * sa);
  addScalarInplace(b, alpha * sa * p, int64_t(1));
  mulScalarInplace(noise, sa);
  a.ret(addInplace(multiply(input, noise), b, int64_t(1)));
}

void manualSeedK(Stack& s) {
  Args a(s, 1);
  CpuGenerator& g = gen();
  std::lock_guard<std::mutex> lock(g.mu);
  g.seed(static_cast<uint64_t>(a.toInt(0)));
  a.ret();
}

}  // namespace

void registerRandomOps(OperatorRegistry& r) {
  r.add("aten::manual_seed(int seed) -> ()", manualSeedK);
  r.add("aten::rand(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randK<false, false>);
  r.add("aten::rand.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randK<false, true>);
  r.add("aten::randn(int[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randK<true, false>);
  r.add("aten::randn.generator(int[] size, *, Generator? generator, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randK<true, true>);
  r.add("aten::rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", randLikeK<false>);
  r.add("aten::randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", randLikeK<true>);
  r.add("aten::randint(int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randintK<false, false>);
  r.add("aten::randint.generator(int high, int[] size, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randintK<false, true>);
  r.add("aten::randint.low(int low, int high, int[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randintK<true, false>);
  r.add("aten::randint.low_generator(int low, int high, int[] size, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randintK<true, true>);
  r.add("aten::randint_like(Tensor self, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", randintLikeK<false>);
  r.add("aten::randint_like.low_dtype(Tensor self, int low, int high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor", randintLikeK<true>);
  r.add("aten::randperm(int n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randpermK<false>);
  r.add("aten::randperm.generator(int n, *, Generator? generator, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", randpermK<true>);
  r.add("aten::uniform_(Tensor(a!) self, float from=0., float to=1., *, Generator? generator=None) -> Tensor(a!)", uniformInplaceK);
  r.add("aten::normal_(Tensor(a!) self, float mean=0., float std=1., *, Generator? generator=None) -> Tensor(a!)", normalInplaceK);
  r.add("aten::exponential_(Tensor(a!) self, float lambd=1., *, Generator? generator=None) -> Tensor(a!)", exponentialInplaceK);
  r.add("aten::normal.float_float(float mean, float std, int[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor", normalFloatFloatK);
  r.add("aten::normal.Tensor_float(Tensor mean, float std=1., *, Generator? generator=None) -> Tensor", normalTensorFloatK);
  r.add("aten::normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor", normalFloatTensorK);
  r.add("aten::normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor", normalTensorTensorK);
  r.add("aten::random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)", randomToK);
  r.add("aten::random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)", randomFromK);
  r.add("aten::bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", bernoulliSelfK);
  r.add("aten::bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", bernoulliPFuncK);
  r.add("aten::bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)", bernoulliPInplaceK);
  r.add("aten::dropout(Tensor input, float p, bool train) -> Tensor", dropoutK<false, false, false>);
  r.add("aten::dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropoutK<false, false, true>);
  r.add("aten::feature_dropout(Tensor input, float p, bool train) -> Tensor", dropoutK<true, false, false>);
  r.add("aten::feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropoutK<true, false, true>);
  r.add("aten::alpha_dropout(Tensor input, float p, bool train) -> Tensor", dropoutK<false, true, false>);
  r.add("aten::alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropoutK<false, true, true>);
  r.add("aten::feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor", dropoutK<true, true, false>);
  r.add("aten::feature_alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)", dropoutK<true, true, true>);
}

}  // namespace kindling
