// Matrix products: linear, addmm, mm, mv, dot, bmm, baddbmm, matmul (every rank case of torch.matmul).
// float32 runs on oneDNN's matmul primitive (JIT for the running CPU; cached by shape); linear treats its
// weight as a constant and uses oneDNN's packed layout, kept with the weight (ops/kernels/common/onednn_utils.h); the
// other products read their operands in place (they may change between calls).
// Other dtypes run a direct loop (double accumulates in double, integers in int64).
#include <dnnl.hpp>

#include <cstring>

#include "ops/registry/kernel_args.h"
#include "ops/kernels/common/onednn_utils.h"
#include "ops/kernels/linalg/linalg.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

struct MatmulPrim {
  dnnl::matmul prim;
  dnnl::memory::desc src, weights, userWeights, bias, dst, scratchpad;
};

onednn::Cache<MatmulPrim>& matmulCache() {
  static auto* c = new onednn::Cache<MatmulPrim>();
  return *c;
}

/// A usable for oneDNN when one of the two innermost strides is 1 (plain or transposed matrices).
Tensor matrixOperand(const Tensor& t) {
  const int64_t d = t.dim();
  const int64_t s1 = t.strides()[d - 1], s2 = t.strides()[d - 2];
  const int64_t n1 = t.sizes()[d - 1], n2 = t.sizes()[d - 2];
  bool ok = (s1 == 1 || n1 == 1) || (s2 == 1 || n2 == 1);
  for (int64_t i = 0; i < d && ok; ++i) ok = t.strides()[i] >= 0 && (t.strides()[i] > 0 || t.sizes()[i] == 1);
  return ok ? t : t.contiguous();
}

/// The matmul primitive descriptor for A (aD) @ B (bUser) (+ bias[N]) into C (cD); `constantB`: B in the layout
/// oneDNN prefers (packed once, see packedWeights), else read in place.
dnnl::matmul::primitive_desc matmulPrimitiveDesc(const dnnl::memory::desc& aD, const dnnl::memory::desc& bUser,
                                                 bool hasBias, const dnnl::memory::desc& cD, bool constantB) {
  using namespace dnnl;
  const memory::dims outDims = cD.dims();
  const int nd = static_cast<int>(outDims.size());
  memory::desc bD = constantB ? memory::desc(bUser.dims(), memory::data_type::f32, memory::format_tag::any) : bUser;
  memory::desc biasD;
  if (hasBias) {
    memory::dims bd(nd, 1);
    bd[nd - 1] = outDims[nd - 1];
    memory::dims bs(nd, outDims[nd - 1]);
    bs[nd - 1] = 1;
    biasD = memory::desc(bd, memory::data_type::f32, bs);
  }
  matmul::desc d = hasBias ? matmul::desc(aD, bD, biasD, cD) : matmul::desc(aD, bD, cD);
  return matmul::primitive_desc(d, onednn::userScratchpadAttr(), onednn::engine());
}

/// C[..., M, N] = A[..., M, K] @ B[..., K, N] (+ bias[N]) for float32; batch dims of A and B are equal or 1
/// (oneDNN broadcasts). `constantB`: pack B once (weights).
Tensor onednnMatmul(const Tensor& A0, const Tensor& B0, const Tensor& bias, bool constantB) {
  const Tensor A = matrixOperand(A0), B = matrixOperand(B0);
  const int64_t nd = A.dim();
  IntArray outSizes(A.sizes().begin(), A.sizes().end());
  for (int64_t i = 0; i < nd - 2; ++i) outSizes[i] = std::max(A.sizes()[i], B.sizes()[i]);
  outSizes[nd - 1] = B.sizes()[nd - 1];
  Tensor C = Tensor::empty(outSizes, ScalarType::Float);
  if (C.numel() == 0) return C;
  if (A.sizes()[nd - 1] == 0) return C.zero_();
  const Tensor bias32 = bias.defined() ? bias.to(ScalarType::Float).contiguous() : Tensor();
  onednn::Key key;
  key.add(4).add(A.sizes()).add(A.strides()).add(B.sizes()).add(B.strides()).add(bias32.defined()).add(constantB);
  auto prim = matmulCache().get(key, [&] {
    auto p = std::make_shared<MatmulPrim>();
    const auto pd = matmulPrimitiveDesc(onednn::descOf(A), onednn::descOf(B), bias32.defined(), onednn::descOf(C),
                                        constantB);
    p->prim = dnnl::matmul(pd);
    p->src = pd.src_desc();
    p->weights = pd.weights_desc();
    p->userWeights = onednn::descOf(B);
    p->bias = pd.bias_desc();
    p->dst = pd.dst_desc();
    p->scratchpad = pd.scratchpad_desc();
    return p;
  });
  dnnl::memory bMem = constantB ? onednn::packedWeights(B, prim->userWeights, prim->weights, 2)
                                : onednn::memoryOf(B, prim->userWeights);
  std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, onednn::memoryOf(A, prim->src)},
                                             {DNNL_ARG_WEIGHTS, bMem},
                                             {DNNL_ARG_DST, onednn::memoryOf(C, prim->dst)}};
  if (bias32.defined()) args.emplace(DNNL_ARG_BIAS, onednn::memoryOf(bias32, prim->bias));
  args.emplace(DNNL_ARG_SCRATCHPAD, onednn::scratchpadFor(prim->scratchpad));
  auto& s = onednn::stream();
  onednn::guarded("matmul", [&] { prim->prim.execute(s, args); });
  s.wait();
  return C;
}

