# Ops a tester found missing or wrong (packed sequences: tests/oracle/test_packed_rnn.py): rrelu (eval slope (lower + upper) / 2; training
# slopes drawn from the seeded CPU generator), digamma / polygamma / mvlgamma / lgamma, and trace of
# non-square matrices.
import torch
import torch.nn.functional as F
from typing import List, Tuple


# case: (torch.randn(3, 4), torch.arange(12).view(4, 3))
# case: (torch.randn(5, 2, dtype=torch.float64), torch.ones(2, 6, dtype=torch.int32))
def trace_nonsquare(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [a.trace(), torch.trace(a.t()), b.trace(), torch.zeros(0, 3).trace()]


# case-raises: (torch.ones(2, 3),)
def trace_bool(a: torch.Tensor) -> torch.Tensor:
    return torch.trace(a > 0)


# case: (torch.randn(3, 7) * 3,)
# case: (torch.randn(10, dtype=torch.float64) * 2,)
def rrelu_eval(x: torch.Tensor) -> List[torch.Tensor]:
    y = x.clone()
    torch.rrelu_(y, 0.1, 0.6)
    return [F.rrelu(x), F.rrelu(x, 0.2, 0.3), torch.rrelu(x, 0.05, 0.5, False), y]


# case: (0, torch.randn(4, 5))
# case: (11, torch.randn(3, 3, dtype=torch.float64))
def rrelu_train(seed: int, x: torch.Tensor) -> List[torch.Tensor]:
    torch.manual_seed(seed)
    a = F.rrelu(x, training=True)
    b = F.rrelu(x, 0.3, 0.9, training=True)
    c = x.clone()
    torch.rrelu_(c, 0.1, 0.2, True)
    return [a, b, c, torch.rand(2)]


# case: (torch.rand(12) * 8 + 0.05,)
# case: (torch.tensor([0.5, 1.0, 2.25, 10.0, 31.5, 1e-3], dtype=torch.float64),)
def gamma_family(x: torch.Tensor) -> List[torch.Tensor]:
    return [torch.digamma(x), torch.lgamma(x), torch.polygamma(1, x), torch.polygamma(2, x),
            torch.polygamma(3, x), x.polygamma(4), torch.mvlgamma(x + 2, 3), x.mvlgamma(1)]


# case: (torch.tensor([-2.5, -1.2, -0.3, 0.0, 3.0]),)
def digamma_negative(x: torch.Tensor) -> List[torch.Tensor]:
    y = x.clone()
    y.digamma_()
    z = x.abs() + 0.5
    z.polygamma_(2)
    return [x.digamma(), y, z, torch.special.digamma(x), torch.special.polygamma(1, x.abs() + 1)]


# case: (torch.tensor([1, 2, 5]), torch.tensor([True, False]))
def gamma_integer_inputs(a: torch.Tensor, b: torch.Tensor) -> List[torch.Tensor]:
    return [torch.digamma(a), torch.polygamma(1, a), torch.mvlgamma(a + 1, 2), torch.digamma(b)]


# case: (torch.tensor([0.2, 3.0]), 2)
# case-raises: (torch.tensor([0.2, 3.0]), 0)
# case-raises: (torch.tensor([True]), 1)
def mvlgamma_checks(x: torch.Tensor, p: int) -> torch.Tensor:
    return torch.mvlgamma(x, p)


# case: (torch.tensor([-2.0, -0.5, 0.0, 1.5, -7.25]),)
def functional_rrelu_forms(x: torch.Tensor) -> List[torch.Tensor]:
    y = x.clone()
    F.rrelu(y, 0.1, 0.6, inplace=True)
    return [y, F.rrelu(x), F.rrelu(x, 0.2, training=False), F.rrelu(x, upper=0.5)]
