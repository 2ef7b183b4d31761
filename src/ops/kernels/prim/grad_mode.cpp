// The thread's grad mode. See grad_mode.h.
#include "ops/kernels/prim/grad_mode.h"

namespace kindling {

namespace {
thread_local bool gGradEnabled = true;
}  // namespace

bool isGradModeEnabled() { return gGradEnabled; }
void setGradModeEnabled(bool enabled) { gGradEnabled = enabled; }

}  // namespace kindling
