// Spatial sampling operators that F.grid_sample and F.affine_grid end in (PyTorch 1.13, CPU semantics of
// ATen's GridSampler):
//   aten::grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners): 4-d input → grid_sampler_2d,
//       5-d → grid_sampler_3d.
//   aten::grid_sampler_2d(input (N, C, H, W), grid (N, Ho, Wo, 2)) -> (N, C, Ho, Wo): grid[..., 0] is x (width),
//       grid[..., 1] is y, both in [-1, 1] (the corner pixels' centers with align_corners, their outer edges
//       without). interpolation 0 bilinear, 1 nearest (round half to even), 2 bicubic (A = -0.75); padding
//       0 zeros (outside samples are 0), 1 border (coordinates clipped), 2 reflection (coordinates reflected at
//       the border, then clipped). Bicubic pads the 16 integer taps rather than the source coordinate, as ATen.
//   aten::grid_sampler_3d(input (N, C, D, H, W), grid (N, Do, Ho, Wo, 3)): trilinear (0) and nearest (1).
//   aten::affine_grid_generator(theta (N, 2, 3) | (N, 3, 4), size, align_corners) -> (N, H, W, 2) |
//       (N, D, H, W, 3): the affine image of the base grid of normalized coordinates.
// Float and double; the checks and messages of ATen's check_grid_sampler_common.
#include <cmath>
#include <vector>

#include "ops/registry/kernel_args.h"
#include "ops/registry/operator.h"
#include "tensor/tensor_iterator.h"

