// libtorch's inference names on top of Kindling's API, so that a typical program written against
// <torch/script.h> compiles with only its include changed:
//
//   #include <kindling/torch_compat.h>   // was: #include <torch/script.h>
//   torch::jit::script::Module module = torch::jit::load(argv[1]);
//   std::vector<torch::jit::IValue> inputs{torch::ones({1, 3, 224, 224})};
//   at::Tensor output = module.forward(inputs).toTensor();
//
// What it maps: torch::Tensor / at::Tensor, torch::jit::{load, Module, script::Module, IValue, Method},
// c10::{IValue, List, Dict, ivalue::Tuple, intrusive_ptr, Error, InferenceMode}, the dtype constants
// (torch::kFloat32, at::kLong), torch::{Device, kCPU, kCUDA, TensorOptions, from_blob, zeros, ones,
// empty, full, rand, randn, arange, tensor, manual_seed, softmax, log_softmax, sigmoid, argmax, topk,
// sort, max, min, cat, stack, matmul, allclose, equal, NoGradGuard}, at::{set_num_threads,
// get_num_threads, set_num_interop_threads}, torch::cuda::is_available() (false: Kindling runs on the
// CPU), and the executor switches (torch::jit::setGraphExecutorOptimize, getProfilingMode, ...) as
// no-ops. Anything else of libtorch (autograd, optimizers, torch::nn modules in C++, CUDA) is not here.
//
// Only for code ported from libtorch: it defines namespaces torch, at and c10, so it cannot be mixed
// with libtorch's own headers in one translation unit. New code should use <kindling/kindling.h>.
#pragma once
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "kindling/kindling.h"

namespace torch {

using ::kindling::api::BFloat16;
using ::kindling::api::Device;
using ::kindling::api::DeviceType;
using ::kindling::api::Half;
using ::kindling::api::IntArrayRef;
using ::kindling::api::IValue;
using ::kindling::api::ScalarType;
using ::kindling::api::Tensor;
using ::kindling::api::TensorOptions;
using Dtype = ::kindling::api::ScalarType;

using ::kindling::api::kBFloat16;
using ::kindling::api::kBool;
using ::kindling::api::kByte;
using ::kindling::api::kChar;
using ::kindling::api::kCPU;
using ::kindling::api::kCUDA;
using ::kindling::api::kDouble;
using ::kindling::api::kFloat;
using ::kindling::api::kFloat16;
using ::kindling::api::kFloat32;
using ::kindling::api::kFloat64;
using ::kindling::api::kHalf;
using ::kindling::api::kInt;
using ::kindling::api::kInt16;
using ::kindling::api::kInt32;
using ::kindling::api::kInt64;
using ::kindling::api::kInt8;
using ::kindling::api::kLong;
using ::kindling::api::kShort;
using ::kindling::api::kUInt8;

using ::kindling::api::arange;
using ::kindling::api::device;
using ::kindling::api::dtype;
using ::kindling::api::empty;
using ::kindling::api::from_blob;
using ::kindling::api::full;
using ::kindling::api::manual_seed;
using ::kindling::api::ones;
using ::kindling::api::rand;
using ::kindling::api::randn;
using ::kindling::api::tensor;
using ::kindling::api::zeros;

using ::kindling::api::AutoGradMode;
using ::kindling::api::InferenceMode;
using ::kindling::api::NoGradGuard;

using ::kindling::api::get_num_interop_threads;
using ::kindling::api::get_num_threads;
using ::kindling::api::set_num_interop_threads;
using ::kindling::api::set_num_threads;

inline Tensor softmax(const Tensor& t, int64_t dim) { return t.softmax(dim); }
inline Tensor log_softmax(const Tensor& t, int64_t dim) { return t.log_softmax(dim); }
inline Tensor sigmoid(const Tensor& t) { return t.sigmoid(); }
inline Tensor relu(const Tensor& t) { return t.relu(); }
inline Tensor exp(const Tensor& t) { return t.exp(); }
inline Tensor matmul(const Tensor& a, const Tensor& b) { return a.matmul(b); }
inline Tensor argmax(const Tensor& t, std::optional<int64_t> dim = std::nullopt, bool keepdim = false) {
  return t.argmax(dim, keepdim);
}
inline std::tuple<Tensor, Tensor> topk(const Tensor& t, int64_t k, int64_t dim = -1, bool largest = true,
                                       bool sorted = true) {
  return t.topk(k, dim, largest, sorted);
}
inline std::tuple<Tensor, Tensor> sort(const Tensor& t, int64_t dim = -1, bool descending = false) {
  return t.sort(dim, descending);
}
inline Tensor max(const Tensor& t) { return t.max(); }
inline std::tuple<Tensor, Tensor> max(const Tensor& t, int64_t dim, bool keepdim = false) { return t.max(dim, keepdim); }
inline Tensor min(const Tensor& t) { return t.min(); }
inline std::tuple<Tensor, Tensor> min(const Tensor& t, int64_t dim, bool keepdim = false) { return t.min(dim, keepdim); }
inline bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08, bool equal_nan = false) {
  return a.allclose(b, rtol, atol, equal_nan);
}
inline bool equal(const Tensor& a, const Tensor& b) { return a.equal(b); }
inline Tensor cat(const std::vector<Tensor>& ts, int64_t dim = 0) {
  return ::kindling::api::call_op("aten::cat", {IValue(ts), IValue(dim)}).toTensor();
}
inline Tensor stack(const std::vector<Tensor>& ts, int64_t dim = 0) {
  return ::kindling::api::call_op("aten::stack", {IValue(ts), IValue(dim)}).toTensor();
}

