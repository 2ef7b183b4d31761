"""kindling.jit.freeze / optimize_for_inference (torch.jit.freeze / optimize_for_inference's
counterparts) over Kindling's optimizer.

freeze specializes forward (and the methods named in `preserved_attrs`) to the module's current
attribute values: attributes the code never writes become constants, `if self.training:` branches
disappear, convolutions absorb the batch norms that follow them (passes/optimize/freeze_module.h,
runFrozenGraphPasses). The result is a new ScriptModule handle over the same object; the original keeps
running its unspecialized code. As in torch.jit the module must be in eval mode.
"""
from ._script_module import ScriptModule


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("Freezing expects a ScriptModule as input. Please use kindling.jit.script or "
                           "kindling.jit.trace to script your 'nn.Module'.")
    if mod.training:
        raise RuntimeError("Freezing is currently only implemented for modules in eval mode. Please call .eval() "
                           "on your module before freezing.")
    c = mod._c.new_handle()
    methods = ["forward"] if c.has_method("forward") else []
    for name in preserved_attrs or []:
        if c.has_method(name) and name not in methods:
            methods.append(name)
    for name in methods:
        c.freeze_method(name)
    frozen = ScriptModule(c)
    object.__setattr__(frozen, "_frozen_methods", tuple(methods))
    return frozen


def optimize_for_inference(mod, other_methods=None):
    """Freezes `mod` (when it is not frozen yet) and applies the inference optimizations."""
    if not isinstance(mod, ScriptModule):
        raise RuntimeError("optimize_for_inference expects a ScriptModule as input. Please use kindling.jit.script "
                           "or kindling.jit.trace to script your 'nn.Module'.")
    if getattr(mod, "_frozen_methods", None):
        return mod
    if mod.training:
        mod = mod.eval()
    return freeze(mod, preserved_attrs=other_methods)
