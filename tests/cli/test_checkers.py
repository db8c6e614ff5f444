#!/usr/bin/env python3
"""The checker scripts fail when fed a planted difference (and pass when there is none):

- scripts/real-coordinates-check, over a stand-in `simjoin` that counts the pairs with SciPy itself
  and plants one more for the engine named "planted", and exits 2 for "absent" (an engine that cannot
  run here: reported as skipped, a failure only with --require-all);
- scripts/bench-compare, over stand-ins that write `simjoin bench`'s JSON with a chosen pair count,
  time and exit code: a count differing between the two builds, a run's exit 5 (exact engines
  disagreeing), a candidate run that fails, or a candidate more than 5 % slower in both passes must
  fail it; 4 % slower passes, and so does a candidate slower in the first pass only (a noisy run: the
  second pass clears it), but not where the reference fails in the second pass. A line the reference
  cannot run (it fails, or outlasts $RUN_LIMIT) is listed as such and not compared;
- scripts/profile-kernel, over a stand-in `ncu` that prints a report of one launch: the summary's
  instructions per mma, tensor pipe share and stalls come from the report's numbers, and a report
  without a launch exits 1; with --source, over a stand-in that prints a source page of six SASS lines:
  instructions per mma, the opcodes' shares, the hottest run of lines executed alike, the stall
  reasons' shares and the instruction the most samples wait on; a page without lines exits 1;
- scripts/pruning-bounds, on 3,000 clustered points with every point a query: its share of pairs within
  eps is SciPy's, no bound leaves fewer pairs than that, more pivots never leave more, more principal
  components never more and all of them exactly those within eps, and the centroid window never more
  than the partitions test.

About 10 s. Exit 77 (a skip) where the interpreter has no SciPy.
  test_checkers.py [PYTHON]
"""
import os
import pathlib
import stat
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
PYTHON = sys.argv[1] if len(sys.argv) > 1 else sys.executable

COUNTING_SIMJOIN = """#!{python}
import sys
import numpy as np
from scipy.spatial import cKDTree
args = sys.argv[1:]
engine = args[args.index("--engine") + 1]
if engine == "absent":
    print("simjoin: engine absent is not available: no CUDA device", file=sys.stderr)
    sys.exit(2)
points = np.load(args[args.index("--input") + 1])
count = len(cKDTree(points).query_pairs(float(args[args.index("--eps") + 1]), output_type="ndarray"))
print(f"pairs:    {{count + (engine == 'planted')}}")
"""

BENCH_SIMJOIN = """#!{python}
import json
import pathlib
import sys
import time
args = sys.argv[1:]
time.sleep({sleep})
calls = pathlib.Path(sys.argv[0] + ".calls")
calls.write_text(calls.read_text() + "x" if calls.exists() else "x")
slow_calls = {slow_calls}  # this many first calls take `slow_seconds`
seconds = {slow_seconds} if len(calls.read_text()) <= slow_calls else {seconds}
status = 3 if len(calls.read_text()) > {fail_after} else {status}  # the calls after `fail_after` fail
json.dump({{"results": [{{"engine": "cpu-grid", "pairs": {pairs}, "exact": True, "seconds": [seconds] * 3}},
                        {{"engine": "cpu-kmeans-approx", "pairs": {pairs} - 7, "exact": False}}]}},
          open(args[args.index("--json") + 1], "w"))
print("cpu-grid  {pairs} pairs")
sys.exit(status)
"""


def stand_in(folder, name, text):
    path = pathlib.Path(folder) / name
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def run(command, **kwargs):
    env = dict(os.environ, SIMJOIN_PYTHON=PYTHON)
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, **kwargs)


def expect(result, code, text, what):
    output = result.stdout + result.stderr
    assert result.returncode == code, f"{what}: exit {result.returncode}, expected {code}\n{output}"
    assert text in output, f"{what}: no {text!r} in\n{output}"
    print(f"ok: {what}")


def real_coordinates(folder):
    simjoin = stand_in(folder, "simjoin", COUNTING_SIMJOIN.format(python=PYTHON))
    check = [str(ROOT / "scripts" / "real-coordinates-check"), "--points", "20000"]
    expect(run(check + [simjoin, "cpu-grid,cpu-nlj"]), 0, "every engine that ran agrees", "equal counts pass")
    expect(run(check + [simjoin, "cpu-grid,planted"]), 1, "DIFFERS from SciPy by 1", "a planted extra pair fails")
    expect(run(check + [simjoin, "cpu-grid,absent"]), 0, "absent           SKIPPED", "an engine that cannot run skips")
    expect(run(check + ["--require-all", simjoin, "absent"]), 1, "SKIPPED", "--require-all fails on a skip")


