import torch
from typing import List
from torch.jit import Future


class Accumulator:
    def __init__(self, scale: float):
        self.scale = scale

    def apply(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x) * self.scale

    def run_parallel(self, xs: List[torch.Tensor]) -> torch.Tensor:
        futs: List[Future[torch.Tensor]] = []
        for x in xs:
            futs.append(torch.jit.fork(self.apply, x))
        out = torch.zeros(xs[0].shape)
        for f in futs:
            out += torch.jit.wait(f)
        return out


# case: (torch.randn(3, 2),)
def fork_method_of_object(x: torch.Tensor) -> torch.Tensor:
    acc = Accumulator(0.5)
    fut = torch.jit.fork(acc.apply, x)
    return torch.jit.wait(fut)


# case: ([torch.randn(4), torch.randn(4), torch.randn(4)],)
def fork_inside_method(xs: List[torch.Tensor]) -> torch.Tensor:
    return Accumulator(2.0).run_parallel(xs)
