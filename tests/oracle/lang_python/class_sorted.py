# sorted() of a list of class instances that define __lt__ (PyTorch 1.13 has no sorted overload for them;
# list.sort() it has): a new list in Python's stable order, reverse= included; the argument is unchanged.
import torch
from typing import List, Tuple


@torch.jit.script
class Item:
    def __init__(self, key: int, tag: str):
        self.key = key
        self.tag = tag

    def __lt__(self, other: "Item") -> bool:
        return self.key < other.key


# save: loads
# case: ([3, 1, 2, 1, 3, 0],)
# case: ([],)
def sorted_items(keys: List[int]) -> Tuple[List[str], List[str], List[str]]:
    items = [Item(k, str(k) + chr(97 + i)) for i, k in enumerate(keys)]
    s1 = sorted(items)
    s2 = sorted(items, reverse=True)
    return [x.tag for x in s1], [x.tag for x in s2], [x.tag for x in items]