def bench_compare(folder):
    out = pathlib.Path(folder) / "out"
    script = [str(ROOT / "scripts" / "bench-compare")]
    line = ["--input x.npy --eps 0.1 --engines cpu-grid,cpu-kmeans-approx"]
    def bench(name, pairs=1000, status=0, seconds=0.1, slow_calls=0, slow_seconds=0.1, sleep=0, fail_after=1000):
        return stand_in(folder, name, BENCH_SIMJOIN.format(python=PYTHON, pairs=pairs, status=status, seconds=seconds,
                                                           slow_calls=slow_calls, slow_seconds=slow_seconds,
                                                           sleep=sleep, fail_after=fail_after))

    same, other, disagree = bench("same"), bench("other", pairs=1001), bench("disagree", status=5)
    slower, within = bench("slower", seconds=0.106), bench("within", seconds=0.104)
    noisy = bench("noisy", slow_calls=2, slow_seconds=0.12)
    failing, hanging = bench("failing", status=3), bench("hanging", sleep=30)
    # Slower in the first pass, whose reference then fails in the second (its third call).
    noisy_again, failing_later = bench("noisy-again", slow_calls=2, slow_seconds=0.12), bench("later", fail_after=2)
    for reference, candidate, code, text, what, limit in [
        (same, same, 0, "pair counts agree between the builds", "equal builds pass", "0"),
        (same, other, 1, "cpu-grid counted 1000 pairs in the reference build, 1001 in the candidate",
         "a planted count difference between the builds fails", "0"),
        (same, disagree, 1, "candidate (a): exit 5, its exact engines disagree", "an engine's exit 5 fails", "0"),
        (same, slower, 1, "cpu-grid is 6.0 % slower in the candidate", "a candidate 6 % slower fails", "0"),
        (same, within, 0, "no engine is more than 0.05 slower", "a candidate 4 % slower passes", "0"),
        (same, noisy, 0, "again, to confirm", "a candidate slower in the first pass only passes", "0"),
        (same, failing, 1, "candidate (a): exit 3", "a candidate run that fails fails", "0"),
        (failing, same, 0, "lines the reference could not run", "a line the reference cannot run is listed", "0"),
        (hanging, same, 0, "the reference's run: not finished in 1 s", "a reference past RUN_LIMIT is listed", "1"),
        (failing_later, noisy_again, 1, "in the second pass: exit 3; the first pass found: cpu-grid is 20.0 %",
         "a reference failing in the second pass leaves the first pass's finding", "0"),
    ]:
        env = dict(os.environ, SIMJOIN_PYTHON=PYTHON, OUT=str(out), RUN_LIMIT=limit)
        result = subprocess.run(script + [reference, candidate] + line, capture_output=True, text=True, timeout=120,
                                env=env)
        expect(result, code, text, what)


NCU_REPORT = """==PROF== Connected to process 948
[948] simjoin@127.0.0.1
  void tensor_kernel<1, 2>(TensorOperands, const float *) (264, 1, 1)x(256, 1, 1), Context 1, Stream 13, CC 9.0
    Section: Command line profiler metrics
    ---------------------------------------------------------------------- ----------- -------------
    Metric Name                                                            Metric Unit  Metric Value
    ---------------------------------------------------------------------- ----------- -------------
    gpu__time_duration.sum                                                          ms         19.66
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum                                       536,752
    l1tex__data_pipe_lsu_wavefronts_mem_shared.sum                                     1,258,149,907
    sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active           %         27.58
    smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio              inst          0.98
    smsp__average_warps_issue_stalled_wait_per_issue_active.ratio                 inst          1.64
    smsp__inst_executed.sum                                                       inst 7,896,421,821
    smsp__inst_executed_pipe_fmaheavy.sum                                         inst 4,232,669,781
    smsp__inst_executed_pipe_tensor_op_hmma.sum                                   inst   675,427,328
    smsp__inst_executed_pipe_xu.sum                                                          (!) n/a
    ---------------------------------------------------------------------- ----------- -------------
"""


def expect_profile(folder, ncu, options, expectations, summarize, empty):
    """scripts/profile-kernel OPTIONS tensor_kernel -- simjoin over a stand-in `ncu` (a shell script's
    text) prints each of `expectations` ((text, what) pairs), and its `summarize` option on a saved
    `empty` (a report or page without a launch) exits 1."""
    stand_in(folder, "ncu", ncu)
    env = dict(os.environ, PATH=f"{folder}:{os.environ['PATH']}")
    script = [PYTHON, str(ROOT / "scripts" / "profile-kernel")]
    result = subprocess.run(script + options + ["tensor_kernel", "--", "simjoin"], capture_output=True, text=True,
                            env=env)
    for text, what in expectations:
        expect(result, 0, text, what)
    saved = pathlib.Path(folder) / "empty.txt"
    saved.write_text(empty)
    result = subprocess.run(script + [summarize, str(saved)], capture_output=True, text=True)
    expect(result, 1, "", f"{summarize} of a report without a launch exits 1")


