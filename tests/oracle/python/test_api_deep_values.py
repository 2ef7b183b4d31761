"""Deeply nested values crossing the Python API: a Python list nested 300,000 levels passed to a
kindling.jit function typed Any, and one built by the function and returned. Converting either recursively
would overflow the C stack (SIGSEGV and the interpreter with it); past 1000 levels the conversion raises
(a RuntimeError subclass), as Python's own repr or pickle raise RecursionError."""
from pyapi_helpers import kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import Any

import pytest

import kindling.jit


def count_levels(x: Any) -> int:
    return 1


def build(n: int) -> Any:
    x: Any = 0
    for i in range(n):
        x = [x]
    return x


def deep_python_list(n):
    x = 0
    for _ in range(n):
        x = [x]
    return x


def test_deep_python_argument_is_an_error(kindling_only):
    with kindling_only():
        f = kindling.jit.script(count_levels)
        with pytest.raises(RuntimeError, match="nested more than 1000 levels"):
            f(deep_python_list(300000))
        assert f(deep_python_list(50)) == 1


def test_deep_result_is_an_error(kindling_only):
    with kindling_only():
        f = kindling.jit.script(build)
        with pytest.raises(RuntimeError, match="nested more than 1000 levels"):
            f(300000)
        assert f(3) == [[[0]]]
