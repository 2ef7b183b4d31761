# Inheritance between TorchScript classes, with Python's meaning: PyTorch 1.13 rejects any class with a
# base ("class inheritance is not supported"). Kindling resolves it when the class is compiled: methods and
# properties come from the MRO (C3), super() calls the implementation after the defining class, attributes
# come from the __init__ calls that run, isinstance sees the bases. Each class is compiled whole, so the
# archives Kindling saves hold plain TorchScript classes that torch.jit.load runs.
import torch
from typing import List, Tuple


class Shape:
    def __init__(self, name: str):
        self.name = name
        self.scale = 1.0

    def area(self) -> float:
        return 0.0

    def describe(self) -> str:
        return self.name + ":" + str(int(self.area() * self.scale * 10))


class Rect(Shape):
    def __init__(self, w: float, h: float):
        super().__init__("rect")
        self.w = w
        self.h = h

    def area(self) -> float:
        return self.w * self.h


class Square(Rect):
    def __init__(self, s: float):
        super().__init__(s, s)
        self.name = "square"

    def describe(self) -> str:
        return "[" + super().describe() + "]"


# save: loads
# case: (2.0, 3.0)
# case: (0.5, 4.0)
def override_and_dispatch(w: float, h: float) -> List[str]:
    # describe() is Shape's; area() is the derived class's, called through self
    return [Shape("plain").describe(), Rect(w, h).describe(), Square(w).describe()]


# save: loads
# case: (3.0,)
def inherited_attributes(s: float) -> Tuple[str, float, float, float]:
    q = Square(s)
    q.scale = 2.0
    return q.name, q.w, q.h, q.area() * q.scale


class Counter:
    def __init__(self, start: int):
        self.count = start

    def bump(self, k: int) -> int:
        self.count += k
        return self.count


class NamedCounter(Counter):
    # no __init__: Counter's runs, with self a NamedCounter
    def label(self) -> str:
        return "n" + str(self.count)


# save: loads
# case: (5,)
# case: (-2,)
def inherited_init(start: int) -> Tuple[int, str]:
    c = NamedCounter(start)
    c.bump(3)
    return c.bump(1), c.label()


class A:
    def __init__(self):
        self.trail: List[str] = []
        self.trail.append("A")

    def who(self) -> str:
        return "A"


class B(A):
    def __init__(self):
        super().__init__()
        self.trail.append("B")

    def who(self) -> str:
        return "B" + super().who()


class C(A):
    def __init__(self):
        super().__init__()
        self.trail.append("C")

    def who(self) -> str:
        return "C" + super().who()


class D(B, C):
    def __init__(self):
        super().__init__()
        self.trail.append("D")

    def who(self) -> str:
        return "D" + super().who()


# save: loads
# case: ()
def diamond_mro() -> Tuple[str, List[str], str, str]:
    # C3: D, B, C, A: super() in B reaches C, not A
    d = D()
    return d.who(), d.trail, B().who(), C().who()


class Skipper(D):
    def who(self) -> str:
        # super(B, self) starts after B in Skipper's MRO (Skipper, D, B, C, A): C's who
        return "S" + super(B, self).who()


# save: loads
# case: ()
def explicit_super_start() -> Tuple[str, List[str]]:
    s = Skipper()
    return s.who(), s.trail


# case: (1.0,)
def isinstance_of_bases(x: float) -> List[bool]:
    q = Square(x)
    r = Rect(x, x)
    return [isinstance(q, Shape), isinstance(q, Rect), isinstance(q, Square), isinstance(r, Square),
            isinstance(r, Shape), isinstance(q, (Counter, Rect)), isinstance(q, Counter)]


class Celsius:
    def __init__(self, c: float):
        self._c = c

    @property
    def value(self) -> float:
        return self._c

    @value.setter
    def value(self, v: float):
        self._c = v

    @property
    def unit(self) -> str:
        return "C"


class Kelvin(Celsius):
    @property
    def unit(self) -> str:
        return "K"

    def kelvin(self) -> float:
        return self.value + 273.15


# save: loads
# case: (20.0,)
def inherited_properties(c: float) -> Tuple[float, str, str, float]:
    k = Kelvin(c)
    k.value = k.value + 1.0  # the inherited setter
    return k.value, k.unit, Celsius(c).unit, k.kelvin()


class Plain:
    def __init__(self, x: int):
        super().__init__()  # object.__init__: does nothing
        self.x = x

    def get(self) -> int:
        return self.x


# save: loads
# case: (7,)
def super_init_of_object(x: int) -> int:
    return Plain(x).get()


class Doubler:
    def doubled(self, v: int) -> int:
        return 2 * v + self.offset()

    def offset(self) -> int:
        return 0


class Item(Doubler):
    def __init__(self, v: int):
        self.v = v

    def offset(self) -> int:
        return self.v

    def __lt__(self, other: "Item") -> bool:
        return self.v < other.v


class Priority(Item):
    def __init__(self, v: int, p: int):
        super().__init__(v)
        self.p = p

    def __lt__(self, other: "Priority") -> bool:
        # priority first, then Item's order
        if self.p != other.p:
            return self.p < other.p
        return super().__lt__(other)


# save: loads
# case: (3,)
def mixin_method(v: int) -> Tuple[int, int]:
    # doubled() comes from the mixin; offset() is Item's
    return Item(v).doubled(v), Doubler().doubled(v)


# case: ([3, 1, 2], [1, 1, 0])
# case: ([5, 4, 4, 1], [0, 2, 0, 2])
def sorted_by_inherited_lt(vs: List[int], ps: List[int]) -> List[int]:
    items = [Priority(v, p) for v, p in zip(vs, ps)]
    items.sort()
    return [it.v * 10 + it.p for it in items]


class Base3:
    def __init__(self, k: int):
        self.k = k

    def step(self, x: int) -> int:
        return x + self.k


class Mid3(Base3):
    def step(self, x: int) -> int:
        return super().step(x) * 2


class Top3(Mid3):
    def __init__(self, k: int):
        super().__init__(k + 1)

    def step(self, x: int) -> int:
        return super().step(x) - 1

    def run(self, x: int, n: int) -> int:
        for _ in range(n):
            x = self.step(x)
        return x


# save: loads
# case: (0, 3, 2)
# case: (5, -1, 4)
def three_level_super(x: int, k: int, n: int) -> Tuple[int, int, int]:
    return Top3(k).run(x, n), Mid3(k).step(x), Base3(k).step(x)


class Shaper:
    @staticmethod
    def unit() -> int:
        return 10

    def size(self) -> int:
        return Shaper.unit() * 2


class SubShaper(Shaper):
    def size(self) -> int:
        return super().size() + 1


# save: loads
# case: ()
def inherited_static_method() -> Tuple[int, int, int]:
    return SubShaper().size(), Shaper().size(), SubShaper.unit()


class Validated:
    def __init__(self, x: int):
        if x < 0:
            raise ValueError("negative")
        self.x = x


class Checked(Validated):
    def __init__(self, x: int, y: int):
        super().__init__(x + y)
        self.y = y


# case: (1, 2)
# case-raises: (-5, 2)
def base_init_raises(x: int, y: int) -> Tuple[int, int]:
    c = Checked(x, y)
    return c.x, c.y
