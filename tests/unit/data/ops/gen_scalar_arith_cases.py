# Generates tests/unit/data/ops/scalar_arith_cases.txt: TorchScript int/float arithmetic results from
# PyTorch 1.13 (run with /usr/bin/python3). Format per line:
#   <op> <ta> <a> <tb> <b> <result>
# values: int as decimal, float as float.hex(); result "int:<v>", "float:<hex>", "bool:<0|1>", "error:<msg>".
import torch, math
ops = {'add': '+', 'sub': '-', 'mul': '*', 'div': '/', 'floordiv': '//', 'remainder': '%', 'pow': '**',
       'lt': '<', 'le': '<=', 'eq': '==', 'ne': '!=', 'gt': '>', 'ge': '>='}
ints = [0, 1, -1, 2, -2, 7, -7, 3, 2**62, -2**62, 2**63 - 1, -2**63, 1000003]
floats = [0.0, -0.0, 1.5, -1.5, 0.1, -7.25, 2.0, 1e308, -1e-310, float('inf'), float('-inf'), float('nan'), 3.0]
def fmt(t, v):
    return str(v) if t == 'int' else float(v).hex()
out = []
for name, sym in ops.items():
    for ta in ('int', 'float'):
        for tb in ('int', 'float'):
            src = f"def f(a: {ta}, b: {tb}):\n    return a {sym} b\n"
            fn = torch.jit.CompilationUnit(src).f
            for a in (ints if ta == 'int' else floats):
                for b in (ints if tb == 'int' else floats):
                    if ta == tb == 'int' and name in ('remainder',) and b == 0: continue      # SIGFPE in PyTorch
                    if ta == tb == 'int' and name in ('floordiv', 'remainder') and a == -2**63 and b == -1: continue
                    if ta == tb == 'int' and name == 'pow' and abs(b) > 64: continue
                    try:
                        r = fn(a, b)
                        if isinstance(r, bool): res = f"bool:{int(r)}"
                        elif isinstance(r, int): res = f"int:{r}"
                        else: res = f"float:{float(r).hex()}"
                    except Exception as e:
                        res = "error:" + str(e).strip().split('\n')[-1].replace('RuntimeError: ', '')
                    out.append(f"{name} {ta} {fmt(ta, a)} {tb} {fmt(tb, b)} {res}")
print("\n".join(out))
