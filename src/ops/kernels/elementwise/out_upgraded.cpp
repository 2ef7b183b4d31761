// The out= overloads that PyTorch 1.13's operator upgraders call (and that `torch.div(a, b, out=y)`,
// `torch.full(size, v, out=y)`, `torch.linspace(..., out=y)` compile to): div.out, div.out_mode,
// div.Scalar_out, div.Scalar_mode_out, full.out, linspace.out, gelu.out. (logspace.out: logspace.cpp.)
// Each computes the functional result, then follows its ATen out kernel:
//   div.out, div.out_mode (TensorIterator binary op): out must not overlap itself or partially overlap an
//     input; the result dtype must be castable to out's ("result type Float can't be cast to the desired
//     output type Long"); out is resized to the broadcast shape (resize_output), values converted to its dtype.
//   div.Scalar_out, div.Scalar_mode_out (generated out kernels in 1.13): the functional result resized into
//     and copied to out, no overlap or cast checks (true division of ints into a long out truncates).
//   gelu (structured unary op): out's dtype must be the input's ("Found dtype Double but expected Float").
//   full: out resized to `size` (resize_), then filled (the value checked against out's dtype).
//   linspace: out resized to (steps,) only when its numel differs, values computed in out's dtype and
//     written in its logical order; one step writes `start` itself.
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"
#include "ops/kernels/common/out_variant.h"
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

void checkBinaryOut(const Tensor& out, const Tensor& self, const Tensor& other) {
  assertNoInternalOverlap(out);
  assertNoPartialOverlap(out, self);
  assertNoPartialOverlap(out, other);
}

void writeCastOut(const Tensor& out, const Tensor& result) {
  KD_CHECK(canCast(result.dtype(), out.dtype()), "result type {} can't be cast to the desired output type {}",
           scalarTypeName(result.dtype()), scalarTypeName(out.dtype()));
  writeOut(out, result);
}

// div.out(Tensor self, Tensor other, *, Tensor(a!) out)
void divOut(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(2);
  checkBinaryOut(out, self, other);
  static const OpHandle div("aten::div.Tensor");
  writeCastOut(out, div(self, other));
  a.ret(out);
}

// div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out)
void divOutMode(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0), other = a.tensor(1), out = a.tensor(3);
  checkBinaryOut(out, self, other);
  static const OpHandle div("aten::div.Tensor_mode");
  writeCastOut(out, div(self, other, IValue(a[2])));
  a.ret(out);
}

// div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out)
void divScalarOut(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), out = a.tensor(2);
  static const OpHandle div("aten::div.Scalar");
  writeOut(out, div(self, IValue(a[1])));
  a.ret(out);
}

// div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out)
void divScalarModeOut(Stack& s) {
  Args a(s, 4);
  const Tensor self = a.tensor(0), out = a.tensor(3);
  static const OpHandle div("aten::div.Scalar_mode");
  writeOut(out, div(self, IValue(a[1]), IValue(a[2])));
  a.ret(out);
}

// gelu.out(Tensor self, *, str approximate="none", Tensor(a!) out)
void geluOut(Stack& s) {
  Args a(s, 3);
  const Tensor self = a.tensor(0), out = a.tensor(2);
  assertNoInternalOverlap(out);
  assertNoPartialOverlap(out, self);
  KD_CHECK(out.dtype() == self.dtype(), "Found dtype {} but expected {}", scalarTypeName(out.dtype()),
           scalarTypeName(self.dtype()));
  static const OpHandle gelu("aten::gelu");
  writeOut(out, gelu(self, IValue(a[1])));
  a.ret(out);
}

// full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out)
void fullOut(Stack& s) {
  Args a(s, 3);
  const IntArray size = a.intList(0);
  Tensor out = a.tensor(2);
  for (int64_t d : size) {
    if (d < 0) {
      std::string l = "[";
      for (size_t i = 0; i < size.size(); ++i) l += (i ? ", " : "") + std::to_string(size[i]);
      throw RuntimeError(fmt::format("Trying to create tensor with negative dimension {}: {}]", d, l));
    }
  }
  resizeOutput(out, size);
  out.fill_(a.scalar(1));
  a.ret(std::move(out));
}

// linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out)
void linspaceOut(Stack& s) {
  Args a(s, 4);
  Tensor out = a.tensor(3);
  const int64_t steps = a.toInt(2);
  KD_CHECK(steps >= 0, "number of steps must be non-negative");
  if (out.numel() != steps) resizeOutput(out, {steps});
  if (steps == 1) {
    out.fill_(a.scalar(0));
  } else if (steps > 1) {
    static const OpHandle linspace("aten::linspace");
    const Tensor r = linspace(IValue(a[0]), IValue(a[1]), steps, static_cast<int64_t>(out.dtype()), IValue(),
                              IValue(), IValue());
    out.copy_(r.view(out.sizes()));
  }
  a.ret(std::move(out));
}

}  // namespace

void registerOutUpgradedOps(OperatorRegistry& r) {
  r.add("aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", divOut);
  r.add("aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)",
        divOutMode);
  r.add("aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", divScalarOut);
  r.add("aten::div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)",
        divScalarModeOut);
  r.add("aten::gelu.out(Tensor self, *, str approximate=\"none\", Tensor(a!) out) -> Tensor(a!)", geluOut);
  r.add("aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)", fullOut);
  r.add("aten::linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)", linspaceOut);
}

}  // namespace kindling
