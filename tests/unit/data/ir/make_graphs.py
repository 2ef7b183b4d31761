# Regenerates the PyTorch-printed graphs the IR printer/parser tests compare against.
# Run with the oracle: /usr/bin/python3 make_graphs.py  (PyTorch 1.13.1). Source locations are stripped
# because they name this file's path.
import re
import torch
from typing import Any, Dict, List, Optional, Tuple


def strip(g):
    return re.sub(r" # [^\n]*", "", str(g))


def constants(x, c: bool, s: str, l: List[int]):
    a = 1
    b = 0.1
    d = 1.0
    e = "abc"
    g = [1, 2]
    h = None
    y = x + x
    if c:
        z = y
    else:
        z = x
    for i in range(3):
        z = z * 2.5
    t = (1, 2.0, "s")
    j = 1e-5
    q = True
    w = -3
    inf = float("inf")
    dev = torch.device("cpu")
    dt = torch.float32
    return z, a, b, d, e, g, h, t, q, w, j, inf, dev, dt, 1e20, 123456789.0, 1.5e-7


def loops(t: Tuple[int, int, int], i: int, l: List[int]):
    a = t[1:]
    b = t[i]
    c = t[1]
    for j in range(i):
        i = i + j
    while i < 10:
        i += 1
    return a, b, c, i


class Sub(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(3, 4, 3)

    def forward(self, x):
        return self.conv1(x)


def helper(a: int) -> int:
    return a + 1


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.t = torch.tensor([1.0, 2.0])
        self.u = torch.tensor(3)

    def forward(self, x, y: Any, o: Optional[int]):
        z = self.sub(x)
        self.u = self.u + 1
        if isinstance(y, int):
            print("int", y)
        if o is not None:
            x = x + o
        d = {"a": 1}
        w = helper(3)
        assert w > 2, "bad"
        l = [x, z]
        p, q = l
        return x + self.t + p, d, x.size()[0], x.dtype, x.device


if __name__ == "__main__":
    open("constants.graph", "w").write(strip(torch.jit.script(constants).graph))
    open("loops.graph", "w").write(strip(torch.jit.script(loops).graph))
    m = torch.jit.script(M())
    open("module.graph", "w").write(strip(m.graph))
    open("module_inlined.graph", "w").write(strip(m.inlined_graph))
