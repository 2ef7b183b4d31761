// TensorIterator: the loop driver behind elementwise kernels (ATen's TensorIterator, reduced to what
// Kindling needs). It takes one output and N inputs (tensors or Python scalars), then
//   1. computes the common dtype by PyTorch's result_type rules (tensor/type_promotion.h),
//   2. broadcasts all shapes (PyTorch's "The size of tensor a ..." error),
//   3. casts inputs whose dtype differs from the compute dtype (a copy; 0-dim and scalar inputs are cheap),
//   4. allocates the output (or checks a given one: in-place / out= — "output with shape [..] doesn't
//      match the broadcast shape [..]", "result type Float can't be cast to the desired output type Long"),
//   5. runs a loop `loop(char** data, const int64_t* strides, int64_t n)` over 1-d runs of elements:
//      data[0] is the output, data[1..N] the inputs, strides in BYTES (0 for a broadcast input). After
//      coalescing, contiguous operands collapse to a single run, so kernels see raw pointers and a length
//      and their loops auto-vectorize. Runs are spread over OpenMP threads above kGrainSize elements.
//
// Per-op cost matters for small tensors (the interpreter runs one op per node): operands, strides and the
// coalesced iteration space live in fixed-size arrays inside the iterator, Python-scalar operands are
// written into an inline buffer instead of a 0-dim tensor, and same-shape inputs skip the broadcast
// computation, so building an iterator allocates nothing but the output.
//
// Half and BFloat16 compute in float (as PyTorch's opmath): inputs are upcast and the result is rounded
// back into the output.
//
// cpuKernel(iter, op) wraps a scalar lambda `R op(A a, B b)` into such a loop (the lambda's parameter
// types must be the compute dtype's C++ type, R the output's) with contiguous and scalar-broadcast fast
// paths.
#pragma once
#include <omp.h>

#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tensor/tensor.h"
#include "tensor/type_promotion.h"

namespace kindling {

/// Elements below which a loop runs on one thread (ATen's GRAIN_SIZE).
constexpr int64_t kGrainSize = 32768;

class TensorIterator {
 public:
  static constexpr int kMaxOperands = 8;
  static constexpr int kMaxDims = 25;  // as ATen

  /// The output: undefined → allocated with the broadcast shape; defined → written (in-place or out=).
  TensorIterator& addOutput(const Tensor& out);
  /// A tensor input. `wrappedNumber` marks a 0-dim tensor standing for a Python scalar.
  TensorIterator& addInput(const Tensor& t, bool wrappedNumber = false);
  /// A Python-scalar input (a wrapped number for type promotion).
  TensorIterator& addInput(const Scalar& s);
  /// An input that takes no part in type promotion and is read in its own dtype (where's condition).
  TensorIterator& addInputNoCast(const Tensor& t);

  /// Cast inputs to the common dtype (default true). When false all inputs must already share a dtype.
  TensorIterator& promoteInputsToCommonDtype(bool v) { promoteInputs_ = v; return *this; }
  /// Integer/bool common dtypes become float32 (true division, sqrt, sigmoid ...). Default false.
  TensorIterator& promoteIntegerInputsToFloat(bool v) { intToFloat_ = v; return *this; }
  /// Fix the compute dtype instead of deriving it from the inputs.
  TensorIterator& computeDtype(ScalarType t) { fixedCompute_ = t; return *this; }
  /// Fix the output dtype (e.g. Bool for comparisons); default: the compute dtype (or the given output's).
  TensorIterator& outputDtype(ScalarType t) { fixedOutput_ = t; return *this; }
  /// Upcast Half/BFloat16 to float for computation (default true).
  TensorIterator& upcastHalf(bool v) { upcastHalf_ = v; return *this; }

  /// Resolves dtypes and shapes; call once after configuration.
  TensorIterator& build();

