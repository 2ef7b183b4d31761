"""TorchScript classes with user base classes, compiled by kindling.jit.script, against eager Python.

torch.jit.script 1.13 rejects any base class of a TorchScript class ("class inheritance is not supported");
Kindling resolves inheritance when the derived class is compiled (frontend/class_inheritance.h): the C3 MRO,
each method and property from the first class of the MRO defining it, compiled as a method of the derived
class; super() through the MRO; attributes from the __init__ chain; isinstance of a base. The base classes
are found from the Python class (their source and globals), also when they are local to a function. The
oracle is eager Python: every function below runs as plain Python and as Kindling's compiled function, and
the archive Kindling saves is loaded by torch.jit.load (plain TorchScript classes) and gives the same value.
"""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import List, Optional

import pytest
import torch

import kindling.jit


class Shape:
    def __init__(self, name: str):
        self.name = name

    def area(self) -> float:
        return 0.0

    def describe(self) -> str:
        return self.name + ":" + str(int(self.area() * 100))

    @property
    def double_area(self) -> float:
        return 2.0 * self.area()

    @staticmethod
    def unit() -> float:
        return 1.0


class Rect(Shape):
    def __init__(self, w: float, h: float):
        super().__init__("rect")
        self.w = w
        self.h = h

    def area(self) -> float:
        return self.w * self.h


class Square(Rect):
    def __init__(self, s: float):
        super(Square, self).__init__(s, s)
        self.name = "square"

    def describe(self) -> str:
        return "[" + super().describe() + "]"


def describe_shapes(x: float) -> List[str]:
    r = Rect(x, 2.0)
    s = Square(x)
    return [r.describe(), s.describe(), str(int(s.double_area)), str(int(Square.unit() + r.area()))]


def isinstance_of_bases(x: float) -> List[bool]:
    s = Square(x)
    r = Rect(x, x)
    return [isinstance(s, Shape), isinstance(s, Rect), isinstance(r, Square), isinstance(r, Shape)]


class A:
    def __init__(self):
        self.trace: List[str] = []

    def who(self) -> str:
        return "A"

    def chain(self) -> List[str]:
        self.trace.append("A")
        return self.trace


class B(A):
    def who(self) -> str:
        return "B" + super().who()

    def chain(self) -> List[str]:
        self.trace.append("B")
        return super().chain()


class C(A):
    def who(self) -> str:
        return "C" + super().who()

    def chain(self) -> List[str]:
        self.trace.append("C")
        return super().chain()


class D(B, C):
    def who(self) -> str:
        return "D" + super().who()

    def chain(self) -> List[str]:
        self.trace.append("D")
        return super().chain()


def diamond(n: int) -> List[str]:
    d = D()
    out = [d.who()]
    for _ in range(n):
        out = out + d.chain()
    return out


class Item:
    def __init__(self, key: int):
        self.key = key

    def __lt__(self, other: "Item") -> bool:
        return self.key < other.key

    def same(self, other: Optional["Item"]) -> bool:
        return other is not None and other.key == self.key


class Tagged(Item):
    def __init__(self, key: int, tag: str):
        super().__init__(key)
        self.tag = tag


def sorted_by_inherited_lt(keys: List[int]) -> List[str]:
    items = [Tagged(k, "t" + str(k)) for k in keys]
    items.sort()
    first = items[0]
    return [t.tag for t in items] + [str(first.same(items[0])), str(first.same(None))]


class Counter:
    def __init__(self, start: int):
        self.count = start

    def step(self) -> int:
        self.count += self.increment()
        return self.count

    def increment(self) -> int:
        return 1


class ByTwo(Counter):
    def increment(self) -> int:
        return 2


def dispatch_through_self(n: int) -> List[int]:
    a = Counter(n)
    b = ByTwo(n)
    return [a.step(), a.step(), b.step(), b.step()]


class Scaler:
    def __init__(self, k: float):
        self.k = k

    def apply(self, t: torch.Tensor) -> torch.Tensor:
        return t * self.k


class Shifted(Scaler):
    def __init__(self, k: float, b: float):
        super().__init__(k)
        self.b = b

    def apply(self, t: torch.Tensor) -> torch.Tensor:
        return super().apply(t) + self.b


def tensor_state(x: torch.Tensor) -> torch.Tensor:
    return Shifted(3.0, 0.5).apply(x) + Scaler(2.0).apply(x)


CASES = [
    (describe_shapes, (1.5,)),
    (isinstance_of_bases, (2.0,)),
    (diamond, (2,)),
    (sorted_by_inherited_lt, ([5, 1, 4, 2],)),
    (dispatch_through_self, (10,)),
    (tensor_state, (torch.arange(6, dtype=torch.float32).reshape(2, 3),)),
]


@pytest.mark.parametrize("fn,args", CASES, ids=[c[0].__name__ for c in CASES])
def test_compiled_like_python(fn, args, tmp_path, kindling_only):
    expected = fn(*args)
    with kindling_only():
        scripted = kindling.jit.script(fn)
        got = scripted(*args)
        path = tmp_path / (fn.__name__ + ".pt")
        kindling.jit.save(scripted, str(path))
    assert_same(got, expected)
    loaded = torch.jit.load(str(path))
    assert_same(loaded(*args), expected)


def test_base_defined_in_a_function_is_found():
    class LocalBase:
        def __init__(self, v: int):
            self.v = v

        def get(self) -> int:
            return self.v * 10

    class LocalDerived(LocalBase):
        def plus(self, k: int) -> int:
            return self.get() + k

    def use(k: int) -> int:
        return LocalDerived(k).plus(1)

    assert kindling.jit.script(use)(4) == use(4)


class WithDictBase(dict):
    def size(self) -> int:
        return 0


class Plain:
    def get(self) -> int:
        return 1


class NeedsMissing(Plain):
    def __init__(self):
        self.x = 1

    def bad(self) -> int:
        return self.get() + undefined_name_here  # noqa: F821


def use_dict_base() -> int:
    return WithDictBase().size()


def use_needs_missing() -> int:
    return NeedsMissing().bad()


def base_object_to_inherited_method() -> bool:
    # Python compares a Tagged with an Item; the inherited __lt__ takes Tagged objects (no subtyping)
    return Tagged(1, "a") < Item(2)


def derived_object_as_base() -> int:
    x: Item = Tagged(3, "a")
    return x.key


@pytest.mark.parametrize("fn,message", [
    (base_object_to_inherited_method, "Expected a value of type '__torch__.test_script_class_inheritance.Tagged' "
                                      "for argument 'other' but instead found type "
                                      "'__torch__.test_script_class_inheritance.Item'"),
    (derived_object_as_base, "Variable 'x' is annotated with type __torch__.test_script_class_inheritance.Item"),
    (use_dict_base, "base class 'dict' of 'WithDictBase' is not a TorchScript class"),
    (use_needs_missing, "undefined_name_here"),
])
def test_errors_name_the_problem(fn, message):
    with pytest.raises(Exception) as e:
        kindling.jit.script(fn)
    assert message in str(e.value)