def profile_kernel(folder):
    report = pathlib.Path(folder) / "report.txt"
    report.write_text(NCU_REPORT)
    expect_profile(folder, f"#!/bin/sh\ncat {report}\n", [],
                   [("warp instructions per mma 11.7", "instructions per mma from the report"),
                    ("tensor pipe active 27.6 % of cycles", "the tensor pipe's share"),
                    ("fmaheavy 54%", "the pipes' shares"),
                    ("stalls (warps an issue): wait 1.64, barrier 0.98", "the stalls, largest first")],
                   "--summarize", NCU_REPORT.split("  void")[0])


# ncu's source page as CSV: a loop of three lines run 800 times, then a barrier whose waits sit on the
# instruction after it, 60 of the 100 stall samples.
SOURCE_PAGE = """"Kernel Name","tensor_kernel"
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","stall_barrier","stall_wait","stall_barrier (Not Issued)"
"0x0","LDC R1, c[0x0][0x28]","0","10","0","0","0"
"0x10","IMAD.HI.U32 R2, R19, R8, RZ","20","800","0","20","0"
"0x20","HMMA.16816.F32 R60, R88, R28, R60","0","800","0","0","0"
"0x30","@!P4  BRA 0x10","0","800","0","0","0"
"0x40","BAR.SYNC.DEFER_BLOCKING 0x0","0","100","0","0","0"
"0x50","UMOV UR4, 0x400","60","100","60","0","60"
"0x60","HMMA.16816.F32 R8, R4, R10, R12","20","100","0","20","0"
"""


def profile_source(folder):
    page = pathlib.Path(folder) / "page.csv"
    page.write_text(SOURCE_PAGE)
    expect_profile(folder, f"#!/bin/sh\ncase \"$*\" in *--page*) cat {page} ;; esac\n", ["--source"],
                   [("2.71e+03 warp instructions, 3.0 per mma", "instructions per mma from the source page"),
                    ("opcodes: HMMA 33%, IMAD 30%, BRA 30%", "the opcodes' shares"),
                    ("89% lines 1-3 (3 instructions x 800)", "the hottest run of lines executed alike"),
                    ("stall samples: barrier 60%, wait 40%", "the stall reasons' shares"),
                    ("60% of samples on line 5, UMOV UR4, 0x400 (mostly barrier)", "the most waited-on line")],
                   "--summarize-source", SOURCE_PAGE.split('"0x0"')[0])


def pruning_bounds(folder):
    points = pathlib.Path(folder) / "pruning.npy"
    command = [PYTHON, str(ROOT / "scripts" / "pruning-bounds"), "--model", "clusters", "--n", "3000", "--d", "16",
               "--eps", "0.05", "--queries", "3000", "--pivots", "1,4,16", "--k", "4,16", "--components", "2,8,16",
               "--save", str(points)]
    result = run(command)
    expect(result, 0, "| within eps (sampled queries) |", "pruning-bounds runs")
    rows = [(line.split("|")[1].strip(), float(line.split("|")[2])) for line in result.stdout.splitlines()
            if line.startswith("| ") and line.split("|")[2].strip()[:1].isdigit()]
    shares = dict(rows)
    check = ("import sys, numpy as np; from scipy.spatial import cKDTree; x = np.load(sys.argv[1]).astype(float); "
             "print(len(cKDTree(x).query_pairs(0.05)) / (len(x) * (len(x) - 1) / 2))")
    exact = float(run([PYTHON, "-c", check, str(points)]).stdout)
    within = shares["within eps (sampled queries)"]
    assert abs(within - exact) <= 1e-3 * exact, f"pruning-bounds: within eps {within}, SciPy {exact}"
    pivots = [shares[f"left by {m} pivot{'s' if m > 1 else ''} (sampled queries)"] for m in (1, 4, 16)]
    assert within <= pivots[2] <= pivots[1] <= pivots[0] <= 1, f"pruning-bounds: pivots {pivots}, within {within}"
    components = [shares[f"left by the top {k} components and the residual norm (sampled queries)"] for k in (2, 8, 16)]
    assert within <= components[2] <= components[1] <= components[0] <= 1, f"pruning-bounds: components {components}"
    assert abs(components[2] - within) <= 1e-3 * within, f"pruning-bounds: all 16 components {components[2]}, {within}"
    for k in (4, 16):
        row = [label for label, _ in rows].index(f"tested in KMEANS-JOIN's {k} partitions")
        tests, window = rows[row][1], rows[row + 1][1]
        assert within * 0.999 <= window <= tests, f"pruning-bounds: k {k}: tests {tests}, window {window}"
    print("ok: pruning-bounds agrees with SciPy and its bounds are ordered")


def main():
    if subprocess.run([PYTHON, "-c", "import numpy, scipy"], capture_output=True).returncode != 0:
        print(f"{PYTHON} has no NumPy or SciPy: skipped")
        return 77
    with tempfile.TemporaryDirectory() as folder:
        real_coordinates(folder)
        bench_compare(folder)
        profile_kernel(folder)
        profile_source(folder)
        pruning_bounds(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
