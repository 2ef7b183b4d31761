# Union[...] and Any: isinstance refinement of Union and Optional values, unions as parameters, returns,
# list/dict elements; Any in containers; isinstance on plain types and containers.
from typing import Any, Dict, List, Optional, Tuple, Union

import torch


# case: (3,)
# case: ("abc",)
def union_int_str(x: Union[int, str]) -> str:
    if isinstance(x, int):
        return "int " + str(x + 1)
    else:
        return "str " + x.upper()


# case: (2.5,)
# case: (torch.ones(2),)
# case: (4,)
def union_three_way(x: Union[float, torch.Tensor, int]) -> float:
    if isinstance(x, torch.Tensor):
        return float(x.sum().item())
    elif isinstance(x, float):
        return x * 2.0
    else:
        return float(x) - 0.5


# case: (None,)
# case: (5,)
# case: ("s",)
def optional_union(x: Optional[Union[int, str]]) -> int:
    if x is None:
        return 0
    if isinstance(x, str):
        return len(x)
    return x


# case: (True,)
# case: (False,)
def union_return(flag: bool) -> Union[int, str]:
    if flag:
        return 1
    return "one"


# case: ([1, "a", 2, "bc"],)
def list_of_union(xs: List[Union[int, str]]) -> Tuple[int, str]:
    total = 0
    text = ""
    for x in xs:
        if isinstance(x, int):
            total += x
        else:
            text += x
    return total, text


# case: (7,)
# case: (None,)
def isinstance_refines_optional(x: Optional[int]) -> int:
    if isinstance(x, int):
        return x + 1
    return -1


# case: (3, "q")
def isinstance_static(a: int, b: str) -> Tuple[bool, bool, bool, bool]:
    return isinstance(a, int), isinstance(a, float), isinstance(b, str), isinstance(a, (float, int))


# case: ([1, 2],)
def isinstance_containers(xs: List[int]) -> Tuple[bool, bool, bool]:
    return isinstance(xs, list), isinstance(xs, List[int]), isinstance(xs, tuple)


# case: ({"a": 1, "b": "x"},)
def dict_of_any_values(d: Dict[str, Any]) -> int:
    return len(d)


# case: (1.5,)
# case: ("x",)
def union_in_and_condition(x: Union[float, str]) -> bool:
    return isinstance(x, float) and x > 1.0


# case: (2,)
# case: ([1, 2, 3],)
def union_int_list(x: Union[int, List[int]]) -> List[int]:
    if isinstance(x, int):
        return [x]
    return x


def describe(x: Union[int, float, str]) -> str:
    if isinstance(x, int):
        return "i" + str(x)
    elif isinstance(x, float):
        return "f" + str(x)
    return "s" + x


# case: (1, 2.5, "z")
def union_passed_to_helper(a: int, b: float, c: str) -> List[str]:
    return [describe(a), describe(b), describe(c)]


# case: (3,)
# case: ("w",)
def union_not_isinstance_early_return(x: Union[int, str]) -> str:
    if not isinstance(x, str):
        return str(x * 2)
    return x + x


# case: (None,)
# case: (torch.arange(3.0),)
def union_tensor_none(x: Union[torch.Tensor, None]) -> torch.Tensor:
    if x is None:
        return torch.zeros(2)
    return x + 1


# case: (5,)
# case: ("ab",)
def union_variable_assigned(x: Union[int, str]) -> Union[int, str]:
    y: Union[int, str] = 0
    if isinstance(x, str):
        y = x + "!"
    else:
        y = x * 3
    return y
