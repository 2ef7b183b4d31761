"""Kindling as a library a C++ project depends on: `cmake --install` into a temporary prefix, then

  - every public header compiles alone in an otherwise empty translation unit (C++17 and C++20, -Werror),
    with only <prefix>/include on the include path;
  - libkindling.so has its SONAME and exports only the public API (kindling::api::*);
  - examples/cpp builds with only find_package(kindling) (shared, and COMPONENTS static) and with
    pkg-config, and its top-5 on the 224x224 test pattern equals PyTorch's;
  - the porting guide's Kindling program (docs/porting-from-libtorch.md) builds and prints what the
    libtorch program prints (the libtorch one is built against Debian's libtorch-dev when present).

The build folder is the one holding $KINDLING_BIN (build/tools/kindling/kindling).
"""
import os
import pathlib
import re
import shutil
import subprocess

import pytest
import torch

from conftest import REPO, kindling_bin_path

BUILD = kindling_bin_path().resolve().parents[2]
EXAMPLE = REPO / "examples" / "cpp"
GUIDE = REPO / "docs" / "porting-from-libtorch.md"
ENV = {k: v for k, v in os.environ.items() if k not in ("CMAKE_PREFIX_PATH", "PKG_CONFIG_PATH")}


def run(cmd, timeout=900, **kw):
    cp = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout, env=kw.pop("env", ENV), **kw)
    assert cp.returncode == 0, f"{' '.join(map(str, cmd))} failed ({cp.returncode}):\n{cp.stdout[-3000:]}\n{cp.stderr[-3000:]}"
    return cp.stdout


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    p = tmp_path_factory.mktemp("kindling-prefix")
    run(["cmake", "--install", BUILD, "--prefix", p])
    return p


def libdir(prefix):
    (pc,) = prefix.glob("**/pkgconfig/kindling.pc")
    return pc.parent.parent


def test_installed_files(prefix):
    assert (prefix / "bin" / "kindling").is_file()
    lib = libdir(prefix)
    so = sorted(p.name for p in lib.glob("libkindling.so*"))
    major = "0"
    assert so == ["libkindling.so", f"libkindling.so.{major}", next(n for n in so if n.count(".") == 4)], so
    assert (lib / "libkindling.a").is_file()
    assert (lib / "cmake" / "kindling" / "kindlingConfig.cmake").is_file()
    soname = run(["readelf", "-d", lib / "libkindling.so"])
    assert f"Library soname: [libkindling.so.{major}]" in soname
    headers = sorted(p.name for p in (prefix / "include" / "kindling").iterdir())
    assert "kindling.h" in headers and "torch_compat.h" in headers
    # No header includes anything outside <kindling/...> and the standard library.
    for h in (prefix / "include" / "kindling").iterdir():
        for inc in re.findall(r'^\s*#\s*include [<"]([^>"]+)[>"]', h.read_text(), re.M):
            assert inc.startswith("kindling/") or "/" not in inc and "." not in inc, f"{h.name} includes {inc}"


def test_only_public_symbols_exported(prefix):
    out = run(["nm", "-D", "--defined-only", "-C", libdir(prefix) / "libkindling.so"])
    names = [line.split(" ", 2)[2] for line in out.splitlines() if line.count(" ") >= 2]
    ours = [n for n in names if "kindling" in n]
    assert ours, "libkindling.so exports nothing of Kindling"
    leaked = [n for n in ours if "kindling::api::" not in n]
    assert not leaked, f"internal symbols exported: {leaked[:10]}"


