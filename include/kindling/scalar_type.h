// Element types of tensors (ScalarType, numbered as PyTorch's c10::ScalarType, so the integers a
// TorchScript program passes as `dtype` arguments mean the same), and Device (Kindling computes on the
// CPU; "cuda" parses so that map_location and ported code read naturally, and is refused where used).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "kindling/export.h"

namespace kindling {
namespace api {

enum class ScalarType : int8_t {
  Byte = 0,     // uint8_t
  Char = 1,     // int8_t
  Short = 2,    // int16_t
  Int = 3,      // int32_t
  Long = 4,     // int64_t
  Half = 5,     // IEEE float16 (kindling::Half)
  Float = 6,    // float
  Double = 7,   // double
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,    // bool
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,  // bfloat16 (kindling::BFloat16)
  Undefined = -1,
};

// libtorch's spellings (torch::kFloat32, at::kLong, ...).
constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char, kInt8 = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short, kInt16 = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int, kInt32 = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long, kInt64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half, kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float, kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double, kFloat64 = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

/// "Float", "Long", ... (c10's toString). "Undefined" for values outside the enum.
KINDLING_API const char* toString(ScalarType t);
/// Bytes per element (Float 4, Long 8, Bool 1, ...). Throws UsageError for Undefined.
KINDLING_API size_t elementSize(ScalarType t);

/// 16-bit floats as stored in Half and BFloat16 tensors; convert through float.
struct KINDLING_API Half {
  uint16_t bits = 0;
  Half() = default;
  Half(float f);  // NOLINT: implicit, as c10::Half; rounds to nearest even
  operator float() const;  // NOLINT
};
struct KINDLING_API BFloat16 {
  uint16_t bits = 0;
  BFloat16() = default;
  BFloat16(float f);  // NOLINT: implicit, as c10::BFloat16; rounds to nearest even
  operator float() const;  // NOLINT
};

/// The ScalarType of a C++ element type (c10::CppTypeToScalarType): dtypeOf<float>() == kFloat.
template <class T> struct ScalarTypeOf { static constexpr ScalarType value = ScalarType::Undefined; };
template <> struct ScalarTypeOf<uint8_t> { static constexpr ScalarType value = ScalarType::Byte; };
template <> struct ScalarTypeOf<int8_t> { static constexpr ScalarType value = ScalarType::Char; };
template <> struct ScalarTypeOf<int16_t> { static constexpr ScalarType value = ScalarType::Short; };
template <> struct ScalarTypeOf<int32_t> { static constexpr ScalarType value = ScalarType::Int; };
template <> struct ScalarTypeOf<int64_t> { static constexpr ScalarType value = ScalarType::Long; };
template <> struct ScalarTypeOf<Half> { static constexpr ScalarType value = ScalarType::Half; };
template <> struct ScalarTypeOf<float> { static constexpr ScalarType value = ScalarType::Float; };
template <> struct ScalarTypeOf<double> { static constexpr ScalarType value = ScalarType::Double; };
template <> struct ScalarTypeOf<bool> { static constexpr ScalarType value = ScalarType::Bool; };
template <> struct ScalarTypeOf<BFloat16> { static constexpr ScalarType value = ScalarType::BFloat16; };
template <class T> constexpr ScalarType dtypeOf() { return ScalarTypeOf<T>::value; }

enum class DeviceType : int8_t { CPU = 0, CUDA = 1 };
constexpr DeviceType kCPU = DeviceType::CPU;
constexpr DeviceType kCUDA = DeviceType::CUDA;

/// A device name as torch.device has it ("cpu", "cuda:0"). Only the CPU runs Kindling's kernels.
class KINDLING_API Device {
 public:
  Device(DeviceType type = DeviceType::CPU, int8_t index = -1) : type_(type), index_(index) {}  // NOLINT
  /// Parses "cpu", "cuda", "cuda:1". Throws UsageError on anything else.
  Device(const std::string& name);  // NOLINT: implicit, as torch::Device
  Device(const char* name) : Device(std::string(name)) {}  // NOLINT
  DeviceType type() const { return type_; }
  int8_t index() const { return index_; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }
  /// "cpu", "cuda:0".
  std::string str() const;
  bool operator==(const Device& o) const { return type_ == o.type_ && index_ == o.index_; }
  bool operator!=(const Device& o) const { return !(*this == o); }

 private:
  DeviceType type_;
  int8_t index_;
};

}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
