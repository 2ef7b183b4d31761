// Autograd guards of libtorch inference code (torch::NoGradGuard, c10::InferenceMode,
// torch::AutoGradMode). Kindling never records gradients, so each is a no-op kept so that ported code
// compiles unchanged; they cost nothing.
#pragma once
#include "kindling/export.h"

namespace kindling {
namespace api {

struct NoGradGuard {
  NoGradGuard() {}
};
struct InferenceMode {
  explicit InferenceMode(bool enabled = true) { (void)enabled; }
  static bool is_enabled() { return true; }
};
struct AutoGradMode {
  explicit AutoGradMode(bool enabled) { (void)enabled; }
};

}  // namespace api
#if KINDLING_EXPOSE_PUBLIC_NAMES
using namespace api;
#endif
}  // namespace kindling
