// Attention operators that PyTorch 1.13's nn.MultiheadAttention and nn.TransformerEncoder(Layer) call on their
// inference fast path (eval mode, batch_first, no grad), and the helpers around them:
//
//   aten::_native_multi_head_attention(q, k, v, embed_dim, num_head, qkv_weight, qkv_bias, proj_weight,
//       proj_bias, mask, need_weights, average_attn_weights, mask_type) -> (out (B, T, E), weights):
//       q/k/v projections (one matrix product when q, k, v are the same tensor), q scaled by 1/sqrt(head_dim),
//       softmax(q k^T) with a boolean mask (True = masked; mask_type 0: (T, S) attention mask, 1: (B, S) key
//       padding mask; fully masked rows give NaN), times v, output projection. weights are (B, T, S) averaged
//       over heads, (B, heads, T, S) when not averaged, undefined (None) when need_weights is false.
//   aten::_transformer_encoder_layer_fwd: one TransformerEncoderLayer (self attention, residual, layer norm,
//       linear-relu|gelu-linear, residual, layer norm; norm_first moves the norms before each block).
//   aten::_transform_bias_rescale_qkv(qkv (B, T, 3E), bias, heads) -> q, k, v (B, heads, T, E/heads), q scaled.
//   aten::_masked_softmax(x, mask, dim, mask_type) -> softmax over the unmasked entries (masked -> 0); the mask
//       has the input's shape; mask_type 1 (0 is not supported on CPU by PyTorch 1.13 either).
//   aten::_nested_tensor_from_mask_left_aligned(t, mask) -> bool: every row of mask is True...True False...False.
//   aten::is_autocast_enabled() -> False.
// Operators of PyTorch 2.x (schemas and semantics of its documentation and math backend):
//   aten::scaled_dot_product_attention(q (..., Hq, L, E), k (..., Hk, S, E), v (..., Hk, S, Ev), attn_mask,
//       dropout_p, is_causal, *, scale, enable_gqa) -> (..., Hq, L, Ev): softmax(q k^T * scale + bias) v with
//       scale 1/sqrt(E) by default, applied as sqrt(scale) to q and to k as PyTorch does; a boolean mask keeps
//       the True entries, a float mask is added; is_causal masks j > i (and excludes attn_mask); enable_gqa
//       repeats each of the Hk key/value heads Hq/Hk times. A row with every entry masked gives zeros
//       (PyTorch >= 2.5, _safe_softmax; earlier releases gave NaN).
//   aten::_safe_softmax(x, dim, dtype) -> softmax, with 0 for slices that are all -inf.
//   aten::_nested_tensor_from_mask(t (B, L, D), mask (B, L) True = keep, mask_check) -> a nested tensor;
//   aten::to_padded_tensor(nested, padding, output_size) -> (B, max length, D) dense, the rest `padding`.
// Float and double (the fast path's own dtypes on CPU). Nested tensors exist only as far as
// nn.TransformerEncoder's no-grad fast path with a src_key_padding_mask needs them (what torch.jit.trace records
// under no_grad): _nested_tensor_from_mask -> _transformer_encoder_layer_fwd ... -> to_padded_tensor. Kindling
// holds one as a Capsule (nested_tensor.h: the padded buffer and each sequence's length), not a Tensor, so
// any other operator given one fails with a type error instead of computing on the padding (the metadata
// queries TransformerEncoderLayer.forward makes before the fused call, dim / is_nested / requires_grad /
// device, answer for it).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "ops/kernels/attention/nested_tensor.h"
#include "ops/registry/kernel_args.h"
#include "ops/registry/op_call.h"
#include "ops/registry/operator.h"

