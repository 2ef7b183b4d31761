// Tensor metadata and tensor ↔ number builtins TorchScript code calls: x.size(), x.dim(), len(x),
// x.numel(), x.dtype / x.device / x.is_cuda, int(x) / float(x) / bool(x), the implicit 0-dim tensor →
// number conversions the frontend inserts (aten::IntImplicit, ScalarImplicit, ...), prim::NumToTensor,
// x.item(), Optional unwrapping and Device queries. No tensor math here.
// Registered with PyTorch 1.13's schemas; error messages follow PyTorch's.
#include <string>

#include "ops/kernels/attention/nested_tensor.h"
#include "ops/kernels/prim/grad_mode.h"
#include "ops/registry/operator.h"
#include "tensor/tensor.h"
#include "tensor/type_promotion.h"

namespace kindling {
namespace {

inline Tensor popTensor(Stack& s) { return pop(s).toTensor(); }

void sizes(Stack& s) { push(s, makeIntList(popTensor(s).sizes())); }     // size / sym_size
void strides(Stack& s) { push(s, makeIntList(popTensor(s).strides())); }  // stride
void sizeAt(Stack& s) {                                                   // size.int(Tensor self, int dim) -> int
  int64_t d = pop(s).toInt();
  push(s, popTensor(s).size(d));
}
void strideAt(Stack& s) {
  int64_t d = pop(s).toInt();
  push(s, popTensor(s).stride(d));
}
// dim, requires_grad and is_nested also answer for a nested tensor (attention/nested_tensor.h), which
// TransformerEncoderLayer.forward inspects before its fused call
void dim(Stack& s) {
  if (const NestedTensor* n = asNested(s.back())) {
    int64_t d = n->padded.dim();
    pop(s);
    push(s, d);
    return;
  }
  push(s, popTensor(s).dim());
}
void numel(Stack& s) { push(s, popTensor(s).numel()); }
void lenTensor(Stack& s) {  // len.Tensor(Tensor t) -> int
  Tensor t = popTensor(s);
  KD_CHECK(t.dim() != 0, "len() of a 0-d tensor");
  push(s, t.sizes()[0]);
}
void elementSize(Stack& s) { push(s, static_cast<int64_t>(popTensor(s).element_size())); }
void storageOffset(Stack& s) { push(s, popTensor(s).storage_offset()); }
void isContiguous(Stack& s) { push(s, popTensor(s).is_contiguous()); }

/// is_contiguous(memory_format): 0 contiguous_format, 1 preserve_format (error as PyTorch), 2 channels_last
/// (4-d NHWC strides), 3 channels_last_3d (5-d NDHWC strides).
void isContiguousMemoryFormat(Stack& s) {
  int64_t mf = pop(s).toInt();
  Tensor t = popTensor(s);
  if (mf == 0) { push(s, t.is_contiguous()); return; }
  KD_CHECK(mf == 2 || mf == 3, "is_contiguous: unsupported memory format {}", mf);
  size_t nd = mf == 2 ? 4 : 5;
  if (static_cast<size_t>(t.dim()) != nd) { push(s, false); return; }
  // Channels-last order of dims, innermost first: C, then W, H, (D), then N.
  std::vector<int64_t> order = nd == 4 ? std::vector<int64_t>{1, 3, 2, 0} : std::vector<int64_t>{1, 4, 3, 2, 0};
  int64_t expected = 1;
  bool ok = true;
  for (int64_t d : order) {
    int64_t size = t.sizes()[static_cast<size_t>(d)];
    if (size == 1) continue;
    if (t.strides()[static_cast<size_t>(d)] != expected) { ok = false; break; }
    expected *= size;
  }
  push(s, ok);
}

void isFloatingPoint(Stack& s) { push(s, isFloatingType(popTensor(s).dtype())); }
void isComplex(Stack& s) { push(s, isComplexType(popTensor(s).dtype())); }
void isSigned(Stack& s) {
  ScalarType t = popTensor(s).dtype();
  push(s, t != ScalarType::Byte && t != ScalarType::Bool);
}
void alwaysFalseTensor(Stack& s) { pop(s); push(s, false); }  // is_cuda, is_sparse, ... on a CPU tensor
void alwaysTrueTensor(Stack& s) { pop(s); push(s, true); }    // is_cpu, is_leaf, is_inference
void zeroTensorInt(Stack& s) { pop(s); push(s, int64_t(0)); }  // output_nr, _version
void getDevice(Stack& s) { pop(s); push(s, int64_t(-1)); }     // get_device: -1 for CPU tensors
void dtype(Stack& s) { push(s, static_cast<int64_t>(popTensor(s).dtype())); }
// torch.result_type(tensor, other): the dtype an elementwise op over both gives (tensor/type_promotion.h)
void resultTypeTensor(Stack& s) {
  Tensor other = popTensor(s);
  push(s, static_cast<int64_t>(resultType(popTensor(s), other)));
}
void resultTypeScalar(Stack& s) {
  Scalar other = pop(s).toScalar();
  push(s, static_cast<int64_t>(resultType(popTensor(s), other)));
}
void device(Stack& s) { pop(s); push(s, Device{DeviceType::CPU, -1}); }
void layout(Stack& s) { pop(s); push(s, int64_t(0)); }  // torch.strided
void requiresGrad(Stack& s) {
  if (asNested(s.back())) {
    pop(s);
    push(s, false);
    return;
  }
  push(s, popTensor(s).requires_grad());
}
// x.requires_grad_(b): the flag only (Kindling computes no gradients; torch.jit.load'd archives keep it)
void setRequiresGrad(Stack& s) {
  bool flag = pop(s).toBool();
  s.back().toTensor().impl()->requiresGrad = flag;
}
void isNested(Stack& s) { push(s, asNested(pop(s)) != nullptr); }
void data(Stack& s) { push(s, popTensor(s).alias()); }  // prim::data: the tensor without autograd history
void grad(Stack& s) { pop(s); push(s, IValue()); }      // no autograd: .grad is always None

// ---- tensor → number ----

bool nonzero(const Tensor& t) {
  int64_t n = t.numel();
  KD_CHECK(n != 0, "Boolean value of Tensor with no values is ambiguous");
  KD_CHECK(n == 1, "Boolean value of Tensor with more than one value is ambiguous");
  return t.item().toBool();
}
void intOfTensor(Stack& s) { push(s, popTensor(s).item().toLong()); }      // Int.Tensor
void floatOfTensor(Stack& s) { push(s, popTensor(s).item().toDouble()); }  // Float.Tensor
void boolOfTensor(Stack& s) { push(s, nonzero(popTensor(s))); }            // Bool.Tensor / is_nonzero
void item(Stack& s) { push(s, IValue(popTensor(s).item())); }

/// The checks PyTorch's checkImplicitTensorToNum makes when a tensor is passed where a number is expected.
void checkImplicit(const Tensor& t, bool toInt) {
  KD_CHECK(!t.requires_grad(), "Cannot input a tensor that requires grad as a scalar argument");
  KD_CHECK(t.dim() == 0, "Cannot input a tensor of dimension other than 0 as a scalar argument");
  KD_CHECK(!toInt || isIntegralType(t.dtype(), /*includeBool=*/false),
           "Cannot input a tensor of type {} as an integral argument", scalarTypeName(t.dtype()));
}
void intImplicit(Stack& s) {
  Tensor t = popTensor(s);
  checkImplicit(t, true);
  push(s, t.item().toLong());
}
void floatImplicit(Stack& s) {
  Tensor t = popTensor(s);
  checkImplicit(t, false);
  push(s, t.item().toDouble());
}
void scalarImplicit(Stack& s) {
  Tensor t = popTensor(s);
  checkImplicit(t, false);
  push(s, IValue(t.item()));
}

/// prim::NumToTensor: a 0-dim tensor of the number (int → int64, float → float64, bool → bool), as
/// at::scalar_to_tensor.
void numToTensor(Stack& s) {
  IValue v = pop(s);
  if (v.isDouble()) push(s, Tensor::scalarTensor(Scalar(v.toDouble()), ScalarType::Double));
  else if (v.isBool()) push(s, Tensor::scalarTensor(Scalar(v.toBool()), ScalarType::Bool));
  else push(s, Tensor::scalarTensor(Scalar(v.toInt()), ScalarType::Long));
}

/// prim::tolist(...) -> ...: x.tolist() with the annotated type passed as (dim, elem type 0 int / 1 float /
/// 2 bool); the interpreter pushes the input count (3) last, as for every vararg schema.
void tolist(Stack& s) {
  int64_t n = pop(s).toInt();
  KD_CHECK(n == 3, "tolist: expected 3 inputs but got {}", n);
  int64_t elemTy = pop(s).toInt();
  int64_t dims = pop(s).toInt();
  Tensor t = popTensor(s);
  KD_CHECK(t.dim() == dims, "Output annotation list dimension and runtime tensor dimension must match for tolist()");
  bool ok = elemTy == 0 ? isIntegralType(t.dtype(), /*includeBool=*/false)
          : elemTy == 1 ? isFloatingType(t.dtype())
          : elemTy == 2 ? t.dtype() == ScalarType::Bool
                        : false;
  KD_CHECK(ok, "Output annotation element type and runtime tensor element type must match for tolist()");
  Tensor c = t.contiguous();
  TypePtr elemType = elemTy == 0 ? IntType() : elemTy == 1 ? FloatType() : BoolType();
  auto element = [&](int64_t flat) -> IValue {
    double v = c.doubleAt(flat);
    if (elemTy == 0) return IValue(c.dtype() == ScalarType::Long ? c.data_ptr<int64_t>()[flat] : static_cast<int64_t>(v));
    if (elemTy == 1) return IValue(v);
    return IValue(v != 0);
  };
  if (dims == 0) {
    push(s, element(0));
    return;
  }
  // Builds nested lists dimension by dimension.
  std::vector<TypePtr> levelTypes(static_cast<size_t>(dims));  // levelTypes[d]: element type of a level-d list
  TypePtr ty = elemType;
  for (int64_t d = dims - 1; d >= 0; --d) {
    levelTypes[static_cast<size_t>(d)] = ty;
    ty = ListType::create(ty);
  }
  int64_t flat = 0;
  auto build = [&](auto& self, int64_t d) -> IValue {
    std::vector<IValue> items;
    int64_t size = c.sizes()[static_cast<size_t>(d)];
    items.reserve(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) items.push_back(d + 1 == dims ? element(flat++) : self(self, d + 1));
    return makeList(levelTypes[static_cast<size_t>(d)], std::move(items));
  };
  push(s, build(build, 0));
}

// ---- optionals, devices, global state ----

void unwrapOptional(Stack& s) {
  KD_CHECK(!s.back().isNone(), "Unwrapping null optional");
}
void deviceType(Stack& s) {  // prim::type(Device self) -> str
  Device d = pop(s).toDevice();
  push(s, std::string(d.type == DeviceType::CPU ? "cpu" : d.type == DeviceType::CUDA ? "cuda" : "meta"));
}
void deviceIndex(Stack& s) {  // prim::index(Device self) -> int?
  Device d = pop(s).toDevice();
  if (d.index < 0) push(s, IValue());
  else push(s, static_cast<int64_t>(d.index));
}
void deviceEq(Stack& s) {
  Device b = pop(s).toDevice();
  Device a = pop(s).toDevice();
  push(s, a == b);
}
void deviceNe(Stack& s) {
  Device b = pop(s).toDevice();
  Device a = pop(s).toDevice();
  push(s, !(a == b));
}
void pushTrue(Stack& s) { push(s, true); }
void pushFalse(Stack& s) { push(s, false); }
/// torch.is_grad_enabled() / torch.set_grad_enabled() (grad_mode.h).
void isGradEnabled(Stack& s) { push(s, isGradModeEnabled()); }
void setGradEnabled(Stack& s) { setGradModeEnabled(pop(s).toBool()); }

}  // namespace

void registerIndexPutOps(OperatorRegistry& r);  // index_put.cpp: x[indices] = values

void registerTensorPrimOps(OperatorRegistry& r) {
  registerIndexPutOps(r);
  r.add("aten::size(Tensor self) -> int[]", sizes);
  r.add("aten::size.int(Tensor self, int dim) -> int", sizeAt);
  r.add("aten::sym_size(Tensor self) -> SymInt[]", sizes);
  r.add("aten::sym_size.int(Tensor self, int dim) -> SymInt", sizeAt);
  r.add("aten::sym_numel(Tensor self) -> SymInt", numel);
  r.add("aten::stride(Tensor self) -> int[]", strides);
  r.add("aten::stride.int(Tensor self, int dim) -> int", strideAt);
  r.add("aten::dim(Tensor self) -> int", dim);
  r.add("aten::numel(Tensor self) -> int", numel);
  r.add("aten::len.Tensor(Tensor t) -> int", lenTensor);
  r.add("aten::element_size(Tensor self) -> int", elementSize);
  r.add("aten::storage_offset(Tensor self) -> int", storageOffset);
  r.add("aten::is_contiguous(Tensor self) -> bool", isContiguous);
  r.add("aten::is_contiguous.memory_format(Tensor self, MemoryFormat memory_format) -> bool", isContiguousMemoryFormat);
  r.add("aten::is_floating_point(Tensor self) -> bool", isFloatingPoint);
  r.add("aten::is_complex(Tensor self) -> bool", isComplex);
  r.add("aten::is_signed(Tensor self) -> bool", isSigned);
  r.add("aten::is_nonzero(Tensor self) -> bool", boolOfTensor);
  r.add("aten::is_conj(Tensor self) -> bool", alwaysFalseTensor);
  r.add("aten::is_neg(Tensor self) -> bool", alwaysFalseTensor);
  r.add("aten::is_inference(Tensor self) -> bool", alwaysTrueTensor);
  r.add("aten::is_leaf(Tensor self) -> bool", alwaysTrueTensor);
  r.add("aten::output_nr(Tensor self) -> int", zeroTensorInt);
  r.add("aten::_version(Tensor self) -> int", zeroTensorInt);
  r.add("aten::get_device(Tensor self) -> int", getDevice);

  r.add("prim::dtype(Tensor a) -> int", dtype);
  r.add("aten::result_type.Tensor(Tensor tensor, Tensor other) -> ScalarType", resultTypeTensor);
  r.add("aten::result_type.Scalar(Tensor tensor, Scalar other) -> ScalarType", resultTypeScalar);
  r.add("prim::device(Tensor a) -> Device", device);
  r.add("prim::layout(Tensor a) -> Layout", layout);
  r.add("prim::requires_grad(Tensor a) -> bool", requiresGrad);
  r.add("aten::requires_grad_(Tensor(a!) self, bool requires_grad=True) -> Tensor(a!)", setRequiresGrad);
  r.add("prim::data(Tensor(a) a) -> Tensor(a)", data);
  r.add("prim::grad(Tensor a) -> Tensor(*)", grad);
  r.add("prim::is_cpu(Tensor a) -> bool", alwaysTrueTensor);
  r.add("prim::is_nested(Tensor a) -> bool", isNested);
  for (const char* k : {"is_cuda", "is_xpu", "is_ipu", "is_meta", "is_mkldnn", "is_mps", "is_ort",
                        "is_quantized", "is_sparse", "is_sparse_csr", "is_vulkan"})
    r.add(fmt::format("prim::{}(Tensor a) -> bool", k), alwaysFalseTensor);

  r.add("aten::Int.Tensor(Tensor a) -> int", intOfTensor);
  r.add("aten::Float.Tensor(Tensor a) -> float", floatOfTensor);
  r.add("aten::Bool.Tensor(Tensor a) -> bool", boolOfTensor);
  r.add("aten::item(Tensor self) -> Scalar", item);
  r.add("aten::IntImplicit(Tensor a) -> int", intImplicit);
  r.add("aten::FloatImplicit(Tensor a) -> float", floatImplicit);
  r.add("aten::ScalarImplicit(Tensor a) -> Scalar", scalarImplicit);
  r.add("prim::NumToTensor.Scalar(Scalar a) -> Tensor", numToTensor);
  r.add("prim::NumToTensor.bool(bool a) -> Tensor", numToTensor);

  r.add("prim::tolist(...) -> ...", tolist);

  r.add("aten::_unwrap_optional(t(a)? optional) -> t(a)", unwrapOptional);
  r.add("prim::unchecked_unwrap_optional(t(a)? optional) -> t(a)", [](Stack&) {});
  r.add("prim::type(Device self) -> str", deviceType);
  r.add("prim::index(Device self) -> int?", deviceIndex);
  r.add("aten::eq.device(Device a, Device b) -> bool", deviceEq);
  r.add("aten::ne.device(Device a, Device b) -> bool", deviceNe);

  r.add("aten::is_scripting() -> bool", pushTrue);           // torch.jit.is_scripting() inside TorchScript
  r.add("aten::_get_tracing_state() -> bool", pushFalse);
  r.add("aten::is_grad_enabled() -> bool", isGradEnabled);
  r.add("aten::set_grad_enabled(bool val) -> ()", setGradEnabled);
}

}  // namespace kindling
