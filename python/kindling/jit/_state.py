"""Process-wide state of kindling.jit: whether the JIT is enabled (PYTORCH_JIT, read once at import as
torch.jit reads it) and whether a trace is being recorded."""
import os


def _env_flag(name, default):
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in ("0", "false", "off", "no"):
        return False
    if value.lower() in ("1", "true", "on", "yes"):
        return True
    raise ValueError("{} should be 0 or 1, got {!r}".format(name, value))


# PYTORCH_JIT=0: script and trace return the Python object unchanged (the documentation's debugging mode).
enabled = _env_flag("PYTORCH_JIT", True)

_tracing_depth = 0


def is_tracing():
    return _tracing_depth > 0


def enter_tracing():
    global _tracing_depth
    _tracing_depth += 1


def exit_tracing():
    global _tracing_depth
    _tracing_depth -= 1
