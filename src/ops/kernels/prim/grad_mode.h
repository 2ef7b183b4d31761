// The thread's grad mode, as torch.is_grad_enabled() / torch.set_grad_enabled() see it. Kindling computes no
// gradients, but programs branch on the mode (nn.TransformerEncoder takes its fused path only without grad),
// so it is kept per thread with PyTorch's default, enabled: `with torch.no_grad():` in compiled code sets it
// for its body, and the Python package sets it from torch's own mode at every call from Python.
#pragma once

namespace kindling {

bool isGradModeEnabled();
void setGradModeEnabled(bool enabled);

}  // namespace kindling
