// In-place (`_` and `__i*__`) overloads whose functional operator Kindling already has, and the shift
// operators `a << b` / `a >> b` compile to:
//   fmod_, __ilshift__/__irshift__ (x <<= n, x >>= n), __ixor__, bitwise_{and,or,xor,left_shift,right_shift}_,
//   atan2_, hypot_, copysign_, heaviside_, nextafter_, gcd_, lcm_, ldexp_, xlogy_, lerp_, addcmul_, addcdiv_,
//   baddbmm_, clamp_min_/clamp_max_ (Tensor), absolute_, negative_, deg2rad_, rad2deg_, erfinv_, frac_,
//   logit_, nan_to_num_, sgn_, sinc_, square_, round_.decimals, tril_, triu_, cumsum_, cumprod_,
//   true_divide_, float_power_; and __lshift__/__rshift__ (.Scalar, .Tensor) = bitwise_left/right_shift.
//
// An in-place overload runs its functional overload (same arguments), then writes the result into self
// with the checks of ATen's in-place TensorIterator: self must not overlap itself (an expanded tensor) nor
// partially overlap a tensor argument; the result's dtype must be castable to self's ("result type Float
// can't be cast to the desired output type Long"); the broadcast shape must be self's ("output with shape
// [2] doesn't match the broadcast shape [3, 2]"). float_power_ requires a double self, as ATen. The result
// is self itself.
#include <string_view>
#include <utility>

#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

struct InplaceOp {
  const char* schema;      // the in-place overload, PyTorch 1.13's schema
  const char* functional;  // the functional overload computing its values
};