namespace kindling {

namespace {

const OpHandle kLinear("aten::linear");
const OpHandle kMatmul("aten::matmul");
const OpHandle kLayerNorm("aten::layer_norm");
const OpHandle kGelu("aten::gelu");
const OpHandle kRelu("aten::relu");
const OpHandle kAdd("aten::add.Tensor");

void checkFloat(const Tensor& t, const char* op) {
  KD_CHECK(t.dtype() == ScalarType::Float || t.dtype() == ScalarType::Double, "{}: expected a float or double tensor, got {}",
           op, scalarTypeName(t.dtype()));
}

/// q, k, v (B, heads, L, dh) from a projected (B, L, 3E) or separate projections, bias added, q scaled.
void splitHeads(const Tensor& proj, int64_t heads, Tensor& out, bool scale) {
  // proj: (B, L, E) -> (B, heads, L, dh)
  const int64_t B = proj.size(0), L = proj.size(1), E = proj.size(2), dh = E / heads;
  out = proj.reshape({B, L, heads, dh}).permute({0, 2, 1, 3}).contiguous();
  if (scale) {
    const double s = 1.0 / std::sqrt(static_cast<double>(dh));
    if (out.dtype() == ScalarType::Float) {
      float* p = out.data_ptr<float>();
      for (int64_t i = 0; i < out.numel(); ++i) p[i] = static_cast<float>(p[i] * s);
    } else {
      double* p = out.data_ptr<double>();
      for (int64_t i = 0; i < out.numel(); ++i) p[i] *= s;
    }
  }
}

/// Row-wise softmax over the last dim of contiguous scores (..., rows, S), skipping masked entries.
/// maskAt(flatRow, j) -> true when masked. Fully masked rows are NaN, as ATen's masked softmax.
template <class T, class MaskFn>
void maskedSoftmaxRows(T* x, int64_t rows, int64_t S, MaskFn maskAt) {
  for (int64_t r = 0; r < rows; ++r) {
    T* row = x + r * S;
    T mx = -std::numeric_limits<T>::infinity();
    for (int64_t j = 0; j < S; ++j)
      if (!maskAt(r, j) && row[j] > mx) mx = row[j];
    if (mx == -std::numeric_limits<T>::infinity()) {  // every entry masked: NaN, as ATen's masked softmax
      for (int64_t j = 0; j < S; ++j) row[j] = std::numeric_limits<T>::quiet_NaN();
      continue;
    }
    T sum = 0;
    for (int64_t j = 0; j < S; ++j) {
      const T e = maskAt(r, j) ? T(0) : std::exp(row[j] - mx);
      row[j] = e;
      sum += e;
    }
    for (int64_t j = 0; j < S; ++j) row[j] /= sum;
  }
}

/// Softmax of scores (B, H, T, S) in place, with an optional boolean mask of type 0 ((T, S) or broadcastable
/// (B|1, H|1, T, S)), 1 ((B, S) key padding), or 2 (same shape as scores).
void applyMaskedSoftmax(Tensor& scores, const Tensor& mask0, std::optional<int64_t> maskType) {
  const int64_t B = scores.size(0), H = scores.size(1), T = scores.size(2), S = scores.size(3);
  Tensor mask;
  if (mask0.defined()) {
    Tensor m = mask0.dtype() == ScalarType::Bool ? mask0 : mask0.to(ScalarType::Bool);
    // Normalize to (B, H, T, S) by broadcasting: a 2-D mask is a key padding mask (B, S) for mask_type 1,
    // else an attention mask (T, S).
    if (m.dim() == 2) {
      const bool keyPadding = maskType ? *maskType == 1 : (m.size(0) == B && m.size(1) == S && m.size(0) != T);
      m = keyPadding ? m.reshape({B, 1, 1, S}) : m.reshape({1, 1, T, S});
    }
    while (m.dim() < 4) m = m.unsqueeze(0);
    mask = m.expand({B, H, T, S}).contiguous();
  }
  const bool* M = mask.defined() ? mask.data_ptr<bool>() : nullptr;
  auto maskAt = [&](int64_t r, int64_t j) { return M != nullptr && M[r * S + j]; };
  if (scores.dtype() == ScalarType::Float)
    maskedSoftmaxRows<float>(scores.data_ptr<float>(), B * H * T, S, maskAt);
  else
    maskedSoftmaxRows<double>(scores.data_ptr<double>(), B * H * T, S, maskAt);
}

/// The multi-head attention of the fast path. Returns (out, weights).
std::pair<Tensor, Tensor> nativeMha(const Tensor& query, const Tensor& key, const Tensor& value, int64_t E, int64_t heads,
                                    const Tensor& qkvW, const Tensor& qkvB, const Tensor& projW, const Tensor& projB,
                                    const Tensor& mask, bool needWeights, bool average, std::optional<int64_t> maskType) {
  const char* op = "_native_multi_head_attention";
  checkFloat(query, op);
  KD_CHECK(query.dim() == 3 && key.dim() == 3 && value.dim() == 3, "{}: expected 3-D query, key, value", op);
  KD_CHECK(query.sizes() == key.sizes() && key.sizes() == value.sizes(), "expected `query`/`key`/`value` shapes to match");
  KD_CHECK(query.size(2) == E && heads > 0 && E % heads == 0, "{}: embed_dim {} must match the query and be divisible by num_head {}",
           op, E, heads);
  KD_CHECK(qkvW.dim() == 2 && qkvW.size(0) == 3 * E && qkvW.size(1) == E, "{}: qkv_weight must be (3 * {}, {}), got {}", op, E, E,
           qkvW.sizesStr());
  const int64_t B = query.size(0), T = query.size(1), S = key.size(1);
  Tensor qp, kp, vp;
  if (query.is_same(key) && key.is_same(value)) {
    Tensor qkv = kLinear(query, qkvW, qkvB);  // (B, T, 3E)
    qp = qkv.narrow(2, 0, E);
    kp = qkv.narrow(2, E, E);
    vp = qkv.narrow(2, 2 * E, E);
  } else {
    auto part = [&](const Tensor& x, int64_t i) {
      return kLinear(x, qkvW.narrow(0, i * E, E), qkvB.defined() ? qkvB.narrow(0, i * E, E) : Tensor());
    };
    qp = part(query, 0);
    kp = part(key, 1);
    vp = part(value, 2);
  }
  Tensor q, k, v;
  splitHeads(qp, heads, q, true);
  splitHeads(kp, heads, k, false);
  splitHeads(vp, heads, v, false);
  Tensor scores = kMatmul(q, k.transpose(2, 3)).contiguous();  // (B, H, T, S)
  applyMaskedSoftmax(scores, mask, maskType);
  Tensor ctx = kMatmul(scores, v);  // (B, H, T, dh)
  ctx = ctx.permute({0, 2, 1, 3}).reshape({B, T, E});
  Tensor out = kLinear(ctx, projW, projB);
  Tensor weights;
  if (!needWeights) {
    // undefined, as PyTorch's kernel returns: None to Python and to `weights is None` in compiled code
  } else if (average) {  // sum over heads / heads, as PyTorch: qkt.sum(dim=1) / num_head
    weights = Tensor::empty({B, T, S}, query.dtype());
    auto avg = [&](auto* W, const auto* P) {
      using V = std::remove_const_t<std::remove_pointer_t<decltype(P)>>;
      for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < T * S; ++i) {
          V acc = 0;
          for (int64_t h = 0; h < heads; ++h) acc += P[(b * heads + h) * T * S + i];
          W[b * T * S + i] = acc / static_cast<V>(heads);
        }
    };
    if (query.dtype() == ScalarType::Float)
      avg(weights.data_ptr<float>(), static_cast<const float*>(scores.data_ptr<float>()));
    else
      avg(weights.data_ptr<double>(), static_cast<const double*>(scores.data_ptr<double>()));
  } else {
    weights = scores;
  }
  return {out, weights};
}

void nativeMhaOp(Stack& s) {
  Args a(s, 13);
  auto r = nativeMha(a.tensor(0), a.tensor(1), a.tensor(2), a.toInt(3), a.toInt(4), a.tensor(5), a.optTensor(6), a.tensor(7),
                     a.optTensor(8), a.optTensor(9), a.toBool(10), a.toBool(11), a.optInt(12));
  a.ret(r.first, r.second);
}

Tensor layerNorm(const Tensor& x, const Tensor& w, const Tensor& b, double eps) {
  return kLayerNorm(x, makeIntList({x.size(x.dim() - 1)}), w, b, eps, true);
}

/// (B, L) bool key padding mask of a nested tensor: True past each sequence's length.
Tensor paddingMaskOf(const NestedTensor& n) {
  const int64_t B = n.padded.size(0), L = n.padded.size(1);
  Tensor m = Tensor::empty({B, L}, ScalarType::Bool);
  bool* p = m.data_ptr<bool>();
  for (int64_t b = 0; b < B; ++b)
    for (int64_t j = 0; j < L; ++j) p[b * L + j] = j >= n.lengths[static_cast<size_t>(b)];
  return m;
}

void transformerEncoderLayerOp(Stack& s) {
  Args a(s, 20);
  const NestedTensor* nested = asNested(a[0]);
  const Tensor src = nested ? nested->padded : a.tensor(0);
  checkFloat(src, "_transformer_encoder_layer_fwd");
  KD_CHECK(src.dim() == 3, "_transformer_encoder_layer_fwd: expected a 3-D (batch, seq, embed) input, got {}D", src.dim());
  const int64_t E = a.toInt(1), heads = a.toInt(2);
  const Tensor qkvW = a.tensor(3), qkvB = a.tensor(4), projW = a.tensor(5), projB = a.tensor(6);
  const bool useGelu = a.toBool(7), normFirst = a.toBool(8);
  const double eps = a.toDouble(9);
  const Tensor n1w = a.tensor(10), n1b = a.tensor(11), n2w = a.tensor(12), n2b = a.tensor(13);
  const Tensor f1w = a.tensor(14), f1b = a.tensor(15), f2w = a.tensor(16), f2b = a.tensor(17);
  Tensor mask = a.optTensor(18);
  std::optional<int64_t> maskType = a.optInt(19);
  if (nested) {  // each sequence attends to its own tokens only: the padding is a key padding mask
    KD_CHECK(!mask.defined(), "_transformer_encoder_layer_fwd: Kindling does not support a mask with a nested tensor input");
    mask = paddingMaskOf(*nested);
    maskType = 1;
  }
  Tensor x = src;
  if (normFirst) x = layerNorm(x, n1w, n1b, eps);
  x = nativeMha(x, x, x, E, heads, qkvW, qkvB, projW, projB, mask, false, true, maskType).first;
  x = kAdd(x, src, Scalar(int64_t(1)));
  if (!normFirst) x = layerNorm(x, n1w, n1b, eps);
  const Tensor res = x;
  if (normFirst) x = layerNorm(x, n2w, n2b, eps);
  x = kLinear(x, f1w, f1b);
  x = useGelu ? kGelu(x, std::string("none")) : kRelu(x);
  x = kLinear(x, f2w, f2b);
  x = kAdd(x, res, Scalar(int64_t(1)));
  if (!normFirst) x = layerNorm(x, n2w, n2b, eps);
  if (nested) {
    std::vector<int64_t> lengths = nested->lengths;
    a.ret(makeNested(x, std::move(lengths)));
  } else {
    a.ret(x);
  }
}

void transformBiasRescaleQkvOp(Stack& s) {
  Args a(s, 3);
  const Tensor qkv = a.tensor(0), bias = a.tensor(1);
  const int64_t heads = a.toInt(2);
  checkFloat(qkv, "_transform_bias_rescale_qkv");
  KD_CHECK(qkv.dim() == 3 && qkv.size(2) % 3 == 0, "_transform_bias_rescale_qkv: expected (B, T, 3 * D), got {}",
           qkv.sizesStr());
  const int64_t E = qkv.size(2) / 3;
  KD_CHECK(heads > 0 && E % heads == 0, "_transform_bias_rescale_qkv: D {} not divisible by num_heads {}", E, heads);
  Tensor withBias = kAdd(qkv, bias, Scalar(int64_t(1)));
  Tensor q, k, v;
  splitHeads(withBias.narrow(2, 0, E), heads, q, true);
  splitHeads(withBias.narrow(2, E, E), heads, k, false);
  splitHeads(withBias.narrow(2, 2 * E, E), heads, v, false);
  a.ret(q, k, v);
}

void maskedSoftmaxOp(Stack& s) {
  Args a(s, 4);
  Tensor x = a.tensor(0);
  const Tensor mask = a.tensor(1);
  const std::optional<int64_t> maskType = a.optInt(3);
  KD_CHECK(x.sizes() == mask.sizes(), "Mask shape should match input shape");
  KD_CHECK(mask.dtype() == ScalarType::Bool, "Mask should be a boolean tensor");
  KD_CHECK(maskType.has_value(), "Mask Type should be defined");
  KD_CHECK(*maskType == 0 || *maskType == 1, "Mask Type should be 0 (src_mask) or 1 (src_key_padding_mask)");
  KD_CHECK(*maskType == 1, "src_mask not currently supported on CPU");
  checkFloat(x, "_masked_softmax");
  const int64_t nd = x.dim();
  const int64_t dim = a.optInt(2).value_or(nd - 1);
  KD_CHECK(nd >= 1 && (dim == nd - 1 || dim == -1), "_masked_softmax: Kindling supports the last dimension only, got dim {}",
           dim);
  Tensor out = x.contiguous().clone();
  Tensor m = mask.contiguous();
  const bool* M = m.data_ptr<bool>();
  const int64_t S = x.size(nd - 1), rows = S == 0 ? 0 : x.numel() / S;
  auto maskAt = [&](int64_t r, int64_t j) { return M[r * S + j]; };
  if (out.dtype() == ScalarType::Float)
    maskedSoftmaxRows<float>(out.data_ptr<float>(), rows, S, maskAt);
  else
    maskedSoftmaxRows<double>(out.data_ptr<double>(), rows, S, maskAt);
  a.ret(out);
}

void nestedFromMaskLeftAlignedOp(Stack& s) {
  Args a(s, 2);
  Tensor mask = a.tensor(1);
  KD_CHECK(mask.dim() == 2, "_nested_tensor_from_mask_left_aligned: mask must be 2-D (batch, seq), got {}D", mask.dim());
  mask = mask.to(ScalarType::Bool).contiguous();
  const bool* m = mask.data_ptr<bool>();
  const int64_t B = mask.size(0), S = mask.size(1);
  bool ok = true;
  for (int64_t b = 0; b < B && ok; ++b) {
    bool seenFalse = false;
    for (int64_t j = 0; j < S; ++j) {
      if (!m[b * S + j]) seenFalse = true;
      else if (seenFalse) { ok = false; break; }
    }
  }
  a.ret(ok);
}

/// torch.is_autocast_enabled(): Kindling has no autocast (mixed-precision) mode; the attention modules' fast-path
/// checks call it.
void isAutocastEnabledOp(Stack& s) { s.emplace_back(false); }

/// aten::_nested_tensor_from_mask (NestedTensorTransformerFunctions.cpp): sequence b is t[b, :L_b] with L_b the
/// number of True entries of mask[b]; mask_check requires every row to be True...True False...False.
void nestedFromMaskOp(Stack& s) {
  Args a(s, 3);
  const Tensor t = a.tensor(0), mask = a.tensor(1);
  const bool maskCheck = a.toBool(2);
  KD_CHECK(mask.dtype() == ScalarType::Bool, "Expected mask to be of ScalarType Bool, but got {} instead.",
           scalarTypeName(mask.dtype()));
  KD_CHECK(mask.dim() == 2, "Padding mask should be 2D");
  KD_CHECK(t.dim() == 3, "Input should be a 3D tensor, N * L * D");
  KD_CHECK(t.size(0) == mask.size(0) && t.size(1) == mask.size(1), "Mask size should match input size");
  const Tensor m = mask.contiguous();
  const bool* p = m.data_ptr<bool>();
  const int64_t B = m.size(0), L = m.size(1);
  std::vector<int64_t> lengths(static_cast<size_t>(B));
  for (int64_t b = 0; b < B; ++b) {
    int64_t count = 0, firstFalse = L;
    for (int64_t j = 0; j < L; ++j) {
      if (p[b * L + j]) ++count;
      else if (firstFalse == L) firstFalse = j;
    }
    KD_CHECK(!maskCheck || count == firstFalse, "Mask must be left-aligned without gaps");
    lengths[static_cast<size_t>(b)] = count;
  }
  a.ret(makeNested(t.clone(), std::move(lengths)));
}

/// aten::to_padded_tensor: (B, max L_b, D), or output_size when given (each dim at least the nested one's).
void toPaddedTensorOp(Stack& s) {
  Args a(s, 3);
  const NestedTensor* n = asNested(a[0]);
  KD_CHECK(n != nullptr, "to_padded_tensor: expected a nested tensor, got a {} (only nested tensors can be padded)",
           a[0].tagName());
  const double padding = a.toDouble(1);
  const auto outputSize = a.optIntList(2);
  const int64_t B = n->padded.size(0), D = n->padded.size(2);
  int64_t maxLen = 0;
  for (int64_t len : n->lengths) maxLen = std::max(maxLen, len);
  IntArray sizes{B, maxLen, D};
  if (outputSize) {
    KD_CHECK(outputSize->size() == 3, "Length of output_size does not match NestedTensor dims. Broadcasting is not supported.");
    for (size_t i = 0; i < 3; ++i) {
      KD_CHECK((*outputSize)[i] >= sizes[i], "Value in output_size is less than NestedTensor padded size. Truncation is not supported.");
      sizes[i] = (*outputSize)[i];
    }
  }
  Tensor out = Tensor::full(sizes, Scalar(padding), n->padded.dtype());
  for (int64_t b = 0; b < B; ++b) {
    const int64_t len = n->lengths[static_cast<size_t>(b)];
    if (len > 0) out.select(0, b).narrow(0, 0, len).narrow(1, 0, D).copy_(n->padded.select(0, b).narrow(0, 0, len));
  }
  a.ret(out);
}

}  // namespace

