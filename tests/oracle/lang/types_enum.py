# Enum classes: members with int / str / float values, .name and .value, == and != comparisons, `is`,
# iteration over the class, enum values passed to helpers and stored in lists and class attributes.
from enum import Enum
from typing import List, Tuple

import torch


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


class Mode(Enum):
    TRAIN = "train"
    EVAL = "eval"


class Scale(Enum):
    SMALL = 0.5
    LARGE = 2.0


# case: ()
def enum_name_value() -> Tuple[str, int, str, str]:
    c = Color.GREEN
    return c.name, c.value, Mode.EVAL.value, Mode.TRAIN.name


# case: (1,)
# case: (3,)
def enum_comparisons(v: int) -> Tuple[bool, bool, bool]:
    c = Color.RED
    if v == 3:
        c = Color.BLUE
    return c == Color.BLUE, c != Color.RED, c.value == v


# case: ()
def enum_iterate() -> List[str]:
    names: List[str] = []
    for c in Color:
        names.append(c.name + "=" + str(c.value))
    return names


def pick(mode: Mode) -> float:
    if mode == Mode.TRAIN:
        return 1.0
    return 0.0


# case: ("train",)
# case: ("eval",)
def enum_as_argument(s: str) -> float:
    m = Mode.EVAL
    if s == "train":
        m = Mode.TRAIN
    return pick(m)


# case: (torch.ones(3),)
def enum_float_values(x: torch.Tensor) -> torch.Tensor:
    return x * Scale.LARGE.value + Scale.SMALL.value


# case: ()
def enum_list() -> Tuple[List[int], int]:
    cs = [Color.RED, Color.BLUE, Color.RED]
    n = 0
    for c in cs:
        if c == Color.RED:
            n += 1
    return [c.value for c in cs], n


class Painter:
    def __init__(self, color: Color):
        self.color = color

    def describe(self) -> str:
        return self.color.name.lower()


# case: ()
def enum_attribute() -> str:
    p = Painter(Color.BLUE)
    return p.describe()


# case: ()
def enum_sum_values() -> int:
    total = 0
    for c in Color:
        total += c.value
    return total
