#!/usr/bin/env python3
"""Time from a signal to the exit of `simjoin join --output P.npy --neighbors NB`, in each phase of the
run: the engine (pairs streamed to the file), the pair file's completion, and the neighbour lists'
counting, placing (building the graph), sorting and writing.

A reference run with SIMJOIN_PHASE_TRACE=1 gives each phase's start and length; then, for each phase
of at least --min-phase-ms, runs are signalled (SIGINT, SIGTERM, SIGHUP in turn) at a random moment
inside it, seen live from the "phase NAME" lines on stderr. Every interrupted run must exit with 130,
keep the older output files and leave no temporary. With --bound-ms, the smallest latency of each phase
must be within the bound: the minimum over --repeat runs, so that a moment of load on a shared machine
does not fail it. When a phase misses the bound while the machine's load per core is above 1.5 (other
processes hold the CPUs, so the time measures them), the run is reported as skipped (exit 77) with
the numbers, as tests/ui's ui_window_responsive does.

  tests/cli/signal_latency.py build/bin/simjoin --points 800000 --eps 0.01   # about 10^8 pairs (benchmark)
  tests/cli/signal_latency.py build/bin/simjoin --points 150000 --bound-ms 100   # ctest cli.signal_latency

SIMJOIN_TEST_SEED replays the moments. Prints one line per phase and 'N passed, N failed' last.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
OUTPUTS = ("P.npy", "NB.offsets.npy", "NB.ids.npy")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("simjoin")
    parser.add_argument("--points", type=int, default=150_000)
    parser.add_argument("--eps", type=float, default=0.01)
    parser.add_argument("--repeat", type=int, default=3, help="signalled runs per phase")
    parser.add_argument("--bound-ms", type=float, help="fail when a phase's smallest latency exceeds this")
    parser.add_argument("--min-phase-ms", type=float, default=20, help="phases shorter than this are skipped")
    return parser.parse_args()


def join_command(simjoin, points, directory, eps):
    return [simjoin, "join", "--input", points, "--eps", str(eps), "--engine", "cpu-grid", "--show", "0",
            "--output", f"{directory}/P.npy", "--neighbors", f"{directory}/NB"]


def start(command):
    env = dict(os.environ, SIMJOIN_PHASE_TRACE="1")
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)


def phase_lines(process):
    """(phase name, monotonic time its line arrived) as they come."""
    for line in process.stderr:
        if line.startswith("phase "):
            yield line[len("phase "):].strip(), time.monotonic()


def reference_phases(command):
    """[(name, seconds)] of an uninterrupted run, in order."""
    process = start(command)
    marks = list(phase_lines(process))
    process.wait()
    end = time.monotonic()
    if process.returncode != 0:
        sys.exit(f"reference run failed with exit {process.returncode}")
    return [(name, (marks[k + 1][1] if k + 1 < len(marks) else end) - at) for k, (name, at) in enumerate(marks)]


def signalled_run(command, directory, phase, delay, sig):
    """Signals the run `delay` seconds into `phase`; returns the latency in ms, or None when the run
    ended before the signal went."""
    for name in OUTPUTS:
        with open(f"{directory}/{name}", "w") as f:
            f.write("old")
    process = start(command)
    for name, _ in phase_lines(process):
        if name == phase:
            break
    time.sleep(delay)
    if process.poll() is not None:
        process.wait()
        return None
    sent = time.monotonic()
    process.send_signal(sig)
    process.wait(timeout=120)
    latency_ms = (time.monotonic() - sent) * 1000
    process.stderr.close()
    if process.returncode == 0:
        return None  # finished in the instant before the signal
    assert process.returncode == 130, f"{phase}, {signal.Signals(sig).name}: exit {process.returncode}"
    left = sorted(os.listdir(directory))
    assert left == sorted(OUTPUTS), f"{phase}: files left {left}"
    for name in OUTPUTS:  # the older file, or the complete new one (cli.signals compares its contents)
        with open(f"{directory}/{name}", "rb") as f:
            head = f.read(6)
        assert head in (b"old", b"\x93NUMPY"), f"{phase}: {name} neither the older file nor a NumPy file"
    return latency_ms


def main():
    args = parse_arguments()
    seed = int(os.environ.get("SIMJOIN_TEST_SEED", random.SystemRandom().randrange(2**31)))
    chance = random.Random(seed)
    print(f"seed {seed} (SIMJOIN_TEST_SEED={seed} replays), {args.points} points, eps {args.eps}")
    tmp = tempfile.mkdtemp(prefix="simjoin-latency-")
    points = f"{tmp}/points.npy"
    subprocess.run([args.simjoin, "generate", "--kind", "uniform", "--n", str(args.points), "--dims", "2",
                    "--low", "0", "--high", "1", "--seed", str(seed % 100000), "--out", points],
                   check=True, capture_output=True)
    directory = f"{tmp}/out"
    os.mkdir(directory)
    command = join_command(args.simjoin, points, directory, args.eps)
    phases = reference_phases(command)
    print("reference run: " + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in phases))
    failed = passed = 0
    for index, (phase, seconds) in enumerate(phases):
        if seconds * 1000 < args.min_phase_ms or phase.startswith("loading"):
            continue
        latencies = []
        # A phase may run shorter than in the reference run: a run that ended before its signal is
        # tried again (up to four times the runs asked for), signalled earlier each time.
        reach = 1.0
        for attempt in range(4 * args.repeat):
            if len(latencies) == args.repeat:
                break
            sig = SIGNALS[(index + attempt) % len(SIGNALS)]
            latency = signalled_run(command, directory, phase, chance.uniform(0.05, 0.6) * reach * seconds, sig)
            if latency is None:
                reach /= 2
            else:
                latencies.append(latency)
        shown = ", ".join(f"{l:.0f}" for l in latencies)
        ok = bool(latencies) and (args.bound_ms is None or min(latencies) <= args.bound_ms)
        verdict = "" if args.bound_ms is None else ("PASS " if ok else "FAIL ")
        print(f"{verdict}{phase} ({seconds * 1000:.0f} ms): signal to exit {shown} ms")
        passed, failed = passed + ok, failed + (not ok)
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    if failed and args.bound_ms is not None:
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
        if load > 1.5:
            print(f"SKIP: the machine is busy (load {load:.1f} per core), so the latencies measure other processes")
            sys.exit(77)
        sys.exit(1)


if __name__ == "__main__":
    main()
