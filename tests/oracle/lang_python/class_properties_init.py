# A property's setter called from __init__ (`self.celsius = c` with a `celsius` property): Python calls the
# setter; PyTorch 1.13 makes `celsius` a plain attribute instead, so the getter and setter stop being
# called (its archives keep that attribute, so loading them is unaffected). Saved by Kindling (the setter
# call is plain TorchScript) and run by torch.jit.load.
import torch
from typing import List


@torch.jit.script
class Temperature:
    def __init__(self, celsius: float):
        self._c = 0.0
        self.writes = 0
        self.celsius = celsius

    @property
    def celsius(self) -> float:
        return self._c

    @celsius.setter
    def celsius(self, v: float):
        self._c = v
        self.writes += 1

    @property
    def fahrenheit(self) -> float:
        return self._c * 9.0 / 5.0 + 32.0


# save: loads
# case: (20.0,)
def temperature(c: float) -> List[float]:
    t = Temperature(c)
    t.celsius = t.celsius + 10.0
    return [t.celsius, t.fahrenheit, float(t.writes)]
