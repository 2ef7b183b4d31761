# Properties of TorchScript classes (getter and setter; PyTorch compiles them to __<name>_getter and
# __<name>_setter methods): read, written (also from __init__ and from other methods), read-only ones,
# properties of Tensor and Optional type, (in __init__, assigning a property's name makes an attribute in
# PyTorch 1.13 but calls the setter in Python: tests/oracle/lang_python/class_properties_init.py), a property calling a method defined later in the class, and
# methods calling methods defined after them (__init__ included).
import torch
from typing import List, Optional


@torch.jit.script
class Temperature:
    def __init__(self, celsius: float):
        self._c = celsius
        self.writes = -1
        self.reset_count()

    def reset_count(self):
        self.writes = self.initial_writes()

    def initial_writes(self) -> int:
        return 1

    @property
    def celsius(self) -> float:
        return self._c

    @celsius.setter
    def celsius(self, v: float):
        self._c = v
        self.writes = 0

    @property
    def fahrenheit(self) -> float:
        return self.convert(self._c)

    def convert(self, c: float) -> float:
        return c * 9.0 / 5.0 + 32.0


@torch.jit.script
class Box:
    def __init__(self, t: torch.Tensor):
        self.t = t
        self.label = torch.jit.annotate(Optional[str], None)

    @property
    def total(self) -> torch.Tensor:
        return self.t.sum()

    @property
    def name(self) -> str:
        label = self.label
        if label is None:
            return "unnamed"
        return label

    @name.setter
    def name(self, v: str):
        self.label = v


# case: (20.0,)
# case: (-40.0,)
def temperature(c: float) -> List[float]:
    t = Temperature(c)
    out = [t.celsius, t.fahrenheit, float(t.writes)]
    t.celsius = t.celsius + 10.0
    out.append(t.fahrenheit)
    out.append(float(t.writes))
    return out


# case: (torch.arange(4.0),)
def box(x: torch.Tensor) -> List[str]:
    b = Box(x)
    before = b.name
    b.name = "b" + str(int(b.total))
    return [before, b.name]
