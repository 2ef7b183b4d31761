"""nn.Module subclasses calling their bases through super(), scripted by kindling.jit.script against eager.

torch.jit.script 1.13 rejects super() in compiled methods ("'Tensor' object has no attribute or method
'forward'" for super().forward(x), "Python type cannot be used as a value" for super(C, self)); Kindling
finds the base implementation as Python does (the MRO of self's class after the method's class, or after C)
and compiles it as a method of self's class, so the saved archive runs in torch.jit.load. Covered: zero-
argument and explicit super(), three levels each calling the next, a base method that calls a method the
subclass overrides (dispatch through self), mixins earlier in the MRO, subclasses of torch.nn's own modules
(their forward compiled from torch's source, overloads included: nn.LSTM, nn.GRU), two instances sharing a class, and the errors.
"""
from pyapi_helpers import assert_same, script_save_and_compare  # noqa: F401  (first: puts the package on sys.path)

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

import kindling.jit


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x).relu() + self.bias_term(x)

    def bias_term(self, x):
        return x * 0.5

    def scale(self, x, k: int = 2):
        return x * k


class ZeroArg(Base):
    def forward(self, x):
        y = super().forward(x)
        return y + 1


class Explicit(Base):
    def forward(self, x):
        return super(Explicit, self).forward(x) * 2 + super(Explicit, self).scale(x, 3)


class Mid(Base):
    def forward(self, x):
        return super().forward(x) - 3

    def bias_term(self, x):
        return x * 10


class Leaf(Mid):
    """Leaf.forward -> Mid.forward -> Base.forward, whose self.bias_term is Leaf's; super().bias_term is
    Mid's, and Base's scale is reached through two levels."""

    def forward(self, x):
        return super().forward(x) + super().bias_term(x) + super().scale(x)

    def bias_term(self, x):
        return x * 100


class Mixin:
    def shift(self, x):
        return x - 7


class WithMixin(Mixin, Base):
    """MRO: WithMixin, Mixin, Base: super().forward skips the mixin, which has none; super().shift finds it."""

    def forward(self, x):
        return super().forward(x) + super().shift(x)


class ScaledLinear(nn.Linear):
    def forward(self, x):
        return super().forward(x) * 2


class PaddedConv(nn.Conv2d):
    def forward(self, x):
        return F.relu(super().forward(F.pad(x, [1, 1, 1, 1])))


class NormThenAct(nn.BatchNorm1d):
    def forward(self, x):
        return torch.tanh(super().forward(x))


class LastStep(nn.LSTM):
    """nn.LSTM's forward is overloaded (@_overload_method: Tensor or PackedSequence input): super().forward
    compiles both overloads under the super name and the call picks the one its arguments match."""

    def forward(self, x):
        out, (h, c) = super().forward(x)
        return out[:, -1] + h[-1] + c[-1]


class GruOut(nn.GRU):
    def forward(self, x):
        out, h = super().forward(x)
        return out * 2 + h.sum()


class Pair(nn.Module):
    """Two instances of one subclass: one class, one compiled super method."""

    def __init__(self):
        super().__init__()
        self.a = ZeroArg()
        self.b = ZeroArg()

    def forward(self, x):
        return self.a(x) - self.b(x)


CASES = {
    "zero_arg": (ZeroArg, lambda: (torch.randn(3, 4),)),
    "explicit": (Explicit, lambda: (torch.randn(3, 4),)),
    "three_levels": (Leaf, lambda: (torch.randn(2, 4),)),
    "mixin": (WithMixin, lambda: (torch.randn(2, 4),)),
    "nn_linear_subclass": (lambda: ScaledLinear(4, 3), lambda: (torch.randn(5, 4),)),
    "nn_conv2d_subclass": (lambda: PaddedConv(2, 3, 3), lambda: (torch.randn(1, 2, 6, 6),)),
    "nn_batchnorm_subclass": (lambda: NormThenAct(4), lambda: (torch.randn(6, 4),)),
    "nn_lstm_subclass": (lambda: LastStep(4, 5, batch_first=True), lambda: (torch.randn(2, 3, 4),)),
    "nn_gru_subclass": (lambda: GruOut(4, 3, num_layers=2), lambda: (torch.randn(3, 2, 4),)),
    "shared_class": (Pair, lambda: (torch.randn(2, 4),)),
}


@pytest.mark.parametrize("train", [False, True], ids=["eval", "train"])
@pytest.mark.parametrize("case", list(CASES))
def test_super_calls_match_eager(case, train, tmp_path):
    make, inputs = CASES[case]
    torch.manual_seed(0)
    model = make().train(train)
    args = inputs()
    with torch.no_grad():
        expected = model(*args)
        if not train:
            with pytest.raises(Exception):  # torch.jit.script 1.13 has no super()
                torch.jit.script(model)
        ours = script_save_and_compare(model, args, expected, tmp_path / "m.pt")
    code = ours.code
    assert "super" in code or case == "shared_class", code


def test_two_instances_share_one_class():
    torch.manual_seed(0)
    ours = kindling.jit.script(Pair())
    assert ours.a._c.qualified_name == ours.b._c.qualified_name
    assert "forward__super_Base" in ours.a.code


class NoSuchMethod(Base):
    def forward(self, x):
        return super().missing(x)


class ModuleInit(Base):
    def forward(self, x):
        super().__init__()
        return x


class NotAClass(Base):
    def forward(self, x):
        return super(x, self).forward(x)


class WrongClass(Base):
    def forward(self, x):
        return super(Pair, self).forward(x)


@pytest.mark.parametrize("cls, message", [
    (NoSuchMethod, "'super' object has no attribute 'missing'"),
    (ModuleInit, "super().__init__() cannot be called from compiled code"),
    (NotAClass, "'x' is not a class"),
    (WrongClass, "Pair is not a base of WrongClass"),
], ids=["no_such_method", "module_init", "not_a_class", "wrong_class"])
def test_super_errors_name_the_problem(cls, message):
    with pytest.raises(kindling.jit.CompileError) as e:
        kindling.jit.script(cls())
    text = str(e.value)
    assert message in text, text
    assert "<--- HERE" in text and "test_script_inheritance.py" in text, text
