# Sorting lists of TorchScript class instances that define __lt__: list.sort() with and without reverse=
# (sorted() of them PyTorch 1.13 rejects: tests/oracle/lang_python/class_sorted.py),
# stability (equal keys keep their order, also reversed), empty and one-element lists.
import torch
from typing import List, Tuple


@torch.jit.script
class Item:
    def __init__(self, key: int, tag: str):
        self.key = key
        self.tag = tag

    def __lt__(self, other: "Item") -> bool:
        return self.key < other.key


def tags(xs: List[Item]) -> List[str]:
    return [x.tag for x in xs]


# case: ([3, 1, 2, 1, 3, 0],)
# case: ([],)
# case: ([5],)
def sort_items(keys: List[int]) -> Tuple[List[str], List[str], List[str]]:
    items = [Item(keys[i], str(keys[i]) + chr(97 + i)) for i in range(len(keys))]
    items.sort()
    a = tags(items)
    items.sort(reverse=True)
    b = tags(items)
    items.sort(reverse=False)
    return a, b, tags(items)
