"""kindling.jit.load / kindling.jit.save: TorchScript archives in and out (torch.jit.load / save's
counterparts). Archives written by torch.jit.save and by Kindling load alike; what Kindling saves loads in
torch.jit.load (PyTorch 1.13) and in Kindling's CLI and C++ API."""
import os
import tempfile

import torch

from .. import _C
from ._script_module import ScriptFunction, ScriptModule, _is_path


def _check_map_location(map_location):
    if map_location is None:
        return
    if isinstance(map_location, dict):
        for v in map_location.values():
            _check_map_location(v)
        return
    if isinstance(map_location, (str, torch.device)):
        dev = torch.device(map_location)
        if dev.type != "cpu":
            raise RuntimeError("Kindling runs on the CPU only; cannot load onto device '%s'" % dev)
        return
    raise ValueError("map_location should be None, a str, a torch.device or a dict, got %r" % (map_location,))


def load(f, map_location=None, _extra_files=None):
    """Loads a TorchScript archive (torch.jit.load's counterpart) and returns a ScriptModule.

    `f` is a path or a readable binary file object. `map_location` may name the CPU only (Kindling
    computes on the CPU; tensors saved from other devices load on the CPU). For every key of the dict
    `_extra_files` the archive has as extra/<key>, the value is replaced by the record's bytes.
    Raises ValueError for a missing file, RuntimeError for a file that is not a valid archive and
    kindling.jit.CompileError when its code does not compile.
    """
    _check_map_location(map_location)
    if _is_path(f):
        path = os.fspath(f)
        if not os.path.exists(path):
            raise ValueError("The provided filename {} does not exist".format(path))
        if os.path.isdir(path):
            raise ValueError("The provided filename {} is a directory".format(path))
        c, extra = _C.load(path)
    else:
        data = f.read()
        with tempfile.TemporaryDirectory(prefix="kindling-") as d:
            path = os.path.join(d, "archive.pt")
            with open(path, "wb") as out:
                out.write(data)
            c, extra = _C.load(path)
    if _extra_files is not None:
        for k in list(_extra_files.keys()):
            if k in extra:
                _extra_files[k] = extra[k]
    return ScriptModule(c) if c.is_module else c


def save(m, f, _extra_files=None):
    """Saves a Kindling ScriptModule or ScriptFunction as a TorchScript archive (torch.jit.save's
    counterpart): `f` is a path or a writable binary file object; `_extra_files` maps names to contents
    stored as extra/<name>."""
    if isinstance(m, (ScriptModule, ScriptFunction)):
        m.save(f, _extra_files=_extra_files)
        return
    raise TypeError("kindling.jit.save expects a module or function compiled by kindling.jit "
                    "(kindling.jit.script / trace / load), got %s" % type(m).__name__)
