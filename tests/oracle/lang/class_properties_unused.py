# Properties of TorchScript classes that PyTorch 1.13 leaves out (torch.jit.frontend.get_class_properties):
# those named in __jit_unused_properties__ and those whose getter is @torch.jit.unused (either decorator
# order). Their bodies are not TorchScript; the class compiles as long as nothing uses them. The other
# properties (one read-only, one with a setter) work as usual.
import torch
from typing import List


@torch.jit.script
class Counter:
    __jit_unused_properties__ = ["as_python_list"]

    def __init__(self, start: int):
        self._n = start

    @property
    def n(self) -> int:
        return self._n

    @n.setter
    def n(self, v: int):
        self._n = v * 2

    @property
    def doubled(self) -> int:
        return self.n * 2

    @property
    def as_python_list(self):
        return list(range(self._n)) + [x for x in iter(range(2))]  # iter(): not TorchScript

    @property
    @torch.jit.unused
    def described(self) -> str:
        return "%d items" % len(object.__dir__(self))

    @torch.jit.unused
    @property
    def also_unused(self):
        return next(iter([self._n]))


# case: (3,)
# case: (-1,)
def counter(start: int) -> List[int]:
    c = Counter(start)
    out = [c.n, c.doubled]
    c.n = c.n + 1
    out.append(c.n)
    out.append(c.doubled)
    return out
