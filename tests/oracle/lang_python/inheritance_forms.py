# More of inheritance between TorchScript classes (PyTorch 1.13: "class inheritance is not supported"):
# inherited magic methods (__len__, __getitem__, __contains__, __eq__, __add__), an inherited property with
# its setter, a property overridden in the derived class, super() chains passing arguments through three
# levels, a mixin whose methods call the class's own, and an inherited method that builds an object of the
# derived class's type through self. Saved archives are plain TorchScript classes torch.jit.load runs.
from typing import List, Tuple


class Bag:
    def __init__(self, items: List[int]):
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> int:
        return self.items[i]

    def __contains__(self, x: int) -> bool:
        return x in self.items


class SortedBag(Bag):
    def __init__(self, items: List[int]):
        super().__init__(sorted(items))


# save: loads
# case: ([3, 1, 2],)
# case: ([],)
def inherited_container_methods(xs: List[int]) -> Tuple[int, int, bool, bool]:
    b = SortedBag(xs)
    first = b[0] if len(b) > 0 else -1
    return len(b), first, 2 in b, 7 in b


class Vec:
    def __init__(self, x: int, y: int):
        self.x = x
        self.y = y

    def __eq__(self, other: "Vec") -> bool:
        return self.x == other.x and self.y == other.y

    def __add__(self, other: "Vec") -> "Vec":
        return Vec(self.x + other.x, self.y + other.y)


class NamedVec(Vec):
    def __init__(self, x: int, y: int, name: str):
        super().__init__(x, y)
        self.name = name


# save: loads
# case: (1, 2)
def inherited_eq_and_add(x: int, y: int) -> Tuple[bool, bool, int]:
    a = NamedVec(x, y, "a")
    b = NamedVec(x, y, "b")
    c = NamedVec(x + 1, y, "c")
    s = a + b
    return a == b, a == c, s.x + s.y


class Temperature:
    def __init__(self, c: float):
        self._c = c

    @property
    def celsius(self) -> float:
        return self._c

    @celsius.setter
    def celsius(self, v: float):
        self._c = max(v, -273.15)

    @property
    def label(self) -> str:
        return "t"


class Reading(Temperature):
    def __init__(self, c: float, where: str):
        super().__init__(c)
        self.where = where

    @property
    def label(self) -> str:
        return "reading@" + self.where


# save: loads
# case: (20.0, -500.0)
# case: (1.5, 3.0)
def inherited_property_and_setter(c: float, later: float) -> Tuple[float, float, str, str]:
    r = Reading(c, "lab")
    before = r.celsius
    r.celsius = later
    return before, r.celsius, r.label, Temperature(c).label


class Level1:
    def __init__(self, a: int):
        self.a = a

    def total(self, k: int) -> int:
        return self.a * k


class Level2(Level1):
    def __init__(self, a: int, b: int):
        super().__init__(a)
        self.b = b

    def total(self, k: int) -> int:
        return super().total(k) + self.b * k


class Level3(Level2):
    def __init__(self, a: int, b: int, c: int):
        super().__init__(a, b)
        self.c = c

    def total(self, k: int) -> int:
        return super().total(k + 1) + self.c


# save: loads
# case: (2, 3, 4, 10)
def three_level_super_with_arguments(a: int, b: int, c: int, k: int) -> Tuple[int, int, int]:
    return Level1(a).total(k), Level2(a, b).total(k), Level3(a, b, c).total(k)


class DescribeMixin:
    def describe(self) -> str:
        return self.kind() + "(" + str(self.size()) + ")"


class Box(DescribeMixin):
    def __init__(self, n: int):
        self.n = n

    def kind(self) -> str:
        return "box"

    def size(self) -> int:
        return self.n


class Crate(Box):
    def kind(self) -> str:
        return "crate"


# save: loads
# case: (3,)
def mixin_calls_methods_of_self(n: int) -> List[str]:
    return [Box(n).describe(), Crate(n + 1).describe()]


class Account:
    def __init__(self, balance: int):
        self.balance = balance
        self.log: List[str] = []

    def deposit(self, amount: int) -> int:
        self.balance += self.fee_adjusted(amount)
        self.log.append("d" + str(amount))
        return self.balance

    def fee_adjusted(self, amount: int) -> int:
        return amount


class FeeAccount(Account):
    def __init__(self, balance: int, fee: int):
        super().__init__(balance)
        self.fee = fee

    def fee_adjusted(self, amount: int) -> int:
        return super().fee_adjusted(amount) - self.fee


# save: loads
# case: (100, [10, 20], 1)
def overridden_hook_with_super(balance: int, amounts: List[int], fee: int) -> Tuple[int, int, List[str]]:
    a = Account(balance)
    f = FeeAccount(balance, fee)
    for x in amounts:
        a.deposit(x)
        f.deposit(x)
    return a.balance, f.balance, f.log


class Shape:
    def __init__(self, name: str):
        self.name = name

    def area(self) -> float:
        return 0.0


class Circle(Shape):
    def __init__(self, r: float):
        super().__init__("circle")
        self.r = r

    def area(self) -> float:
        return 3.0 * self.r * self.r


# save: loads
# case: ([1.0, 2.0],)
def derived_objects_in_containers(rs: List[float]) -> Tuple[List[float], List[str], float]:
    circles = [Circle(r) for r in rs]
    by_name = {str(i): c for i, c in enumerate(circles)}
    return [c.area() for c in circles], [c.name for c in circles], by_name["0"].area() + max(c.r for c in circles)