/// Direct loop for non-float32 dtypes: same contract as onednnMatmul (3-d with equal-or-1 batch dims or 2-d).
Tensor directMatmul(const Tensor& A, const Tensor& B, const Tensor& bias) {
  const int64_t nd = A.dim();
  const ScalarType dt = A.dtype();
  const int64_t M = A.sizes()[nd - 2], K = A.sizes()[nd - 1], N = B.sizes()[nd - 1];
  const int64_t batch = nd == 3 ? std::max(A.sizes()[0], B.sizes()[0]) : 1;
  IntArray outSizes = nd == 3 ? IntArray{batch, M, N} : IntArray{M, N};
  Tensor C = Tensor::empty(outSizes, dt);
  dispatchLoopTypes(dt == ScalarType::Half || dt == ScalarType::BFloat16 ? ScalarType::Float : dt, "addmm_impl_cpu_",
                    [&](auto tag) {
    using T = decltype(tag);
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, int64_t>;
    const Tensor a = A.to(scalarTypeOf<T>()), b = B.to(scalarTypeOf<T>());
    Tensor c = C.dtype() == scalarTypeOf<T>() ? C : Tensor::empty(outSizes, scalarTypeOf<T>());
    const T* pa = a.data_ptr<T>();
    const T* pb = b.data_ptr<T>();
    T* pc = c.data_ptr<T>();
    const Tensor bb = bias.defined() ? bias.to(scalarTypeOf<T>()).contiguous() : Tensor();
    const T* pbias = bb.defined() ? bb.data_ptr<T>() : nullptr;
    const int64_t as0 = nd == 3 && A.sizes()[0] > 1 ? a.strides()[0] : 0, asm_ = a.strides()[nd - 2],
                  ask = a.strides()[nd - 1];
    const int64_t bs0 = nd == 3 && B.sizes()[0] > 1 ? b.strides()[0] : 0, bsk = b.strides()[nd - 2],
                  bsn = b.strides()[nd - 1];
    for (int64_t bi = 0; bi < batch; ++bi)
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          Acc acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += static_cast<Acc>(pa[bi * as0 + m * asm_ + k * ask]) * static_cast<Acc>(pb[bi * bs0 + k * bsk + n * bsn]);
          if (pbias) acc += static_cast<Acc>(pbias[n]);
          pc[(bi * M + m) * N + n] = static_cast<T>(acc);
        }
    if (!c.is_same(C)) C.copy_(c);
  });
  return C;
}

Tensor matmulCore(const Tensor& A, const Tensor& B, const Tensor& bias = Tensor(), bool constantB = false) {
  if (A.dtype() == ScalarType::Float && B.dtype() == ScalarType::Float) return onednnMatmul(A, B, bias, constantB);
  return directMatmul(A, B, bias);
}

void checkSameDtype(const Tensor& a, const Tensor& b) {
  KD_CHECK(a.dtype() == b.dtype(), "expected scalar type {} but found {}", scalarTypeName(a.dtype()),
           scalarTypeName(b.dtype()));
}

