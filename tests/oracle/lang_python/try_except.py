# try / except / else / finally with Python's meaning (TorchScript rejects try; Kindling accepts it and
# refuses to save it, since PyTorch could not load the archive): which clause catches which class
# (subclasses as in Python's hierarchy), `as e`, several clauses, tuples of classes, bare except, else,
# finally on every path (normal, return, break, continue, raise), nesting, re-raise with a bare `raise`,
# exceptions raised by kernels and by called functions.
import torch
from typing import Dict, List, Optional, Tuple


def checked(x: int) -> int:
    if x < 0:
        raise ValueError("negative")
    if x == 0:
        raise ZeroDivisionError("zero")
    if x > 100:
        raise IndexError("too big")
    return 100 // x


# save: rejected try
# case: (5,)
# case: (-1,)
# case: (0,)
# case: (1000,)
def which_handler(x: int) -> str:
    try:
        r = checked(x)
        out = "ok " + str(r)
    except ValueError as e:
        out = "value: " + str(e)
    except ZeroDivisionError as e:
        out = "zero: " + str(e)
    except IndexError:
        out = "index"
    return out


# Subclasses: LookupError catches IndexError and KeyError, ArithmeticError catches ZeroDivisionError,
# Exception catches everything.
# save: rejected try
# case: (-1,)
# case: (0,)
# case: (1000,)
# case: (3,)
def base_classes(x: int) -> List[str]:
    out: List[str] = []
    try:
        checked(x)
        out.append("none")
    except LookupError as e:
        out.append("lookup " + str(e))
    except ArithmeticError as e:
        out.append("arith " + str(e))
    except Exception as e:
        out.append("exception " + str(e))
    return out


# save: rejected try
# case: (-5,)
# case: (0,)
# case: (500,)
# case: (7,)
def tuple_of_classes(x: int) -> int:
    try:
        return checked(x)
    except (ValueError, IndexError):
        return -1
    except (TypeError, ZeroDivisionError):
        return -2


# save: rejected try
# case: (-5,)
# case: (5,)
def bare_except(x: int) -> int:
    try:
        y = checked(x)
    except:  # noqa: E722
        y = -100
    return y


# An exception no clause names goes on to the caller.
# save: rejected try
# case-raises: (0,)
# case: (-3,)
def unhandled_propagates(x: int) -> int:
    try:
        return checked(x)
    except ValueError:
        return -1


