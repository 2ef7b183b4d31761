"""Objects of TorchScript classes returned to Python, against torch.jit 1.13.

torch's toPyObject turns an object of a class compiled from a Python class into a new instance of that
Python class (made with `__new__`, `__init__` not run) holding the object's attributes, also for an
archive loaded in the process that scripted the class (the class is found by qualified name). Each
function is scripted by torch.jit and by Kindling (torch.jit forbidden) and what Python sees of the
result is compared. In a process that has no Python class of that name, torch 1.13 fails converting the
object ("classType INTERNAL ASSERT FAILED"); Kindling gives a ScriptObject whose attributes, properties
(through the archive's `__<name>_getter` methods) and methods read through getattr.
"""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
from typing import List, Tuple

import pytest
import torch

import kindling.jit


class Point:
    def __init__(self, x: float, y: float):
        self.x = x
        self.y = y
        self.tags: List[str] = ["p"]

    def norm2(self) -> float:
        return self.x * self.x + self.y * self.y

    @property
    def swapped(self) -> Tuple[float, float]:
        return self.y, self.x


class Segment:
    def __init__(self, a: Point, b: Point, w: torch.Tensor):
        self.a = a
        self.b = b
        self.w = w


def make_point(x: float) -> Point:
    p = Point(x, x + 1.0)
    p.tags.append("made")
    return p


def make_segment(x: float) -> Segment:
    return Segment(Point(x, 0.0), Point(0.0, x), torch.full([2], x))


def make_points(n: int) -> List[Point]:
    return [Point(float(i), 0.0) for i in range(n)]


def _view(obj):
    """What Python code reads of an object: its class name and attributes, recursively."""
    if isinstance(obj, list):
        return [_view(o) for o in obj]
    if hasattr(obj, "__dict__") and not isinstance(obj, torch.Tensor):
        return (type(obj).__name__, {k: _view(v) for k, v in vars(obj).items()})
    return obj


@pytest.mark.parametrize("fn,args", [(make_point, (2.0,)), (make_segment, (3.0,)), (make_points, (3,))],
                         ids=["point", "nested_objects", "list_of_objects"])
def test_returned_objects_are_instances_of_the_python_class(fn, args, kindling_only):
    expected = torch.jit.script(fn)(*args)
    with kindling_only():
        got = kindling.jit.script(fn)(*args)
    assert_same(_view(got), _view(expected))
    one = got[0] if isinstance(got, list) else got
    assert type(one) in (Point, Segment)
    if isinstance(one, Point):
        assert one.norm2() == (expected[0] if isinstance(expected, list) else expected).norm2()
        assert one.swapped == (one.y, one.x)


def test_loaded_archive_in_the_same_process_gives_python_instances(tmp_path, kindling_only):
    # as torch: the class's qualified name is that of the Python class scripted in this process
    path = tmp_path / "f.pt"
    with kindling_only():
        kindling.jit.save(kindling.jit.script(make_point), str(path))
    expected = torch.jit.load(str(path))(2.0)
    got = kindling.jit.load(str(path))(2.0)
    assert type(got) is Point and type(expected) is Point
    assert_same(_view(got), _view(expected))


_FRESH = """
import sys
sys.path.insert(0, sys.argv[2])
import kindling.jit
o = kindling.jit.load(sys.argv[1])(2.0)
print(type(o).__name__, o.x, o.y, o.tags, o.swapped, o.norm2())
try:
    o.nope
except AttributeError as e:
    print("AttributeError", e)
print(hasattr(o, "x"), hasattr(o, "nope"))
"""


def test_objects_of_a_class_only_the_archive_defines_are_script_objects(tmp_path, kindling_only):
    # A fresh process has no Python class of that name: torch 1.13 fails there ("classType INTERNAL
    # ASSERT FAILED" converting the result); Kindling returns a ScriptObject whose attributes, properties
    # and methods read as the object's.
    import subprocess
    import sys
    import pyapi_helpers
    path = tmp_path / "f.pt"
    with kindling_only():
        kindling.jit.save(kindling.jit.script(make_point), str(path))
    r = subprocess.run([sys.executable, "-c", _FRESH, str(path), str(pyapi_helpers.PACKAGE_DIR)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    p = make_point(2.0)
    lines = r.stdout.splitlines()
    assert lines[0] == "ScriptObject %r %r %r %r %r" % (p.x, p.y, p.tags, p.swapped, p.norm2())
    assert lines[1].startswith("AttributeError") and "no attribute 'nope'" in lines[1]
    assert lines[2] == "True False"
