# print(): stdout is compared with PyTorch's. Floats (whole, tiny, huge, inf, nan), ints, bools,
# None, strings, lists, tuples, dicts, tensors of several dtypes and shapes, several arguments.
import torch
from typing import Dict, List, Optional, Tuple


# case: (1.0, 0.1, 1e-7, 123456789.0, 1e16)
def print_floats(a: float, b: float, c: float, d: float, e: float) -> int:
    print(a, b, c, d, e)
    print(-a, 2.5e-5, 1.0 / 3.0, 1e100)
    return 0


# case: (1.0, 0.0)
def print_special_floats(a: float, b: float) -> int:
    inf = a / b
    print(inf, -inf, inf - inf)
    return 0


# case: (42, True, "text")
def print_scalars(n: int, b: bool, s: str) -> int:
    print(n, -n, b, not b, s, None)
    print("single")
    print()
    return 1


# case: ([1, 2, 3], [1.5, 2.0], ["a", "b"], [True])
def print_lists(a: List[int], b: List[float], c: List[str], d: List[bool]) -> int:
    print(a, b, c, d)
    e: List[int] = []
    print(e, [[1, 2], [3]])
    return 0


# case: ((1, "x", 2.5),)
def print_tuple(t: Tuple[int, str, float]) -> int:
    print(t, (t[0],))
    return 0


# case: ({"a": 1, "b": 2}, {1: 0.5})
def print_dicts(a: Dict[str, int], b: Dict[int, float]) -> int:
    print(a, b)
    return 0


# case: (torch.arange(6.).reshape(2, 3),)
def print_float_tensor(x: torch.Tensor) -> int:
    print(x)
    print(x * 0.001)
    return 0


# case: (torch.arange(5),)
def print_int_tensor(x: torch.Tensor) -> int:
    print(x, x > 2)
    return 0


# case: (torch.tensor(3.5),)
def print_scalar_tensor(x: torch.Tensor) -> int:
    print(x)
    print(x.to(torch.int32))
    return 0


# case: (torch.zeros(0, 3),)
def print_empty_tensor(x: torch.Tensor) -> int:
    print(x)
    return 0


# case: (None, 3)
def print_optional(a: Optional[int], b: Optional[int]) -> int:
    print(a, b)
    return 0


# case: (3,)
def print_in_loop(n: int) -> int:
    for i in range(n):
        print("iteration", i, "of", n, i / n)
    return n


# case: (torch.tensor([1.5, -2.25, 1e10]),)
def print_tensor_sci(x: torch.Tensor) -> int:
    print(x)
    return 0


# case: (2.5, "s")
def print_formatted(f: float, s: str) -> int:
    print("value: {} and {}".format(f, s))
    print("%d items, %s" % (3, s))
    print(f"f-string {f} {s}")
    return 0
