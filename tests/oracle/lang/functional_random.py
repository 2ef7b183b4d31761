# Random tensors seeded with torch.manual_seed inside the program: Kindling's CPU generator reproduces
# PyTorch's (MT19937 and ATen's transformations), so the values must match PyTorch's exactly.
# (torch.randn of 16 or more float32 elements is left out: PyTorch's AVX2 path rounds differently by 1 ulp.)
import torch
from typing import List


# case: (0,)
# case: (3,)
# case: (12345,)
def uniform_family(seed: int) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    return [torch.rand(5), torch.rand(2, 3, dtype=torch.float64), torch.empty(7).uniform_(-2.0, 3.0),
            torch.rand_like(torch.zeros(4, dtype=torch.float64))]


# case: (0,)
# case: (7,)
def integer_draws(seed: int) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    return [torch.randint(0, 10, [6]), torch.randint(5, [2, 2]), torch.randint(-5, 1099511627776, [3]),
            torch.randperm(9), torch.randint_like(torch.zeros(3), 4)]


# case: (0,)
# case: (42,)
def normal_small(seed: int) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    return [torch.randn(5), torch.randn(3, 4, dtype=torch.float64), torch.empty(9).normal_(1.0, 2.0),
            torch.normal(0.5, 3.0, [2, 3]), torch.randn(40, dtype=torch.float64)]


# case: (1,)
def bernoulli_draws(seed: int) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    return [torch.bernoulli(torch.full([8], 0.5)), torch.bernoulli(torch.rand(10)), torch.empty(9).bernoulli_(0.3),
            torch.bernoulli(torch.ones(5), 0.7)]


# case: (5,)
def reseeding_repeats(seed: int) -> bool:
    torch.manual_seed(seed)
    a = torch.rand(6)
    torch.manual_seed(seed)
    b = torch.rand(6)
    return bool(torch.equal(a, b))


# case: (5,)
# case: (99,)
def exponential_draws(seed: int) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    return [torch.empty(7).exponential_(), torch.empty(3, 2, dtype=torch.float64).exponential_(2.5),
            torch.empty(4, 3).t().exponential_(0.5), torch.empty(3, 5)[:, 1:4].t().uniform_(-1.0, 1.0)]


# case: (3,)
def gumbel_softmax_draws(seed: int) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    x = torch.arange(12.0).reshape(3, 4) / 5
    return [torch.nn.functional.gumbel_softmax(x), torch.nn.functional.gumbel_softmax(x, tau=0.5, hard=True, dim=0)]