@pytest.mark.parametrize("std", ["c++17", "c++20"])
def test_each_header_compiles_alone(prefix, tmp_path, std):
    for h in sorted((prefix / "include" / "kindling").glob("*.h")):
        tu = tmp_path / f"only_{h.stem}.cpp"
        tu.write_text(f"#include <kindling/{h.name}>\n")
        run(["g++", f"-std={std}", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I", prefix / "include", tu])


def expected_top5(model_path):
    """PyTorch's top-5 (indices, probabilities) of classify.cpp's test pattern, preprocessed the same way."""
    y, x, c = torch.meshgrid(torch.arange(224), torch.arange(224), torch.arange(3), indexing="ij")
    img = ((3 * x + 5 * y + 7 * c) % 256).to(torch.uint8)
    t = img.permute(2, 0, 1).float().div(255).unsqueeze(0)
    mean, std = torch.tensor([0.485, 0.456, 0.406]), torch.tensor([0.229, 0.224, 0.225])
    for ch in range(3):
        t[:, ch].sub_(mean[ch]).div_(std[ch])
    with torch.no_grad():
        p = torch.jit.load(str(model_path))(t).softmax(1)[0]
    v, i = p.topk(5)
    return i.tolist(), v.tolist()


def check_classify_output(out, model_path):
    rows = [line.split() for line in out.strip().splitlines()]
    assert len(rows) == 5, out
    idx, prob = expected_top5(model_path)
    assert [int(r[1]) for r in rows] == idx, out
    for r, p in zip(rows, prob):
        assert abs(float(r[2]) - p) <= 1e-4, (out, prob)
    return rows


def configure_against(prefix, source_dir, build_dir, *extra):
    """cmake-configures a project that calls find_package(kindling) with CMAKE_PREFIX_PATH=prefix, and checks
    the package found is the one installed in prefix (not another Kindling on the machine)."""
    run(["cmake", "-S", source_dir, "-B", build_dir, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}", *extra])
    cache = (pathlib.Path(build_dir) / "CMakeCache.txt").read_text()
    found = re.search(r"^kindling_DIR:PATH=(.*)$", cache, re.M)
    want = libdir(prefix) / "cmake" / "kindling"
    assert found and pathlib.Path(found.group(1)).resolve() == want.resolve(), \
        f"find_package(kindling) found {found.group(1) if found else 'nothing'}, not the installed {want}"


def build_example(prefix, build_dir, *extra):
    configure_against(prefix, EXAMPLE, build_dir, *extra)
    run(["cmake", "--build", build_dir])
    return build_dir / "classify"


def test_example_against_installed_shared_library(prefix, tmp_path):
    exe = build_example(prefix, tmp_path / "shared")
    needed = run(["readelf", "-d", exe])
    assert "libkindling.so.0" in needed
    model = EXAMPLE / "tiny_classifier.pt"
    rows = check_classify_output(run([exe, model]), model)
    labels = (EXAMPLE / "make_model.py").read_text()
    assert all(f'"{r[3]}"' in labels for r in rows), f"class names come from the archive's labels.txt: {rows}"


def test_example_against_installed_static_library(prefix, tmp_path):
    exe = build_example(prefix, tmp_path / "static", "-DCLASSIFY_STATIC=ON")
    assert "libkindling" not in run(["readelf", "-d", exe])
    model = EXAMPLE / "tiny_classifier.pt"
    check_classify_output(run([exe, model]), model)


def test_example_with_pkg_config(prefix, tmp_path):
    env = dict(ENV, PKG_CONFIG_PATH=str(libdir(prefix) / "pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "kindling"], env=env).split()
    exe = tmp_path / "classify_pc"
    run(["g++", "-std=c++17", "-O1", EXAMPLE / "classify.cpp", "-o", exe, *flags])
    model = EXAMPLE / "tiny_classifier.pt"
    check_classify_output(run([exe, model], env=dict(ENV, LD_LIBRARY_PATH=str(libdir(prefix)))), model)


def test_example_errors(prefix, tmp_path):
    exe = build_example(prefix, tmp_path / "err")
    cp = subprocess.run([exe, tmp_path / "missing.pt"], capture_output=True, text=True, env=ENV)
    assert cp.returncode == 1 and "error:" in cp.stderr and "missing.pt" in cp.stderr, cp.stderr


def guide_programs():
    """The two programs of the porting guide: the blocks after its 'libtorch program' and 'Kindling program'
    headings."""
    text = GUIDE.read_text()
    blocks = {}
    for title, key in (("## The libtorch program", "libtorch"), ("## The Kindling program", "kindling")):
        start = text.index(title)
        m = re.search(r"```c\+\+\n(.*?)```", text[start:], re.S)
        blocks[key] = m.group(1)
    return blocks


def test_porting_guide_diff_is_current():
    """The guide's diff is the diff of its two programs (so it cannot drift from them)."""
    text = GUIDE.read_text()
    progs = guide_programs()
    m = re.search(r"```diff\n(.*?)```", text, re.S)
    diff_lines = [l for l in m.group(1).splitlines() if l[:1] in "+-" and not l.startswith(("+++", "---"))]
    import difflib
    want = [l for l in difflib.unified_diff(progs["libtorch"].splitlines(), progs["kindling"].splitlines(), lineterm="", n=0)
            if l[:1] in "+-" and not l.startswith(("+++", "---"))]
    assert diff_lines == want


def cmake_app(tmp_path, name, source, package, target, prefix=None):
    proj = tmp_path / name
    proj.mkdir()
    (proj / "main.cpp").write_text(source)
    (proj / "CMakeLists.txt").write_text(
        f"cmake_minimum_required(VERSION 3.16)\nproject({name} CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
        f"find_package({package} REQUIRED)\nadd_executable(app main.cpp)\ntarget_link_libraries(app PRIVATE {target})\n")
    if prefix:
        configure_against(prefix, proj, proj / "b", "-DCMAKE_BUILD_TYPE=Release")
    else:
        run(["cmake", "-S", proj, "-B", proj / "b", "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"])
    run(["cmake", "--build", proj / "b"], timeout=1800)
    return proj / "b" / "app"


def numbers(out):
    return [float(t) for t in re.findall(r"-?\d+\.\d+(?:e[-+]\d+)?", out)]


def assert_same_output(a, b):
    """Same lines apart from float digits; class indices equal; numbers within float32 noise."""
    la, lb = a.strip().splitlines(), b.strip().splitlines()
    assert len(la) == len(lb), (a, b)
    for x, y in zip(la, lb):
        if x.startswith("class ") or x.startswith("["):
            assert x.split(":")[0] == y.split(":")[0], (a, b)
    na, nb = numbers(a), numbers(b)
    assert len(na) == len(nb) and all(abs(x - y) <= 2e-4 * max(1.0, abs(y)) for x, y in zip(na, nb)), (a, b)


def test_porting_guide_programs_agree(prefix, tmp_path):
    progs = guide_programs()
    model = tmp_path / "model.pt"
    # A scripted torchvision classifier, as the guide's program expects (random weights, fixed seed).
    import torchvision
    torch.manual_seed(0)
    torch.jit.script(torchvision.models.resnet18(num_classes=10).eval()).save(str(model))
    ours = run([cmake_app(tmp_path, "guide_kindling", progs["kindling"], "kindling", "kindling::kindling", prefix), model])
    assert "[ CPUFloatType{1,5} ]" in ours and ours.count("class ") == 3, ours
    # The libtorch program itself with only its include changed to <kindling/torch_compat.h>.
    compat = progs["libtorch"].replace("#include <torch/script.h>", "#include <kindling/torch_compat.h>")
    assert compat != progs["libtorch"]
    same = run([cmake_app(tmp_path, "guide_compat", compat, "kindling", "kindling::kindling", prefix), model])
    assert same == ours
    if not pathlib.Path("/usr/lib/x86_64-linux-gnu/cmake/Torch").is_dir() or os.environ.get("KINDLING_SKIP_LIBTORCH_BUILD"):
        pytest.skip("libtorch-dev not installed: the Kindling programs were built and run, the libtorch one not")
    theirs = run([cmake_app(tmp_path, "guide_libtorch", progs["libtorch"], "Torch", "torch"), model])
    assert_same_output(ours, theirs)


def test_debian_package(tmp_path):
    """`cpack -G DEB` makes kindling_<version>_<arch>.deb holding the installed tree under /usr, whose Depends
    are Debian's runtime library packages (dpkg-shlibdeps). Installing it into a fresh Debian root and
    running the example there is scripts/deb-check.sh (run by the fresh-machine check)."""
    out = tmp_path / "pkg"
    run(["cpack", "-G", "DEB", "-B", out], cwd=BUILD)
    (deb,) = out.glob("kindling_*.deb")
    fields = {f: run(["dpkg-deb", "-f", deb, f]).strip() for f in ("Package", "Version", "Depends", "Installed-Size")}
    assert fields["Package"] == "kindling"
    depends = [d.split()[0] for d in fields["Depends"].split(", ")]
    for lib in ("libdnnl2", "libzip4", "libfmt9", "libgomp1", "libstdc++6"):
        assert lib in depends, fields["Depends"]
    assert not any(d.endswith("-dev") for d in depends), fields["Depends"]
    files = run(["dpkg-deb", "-c", deb])
    for f in ("./usr/bin/kindling", "./usr/lib/libkindling.so.0", "./usr/include/kindling/kindling.h",
              "./usr/lib/cmake/kindling/kindlingConfig.cmake", "./usr/lib/pkgconfig/kindling.pc"):
        assert f in files, f
    print(f"{deb.name}: {fields['Installed-Size']} KiB installed")
