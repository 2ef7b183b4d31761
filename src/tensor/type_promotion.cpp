// Type promotion and broadcast-shape inference (see type_promotion.h).
#include "tensor/type_promotion.h"

namespace kindling {

namespace {

ScalarType promoteSkipUndefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promoteTypes(a, b);
}

// at::native::combine_categories (complex types are not supported by Kindling's kernels).
ScalarType combineCategories(ScalarType higher, ScalarType lower) {
  if (isComplexType(higher)) return higher;
  if (isComplexType(lower)) return lower;
  if (isFloatingType(higher)) return higher;
  if (higher == ScalarType::Bool || isFloatingType(lower)) return promoteSkipUndefined(higher, lower);
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}

}  // namespace

void ResultTypeState::add(ScalarType current, int64_t dim, bool wrappedNumber) {
  if (wrappedNumber && isFloatingType(current)) current = ScalarType::Float;  // the default dtype
  if (dim > 0) {
    dimResult = promoteSkipUndefined(dimResult, current);
  } else if (wrappedNumber) {
    wrappedResult = promoteSkipUndefined(wrappedResult, current);
  } else {
    zeroResult = promoteSkipUndefined(zeroResult, current);
  }
}

void ResultTypeState::add(const Tensor& t, bool wrappedNumber) {
  if (!t.defined()) return;
  add(t.dtype(), t.dim(), wrappedNumber);
}

void ResultTypeState::add(const Scalar& s) { add(scalarTypeOfScalar(s), 0, true); }

ScalarType ResultTypeState::result() const {
  return combineCategories(dimResult, combineCategories(zeroResult, wrappedResult));
}

ScalarType scalarTypeOfScalar(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Int: return ScalarType::Long;
    case Scalar::Kind::Double: return ScalarType::Double;
    case Scalar::Kind::Bool: return ScalarType::Bool;
  }
  return ScalarType::Long;
}

ScalarType resultType(const Tensor& a, const Tensor& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}

ScalarType resultType(const Tensor& a, const Scalar& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}

bool canCast(ScalarType from, ScalarType to) {
  if (isComplexType(from) && !isComplexType(to)) return false;
  if (isFloatingType(from) && isIntegralType(to, false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

IntArray inferSize(const IntArray& a, const IntArray& b) {
  const size_t na = a.size(), nb = b.size();
  const size_t n = std::max(na, nb);
  IntArray out(n);
  for (ptrdiff_t i = static_cast<ptrdiff_t>(n) - 1; i >= 0; --i) {
    const ptrdiff_t offset = static_cast<ptrdiff_t>(n) - 1 - i;
    const ptrdiff_t dimA = static_cast<ptrdiff_t>(na) - 1 - offset;
    const ptrdiff_t dimB = static_cast<ptrdiff_t>(nb) - 1 - offset;
    const int64_t sa = dimA >= 0 ? a[dimA] : 1;
    const int64_t sb = dimB >= 0 ? b[dimB] : 1;
    KD_CHECK(sa == sb || sa == 1 || sb == 1,
             "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}", sa,
             sb, i);
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

IntArray inferSizeN(const std::vector<const IntArray*>& shapes) {
  IntArray out;
  bool first = true;
  for (const IntArray* s : shapes) {
    if (first) {
      out = *s;
      first = false;
    } else {
      out = inferSize(out, *s);
    }
  }
  return out;
}

int64_t maybeWrapDim(int64_t dim, int64_t ndim, bool wrapScalar) {
  if (ndim <= 0) {
    if (!wrapScalar) {
      throw RuntimeError(fmt::format("dimension specified as {} but tensor has no dimensions", dim),
                         "builtins.IndexError");
    }
    ndim = 1;
  }
  const int64_t lo = -ndim, hi = ndim - 1;
  KD_CHECK_INDEX(dim >= lo && dim <= hi, "Dimension out of range (expected to be in range of [{}, {}], but got {})",
                 lo, hi, dim);
  return dim < 0 ? dim + ndim : dim;
}

}  // namespace kindling
