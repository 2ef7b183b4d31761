"""kindling._C's module builder (python/src/module_builder.h), the C++ half of scripting nn.Modules:
module classes with typed attributes, parameter/buffer flags, constants, submodules and container kinds;
objects whose tensors share memory with the Python model's; methods compiled from source, iterating,
len() and indexing ModuleList/ModuleDict/ParameterList containers; the saved archive loaded by
torch.jit.load gives the same outputs. Kindling runs inside kindling_only (torch.jit raises there)."""
from pyapi_helpers import assert_same, kindling_only  # noqa: F401  (first: puts the package on sys.path)
import io

import pytest
import torch

import kindling.jit
from kindling import _C


def _linear_type(qualname="__torch__.builder_test.Lin"):
    t = _C.create_module_type(qualname)
    t.add_attribute("weight", "Tensor", is_parameter=True)
    t.add_attribute("scale", "Tensor", is_buffer=True)
    t.add_attribute("training", "bool")
    t.add_constant("k", 3)
    t.define_method("def forward(self, x):\n    return torch.matmul(x, self.weight) * self.scale + self.k\n",
                    "builder_test.py", 1)
    return t


def _eager_lin(x, w, s):
    return x @ w * s + 3


def _roundtrip_torch(module, tmp_path):
    path = tmp_path / "m.pt"
    module.save(str(path))
    return torch.jit.load(str(path))


def test_single_module_shares_memory_and_saves(kindling_only, tmp_path):
    torch.manual_seed(0)
    w, s, x = torch.randn(3, 3, requires_grad=True), torch.randn(3), torch.randn(2, 3)
    with kindling_only():
        t = _linear_type()
        t.emit_methods()
        m = t.create_object({"weight": w, "scale": s, "training": True})
        out = m(x)
        assert m.weight.data_ptr() == w.data_ptr() and m.scale.data_ptr() == s.data_ptr()
        assert [n for n, _ in m.named_parameters()] == ["weight"]
        assert [n for n, _ in m.named_buffers()] == ["scale"]
        assert m.k == 3 and m.training is True
    assert_same(out, _eager_lin(x, w, s).detach())
    loaded = _roundtrip_torch(m, tmp_path)
    assert_same(loaded(x), out)


def test_taken_names_are_mangled(kindling_only):
    with kindling_only():
        a = _C.create_module_type("__torch__.builder_test.Same")
        b = _C.create_module_type("__torch__.builder_test.Same")
        c = _C.create_module_type(b.qualified_name)
    assert a.qualified_name == "__torch__.builder_test.Same"
    assert b.qualified_name.startswith("__torch__.builder_test.___torch_mangle_") and b.qualified_name.endswith(".Same")
    assert c.qualified_name.count("___torch_mangle_") == 1 and c.qualified_name != b.qualified_name


def _container(kind, name):
    t = _C.create_module_type("__torch__.torch.nn.modules.container." + name)
    t.set_container(kind)
    t.add_attribute("training", "bool")
    return t


def test_module_list_iteration_len_and_literal_index(kindling_only, tmp_path):
    torch.manual_seed(1)
    ws = [torch.randn(3, 3) for _ in range(3)]
    ss = [torch.randn(3) for _ in range(3)]
    x = torch.randn(2, 3)
    with kindling_only():
        lin = _linear_type("__torch__.builder_test.LinL")
        lst = _container("module_list", "ModuleList")
        for i in range(3):
            lst.add_module(str(i), lin)
        top = _C.create_module_type("__torch__.builder_test.TopL")
        top.add_attribute("training", "bool")
        top.add_module("layers", lst)
        top.define_method(
            "def forward(self, x):\n"
            "    for l in self.layers:\n"
            "        x = l(x)\n"
            "    for i, l in enumerate(self.layers):\n"
            "        x = x + i\n"
            "    return x * len(self.layers) + self.layers[-1].k + self.layers[0](x)\n")
        top.emit_methods()
        objs = {str(i): lin.create_object({"weight": ws[i], "scale": ss[i], "training": True}) for i in range(3)}
        m = top.create_object({"training": False, "layers": lst.create_object(dict(objs, training=True))})
        out = m(x)
    y = x
    for i in range(3):
        y = _eager_lin(y, ws[i], ss[i])
    y = y + 0 + 1 + 2
    expected = y * 3 + 3 + _eager_lin(y, ws[0], ss[0])
    assert_same(out, expected)
    assert_same(_roundtrip_torch(m, tmp_path)(x), out)


