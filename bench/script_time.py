"""Time to script a live torchvision model: kindling.jit.script against torch.jit.script in the same
process (issue 11's target: Kindling not slower). Each round builds a fresh model (so neither system
reuses the types it compiled for the previous one... torch caches compiled classes per Python class
object, Kindling per concrete type, both within the process) and scripts it with both, alternating which
goes first. Prints per-round seconds and the medians.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/script_time.py [model] [rounds]
"""
import statistics
import sys
import time
import warnings

import torch
import torchvision

import kindling.jit


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "resnet50"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    warnings.filterwarnings("ignore")
    ours, theirs = [], []
    for r in range(rounds):
        model = getattr(torchvision.models, name)().eval()
        order = [("kindling", kindling.jit.script), ("torch", torch.jit.script)]
        if r % 2:
            order.reverse()
        for who, script in order:
            t = time.perf_counter()
            script(model)
            dt = time.perf_counter() - t
            (ours if who == "kindling" else theirs).append(dt)
        print("round %d: kindling %.3fs torch %.3fs" % (r, ours[-1], theirs[-1]), flush=True)
    print("first call (cold): kindling %.3fs torch %.3fs" % (ours[0], theirs[0]))
    print("median: kindling %.3fs torch %.3fs ratio %.2f" % (statistics.median(ours), statistics.median(theirs),
                                                             statistics.median(ours) / statistics.median(theirs)))


if __name__ == "__main__":
    main()
