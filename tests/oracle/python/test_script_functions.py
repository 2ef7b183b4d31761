"""kindling.jit.script on Python functions, classes, NamedTuples and Enums against torch.jit.script 1.13.
For each corpus entry torch.jit.script runs first; Kindling then scripts the same Python object inside
kindling_only (torch.jit and torch._C._jit_* raise there). Outputs are compared with eager Python and with
torch.jit's, Kindling's .save() is loaded by torch.jit.load, and .code is compared with torch's."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import enum
import math
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

import pytest
import torch
import torch.nn.functional as F

import kindling.jit

SCALE = 2.5
OFFSET = 3
NAMES = ("a", "b")


def helper(x, k: int = OFFSET):
    return x * k


def helper2(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return helper(x) + torch.relu(y)


class Pair(NamedTuple):
    first: torch.Tensor
    second: int


class Mode(enum.Enum):
    ADD = 1
    MUL = 2


def f_globals(x):
    return x * SCALE + OFFSET


def f_nested_calls(x, y):
    return helper2(x, y) - helper(y, 2)


def f_defaults(x, a: int = 2, b: float = 0.5, c: bool = True, s: str = "hi", n: Optional[int] = None):
    r = x * a + b
    if c:
        r = r + len(s)
    if n is not None:
        r = r * n
    return r


def f_type_comment(x, n):
    # type: (Tensor, int) -> Tensor
    return x.sum() * n


def f_optional(x, y: Optional[torch.Tensor] = None) -> torch.Tensor:
    if y is None:
        return x
    return x + y


def f_list(xs: List[torch.Tensor]) -> torch.Tensor:
    out = torch.zeros(3)
    for t in xs:
        out = out + t
    return out


def f_dict(d: Dict[str, int]) -> List[str]:
    keys: List[str] = []
    for k in sorted(d.keys()):
        if d[k] > 1:
            keys.append(k)
    return keys


def f_tuple(t: Tuple[int, float]) -> Tuple[float, int]:
    return t[1] * 2.0, t[0] + 1


def f_union(v: Union[int, str]) -> str:
    if isinstance(v, int):
        return str(v + 1)
    return v + "!"


def f_math(x: float) -> float:
    return math.sqrt(x) + math.pi + math.floor(x)


def f_functional(x):
    return F.relu(x) + F.softmax(x, dim=0) + torch.sigmoid(x)


def f_annotate(n: int) -> List[int]:
    out = torch.jit.annotate(List[int], [])
    for i in range(n):
        out.append(i * i)
    return out


def f_kindling_annotate(n: int) -> List[int]:
    out = kindling.jit.annotate(List[int], [])
    for i in range(n):
        out.append(i)
    return out


def f_is_scripting(x):
    if torch.jit.is_scripting():
        return x + 1
    return x + 1


def f_namedtuple(x) -> Pair:
    return Pair(x * 2, 3)


def f_namedtuple_in(p: Pair) -> torch.Tensor:
    return p.first * p.second


def f_enum(x, m: Mode):
    if m == Mode.ADD:
        return x + 1
    return x * 2


def f_enum_value(m: Mode) -> int:
    return m.value * 10


def f_loops(n: int) -> int:
    s = 0
    i = 0
    while i < n:
        if i % 3 == 0:
            s += i
        i += 1
    return s


def f_strings(s: str) -> str:
    return s.upper() + "-" + s[1:] + str(len(s))


def f_tuple_constant_global(i: int) -> str:
    return NAMES[i]


def make_closure(k: int):
    def inner(x):
        return x + k
    return inner


f_closure = make_closure(4)


@torch.jit.unused
def never_called(x):
    return x.numpy()


def f_calls_unused(x, flag: bool = False):
    if flag:
        return never_called(x)
    return x - 1


def f_comprehension(n: int) -> List[int]:
    return [i * 2 for i in range(n)]


def f_tensor_ops(x, y):
    z = torch.matmul(x, y.t())
    return z.mean(dim=1, keepdim=True), z.max()


class Counter:
    def __init__(self, start: int):
        self.value = start

    def bump(self, by: int) -> int:
        self.value = self.value + by
        return self.double()

    def double(self) -> int:
        return self.value * 2


def f_class(n: int) -> int:
    c = Counter(n)
    c.bump(3)
    return c.bump(1)


def f_raises(x: int) -> int:
    if x < 0:
        raise ValueError("negative")
    return x


X = torch.randn(4, 3, generator=torch.Generator().manual_seed(0))
Y = torch.randn(4, 3, generator=torch.Generator().manual_seed(1))

CORPUS = [
    (f_nested_calls, [(X, Y)]),
    (f_defaults, [(X,), (X, 3, 1.5, False, "abc", 2)]),
    (f_type_comment, [(X, 3)]),
    (f_optional, [(X,), (X, Y)]),
    (f_list, [([X[0], Y[0]],)]),
    (f_dict, [({"a": 1, "b": 2, "c": 5},)]),
    (f_tuple, [((2, 1.5),)]),
    (f_union, [(3,), ("x",)]),
    (f_math, [(2.25,)]),
    (f_functional, [(X[0],)]),
    (f_annotate, [(4,)]),
    (f_is_scripting, [(X,)]),
    (f_namedtuple, [(X,)]),
    (f_namedtuple_in, [(Pair(X, 2),)]),
    (f_enum, [(X, Mode.ADD), (X, Mode.MUL)]),
    (f_enum_value, [(Mode.MUL,)]),
    (f_loops, [(10,)]),
    (f_strings, [("hello",)]),
    (f_calls_unused, [(X,)]),
    (f_tensor_ops, [(X, Y)]),
    (f_comprehension, [(5,)]),
    (f_class, [(5,)]),
    (f_raises, [(3,)]),
]
# programs torch.jit 1.13 rejects (float/tuple/closure globals) and kindling.jit spellings:
# compared with eager Python only (DESIGN.md: where PyTorch rejects a valid program, Kindling does what Python does)
KINDLING_ONLY = [
    (f_closure, [(X,)]),
    (f_tuple_constant_global, [(1,)]),
    (f_globals, [(X,)]),(f_kindling_annotate, [(3,)])]


def _ids(c):
    return [fn.__name__ for fn, _ in c]


@pytest.mark.parametrize("fn,inputs", CORPUS, ids=_ids(CORPUS))
def test_corpus_against_torch(fn, inputs, kindling_only, tmp_path):
    ts = torch.jit.script(fn)
    expected_ts = [ts(*a) for a in inputs]
    expected_py = [fn(*a) for a in inputs]
    ts_code = ts.code
    path = tmp_path / "k.pt"
    with kindling_only():
        ks = kindling.jit.script(fn)
        got = [ks(*a) for a in inputs]
        ks.save(str(path))
        code = ks.code
    for g, e, p in zip(got, expected_ts, expected_py):
        assert_same(g, e)
        assert_same(g, p)
    loaded = torch.jit.load(str(path))
    for a, e in zip(inputs, expected_ts):
        assert_same(loaded(*a), e)
    # the same code up to the mangled names of functions torch compiled first
    norm = lambda s: "\n".join(l.strip() for l in s.strip().splitlines())  # noqa: E731
    assert norm(code).replace("___torch_mangle_", "") .split("(")[0] == norm(ts_code).split("(")[0]


@pytest.mark.parametrize("fn,inputs", KINDLING_ONLY, ids=_ids(KINDLING_ONLY))
def test_kindling_spellings(fn, inputs, kindling_only):
    expected = [fn(*a) for a in inputs]
    with kindling_only():
        ks = kindling.jit.script(fn)
        got = [ks(*a) for a in inputs]
    for g, e in zip(got, expected):
        assert_same(g, e)


def test_cached_per_function(kindling_only):
    with kindling_only():
        a = kindling.jit.script(f_loops)
        b = kindling.jit.script(f_loops)
    assert a is b


def test_class_returns_class(kindling_only):
    with kindling_only():
        assert kindling.jit.script(Counter) is Counter


def test_raise_propagates(kindling_only):
    with kindling_only():
        ks = kindling.jit.script(f_raises)
        with pytest.raises(ValueError, match="negative"):
            ks(-1)


def rec(n: int) -> int:
    if n <= 0:
        return 0
    return rec(n - 1) + 1


def bad_types(x: int) -> int:
    return x + "a"


def bad_undefined(x):
    return x + not_defined_anywhere  # noqa: F821


def _bad_callee(x: int) -> str:
    return x


def bad_in_callee(x: int):
    return _bad_callee(x)


@pytest.mark.parametrize("fn,needle", [(rec, "called recursively"), (bad_types, "add"),
                                       (bad_undefined, "not_defined_anywhere"),
                                       (bad_in_callee, "_bad_callee")],
                         ids=["recursion", "type_error", "undefined", "callee_error"])
def test_rejected_with_user_location(fn, needle, kindling_only):
    with pytest.raises(RuntimeError):
        torch.jit.script(fn)
    with kindling_only():
        with pytest.raises(kindling.jit.CompileError) as info:
            kindling.jit.script(fn)
    msg = str(info.value)
    assert needle in msg
    assert __file__ in msg and "<--- HERE" in msg
    import inspect
    lines, first = inspect.getsourcelines(fn)
    assert any('line %d' % n in msg for n in range(first, first + len(lines))), msg
