# torch.device and torch.dtype values: tensor.dtype / tensor.device, comparisons, dtype and device
# arguments of factories and .to(), dtype as a parameter, returned values, is_floating_point.
from typing import List, Optional, Tuple

import torch


# case: (torch.ones(2, dtype=torch.float64),)
# case: (torch.ones(2, dtype=torch.int32),)
def dtype_compare(x: torch.Tensor) -> Tuple[bool, bool, bool]:
    return x.dtype == torch.float64, x.dtype != torch.int32, x.is_floating_point()


# case: (torch.arange(4),)
def dtype_conversion(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return x.to(torch.float32) / 3, x.to(dtype=torch.int8), x.float().to(torch.float64)


# case: (torch.float16,)
# case: (torch.int64,)
def dtype_parameter(dt: torch.dtype) -> torch.Tensor:
    return torch.ones(2, 3, dtype=dt)


# case: (torch.zeros(3, dtype=torch.bfloat16),)
def dtype_returned(x: torch.Tensor) -> torch.dtype:
    return x.dtype


# case: (torch.ones(2),)
def device_returned(x: torch.Tensor) -> torch.device:
    return x.device


# case: (torch.ones(2),)
def device_compare(x: torch.Tensor) -> Tuple[bool, str]:
    d = torch.device("cpu")
    return x.device == d, str(x.device)


# case: (torch.randn(3),)
def device_argument(x: torch.Tensor) -> torch.Tensor:
    y = torch.zeros(3, device=x.device, dtype=x.dtype)
    return (y + x).to(x.device)


# case: (None,)
# case: (torch.float64,)
def optional_dtype(dt: Optional[torch.dtype]) -> torch.Tensor:
    if dt is None:
        return torch.arange(3)
    return torch.arange(3, dtype=dt)


# case: (torch.randn(2, 2),)
def zeros_like_dtype(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.zeros_like(x, dtype=torch.int64), torch.ones_like(x), torch.empty_like(x).fill_(2)]


# case: (torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.float32))
def dtype_promotion(a: torch.Tensor, b: torch.Tensor) -> Tuple[torch.dtype, torch.Tensor]:
    c = a + b
    return c.dtype, c
