# Generates tests/unit/data/ops/list_slice_cases.txt: l[start:end:step] on [0, 1, 2, 3, 4] in PyTorch 1.13
# TorchScript (aten::slice.t). Line: <start|None> <end|None> <step> <comma-separated result or error:msg>
import torch
fn = torch.jit.CompilationUnit('''
def f(l: List[int], a: Optional[int], b: Optional[int], c: int):
    return l[a:b:c]
''').f
vals = [None] + list(range(-7, 8)) + [-2**63, 2**63 - 1]
for a in vals:
    for b in vals:
        for c in [-3, -2, -1, 1, 2, 3, 2**63 - 1, -2**63]:
            try:
                r = ",".join(str(x) for x in fn([0, 1, 2, 3, 4], a, b, c))
            except Exception as e:
                r = "error:" + str(e).strip().split('\n')[-1].replace('RuntimeError: ', '')
            print(f"{a} {b} {c} {r}")
