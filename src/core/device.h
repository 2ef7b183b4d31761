// Device: where a tensor lives. Kindling runs on CPU only; "cuda" devices parse (so archives that
// mention them load and map_location to cpu works) but kernels only accept CPU.
#pragma once
#include <cstdint>
#include <string>

namespace kindling {

enum class DeviceType : int8_t { CPU = 0, CUDA = 1, Meta = 9 };

struct Device {
  DeviceType type = DeviceType::CPU;
  int8_t index = -1;
  bool operator==(const Device& o) const { return type == o.type && index == o.index; }
  /// "cpu", "cuda:0" — as str(torch.device) prints.
  std::string str() const;
  /// Parses "cpu", "cuda", "cuda:1"; throws RuntimeError on anything else.
  static Device parse(const std::string& s);
};

}  // namespace kindling
