# The grad mode: torch.is_grad_enabled() answers at run time (PyTorch 1.13 runs it too; Kindling folded it to
# True), `with torch.no_grad()` / `torch.enable_grad()` / `torch.set_grad_enabled(b)` / `torch.inference_mode()`
# set it for their body and restore it (PyTorch 1.13 accepts only no_grad, "Unknown builtin op:
# aten::enable_grad"). Saved by Kindling as aten::set_grad_enabled calls and run by torch.jit.load.
import torch
from typing import List


# save: loads
# case: (torch.ones(2),)
def nested_modes(x: torch.Tensor) -> List[bool]:
    seen: List[bool] = [torch.is_grad_enabled()]
    with torch.no_grad():
        seen.append(torch.is_grad_enabled())
        with torch.enable_grad():
            seen.append(torch.is_grad_enabled())
        seen.append(torch.is_grad_enabled())
    with torch.set_grad_enabled(False):
        seen.append(torch.is_grad_enabled())
    with torch.inference_mode():
        seen.append(torch.is_grad_enabled())
    seen.append(torch.is_grad_enabled())
    return seen


# save: loads
# case: (torch.ones(2),)
def branch_on_mode(x: torch.Tensor) -> torch.Tensor:
    with torch.no_grad():
        if torch.is_grad_enabled():
            y = x + 1
        else:
            y = x - 1
    return y * 2 if torch.is_grad_enabled() else y
