// TensorIterator: dtype resolution, broadcasting and the coalesced iteration space (see tensor_iterator.h).
#include "tensor/tensor_iterator.h"

#include <algorithm>

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

TensorIterator& TensorIterator::addInput(const Tensor& t, bool wrappedNumber) {
  KD_CHECK(t.defined(), "TensorIterator: undefined input tensor");
  Operand op;
  op.t = t;
  op.wrapped = wrappedNumber;
  inputs_.push_back(std::move(op));
  return *this;
}

TensorIterator& TensorIterator::addInputNoCast(const Tensor& t) {
  addInput(t, false);
  inputs_.back().noCast = true;
  return *this;
}

TensorIterator& TensorIterator::addInput(const Scalar& s) {
  Operand op;
  op.isScalar = true;
  op.wrapped = true;
  op.s = s;
  inputs_.push_back(std::move(op));
  return *this;
}

TensorIterator& TensorIterator::build() {
  KD_CHECK(inputs_.size() + 1 <= static_cast<size_t>(kMaxOperands), "TensorIterator: too many operands");
  // 1. dtypes
  if (fixedCompute_ != ScalarType::Undefined) {
    common_ = fixedCompute_;
  } else if (promoteInputs_) {
    ResultTypeState st;
    for (const auto& op : inputs_) {
      if (op.noCast) continue;
      if (op.isScalar) st.add(op.s);
      else st.add(op.t, op.wrapped);
    }
    common_ = st.result();
  } else {
    common_ = ScalarType::Undefined;
    for (const auto& op : inputs_) {
      if (op.isScalar || op.noCast) continue;
      if (common_ == ScalarType::Undefined) common_ = op.t.dtype();
      KD_CHECK(op.t.dtype() == common_, "expected all inputs to have the same dtype, but got {} and {}",
               scalarTypeName(common_), scalarTypeName(op.t.dtype()));
    }
    if (common_ == ScalarType::Undefined) {
      ResultTypeState st;
      for (const auto& op : inputs_)
        if (op.isScalar) st.add(op.s);
      common_ = st.result();
    }
  }
  if (intToFloat_ && isIntegralType(common_, /*includeBool=*/true)) common_ = ScalarType::Float;
  compute_ = common_;
  if (upcastHalf_ && (compute_ == ScalarType::Half || compute_ == ScalarType::BFloat16)) compute_ = ScalarType::Float;

  // 2. shape
  {
    std::vector<const IntArray*> shapes;
    IntArray empty;
    for (const auto& op : inputs_) shapes.push_back(op.isScalar ? &empty : &op.t.sizes());
    shape_ = shapes.empty() ? IntArray{} : inferSizeN(shapes);
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

  // 4. inputs in the compute dtype
  loopIn_.clear();
  for (const auto& op : inputs_) {
    if (op.isScalar) loopIn_.push_back(Tensor::full({}, op.s, compute_));
    else if (op.noCast) loopIn_.push_back(op.t);
    else if (op.t.dtype() != compute_) loopIn_.push_back(op.t.to(compute_));
    else loopIn_.push_back(op.t);
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
    for (const auto& op : inputs_) {
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
  // byte strides per operand over the broadcast shape
  std::vector<std::vector<int64_t>> st(nd, std::vector<int64_t>(nops, 0));
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
  for (int i = 0; i < ninputs(); ++i) fill(i + 1, loopIn_[i]);
  // iterate dims in the output's memory order (outermost first): drop size-1 dims, stable-sort the rest by
  // decreasing output stride, then coalesce adjacent dims (outer into inner) when all operands allow it
  std::vector<int> order;
  for (int d = 0; d < nd; ++d)
    if (shape_[d] != 1) order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return st[x][0] > st[y][0]; });
  sizes_.clear();
  strides_.clear();
  for (int d : order) {
    if (!sizes_.empty()) {
      const int64_t innerSize = shape_[d];
      bool ok = true;
      for (int k = 0; k < nops && ok; ++k) ok = strides_.back()[k] == st[d][k] * innerSize;
      if (ok) {
        sizes_.back() *= innerSize;
        strides_.back() = st[d];
        continue;
      }
    }
    sizes_.push_back(shape_[d]);
    strides_.push_back(st[d]);
  }
  KD_CHECK(sizes_.size() <= 16, "TensorIterator: too many dimensions ({})", sizes_.size());
}

void TensorIterator::finish() {
  if (userOut_.defined()) {
    if (!loopOutTensor_.is_same(userOut_)) userOut_.copy_(loopOutTensor_);
  } else if (loopOutTensor_.dtype() != finalDtype_) {
    loopOutTensor_ = loopOutTensor_.to(finalDtype_);
  }
}

}  // namespace kindling
