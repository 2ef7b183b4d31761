# A number on the left of //, %, |, &, ^, <<, >> with a Tensor on the right, as Python computes it
# (Tensor.__rfloordiv__, __rmod__, __ror__, ...): a tensor whose dtype promotes the number as a Python scalar
# (an int with an int32 tensor stays int32, a float with an integer tensor is float32). PyTorch 1.13 lowers
# `7 // x` to int(7) // int(x), raising for a tensor of more than one element, and builds the number as a
# float32 scalar_tensor for the others ("bitwise_or_cpu" not implemented for 'Float' for 5 | x). Saved by
# Kindling with the number made a tensor of the promoted dtype, and run by torch.jit.load.
import torch
from typing import Tuple


# save: loads
# case: (torch.tensor([2, -3]), 5, 2.5)
# case: (torch.tensor([2, -3], dtype=torch.int32), 5, 2.5)
# case: (torch.tensor([2.5, -3.0], dtype=torch.float64), 5, 2.5)
# case: (torch.tensor([2.5, -3.0]), -4, -0.75)
# case: (torch.tensor([[4, 7], [1, -2]], dtype=torch.int16), 9, 1e10)
def floordiv_and_mod(x: torch.Tensor, n: int, f: float) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    return 7 // x, f // x, n % x, f % x, -7 // x


# save: loads
# case: (torch.tensor([1, 6, -3]), 5, True)
# case: (torch.tensor([1, 6, -3], dtype=torch.uint8), 3, False)
# case: (torch.tensor([True, False, True]), 2, True)
def bitwise(x: torch.Tensor, n: int, b: bool) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    return n | x, n & x, n ^ x, b & (x > 0)


# save: loads
# case: (torch.tensor([0, 1, 3]), 3)
# case: (torch.tensor([0, 2], dtype=torch.int32), 1)
def shifts(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, torch.Tensor]:
    return n << x, 64 >> x