def test_module_dict_and_parameter_containers(kindling_only, tmp_path):
    torch.manual_seed(2)
    ws = {"a": torch.randn(3, 3), "b": torch.randn(3, 3)}
    ss = {"a": torch.randn(3), "b": torch.randn(3)}
    plist = [torch.randn(3), torch.randn(3)]
    pdict = {"p": torch.randn(3), "q": torch.randn(3)}
    x = torch.randn(2, 3)
    with kindling_only():
        lin = _linear_type("__torch__.builder_test.LinD")
        md = _container("module_dict", "ModuleDict")
        for k in ws:
            md.add_module(k, lin)
        pl = _container("parameter_list", "ParameterList")
        pd = _container("parameter_dict", "ParameterDict")
        for i in range(2):
            pl.add_attribute(str(i), "Tensor", is_parameter=True)
        for k in pdict:
            pd.add_attribute(k, "Tensor", is_parameter=True)
        top = _C.create_module_type("__torch__.builder_test.TopD")
        top.add_attribute("training", "bool")
        top.add_module("blocks", md)
        top.add_module("plist", pl)
        top.add_module("pdict", pd)
        top.define_method(
            "def forward(self, x):\n"
            "    y = self.blocks['b'](x)\n"
            "    for name, b in self.blocks.items():\n"
            "        y = y + b(x)\n"
            "    for v in self.blocks.values():\n"
            "        y = y - v(x)\n"
            "    n = 0\n"
            "    for k in self.blocks.keys():\n"
            "        n += len(k)\n"
            "    for p in self.plist:\n"
            "        y = y * p\n"
            "    return y + self.pdict['q'] + self.plist[1] + n + len(self.pdict)\n")
        top.emit_methods()
        mods = {k: lin.create_object({"weight": ws[k], "scale": ss[k], "training": True}) for k in ws}
        m = top.create_object({
            "training": True,
            "blocks": md.create_object(dict(mods, training=True)),
            "plist": pl.create_object({"0": plist[0], "1": plist[1], "training": True}),
            "pdict": pd.create_object(dict(pdict, training=True)),
        })
        out = m(x)
        assert m.plist[0].data_ptr() == plist[0].data_ptr() if hasattr(m.plist, "__getitem__") else True
    y = _eager_lin(x, ws["b"], ss["b"])
    expected = (y * plist[0] * plist[1]) + pdict["q"] + plist[1] + 2 + 2
    assert_same(out, expected)
    assert_same(_roundtrip_torch(m, tmp_path)(x), out)


def test_errors_name_the_attribute(kindling_only):
    with kindling_only():
        t = _C.create_module_type("__torch__.builder_test.Err")
        t.add_attribute("n", "int")
        with pytest.raises(ValueError, match="already has an attribute 'n'"):
            t.add_attribute("n", "float")
        with pytest.raises(kindling.jit.CompileError, match="Foo"):
            t.add_attribute("bad", "Foo")
        with pytest.raises(ValueError, match="no value given for attribute 'n'"):
            t.create_object({})
        with pytest.raises(TypeError, match="attribute 'n'"):
            t.create_object({"n": "text"})
        with pytest.raises(ValueError, match="unknown module container kind"):
            t.set_container("tuple")
        lst = _container("module_list", "ModuleList")
        lst.add_module("0", t)
        top = _C.create_module_type("__torch__.builder_test.ErrTop")
        top.add_module("layers", lst)
        with pytest.raises(kindling.jit.CompileError, match="integer literal") as e:
            top.define_method("def forward(self, x: int):\n    return self.layers[x].n\n", "err_test.py", 7)
            top.emit_methods()
        assert "err_test.py" in str(e.value)
