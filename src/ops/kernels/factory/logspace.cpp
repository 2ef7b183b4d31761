// torch.logspace: aten::logspace(start, end, steps, base=10., *, dtype, layout, device, pin_memory) and
// aten::logspace.out(start, end, steps, base=10., *, out), as ATen 1.13's logspace_out computes them:
//   start and end converted to the result dtype first (overflow checked, as Scalar::to<T>), then
//   step = double(end - start) / (steps - 1) (the difference taken in that dtype),
//   value i = base ** (start + step * i) for the first half, base ** (end - step * (steps - 1 - i)) after,
//   the power in double (a float base for integral dtypes), converted to the dtype; steps == 1 gives
//   base ** start. The default dtype is float32 whatever the Scalars are. Integral, floating, Half and
//   BFloat16 results; bool and complex raise "not implemented".
// The out= overload resizes `out` to (steps,) only when its numel differs (ATen's resize_), then writes the
// values in out's dtype in its logical order.
#include <cmath>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"

namespace kindling {

namespace {

/// The Scalar converted to T as ATen's Scalar::to<T> (fill_'s checked conversion: overflow raises).
template <class T> T scalarTo(const Scalar& v, ScalarType dt) { return Tensor::full({}, v, dt).data_ptr<T>()[0]; }

/// double -> T as a C++ cast (Half/BFloat16 through float, as c10's conversions).
template <class T> T fromDouble(double x) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return static_cast<T>(x);
  else return T(static_cast<float>(x));
}

/// Fills the contiguous 1-d tensor `r` (numel = steps >= 1) with the logspace values.
void fillLogspace(Tensor& r, const Scalar& start, const Scalar& end, int64_t steps, double base) {
  const ScalarType dt = r.dtype();
  KD_CHECK(dt != ScalarType::Bool && !isComplexType(dt), "\"logspace_cpu\" not implemented for '{}'",
           scalarTypeName(dt));
  dispatchAllTypes(dt, "logspace_cpu", [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      T* p = r.data_ptr<T>();
      if (steps == 1) {
        r.fill_(Scalar(std::pow(base, start.toDouble())));
        return;
      }
      const T s0 = scalarTo<T>(start, dt), e0 = scalarTo<T>(end, dt);
      const int64_t half = steps / 2;
      if constexpr (std::is_integral_v<T>) {
        const float b = static_cast<float>(base);
        const double step = static_cast<double>(e0 - s0) / static_cast<double>(steps - 1);
        for (int64_t i = 0; i < steps; ++i)
          p[i] = static_cast<T>(i < half ? std::pow(b, static_cast<double>(s0) + step * static_cast<double>(i))
                                         : std::pow(b, static_cast<double>(e0) - step * static_cast<double>(steps - i - 1)));
      } else {
        // float arithmetic for Half/BFloat16 differences (they promote to float), T's own otherwise
        using C = std::conditional_t<std::is_same_v<T, double>, double, float>;
        const double step = static_cast<double>(static_cast<C>(e0) - static_cast<C>(s0)) / static_cast<double>(steps - 1);
        const double sd = static_cast<double>(static_cast<C>(s0)), ed = static_cast<double>(static_cast<C>(e0));
        for (int64_t i = 0; i < steps; ++i)
          p[i] = fromDouble<T>(i < half ? std::pow(base, sd + step * static_cast<double>(i))
                                        : std::pow(base, ed - step * static_cast<double>(steps - i - 1)));
      }
    }
  });
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, ScalarType dt) {
  KD_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor r = Tensor::empty({steps}, dt);
  if (steps > 0) fillLogspace(r, start, end, steps, base);
  return r;
}

// logspace(start, end, steps, base, *, dtype, layout, device, pin_memory)
void logspaceK(Stack& s) {
  Args a(s, 8);
  const ScalarType dt = a.optDtype(4);
  if (!a[6].isNone()) {
    const Device d = a[6].isString() ? Device::parse(a[6].toStringRef()) : a[6].toDevice();
    KD_CHECK(d.type == DeviceType::CPU, "Kindling runs on CPU only; cannot create a tensor on device '{}'", d.str());
  }
  Tensor r = logspace(a.scalar(0), a.scalar(1), a.toInt(2), a.toDouble(3),
                      dt == ScalarType::Undefined ? ScalarType::Float : dt);
  a.ret(std::move(r));
}

// logspace.out(start, end, steps, base, *, out)
void logspaceOutK(Stack& s) {
  Args a(s, 5);
  Tensor out = a.tensor(4);
  const int64_t steps = a.toInt(2);
  KD_CHECK(steps >= 0, "number of steps must be non-negative");
  if (out.numel() != steps) resizeOutput(out, {steps});
  if (steps > 0) {
    Tensor r = Tensor::empty({steps}, out.dtype());
    fillLogspace(r, a.scalar(0), a.scalar(1), steps, a.toDouble(3));
    out.copy_(r.view(out.sizes()));
  }
  a.ret(std::move(out));
}

}  // namespace

void registerLogspaceOps(OperatorRegistry& r) {
  r.add("aten::logspace(Scalar start, Scalar end, int steps, float base=10., *, ScalarType? dtype=None, Layout? "
        "layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
        logspaceK);
  r.add("aten::logspace.out(Scalar start, Scalar end, int steps, float base=10., *, Tensor(a!) out) -> Tensor(a!)",
        logspaceOutK);
}

}  // namespace kindling