namespace cuda {
inline bool is_available() { return false; }
inline int64_t device_count() { return 0; }
inline void synchronize(int64_t = -1) {}
}  // namespace cuda

namespace jit {
using ::kindling::api::IValue;
using ::kindling::api::jit::ExtraFilesMap;
using ::kindling::api::jit::Kwargs;
using ::kindling::api::jit::load;
using ::kindling::api::jit::Method;
using ::kindling::api::jit::Module;
using ::kindling::api::jit::NamedIValue;
using ::kindling::api::jit::NamedModule;
using ::kindling::api::jit::NamedTensor;
using ::kindling::api::jit::save;
using Stack = std::vector<IValue>;
namespace script {
using ::kindling::api::jit::Module;
}  // namespace script
/// Kindling has one executor and optimizes once at load; these switches change nothing.
inline void setGraphExecutorOptimize(bool) {}
inline bool getGraphExecutorOptimize() { return true; }
inline bool& getProfilingMode() {
  static bool mode = false;
  return mode;
}
inline bool& getExecutorMode() {
  static bool mode = true;
  return mode;
}
struct GraphOptimizerEnabledGuard {
  explicit GraphOptimizerEnabledGuard(bool) {}
};
/// Kindling specializes forward for inference at load already (see kindling/module.h).
inline Module freeze(const Module& m, const std::vector<std::string>& = {}, bool = true) { return m; }
inline Module optimize_for_inference(Module& m, const std::vector<std::string>& = {}) { return m; }
}  // namespace jit

}  // namespace torch

namespace c10 {
using ::kindling::api::Device;
using ::kindling::api::DeviceType;
using ::kindling::api::Error;
using ::kindling::api::GenericDict;
using ::kindling::api::Half;
using ::kindling::api::BFloat16;
using ::kindling::api::InferenceMode;
using ::kindling::api::IntArrayRef;
using ::kindling::api::IValue;
using ::kindling::api::ScalarType;
using ::kindling::api::kCPU;
using ::kindling::api::kCUDA;
/// c10::intrusive_ptr<c10::ivalue::Tuple> is the handle itself (it has operator->).
template <class T> using intrusive_ptr = T;
namespace ivalue {
using Tuple = ::kindling::api::Tuple;
using Object = ::kindling::api::Object;
}  // namespace ivalue

namespace detail {
template <class T> inline const char* typeName() {
  if constexpr (std::is_same_v<T, int64_t>) return "int";
  else if constexpr (std::is_same_v<T, double>) return "float";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, std::string>) return "str";
  else if constexpr (std::is_same_v<T, ::kindling::api::Tensor>) return "Tensor";
  else return "Any";
}
}  // namespace detail

/// c10::List<T>: a list of TorchScript element type T (IValue: Any).
template <class T = IValue>
class List : public ::kindling::api::List {
 public:
  List() : ::kindling::api::List(detail::typeName<T>()) {}
  List(const ::kindling::api::List& l) : ::kindling::api::List(l) {}  // NOLINT
};
/// c10::Dict<K, V>.
template <class K = IValue, class V = IValue>
class Dict : public ::kindling::api::GenericDict {
 public:
  Dict() : ::kindling::api::GenericDict(detail::typeName<K>(), detail::typeName<V>()) {}
  Dict(const ::kindling::api::GenericDict& d) : ::kindling::api::GenericDict(d) {}  // NOLINT
};
}  // namespace c10

namespace at {
using namespace ::torch;  // at::Tensor, at::kFloat, at::from_blob, ...
using ::c10::IntArrayRef;
}  // namespace at