constexpr InplaceOp kInplace[] = {
    {"aten::fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::fmod.Scalar"},
    {"aten::fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::fmod.Tensor"},
    {"aten::__ilshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::bitwise_left_shift.Tensor_Scalar"},
    {"aten::__ilshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::bitwise_left_shift.Tensor"},
    {"aten::__irshift__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::bitwise_right_shift.Tensor_Scalar"},
    {"aten::__irshift__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::bitwise_right_shift.Tensor"},
    {"aten::__ixor__.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::bitwise_xor.Scalar"},
    {"aten::__ixor__.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::bitwise_xor.Tensor"},
    {"aten::bitwise_and_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::bitwise_and.Scalar"},
    {"aten::bitwise_or_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::bitwise_or.Scalar"},
    {"aten::bitwise_xor_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::bitwise_xor.Scalar"},
    {"aten::bitwise_xor_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::bitwise_xor.Tensor"},
    {"aten::bitwise_left_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::bitwise_left_shift.Tensor"},
    {"aten::bitwise_left_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::bitwise_left_shift.Tensor_Scalar"},
    {"aten::bitwise_right_shift_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::bitwise_right_shift.Tensor"},
    {"aten::bitwise_right_shift_.Tensor_Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::bitwise_right_shift.Tensor_Scalar"},
    {"aten::atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::atan2"},
    {"aten::hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::hypot"},
    {"aten::copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::copysign.Scalar"},
    {"aten::copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::copysign.Tensor"},
    {"aten::heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)", "aten::heaviside"},
    {"aten::nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::nextafter"},
    {"aten::gcd_(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::gcd"},
    {"aten::lcm_(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::lcm"},
    {"aten::ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::ldexp.Tensor"},
    {"aten::xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::xlogy.Tensor"},
    {"aten::xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::xlogy.Scalar_Other"},
    {"aten::lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)", "aten::lerp.Scalar"},
    {"aten::lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)", "aten::lerp.Tensor"},
    {"aten::addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", "aten::addcmul"},
    {"aten::addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)", "aten::addcdiv"},
    {"aten::baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
     "aten::baddbmm"},
    {"aten::clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)", "aten::clamp_min.Tensor"},
    {"aten::clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)", "aten::clamp_max.Tensor"},
    {"aten::absolute_(Tensor(a!) self) -> Tensor(a!)", "aten::absolute"},
    {"aten::negative_(Tensor(a!) self) -> Tensor(a!)", "aten::negative"},
    {"aten::deg2rad_(Tensor(a!) self) -> Tensor(a!)", "aten::deg2rad"},
    {"aten::rad2deg_(Tensor(a!) self) -> Tensor(a!)", "aten::rad2deg"},
    {"aten::erfinv_(Tensor(a!) self) -> Tensor(a!)", "aten::erfinv"},
    {"aten::frac_(Tensor(a!) self) -> Tensor(a!)", "aten::frac"},
    {"aten::logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)", "aten::logit"},
    {"aten::nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)",
     "aten::nan_to_num"},
    {"aten::sgn_(Tensor(a!) self) -> Tensor(a!)", "aten::sgn"},
    {"aten::sinc_(Tensor(a!) self) -> Tensor(a!)", "aten::sinc"},
    {"aten::square_(Tensor(a!) self) -> Tensor(a!)", "aten::square"},
    {"aten::round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)", "aten::round.decimals"},
    {"aten::tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", "aten::tril"},
    {"aten::triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", "aten::triu"},
    {"aten::cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", "aten::cumsum"},
    {"aten::cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)", "aten::cumprod"},
    {"aten::true_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "aten::true_divide.Scalar"},
    {"aten::true_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", "aten::true_divide.Tensor"},
    {"aten::float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", "aten::float_power.Tensor_Scalar"},
    {"aten::float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", "aten::float_power.Tensor_Tensor"},
};
constexpr size_t kNumInplace = sizeof(kInplace) / sizeof(kInplace[0]);

constexpr bool isFloatPower(const char* functional) { return std::string_view(functional).starts_with("aten::float_power"); }

template <size_t I> void inplaceK(Stack& s) {
  static const OpHandle op(kInplace[I].functional);
  const Operator& f = op.get();
  const size_t n = f.schema.arguments.size();
  const size_t base = s.size() - n;
  Tensor self = s[base].toTensor();
  if constexpr (isFloatPower(kInplace[I].functional)) {
    KD_CHECK(self.dtype() == ScalarType::Double,
             "the base given to float_power_ has dtype {} but the operation's result requires dtype Double",
             scalarTypeName(self.dtype()));
  }
  assertNoInternalOverlap(self);
  for (size_t i = base + 1; i < s.size(); ++i)
    if (s[i].isTensor()) assertNoPartialOverlap(self, s[i].toTensor());
  f.fn(s);  // the arguments replaced by the functional result
  const Tensor r = s.back().toTensor();
  KD_CHECK(canCast(r.dtype(), self.dtype()), "result type {} can't be cast to the desired output type {}",
           scalarTypeName(r.dtype()), scalarTypeName(self.dtype()));
  KD_CHECK(r.sizes() == self.sizes(), "output with shape {} doesn't match the broadcast shape {}", self.sizesStr(),
           r.sizesStr());
  self.copy_(r);
  s.back() = IValue(std::move(self));
}

template <size_t... I> void registerAll(OperatorRegistry& r, std::index_sequence<I...>) {
  (r.add(kInplace[I].schema, inplaceK<I>), ...);
}

/// a << b, a >> b on tensors: PyTorch's __lshift__/__rshift__ run the shift kernels of bitwise_*_shift.
template <const char* Name> void sameAs(Stack& s) {
  static const OpHandle op(Name);
  op.get().fn(s);
}
constexpr char kLeftTensor[] = "aten::bitwise_left_shift.Tensor";
constexpr char kLeftScalar[] = "aten::bitwise_left_shift.Tensor_Scalar";
constexpr char kRightTensor[] = "aten::bitwise_right_shift.Tensor";
constexpr char kRightScalar[] = "aten::bitwise_right_shift.Tensor_Scalar";

}  // namespace

void registerInplaceVariantOps(OperatorRegistry& r) {
  registerAll(r, std::make_index_sequence<kNumInplace>{});
  r.add("aten::__lshift__.Scalar(Tensor self, Scalar other) -> Tensor", sameAs<kLeftScalar>);
  r.add("aten::__lshift__.Tensor(Tensor self, Tensor other) -> Tensor", sameAs<kLeftTensor>);
  r.add("aten::__rshift__.Scalar(Tensor self, Scalar other) -> Tensor", sameAs<kRightScalar>);
  r.add("aten::__rshift__.Tensor(Tensor self, Tensor other) -> Tensor", sameAs<kRightTensor>);
}

}  // namespace kindling
