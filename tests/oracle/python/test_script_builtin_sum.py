"""Python's builtin sum() of tensors in scripted modules (torch.jit.script 1.13 rejects a list of tensors:
"Expected a value of type 'Tensor' for argument 'self' but instead found type 'List[Tensor]'"): outputs of a
ModuleList summed from a generator or a list, compared with eager; the archive runs in torch.jit.load."""
from pyapi_helpers import script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)

import pytest
import torch
from torch import nn


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(4, 3) for _ in range(3)])

    def forward(self, x):
        return sum(h(x) for h in self.heads) + sum([h(x) * 0.5 for h in self.heads])


class Pyramid(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.ModuleList([nn.Conv2d(2, 2, 1) for _ in range(2)])

    def forward(self, feats: list[torch.Tensor]):
        outs = [c(feats[i]) for i, c in enumerate(self.convs)]
        return sum(o.mean() for o in outs), sum(outs, torch.zeros(1))


@pytest.mark.parametrize("make, inputs", [
    (Heads, lambda: (torch.randn(2, 4),)),
    (Pyramid, lambda: ([torch.randn(1, 2, 3, 3), torch.randn(1, 2, 3, 3)],)),
])
def test_sum_of_module_outputs(make, inputs, tmp_path):
    torch.manual_seed(0)
    model = make()
    args = inputs()
    with pytest.raises(Exception):
        torch.jit.script(make())
    with torch.no_grad():
        script_save_and_compare(model, args, model(*args), tmp_path / "m.pt")
