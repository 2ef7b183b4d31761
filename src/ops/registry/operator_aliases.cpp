// PyTorch's operator aliases (torch.divide, Tensor.multiply_, torch.arccos, torch.special.expit, x.greater(y),
// torch.clip(x, lo_tensor, hi_tensor), ...): each alias overload is registered with its own 1.13 schema and
// runs the kernel of the operator it aliases (same arguments in the same order, same overload name), as
// ATen's alias kernels call the original operator. The table is the alias map of PyTorch's NormalizeOps
// pass (torch/csrc/jit/passes/normalize_ops.cpp) restricted to the targets Kindling implements.
// The frontend's cleanup then renames these nodes to the operator they alias, as PyTorch's graphs show
// (passes/canonicalize/normalize_ops.h); the alias overloads stay for binding calls and for old code.
#include <utility>

#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

struct Alias {
  const char* schema;  // the alias overload, PyTorch 1.13's schema
  const char* target;  // the operator it runs
};

constexpr Alias kAliases[] = {
    {"aten::arccos(Tensor self) -> Tensor",
     "aten::acos"},
    {"aten::arccos_(Tensor(a!) self) -> Tensor(a!)",
     "aten::acos_"},
    {"aten::arccosh(Tensor self) -> Tensor",
     "aten::acosh"},
    {"aten::arccosh_(Tensor(a!) self) -> Tensor(a!)",
     "aten::acosh_"},
    {"aten::arcsin(Tensor self) -> Tensor",
     "aten::asin"},
    {"aten::arcsin_(Tensor(a!) self) -> Tensor(a!)",
     "aten::asin_"},
    {"aten::arcsinh(Tensor self) -> Tensor",
     "aten::asinh"},
    {"aten::arcsinh_(Tensor(a!) self) -> Tensor(a!)",
     "aten::asinh_"},
    {"aten::arctan(Tensor self) -> Tensor",
     "aten::atan"},
    {"aten::arctan2(Tensor self, Tensor other) -> Tensor",
     "aten::atan2"},
    {"aten::arctan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::atan2_"},
    {"aten::arctan_(Tensor(a!) self) -> Tensor(a!)",
     "aten::atan_"},
    {"aten::arctanh(Tensor self) -> Tensor",
     "aten::atanh"},
    {"aten::arctanh_(Tensor(a!) self) -> Tensor(a!)",
     "aten::atanh_"},
    {"aten::clip.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
     "aten::clamp.Tensor"},
    {"aten::clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
     "aten::clamp_.Tensor"},
    {"aten::divide.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::div.Scalar"},
    {"aten::divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor",
     "aten::div.Scalar_mode"},
    {"aten::divide.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::div.Tensor"},
    {"aten::divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
     "aten::div.Tensor_mode"},
    {"aten::divide.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)",
     "aten::div.out_mode"},
    {"aten::divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::div_.Scalar"},
    {"aten::divide_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)",
     "aten::div_.Scalar_mode"},
    {"aten::divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::div_.Tensor"},
    {"aten::divide_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)",
     "aten::div_.Tensor_mode"},
    {"aten::fix(Tensor self) -> Tensor",
     "aten::trunc"},
    {"aten::fix_(Tensor(a!) self) -> Tensor(a!)",
     "aten::trunc_"},
    {"aten::ger(Tensor self, Tensor vec2) -> Tensor",
     "aten::outer"},
    {"aten::greater.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::gt.Scalar"},
    {"aten::greater.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::gt.Tensor"},
    {"aten::greater_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::gt_.Scalar"},
    {"aten::greater_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::gt_.Tensor"},
    {"aten::greater_equal.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::ge.Scalar"},
    {"aten::greater_equal.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::ge.Tensor"},
    {"aten::greater_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::ge_.Scalar"},
    {"aten::greater_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::ge_.Tensor"},
    {"aten::less.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::lt.Scalar"},
    {"aten::less.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::lt.Tensor"},
    {"aten::less_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::lt_.Scalar"},
    {"aten::less_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::lt_.Tensor"},
    {"aten::less_equal.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::le.Scalar"},
    {"aten::less_equal.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::le.Tensor"},
    {"aten::less_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::le_.Scalar"},
    {"aten::less_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::le_.Tensor"},
    {"aten::linalg_matmul(Tensor self, Tensor other) -> Tensor",
     "aten::matmul"},
    {"aten::moveaxis.int(Tensor(a) self, int source, int destination) -> Tensor(a)",
     "aten::movedim.int"},
    {"aten::moveaxis.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)",
     "aten::movedim.intlist"},
    {"aten::multiply.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::mul.Scalar"},
    {"aten::multiply.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::mul.Tensor"},
    {"aten::multiply_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::mul_.Scalar"},
    {"aten::multiply_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::mul_.Tensor"},
    {"aten::not_equal.Scalar(Tensor self, Scalar other) -> Tensor",
     "aten::ne.Scalar"},
    {"aten::not_equal.Tensor(Tensor self, Tensor other) -> Tensor",
     "aten::ne.Tensor"},
    {"aten::not_equal_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
     "aten::ne_.Scalar"},
    {"aten::not_equal_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
     "aten::ne_.Tensor"},
    {"aten::row_stack(Tensor[] tensors) -> Tensor",
     "aten::vstack"},
    {"aten::special_erf(Tensor self) -> Tensor",
     "aten::erf"},
    {"aten::special_erfc(Tensor self) -> Tensor",
     "aten::erfc"},
    {"aten::special_erfinv(Tensor self) -> Tensor",
     "aten::erfinv"},
    {"aten::special_exp2(Tensor self) -> Tensor",
     "aten::exp2"},
    {"aten::special_expit(Tensor self) -> Tensor",
     "aten::sigmoid"},
    {"aten::special_expm1(Tensor self) -> Tensor",
     "aten::expm1"},
    {"aten::special_gammaln(Tensor self) -> Tensor",
     "aten::lgamma"},
    {"aten::special_log1p(Tensor self) -> Tensor",
     "aten::log1p"},
    {"aten::special_logit(Tensor self, float? eps=None) -> Tensor",
     "aten::logit"},
    {"aten::special_logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
     "aten::logsumexp"},
    {"aten::special_round(Tensor self, *, int decimals=0) -> Tensor",
     "aten::round"},
    {"aten::special_sinc(Tensor self) -> Tensor",
     "aten::sinc"},
    {"aten::subtract.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
     "aten::sub.Scalar"},
    {"aten::subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
     "aten::sub.Tensor"},
    {"aten::subtract_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
     "aten::sub_.Scalar"},
    {"aten::subtract_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
     "aten::sub_.Tensor"},
    {"aten::swapaxes_(Tensor(a!) self, int axis0, int axis1) -> Tensor(a!)",
     "aten::transpose_"},
    {"aten::swapdims_(Tensor(a!) self, int dim0, int dim1) -> Tensor(a!)",
     "aten::transpose_"},};
constexpr size_t kNumAliases = sizeof(kAliases) / sizeof(kAliases[0]);

template <size_t I> void aliasK(Stack& s) {
  static const OpHandle op(kAliases[I].target);
  op.get().fn(s);
}

template <size_t... I> void registerAll(OperatorRegistry& r, std::index_sequence<I...>) {
  (r.add(kAliases[I].schema, aliasK<I>), ...);
}

}  // namespace

void registerOpAliasOps(OperatorRegistry& r) { registerAll(r, std::make_index_sequence<kNumAliases>{}); }

}  // namespace kindling
