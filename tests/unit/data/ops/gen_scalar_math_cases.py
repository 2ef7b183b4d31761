# Generates tests/unit/data/ops/scalar_math_cases.txt: results of math-module and builtin calls on int /
# float in PyTorch 1.13 TorchScript (/usr/bin/python3 gen_scalar_math_cases.py > scalar_math_cases.txt).
# Line: <overload> <nargs> (<type> <value>)* <result>; values as in scalar_arith_cases.txt; the overload is
# the one TorchScript's graph calls.
import torch, math
ints = [0, 1, -1, 2, -3, 7, 20, 21, 2**62, -2**63, 2**63 - 1]
floats = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.5, 0.1, -7.25, 1e308, 5e-324, 1e30, float('inf'), float('-inf'), float('nan')]
unary = ['-{}', 'abs({})', 'math.floor({})', 'math.ceil({})', 'round({})', 'math.sqrt({})', 'math.exp({})',
         'math.log({})', 'math.log10({})', 'math.log1p({})', 'math.expm1({})', 'math.sin({})', 'math.cos({})',
         'math.tan({})', 'math.asin({})', 'math.acos({})', 'math.atan({})', 'math.sinh({})', 'math.cosh({})',
         'math.tanh({})', 'math.asinh({})', 'math.acosh({})', 'math.atanh({})', 'math.erf({})', 'math.erfc({})',
         'math.lgamma({})', 'math.gamma({})', 'math.fabs({})', 'math.degrees({})', 'math.radians({})',
         'int({})', 'float({})', 'bool({})', 'math.isnan({})', 'math.isinf({})', 'math.isfinite({})',
         'math.factorial({})']
binary = ['math.atan2({}, {})', 'math.copysign({}, {})', 'math.fmod({}, {})', 'math.remainder({}, {})',
          'math.log({}, {})', 'math.pow({}, {})', 'math.gcd({}, {})', 'min({}, {})', 'max({}, {})',
          '{} << {}', '{} >> {}', '{} & {}', '{} | {}', '{} ^ {}']
def fmt(t, v): return str(v) if t == 'int' else float(v).hex()
def res(r):
    if isinstance(r, bool): return f"bool:{int(r)}"
    if isinstance(r, int): return f"int:{r}"
    return f"float:{float(r).hex()}"
def opname(fn):
    for n in fn.graph.nodes():
        if n.kind() != 'prim::Constant' and n.kind() != 'prim::TupleConstruct':
            s = n.schema()
            if s != '(no schema)': return s.split('(')[0]
    return None
out = []
def run(expr, types, valsets):
    args = ', '.join(f"{c}: {t}" for c, t in zip('ab', types))
    src = f"import math\ndef f({args}):\n    return {expr.format(*'ab'[:len(types)])}\n"
    try:
        fn = torch.jit.CompilationUnit(src.split('\n', 1)[1]).f
    except Exception:
        return
    name = opname(fn)
    if name is None: return
    import itertools
    for vals in itertools.product(*valsets):
        if 'factorial' in expr and vals[0] > 25: continue
        if 'gcd' in expr and -2**63 in vals: continue
        if ('<<' in expr or '>>' in expr) and not (-70 < vals[1] < 70): continue
        try:
            r = res(fn(*vals))
        except Exception as e:
            r = "error:" + str(e).strip().split('\n')[-1].replace('RuntimeError: ', '')
        out.append(f"{name} {len(types)} " + ' '.join(f"{t} {fmt(t, v)}" for t, v in zip(types, vals)) + f" {r}")
for e in unary:
    for t in ('int', 'float'):
        run(e, [t], [ints if t == 'int' else floats])
for e in binary:
    for ta in ('int', 'float'):
        for tb in ('int', 'float'):
            run(e, [ta, tb], [ints if ta == 'int' else floats, ints if tb == 'int' else floats])
print('\n'.join(out))
