"""kindling.jit: torch.jit's API on Kindling's own TorchScript compiler and runtime.

Nothing here calls torch.jit or torch._C._jit_*: scripting compiles Python source with Kindling's
frontend, calls run in Kindling's interpreter, archives are read and written by Kindling. The markers
torch.jit's decorators leave on user code (@torch.jit.export / ignore / unused, torch.jit.Final,
torch.jit.Attribute, torch.jit.annotate / isinstance / is_scripting in compiled code) are read as they
are; kindling.jit offers the same names for code written without torch.jit.

Kindling runs inference only (no autograd): results never require grad, whatever the grad mode.
"""
from ._errors import CompileError, Error
from ._markers import (Attribute, Final, annotate, export, ignore, interface, is_scripting, is_tracing, unused)
from ._markers import jit_isinstance as isinstance  # noqa: A001  (torch.jit.isinstance's counterpart)
from ._markers import _overload, _overload_method  # noqa: F401  (torch.jit._overload / _overload_method)
from ._fork import Future, fork, wait
from ._freeze import freeze, optimize_for_inference
from ._fuser import (enable_onednn_fusion, fuser, onednn_fusion_enabled, optimized_execution, set_fusion_strategy,
                     strict_fusion)
from ._patch import patch_torch, unpatch_torch
from ._script_module import Graph, ScriptFunction, ScriptMethod, ScriptModule
from ._serialization import load, save
from ._trace import TracerWarning, TracingCheckError, script_if_tracing, trace, trace_module
from ._script import script

__all__ = [
    "Attribute", "CompileError", "Error", "Final", "Graph", "ScriptFunction", "ScriptMethod", "ScriptModule",
    "annotate", "export", "ignore", "interface", "is_scripting", "is_tracing", "isinstance", "load", "save",
    "unused", "Future", "fork", "wait", "freeze", "optimize_for_inference",
    "enable_onednn_fusion", "fuser", "onednn_fusion_enabled", "optimized_execution", "set_fusion_strategy",
    "strict_fusion", "patch_torch", "unpatch_torch",
    "TracerWarning", "TracingCheckError", "script_if_tracing", "trace", "trace_module",
    "script",
]
