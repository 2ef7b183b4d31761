# Annotation styles: `# type:` comments on functions and variables, unannotated parameters are Tensor,
# Final constants in classes... (PyTorch supports Final only on modules), default values, inferred
# return types, torch.jit.annotate on containers and Optional, variable annotations.
from typing import Dict, List, Optional, Tuple

import torch


# case: (torch.randn(2, 2), 3)
def type_comment_signature(x, n):
    # type: (Tensor, int) -> Tensor
    return x * n


# case: (torch.randn(3), torch.randn(3))
def unannotated_are_tensors(a, b):
    return a + b, a * b


# case: (torch.ones(3), 2)
# case: (torch.ones(3), None)
def type_comment_optional(x, k):
    # type: (Tensor, Optional[int]) -> Tensor
    if k is None:
        return x
    return x * k


# case: (torch.ones(2),)
def inferred_return_type(x: torch.Tensor):
    return x.sum().item(), x.size(0)


# case: (3,)
# case: (3, 10)
def default_argument(a: int, b: int = 5) -> int:
    return a * b


# case: (1.5,)
# case: (1.5, "x", [1])
def defaults_of_several_types(a: float, s: str = "s", xs: Optional[List[int]] = None) -> str:
    n = 0 if xs is None else len(xs)
    return s + str(a) + str(n)


# case: ()
def annotate_optional() -> Optional[int]:
    x = torch.jit.annotate(Optional[int], None)
    return x


# case: (3,)
def annotate_nested_containers(n: int) -> Dict[str, List[Tuple[int, float]]]:
    d: Dict[str, List[Tuple[int, float]]] = {}
    for i in range(n):
        key = "k" + str(i % 2)
        if key not in d:
            d[key] = torch.jit.annotate(List[Tuple[int, float]], [])
        d[key].append((i, i * 0.5))
    return d


# case: (4,)
def variable_annotation_float(n: int) -> float:
    acc: float = 0.0
    for i in range(n):
        acc += i
    return acc


# case: (torch.arange(6.0).reshape(2, 3),)
def type_comment_tuple_return(x):
    # type: (Tensor) -> Tuple[int, List[int]]
    return x.dim(), x.size()


# case: (2,)
def list_type_annotation_hint(n: int) -> List[Optional[int]]:
    xs: List[Optional[int]] = [None, n]
    xs.append(None)
    return xs


# case: (torch.ones(1),)
def is_scripting(x: torch.Tensor) -> bool:
    return torch.jit.is_scripting()
