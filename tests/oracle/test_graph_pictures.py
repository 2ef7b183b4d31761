"""`kindling graph --format dot|svg|png` (Graphviz pictures of a method's graph) and `kindling inspect --json`.

The DOT text must be accepted by Graphviz, have one box per operator node of the printed graph, clusters for
the blocks of prim::If / prim::Loop, and module paths (self.features.0) on the GetAttr / CallMethod nodes.
inspect --json is compared with what PyTorch reports for the same archive.
"""
import json
import re
import shutil
import subprocess

import pytest
import torch
import torch.nn as nn

from conftest import assert_no_crash


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 1)

    def forward(self, x):
        return torch.relu(self.conv(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(Block(), Block())
        self.fc = nn.Linear(3, 2)

    def forward(self, x, n: int):
        y = self.features(x)
        if n > 2:
            y = y * 2
        else:
            y = y - 1
        for i in range(n):
            y = y + i
        return self.fc(y.mean([2, 3]))


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    p = tmp_path_factory.mktemp("pictures") / "net.pt"
    torch.jit.save(torch.jit.script(Net()), str(p), _extra_files={"meta.txt": "hello"})
    return p


def test_dot_structure(run_kindling, archive):
    res = run_kindling("graph", archive, "--format", "dot")
    assert_no_crash(res)
    assert res.returncode == 0, res.describe()
    dot = res.stdout
    text = run_kindling("graph", archive).stdout
    # One DOT node per IR node: every "= kind(" / "kind(" line of the text graph.
    ir_nodes = [m for m in re.findall(r"^\s*(?:%[^=]+= )?([a-z_]+::[A-Za-z_0-9]+)", text, re.M)]
    kinds = [k for k in ir_nodes if k != "prim::Constant"]
    for k in set(kinds):
        labelled = len(re.findall(r'label="' + re.escape(k) + r'[\["\\]', dot))
        assert labelled == kinds.count(k), (k, labelled, kinds.count(k))
    assert dot.count("subgraph cluster_") == 3  # If: then, else; Loop: body
    assert 'label="prim::If: then"' in dot and 'label="prim::Loop: body"' in dot
    assert "self.features (Sequential)" in dot and "self.fc (Linear)" in dot
    assert re.search(r'label="%x\.1 : Tensor"', dot)
    if shutil.which("dot"):
        cp = subprocess.run(["dot", "-Tplain"], input=dot, capture_output=True, text=True)
        assert cp.returncode == 0, cp.stderr


@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz not installed")
@pytest.mark.parametrize("fmt,magic", [("svg", b"<svg"), ("png", b"\x89PNG")])
def test_rendered(kindling_bin, archive, fmt, magic):
    cp = subprocess.run([kindling_bin, "graph", str(archive), "--format", fmt], capture_output=True)
    assert cp.returncode == 0, cp.stderr
    assert magic in cp.stdout[:400]


def test_render_without_graphviz(kindling_bin, archive, tmp_path):
    cp = subprocess.run([kindling_bin, "graph", str(archive), "--format", "svg"], capture_output=True, text=True,
                        env={"PATH": str(tmp_path)})
    assert cp.returncode == 1
    assert "needs Graphviz's 'dot' program" in cp.stderr and "apt install graphviz" in cp.stderr
    cp = subprocess.run([kindling_bin, "graph", str(archive), "--format", "dot"], capture_output=True, text=True,
                        env={"PATH": str(tmp_path)})
    assert cp.returncode == 0 and cp.stdout.startswith("digraph")


def test_bad_format_is_usage_error(run_kindling, archive):
    res = run_kindling("graph", archive, "--format", "jpeg")
    assert res.returncode == 64, res.describe()


def test_inspect_json_matches_pytorch(run_kindling, archive):
    res = run_kindling("inspect", archive, "--json")
    assert res.returncode == 0, res.describe()
    j = json.loads(res.stdout)
    m = torch.jit.load(str(archive))
    assert [p["name"] for p in j["parameters"]] == [n for n, _ in m.named_parameters()]
    assert [p["shape"] for p in j["parameters"]] == [list(t.shape) for _, t in m.named_parameters()]
    assert all(p["dtype"] == "torch.float32" for p in j["parameters"])
    assert j["parameter_count"] == sum(t.numel() for t in m.parameters())
    assert j["extra_files"] == {"meta.txt": {"bytes": 5}}
    assert j["version"] == int(open_version(archive))
    assert j["module"]["type"] == m._c._type().qualified_name()
    assert [c["name"] for c in j["module"]["children"]] == ["features", "fc"]
    classes = {c["name"]: c for c in j["classes"]}
    fwd = next(x for x in classes[j["module"]["type"]]["methods"] if x["name"] == "forward")
    assert fwd["schema"] == str(m.forward.schema)
    # The Linear's class name as this process's torch.jit mangled it (other tests may have scripted a Linear).
    linear = m.fc._c._type().qualified_name()
    roles = {a["name"]: a["role"] for a in classes[linear]["attributes"]}
    assert roles["weight"] == "parameter" and roles["training"] == "attribute"


def open_version(archive):
    import zipfile
    z = zipfile.ZipFile(archive)
    name = next(n for n in z.namelist() if n.endswith("/version"))
    return z.read(name).decode().strip()
