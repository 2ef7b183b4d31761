// Integer arithmetic that wraps around (two's complement), for the elementwise kernels. C++ leaves signed
// overflow undefined and the CPU traps on INT_MIN / -1 (SIGFPE); PyTorch 1.13's results where it gives
// one, numpy's and Python's int64 arithmetic are the wrapped values: INT64_MIN // -1 == INT64_MIN,
// INT64_MIN % -1 == 0, -INT64_MIN == abs(INT64_MIN) == INT64_MIN. For floating and bool T these are the
// plain operators.
#pragma once
#include <type_traits>

namespace kindling::wrap {

template <class T>
constexpr bool kWraps = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// The unsigned type T's arithmetic happens in: at least `unsigned`, so that uint8/uint16 operands are
/// not promoted to (overflowing) int.
template <class T>
using Unsigned = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T> T add(T a, T b) {
  if constexpr (kWraps<T>) return static_cast<T>(static_cast<Unsigned<T>>(a) + static_cast<Unsigned<T>>(b));
  else return static_cast<T>(a + b);
}
template <class T> T sub(T a, T b) {
  if constexpr (kWraps<T>) return static_cast<T>(static_cast<Unsigned<T>>(a) - static_cast<Unsigned<T>>(b));
  else return static_cast<T>(a - b);
}
template <class T> T mul(T a, T b) {
  if constexpr (kWraps<T>) return static_cast<T>(static_cast<Unsigned<T>>(a) * static_cast<Unsigned<T>>(b));
  else return static_cast<T>(a * b);
}
template <class T> T neg(T a) {
  if constexpr (kWraps<T>) return static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(a));
  else return static_cast<T>(-a);
}
template <class T> T abs(T a) {
  if constexpr (std::is_signed_v<T> && kWraps<T>) return a < 0 ? neg(a) : a;
  else return a;
}

/// a / b rounded toward zero (b != 0).
template <class T> T divTrunc(T a, T b) {
  if constexpr (std::is_signed_v<T> && kWraps<T>) {
    if (b == T(-1)) return neg(a);  // no division: the minimum / -1 traps
  }
  return static_cast<T>(a / b);
}

/// a % b with the sign of a, as C++ and fmod (b != 0).
template <class T> T modTrunc(T a, T b) {
  if constexpr (std::is_signed_v<T> && kWraps<T>) {
    if (b == T(-1)) return T(0);
  }
  return static_cast<T>(a % b);
}

}  // namespace kindling::wrap
