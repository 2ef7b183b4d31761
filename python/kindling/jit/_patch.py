"""kindling.jit.patch_torch(): one call that makes torch.jit's entry points use Kindling, so an unchanged
program that calls torch.jit.script / trace / save / load / freeze keeps working where torch's own
TorchScript is gone or raises. The markers (export, ignore, unused, Final, Attribute, annotate, ...) are
shared already and stay torch's. unpatch_torch() restores torch.jit.
"""
import torch

_saved = {}


def _replacements():
    import kindling.jit as kjit
    names = ["script", "save", "load", "freeze", "optimize_for_inference", "fork", "wait", "CompilationUnit",
             "enable_onednn_fusion", "onednn_fusion_enabled", "set_fusion_strategy", "fuser", "optimized_execution",
             "strict_fusion", "trace", "trace_module", "script_if_tracing", "is_tracing"]
    return {n: getattr(kjit, n) for n in names if hasattr(kjit, n)}


def patch_torch():
    """Routes torch.jit.<entry point> to kindling.jit.<entry point>. Idempotent."""
    for name, value in _replacements().items():
        if name not in _saved:
            _saved[name] = getattr(torch.jit, name, None)
        setattr(torch.jit, name, value)


def unpatch_torch():
    """Undoes patch_torch."""
    for name, value in list(_saved.items()):
        if value is None:
            if hasattr(torch.jit, name):
                delattr(torch.jit, name)
        else:
            setattr(torch.jit, name, value)
    _saved.clear()