Tensor mm(const Tensor& a, const Tensor& b) {
  KD_CHECK(a.dim() == 2, "self must be a matrix");
  KD_CHECK(b.dim() == 2, "mat2 must be a matrix");
  KD_CHECK(a.sizes()[1] == b.sizes()[0], "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", a.sizes()[0],
           a.sizes()[1], b.sizes()[0], b.sizes()[1]);
  checkSameDtype(a, b);
  return matmulCore(a, b);
}

/// out = beta * self + alpha * (m1 @ m2); a bias-shaped self with beta=alpha=1 runs fused in the primitive.
Tensor addmm(const Tensor& self, const Tensor& m1, const Tensor& m2, const Scalar& beta, const Scalar& alpha,
             bool constantB) {
  KD_CHECK(m1.dim() == 2, "mat1 must be a matrix, got {}-D tensor", m1.dim());
  KD_CHECK(m2.dim() == 2, "mat2 must be a matrix, got {}-D tensor", m2.dim());
  KD_CHECK(m1.sizes()[1] == m2.sizes()[0], "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
           m1.sizes()[0], m1.sizes()[1], m2.sizes()[0], m2.sizes()[1]);
  checkSameDtype(m1, m2);
  const IntArray outShape{m1.sizes()[0], m2.sizes()[1]};
  // self must broadcast to the output
  const IntArray bshape = inferSize(self.sizes(), outShape);
  KD_CHECK(bshape == outShape, "The expanded size of the tensor ({}) must match the existing size ({}) at non-singleton dimension 1",
           outShape[1], self.dim() > 0 ? self.sizes()[self.dim() - 1] : 1);
  const bool unit = beta.toDouble() == 1.0 && alpha.toDouble() == 1.0;
  const bool biasLike = self.dim() == 1 || (self.dim() == 2 && self.sizes()[0] == 1);
  if (unit && biasLike && self.numel() == outShape[1] && self.dtype() == m1.dtype()) {
    return matmulCore(m1, m2, self.reshape({outShape[1]}), constantB);
  }
  Tensor prod = matmulCore(m1, m2, Tensor(), constantB);
  if (alpha.toDouble() != 1.0) {
    // alpha and beta are converted to the product's dtype, as ATen (integer addmm truncates 0.6 to 0)
    TensorIterator it;
    it.addOutput(prod).addInput(prod).build();
    dispatchLoopTypesNoBool(it.loopComputeDtype(), "addmm", [&](auto tag) {
      using T = decltype(tag);
      const T al = alpha.to<T>();
      cpuKernel(it, [al](T x) -> T { return x * al; });
    });
  }
  if (beta.toDouble() == 0.0) return prod;
  TensorIterator it;
  // self broadcasts to the product (expanded here: the iterator's broadcasting of it crashed, see H8's report)
  it.addOutput(prod).addInput(prod).addInput(self.expand(prod.sizes())).build();
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "addmm", [&](auto tag) {
    using T = decltype(tag);
    const T be = beta.to<T>();
    cpuKernel(it, [be](T p, T s) -> T { return p + be * s; });
  });
  return prod;
}

/// y[m, n] = bias[n] + sum_k x[m, k] * w[n, k] for a few rows of float32 (batch-1 linear layers): a direct
/// loop over the weight's rows in place, eight partial sums per dot product (the compiler vectorizes them).
/// oneDNN's per-call work (memory objects, argument maps, scratchpad) costs microseconds, far more than
/// the few thousand multiply-adds of such a call. x and w rows contiguous; bias null or [N] contiguous.
void smallLinearF32(const float* x, int64_t M, int64_t ldx, const float* w, int64_t N, int64_t K, const float* bias,
                    float* y) {
  for (int64_t m = 0; m < M; ++m) {
    const float* xr = x + m * ldx;
    float* yr = y + m * N;
    for (int64_t n = 0; n < N; ++n) {
      const float* wr = w + n * K;
      typedef float V8 __attribute__((vector_size(32)));  // GCC vector: two SSE registers or one AVX
      V8 acc = {0, 0, 0, 0, 0, 0, 0, 0};
      int64_t k = 0;
      for (; k + 8 <= K; k += 8) {
        V8 a, b;
        std::memcpy(&a, xr + k, sizeof a);
        std::memcpy(&b, wr + k, sizeof b);
        acc += a * b;
      }
      float tail = 0;
      for (; k < K; ++k) tail += xr[k] * wr[k];
      float sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail;
      yr[n] = bias ? sum + bias[n] : sum;
    }
  }
}

