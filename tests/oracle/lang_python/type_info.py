# torch.finfo / torch.iinfo in compiled code (PyTorch 1.13: "Unknown builtin op: aten::finfo"), as transformer
# code writes them for attention masks: the dtype's bits, eps, max, min, tiny, resolution; a constant for a
# constant dtype, chosen at run time for a tensor's dtype; a dtype of the other kind raises TypeError, as
# Python's constructor does. Saved by Kindling (a chain of ifs on the dtype) and run by torch.jit.load.
import torch
from typing import Tuple


# save: loads
# case: (torch.tensor([0.5, 2.0]), torch.tensor([True, False]))
# case: (torch.tensor([0.5, 2.0], dtype=torch.float64), torch.tensor([False, False]))
# case: (torch.tensor([0.5, 2.0], dtype=torch.float16), torch.tensor([True, True]))
def mask_with_finfo_min(scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return scores.masked_fill(mask, torch.finfo(scores.dtype).min)


# save: loads
# case: (torch.zeros(2, dtype=torch.bfloat16),)
# case: (torch.zeros(2),)
def finfo_fields(x: torch.Tensor) -> Tuple[int, float, float, float, float, float]:
    f = torch.finfo(x.dtype)
    return f.bits, f.eps, f.max, f.min, f.tiny, f.resolution


# save: loads
# case: (torch.zeros(2, dtype=torch.int32),)
# case: (torch.zeros(2, dtype=torch.uint8),)
# case: (torch.zeros(2, dtype=torch.int64),)
def iinfo_fields(x: torch.Tensor) -> Tuple[int, int, int, float, int]:
    i = torch.iinfo(x.dtype)
    return i.bits, i.max, i.min, torch.finfo(torch.float64).eps, torch.iinfo(torch.int8).min


# case-raises: (torch.zeros(2, dtype=torch.int32),)
def finfo_of_an_int_dtype(x: torch.Tensor) -> float:
    return torch.finfo(x.dtype).max
