# Assignment statements: tuple unpacking (nested, starred), swaps, chained targets, augmented
# assignment on names, list elements, dict entries, attributes and tensor slices.
import torch
from typing import Dict, List, Tuple


# case: (1, 2)
# case: (-7, 40)
def swap(a: int, b: int) -> Tuple[int, int]:
    a, b = b, a
    return a, b


# case: ((1, (2.5, "x")),)
def nested_unpack(t: Tuple[int, Tuple[float, str]]) -> str:
    a, (b, c) = t
    return c + str(a) + str(b)


# case: (3,)
def starred_middle(n: int) -> Tuple[int, Tuple[int, int], int]:
    a, *b, c = (n, n + 1, n + 2, n + 3)
    return a, b, c


# case: (5,)
def starred_first(n: int) -> Tuple[Tuple[int, int], int]:
    *a, b = (n, n * 2, n * 3)
    return a, b


# case: (4,)
def chained_targets(n: int) -> List[int]:
    a = b = n * 2
    a += 1
    return [a, b]


# case: ([1, 2, 3], 1)
# case: ([10, 20, 30, 40], -1)
def aug_list_elem(xs: List[int], i: int) -> List[int]:
    xs[i] += 5
    xs[0] *= 3
    xs[i] -= 1
    xs[-1] <<= 2
    return xs


# case: ({"a": 1.5, "b": 2.0},)
def aug_dict_entry(d: Dict[str, float]) -> Dict[str, float]:
    d["a"] += 1.0
    d["b"] *= d["a"]
    d["b"] /= 4.0
    return d


class Counter:
    def __init__(self, start: int):
        self.count = start
        self.total = 0.5

    def bump(self, k: int) -> int:
        self.count += k
        self.total *= 2.0
        self.count <<= 1
        return self.count


# case: (3, 4)
def aug_attribute(start: int, k: int) -> Tuple[int, float]:
    c = Counter(start)
    c.bump(k)
    c.bump(1)
    return c.count, c.total


# case: (torch.zeros(4, 3),)
def aug_tensor_slice(x: torch.Tensor) -> torch.Tensor:
    x[1:3] += 1.0
    x[:, 0] *= 4.0
    x[-1] -= torch.tensor([1.0, 2.0, 3.0])
    return x


# case: (torch.ones(3), 2)
def aug_tensor_alias(x: torch.Tensor, n: int) -> Tuple[torch.Tensor, torch.Tensor]:
    y = x
    y += n      # in place: x changes too
    z = x
    z = z + 1   # rebinding: x unchanged
    return x, z


# case: (7, 2)
# case: (-7, 2)
# case: (7, -3)
def aug_int_ops(a: int, b: int) -> List[int]:
    r: List[int] = []
    x = a
    x += b
    r.append(x)
    x -= b * 3
    r.append(x)
    x *= b
    r.append(x)
    x |= 8
    r.append(x)
    x &= 13
    r.append(x)
    x ^= 6
    r.append(x)
    x >>= 1
    r.append(x)
    return r


# case: (2.5, 4)
def aug_float_int_mix(f: float, n: int) -> Tuple[float, float]:
    g = f
    g += n
    g /= 2
    h = f
    h **= 2
    return g, h


# case: ((1, 2.0, "three"),)
def tuple_heterogeneous(t: Tuple[int, float, str]) -> Tuple[str, float, int]:
    a, b, c = t
    return c, b, a


# case: ([4, 5],)
def unpack_list(xs: List[int]) -> int:
    a, b = xs
    return a * 10 + b


# case-raises: ([4, 5, 6],)
def unpack_list_wrong_len(xs: List[int]) -> int:
    a, b = xs
    return a + b


# case: (7, 5)
# case: (-7, 5)
# case: (7, -5)
def mod_assign_is_fmod(a: int, b: int) -> Tuple[float, int]:
    x = a
    x %= b      # augmented % is aten::fmod (sign of the dividend), and gives a float
    return x, a % b


# case: (3,)
def int_pow_rebinds_to_float(a: int) -> float:
    x = a
    x **= 2     # int ** int is float in TorchScript; x becomes a float
    return x + 0.5


# case: (torch.arange(12).reshape(3, 4),)
def unpack_size(x: torch.Tensor) -> int:
    r, c = x.shape
    return r * 100 + c


# case: (torch.tensor([1.0, 2.0, 3.0]),)
def tensor_pow_assign_is_out_of_place(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    y = x
    y **= 2     # aten::pow, not pow_: x keeps its values
    return x, y


# case: (torch.tensor([True, False, False]), torch.tensor([False, False, True]))
def tensor_or_assign_is_out_of_place(a: torch.Tensor, b: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    c = a
    c |= b      # aten::bitwise_or (not in place): a unchanged
    return a, c


# case: ([torch.ones(2), torch.zeros(2)],)
def list_element_tensor_aug_in_place(xs: List[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor]:
    first = xs[0]
    xs[0] += 5.0    # add_ on the element: `first` sees it
    return first, xs[0]


# case: ([1, 2], 3)
def list_aug_mul(xs: List[int], n: int) -> List[int]:
    ys = xs
    ys *= n
    return xs