namespace kindling {

namespace {

enum Interp : int64_t { kBilinear = 0, kNearest = 1, kBicubic = 2 };
enum Padding : int64_t { kZeros = 0, kBorder = 1, kReflection = 2 };

template <class T> T unnormalize(T coord, int64_t size, bool alignCorners) {
  if (alignCorners) return ((coord + 1) / 2) * static_cast<T>(size - 1);
  return ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <class T> T clipCoordinates(T in, int64_t size) {
  return std::min(static_cast<T>(size - 1), std::max(in, static_cast<T>(0)));
}

// reflects `in` into [twiceLow / 2, twiceHigh / 2] (bounds doubled so that half-integers stay exact)
template <class T> T reflectCoordinates(T in, int64_t twiceLow, int64_t twiceHigh) {
  if (twiceLow == twiceHigh) return static_cast<T>(0);
  const T mn = static_cast<T>(twiceLow) / 2, span = static_cast<T>(twiceHigh - twiceLow) / 2;
  in = std::fabs(in - mn);
  const T extra = std::fmod(in, span);
  const int64_t flips = static_cast<int64_t>(std::floor(in / span));
  return flips % 2 == 0 ? extra + mn : span - extra + mn;
}

// padding applied to an unnormalized coordinate
template <class T> T padCoordinate(T coord, int64_t size, int64_t padding, bool alignCorners) {
  if (padding == kBorder) {
    coord = clipCoordinates(coord, size);
  } else if (padding == kReflection) {
    coord = alignCorners ? reflectCoordinates(coord, 0, 2 * (size - 1)) : reflectCoordinates(coord, -1, 2 * size - 1);
    coord = clipCoordinates(coord, size);
  }
  return coord;
}

template <class T> T sourceIndex(T coord, int64_t size, int64_t padding, bool alignCorners) {
  return padCoordinate(unnormalize(coord, size, alignCorners), size, padding, alignCorners);
}

inline bool inBounds2d(int64_t h, int64_t w, int64_t H, int64_t W) { return h >= 0 && h < H && w >= 0 && w < W; }

template <class T> T cubicConv1(T x, T A) { return ((A + 2) * x - (A + 3)) * x * x + 1; }
template <class T> T cubicConv2(T x, T A) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; }
template <class T> void cubicCoefficients(T coeffs[4], T t) {
  const T A = static_cast<T>(-0.75);
  coeffs[0] = cubicConv2<T>(t + 1, A);
  coeffs[1] = cubicConv1<T>(t, A);
  coeffs[2] = cubicConv1<T>(1 - t, A);
  coeffs[3] = cubicConv2<T>(2 - t, A);
}

void checkGridSampler(const Tensor& input, const Tensor& grid, int64_t interp) {
  KD_CHECK(input.dtype() == grid.dtype(),
           "grid_sampler(): expected input and grid to have same dtype, but input has {} and grid has {}",
           scalarTypeName(input.dtype()), scalarTypeName(grid.dtype()));
  KD_CHECK(input.dim() == grid.dim() && (input.dim() == 4 || input.dim() == 5),
           "grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but got input with "
           "sizes {} and grid with sizes {}", input.sizesStr(), grid.sizesStr());
  KD_CHECK(input.size(0) == grid.size(0),
           "grid_sampler(): expected grid and input to have same batch size, but got input with sizes {} and grid "
           "with sizes {}", input.sizesStr(), grid.sizesStr());
  KD_CHECK(grid.size(-1) == input.dim() - 2,
           "grid_sampler(): expected grid to have size {} in last dimension, but got grid with sizes {}",
           input.dim() - 2, grid.sizesStr());
  for (int64_t i = 2; i < input.dim(); ++i)
    KD_CHECK(input.size(i) > 0,
             "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes {} with "
             "dimension {} being empty", input.sizesStr(), i);
  KD_CHECK(interp != kBicubic || input.dim() == 4, "grid_sampler(): bicubic interpolation only supports 4D input");
}

template <class T>
void gridSample2d(const Tensor& inputIn, const Tensor& gridIn, Tensor& out, int64_t interp, int64_t padding,
                  bool alignCorners) {
  const Tensor input = inputIn.contiguous(), grid = gridIn.contiguous();
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t Ho = grid.size(1), Wo = grid.size(2);
  const T* in = input.data_ptr<T>();
  const T* g = grid.data_ptr<T>();
  T* o = out.data_ptr<T>();
  const int64_t plane = H * W, oplane = Ho * Wo;
  // one value of plane `p` at integer (y, x), 0 outside
  auto at = [&](const T* p, int64_t y, int64_t x) -> T { return inBounds2d(y, x, H, W) ? p[y * W + x] : T(0); };
  // bicubic taps: integer coordinates padded as source coordinates are
  auto tap = [&](const T* p, int64_t y, int64_t x) -> T {
    const int64_t xx = static_cast<int64_t>(padCoordinate(static_cast<T>(x), W, padding, alignCorners));
    const int64_t yy = static_cast<int64_t>(padCoordinate(static_cast<T>(y), H, padding, alignCorners));
    return at(p, yy, xx);
  };
#pragma omp parallel for collapse(2) if (N * oplane * C > 32768)
  for (int64_t n = 0; n < N; ++n)
    for (int64_t s = 0; s < oplane; ++s) {
      const T gx = g[(n * oplane + s) * 2], gy = g[(n * oplane + s) * 2 + 1];
      const T* inN = in + n * C * plane;
      T* oN = o + n * C * oplane + s;
      if (interp == kBilinear) {
        const T ix = sourceIndex(gx, W, padding, alignCorners), iy = sourceIndex(gy, H, padding, alignCorners);
        const int64_t x0 = static_cast<int64_t>(std::floor(ix)), y0 = static_cast<int64_t>(std::floor(iy));
        const T tx = ix - static_cast<T>(x0), ty = iy - static_cast<T>(y0);
        const T nw = (1 - tx) * (1 - ty), ne = tx * (1 - ty), sw = (1 - tx) * ty, se = tx * ty;
        for (int64_t c = 0; c < C; ++c) {
          const T* p = inN + c * plane;
          oN[c * oplane] = at(p, y0, x0) * nw + at(p, y0, x0 + 1) * ne + at(p, y0 + 1, x0) * sw +
                           at(p, y0 + 1, x0 + 1) * se;
        }
      } else if (interp == kNearest) {
        const T ix = sourceIndex(gx, W, padding, alignCorners), iy = sourceIndex(gy, H, padding, alignCorners);
        const int64_t xn = static_cast<int64_t>(std::nearbyint(ix)), yn = static_cast<int64_t>(std::nearbyint(iy));
        for (int64_t c = 0; c < C; ++c) oN[c * oplane] = at(inN + c * plane, yn, xn);
      } else {
        const T ix = unnormalize(gx, W, alignCorners), iy = unnormalize(gy, H, alignCorners);
        const T fx = std::floor(ix), fy = std::floor(iy);
        const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
        T cx[4], cy[4];
        cubicCoefficients(cx, ix - fx);
        cubicCoefficients(cy, iy - fy);
        for (int64_t c = 0; c < C; ++c) {
          const T* p = inN + c * plane;
          T acc = 0;
          for (int64_t i = 0; i < 4; ++i) {
            T row = 0;
            for (int64_t j = 0; j < 4; ++j) row += tap(p, y0 - 1 + i, x0 - 1 + j) * cx[j];
            acc += row * cy[i];
          }
          oN[c * oplane] = acc;
        }
      }
    }
}

template <class T>
void gridSample3d(const Tensor& inputIn, const Tensor& gridIn, Tensor& out, int64_t interp, int64_t padding,
                  bool alignCorners) {
  const Tensor input = inputIn.contiguous(), grid = gridIn.contiguous();
  const int64_t N = input.size(0), C = input.size(1), D = input.size(2), H = input.size(3), W = input.size(4);
  const int64_t oplane = grid.size(1) * grid.size(2) * grid.size(3), plane = D * H * W;
  const T* in = input.data_ptr<T>();
  const T* g = grid.data_ptr<T>();
  T* o = out.data_ptr<T>();
  auto at = [&](const T* p, int64_t z, int64_t y, int64_t x) -> T {
    return z >= 0 && z < D && y >= 0 && y < H && x >= 0 && x < W ? p[(z * H + y) * W + x] : T(0);
  };
#pragma omp parallel for collapse(2) if (N * oplane * C > 32768)
  for (int64_t n = 0; n < N; ++n)
    for (int64_t s = 0; s < oplane; ++s) {
      const T* gp = g + (n * oplane + s) * 3;
      const T ix = sourceIndex(gp[0], W, padding, alignCorners), iy = sourceIndex(gp[1], H, padding, alignCorners),
              iz = sourceIndex(gp[2], D, padding, alignCorners);
      const T* inN = in + n * C * plane;
      T* oN = o + n * C * oplane + s;
      if (interp == kNearest) {
        const int64_t xn = static_cast<int64_t>(std::nearbyint(ix)), yn = static_cast<int64_t>(std::nearbyint(iy)),
                      zn = static_cast<int64_t>(std::nearbyint(iz));
        for (int64_t c = 0; c < C; ++c) oN[c * oplane] = at(inN + c * plane, zn, yn, xn);
        continue;
      }
      const int64_t x0 = static_cast<int64_t>(std::floor(ix)), y0 = static_cast<int64_t>(std::floor(iy)),
                    z0 = static_cast<int64_t>(std::floor(iz));
      const T tx = ix - static_cast<T>(x0), ty = iy - static_cast<T>(y0), tz = iz - static_cast<T>(z0);
      for (int64_t c = 0; c < C; ++c) {
        const T* p = inN + c * plane;
        T acc = 0;
        for (int64_t dz = 0; dz < 2; ++dz)
          for (int64_t dy = 0; dy < 2; ++dy)
            for (int64_t dx = 0; dx < 2; ++dx) {
              const T w = (dx ? tx : 1 - tx) * (dy ? ty : 1 - ty) * (dz ? tz : 1 - tz);
              acc += at(p, z0 + dz, y0 + dy, x0 + dx) * w;
            }
        oN[c * oplane] = acc;
      }
    }
}

Tensor gridSampler(const Tensor& input, const Tensor& grid, int64_t interp, int64_t padding, bool alignCorners) {
  checkGridSampler(input, grid, interp);
  KD_CHECK(interp >= 0 && interp <= 2, "grid_sampler(): unknown interpolation mode {}", interp);
  KD_CHECK(padding >= 0 && padding <= 2, "grid_sampler(): unknown padding mode {}", padding);
  IntArray shape{input.size(0), input.size(1)};
  for (int64_t d = 1; d < grid.dim() - 1; ++d) shape.push_back(grid.size(d));
  Tensor out = Tensor::empty(shape, input.dtype());
  dispatchLoopFloating(input.dtype(), "grid_sampler", [&](auto tag) {
    using T = decltype(tag);
    if (input.dim() == 4) gridSample2d<T>(input, grid, out, interp, padding, alignCorners);
    else gridSample3d<T>(input, grid, out, interp, padding, alignCorners);
  });
  return out;
}

void gridSamplerK(Stack& s) {
  Args a(s, 5);
  a.ret(gridSampler(a.tensor(0), a.tensor(1), a.toInt(2), a.toInt(3), a.toBool(4)));
}

template <int Dims>
void gridSamplerNdK(Stack& s) {
  Args a(s, 5);
  const Tensor input = a.tensor(0), grid = a.tensor(1);
  KD_CHECK(input.dim() == Dims + 2, "grid_sampler_{}d(): expected {}D input, got {}D", Dims, Dims + 2, input.dim());
  a.ret(gridSampler(input, grid, a.toInt(2), a.toInt(3), a.toBool(4)));
}

// ---------------------------------------------------------------- affine_grid_generator

/// linspace(-1, 1, n) as ATen computes it (halves from each end), scaled by (n - 1) / n without align_corners.
template <class T> std::vector<T> baseCoordinates(int64_t n, bool alignCorners) {
  std::vector<T> v(static_cast<size_t>(n), T(0));
  if (n <= 1) return v;
  const T step = static_cast<T>(2) / static_cast<T>(n - 1);
  const int64_t half = n / 2;
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = i < half ? T(-1) + step * static_cast<T>(i) : T(1) - step * static_cast<T>(n - i - 1);
  if (!alignCorners)
    for (auto& x : v) x = x * static_cast<T>(n - 1) / static_cast<T>(n);
  return v;
}

void affineGridGeneratorK(Stack& s) {
  Args a(s, 3);
  const Tensor theta = a.tensor(0).contiguous();
  const IntArray size = a.intList(1);
  const bool alignCorners = a.toBool(2);
  KD_CHECK(size.size() == 4 || size.size() == 5, "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs.");
  const bool is2d = size.size() == 4;
  const int64_t N = size[0], D = is2d ? 1 : size[2], H = size[size.size() - 2], W = size[size.size() - 1];
  const int64_t k = is2d ? 2 : 3;  // output coordinates; theta is (N, k, k + 1)
  KD_CHECK(theta.dim() == 3 && theta.size(0) == N && theta.size(1) == k && theta.size(2) == k + 1,
           "Expected a batch of {}D affine matrices of shape Nx{}x{} for size {}. Got {}.", k, k, k + 1,
           Tensor::empty(size).sizesStr(), theta.sizesStr());
  IntArray shape = is2d ? IntArray{N, H, W, 2} : IntArray{N, D, H, W, 3};
  Tensor out = Tensor::empty(shape, theta.dtype());
  dispatchLoopFloating(theta.dtype(), "affine_grid_generator", [&](auto tag) {
    using T = decltype(tag);
    const std::vector<T> xs = baseCoordinates<T>(W, alignCorners), ys = baseCoordinates<T>(H, alignCorners),
                         zs = baseCoordinates<T>(D, alignCorners);
    const T* th = theta.data_ptr<T>();
    T* o = out.data_ptr<T>();
    for (int64_t n = 0; n < N; ++n)
      for (int64_t d = 0; d < D; ++d)
        for (int64_t h = 0; h < H; ++h)
          for (int64_t w = 0; w < W; ++w) {
            const T base[4] = {xs[static_cast<size_t>(w)], ys[static_cast<size_t>(h)],
                               is2d ? T(1) : zs[static_cast<size_t>(d)], T(1)};
            T* dst = o + (((n * D + d) * H + h) * W + w) * k;
            for (int64_t r = 0; r < k; ++r) {
              const T* row = th + (n * k + r) * (k + 1);
              T acc = 0;
              for (int64_t j = 0; j <= k; ++j) acc += base[j] * row[j];
              dst[r] = acc;
            }
          }
  });
  a.ret(out);
}

}  // namespace

void registerGridSampleOps(OperatorRegistry& r) {
  r.add("aten::grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) "
        "-> Tensor",
        gridSamplerK);
  r.add("aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool "
        "align_corners) -> Tensor",
        gridSamplerNdK<2>);
  r.add("aten::grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool "
        "align_corners) -> Tensor",
        gridSamplerNdK<3>);
  r.add("aten::affine_grid_generator(Tensor theta, int[] size, bool align_corners) -> Tensor", affineGridGeneratorK);
}

}  // namespace kindling
