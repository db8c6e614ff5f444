#!/usr/bin/env python3
"""Peer baseline for `simjoin bench --compare-scipy`: SciPy's cKDTree on the very same points.

Usage: scipy_ckdtree_count.py POINTS.npy EPS [POINTS_B.npy]
Prints one JSON object: {"seconds": [build + query time of its one run], "pairs": pair count, "note": how
its count relates to the exact one}, or {"missing": why} where SciPy or NumPy is not importable.
Self-join pairs (i < j) are (sum of neighbour counts - n) / 2, since query_ball_point counts each point
itself; r is inclusive.
"""
import json
import sys
import time


def main() -> None:
    try:
        import numpy as np
        from scipy.spatial import cKDTree
    except ImportError as error:
        print(json.dumps({"missing": str(error)}))
        return
    a = np.load(sys.argv[1])
    eps = float(sys.argv[2])
    b = np.load(sys.argv[3]) if len(sys.argv) > 3 else None
    start = time.perf_counter()
    tree = cKDTree(a)
    queries = a if b is None else b
    counts = tree.query_ball_point(queries, r=eps, workers=-1, return_length=True)
    seconds = time.perf_counter() - start
    total = int(np.sum(counts, dtype=np.int64))
    pairs = (total - len(a)) // 2 if b is None else total
    note = "one run; inclusive radius in float64, its own summation order"
    print(json.dumps({"seconds": [seconds], "pairs": pairs, "note": note}))


if __name__ == "__main__":
    main()
