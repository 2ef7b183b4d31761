// Half (IEEE 754 binary16) and BFloat16 (bfloat16): 16-bit storage types for tensors of dtype
// torch.float16 / torch.bfloat16 (c10::Half, c10::BFloat16). Conversions from float round to nearest even
// (NaN stays NaN, overflow goes to inf); arithmetic happens in float through the implicit conversion,
// so the types work in generic kernels: `T a = T(x) ; float f = a; a += 1;`.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace kindling {

namespace detail {
inline uint32_t floatBits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float bitsFloat(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

/// float → IEEE half bits, round to nearest even.
inline uint16_t floatToHalfBits(float value) {
  uint32_t f = floatBits(value);
  uint32_t sign = (f >> 16) & 0x8000u;
  uint32_t a = f & 0x7fffffffu;
  if (a >= 0x7f800000u) {  // inf or NaN (keep a quiet NaN payload)
    return static_cast<uint16_t>(sign | 0x7c00u | (a > 0x7f800000u ? (0x200u | ((a >> 13) & 0x3ffu)) : 0u));
  }
  if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
  if (a < 0x38800000u) {  // below 2^-14: half subnormal (or zero)
    // Adding 0.5 puts the value's 2^-24 units in the low mantissa bits; the FPU rounds to nearest even.
    float v = bitsFloat(a) + 0.5f;
    return static_cast<uint16_t>(sign | (floatBits(v) - 0x3f000000u));
  }
  uint32_t odd = (a >> 13) & 1u;
  a += 0xc8000fffu + odd;  // re-bias exponent by -112 and round the 13 dropped bits to nearest even
  return static_cast<uint16_t>(sign | (a >> 13));
}

inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1fu) return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {
    float v = static_cast<float>(mant) * 5.9604644775390625e-8f;  // mant * 2^-24
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

/// float → bfloat16 bits, round to nearest even; NaN → quiet NaN.
inline uint16_t floatToBFloat16Bits(float value) {
  uint32_t u = floatBits(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}
inline float bfloat16BitsToFloat(uint16_t b) { return bitsFloat(static_cast<uint32_t>(b) << 16); }
}  // namespace detail

struct Half {
  uint16_t x = 0;
  Half() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  Half(T v) : x(detail::floatToHalfBits(static_cast<float>(v))) {}
  static Half fromBits(uint16_t bits) { Half h; h.x = bits; return h; }
  operator float() const { return detail::halfBitsToFloat(x); }
  Half& operator+=(float o) { return *this = Half(float(*this) + o); }
  Half& operator-=(float o) { return *this = Half(float(*this) - o); }
  Half& operator*=(float o) { return *this = Half(float(*this) * o); }
  Half& operator/=(float o) { return *this = Half(float(*this) / o); }
};

struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  BFloat16(T v) : x(detail::floatToBFloat16Bits(static_cast<float>(v))) {}
  static BFloat16 fromBits(uint16_t bits) { BFloat16 h; h.x = bits; return h; }
  operator float() const { return detail::bfloat16BitsToFloat(x); }
  BFloat16& operator+=(float o) { return *this = BFloat16(float(*this) + o); }
  BFloat16& operator-=(float o) { return *this = BFloat16(float(*this) - o); }
  BFloat16& operator*=(float o) { return *this = BFloat16(float(*this) * o); }
  BFloat16& operator/=(float o) { return *this = BFloat16(float(*this) / o); }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2);

}  // namespace kindling
