# User classes: __init__ with typed attributes, methods calling each other, classes holding lists, dicts
# and tensors, classes as values (arguments, returns, list elements), class methods used as constructors,
# attribute mutation, __len__/__getitem__/__contains__ style magic methods, classes composing classes.
from typing import Dict, List, Optional, Tuple

import torch


class Counter:
    def __init__(self, start: int):
        self.count = start
        self.history: List[int] = []

    def bump(self, by: int) -> int:
        self.history.append(self.count)
        self.count += by
        return self.count

    def twice(self, by: int) -> int:
        self.bump(by)
        return self.bump(by)


# case: (3, 2)
def counter_methods(start: int, by: int) -> Tuple[int, List[int]]:
    c = Counter(start)
    c.twice(by)
    c.bump(10)
    return c.count, c.history


class Affine:
    def __init__(self, w: torch.Tensor, b: torch.Tensor):
        self.w = w
        self.b = b

    def apply(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.w + self.b

    def compose(self, other: "Affine") -> "Affine":
        return Affine(self.w * other.w, self.w * other.b + self.b)


# case: (torch.randn(4),)
def class_holding_tensors(x: torch.Tensor) -> torch.Tensor:
    f = Affine(torch.full((4,), 2.0), torch.ones(4))
    g = Affine(torch.full((4,), -1.0), torch.arange(4.0))
    return f.compose(g).apply(x) - f.apply(g.apply(x))


class Point:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y

    def scaled(self, k: float) -> "Point":
        return Point(self.x * k, self.y * k)


def make_points(n: int) -> List[Point]:
    ps: List[Point] = []
    for i in range(n):
        ps.append(Point(float(i), float(-i)))
    return ps


# case: (4,)
def list_of_objects(n: int) -> List[float]:
    return [p.scaled(0.5).norm2() for p in make_points(n)]


# case: (1.0, 2.0)
def object_as_argument_and_mutation(x: float, y: float) -> Tuple[float, float]:
    p = Point(x, y)
    q = p
    q.x = 10.0
    return p.x, q.y


class Stack:
    def __init__(self):
        self.items: List[int] = []

    def push(self, v: int):
        self.items.append(v)

    def pop(self) -> int:
        return self.items.pop()

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> int:
        return self.items[i]

    def __contains__(self, v: int) -> bool:
        return v in self.items

    def empty(self) -> bool:
        return len(self) == 0


# case: ([5, 6, 7],)
def magic_methods(xs: List[int]) -> Tuple[int, int, int, bool, bool, bool]:
    s = Stack()
    for x in xs:
        s.push(x)
    top = s.pop()
    return top, len(s), s[0], 6 in s, 7 in s, s.empty()


class Registry:
    def __init__(self):
        self.table: Dict[str, int] = {}
        # `self.last: Optional[str] = None` would make a NoneType attribute in PyTorch 1.13
        self.last = torch.jit.annotate(Optional[str], None)

    def add(self, name: str, v: int):
        self.table[name] = v
        self.last = name

    def last_value(self) -> int:
        last = self.last
        if last is None:
            return -1
        return self.table[last]


# case: (["a", "b"],)
# case: ([],)
def class_with_optional_attribute(names: List[str]) -> int:
    r = Registry()
    for i, n in enumerate(names):
        r.add(n, i * 10 + 1)
    return r.last_value()


class Temperature:
    def __init__(self, kelvin: float):
        self.kelvin = kelvin

    @staticmethod
    def from_celsius(c: float) -> "Temperature":
        return Temperature(c + 273.15)

    def celsius(self) -> float:
        return self.kelvin - 273.15


# case: (25.0,)
def static_method_constructor(c: float) -> Tuple[float, float]:
    t = Temperature.from_celsius(c)
    return t.kelvin, t.celsius()


class Outer:
    def __init__(self, inner: Counter, scale: int):
        self.inner = inner
        self.scale = scale

    def run(self) -> int:
        return self.inner.bump(self.scale) * self.scale


# case: (2, 3)
def class_composition(start: int, scale: int) -> Tuple[int, int]:
    c = Counter(start)
    o = Outer(c, scale)
    r = o.run()
    return r, c.count


def returns_object(v: int) -> Counter:
    c = Counter(v)
    c.bump(1)
    return c


# case: (41,)
def object_returned_from_helper(v: int) -> int:
    return returns_object(v).count


class Accumulator:
    def __init__(self, shape: List[int]):
        self.total = torch.zeros(shape)
        self.n = 0

    def add(self, x: torch.Tensor):
        self.total += x
        self.n += 1

    def mean(self) -> torch.Tensor:
        return self.total / self.n


# case: ([torch.randn(2, 2), torch.randn(2, 2), torch.randn(2, 2)],)
def class_inplace_tensor_attribute(xs: List[torch.Tensor]) -> torch.Tensor:
    acc = Accumulator([2, 2])
    for x in xs:
        acc.add(x)
    return acc.mean()


# case: (True,)
# case: (False,)
def object_in_branches(flag: bool) -> float:
    if flag:
        p = Point(1.0, 2.0)
    else:
        p = Point(3.0, 4.0)
    return p.norm2()


class Chain:
    def __init__(self, xs: List[int]):
        self.xs = xs

    def total(self) -> int:
        return sum(self.xs)

    def doubled(self) -> "Chain":
        return Chain([2 * x for x in self.xs])


# case: ([1, 2, 3],)
def method_chaining(xs: List[int]) -> int:
    return Chain(xs).doubled().doubled().total()


class Window:
    def __init__(self, size: int, fill: float = 0.0):
        self.size = size
        self.values: List[float] = [fill] * size
        self.pos = 0

    def push(self, v: float, times: int = 1):
        for _ in range(times):
            self.values[self.pos] = v
            self.pos = (self.pos + 1) % self.size

    def mean(self) -> float:
        return sum(self.values) / float(self.size)


# case: (3,)
def method_default_arguments(size: int) -> Tuple[float, List[float]]:
    w = Window(size)
    w.push(1.0)
    w.push(4.0, times=2)
    w2 = Window(2, fill=-1.0)
    return w.mean(), w2.values


class Vec2:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y

    def __add__(self, other: "Vec2") -> "Vec2":
        return Vec2(self.x + other.x, self.y + other.y)

    def __eq__(self, other: "Vec2") -> bool:
        return self.x == other.x and self.y == other.y


# case: (1.0, 2.0)
def operator_magic_methods(x: float, y: float) -> Tuple[float, float, bool, bool]:
    a = Vec2(x, y)
    b = a + Vec2(0.5, 0.5)
    return b.x, b.y, a == Vec2(x, y), a == b
