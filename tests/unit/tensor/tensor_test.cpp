// Tensor: creation, views (sharing storage, strides as ATen computes them), view/reshape/expand errors with
// PyTorch's messages, copies between every dtype pair and Half/BFloat16 rounding, all against PyTorch 1.13
// (the Python expressions are given in comments; generated with /usr/bin/python3, torch 1.13.1).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tensor/tensor.h"

using namespace kindling;

namespace {
struct ConvCase {
  ScalarType src, dst;
  std::vector<double> expected;
};
struct RoundCase {
  uint32_t floatBits;
  uint16_t half, bf16;
};

// vals = [-3.7, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7, 100.3, 126.9]
const double kConvVals[] = {-3.7, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7, 100.3, 126.9};
// For each (src, dst): torch.tensor(vals, dtype=torch.float64).to(src).to(dst).double().tolist()
const ConvCase kConvCases[] = {
  {ScalarType::Float, ScalarType::Float, {-3.700000047683716, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.700000047683716, 100.30000305175781, 126.9000015258789}},
  {ScalarType::Float, ScalarType::Double, {-3.700000047683716, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.700000047683716, 100.30000305175781, 126.9000015258789}},
  {ScalarType::Float, ScalarType::Half, {-3.69921875, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.69921875, 100.3125, 126.875}},
  {ScalarType::Float, ScalarType::BFloat16, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::Float, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Float, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Float, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Float, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Float, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Float, ScalarType::Bool, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Double, ScalarType::Float, {-3.700000047683716, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.700000047683716, 100.30000305175781, 126.9000015258789}},
  {ScalarType::Double, ScalarType::Double, {-3.7, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7, 100.3, 126.9}},
  {ScalarType::Double, ScalarType::Half, {-3.69921875, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.69921875, 100.3125, 126.875}},
  {ScalarType::Double, ScalarType::BFloat16, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::Double, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Double, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Double, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Double, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Double, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Double, ScalarType::Bool, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Half, ScalarType::Float, {-3.69921875, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.69921875, 100.3125, 126.875}},
  {ScalarType::Half, ScalarType::Double, {-3.69921875, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.69921875, 100.3125, 126.875}},
  {ScalarType::Half, ScalarType::Half, {-3.69921875, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.69921875, 100.3125, 126.875}},
  {ScalarType::Half, ScalarType::BFloat16, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::Half, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Half, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Half, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Half, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Half, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Half, ScalarType::Bool, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::BFloat16, ScalarType::Float, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::BFloat16, ScalarType::Double, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::BFloat16, ScalarType::Half, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::BFloat16, ScalarType::BFloat16, {-3.703125, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.703125, 100.5, 127.0}},
  {ScalarType::BFloat16, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 127.0}},
  {ScalarType::BFloat16, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 127.0}},
  {ScalarType::BFloat16, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 127.0}},
  {ScalarType::BFloat16, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 127.0}},
  {ScalarType::BFloat16, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 127.0}},
  {ScalarType::BFloat16, ScalarType::Bool, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Long, ScalarType::Float, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Double, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Half, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::BFloat16, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Long, ScalarType::Bool, {1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Int, ScalarType::Float, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Double, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Half, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::BFloat16, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Int, ScalarType::Bool, {1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Short, ScalarType::Float, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Double, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Half, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::BFloat16, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Short, ScalarType::Bool, {1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Char, ScalarType::Float, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Double, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Half, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::BFloat16, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Long, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Int, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Short, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Char, ScalarType::Bool, {1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Byte, ScalarType::Float, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Double, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Half, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::BFloat16, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Long, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Int, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Short, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Char, {-3.0, -1.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Byte, {253.0, 255.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 100.0, 126.0}},
  {ScalarType::Byte, ScalarType::Bool, {1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Float, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Double, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Half, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::BFloat16, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Long, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Int, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Short, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Char, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Byte, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
  {ScalarType::Bool, ScalarType::Bool, {1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0}},
};
// torch.tensor(f, dtype=torch.float32).to(torch.float16 / torch.bfloat16).view(torch.int16) & 0xffff
const RoundCase kRoundCases[] = {
  {0x3f800000u, 0x3c00, 0x3f80},  // 1.0
  {0x3f801000u, 0x3c00, 0x3f80},  // 1.00048828125
  {0x3f803000u, 0x3c02, 0x3f80},  // 1.00146484375
  {0x477fe000u, 0x7bff, 0x4780},  // 65504.0
  {0x477fef00u, 0x7bff, 0x4780},  // 65519.0
  {0x477ff000u, 0x7c00, 0x4780},  // 65520.0
  {0x322bcc77u, 0x0000, 0x322c},  // 1e-08
  {0x33800000u, 0x0001, 0x3380},  // 5.960464477539063e-08
  {0x33000000u, 0x0000, 0x3300},  // 2.9802322387695312e-08
  {0x33c00000u, 0x0002, 0x33c0},  // 8.940696716308594e-08
  {0x38800000u, 0x0400, 0x3880},  // 6.103515625e-05
  {0x387fc000u, 0x03ff, 0x3880},  // 6.097555160522461e-05
  {0x80000000u, 0x8000, 0x8000},  // -0.0
  {0x7f800000u, 0x7c00, 0x7f80},  // inf
  {0xff800000u, 0xfc00, 0xff80},  // -inf
  {0x3dcccccdu, 0x2e66, 0x3dcd},  // 0.1
  {0x40490fd0u, 0x4248, 0x4049},  // 3.14159
  {0xc02df84du, 0xc170, 0xc02e},  // -2.71828
  {0x47c35000u, 0x7c00, 0x47c3},  // 100000.0
  {0x3f808000u, 0x3c04, 0x3f80},  // 1.00390625
  {0x3f818000u, 0x3c0c, 0x3f82},  // 1.01171875
  {0x7f7fc99eu, 0x7c00, 0x7f80},  // 3.4e+38
  {0x000116c2u, 0x0000, 0x0001},  // 1e-40
};


Tensor arange(int64_t n, ScalarType t = ScalarType::Float) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
  return Tensor::fromVector(v, t);
}

std::vector<double> values(const Tensor& t) {
  std::vector<double> out;
  for (int64_t i = 0; i < t.numel(); ++i) out.push_back(t.doubleAt(i));
  return out;
}

std::string errorOf(const std::function<void()>& f, std::string* cls = nullptr) {
  try {
    f();
  } catch (const RuntimeError& e) {
    if (cls) *cls = e.pythonClass();
    return e.what();
  }
  return "NO ERROR";
}
}  // namespace

TEST(Tensor, CopyBetweenAllDtypePairsMatchesTorch) {
  std::vector<double> vals(std::begin(kConvVals), std::end(kConvVals));
  for (const auto& c : kConvCases) {
    SCOPED_TRACE(std::string(scalarTypeName(c.src)) + " -> " + scalarTypeName(c.dst));
    Tensor s = Tensor::fromVector(vals, c.src);
    Tensor d = s.to(c.dst);
    EXPECT_EQ(d.dtype(), c.dst);
    EXPECT_EQ(values(d), c.expected);
    // same through copy_ into a non-contiguous destination
    Tensor big = Tensor::zeros({static_cast<int64_t>(vals.size()), 2}, c.dst);
    Tensor col = big.select(1, 1);
    col.copy_(s);
    EXPECT_EQ(values(col), c.expected);
    EXPECT_EQ(values(big.select(1, 0)), std::vector<double>(vals.size(), 0.0));
  }
}

TEST(Tensor, HalfAndBFloat16RoundingMatchesTorch) {
  for (const auto& c : kRoundCases) {
    float f;
    std::memcpy(&f, &c.floatBits, 4);
    SCOPED_TRACE(f);
    EXPECT_EQ(Half(f).x, c.half);
    EXPECT_EQ(BFloat16(f).x, c.bf16);
    // round trip through float is exact for every representable value
    EXPECT_EQ(Half(static_cast<float>(Half::fromBits(c.half))).x, c.half);
    EXPECT_EQ(BFloat16(static_cast<float>(BFloat16::fromBits(c.bf16))).x, c.bf16);
  }
  EXPECT_TRUE(std::isnan(static_cast<float>(Half(std::nanf("")))));
  EXPECT_TRUE(std::isnan(static_cast<float>(BFloat16(std::nanf("")))));
  // every half value converts to float and back unchanged
  for (uint32_t b = 0; b < 0x10000; ++b) {
    Half h = Half::fromBits(static_cast<uint16_t>(b));
    float f = h;
    if (std::isnan(f)) continue;
    ASSERT_EQ(Half(f).x, b);
  }
  Half a = 1.5f;
  a += 1;
  EXPECT_EQ(static_cast<float>(a), 2.5f);
  EXPECT_EQ(static_cast<float>(Half(2) * Half(3)), 6.0f);
}

TEST(Tensor, CreationAndMetadata) {
  Tensor t = Tensor::zeros({2, 3});
  EXPECT_EQ(t.sizes(), (IntArray{2, 3}));
  EXPECT_EQ(t.strides(), (IntArray{3, 1}));
  EXPECT_EQ(t.numel(), 6);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.storage()->data()) % 64, 0u);
  EXPECT_EQ(values(t), std::vector<double>(6, 0.0));
  EXPECT_EQ(t.size(-1), 3);
  EXPECT_EQ(t.stride(0), 3);
  std::string cls;
  EXPECT_EQ(errorOf([&] { t.size(5); }, &cls), "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
  EXPECT_EQ(cls, "builtins.IndexError");
  // torch.tensor(1.).size(1)
  EXPECT_EQ(errorOf([&] { Tensor::scalarTensor(1.0).size(1); }), "Dimension specified as 1 but tensor has no dimensions");
  // torch.empty(-1, 2)
  EXPECT_EQ(errorOf([] { Tensor::empty({-1, 2}); }), "Trying to create tensor with negative dimension -1: [-1, 2]");
  Tensor f = Tensor::full({2}, Scalar(2.5), ScalarType::Double);
  EXPECT_EQ(values(f), (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(Tensor::scalarTensor(Scalar(int64_t(3))).dtype(), ScalarType::Long);
  EXPECT_EQ(Tensor::scalarTensor(Scalar(true)).dtype(), ScalarType::Bool);
  EXPECT_EQ(Tensor::scalarTensor(Scalar(1.0)).dtype(), ScalarType::Float);
  EXPECT_EQ(Tensor::scalarTensor(Scalar(1.0)).dim(), 0);
  EXPECT_EQ(t.sizesStr(), "[2, 3]");
  EXPECT_EQ(Tensor::emptyStrided({2, 3}, {1, 2}, ScalarType::Float).storage()->nbytes(), 24u);
  Tensor e = Tensor::empty({0, 3});
  EXPECT_EQ(e.numel(), 0);
  EXPECT_TRUE(e.is_contiguous());
}

TEST(Tensor, FromStorageChecksBounds) {
  auto st = makeIntrusive<StorageImpl>(16);
  Tensor ok = Tensor::fromStorage(st, ScalarType::Float, {2, 2}, {2, 1}, 0);
  EXPECT_EQ(ok.numel(), 4);
  EXPECT_EQ(errorOf([&] { Tensor::fromStorage(st, ScalarType::Float, {2, 2}, {2, 1}, 1); }),
            "setStorage: sizes [2, 2], strides [2, 1], storage offset 1, and itemsize 4 requiring a storage size of 20 "
            "are out of bounds for storage of size 16");
  EXPECT_THROW(ok.as_strided({5}, {1}, 0), RuntimeError);
  bool freed = false;
  {
    static float buf[4] = {1, 2, 3, 4};
    auto ext = makeIntrusive<StorageImpl>(buf, sizeof(buf), [&freed](void*) { freed = true; });
    Tensor x = Tensor::fromStorage(ext, ScalarType::Float, {4}, {1}, 0);
    EXPECT_EQ(x.doubleAt(3), 4.0);
    ext = Storage();
    EXPECT_FALSE(freed);
  }
  EXPECT_TRUE(freed);
}

TEST(Tensor, ViewsShareStorage) {
  Tensor x = arange(12).view({3, 4});
  Tensor t = x.transpose(0, 1);
  EXPECT_EQ(t.strides(), (IntArray{1, 4}));
  EXPECT_FALSE(t.is_contiguous());
  Tensor row = x.select(0, 1);
  row.fill_(Scalar(-1.0));
  EXPECT_EQ(values(x.select(0, 1)), (std::vector<double>{-1, -1, -1, -1}));
  EXPECT_EQ(t.doubleAt(1), -1.0);  // t[0][1] == x[1][0]
  EXPECT_EQ(x.storage().get(), t.storage().get());
  // x[:, 1::2]
  Tensor s = x.slice(1, 1, 100, 2);
  EXPECT_EQ(s.sizes(), (IntArray{3, 2}));
  EXPECT_EQ(s.strides(), (IntArray{4, 2}));
  EXPECT_EQ(s.storage_offset(), 1);
  EXPECT_EQ(values(s), (std::vector<double>{1, 3, -1, -1, 9, 11}));
  // torch.zeros(2,3)[:, 5:10].shape == (2, 0); [:, -10:2] == (2, 2); [:, 2:1] == (2, 0)
  Tensor z = Tensor::zeros({2, 3});
  EXPECT_EQ(z.slice(1, 5, 10).sizes(), (IntArray{2, 0}));
  EXPECT_EQ(z.slice(1, -10, 2).sizes(), (IntArray{2, 2}));
  EXPECT_EQ(z.slice(1, 2, 1).sizes(), (IntArray{2, 0}));
  // torch.zeros(2,3).narrow(1,-2,2).stride() == (3, 1)
  EXPECT_EQ(z.narrow(1, -2, 2).strides(), (IntArray{3, 1}));
  EXPECT_EQ(z.narrow(1, -2, 2).storage_offset(), 1);
  // torch.zeros(4,1,5).unsqueeze(1).stride() == (5, 5, 5, 1); torch.zeros(3,1).unsqueeze(2).stride() == (1, 1, 1)
  EXPECT_EQ(Tensor::zeros({4, 1, 5}).unsqueeze(1).strides(), (IntArray{5, 5, 5, 1}));
  EXPECT_EQ(Tensor::zeros({3, 1}).unsqueeze(2).strides(), (IntArray{1, 1, 1}));
  EXPECT_EQ(Tensor::scalarTensor(1.0).unsqueeze(0).sizes(), (IntArray{1}));
  EXPECT_EQ(Tensor::scalarTensor(1.0).squeeze(0).sizes(), (IntArray{}));
  EXPECT_EQ(Tensor::scalarTensor(1.0).flatten().sizes(), (IntArray{1}));
  EXPECT_EQ(Tensor::zeros({1, 3, 1}).squeeze().sizes(), (IntArray{3}));
  EXPECT_EQ(Tensor::zeros({1, 3, 1}).squeeze(0).sizes(), (IntArray{3, 1}));
  EXPECT_EQ(Tensor::zeros({1, 3, 1}).squeeze(1).sizes(), (IntArray{1, 3, 1}));
  // expand: torch.zeros(2,3).expand(4,2,3).stride() == (0, 3, 1); torch.zeros(2,1,3).expand(2,4,3).stride() == (3, 0, 1)
  EXPECT_EQ(z.expand({4, 2, 3}).strides(), (IntArray{0, 3, 1}));
  EXPECT_EQ(Tensor::zeros({2, 1, 3}).expand({2, 4, 3}).strides(), (IntArray{3, 0, 1}));
  EXPECT_EQ(Tensor::zeros({2, 1, 3}).expand({-1, 4, -1}).sizes(), (IntArray{2, 4, 3}));
  Tensor p = Tensor::zeros({2, 3, 4}).permute({2, 0, 1});
  EXPECT_EQ(p.sizes(), (IntArray{4, 2, 3}));
  EXPECT_EQ(p.strides(), (IntArray{1, 12, 4}));
  EXPECT_EQ(Tensor::zeros({2, 3, 4}).flatten(1).sizes(), (IntArray{2, 12}));
  EXPECT_EQ(Tensor::zeros({2, 3, 4}).flatten(0, 1).sizes(), (IntArray{6, 4}));
  Tensor a = x.alias();
  EXPECT_FALSE(a.is_same(x));
  EXPECT_EQ(a.data_ptr(), x.data_ptr());
}

TEST(Tensor, ViewAndReshapeRules) {
  // y = torch.zeros(4,6)[:, ::2]; y.view(4,3).stride() == (6, 2); y.view(2,2,3).stride() == (12, 6, 2)
  Tensor y = Tensor::zeros({4, 6}).slice(1, 0, 6, 2);
  EXPECT_EQ(y.view({4, 3}).strides(), (IntArray{6, 2}));
  EXPECT_EQ(y.view({2, 2, 3}).strides(), (IntArray{12, 6, 2}));
  EXPECT_EQ(y.reshape({2, 2, 3}).strides(), (IntArray{12, 6, 2}));
  EXPECT_EQ(y.view({-1, 3}).sizes(), (IntArray{4, 3}));
  // z = torch.zeros(2,3,4).transpose(1,2): z.view(2,12) fails; z.view(2,4,3).stride() == (12, 1, 4);
  // z.reshape(2,12).stride() == (12, 1) (a copy)
  Tensor z = arange(24).view({2, 3, 4}).transpose(1, 2);
  EXPECT_EQ(errorOf([&] { z.view({2, 12}); }),
            "view size is not compatible with input tensor's size and stride (at least one dimension spans across two "
            "contiguous subspaces). Use .reshape(...) instead.");
  EXPECT_EQ(z.view({2, 4, 3}).strides(), (IntArray{12, 1, 4}));
  Tensor r = z.reshape({2, 12});
  EXPECT_EQ(r.strides(), (IntArray{12, 1}));
  EXPECT_NE(r.storage().get(), z.storage().get());
  EXPECT_EQ(r.doubleAt(1), 4.0);  // z[0][0][1] == x[0][1][0] == 4
  Tensor x = Tensor::zeros({2, 3});
  EXPECT_EQ(errorOf([&] { x.view({4}); }), "shape '[4]' is invalid for input of size 6");
  EXPECT_EQ(errorOf([&] { x.view({-1, -1}); }), "only one dimension can be inferred");
  EXPECT_EQ(errorOf([&] { Tensor::zeros({0, 3}).view({-1, 0}); }),
            "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be "
            "any value and is ambiguous");
  // torch.zeros(0,3).view(3,0,-1) raises the same error; torch.zeros(0,3).view(3,0,2).shape == (3, 0, 2)
  EXPECT_THROW(Tensor::zeros({0, 3}).view({3, 0, -1}), RuntimeError);
  EXPECT_EQ(Tensor::zeros({0, 3}).view({3, 0, 2}).sizes(), (IntArray{3, 0, 2}));
  EXPECT_EQ(Tensor::scalarTensor(2.0).view({1, 1}).sizes(), (IntArray{1, 1}));
}

TEST(Tensor, ShapeErrorsMatchTorch) {
  Tensor x = Tensor::zeros({2, 3});
  std::string cls;
  EXPECT_EQ(errorOf([&] { x.expand({3}); }),
            "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or equal to "
            "the number of dimensions in the tensor (2)");
  EXPECT_EQ(errorOf([&] { x.expand({2, 4}); }),
            "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target "
            "sizes: [2, 4].  Tensor sizes: [2, 3]");
  EXPECT_EQ(errorOf([&] { x.expand({-1, 2, 3}); }),
            "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0");
  EXPECT_EQ(errorOf([&] { x.select(0, 5); }, &cls), "select(): index 5 out of range for tensor of size [2, 3] at dimension 0");
  EXPECT_EQ(cls, "builtins.IndexError");
  EXPECT_EQ(errorOf([&] { x.narrow(1, 2, 2); }), "start (2) + length (2) exceeds dimension size (3).");
  EXPECT_EQ(errorOf([&] { x.narrow(1, -4, 1); }, &cls), "Dimension out of range (expected to be in range of [-3, 2], but got -4)");
  EXPECT_EQ(cls, "builtins.IndexError");
  EXPECT_EQ(x.narrow(1, 3, 0).sizes(), (IntArray{2, 0}));
  EXPECT_EQ(errorOf([&] { x.permute({0, 0}); }), "permute(): duplicate dims are not allowed.");
  EXPECT_EQ(errorOf([&] { x.permute({0}); }),
            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired "
            "ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1");
  EXPECT_EQ(errorOf([&] { x.flatten(1, 0); }), "flatten() has invalid args: start_dim cannot come after end_dim");
  EXPECT_EQ(errorOf([&] { Tensor::scalarTensor(1.0).select(0, 0); }, &cls), "select() cannot be applied to a 0-dim tensor.");
  EXPECT_EQ(cls, "builtins.IndexError");
  EXPECT_EQ(errorOf([&] { x.unsqueeze(3); }), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  EXPECT_EQ(errorOf([&] { x.squeeze(2); }), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EQ(errorOf([&] { x.slice(1, 0, 2, 0); }), "slice step must be positive");
}

TEST(Tensor, CopyBroadcastsAndHandlesOverlap) {
  Tensor dst = Tensor::zeros({2, 3}, ScalarType::Long);
  dst.copy_(Tensor::fromVector<float>({1.9f, -2.9f, 3.5f}, ScalarType::Float));
  EXPECT_EQ(values(dst), (std::vector<double>{1, -2, 3, 1, -2, 3}));
  dst.copy_(Tensor::scalarTensor(Scalar(7.0)));
  EXPECT_EQ(values(dst), std::vector<double>(6, 7.0));
  EXPECT_THROW(dst.copy_(Tensor::zeros({4})), RuntimeError);
  // x.copy_(x.t()) on a square matrix reads the original values
  Tensor sq = arange(9).view({3, 3});
  sq.copy_(sq.transpose(0, 1));
  EXPECT_EQ(values(sq), (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  // a large non-contiguous copy (exercises the parallel path)
  Tensor big = arange(300000).view({600, 500});
  Tensor bt = big.transpose(0, 1).contiguous();
  EXPECT_EQ(bt.sizes(), (IntArray{500, 600}));
  EXPECT_EQ(bt.doubleAt(1), 500.0);
  EXPECT_EQ(bt.doubleAt(600 * 499 + 599), 599.0 * 500 + 499);
  Tensor c = big.clone();
  EXPECT_NE(c.data_ptr(), big.data_ptr());
  EXPECT_EQ(c.doubleAt(299999), 299999.0);
  EXPECT_TRUE(big.contiguous().is_same(big));
  EXPECT_TRUE(big.to(ScalarType::Float).is_same(big));
  EXPECT_FALSE(big.to(ScalarType::Float, true).is_same(big));
  Tensor d = big.to(ScalarType::Double);
  EXPECT_EQ(d.doubleAt(123456), 123456.0);
}

TEST(Tensor, FillAndItem) {
  Tensor t = Tensor::empty({3}, ScalarType::Int);
  t.fill_(Scalar(int64_t(-4)));
  EXPECT_EQ(values(t), (std::vector<double>{-4, -4, -4}));
  EXPECT_EQ(t.select(0, 0).item().toLong(), -4);
  EXPECT_TRUE(t.select(0, 0).item().isIntegral());
  EXPECT_TRUE(Tensor::scalarTensor(Scalar(1.5)).item().isFloatingPoint());
  EXPECT_TRUE(Tensor::scalarTensor(Scalar(true)).item().isBoolean());
  EXPECT_EQ(errorOf([&] { t.item(); }), "a Tensor with 3 elements cannot be converted to Scalar");
  // torch.zeros(2, dtype=torch.uint8).fill_(300) → overflow error; fill_(-1) is accepted (255)
  Tensor u = Tensor::zeros({2}, ScalarType::Byte);
  EXPECT_EQ(errorOf([&] { u.fill_(Scalar(int64_t(300))); }), "value cannot be converted to type uint8_t without overflow");
  u.fill_(Scalar(int64_t(-1)));
  EXPECT_EQ(values(u), (std::vector<double>{255, 255}));
  Tensor h = Tensor::zeros({2}, ScalarType::Half);
  EXPECT_EQ(errorOf([&] { h.fill_(Scalar(70000.0)); }), "value cannot be converted to type at::Half without overflow");
  h.fill_(Scalar(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(std::isinf(h.doubleAt(0)));
  Tensor b = Tensor::zeros({2}, ScalarType::Bool);
  b.fill_(Scalar(0.5));
  EXPECT_EQ(values(b), (std::vector<double>{1, 1}));
  Tensor nc = Tensor::zeros({3, 4}).slice(1, 0, 4, 2);
  nc.fill_(Scalar(1.0));
  EXPECT_EQ(values(Tensor::zeros({1})), (std::vector<double>{0}));
  EXPECT_EQ(nc.doubleAt(0) + nc.doubleAt(5), 2.0);
}

TEST(Tensor, IValueInterop) {
  Tensor x = arange(3);
  IValue v(x);
  EXPECT_TRUE(v.isTensor());
  EXPECT_EQ(x.use_count(), 2u);
  EXPECT_TRUE(v.toTensor().is_same(x));
  EXPECT_EQ(v.repr(), "tensor([0., 1., 2.])");
  EXPECT_EQ(v.type()->str(), "Tensor");
  IValue none{Tensor()};
  EXPECT_TRUE(none.isNone());
  IValue l = makeList(TensorType(), {IValue(x), IValue(x)});
  EXPECT_EQ(l.toTensorVector().size(), 2u);
  EXPECT_EQ(l.repr(), "[tensor([0., 1., 2.]), tensor([0., 1., 2.])]");
  EXPECT_EQ(IValue(x), IValue(x));
  EXPECT_NE(IValue(x), IValue(x.clone()));
  Tensor moved = std::move(v).toTensor();
  EXPECT_TRUE(v.isNone());
  EXPECT_TRUE(moved.is_same(x));
}

TEST(Tensor, TiledTransposeCopiesWithConversion) {
  // odd sizes, a batch dim, dtype conversion: compare against element-wise reads of the source view
  Tensor x = arange(3 * 37 * 53).view({3, 37, 53});
  Tensor t = x.transpose(1, 2);  // [3, 53, 37], src contiguous along dim 1
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Half}) {
    Tensor c = t.to(dt, true).contiguous();
    ASSERT_TRUE(c.is_contiguous());
    for (int64_t i = 0; i < c.numel(); i += 7) {
      int64_t b = i / (53 * 37), r = (i / 37) % 53, col = i % 37;
      double expect = static_cast<double>(b * 37 * 53 + col * 53 + r);
      if (dt == ScalarType::Half) expect = static_cast<float>(Half(static_cast<float>(expect)));
      ASSERT_EQ(c.doubleAt(i), expect) << scalarTypeName(dt) << " at " << i;
    }
  }
  // NCHW -> NHWC
  Tensor n = arange(2 * 20 * 6 * 5).view({2, 20, 6, 5});
  Tensor nhwc = n.permute({0, 2, 3, 1}).contiguous();
  EXPECT_EQ(nhwc.sizes(), (IntArray{2, 6, 5, 20}));
  EXPECT_EQ(nhwc.doubleAt(1), 30.0);  // [0,0,0,1] == n[0,1,0,0]
  EXPECT_EQ(nhwc.doubleAt(20 * 5 + 20 + 3), 3 * 30.0 + 5 + 1);  // [0,1,1,3] == n[0,3,1,1]
}

TEST(Tensor, FloatHalfRowsMatchScalarConversion) {
  // the vectorised float<->half path must round exactly like Half(float)
  std::vector<float> v;
  uint32_t seed = 12345;
  for (int i = 0; i < 4099; ++i) {
    seed = seed * 1664525u + 1013904223u;
    uint32_t bits = seed;
    float f;
    std::memcpy(&f, &bits, 4);
    if (i % 3 == 0) f = static_cast<float>(static_cast<int32_t>(seed) % 200000) / 3.0f;
    v.push_back(f);
  }
  v.push_back(std::numeric_limits<float>::infinity());
  v.push_back(-0.0f);
  v.push_back(65519.f);
  v.push_back(65520.f);
  Tensor f = Tensor::fromVector(v, ScalarType::Float);
  Tensor h = f.to(ScalarType::Half);
  const Half* hp = h.data_ptr<Half>();
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) {
      ASSERT_TRUE(std::isnan(static_cast<float>(hp[i])));
      continue;
    }
    ASSERT_EQ(hp[i].x, Half(v[i]).x) << v[i];
  }
  Tensor back = h.to(ScalarType::Float);
  for (size_t i = 0; i < v.size(); ++i) {
    float e = static_cast<float>(hp[i]);
    if (std::isnan(e)) continue;
    ASSERT_EQ(back.data_ptr<float>()[i], e);
  }
}

TEST(Tensor, UntrustedGeometryIsRejected) {
  // sizes/strides as a malicious archive could give them: products that overflow int64 must not wrap
  auto st = makeIntrusive<StorageImpl>(64);
  int64_t big = int64_t(1) << 62;
  EXPECT_THROW(Tensor::fromStorage(st, ScalarType::Float, {big + 1}, {big}, 0), RuntimeError);
  EXPECT_THROW(Tensor::fromStorage(st, ScalarType::Float, {3, 3}, {big, big}, 0), RuntimeError);
  EXPECT_THROW(Tensor::fromStorage(st, ScalarType::Float, {big, big}, {0, 0}, 0), RuntimeError);  // numel overflow
  EXPECT_THROW(Tensor::fromStorage(st, ScalarType::Float, {2}, {1}, std::numeric_limits<int64_t>::max()), RuntimeError);
  EXPECT_THROW(Tensor::fromStorage(st, ScalarType::Float, {2}, {-1}, 1), RuntimeError);
  EXPECT_THROW(Tensor::fromStorage(st, ScalarType::Undefined, {2}, {1}, 0), Error);
  EXPECT_THROW(Tensor::emptyStrided({big}, {big}, ScalarType::Float), RuntimeError);
  EXPECT_THROW(Tensor::empty({big, big}), RuntimeError);
  // broadcast views of a small storage are fine
  Tensor b = Tensor::fromStorage(st, ScalarType::Float, {1000, 1000}, {0, 0}, 3);
  EXPECT_EQ(b.numel(), 1000000);
}

TEST(Storage, VersionCounterAndDerivedValues) {
  Tensor t = Tensor::zeros({4, 4});
  Tensor view = t.select(0, 2);
  StorageImpl& st = *t.storage();
  const uint64_t v0 = st.version();
  Tensor other = t.clone();  // reads do not count (the clone's own storage was written)
  const uint64_t otherVersion = other.storage()->version();
  (void)t.contiguous();
  EXPECT_EQ(st.version(), v0);
  view.fill_(Scalar(1.0));  // a write through a view is a write to the storage
  EXPECT_EQ(st.version(), v0 + 1);
  t.copy_(other);
  EXPECT_EQ(st.version(), v0 + 2);
  t.copy_(t);  // no bytes written
  EXPECT_EQ(st.version(), v0 + 2);
  EXPECT_EQ(other.storage()->version(), otherVersion);

  auto value = std::make_shared<int>(7);
  st.setDerived({1, 2}, st.version(), value);
  ASSERT_NE(st.findDerived({1, 2}), nullptr);
  EXPECT_EQ(*static_cast<const int*>(st.findDerived({1, 2}).get()), 7);
  EXPECT_EQ(st.findDerived({1, 3}), nullptr);
  EXPECT_EQ(other.storage()->findDerived({1, 2}), nullptr);
  view.fill_(Scalar(2.0));
  EXPECT_EQ(st.findDerived({1, 2}), nullptr) << "stale after a write";
  st.setDerived({1, 2}, st.version(), std::make_shared<int>(8));
  EXPECT_EQ(*static_cast<const int*>(st.findDerived({1, 2}).get()), 8);
  EXPECT_EQ(st.derivedCount(), 1u);
  for (int64_t k = 0; k < 20; ++k) st.setDerived({k + 10}, st.version(), value);
  EXPECT_EQ(st.derivedCount(), StorageImpl::kMaxDerived);
  EXPECT_EQ(st.findDerived({1, 2}), nullptr) << "the oldest value is dropped first";
  ASSERT_NE(st.findDerived({29}), nullptr);
  // The values die with the storage.
  std::weak_ptr<int> weak = value;
  value.reset();
  other = Tensor();
  t = Tensor();
  EXPECT_FALSE(weak.expired());  // the view still holds the storage
  view = Tensor();
  EXPECT_TRUE(weak.expired());
}