  /// The dtype of the result before any cast into a given output (result_type of the inputs).
  ScalarType commonDtype() const { return common_; }
  /// The dtype the inputs have in the loop (common dtype, or float for half types).
  ScalarType loopComputeDtype() const { return compute_; }
  /// The dtype of data[0] in the loop.
  ScalarType loopOutputDtype() const { return loopOut_; }
  const IntArray& shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  int ninputs() const { return nin_; }

  /// Runs `loop(char** data, const int64_t* strides, int64_t n)` over all elements (parallel when large),
  /// then writes back into the user's output if a temporary was used.
  template <class Loop> void forEach(Loop&& loop);

  /// The result (the given output for in-place / out= ops).
  const Tensor& output() const { return userOut_.defined() ? userOut_ : loopOutTensor_; }

 private:
  struct Operand {
    Tensor t;
    bool wrapped = false;
    bool isScalar = false;
    bool noCast = false;
    Scalar s;
  };
  void prepareLayout();
  void finish();
  Tensor allocateOutput(ScalarType dt) const;
  static bool isChannelsLast4d(const Tensor& t);
  /// Writes `s` converted to the compute dtype into scalarBuf_[k]; false when it needs the checked
  /// conversion of Tensor::fill_ (out-of-range values, unusual dtypes).
  bool writeScalar(int k, const Scalar& s);
  Operand& pushInput();

