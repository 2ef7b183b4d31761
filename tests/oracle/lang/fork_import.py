import torch
from typing import Dict, List
from torch.jit import Future, fork, wait


def _count_words(words: List[str]) -> Dict[str, int]:
    d: Dict[str, int] = {}
    for w in words:
        d[w] = d.get(w, 0) + 1
    return d


# case: (["a", "b", "a", "c"], ["b", "b"])
def fork_wait_imported(a: List[str], b: List[str]) -> Dict[str, int]:
    fa = fork(_count_words, a)
    fb = fork(_count_words, b)
    da = wait(fa)
    for k, v in wait(fb).items():
        da[k] = da.get(k, 0) + v
    return da


def _norm(x: torch.Tensor, p: float) -> float:
    s = 0.0
    for i in range(x.numel()):
        s += abs(float(x[i])) ** p
    return s ** (1.0 / p)


# case: (torch.randn(10),)
def futures_in_dict(x: torch.Tensor) -> List[float]:
    futs: Dict[str, Future[float]] = {}
    futs["l1"] = fork(_norm, x, 1.0)
    futs["l2"] = fork(_norm, x, 2.0)
    return [wait(futs["l1"]), wait(futs["l2"])]
