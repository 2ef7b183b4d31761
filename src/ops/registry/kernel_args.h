// Helpers for boxed kernels (H3's families): read the schema's arguments from the interpreter stack in
// order, then replace them by the results. Usage:
//   void relu(Stack& s) { Args a(s, 1); Tensor r = ...(a.tensor(0)); a.ret(r); }
// Args does not pop anything until ret(), so arguments stay alive while the kernel runs.
#pragma once
#include <optional>
#include <string>

#include "core/ivalue.h"
#include "core/internal_error.h"
#include "tensor/tensor.h"

namespace kindling {

class Args {
 public:
  Args(Stack& s, size_t n) : s_(s), n_(n), base_(s.size() - n) {
    KD_INTERNAL_ASSERT(s.size() >= n, "kernel argument stack underflow ({} values, the schema has {})", s.size(), n);
  }
  const IValue& operator[](size_t i) const { return s_[base_ + i]; }
  Tensor tensor(size_t i) const { return s_[base_ + i].toTensor(); }
  /// Tensor? : undefined Tensor for None.
  Tensor optTensor(size_t i) const { const IValue& v = s_[base_ + i]; return v.isNone() ? Tensor() : v.toTensor(); }
  int64_t toInt(size_t i) const { return s_[base_ + i].toInt(); }
  double toDouble(size_t i) const {
    const IValue& v = s_[base_ + i];
    return v.isInt() ? static_cast<double>(v.toInt()) : v.toDouble();
  }
  bool toBool(size_t i) const { return s_[base_ + i].toBool(); }
  Scalar scalar(size_t i) const { return s_[base_ + i].toScalar(); }
  std::optional<Scalar> optScalar(size_t i) const {
    const IValue& v = s_[base_ + i];
    if (v.isNone()) return std::nullopt;
    return v.toScalar();
  }
  std::optional<int64_t> optInt(size_t i) const {
    const IValue& v = s_[base_ + i];
    if (v.isNone()) return std::nullopt;
    return v.toInt();
  }
  std::optional<double> optDouble(size_t i) const {
    const IValue& v = s_[base_ + i];
    if (v.isNone()) return std::nullopt;
    return toDouble(i);
  }
  /// ScalarType? (an int at runtime): Undefined for None.
  ScalarType optDtype(size_t i) const {
    const IValue& v = s_[base_ + i];
    return v.isNone() ? ScalarType::Undefined : static_cast<ScalarType>(v.toInt());
  }
  std::optional<std::string> optString(size_t i) const {
    const IValue& v = s_[base_ + i];
    if (v.isNone()) return std::nullopt;
    return v.toStringRef();
  }
  /// int[] / int[N]: an int is broadcast to N entries (schema "int[2] stride=1").
  IntArray intList(size_t i, size_t N = 0) const {
    const IValue& v = s_[base_ + i];
    if (v.isInt()) return IntArray(N ? N : 1, v.toInt());
    return v.toIntVector();
  }
  std::optional<IntArray> optIntList(size_t i) const {
    const IValue& v = s_[base_ + i];
    if (v.isNone()) return std::nullopt;
    return intList(i);
  }
  std::vector<Tensor> tensorList(size_t i) const { return s_[base_ + i].toTensorVector(); }

  /// Replaces the arguments by the results.
  template <class... Ts> void ret(Ts&&... vs) {
    s_.resize(base_);
    (s_.emplace_back(std::forward<Ts>(vs)), ...);
  }
 private:
  Stack& s_;
  size_t n_;
  size_t base_;
};

}  // namespace kindling