/// Rows and weight size up to which linear() takes smallLinearF32 instead of oneDNN.
constexpr int64_t kSmallLinearMaxRows = 4;
constexpr int64_t kSmallLinearMaxWeight = 1 << 18;

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  KD_CHECK(weight.dim() == 2 || weight.dim() == 1, "linear(): weight must be 1-D or 2-D, got {}-D", weight.dim());
  KD_CHECK(input.dim() >= 1, "linear(): input must have at least 1 dimension");
  checkSameDtype(input, weight);
  const int64_t K = input.sizes()[input.dim() - 1];
  const Tensor w2 = weight.dim() == 1 ? weight.unsqueeze(0) : weight;  // [N, K]
  KD_CHECK(w2.sizes()[1] == K, "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
           input.numel() / std::max<int64_t>(K, 1), K, w2.sizes()[1], w2.sizes()[0]);
  const int64_t N = w2.sizes()[0];
  if (bias.defined()) {
    KD_CHECK(bias.numel() == N || bias.numel() == 1 || bias.dim() == 0,
             "The size of tensor a ({}) must match the size of tensor b ({}) at non-singleton dimension {}",
             N, bias.sizes().empty() ? 1 : bias.sizes().back(), input.dim() - 1);
  }
  IntArray outShape(input.sizes().begin(), input.sizes().end() - 1);
  const Tensor x2 = input.dim() == 2 ? input : input.reshape({-1, K});
  Tensor b = bias;
  if (b.defined() && (b.numel() != N || b.dim() != 1)) b = b.expand({N}).contiguous();
  const int64_t M = x2.sizes()[0];
  if (input.dtype() == ScalarType::Float && weight.dim() == 2 && M >= 1 && M <= kSmallLinearMaxRows && K > 0 &&
      N * K <= kSmallLinearMaxWeight && w2.is_contiguous() && x2.strides()[1] == 1 && x2.strides()[0] >= K &&
      (!b.defined() || (b.dtype() == ScalarType::Float && b.is_contiguous()))) {
    Tensor out = Tensor::empty({M, N}, ScalarType::Float);
    smallLinearF32(x2.data_ptr<float>(), M, x2.strides()[0], w2.data_ptr<float>(), N, K,
                   b.defined() ? b.data_ptr<float>() : nullptr, out.data_ptr<float>());
    if (weight.dim() == 2) outShape.push_back(N);
    return input.dim() == 2 ? out : out.reshape(outShape);
  }
  Tensor out = matmulCore(x2, w2.transpose(0, 1), b, /*constantB=*/true);
  if (weight.dim() == 2) outShape.push_back(N);
  return input.dim() == 2 && weight.dim() == 2 ? out : out.reshape(outShape);
}

Tensor bmm(const Tensor& a, const Tensor& b) {
  KD_CHECK(a.dim() == 3, "batch1 must be a 3D tensor");
  KD_CHECK(b.dim() == 3, "batch2 must be a 3D tensor");
  KD_CHECK(b.sizes()[0] == a.sizes()[0] && b.sizes()[1] == a.sizes()[2],
           "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", a.sizes()[0],
           a.sizes()[2], b.sizes()[0], b.sizes()[1]);
  checkSameDtype(a, b);
  return matmulCore(a, b);
}

Tensor dot(const Tensor& a, const Tensor& b) {
  KD_CHECK(a.dim() == 1 && b.dim() == 1, "1D tensors expected, but got {}D and {}D tensors", a.dim(), b.dim());
  KD_CHECK(a.numel() == b.numel(),
           "inconsistent tensor size, expected tensor [{}] and src [{}] to have the same number of elements, but got "
           "{} and {} elements respectively",
           a.numel(), b.numel(), a.numel(), b.numel());
  checkSameDtype(a, b);
  return matmulCore(a.unsqueeze(0), b.unsqueeze(1)).reshape({});
}

