"""kindling.jit.fork / wait in Python (torch.jit.fork / wait's counterparts). In compiled code they
become prim::fork / aten::wait and run on Kindling's thread pool; called from Python, fork runs the
callable right away and returns a completed Future."""


class Future:
    """The result of fork (torch.jit.Future's counterpart)."""

    def __init__(self, value=None, error=None):
        self._value = value
        self._error = error

    def wait(self):
        if self._error is not None:
            raise self._error
        return self._value

    def value(self):
        return self.wait()

    def done(self):
        return True


def fork(func, *args, **kwargs):
    try:
        return Future(func(*args, **kwargs))
    except Exception as e:  # re-raised by wait(), as torch.jit does
        return Future(error=e)


def wait(future):
    return future.wait()