# save: rejected try
# case: ([1, 2, 3], 1, {"a": 1})
# case: ([1, 2, 3], 7, {"a": 1})
# case: ([1, 2, 3], -9, {"b": 2})
def kernel_errors(xs: List[int], i: int, d: Dict[str, int]) -> List[str]:
    out: List[str] = []
    try:
        out.append(str(xs[i]))
    except IndexError:
        out.append("IndexError")
    try:
        out.append(str(d["a"]))
    except KeyError:
        out.append("KeyError")
    try:
        out.append(str(10 // (i - 1)))
    except ZeroDivisionError:
        out.append("ZeroDivisionError")
    try:
        out.append(str(int("12x" if i > 5 else "12")))
    except ValueError:
        out.append("ValueError")
    try:
        out.append(str(xs.pop(i)))
    except IndexError:
        out.append("pop IndexError")
    try:
        out.append(str(float("1.5x" if i < 0 else "2.5")))
    except ValueError:
        out.append("float ValueError")
    return out


# save: rejected try
# case: (3,)
# case: (-3,)
def assert_caught(x: int) -> str:
    try:
        assert x > 0, "x must be positive"
        return "fine"
    except AssertionError as e:
        return "assert: " + str(e)


# save: rejected try
# case: (torch.zeros(2, 3), torch.zeros(3, 2))
# case: (torch.zeros(2, 3), torch.zeros(2, 3))
def tensor_runtime_error(a: torch.Tensor, b: torch.Tensor) -> int:
    try:
        c = a + b
        return int(c.numel())
    except RuntimeError:
        return -1


# save: rejected try
# case: (4,)
# case: (-4,)
def else_clause(x: int) -> List[str]:
    log: List[str] = []
    try:
        checked(x)
        log.append("body")
    except ValueError:
        log.append("handler")
    else:
        log.append("else")
    log.append("after")
    return log


# An exception raised in the else clause is not caught by the clauses of its try.
# save: rejected try
# case-raises: (4,)
# case: (-4,)
def else_raises(x: int) -> int:
    try:
        checked(x)
    except ValueError:
        return -1
    else:
        raise ValueError("from else")
    return 0


# finally runs on every path: normal, handled, unhandled (then the exception goes on), return.
# save: rejected try
# case: (4,)
# case: (-4,)
# case-raises: (0,)
def finally_paths(x: int) -> List[str]:
    log: List[str] = []
    try:
        checked(x)
        log.append("body")
    except ValueError:
        log.append("handler")
    finally:
        log.append("finally")
        print("finally ran", x)
    log.append("after")
    return log


# save: rejected try
# case: (4,)
# case: (-4,)
# case: (0,)
def return_in_try_finally(x: int) -> int:
    total = 0
    try:
        if x > 0:
            return checked(x)
        total = 1
    except ValueError:
        total = 2
        return -total
    finally:
        print("cleanup", x)
    return total + 10


# A return in finally wins over the try's return and discards a pending exception.
# save: rejected try
# case: (4,)
# case: (0,)
def return_in_finally(x: int) -> int:
    try:
        return checked(x)
    finally:
        return 99


# save: rejected try
# case: ([3, -1, 0, 7, 200, 5],)
def loop_break_continue(xs: List[int]) -> Tuple[List[str], int]:
    log: List[str] = []
    n = 0
    for x in xs:
        try:
            if x == 7:
                break
            if x == 0:
                continue
            n += checked(x)
            log.append("ok")
        except ValueError:
            log.append("neg")
            continue
        except IndexError:
            log.append("big")
        finally:
            log.append("fin" + str(x))
        log.append("end" + str(x))
    return log, n


# save: rejected try
# case: (10,)
def while_loop_return(limit: int) -> int:
    i = 0
    while i < limit:
        try:
            i += 1
            if i == 4:
                return i * 100
        finally:
            print("iteration", i)
    return -1


# Nested statements; an inner handler re-raises with a bare raise, the outer one catches.
# save: rejected try
# case: (-2,)
# case: (0,)
# case: (3,)
def nested_reraise(x: int) -> List[str]:
    log: List[str] = []
    try:
        try:
            checked(x)
            log.append("inner body")
        except ValueError as e:
            log.append("inner " + str(e))
            raise
        finally:
            log.append("inner finally")
    except ValueError as e:
        log.append("outer " + str(e))
    except ZeroDivisionError:
        log.append("outer zero")
    return log


# raise inside a handler: a new exception, caught further out.
# save: rejected try
# case: (-2,)
# case: (2,)
def raise_in_handler(x: int) -> str:
    try:
        try:
            checked(x)
            return "fine"
        except ValueError:
            raise KeyError("converted")
    except KeyError as e:
        return "caught " + str(e)


# `raise e` raises the caught exception again, with its class.
# save: rejected try
# case: (-2,)
def raise_bound_name(x: int) -> str:
    try:
        try:
            checked(x)
        except Exception as e:
            raise e
    except ValueError as e:
        return "ValueError " + str(e)
    return "none"


# Exceptions from deeper calls and raised in loops inside the try.
def deep(xs: List[int]) -> int:
    s = 0
    for x in xs:
        s += checked(x)
    return s


# save: rejected try
# case: ([1, 2, 5],)
# case: ([1, -2, 5],)
def exception_from_call_in_loop(xs: List[int]) -> int:
    try:
        return deep(xs)
    except ValueError:
        return -1


# Values assigned before the try are visible in handlers and after.
# save: rejected try
# case: ("12",)
# case: ("x",)
def parse_or_default(s: str) -> Tuple[int, bool]:
    ok = True
    v = -1
    try:
        v = int(s)
    except ValueError:
        ok = False
    return v, ok


# save: rejected try
# case: (3,)
# case: (-3,)
def optional_result(x: int) -> Optional[int]:
    r: Optional[int] = None
    try:
        r = checked(x)
    except ValueError:
        pass
    return r


# save: rejected try
# case: (-1,)
# case: (1,)
def message_formats(x: int) -> List[str]:
    out: List[str] = []
    try:
        checked(x)
    except ValueError as e:
        out.append(f"{e}")
        out.append("{}".format(e))
        print(e)
    try:
        raise RuntimeError("rt " + str(x))
    except RuntimeError as e:
        out.append(str(e))
    try:
        raise TypeError
    except TypeError as e:
        out.append("[" + str(e) + "]")
    return out


# A handler that does not match lets finally run, then the exception goes on.
# save: rejected try
# case-raises: (-1,)
def finally_then_propagate(x: int) -> int:
    try:
        return checked(x)
    except IndexError:
        return -1
    finally:
        print("finally before propagating")


# Exceptions in the finally clause replace the pending one.
# save: rejected try
# case: (-1,)
def exception_in_finally(x: int) -> str:
    try:
        try:
            checked(x)
        finally:
            raise KeyError("from finally")
    except ValueError:
        return "ValueError"
    except KeyError as e:
        return "KeyError " + str(e)


# Tensors: a try around tensor code in a loop with continue.
# save: rejected try
# case: ([torch.ones(2, 2), torch.ones(3), torch.ones(2, 2) * 3],)
def tensor_loop(ts: List[torch.Tensor]) -> Tuple[torch.Tensor, int]:
    acc = torch.zeros(2, 2)
    bad = 0
    for t in ts:
        try:
            acc = acc + t.view(2, 2)
        except RuntimeError:
            bad += 1
            continue
        acc = acc * 2
    return acc, bad


# The except clause sees what the body assigned before the exception.
# save: rejected try
# case: ([1, 2, -3, 4],)
# case: ([1, 2, 3],)
def partial_progress(xs: List[int]) -> Tuple[int, int, str]:
    count = 0
    last = 0
    stage = "start"
    try:
        stage = "loop"
        for x in xs:
            last = checked(x)
            count += 1
        stage = "done"
    except ValueError:
        stage = stage + " failed at " + str(count)
    return count, last, stage


# The same through nested try statements and a finally clause.
# save: rejected try
# case: (-1,)
# case: (1,)
def partial_progress_finally(x: int) -> List[int]:
    a = 0
    b = 0
    try:
        try:
            a = 1
            checked(x)
            a = 2
        finally:
            b = a * 10
    except ValueError:
        b += 1
    return [a, b]