Tensor mv(const Tensor& a, const Tensor& v) {
  KD_CHECK(a.dim() == 2 && v.dim() == 1, "vector + matrix @ vector expected, got 1, {}, {}", a.dim(), v.dim());
  KD_CHECK(a.sizes()[1] == v.sizes()[0], "size mismatch, got {}, {}x{},{}", a.sizes()[0], a.sizes()[0], a.sizes()[1],
           v.sizes()[0]);
  checkSameDtype(a, v);
  return matmulCore(a, v.unsqueeze(1)).reshape({a.sizes()[0]});
}

/// torch.matmul (ATen's LinearAlgebra.cpp: _matmul_impl).
Tensor matmul(const Tensor& t1, const Tensor& t2) {
  const int64_t d1 = t1.dim(), d2 = t2.dim();
  KD_CHECK(d1 != 0 && d2 != 0, "both arguments to matmul need to be at least 1D, but they are {}D and {}D", d1, d2);
  if (d1 == 1 && d2 == 1) return dot(t1, t2);
  if (d1 == 2 && d2 == 1) return mv(t1, t2);
  if (d1 == 1 && d2 == 2) {
    KD_CHECK(t1.sizes()[0] == t2.sizes()[0], "mat1 and mat2 shapes cannot be multiplied (1x{} and {}x{})",
             t1.sizes()[0], t2.sizes()[0], t2.sizes()[1]);
    return mm(t1.unsqueeze(0), t2).squeeze(0);
  }
  if (d1 == 2 && d2 == 2) return mm(t1, t2);
  if (d1 >= 3 && (d2 == 1 || d2 == 2)) {
    // fold the batch into M
    const Tensor t2m = d2 == 1 ? t2.unsqueeze(-1) : t2;
    IntArray outShape(t1.sizes().begin(), t1.sizes().end() - 1);
    const int64_t K = t1.sizes()[d1 - 1];
    const Tensor folded = t1.reshape({-1, K});
    KD_CHECK(K == t2m.sizes()[0], "mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})", folded.sizes()[0], K,
             t2m.sizes()[0], t2m.sizes()[1]);
    Tensor out = mm(folded, t2m);
    if (d2 == 2) outShape.push_back(t2.sizes()[1]);
    return out.reshape(outShape);
  }
  // batched: broadcast batch dims
  const int64_t n = d1 > 1 ? t1.sizes()[d1 - 2] : 1;
  const int64_t m1 = t1.sizes()[d1 - 1];
  const int64_t m2 = d2 > 1 ? t2.sizes()[d2 - 2] : t2.sizes()[0];
  const int64_t p = d2 > 1 ? t2.sizes()[d2 - 1] : 1;
  IntArray batch1(t1.sizes().begin(), t1.sizes().end() - std::min<int64_t>(d1, 2));
  IntArray batch2(t2.sizes().begin(), t2.sizes().end() - std::min<int64_t>(d2, 2));
  const IntArray batch = inferSize(batch1, batch2);
  int64_t B = 1;
  for (int64_t x : batch) B *= x;
  IntArray e1 = batch, e2 = batch;
  e1.push_back(n);
  e1.push_back(m1);
  e2.push_back(m2);
  e2.push_back(p);
  KD_CHECK(m1 == m2, "Expected size for first two dimensions of batch2 tensor to be: [{}, {}] but got: [{}, {}].", B,
           m1, B, m2);
  const Tensor a = (d1 == 1 ? t1.unsqueeze(0) : t1).expand(e1).reshape({B, n, m1});
  const Tensor b = (d2 == 1 ? t2.unsqueeze(-1) : t2).expand(e2).reshape({B, m2, p});
  checkSameDtype(a, b);
  Tensor out = matmulCore(a, b);
  IntArray outShape = batch;
  if (d1 > 1) outShape.push_back(n);
  if (d2 > 1) outShape.push_back(p);
  return out.reshape(outShape);
}

Tensor baddbmm(const Tensor& self, const Tensor& b1, const Tensor& b2, const Scalar& beta, const Scalar& alpha) {
  Tensor prod = bmm(b1, b2);
  TensorIterator it;
  // self broadcasts to the product (expanded here: the iterator's broadcasting of it crashed, see H8's report)
  it.addOutput(prod).addInput(prod).addInput(self.expand(prod.sizes())).build();
  dispatchLoopTypesNoBool(it.loopComputeDtype(), "baddbmm", [&](auto tag) {
    using T = decltype(tag);
    const T be = beta.to<T>(), al = alpha.to<T>();
    const bool useSelf = beta.toDouble() != 0.0;
    cpuKernel(it, [be, al, useSelf](T p, T s) -> T { return useSelf ? T(al * p + be * s) : T(al * p); });
  });
  return prod;
}