  Operand inputs_[kMaxOperands - 1];
  int nin_ = 0;
  Tensor userOut_;
  bool hasOutput_ = false;
  bool promoteInputs_ = true, intToFloat_ = false, upcastHalf_ = true;
  ScalarType fixedCompute_ = ScalarType::Undefined, fixedOutput_ = ScalarType::Undefined;
  ScalarType common_ = ScalarType::Undefined, compute_ = ScalarType::Undefined, loopOut_ = ScalarType::Undefined;
  ScalarType finalDtype_ = ScalarType::Undefined;  // dtype of an allocated output
  IntArray shape_;
  int64_t numel_ = 0;
  Tensor loopOutTensor_;                // what the loop writes (the user's output or a temporary)
  Tensor loopIn_[kMaxOperands - 1];     // tensor inputs as the loop reads them (undefined for scalars)
  alignas(16) unsigned char scalarBuf_[kMaxOperands][16] = {};  // scalar inputs in the compute dtype
  // Coalesced iteration space: ndim_ sizes (innermost last) and byte strides per operand.
  int ndim_ = 0;
  int64_t sizes_[kMaxDims] = {};
  int64_t strides_[kMaxDims][kMaxOperands] = {};  // [dim][operand]
  char* base_[kMaxOperands] = {};       // operand data; null for scalars held in scalarBuf_ (the iterator
                                        // may be moved after build(), so their address is taken in forEach)
};

// ---------------------------------------------------------------------------------------------------
// Implementation of the templates.

template <class Loop>
void TensorIterator::forEach(Loop&& loop) {
  const int nops = 1 + ninputs();
  char* base[kMaxOperands];
  for (int k = 0; k < nops; ++k) base[k] = base_[k] ? base_[k] : reinterpret_cast<char*>(scalarBuf_[k]);
  if (numel_ > 0) {
    const int nd = ndim_;
    if (nd <= 1) {
      const int64_t n = numel_;
      int64_t st[kMaxOperands] = {};
      for (int k = 0; k < nops; ++k) st[k] = nd == 0 ? 0 : strides_[0][k];
      const int nthreads = n >= kGrainSize ? std::min<int64_t>(omp_get_max_threads(), n / (kGrainSize / 2)) : 1;
      if (nthreads <= 1) {
        char* data[kMaxOperands];
        for (int k = 0; k < nops; ++k) data[k] = base[k];
        loop(data, st, n);
      } else {
#pragma omp parallel num_threads(nthreads)
        {
          const int tid = omp_get_thread_num(), nt = omp_get_num_threads();
          const int64_t chunk = (n + nt - 1) / nt;
          const int64_t begin = tid * chunk, end = std::min(n, begin + chunk);
          if (begin < end) {
            char* data[kMaxOperands];
            for (int k = 0; k < nops; ++k) data[k] = base[k] + begin * st[k];
            loop(data, st, end - begin);
          }
        }
      }
    } else {
      // Outer dims 0..nd-2 iterate; innermost dim nd-1 is one run.
      const int64_t inner = sizes_[nd - 1];
      const int64_t outer = numel_ / inner;
      int64_t st[kMaxOperands] = {};
      for (int k = 0; k < nops; ++k) st[k] = strides_[nd - 1][k];
      auto runRange = [&](int64_t begin, int64_t end) {
        // multi-index of `begin` over dims 0..nd-2
        int64_t idx[kMaxDims];
        int64_t rem = begin;
        for (int d = nd - 2; d >= 0; --d) {
          idx[d] = rem % sizes_[d];
          rem /= sizes_[d];
        }
        char* data[kMaxOperands];
        for (int64_t o = begin; o < end; ++o) {
          for (int k = 0; k < nops; ++k) {
            char* p = base[k];
            for (int d = 0; d < nd - 1; ++d) p += idx[d] * strides_[d][k];
            data[k] = p;
          }
          loop(data, st, inner);
          for (int d = nd - 2; d >= 0; --d) {
            if (++idx[d] < sizes_[d]) break;
            idx[d] = 0;
          }
        }
      };
      const int nthreads =
          numel_ >= kGrainSize ? std::min<int64_t>({omp_get_max_threads(), outer, numel_ / (kGrainSize / 2)}) : 1;
      if (nthreads <= 1) {
        runRange(0, outer);
      } else {
#pragma omp parallel num_threads(nthreads)
        {
          const int tid = omp_get_thread_num(), nt = omp_get_num_threads();
          const int64_t chunk = (outer + nt - 1) / nt;
          const int64_t begin = tid * chunk, end = std::min(outer, begin + chunk);
          if (begin < end) runRange(begin, end);
        }
      }
    }
  }
  finish();
}

namespace detail {

template <class T> struct FunctionTraits : FunctionTraits<decltype(&T::operator())> {};
template <class C, class R, class... A> struct FunctionTraits<R (C::*)(A...) const> {
  using result = R;
  using args = std::tuple<std::decay_t<A>...>;
  static constexpr size_t arity = sizeof...(A);
};
template <class C, class R, class... A> struct FunctionTraits<R (C::*)(A...)> : FunctionTraits<R (C::*)(A...) const> {};
template <class R, class... A> struct FunctionTraits<R (*)(A...)> {
  using result = R;
  using args = std::tuple<std::decay_t<A>...>;
  static constexpr size_t arity = sizeof...(A);
};

template <class Traits, class Op, size_t... I>
inline void basicLoop(char** data, const int64_t* strides, int64_t n, const Op& op, std::index_sequence<I...>) {
  using R = typename Traits::result;
  using Args = typename Traits::args;
  R* out = reinterpret_cast<R*>(data[0]);
  const bool contiguous =
      strides[0] == sizeof(R) && ((strides[I + 1] == sizeof(std::tuple_element_t<I, Args>)) && ... && true);
  if (contiguous) {
    std::tuple<const std::tuple_element_t<I, Args>*...> in{
        reinterpret_cast<const std::tuple_element_t<I, Args>*>(data[I + 1])...};
    for (int64_t i = 0; i < n; ++i) out[i] = op(std::get<I>(in)[i]...);
    return;
  }
  if constexpr (sizeof...(I) == 2) {
    using A = std::tuple_element_t<0, Args>;
    using B = std::tuple_element_t<1, Args>;
    if (strides[0] == sizeof(R) && strides[1] == sizeof(A) && strides[2] == 0) {
      const A* a = reinterpret_cast<const A*>(data[1]);
      const B b = *reinterpret_cast<const B*>(data[2]);
      for (int64_t i = 0; i < n; ++i) out[i] = op(a[i], b);
      return;
    }
    if (strides[0] == sizeof(R) && strides[1] == 0 && strides[2] == sizeof(B)) {
      const A a = *reinterpret_cast<const A*>(data[1]);
      const B* b = reinterpret_cast<const B*>(data[2]);
      for (int64_t i = 0; i < n; ++i) out[i] = op(a, b[i]);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<R*>(data[0] + i * strides[0]) =
        op(*reinterpret_cast<const std::tuple_element_t<I, Args>*>(data[I + 1] + i * strides[I + 1])...);
  }
}

}  // namespace detail

/// Runs a scalar lambda elementwise. Its parameter types must equal the C++ type of
/// iter.loopComputeDtype() and its return type that of iter.loopOutputDtype() (checked).
template <class Op>
void cpuKernel(TensorIterator& iter, const Op& op) {
  using Traits = detail::FunctionTraits<Op>;
  static_assert(Traits::arity >= 1 && Traits::arity <= 4, "cpuKernel: 1 to 4 inputs");
  KD_CHECK(static_cast<size_t>(iter.ninputs()) == Traits::arity, "cpuKernel: expected {} inputs, got {}",
           Traits::arity, iter.ninputs());
  KD_CHECK(iter.loopOutputDtype() == scalarTypeOf<typename Traits::result>(),
           "cpuKernel: output dtype mismatch ({} vs kernel {})", scalarTypeName(iter.loopOutputDtype()),
           scalarTypeName(scalarTypeOf<typename Traits::result>()));
  iter.forEach([&op](char** data, const int64_t* strides, int64_t n) {
    detail::basicLoop<Traits>(data, strides, n, op, std::make_index_sequence<Traits::arity>{});
  });
}

/// Dispatches over the dtypes Kindling's arithmetic kernels support in their loops (Half and BFloat16
/// are computed in float by TensorIterator): float, double, int64, int32, int16, int8, uint8, bool.
#define KD_LOOP_CASE(ENUM, CTYPE) case ::kindling::ScalarType::ENUM: return f(CTYPE{});
template <class F>
decltype(auto) dispatchLoopTypes(ScalarType t, const char* opName, F&& f) {
  switch (t) {
    KD_LOOP_CASE(Float, float)
    KD_LOOP_CASE(Double, double)
    KD_LOOP_CASE(Long, int64_t)
    KD_LOOP_CASE(Int, int32_t)
    KD_LOOP_CASE(Short, int16_t)
    KD_LOOP_CASE(Char, int8_t)
    KD_LOOP_CASE(Byte, uint8_t)
    KD_LOOP_CASE(Bool, bool)
    default:
      throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", opName, scalarTypeName(t)));
  }
}
/// As dispatchLoopTypes without bool.
template <class F>
decltype(auto) dispatchLoopTypesNoBool(ScalarType t, const char* opName, F&& f) {
  switch (t) {
    KD_LOOP_CASE(Float, float)
    KD_LOOP_CASE(Double, double)
    KD_LOOP_CASE(Long, int64_t)
    KD_LOOP_CASE(Int, int32_t)
    KD_LOOP_CASE(Short, int16_t)
    KD_LOOP_CASE(Char, int8_t)
    KD_LOOP_CASE(Byte, uint8_t)
    default:
      throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", opName, scalarTypeName(t)));
  }
}
/// float and double loops only.
template <class F>
decltype(auto) dispatchLoopFloating(ScalarType t, const char* opName, F&& f) {
  switch (t) {
    KD_LOOP_CASE(Float, float)
    KD_LOOP_CASE(Double, double)
    default:
      throw RuntimeError(fmt::format("\"{}\" not implemented for '{}'", opName, scalarTypeName(t)));
  }
}
#undef KD_LOOP_CASE

}  // namespace kindling
