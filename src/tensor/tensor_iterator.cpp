// TensorIterator: dtype resolution, broadcasting and the coalesced iteration space (see tensor_iterator.h).
#include "tensor/tensor_iterator.h"

#include "tensor/half.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace kindling {

namespace {
std::string shapeStr(const IntArray& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) r += ", ";
    r += std::to_string(s[i]);
  }
  return r + "]";
}
}  // namespace

TensorIterator& TensorIterator::addOutput(const Tensor& out) {
  userOut_ = out;
  hasOutput_ = true;
  return *this;
}

TensorIterator::Operand& TensorIterator::pushInput() {
  KD_CHECK(nin_ + 1 < kMaxOperands, "TensorIterator: too many operands");
  return inputs_[nin_++];
}

TensorIterator& TensorIterator::addInput(const Tensor& t, bool wrappedNumber) {
  KD_CHECK(t.defined(), "TensorIterator: undefined input tensor");
  Operand& op = pushInput();
  op.t = t;
  op.wrapped = wrappedNumber;
  return *this;
}

TensorIterator& TensorIterator::addInputNoCast(const Tensor& t) {
  addInput(t, false);
  inputs_[nin_ - 1].noCast = true;
  return *this;
}

TensorIterator& TensorIterator::addInput(const Scalar& s) {
  Operand& op = pushInput();
  op.isScalar = true;
  op.wrapped = true;
  op.s = s;
  return *this;
}

namespace {
/// `v` rounded to Half or BFloat16 (through float, as c10's conversions), as a double.
double roundToReduced(ScalarType dt, double v) {
  return dt == ScalarType::Half ? static_cast<float>(Half(v)) : static_cast<float>(BFloat16(v));
}
}  // namespace

bool TensorIterator::writeScalar(int k, const Scalar& s) {
  void* dst = scalarBuf_[k];
  switch (compute_) {
    case ScalarType::Double: {
      const double v = s.toDouble();
      std::memcpy(dst, &v, sizeof v);
      return true;
    }
    case ScalarType::Float: {
      const double v = s.toDouble();
      if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max())) return false;
      const float f = static_cast<float>(v);
      std::memcpy(dst, &f, sizeof f);
      return true;
    }
    case ScalarType::Long: {
      if (!s.isIntegral()) return false;
      const int64_t v = s.toLong();
      std::memcpy(dst, &v, sizeof v);
      return true;
    }
    default:
      return false;
  }
}

TensorIterator& TensorIterator::build() {
  // 1. dtypes
  if (fixedCompute_ != ScalarType::Undefined) {
    common_ = fixedCompute_;
  } else if (promoteInputs_) {
    ResultTypeState st;
    for (int i = 0; i < nin_; ++i) {
      const Operand& op = inputs_[i];
      if (op.noCast) continue;
      if (op.isScalar) st.add(op.s);
      else st.add(op.t, op.wrapped);
    }
    common_ = st.result();
  } else {
    common_ = ScalarType::Undefined;
    for (int i = 0; i < nin_; ++i) {
      const Operand& op = inputs_[i];
      if (op.isScalar || op.noCast) continue;
      if (common_ == ScalarType::Undefined) common_ = op.t.dtype();
      KD_CHECK(op.t.dtype() == common_, "expected all inputs to have the same dtype, but got {} and {}",
               scalarTypeName(common_), scalarTypeName(op.t.dtype()));
    }
    if (common_ == ScalarType::Undefined) {
      ResultTypeState st;
      for (int i = 0; i < nin_; ++i)
        if (inputs_[i].isScalar) st.add(inputs_[i].s);
      common_ = st.result();
    }
  }
  if (intToFloat_ && isIntegralType(common_, /*includeBool=*/true)) common_ = ScalarType::Float;
  compute_ = common_;
  if (upcastHalf_ && (compute_ == ScalarType::Half || compute_ == ScalarType::BFloat16)) compute_ = ScalarType::Float;

  // 2. shape
  {
    // Python scalars are 0-dim: they never change the broadcast shape. Equal shapes need no broadcasting.
    const IntArray* first = nullptr;
    bool same = true;
    for (int i = 0; i < nin_; ++i) {
      if (inputs_[i].isScalar) continue;
      const IntArray& sz = inputs_[i].t.sizes();
      if (!first) first = &sz;
      else if (sz != *first) same = false;
    }
    if (!first) {
      shape_.clear();
    } else if (same) {
      shape_ = *first;
    } else {
      std::vector<const IntArray*> shapes;
      for (int i = 0; i < nin_; ++i)
        if (!inputs_[i].isScalar) shapes.push_back(&inputs_[i].t.sizes());
      shape_ = inferSizeN(shapes);
    }
  }
  numel_ = 1;
  for (int64_t s : shape_) numel_ *= s;

  // 3. output
  const ScalarType resultDtype = fixedOutput_ != ScalarType::Undefined ? fixedOutput_ : common_;
  loopOut_ = fixedOutput_ != ScalarType::Undefined ? fixedOutput_ : compute_;
  if (upcastHalf_ && (loopOut_ == ScalarType::Half || loopOut_ == ScalarType::BFloat16)) loopOut_ = ScalarType::Float;
  if (userOut_.defined()) {
    KD_CHECK(userOut_.sizes() == shape_, "output with shape {} doesn't match the broadcast shape {}",
             shapeStr(userOut_.sizes()), shapeStr(shape_));
    KD_CHECK(canCast(resultDtype, userOut_.dtype()), "result type {} can't be cast to the desired output type {}",
             scalarTypeName(resultDtype), scalarTypeName(userOut_.dtype()));
    loopOutTensor_ = userOut_.dtype() == loopOut_ ? userOut_ : allocateOutput(loopOut_);
  } else {
    loopOutTensor_ = allocateOutput(loopOut_);
  }
  finalDtype_ = resultDtype;

  // 4. inputs in the compute dtype. When Half/BFloat16 is computed in float, other inputs (Python scalars,
  // 0-dim tensors of other dtypes) are first rounded to the common dtype, as ATen casts every input to the
  // common dtype: half * 1e5 is inf, half == 0.1 compares with 0.1 rounded to half.
  const bool reduced = (common_ == ScalarType::Half || common_ == ScalarType::BFloat16) && compute_ != common_;
  for (int i = 0; i < nin_; ++i) {
    const Operand& op = inputs_[i];
    if (op.isScalar) {
      const Scalar s = reduced ? Scalar(roundToReduced(common_, op.s.toDouble())) : op.s;
      loopIn_[i] = writeScalar(i + 1, s) ? Tensor() : Tensor::full({}, s, compute_);
    } else if (op.noCast) {
      loopIn_[i] = op.t;
    } else if (reduced && op.t.dtype() != common_) {
      loopIn_[i] = op.t.to(common_).to(compute_);
    } else if (op.t.dtype() != compute_) {
      loopIn_[i] = op.t.to(compute_);
    } else {
      loopIn_[i] = op.t;
    }
  }
  prepareLayout();
  return *this;
}

