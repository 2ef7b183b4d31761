# NamedTuple fields with defaults (of every constant type, None for Optional, lists), filled in by
# position or keyword; nested NamedTuples with defaults; NamedTuple fields with defaults as return values.
import torch
from typing import List, NamedTuple, Optional, Tuple


class Config(NamedTuple):
    size: int
    scale: float = 0.5
    name: str = "cfg"
    flags: List[int] = [1, 2]
    tag: Optional[str] = None
    on: bool = True


class Outer(NamedTuple):
    inner: Config
    count: int = 3


# case: (4,)
def defaults_positional(n: int) -> Tuple[int, float, str, List[int], Optional[str], bool]:
    c = Config(n)
    return c.size, c.scale, c.name, c.flags, c.tag, c.on


# case: (4,)
def defaults_keyword(n: int) -> Tuple[int, float, str, Optional[str]]:
    c = Config(n, name="x", tag="t")
    d = Config(size=n + 1, scale=2.0)
    return c.size + d.size, c.scale + d.scale, c.name + d.name, c.tag


# case: (7,)
def nested(n: int) -> Tuple[int, int, float]:
    o = Outer(Config(n))
    p = Outer(Config(n, 1.5), count=9)
    return o.count + p.count, o.inner.size, p.inner.scale


# case: (2,)
def returned(n: int) -> Config:
    return Config(n, on=False)
