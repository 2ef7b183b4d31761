// Sliding-block extraction and its inverse, the operators F.unfold and F.fold end in (PyTorch 1.13):
//   aten::im2col(self (N, C, H, W) | (C, H, W), kernel_size, dilation, padding, stride) -> (N, C*kh*kw, L):
//       column (c, i, j) of block l holds input[c, oh*sh - ph + i*dh, ow*sw - pw + j*dw] (0 in the padding),
//       L = number of block positions, channel-major rows as ATen orders them;
//   aten::col2im(self (N, C*kh*kw, L) | (C*kh*kw, L), output_size, kernel_size, dilation, padding, stride)
//       -> (N, C, H, W): the blocks summed back into place (overlaps add up).
// An unbatched input gives an unbatched result. ATen's argument checks and messages.
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

struct BlockParams {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
};

BlockParams readParams(const IntArray& k, const IntArray& d, const IntArray& p, const IntArray& s) {
  KD_CHECK(k.size() == 2, "It is expected kernel_size equals to 2, but got size {}", k.size());
  KD_CHECK(d.size() == 2, "It is expected dilation equals to 2, but got size {}", d.size());
  KD_CHECK(p.size() == 2, "It is expected padding equals to 2, but got size {}", p.size());
  KD_CHECK(s.size() == 2, "It is expected stride equals to 2, but got size {}", s.size());
  BlockParams b{k[0], k[1], d[0], d[1], p[0], p[1], s[0], s[1]};
  KD_CHECK(b.kw > 0 && b.kh > 0, "kernel size should be greater than zero, but got kernel_height: {} kernel_width: {}",
           b.kh, b.kw);
  KD_CHECK(b.dw > 0 && b.dh > 0, "dilation should be greater than zero, but got dilation_height: {} dilation_width: {}",
           b.dh, b.dw);
  KD_CHECK(b.pw >= 0 && b.ph >= 0, "padding should be non-negative, but got pad_height: {} pad_width: {}", b.ph, b.pw);
  KD_CHECK(b.sw > 0 && b.sh > 0, "stride should be greater than zero, but got dH: {} dW: {}", b.sh, b.sw);
  return b;
}

int64_t blocksAlong(int64_t size, int64_t k, int64_t d, int64_t p, int64_t s) {
  return (size + 2 * p - (d * (k - 1) + 1)) / s + 1;
}

/// Walks every (channel, kernel offset, block) triple: f(colIndex, imageIndex or -1 for padding).
template <class F>
void forEachTap(const BlockParams& b, int64_t C, int64_t H, int64_t W, int64_t oh, int64_t ow, F f) {
  for (int64_t c = 0; c < C; ++c)
    for (int64_t i = 0; i < b.kh; ++i)
      for (int64_t j = 0; j < b.kw; ++j) {
        const int64_t row = (c * b.kh + i) * b.kw + j;
        for (int64_t y = 0; y < oh; ++y) {
          const int64_t hy = y * b.sh - b.ph + i * b.dh;
          for (int64_t x = 0; x < ow; ++x) {
            const int64_t wx = x * b.sw - b.pw + j * b.dw;
            const int64_t col = (row * oh + y) * ow + x;
            f(col, hy >= 0 && hy < H && wx >= 0 && wx < W ? (c * H + hy) * W + wx : int64_t(-1));
          }
        }
      }
}

