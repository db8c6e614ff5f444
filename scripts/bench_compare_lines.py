#!/usr/bin/env python3
"""One line of scripts/bench-compare: reads the line's bench JSONs of two orders (reference and
candidate each) from OUT, prints each engine's medians and their ratio, and prints "FAIL: ..." for an
exact engine whose pair count differs between the builds or in one build between the orders, for a
missing JSON, and "SLOWER: ENGINE ..." for an engine slower in the candidate by more than LIMIT (a
fraction, 0.05 for 5 %).
Usage: bench_compare_lines.py OUT LINE_NUMBER LIMIT [ORDER ORDER]   (orders default to a b)"""
import json
import statistics
import sys


def results(path):
    """engine -> (pairs, exact, timed seconds) of one bench JSON, or None with a FAIL line."""
    try:
        runs = json.load(open(path)).get("results", [])
    except (OSError, ValueError) as error:
        print(f"FAIL: no bench JSON to compare ({path}: {error})")
        return None
    return {r["engine"]: (r["pairs"], r.get("exact", True), r.get("seconds", [])) for r in runs}


def build_results(out, build, line, orders):
    """engine -> (pairs per order, exact, timed seconds of both orders) of one build."""
    orders = [results(f"{out}/{build}-{line}-{order}.json") for order in orders]
    if None in orders:
        return None
    merged = {}
    for engine in set(orders[0]) & set(orders[1]):
        (pairs_a, exact, seconds_a), (pairs_b, _, seconds_b) = orders[0][engine], orders[1][engine]
        merged[engine] = ((pairs_a, pairs_b), exact, seconds_a + seconds_b)
    return merged


def counted(pairs):
    """One build's pair counts of both orders, as one number where they agree."""
    return str(pairs[0]) if pairs[0] == pairs[1] else f"{pairs[0]} then {pairs[1]}"


def compare(reference, candidate, limit):
    print(f"   {'engine':22} {'reference':>11} {'candidate':>11} {'ratio':>7}")
    for engine in sorted(set(reference) & set(candidate)):
        ref_pairs, exact, ref_seconds = reference[engine]
        cand_pairs, _, cand_seconds = candidate[engine]
        if exact and len(set(ref_pairs + cand_pairs)) != 1:
            print(f"FAIL: {engine} counted {counted(ref_pairs)} pairs in the reference build, "
                  f"{counted(cand_pairs)} in the candidate")
        if not ref_seconds or not cand_seconds:
            continue
        ref_median, cand_median = statistics.median(ref_seconds), statistics.median(cand_seconds)
        ratio = cand_median / ref_median
        print(f"   {engine:22} {ref_median * 1e3:9.1f}ms {cand_median * 1e3:9.1f}ms {ratio:7.3f}")
        if ratio > 1 + limit:
            print(f"SLOWER: {engine} is {100 * (ratio - 1):.1f} % slower in the candidate "
                  f"({ref_median * 1e3:.1f} ms -> {cand_median * 1e3:.1f} ms; limit {100 * limit:g} %)")


def main():
    out, line, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
    orders = sys.argv[4:6] if len(sys.argv) > 5 else ["a", "b"]
    reference, candidate = (build_results(out, build, line, orders) for build in ("reference", "candidate"))
    if reference is not None and candidate is not None:
        compare(reference, candidate, limit)


if __name__ == "__main__":
    main()
