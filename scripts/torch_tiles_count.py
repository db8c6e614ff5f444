#!/usr/bin/env python3
"""Peer baseline for `simjoin bench --compare-torch`: the float32 brute force a data scientist would write
in PyTorch, on the very same points.

Usage: torch_tiles_count.py POINTS.npy EPS [POINTS_B.npy] [--warmup W] [--repeat R]
Tiles of 2048 rows of A against all of B (B = A for a self-join) in the norm form, in float32:
    d2 = |x|^2 + |y|^2 - 2 * X[i:i+2048] @ Y.T,   counted where d2 <= eps^2
(a self-join counts each unordered pair once, i < j). On the GPU where torch.cuda is available, else on
the CPU. Warm: the points are moved to the device once, before the W untimed and R timed runs; each run
ends when the device has finished (its count read back). Prints one JSON object: {"seconds": [one per
timed run], "pairs": count, "note": where and how it ran}, or {"missing": why} where PyTorch or NumPy is
not importable. Uses no API newer than torch 1.13 (Debian 12's python3-torch).
"""
import argparse
import json
import time

TILE = 2048


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("points")
    parser.add_argument("eps", type=float)
    parser.add_argument("points_b", nargs="?")
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    return parser.parse_args()


def count_pairs(torch, x, y, eps, self_join):
    """The pairs within eps by float32 tiles, read back to the host (which waits for the device)."""
    x2, y2 = (x * x).sum(1), (y * y).sum(1)
    columns = torch.arange(len(y), device=x.device)
    total = torch.zeros((), dtype=torch.int64, device=x.device)
    for i in range(0, len(x), TILE):
        d2 = x2[i:i + TILE, None] + y2[None, :] - 2 * x[i:i + TILE] @ y.T
        hits = d2 <= eps * eps
        if self_join:
            rows = torch.arange(i, i + len(hits), device=x.device)
            hits &= columns[None, :] > rows[:, None]
        total += hits.sum()
    if x.is_cuda:
        torch.cuda.synchronize()
    return int(total)


def device_note(torch, device):
    if device.type != "cuda":
        return "on the CPU: torch.cuda is not available"
    tf32 = "on" if torch.backends.cuda.matmul.allow_tf32 else "off"
    return f"on the GPU ({torch.cuda.get_device_name(device)}), TF32 {tf32}"


def main():
    options = arguments()
    try:
        import numpy as np
        import torch
    except ImportError as error:
        print(json.dumps({"missing": str(error)}))
        return
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    x = torch.from_numpy(np.load(options.points).astype(np.float32)).to(device)
    y = x if options.points_b is None else torch.from_numpy(np.load(options.points_b).astype(np.float32)).to(device)
    seconds, pairs = [], 0
    with torch.no_grad():
        for run in range(options.warmup + options.repeat):
            start = time.perf_counter()
            pairs = count_pairs(torch, x, y, options.eps, options.points_b is None)
            if run >= options.warmup:
                seconds.append(time.perf_counter() - start)
    note = (f"torch {torch.__version__} {device_note(torch, device)}; float32 norm form, {TILE}-row tiles; "
            f"warm: points moved to the device before timing")
    print(json.dumps({"seconds": seconds, "pairs": pairs, "note": note}))


if __name__ == "__main__":
    main()
