"""Kindling: TorchScript without libtorch.

``kindling.jit`` mirrors ``torch.jit`` (script, trace, save, load, freeze, ...) on Kindling's own
TorchScript frontend, interpreter and archive writer; it never calls ``torch.jit`` or
``torch._C._jit_*``. Tensors pass between torch and Kindling without copies (DLPack).

Kindling runs inference only: there is no autograd. Results never require grad, whatever the grad mode.
"""
import torch  # noqa: F401  (the extension module needs torch's DLPack entry points)

from . import _C  # noqa: F401
from . import jit  # noqa: F401

set_num_threads = _C.set_num_threads
get_num_threads = _C.get_num_threads

__all__ = ["jit", "set_num_threads", "get_num_threads"]