void im2colK(Stack& s) {
  Args a(s, 5);
  const Tensor self = a.tensor(0);
  const BlockParams b = readParams(a.intList(1, 2), a.intList(2, 2), a.intList(3, 2), a.intList(4, 2));
  bool validDims = self.dim() == 3 || self.dim() == 4;
  if (validDims)
    for (int64_t d = self.dim() - 3; d < self.dim(); ++d) validDims = validDims && self.size(d) != 0;
  KD_CHECK(validDims, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
           "for input, but got: {}", self.sizesStr());
  const bool batched = self.dim() == 4;
  const Tensor in = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t N = in.size(0), C = in.size(1), H = in.size(2), W = in.size(3);
  const int64_t oh = blocksAlong(H, b.kh, b.dh, b.ph, b.sh), ow = blocksAlong(W, b.kw, b.dw, b.pw, b.sw);
  KD_CHECK(oh >= 1 && ow >= 1, "Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), "
           "padding=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), but its components must "
           "be at least one.", H, W, b.kh, b.kw, b.dh, b.dw, b.ph, b.pw, oh, ow);
  Tensor out = Tensor::empty({N, C * b.kh * b.kw, oh * ow}, in.dtype());
  dispatchLoopTypes(in.dtype(), "im2col", [&](auto tag) {
    using T = decltype(tag);
    const int64_t inPlane = C * H * W, outPlane = C * b.kh * b.kw * oh * ow;
    for (int64_t n = 0; n < N; ++n) {
      const T* src = in.data_ptr<T>() + n * inPlane;
      T* dst = out.data_ptr<T>() + n * outPlane;
      forEachTap(b, C, H, W, oh, ow, [&](int64_t col, int64_t idx) { dst[col] = idx >= 0 ? src[idx] : T(0); });
    }
  });
  a.ret(batched ? out : out.squeeze(0));
}

void col2imK(Stack& s) {
  Args a(s, 6);
  const Tensor self = a.tensor(0);
  const IntArray outSize = a.intList(1, 2);
  KD_CHECK(outSize.size() == 2, "It is expected output_size equals to 2, but got size {}", outSize.size());
  const BlockParams b = readParams(a.intList(2, 2), a.intList(3, 2), a.intList(4, 2), a.intList(5, 2));
  bool validDims = self.dim() == 2 || self.dim() == 3;
  if (validDims)
    for (int64_t d = self.dim() - 2; d < self.dim(); ++d) validDims = validDims && self.size(d) != 0;
  KD_CHECK(validDims, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
           "dimensions for input, but got: {}", self.sizesStr());
  const bool batched = self.dim() == 3;
  const Tensor in = (batched ? self : self.unsqueeze(0)).contiguous();
  const int64_t H = outSize[0], W = outSize[1];
  const int64_t kprod = b.kh * b.kw;
  KD_CHECK(in.size(1) % kprod == 0, "Expected size of input's dimension 1 to be divisible by the product of "
           "kernel_size, but got input.size(1)={} and kernel_size=({}, {})", in.size(1), b.kh, b.kw);
  const int64_t oh = blocksAlong(H, b.kh, b.dh, b.ph, b.sh), ow = blocksAlong(W, b.kw, b.dw, b.pw, b.sw);
  KD_CHECK(oh >= 1 && ow >= 1, "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, "
           "{}), stride=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), which is too small "
           "(non-positive)", H, W, b.kh, b.kw, b.dh, b.dw, b.ph, b.pw, b.sh, b.sw, oh, ow);
  KD_CHECK(in.size(2) == oh * ow, "Given output_size=({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, "
           "{}), stride=({}, {}), expected size of input's dimension 2 to match the calculated number of sliding "
           "blocks {} * {} = {}, but got input.size(2)={}.", H, W, b.kh, b.kw, b.dh, b.dw, b.ph, b.pw, b.sh, b.sw, oh,
           ow, oh * ow, in.size(2));
  const int64_t N = in.size(0), C = in.size(1) / kprod;
  Tensor out = Tensor::zeros({N, C, H, W}, in.dtype());
  dispatchLoopTypesNoBool(in.dtype(), "col2im", [&](auto tag) {
    using T = decltype(tag);
    const int64_t inPlane = in.size(1) * in.size(2), outPlane = C * H * W;
    for (int64_t n = 0; n < N; ++n) {
      const T* src = in.data_ptr<T>() + n * inPlane;
      T* dst = out.data_ptr<T>() + n * outPlane;
      forEachTap(b, C, H, W, oh, ow, [&](int64_t col, int64_t idx) {
        if (idx >= 0) dst[idx] += src[col];
      });
    }
  });
  a.ret(batched ? out : out.squeeze(0));
}

}  // namespace

void registerIm2colOps(OperatorRegistry& r) {
  r.add("aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
        im2colK);
  r.add("aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] "
        "stride) -> Tensor",
        col2imK);
}

}  // namespace kindling
