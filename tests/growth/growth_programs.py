"""Generated TorchScript programs whose size grows with one parameter N, for measuring how compile time
and memory grow with the size of a program (tests/oracle/test_growth.py, tests/growth/measure.py).

Each generator returns (source, entry function name, argument tuple, expected result) for a program of
size N (N lines, variables, operands, functions, comparisons or nested blocks). The expected result is
what Python computes for the same source.
"""


def long_function(n):
    """N statements `x = x + 1` in one function."""
    body = "".join("    x = x + 1\n" for _ in range(n))
    return f"def f(x: int) -> int:\n{body}    return x\n", "f", (0,), n


def many_variables(n):
    """N distinct local variables, each defined from the one before."""
    lines = ["    v0 = x\n"] + [f"    v{i} = v{i - 1} + 1\n" for i in range(1, n)]
    return f"def f(x: int) -> int:\n{''.join(lines)}    return v{n - 1}\n", "f", (0,), n - 1


def long_expression(n):
    """One expression with N operands: a list literal of N sums, then its length and total."""
    items = ", ".join(f"x + {i}" for i in range(n))
    src = f"def f(x: int) -> int:\n    y = [{items}]\n    return len(y) + y[-1]\n"
    return src, "f", (0,), n + (n - 1)


def call_chain(n):
    """N one-line functions, each calling the next."""
    parts = [f"def g{n - 1}(x: int) -> int:\n    return x + 1\n"]
    for i in range(n - 2, -1, -1):
        parts.append(f"def g{i}(x: int) -> int:\n    return g{i + 1}(x) + 1\n")
    parts.append("def f(x: int) -> int:\n    return g0(x)\n")
    return "\n".join(parts), "f", (0,), n


def chained_compare(n):
    """One chained comparison with N operands: x < x + 1 < ... < x + N - 1."""
    chain = " < ".join(["x"] + [f"x + {i}" for i in range(1, n)])
    return f"def f(x: int) -> bool:\n    return {chain}\n", "f", (0,), True


def nested_ifs(n):
    """N nested `if` statements, each adding one to x."""
    lines = ["def f(x: int) -> int:\n"]
    for d in range(n):
        ind = "    " * (d + 1)
        lines.append(f"{ind}if x >= {d}:\n{ind}    x = x + 1\n")
    lines.append("    return x\n")
    return "".join(lines), "f", (0,), n


def dict_literal(n):
    """One dict literal of N entries, each value an expression."""
    items = ", ".join(f"{i}: x + {i}" for i in range(n))
    src = f"def f(x: int) -> int:\n    y = {{{items}}}\n    return len(y) + y[{n - 1}]\n"
    return src, "f", (0,), n + (n - 1)


def nested_literal(n):
    """One list literal of N two-element list literals."""
    items = ", ".join(f"[{i}, x]" for i in range(n))
    src = f"def f(x: int) -> int:\n    y = [{items}]\n    return len(y) + y[-1][0]\n"
    return src, "f", (0,), n + (n - 1)


def many_calls(n):
    """N calls of one small function with a branch, in one body (each call is inlined)."""
    g = "def g(x: int) -> int:\n    if x > 3:\n        return x - 1\n    return x + 1\n\n"
    body = "".join("    x = g(x)\n" for _ in range(n))
    x = 0
    for _ in range(n):
        x = x - 1 if x > 3 else x + 1
    return f"{g}def f(x: int) -> int:\n{body}    return x\n", "f", (0,), x


FAMILIES = {
    "long_function": long_function,
    "many_variables": many_variables,
    "long_expression": long_expression,
    "call_chain": call_chain,
    "chained_compare": chained_compare,
    "nested_ifs": nested_ifs,
    "dict_literal": dict_literal,
    "nested_literal": nested_literal,
    "many_calls": many_calls,
}
