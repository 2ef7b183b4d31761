"""The fusion controls of torch.jit, with their meaning over Kindling's optimizer.

Kindling has no profiling executor and no code-generating fuser: graphs are optimized once, at load or
compile time, and fusion means oneDNN post-op fusion of frozen graphs (convolution + residual add +
activation). The controls are kept so programs that call them run, and they decide what Kindling does:

- enable_onednn_fusion(flag) / onednn_fusion_enabled(): whether freeze/optimize_for_inference fuse
  convolutions with their add/activation into one oneDNN primitive (off by default, as in torch.jit).
- fuser(name): a context with "fuser0"/"fuser1"/"fuser2"/"fuser3" (fusion on) or "none" (fusion off).
- optimized_execution(flag): a context; False compiles without the inference optimizations that change
  graphs (calls still run), True is the default.
- set_fusion_strategy(strategy): torch.jit's list of ("STATIC" | "DYNAMIC", depth); Kindling compiles one
  shape-generic graph, so the strategy is validated and recorded (returned by the next call) only.
- strict_fusion(): a context that raises when what it wraps was not fused; in Python code nothing is
  compiled inside it, so it checks nothing and never raises there.
"""
import contextlib

_state = {"onednn_fusion": False, "optimized_execution": True, "strategy": [("STATIC", 2), ("DYNAMIC", 10)]}


def enable_onednn_fusion(enabled: bool):
    if not isinstance(enabled, bool):
        raise TypeError("enable_onednn_fusion expects a bool")
    _state["onednn_fusion"] = enabled


def onednn_fusion_enabled():
    return _state["onednn_fusion"]


def optimized_execution_enabled():
    return _state["optimized_execution"]


@contextlib.contextmanager
def optimized_execution(should_optimize):
    old = _state["optimized_execution"]
    _state["optimized_execution"] = bool(should_optimize)
    try:
        yield
    finally:
        _state["optimized_execution"] = old


@contextlib.contextmanager
def fuser(name):
    if name not in ("fuser0", "fuser1", "fuser2", "fuser3", "none"):
        raise Exception("unrecognized fuser option (name: {})".format(name))
    old = _state["onednn_fusion"]
    _state["onednn_fusion"] = name != "none"
    try:
        yield
    finally:
        _state["onednn_fusion"] = old


def set_fusion_strategy(strategy):
    if not isinstance(strategy, list) or not all(
            isinstance(s, tuple) and len(s) == 2 and s[0] in ("STATIC", "DYNAMIC") and isinstance(s[1], int)
            and s[1] >= 0 for s in strategy):
        raise ValueError('set_fusion_strategy expects a list of ("STATIC" | "DYNAMIC", depth >= 0) tuples')
    old = _state["strategy"]
    _state["strategy"] = list(strategy)
    return old


class strict_fusion:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False