void linearOp(Stack& s) {
  Args a(s, 3);
  Tensor r = linear(a.tensor(0), a.tensor(1), a.optTensor(2));
  a.ret(std::move(r));
}
void addmmOp(Stack& s) {
  Args a(s, 5);
  Tensor r = addmm(a.tensor(0), a.tensor(1), a.tensor(2), a.scalar(3), a.scalar(4), /*constantB=*/false);
  a.ret(std::move(r));
}
void addmmInplaceOp(Stack& s) {
  Args a(s, 5);
  Tensor self = a.tensor(0);
  Tensor r = addmm(self, a.tensor(1), a.tensor(2), a.scalar(3), a.scalar(4), false);
  self.copy_(r);
  a.ret(std::move(self));
}
void mmOp(Stack& s) {
  Args a(s, 2);
  Tensor r = mm(a.tensor(0), a.tensor(1));
  a.ret(std::move(r));
}
void mvOp(Stack& s) {
  Args a(s, 2);
  Tensor r = mv(a.tensor(0), a.tensor(1));
  a.ret(std::move(r));
}
void dotOp(Stack& s) {
  Args a(s, 2);
  Tensor r = dot(a.tensor(0), a.tensor(1));
  a.ret(std::move(r));
}
void bmmOp(Stack& s) {
  Args a(s, 2);
  Tensor r = bmm(a.tensor(0), a.tensor(1));
  a.ret(std::move(r));
}
void matmulOp(Stack& s) {
  Args a(s, 2);
  Tensor r = matmul(a.tensor(0), a.tensor(1));
  a.ret(std::move(r));
}
void baddbmmOp(Stack& s) {
  Args a(s, 5);
  Tensor r = baddbmm(a.tensor(0), a.tensor(1), a.tensor(2), a.scalar(3), a.scalar(4));
  a.ret(std::move(r));
}

}  // namespace

void prepackLinearWeight(const Tensor& weight, bool hasBias) {
  if (weight.dim() != 2 || weight.dtype() != ScalarType::Float || weight.numel() == 0) return;
  // linear() multiplies x2 [M, K] by weight.t() [K, N]; the rows M are not known before the first call: pack
  // for one row (the layout oneDNN picks for B seldom depends on M; a call that wants another packs its own).
  const int64_t N = weight.sizes()[0], K = weight.sizes()[1];
  const Tensor B = matrixOperand(weight.transpose(0, 1));
  if (!B.storage().get() || B.storage().get() != weight.storage().get()) return;  // not a view: nothing to keep
  const Tensor A = Tensor::empty({1, K}), C = Tensor::empty({1, N});
  try {
    const auto pd = matmulPrimitiveDesc(onednn::descOf(A), onednn::descOf(B), hasBias, onednn::descOf(C), true);
    onednn::packedWeights(B, onednn::descOf(B), pd.weights_desc(), 2);
  } catch (const RuntimeError&) {
    // oneDNN has no primitive for this weight (its errors arrive as RuntimeError): the call raises it.
  } catch (const dnnl::error&) {
  }
}

void registerLinalgExtraOps(OperatorRegistry& r);  // linalg_extra.cpp

void registerLinalgOps(OperatorRegistry& r) {
  registerLinalgExtraOps(r);
  r.add("aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", linearOp);
  r.add("aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addmmOp);
  r.add("aten::addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", addmmInplaceOp);
  r.add("aten::mm(Tensor self, Tensor mat2) -> Tensor", mmOp);
  r.add("aten::mv(Tensor self, Tensor vec) -> Tensor", mvOp);
  r.add("aten::dot(Tensor self, Tensor tensor) -> Tensor", dotOp);
  r.add("aten::bmm(Tensor self, Tensor mat2) -> Tensor", bmmOp);
  r.add("aten::matmul(Tensor self, Tensor other) -> Tensor", matmulOp);
  r.add("aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", baddbmmOp);
}

}  // namespace kindling