bool TensorIterator::isChannelsLast4d(const Tensor& t) {
  if (t.dim() != 4 || t.is_contiguous()) return false;
  const IntArray& s = t.sizes();
  const IntArray want{s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
  for (int d = 0; d < 4; ++d)
    if (s[d] != 1 && t.strides()[d] != want[d]) return false;
  return true;
}

Tensor TensorIterator::allocateOutput(ScalarType dt) const {
  // PyTorch keeps a channels_last input's layout for elementwise results.
  if (shape_.size() == 4) {
    for (int i = 0; i < nin_; ++i) {
      const Operand& op = inputs_[i];
      if (op.isScalar || op.t.sizes() != shape_) continue;
      if (isChannelsLast4d(op.t)) {
        const IntArray& s = shape_;
        return Tensor::emptyStrided(s, {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]}, dt);
      }
      break;
    }
  }
  return Tensor::empty(shape_, dt);
}

void TensorIterator::prepareLayout() {
  const int nops = 1 + ninputs();
  const int nd = static_cast<int>(shape_.size());
  KD_CHECK(nd <= kMaxDims, "TensorIterator: too many dimensions ({})", nd);
  // byte strides per operand over the broadcast shape (0 for broadcast dims and scalar operands)
  int64_t st[kMaxDims][kMaxOperands];
  for (int d = 0; d < nd; ++d)
    for (int k = 0; k < nops; ++k) st[d][k] = 0;
  auto fill = [&](int k, const Tensor& t) {
    const int td = static_cast<int>(t.dim());
    const int64_t es = static_cast<int64_t>(t.element_size());
    for (int d = 0; d < td; ++d) {
      const int od = nd - td + d;
      st[od][k] = t.sizes()[d] == 1 ? 0 : t.strides()[d] * es;
    }
    base_[k] = static_cast<char*>(t.data_ptr());
  };
  fill(0, loopOutTensor_);
  for (int i = 0; i < ninputs(); ++i) {
    if (loopIn_[i].defined()) fill(i + 1, loopIn_[i]);
    else base_[i + 1] = nullptr;  // scalarBuf_[i + 1], addressed in forEach
  }
  // iterate dims in the output's memory order (outermost first): drop size-1 dims, stable-sort the rest by
  // decreasing output stride (insertion sort: at most kMaxDims dims), then coalesce adjacent dims (outer
  // into inner) when all operands allow it
  int order[kMaxDims];
  int no = 0;
  for (int d = 0; d < nd; ++d) {
    if (shape_[d] == 1) continue;
    int j = no++;
    while (j > 0 && st[order[j - 1]][0] < st[d][0]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = d;
  }
  ndim_ = 0;
  for (int oi = 0; oi < no; ++oi) {
    const int d = order[oi];
    if (ndim_ > 0) {
      const int64_t innerSize = shape_[d];
      bool ok = true;
      for (int k = 0; k < nops && ok; ++k) ok = strides_[ndim_ - 1][k] == st[d][k] * innerSize;
      if (ok) {
        sizes_[ndim_ - 1] *= innerSize;
        for (int k = 0; k < nops; ++k) strides_[ndim_ - 1][k] = st[d][k];
        continue;
      }
    }
    sizes_[ndim_] = shape_[d];
    for (int k = 0; k < nops; ++k) strides_[ndim_][k] = st[d][k];
    ++ndim_;
  }
}

void TensorIterator::finish() {
  if (userOut_.defined()) {
    if (!loopOutTensor_.is_same(userOut_)) userOut_.copy_(loopOutTensor_);
  } else if (loopOutTensor_.dtype() != finalDtype_) {
    loopOutTensor_ = loopOutTensor_.to(finalDtype_);
  }
}

}  // namespace kindling
