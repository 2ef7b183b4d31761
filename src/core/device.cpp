// Device printing and parsing (as torch.device).
#include "core/device.h"

#include <fmt/format.h>

#include "core/error.h"

namespace kindling {

std::string Device::str() const {
  std::string s = type == DeviceType::CPU ? "cpu" : type == DeviceType::CUDA ? "cuda" : "meta";
  if (index >= 0) {
    s += ':';
    s += std::to_string(index);
  }
  return s;
}

Device Device::parse(const std::string& s) {
  auto colon = s.find(':');
  std::string kind = s.substr(0, colon);
  Device d;
  if (kind == "cpu") d.type = DeviceType::CPU;
  else if (kind == "cuda") d.type = DeviceType::CUDA;
  else if (kind == "meta") d.type = DeviceType::Meta;
  else
    throw RuntimeError(fmt::format(
        "Expected one of cpu, cuda, meta device type at start of device string: {}", s));
  if (colon != std::string::npos) {
    std::string idx = s.substr(colon + 1);
    bool ok = !idx.empty() && idx.size() <= 3 && idx.find_first_not_of("0123456789") == std::string::npos &&
              !(idx.size() > 1 && idx[0] == '0');
    if (!ok || std::stoi(idx) > 127) throw RuntimeError(fmt::format("Invalid device string: '{}'", s));
    d.index = static_cast<int8_t>(std::stoi(idx));
  }
  return d;
}

}  // namespace kindling
