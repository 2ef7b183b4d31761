"""@property on nn.Modules and TorchScript classes, scripted by kindling.jit.script against eager and torch.jit.

torch.jit.script 1.13 compiles every property of a module's class (inherited ones too) except those named in
`__jit_unused_properties__` and those whose getter is @torch.jit.unused: the getter as method
`__<name>_getter`, the setter as `__<name>_setter`; `self.name` in compiled code calls the getter and
`self.name = v` the setter ("Tried to set read-only attribute" without one). A property whose body does not
compile fails scripting. Archives carry only the two methods (the code calls them), so torch.jit.load runs
Kindling's archives and Kindling runs torch's. TorchScript classes have the same properties.

Where Kindling follows Python instead of torch.jit 1.13 (docs/python-beyond-torchscript.md):
- `scripted.name` from Python runs the compiled getter and `scripted.name = v` the setter; torch's
  RecursiveScriptModule returns a `property` object and assignment shadows it with a plain attribute.
- `hasattr(self, "name")` in compiled code is True for a property (torch answers False).
- A property that does not compile and that compiled code does not use is left out of the class (torch.jit
  fails scripting the module, which runs in Python); using it is the compile error.
"""
import copy
import inspect
import re
import zipfile

from pyapi_helpers import assert_same, forbid_torch_jit, script_save_and_compare  # noqa: F401  (first: sys.path)

import os
import subprocess

import pytest
import torch
import torch.nn as nn

import kindling.jit


# ------------------------------------------------------------------ modules

class ReadOnly(nn.Module):
    """Properties reading a buffer, a parameter, a submodule's constant and an int attribute."""

    def __init__(self):
        super().__init__()
        self.register_buffer("offset", torch.arange(4.0))
        self.gain = nn.Parameter(torch.full([4], 1.5))
        self.lin = nn.Linear(4, 4)
        self.k = 3

    @property
    def shift(self) -> torch.Tensor:
        return self.offset * self.k

    @property
    def weight_sum(self):  # no annotation: the return type is inferred
        return self.lin.weight.sum() * self.gain

    @property
    def width(self) -> int:
        return self.lin.out_features + self.k

    def forward(self, x):
        return self.lin(x) + self.shift - self.weight_sum + self.width


class CallsMethods(nn.Module):
    """A property calling a method, another property, and a method calling a property."""

    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def half(self, x: torch.Tensor) -> torch.Tensor:
        return x * 0.5

    @property
    def factor(self) -> float:
        return self.scale * 3.0

    @property
    def doubled(self) -> float:
        return self.factor * 2.0 + self.base_value()

    def base_value(self) -> float:
        return self.scale + 1.0

    def scaled(self, x: torch.Tensor) -> torch.Tensor:
        return self.half(x) * self.doubled

    def forward(self, x):
        return self.scaled(x) + self.factor


