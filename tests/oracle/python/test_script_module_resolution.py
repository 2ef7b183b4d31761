"""Name resolution inside nn.Module methods scripted by kindling.jit.script, against torch.jit.script 1.13.

A method body sees what a scripted function sees: its module's globals (torch.nn.functional as F, math,
constants, helper functions compiled recursively), its closure variables, torch.jit.is_scripting(), and
`# type:` comments; the methods it calls on self are compiled when the compiler meets the call. Each module
is scripted by torch.jit first, then by kindling.jit.script inside kindling_only (torch.jit and
torch._C._jit_* raise there); outputs equal eager's and torch.jit's, and Kindling's saved archive loaded
by torch.jit.load gives the same outputs."""
from pyapi_helpers import assert_same, kindling_only, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)
import math
from typing import List, Optional, Tuple

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import kindling.jit

EPS = 1e-3
SIZES = (2, 3)
NEGATIVE_SLOPE = 0.25
TAG = "abc"


def scaled(x: torch.Tensor, k: float = 2.0) -> torch.Tensor:
    return x * k + 0.001


def twice_scaled(x):
    return scaled(scaled(x), 0.5)


def clamp_pair(x: torch.Tensor, lo: float, hi: float) -> Tuple[torch.Tensor, torch.Tensor]:
    return x.clamp(min=lo), x.clamp(max=hi)


class UsesF(nn.Module):
    def forward(self, x):
        return F.relu(x) + F.leaky_relu(x, 0.25) + F.softmax(x, dim=-1)


class UsesMath(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = 4

    def forward(self, x):
        return x / math.sqrt(self.d) + math.pi + math.log(2.0)


class UsesHelper(nn.Module):
    def forward(self, x):
        a, b = clamp_pair(x, -0.5, 0.5)
        return twice_scaled(x) + scaled(a, 3.0) - b


class UsesConstants(nn.Module):
    def forward(self, x):
        y = (x + EPS + len(TAG)) * SIZES[0] + SIZES[1]
        return y * NEGATIVE_SLOPE


def make_closure_module():
    factor = 1.5
    offset = 2

    class ClosureModule(nn.Module):
        def forward(self, x):
            return x * factor + offset

    return ClosureModule()


class UsesIsScripting(nn.Module):
    def forward(self, x):
        if not torch.jit.is_scripting():
            # Python only: a list of mixed values torch.jit.script would reject
            parts = [x, "unused", None]
            return parts[0] * 2
        return x * 2


class TypeComment(nn.Module):
    def forward(self, x, n, scales):
        # type: (Tensor, int, List[float]) -> Tensor
        y = x * n
        for s in scales:
            y = y + s
        return y


class TypeCommentHelper(nn.Module):
    def forward(self, x):
        return self.pick(x, None) + self.pick(x, 3)

    def pick(self, x, k):
        # type: (Tensor, Optional[int]) -> Tensor
        if k is None:
            return x
        return x * k


class SelfCallChain(nn.Module):
    """Methods reached only through other methods, one of them defined after forward, one inherited."""

    def forward(self, x):
        return self.outer(x) + self.base_helper(x)

    def outer(self, x):
        return self.inner(x, 2) * 2

    def inner(self, x: torch.Tensor, k: int) -> torch.Tensor:
        return F.gelu(x) + k


class Base(nn.Module):
    def base_helper(self, x):
        return torch.tanh(x) * math.e


class Derived(Base, SelfCallChain):
    pass


class SubmoduleMethods(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.chain = Derived()

    def forward(self, x):
        return self.chain.inner(self.lin(x), 1) + F.linear(x, self.lin.weight)


CASES = {
    "F": (UsesF, lambda: (torch.randn(3, 4),)),
    "math": (UsesMath, lambda: (torch.randn(3, 4),)),
    "helper": (UsesHelper, lambda: (torch.randn(3, 4),)),
    "constants": (UsesConstants, lambda: (torch.randn(3, 4),)),
    "closure": (make_closure_module, lambda: (torch.randn(3, 4),)),
    "is_scripting": (UsesIsScripting, lambda: (torch.randn(3, 4),)),
    "type_comment": (TypeComment, lambda: (torch.randn(3, 4), 3, [0.5, 1.5])),
    "type_comment_helper": (TypeCommentHelper, lambda: (torch.randn(3, 4),)),
    "self_calls": (Derived, lambda: (torch.randn(3, 4),)),
    "submodule_methods": (SubmoduleMethods, lambda: (torch.randn(3, 4),)),
}


# torch.jit.script 1.13 rejects numbers and strings captured from globals or closures ("python value of
# type 'float' cannot be used as a value"); Kindling uses them as constants, as Python does (DESIGN.md:
# where PyTorch rejects a valid program), and the results are compared with eager.
TORCH_REJECTS = {"constants", "closure"}


@pytest.mark.parametrize("case", list(CASES))
def test_method_resolution_matches_torch(case, kindling_only, tmp_path):
    make, inputs = CASES[case]
    torch.manual_seed(0)
    model = make()
    args = inputs()
    expected = model(*args)
    if case in TORCH_REJECTS:
        with pytest.raises(RuntimeError, match="cannot be used as a value"):
            torch.jit.script(model)
        theirs = expected
    else:
        theirs = torch.jit.script(model)(*args)
    script_save_and_compare(model, args, expected, tmp_path / "m.pt", theirs)


def test_helper_compiled_once_per_function(kindling_only):
    with kindling_only():
        a = kindling.jit.script(UsesHelper())
        b = kindling.jit.script(UsesHelper())
        x = torch.randn(2, 4)
        assert_same(a(x), b(x))
    assert "scaled" in a.code


def test_undefined_global_in_method_is_reported(kindling_only):
    class Bad(nn.Module):
        def forward(self, x):
            return x + not_defined_anywhere  # noqa: F821

    with pytest.raises(Exception, match="not_defined_anywhere"):
        torch.jit.script(Bad())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as e:
            kindling.jit.script(Bad())
    msg = str(e.value)
    assert "not_defined_anywhere" in msg and "test_script_module_resolution.py" in msg and "HERE" in msg


def test_error_in_called_method_names_caller(kindling_only):
    class BadCallee(nn.Module):
        def forward(self, x):
            return self.broken(x)

        def broken(self, x):
            return x + "text"

    with pytest.raises(Exception):
        torch.jit.script(BadCallee())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as e:
            kindling.jit.script(BadCallee())
        # the failed type is not reused half-compiled: scripting again reports the same error
        with pytest.raises(kindling.jit.CompileError):
            kindling.jit.script(BadCallee())
    msg = str(e.value)
    assert "broken" in msg and "forward" in msg


def test_ignored_method_called_runs_in_python(kindling_only):
    """As torch.jit: the @ignore'd method is called back in Python (test_script_torch_parity.py has more)."""
    class CallsIgnored(nn.Module):
        def forward(self, x):
            return self.py(x)

        @torch.jit.ignore
        def py(self, x):
            return x * 2

    x = torch.ones(2)
    with kindling_only():
        assert torch.equal(kindling.jit.script(CallsIgnored())(x), x * 2)


def test_recursive_methods_rejected(kindling_only):
    class Recursive(nn.Module):
        def forward(self, x):
            return self.again(x, 3)

        def again(self, x: torch.Tensor, n: int) -> torch.Tensor:
            if n == 0:
                return x
            return self.again(x, n - 1)

    with pytest.raises(Exception):
        torch.jit.script(Recursive())
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError, match="[Rr]ecursi"):
            kindling.jit.script(Recursive())
