# torch.nn.functional activations: the builtins (F.gelu, F.softplus, F.logsigmoid, F.prelu) and the
# functions PyTorch compiles from Python source (F.relu, F.elu, F.leaky_relu, F.hardtanh, ...), with
# their inplace variants and keyword arguments.
import torch
import torch.nn.functional as F
from typing import List, Tuple


# case: (torch.randn(3, 4),)
def relu_both(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    y = x.clone()
    F.relu(y, inplace=True)
    return F.relu(x), y


# case: (torch.randn(2, 5) * 4,)
def relu6_hardtanh(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.relu6(x), F.hardtanh(x), F.hardtanh(x, -2.0, 0.5), F.hardtanh(x, min_val=0.0, max_val=3.0)]


# case: (torch.randn(4, 3) * 3,)
def elu_family(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.elu(x), F.elu(x, alpha=0.5), F.selu(x), F.celu(x, 2.0), F.leaky_relu(x), F.leaky_relu(x, 0.2)]


# case: (torch.randn(3, 6) * 4,)
def gelu_silu_mish(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.gelu(x), F.gelu(x, approximate="tanh"), F.silu(x), F.mish(x), F.hardswish(x), F.hardsigmoid(x)]


# case: (torch.randn(5) * 3,)
def smooth_activations(x: torch.Tensor) -> List[torch.Tensor]:
    return [F.softplus(x), F.softplus(x, beta=2.0, threshold=1.0), F.logsigmoid(x), F.softsign(x),
            F.tanhshrink(x), F.softshrink(x, 0.7), F.hardshrink(x)]


# case: (torch.randn(2, 3, 4), torch.tensor([0.25, 0.5, -0.1]))
def prelu_threshold(x: torch.Tensor, w: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.prelu(x, w), F.threshold(x, 0.1, -5.0)


# case: (torch.randn(4, 6),)
def glu_halves(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return F.glu(x), F.glu(x, dim=0)


# case: (torch.randn(3, 3),)
def inplace_changes_input(x: torch.Tensor) -> torch.Tensor:
    y = x * 2
    F.leaky_relu(y, 0.1, inplace=True)
    F.elu(y, inplace=True)
    return y


# case-raises: (torch.zeros(()),)
def glu_scalar(x: torch.Tensor) -> torch.Tensor:
    return F.glu(x)