class Child(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.n = n
        self.proj = nn.Linear(4, 4)

    @property
    def bias_norm(self) -> torch.Tensor:
        return self.proj.bias.norm()

    @property
    def steps(self) -> int:
        return self.n * 2

    def forward(self, x):
        return self.proj(x) * self.bias_norm


class Parent(nn.Module):
    """Each child's forward uses its own property; the parent reads a child's property too."""

    def __init__(self):
        super().__init__()
        self.a = Child(1)
        self.b = Child(5)

    def forward(self, x):
        return self.a(x) + self.b(x) * self.b.steps - self.a.bias_norm


class Counter(nn.Module):
    """A property with a setter, called from forward (`self.count = ...`); the state it writes persists."""

    def __init__(self):
        super().__init__()
        self._count = 0

    @property
    def count(self) -> int:
        return self._count

    @count.setter
    def count(self, value: int):
        self._count = value * 10

    def forward(self, x):
        self.count = self.count + 1
        return x + self.count


class WithBase(ReadOnly):
    """Properties of the base class are compiled for the subclass (inspect.getmembers sees them)."""

    @property
    def total(self) -> torch.Tensor:
        return self.shift.sum() + self.width

    def forward(self, x):
        return x * self.total + self.shift


CASES = {
    "read_only_buffers_params_submodules": (ReadOnly, lambda: (torch.randn(2, 4),)),
    "property_calls_methods": (CallsMethods, lambda: (torch.randn(3),)),
    "property_of_child_module": (Parent, lambda: (torch.randn(2, 4),)),
    "setter_called_from_forward": (Counter, lambda: (torch.randn(3),)),
    "inherited_property": (WithBase, lambda: (torch.randn(2, 4),)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_module_property_matches_eager_and_torch(case, tmp_path):
    make, inputs = CASES[case]
    torch.manual_seed(0)
    model = make().eval()
    args = inputs()
    with torch.no_grad():
        theirs_model = torch.jit.script(copy.deepcopy(model))
        theirs = [theirs_model(*args) for _ in range(2)]
        eager_model = copy.deepcopy(model)
        expected = [eager_model(*args) for _ in range(2)]
        with forbid_torch_jit():
            ours_model = kindling.jit.script(model)
            ours_model.save(str(tmp_path / "m.pt"))  # before the calls: a setter's writes are state
            ours = [ours_model(*args) for _ in range(2)]
        assert_same(ours, expected)
        assert_same(ours, theirs)
        loaded = torch.jit.load(str(tmp_path / "m.pt"))
        assert_same([loaded(*args) for _ in range(2)], expected)
    # the accessors are methods named as torch names them, in the code and in the archive
    assert sorted(n for n in ours_model._c.method_names() if n.endswith(("_getter", "_setter"))) == \
        sorted(n for n in theirs_model._c._method_names() if n.endswith(("_getter", "_setter")))
    assert sorted(n for n in loaded._c._method_names() if n.endswith(("_getter", "_setter"))) == \
        sorted(n for n in theirs_model._c._method_names() if n.endswith(("_getter", "_setter")))


def test_saved_getter_runs_in_torch_jit_load(tmp_path):
    torch.manual_seed(0)
    model = ReadOnly().eval()
    with torch.no_grad():
        with forbid_torch_jit():
            kindling.jit.script(model).save(str(tmp_path / "m.pt"))
        loaded = torch.jit.load(str(tmp_path / "m.pt"))
        assert_same(getattr(loaded, "__shift_getter")(), model.shift)
        assert_same(getattr(loaded, "__width_getter")(), model.width)
        assert_same(getattr(loaded, "__weight_sum_getter")(), model.weight_sum)
        assert "__shift_getter" in loaded.code


def test_code_calls_the_accessors_as_torch_prints_them():
    torch.manual_seed(0)
    with forbid_torch_jit():
        ours = kindling.jit.script(Counter())
    theirs = torch.jit.script(Counter())
    assert ours.code == theirs.code


def test_property_read_and_written_from_python():
    """torch.jit 1.13 returns a `property` object for scripted.name and shadows it on assignment; Kindling
    runs the compiled getter and setter, as Python runs eager's."""
    torch.manual_seed(0)
    model = Counter()
    with forbid_torch_jit():
        ours = kindling.jit.script(copy.deepcopy(model))
    assert isinstance(torch.jit.script(copy.deepcopy(model)).count, property)
    assert_same(ours.count, model.count)
    ours.count = 4
    model.count = 4
    assert_same(ours.count, model.count)
    assert_same(ours._count, model._count)
    with torch.no_grad():
        assert_same(ours(torch.ones(2)), model(torch.ones(2)))
    ro = ReadOnly()
    with forbid_torch_jit():
        scripted = kindling.jit.script(ro)
    assert_same(scripted.shift, ro.shift)
    assert_same(scripted.width, ro.width)
    with pytest.raises(AttributeError):
        ro.width = 3
    with pytest.raises(AttributeError, match="has no setter"):
        scripted.width = 3


class AssignsReadOnly(nn.Module):
    @property
    def p(self) -> int:
        return 3

    def forward(self, x):
        self.p = 4
        return x


def test_assigning_a_read_only_property_is_an_error():
    with pytest.raises(Exception) as theirs:
        torch.jit.script(AssignsReadOnly())
    assert "Tried to set read-only attribute: p" in str(theirs.value)
    with pytest.raises(kindling.jit.CompileError) as ours:
        kindling.jit.script(AssignsReadOnly())
    text = str(ours.value)
    assert "Tried to set read-only attribute: p" in text and "<--- HERE" in text, text


class HasAttrProperty(nn.Module):
    @property
    def p(self) -> int:
        return 3

    def forward(self, x):
        if hasattr(self, "p"):
            return x + self.p
        return x


def test_hasattr_of_a_property_is_true_as_in_python(tmp_path):
    x = torch.zeros(2)
    expected = HasAttrProperty()(x)
    assert_same(torch.jit.script(HasAttrProperty())(x), x)  # torch.jit 1.13: False
    script_save_and_compare(HasAttrProperty(), (x,), expected, tmp_path / "m.pt")


class Unused(nn.Module):
    """Properties torch.jit 1.13 leaves out: listed in __jit_unused_properties__, or with an @unused getter
    (torch.jit's or kindling.jit's marker). Their bodies do not compile; scripting succeeds as long as
    compiled code does not use them."""

    __jit_unused_properties__ = ["device"]

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    @torch.jit.unused
    def dtype(self):
        return next(self.parameters()).dtype

    @kindling.jit.unused
    @property
    def names(self):
        return [n for n, _ in self.named_parameters()]

    @property
    def used(self) -> int:
        return self.lin.in_features

    def forward(self, x):
        return self.lin(x) * self.used


def test_unused_properties_are_left_out(tmp_path):
    torch.manual_seed(0)
    model = Unused().eval()
    x = torch.randn(2, 3)
    with torch.no_grad():
        expected = model(x)
        theirs = torch.jit.script(model)
        ours = script_save_and_compare(model, (x,), expected, tmp_path / "m.pt", theirs=theirs(x))
    getters = sorted(n for n in ours._c.method_names() if n.endswith("_getter"))
    assert getters == sorted(n for n in theirs._c._method_names() if n.endswith("_getter")) == ["__used_getter"]
    for name in ("device", "dtype", "names"):
        assert not hasattr(theirs, name)
        assert not hasattr(ours, name)


class UsesUnused(nn.Module):
    __jit_unused_properties__ = ["p"]

    @property
    def p(self) -> int:
        return 3

    def forward(self, x):
        return x + self.p


def test_using_an_unused_property_is_an_error():
    with pytest.raises(Exception) as theirs:
        torch.jit.script(UsesUnused())
    assert "has no attribute 'p'" in str(theirs.value)
    with pytest.raises(kindling.jit.CompileError) as ours:
        kindling.jit.script(UsesUnused())
    assert "has no attribute 'p'" in str(ours.value) and "<--- HERE" in str(ours.value)


class BadProperty(nn.Module):
    """A property torch.jit 1.13 cannot compile (next() of a generator) that forward never uses: torch fails
    scripting the module; Kindling leaves the property out (Python runs the module), so the module runs and
    saves, and reading the property from Python says why it is missing."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    @property
    def device(self):
        return next(self.parameters()).device

    @property
    def ok(self) -> int:
        return self.lin.out_features

    def forward(self, x):
        return self.lin(x)


class UsesBadProperty(BadProperty):
    def forward(self, x):
        return self.lin(x).to(self.device)


class BadSetter(nn.Module):
    """The getter compiles and forward reads it; the setter does not compile: it is left out."""

    def __init__(self):
        super().__init__()
        self.k = 2

    @property
    def k2(self) -> int:
        return self.k * 2

    @k2.setter
    def k2(self, value):
        self.k = next(iter([value]))

    def forward(self, x):
        return x * self.k2


def test_property_that_does_not_compile_is_left_out(tmp_path):
    torch.manual_seed(0)
    model = BadProperty().eval()
    x = torch.randn(2, 3)
    with pytest.raises(Exception) as theirs:
        torch.jit.script(model)
    assert "next" in str(theirs.value)
    with torch.no_grad():
        ours = script_save_and_compare(model, (x,), model(x), tmp_path / "m.pt")
    assert_same(ours.ok, model.ok)
    with pytest.raises(AttributeError, match="left out because it did not compile") as e:
        ours.device
    assert "next" in str(e.value)
    names = ours._c.method_names()
    assert "__ok_getter" in names and "__device_getter" not in names, names
    assert "__ok_getter" in torch.jit.load(str(tmp_path / "m.pt"))._c._method_names()


def test_setter_that_does_not_compile_is_left_out(tmp_path):
    model = BadSetter()
    x = torch.randn(3)
    with pytest.raises(Exception):
        torch.jit.script(model)
    ours = script_save_and_compare(model, (x,), model(x), tmp_path / "m.pt")
    assert_same(ours.k2, model.k2)
    with pytest.raises(AttributeError, match="has no setter"):
        ours.k2 = 3


def test_using_a_property_that_does_not_compile_is_an_error():
    with pytest.raises(Exception) as theirs:
        torch.jit.script(UsesBadProperty())
    assert "next" in str(theirs.value)
    for _ in range(2):  # the failed type is dropped: scripting again reports the same error
        with pytest.raises(kindling.jit.CompileError) as ours:
            kindling.jit.script(UsesBadProperty())
        text = str(ours.value)
        assert "next" in text and "<--- HERE" in text and "test_script_properties.py" in text, text


class SharedHelpers(nn.Module):
    """Properties forward does not use, sharing helper methods: a_bad and c_bad do not compile (next()), one
    through a helper that compiled, one through a helper that does not; b_good and d_bad call the same
    helpers afterwards; e's getter compiles and its setter does not."""

    def __init__(self):
        super().__init__()
        self.k = 2

    def helper(self) -> int:
        return self.k + 1

    def bad_helper(self) -> int:
        return next(iter([self.k]))

    @property
    def a_bad(self):
        return self.helper() + next(iter([1]))

    @property
    def b_good(self) -> int:
        return self.helper() * 2

    @property
    def c_bad(self) -> int:
        return self.bad_helper()

    @property
    def d_bad(self) -> int:
        return self.bad_helper() + 1

    @property
    def e(self) -> int:
        return self.k

    @e.setter
    def e(self, v: int):
        self.k = next(iter([v]))

    def forward(self, x):
        return x * self.k


def test_properties_left_out_keep_what_compiled(tmp_path):
    """Leaving out a property takes out the methods whose bodies failed, not those that compiled: a helper
    that compiled serves the next property, one that failed fails it with its own error (next), not with a
    name clash; a getter that compiled stays when its setter fails."""
    model = SharedHelpers()
    x = torch.randn(3)
    with pytest.raises(Exception):
        torch.jit.script(model)
    ours = script_save_and_compare(model, (x,), model(x), tmp_path / "m.pt")
    assert sorted(ours._c.method_names()) == ["__b_good_getter", "__e_getter", "forward", "helper"]
    assert ours.b_good == model.b_good and ours.e == model.e
    for name in ("a_bad", "c_bad", "d_bad"):
        with pytest.raises(AttributeError, match="left out because it did not compile") as e:
            getattr(ours, name)
        assert "next" in str(e.value) and "already defined" not in str(e.value), str(e.value)
    with pytest.raises(AttributeError, match="has no setter"):
        ours.e = 3
    assert getattr(torch.jit.load(str(tmp_path / "m.pt")), "__b_good_getter")() == model.b_good


def test_kindling_runs_torch_archives_with_properties(tmp_path):
    torch.manual_seed(0)
    for make, inputs in (CASES["read_only_buffers_params_submodules"], CASES["setter_called_from_forward"],
                         CASES["property_of_child_module"]):
        model = make().eval()
        args = inputs()
        path = str(tmp_path / "torch.pt")
        torch.jit.script(copy.deepcopy(model)).save(path)
        with torch.no_grad():
            expected = [model(*args) for _ in range(2)]
            with forbid_torch_jit():
                loaded = kindling.jit.load(path)
                assert_same([loaded(*args) for _ in range(2)], expected)
                getters = [n for m in [loaded] + list(loaded._modules.values())
                           for n in m._c.method_names() if n.endswith("_getter")]
                assert getters, make


def test_cli_runs_torch_archive_with_properties(tmp_path):
    binary = os.environ.get("KINDLING_BIN")
    if not binary:
        pytest.skip("KINDLING_BIN is not set")
    torch.manual_seed(0)
    model = ReadOnly().eval()
    x = torch.randn(2, 4)
    torch.jit.script(model).save(str(tmp_path / "m.pt"))
    torch.save((x,), str(tmp_path / "in.pt"))
    r = subprocess.run([binary, "run", str(tmp_path / "m.pt"), "--input", str(tmp_path / "in.pt"), "--output",
                        str(tmp_path / "out.pt")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    with torch.no_grad():
        assert_same(torch.load(str(tmp_path / "out.pt")), model(x))


# ------------------------------------------------------------------ review cases

def _renumbered(method_source):
    """The printer's temporaries (_0, _1, ...) are numbered across a class in method order; renumbered from
    _0 in each method, so methods compare whatever their order."""
    names = {}
    return re.sub(r"\b_\d+\b", lambda m: names.setdefault(m.group(0), "_%d" % len(names)), method_source)


def _code_methods(archive):
    """{code file: {class name: {method name: source}}} of an archive's code/ section, as torch.jit 1.13 writes
    it, except for the order of methods (and their temporaries' numbers), torch's `_is_full_backward_hook`
    attribute (an nn.Module internal Kindling leaves out) and mangled class names."""
    out = {}
    with zipfile.ZipFile(archive) as z:
        for entry in z.namelist():
            if "/code/" not in entry or not entry.endswith(".py"):
                continue
            classes, cls, method = {}, None, None
            # a class scripted before in the process (by another test) makes torch and Kindling mangle the
            # name of a new one (linear/___torch_mangle_3.py, ...linear.___torch_mangle_3.Linear)
            text = re.sub(r"\.___torch_mangle_\d+", "", z.read(entry).decode())
            entry = re.sub(r"/___torch_mangle_\d+\.py$", ".py", entry)
            for line in text.splitlines():
                if line.startswith("class "):
                    cls, method = line, None
                    classes[cls] = {"": []}  # "": the attribute lines
                elif line.startswith("  def "):
                    method = line.split("(")[0][len("  def "):]
                    classes[cls][method] = [line]
                elif method is not None and line.startswith("    "):
                    classes[cls][method].append(line)
                elif method is None and not line.startswith("  _is_full_backward_hook :"):
                    classes[cls][""].append(line)
            for ms in classes.values():
                ms[""].sort()  # torch.jit 1.13 orders the constants of a class as a Python set
            out[entry.split("/", 1)[1]] = {c: {m: _renumbered("\n".join(t)) for m, t in ms.items()}
                                           for c, ms in classes.items()}
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_archive_code_matches_torch_archive(case, tmp_path):
    """The code/ section of Kindling's archive has the accessor methods torch's own archive has, with the same
    source (methods otherwise too), and torch.jit.load of either gives a module without the property (archives
    carry the accessors only)."""
    make, _ = CASES[case]
    torch.manual_seed(0)
    model = make().eval()
    torch.jit.script(copy.deepcopy(model)).save(str(tmp_path / "torch.pt"))
    with forbid_torch_jit():
        kindling.jit.script(copy.deepcopy(model)).save(str(tmp_path / "ours.pt"))
    theirs, ours = _code_methods(tmp_path / "torch.pt"), _code_methods(tmp_path / "ours.pt")
    assert any(m.startswith("__") and m.endswith("_getter") for f in theirs.values() for c in f.values() for m in c)
    assert ours == theirs
    prop_names = [n for n in dir(type(model)) if isinstance(inspect.getattr_static(type(model), n), property)]
    for path in ("torch.pt", "ours.pt"):
        loaded = torch.jit.load(str(tmp_path / path))
        assert [hasattr(loaded, n) for n in prop_names] == [False] * len(prop_names), path


class SetterOnly(nn.Module):
    def __init__(self):
        super().__init__()
        self._v = 1

    def _set_v(self, v: int):
        self._v = v

    v = property(fset=_set_v)

    def forward(self, x):
        return x + self._v


def test_setter_only_property_is_an_error():
    """TorchScript properties need a getter: torch.jit 1.13 fails (a TypeError from get_jit_def(None)); Kindling
    says so."""
    with pytest.raises(Exception):
        torch.jit.script(SetterOnly())
    with pytest.raises(kindling.jit.CompileError, match="Property v of SetterOnly must have a getter"):
        kindling.jit.script(SetterOnly())


class WithDeleter(nn.Module):
    def __init__(self):
        super().__init__()
        self._v = 4

    @property
    def v(self) -> int:
        return self._v

    @v.deleter
    def v(self):
        self._v = 0

    def forward(self, x):
        return x * self.v


def test_deleter_is_not_compiled(tmp_path):
    """As torch.jit 1.13: the getter is compiled, the deleter is not (TorchScript has no `del self.name`), so
    `del scripted.name` is an AttributeError."""
    x = torch.randn(3)
    theirs = torch.jit.script(WithDeleter())
    ours = script_save_and_compare(WithDeleter(), (x,), WithDeleter()(x), tmp_path / "m.pt", theirs=theirs(x))
    assert sorted(n for n in ours._c.method_names() if n.startswith("__")) == \
        sorted(n for n in theirs._c._method_names() if n.startswith("__")) == ["__v_getter"]
    with pytest.raises(AttributeError):  # eager runs the deleter; torch.jit's answer depends on earlier calls
        del ours.v


class GetterRaises(nn.Module):
    @property
    def p(self) -> int:
        raise RuntimeError("no p for this module")

    def forward(self, x):
        return x + self.p


class UnusedGetterRaises(nn.Module):
    @property
    def p(self) -> int:
        raise RuntimeError("no p for this module")

    def forward(self, x):
        return x * 2


def test_getter_that_raises(tmp_path):
    """torch.jit 1.13 fails scripting: it reads every attribute of the Python module (get_overload_annotations's
    getattr), which runs the getter. Kindling does not run Python properties while scripting: the getter is
    compiled, and raises when it runs, as eager's does (from forward, from Python, in torch.jit.load)."""
    x = torch.ones(2)
    for cls in (GetterRaises, UnusedGetterRaises):
        with pytest.raises(RuntimeError, match="no p for this module"):
            torch.jit.script(cls())
    with pytest.raises(RuntimeError, match="no p for this module"):
        GetterRaises()(x)
    with forbid_torch_jit():
        ours = kindling.jit.script(GetterRaises())
        ours.save(str(tmp_path / "m.pt"))
        with pytest.raises(RuntimeError, match="no p for this module"):
            ours(x)
        with pytest.raises(RuntimeError, match="no p for this module"):
            ours.p
        unused = kindling.jit.script(UnusedGetterRaises())
        assert_same(unused(x), UnusedGetterRaises()(x))
        assert "__p_getter" in unused._c.method_names()
    with pytest.raises(torch.jit.Error, match="no p for this module"):
        torch.jit.load(str(tmp_path / "m.pt"))(x)


class ShadowsSubmodule(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    @property
    def lin(self) -> int:
        return 3

    def forward(self, x):
        return x + self.lin


class SetterInInit(nn.Module):
    """`self.k = 5` in __init__ runs the setter (no attribute k): the property is compiled."""

    def __init__(self):
        super().__init__()
        self.k = 5

    @property
    def k(self) -> int:
        return self._k + 1

    @k.setter
    def k(self, v: int):
        self._k = v

    def forward(self, x):
        return x + self.k


def test_property_named_as_a_submodule_is_an_error():
    """Python's `self.lin` is the property (the submodule is only in _modules): torch.jit 1.13 fails ("Expected
    Module but got <class 'int'>"), and so does Kindling, naming both."""
    x = torch.ones(2)
    assert_same(ShadowsSubmodule()(x), x + 3)
    with pytest.raises(AssertionError, match="Expected Module"):
        torch.jit.script(ShadowsSubmodule())
    with pytest.raises(kindling.jit.CompileError, match="a property and a submodule both named 'lin'"):
        kindling.jit.script(ShadowsSubmodule())


def test_setter_run_by_init_is_compiled(tmp_path):
    x = torch.ones(2)
    theirs = torch.jit.script(SetterInInit())
    ours = script_save_and_compare(SetterInInit(), (x,), SetterInInit()(x), tmp_path / "m.pt", theirs=theirs(x))
    assert not ours._c.hasattr("k") and not theirs._c.hasattr("k")
    assert_same(ours.k, SetterInInit().k)


class ConstantProperty(nn.Module):
    __constants__ = ["c"]

    @property
    def c(self) -> int:
        return 3

    def forward(self, x):
        return x + self.c


def test_property_named_as_a_constant_gives_the_constant(tmp_path):
    """The constant's value is read through the property when scripting (torch.jit 1.13 too); Kindling then
    leaves the property out, where torch also compiles __c_getter."""
    x = torch.ones(2)
    theirs = torch.jit.script(ConstantProperty())
    ours = script_save_and_compare(ConstantProperty(), (x,), ConstantProperty()(x), tmp_path / "m.pt",
                                   theirs=theirs(x))
    assert ours._c.constant("c") == 3
    assert "__c_getter" in theirs._c._method_names() and "__c_getter" not in ours._c.method_names()


class ReturnsSubmodule(nn.Module):
    """A property returning a submodule, called: torch.jit 1.13 rejects calling a module value ("no attribute or
    method '__call__'"); Kindling calls its forward, as Python, and the archive runs in torch.jit.load."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2)])

    @property
    def first(self):
        return self.layers[0]

    def forward(self, x):
        return self.first(x) + self.layers[1](x)


def test_property_returning_a_submodule(tmp_path):
    torch.manual_seed(0)
    model = ReturnsSubmodule()
    x = torch.randn(3, 2)
    with pytest.raises(RuntimeError, match="__call__"):
        torch.jit.script(model)
    with torch.no_grad():
        script_save_and_compare(model, (x,), model(x), tmp_path / "m.pt")


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 3

    @property
    def size(self) -> int:
        return self.n

    def forward(self, x):
        return x * self.size


class Overrides(Base):
    """Overrides the base's property: the base's forward reads the subclass's."""

    @property
    def size(self) -> int:
        return self.n * 10


class ChildReadsOwn(nn.Module):
    def __init__(self, k: int):
        super().__init__()
        self.k = k

    @property
    def twice(self) -> int:
        return self.k * 2

    def forward(self, x):
        return x + self.twice


class Holder(nn.Module):
    """Submodules (one class, two objects, a ModuleList of them) whose forward reads their property."""

    def __init__(self):
        super().__init__()
        self.one = ChildReadsOwn(1)
        self.many = nn.ModuleList([ChildReadsOwn(2), ChildReadsOwn(3)])

    def forward(self, x):
        x = self.one(x)
        for m in self.many:
            x = m(x)
        return x


class ExportOnly(nn.Module):
    """The property is used only by an exported method."""

    def __init__(self):
        super().__init__()
        self.k = 2

    @property
    def p(self) -> int:
        return self.k * 3

    @torch.jit.export
    def get(self, y: int) -> int:
        return self.p + y

    def forward(self, x):
        return x


def test_overridden_property_of_a_base_class(tmp_path):
    x = torch.ones(2)
    theirs = torch.jit.script(Overrides())
    ours = script_save_and_compare(Overrides(), (x,), Overrides()(x), tmp_path / "m.pt", theirs=theirs(x))
    assert_same(ours.size, Overrides().size)


def test_property_read_in_submodule_forward(tmp_path):
    x = torch.zeros(2)
    script_save_and_compare(Holder(), (x,), Holder()(x), tmp_path / "m.pt", theirs=torch.jit.script(Holder())(x))


def test_property_used_by_an_exported_method_only(tmp_path):
    theirs = torch.jit.script(ExportOnly())
    with forbid_torch_jit():
        ours = kindling.jit.script(ExportOnly())
        ours.save(str(tmp_path / "m.pt"))
        assert ours.get(4) == ExportOnly().get(4) == theirs.get(4)
    assert torch.jit.load(str(tmp_path / "m.pt")).get(4) == theirs.get(4)
    assert sorted(ours._c.method_names()) == sorted(theirs._c._method_names())


# ------------------------------------------------------------------ TorchScript classes

class Box:
    """A TorchScript class with read-write properties, a read-only one calling other getters, and unused
    ones left out."""

    __jit_unused_properties__ = ["bad"]

    def __init__(self, w: int, h: float):
        self._w = w
        self._h = h  # (`self.h = h` here: torch.jit 1.13 makes a plain attribute h, see class_properties_init.py)

    @property
    def w(self) -> int:
        return self._w

    @w.setter
    def w(self, value: int):
        self._w = value * 2

    @property
    def h(self) -> float:
        return self._h

    @h.setter
    def h(self, value: float):
        self._h = value + 0.5

    @property
    def area(self) -> float:
        return self.w * self.h

    @property
    def bad(self):
        return next(iter([1]))

    @property
    @torch.jit.unused
    def bad2(self) -> int:
        return next(iter([1]))


class UsesBox(nn.Module):
    def forward(self, x: torch.Tensor, n: int):
        b = Box(n, 1.5)
        b.w = b.w + 1
        b.h = b.area
        return x * b.area + b.w


def box_function(n: int) -> float:
    b = Box(n, 2.0)
    b.w += 3
    return b.area + b.h


def test_class_properties_match_eager_and_torch(tmp_path):
    args = (torch.randn(3), 4)
    expected = UsesBox()(*args)
    theirs = torch.jit.script(UsesBox())(*args)
    script_save_and_compare(UsesBox(), args, expected, tmp_path / "m.pt", theirs=theirs)


def test_class_properties_in_a_scripted_function():
    expected = box_function(5)
    theirs = torch.jit.script(box_function)(5)
    with forbid_torch_jit():
        ours = kindling.jit.script(box_function)(5)
    assert_same(ours, expected)
    assert_same(ours, theirs)
    assert "__area_getter" in kindling.jit.script(box_function).code


@kindling.jit.script
class Decorated:
    def __init__(self, v: int):
        self.v = v

    @property
    def twice(self) -> int:
        return self.v * 2

    @twice.setter
    def twice(self, value: int):
        self.v = value // 2


class UsesDecorated(nn.Module):
    def forward(self, n: int):
        d = Decorated(n)
        d.twice = d.twice + 6
        return d.twice + d.v


def test_decorated_class_property(tmp_path):
    expected = UsesDecorated()(7)
    script_save_and_compare(UsesDecorated(), (7,), expected, tmp_path / "m.pt", theirs=torch.jit.script(UsesDecorated())(7))


class UsesBadBox(nn.Module):
    def forward(self, n: int):
        return Box(n, 1.0).bad


def test_unused_class_property_cannot_be_used():
    with pytest.raises(Exception):
        torch.jit.script(UsesBadBox())
    with pytest.raises(kindling.jit.CompileError) as ours:
        kindling.jit.script(UsesBadBox())
    assert "bad" in str(ours.value) and "<--- HERE" in str(ours.value)