namespace {

const OpHandle kSoftmax("aten::softmax.int");
const OpHandle kEqScalar("aten::eq.Scalar");
const OpHandle kAllDim("aten::all.dim");
const OpHandle kMaskedFill("aten::masked_fill.Scalar");
const OpHandle kMulScalar("aten::mul.Scalar");
const OpHandle kTranspose("aten::transpose.int");
const OpHandle kLogicalNot("aten::logical_not");
const OpHandle kOnes("aten::ones");
const OpHandle kTril("aten::tril");
const OpHandle kZerosLike("aten::zeros_like");
const OpHandle kRepeatInterleave("aten::repeat_interleave.self_int");
const OpHandle kDropout("aten::dropout");

/// softmax along dim with 0 where the whole slice is -inf (PyTorch 2.5's _safe_softmax).
Tensor safeSoftmax(const Tensor& x, int64_t dim, const IValue& dtype) {
  Tensor y = kSoftmax(x, dim, dtype);
  Tensor allMasked = kAllDim(kEqScalar(x, Scalar(-std::numeric_limits<double>::infinity())), dim, true);
  return kMaskedFill(y, allMasked, Scalar(0.0));
}

void safeSoftmaxOp(Stack& s) {
  IValue dtype = pop(s);
  int64_t dim = pop(s).toInt();
  Tensor x = pop(s).toTensor();
  s.emplace_back(safeSoftmax(x, dim, dtype));
}

void scaledDotProductAttentionOp(Stack& s) {
  const bool enableGqa = pop(s).toBool();
  IValue scaleArg = pop(s);
  const bool isCausal = pop(s).toBool();
  const double dropoutP = pop(s).toDouble();
  IValue maskArg = pop(s);
  Tensor v = pop(s).toTensor(), k = pop(s).toTensor(), q = pop(s).toTensor();
  KD_CHECK(q.dim() >= 2 && k.dim() >= 2 && v.dim() >= 2, "scaled_dot_product_attention: query, key and value must have at least 2 dimensions");
  KD_CHECK(isFloatingType(q.dtype()) && q.dtype() == k.dtype() && q.dtype() == v.dtype(),
           "Expected query, key, and value to have the same dtype, but got query.dtype: {} key.dtype: {} and value.dtype: {} instead.",
           scalarTypeName(q.dtype()), scalarTypeName(k.dtype()), scalarTypeName(v.dtype()));
  KD_CHECK(q.size(-1) == k.size(-1), "scaled_dot_product_attention: query and key must have the same last dimension, got {} and {}",
           q.size(-1), k.size(-1));
  KD_CHECK(!(isCausal && !maskArg.isNone()), "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
  if (enableGqa && q.dim() >= 3 && k.dim() >= 3) {
    const int64_t hq = q.size(-3), hk = k.size(-3);
    KD_CHECK(hk > 0 && hq % hk == 0 && v.size(-3) == hk,
             "scaled_dot_product_attention: with enable_gqa the number of query heads ({}) must be a multiple of the key/value heads ({})",
             hq, hk);
    if (hq != hk) {
      k = kRepeatInterleave(k, hq / hk, int64_t(-3), IValue());
      v = kRepeatInterleave(v, hq / hk, int64_t(-3), IValue());
    }
  }
  const double scale = scaleArg.isNone() ? 1.0 / std::sqrt(static_cast<double>(q.size(-1))) : scaleArg.toDouble();
  const double root = std::sqrt(std::fabs(scale));
  Tensor qs = kMulScalar(q, Scalar(scale < 0 ? -root : root));
  Tensor attn = kMatmul(qs, kMulScalar(kTranspose(k, int64_t(-2), int64_t(-1)), Scalar(root)));
  const double ninf = -std::numeric_limits<double>::infinity();
  if (isCausal) {
    Tensor keep = kTril(kOnes(makeIntList({q.size(-2), k.size(-2)}), IValue(int64_t(ScalarType::Bool)), IValue(), IValue(), IValue()), int64_t(0));
    attn = kMaskedFill(attn, kLogicalNot(keep), Scalar(ninf));
  } else if (!maskArg.isNone()) {
    Tensor mask = maskArg.toTensor();
    if (mask.dtype() == ScalarType::Bool)
      attn = kMaskedFill(attn, kLogicalNot(mask), Scalar(ninf));
    else
      attn = kAdd(attn, mask, Scalar(int64_t(1)));
  }
  attn = safeSoftmax(attn, -1, IValue());
  if (dropoutP > 0) attn = kDropout(attn, dropoutP, true);
  s.emplace_back(kMatmul(attn, v));
}

void registerAttentionOps2x(OperatorRegistry& r) {
  r.add("aten::scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
        "float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor",
        scaledDotProductAttentionOp);
  r.add("aten::_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", safeSoftmaxOp);
}

}  // namespace

void registerAttentionOps(OperatorRegistry& r) {
  registerAttentionOps2x(r);
  r.add("aten::_native_multi_head_attention(Tensor query, Tensor key, Tensor value, int embed_dim, int num_head, "
        "Tensor qkv_weight, Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, Tensor? mask=None, "
        "bool need_weights=True, bool average_attn_weights=True, int? mask_type=None) -> (Tensor, Tensor)", nativeMhaOp);
  r.add("aten::_transformer_encoder_layer_fwd(Tensor src, int embed_dim, int num_heads, Tensor qkv_weight, "
        "Tensor qkv_bias, Tensor proj_weight, Tensor proj_bias, bool use_gelu, bool norm_first, float eps, "
        "Tensor norm_weight_1, Tensor norm_bias_1, Tensor norm_weight_2, Tensor norm_bias_2, Tensor ffn_weight_1, "
        "Tensor ffn_bias_1, Tensor ffn_weight_2, Tensor ffn_bias_2, Tensor? mask=None, int? mask_type=None) -> Tensor",
        transformerEncoderLayerOp);
  r.add("aten::_transform_bias_rescale_qkv(Tensor qkv, Tensor qkv_bias, int num_heads) -> (Tensor, Tensor, Tensor)",
        transformBiasRescaleQkvOp);
  r.add("aten::_masked_softmax(Tensor self, Tensor mask, int? dim=None, int? mask_type=None) -> Tensor", maskedSoftmaxOp);
  r.add("aten::_nested_tensor_from_mask_left_aligned(Tensor t, Tensor mask) -> bool", nestedFromMaskLeftAlignedOp);
  r.add("aten::_nested_tensor_from_mask(Tensor t, Tensor mask, bool mask_check=True) -> Tensor", nestedFromMaskOp);
  r.add("aten::to_padded_tensor(Tensor self, float padding, int[]? output_size=None) -> Tensor", toPaddedTensorOp);
  r.add("aten::is_autocast_enabled() -> bool", isAutocastEnabledOp);
}

}  // namespace kindling
